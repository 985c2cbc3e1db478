package checkout

import (
	"reflect"
	"slices"
	"testing"
)

func TestPythonModuleInfo(t *testing.T) {
	info, err := pythonModuleInfo([]byte(`import os, _pytest.reports as _r
from . import sibling
from ..pkg.sub import (a as b,
    c)
try: import json
except ImportError: pass
x = 1; import math
def f():
    from pystats.tests._impl import percentile
s = "import fake"
from .mod import *
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []pyImport{
		{Module: "os"}, {Module: "_pytest.reports"},
		{Module: ".", Names: []string{"sibling"}},
		{Module: "..pkg.sub", Names: []string{"a", "c"}},
		{Module: "json"}, {Module: "math"},
		{Module: "pystats.tests._impl", Names: []string{"percentile"}},
		{Module: ".mod", Names: []string{"*"}},
	}
	if !reflect.DeepEqual(info.imports, want) {
		t.Fatalf("imports\n got %+v\nwant %+v", info.imports, want)
	}
	if !slices.Contains(info.strings, `"import fake"`) {
		t.Fatalf("strings %q", info.strings)
	}
	if _, err := pythonModuleInfo([]byte("x = (\n")); err == nil {
		t.Fatal("an unterminated bracket was read")
	}
}

func TestPyGraph(t *testing.T) {
	infos := map[string]*pyModuleInfo{}
	add := func(p, src string) {
		info, err := pythonModuleInfo([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		infos[p] = info
	}
	add("src/pkg/__init__.py", "from .api import run\n")
	add("src/pkg/api.py", "from . import util\nfrom pkg.tests import _impl\n")
	add("src/pkg/util.py", "")
	add("src/pkg/tests/__init__.py", "")
	add("src/pkg/tests/_impl.py", "from ._deep import x\n")
	add("src/pkg/tests/_deep.py", "")
	add("src/pkg/checks.py", "")
	add("tests/helpers.py", "")
	add("tests/test_api.py", "from pkg.api import run\nfrom pkg import checks\nimport helpers\n")
	add("tools/cli.py", "import pkg\n")
	g := newPyGraph(infos)
	isTest := func(p string) bool { return isTestFile(p, nil) }
	eligible := func(p string) bool { return isPythonTestFile(p) && !IsPytestModule(p) }
	if got, want := g.sourceByUse(isTest, eligible), []string{"src/pkg/tests/__init__.py", "src/pkg/tests/_deep.py", "src/pkg/tests/_impl.py"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("source by use %q, want %q", got, want)
	}
	isSource := func(p string) bool {
		return !isTest(p) || slices.Contains([]string{"src/pkg/tests/__init__.py", "src/pkg/tests/_deep.py", "src/pkg/tests/_impl.py"}, p)
	}
	if got, want := g.testOnly(isSource), []string{"src/pkg/checks.py"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("test only %q, want %q", got, want)
	}
	if imps := g.importers["tests/helpers.py"]; !reflect.DeepEqual(imps, []string{"tests/test_api.py"}) {
		t.Fatalf("importers of tests/helpers.py %q (tests/ has no __init__.py: pytest puts it on sys.path)", imps)
	}

	// A library only its tests import in the tree (its users are outside
	// it): the top-level package's __init__.py is its API, and what it
	// imports is production; a helper only tests import, and a subpackage
	// only tests import, are test support.
	infos = map[string]*pyModuleInfo{}
	add("lib/__init__.py", "from .more import *\nfrom .recipes import *\n")
	add("lib/more.py", "from .recipes import take\n")
	add("lib/recipes.py", "")
	add("lib/checks.py", "")
	add("lib/testutil/__init__.py", "from .close import close\n")
	add("lib/testutil/close.py", "")
	add("tests/test_partition.py", "from lib import partition\nfrom lib.checks import close\nfrom lib.testutil import close\n")
	g = newPyGraph(infos)
	if got, want := g.testOnly(func(p string) bool { return !isTest(p) }), []string{"lib/checks.py", "lib/testutil/__init__.py", "lib/testutil/close.py"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("test only %q, want %q", got, want)
	}
}

func FuzzPythonModuleInfo(f *testing.F) {
	for _, seed := range []string{
		"import os, _pytest.reports as _r\nfrom . import x\n",
		"from ..a.b import (c as d,\n e)\ntry: import f\nexcept: pass\n",
		"x = 'import y'; from z import *\n",
		"from import\nimport\nfrom . import\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		info, err := pythonModuleInfo(src)
		if err != nil {
			return
		}
		for _, imp := range info.imports {
			if imp.Module == "" {
				t.Fatalf("an import without a module: %+v", imp)
			}
		}
		g := newPyGraph(map[string]*pyModuleInfo{"a/b.py": info, "a/__init__.py": info, "tests/test_x.py": info})
		_ = g.sourceByUse(func(p string) bool { return isTestFile(p, nil) }, isPythonTestFile)
		_ = g.testOnly(func(p string) bool { return !isTestFile(p, nil) })
	})
}
