package pymutant

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestImporters(t *testing.T) {
	python := interpreter(t)
	tree := map[string]string{
		"pkg/__init__.py":         "from .stats import mean\n",
		"pkg/stats.py":            "import math\nTABLE = {1: 2}\n",
		"pkg/other.py":            "def f():\n    from . import stats\n    return stats\n",
		"pkg/lazy.py":             "import importlib\nm = importlib.import_module('pkg.deep.leaf')\n",
		"pkg/deep/__init__.py":    "",
		"pkg/deep/leaf.py":        "X = 1\n",
		"tests/test_stats.py":     "from pkg.stats import TABLE\n",
		"tests/test_package.py":   "import pkg\n",
		"tests/test_other.py":     "from pkg import other\n",
		"tests/test_lazy.py":      "import pkg.lazy\n",
		"tests/test_unrelated.py": "import json\n",
		"tests/test_broken.py":    "from pkg import (\n",
		"conftest.py":             "import pkg.deep\n",
		"src/lib/__init__.py":     "",
		"src/lib/core.py":         "Y = 2\n",
		"tests/test_src.py":       "from lib.core import Y\n",
	}
	root := t.TempDir()
	var files []string
	for p, src := range tree {
		writeTree(t, root, p, src)
		files = append(files, p)
	}
	slices.Sort(files)
	imps, err := ReadImports(t.Context(), python, root, files)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := imps["tests/test_broken.py"]; ok {
		t.Error("a file that does not parse has imports")
	}
	for target, want := range map[string][]string{
		// Through the package's __init__, which imports it (conftest.py
		// imports pkg.deep, so pkg too).
		"pkg/stats.py": {"conftest.py", "pkg/__init__.py", "pkg/lazy.py", "pkg/other.py", "tests/test_lazy.py", "tests/test_other.py", "tests/test_package.py", "tests/test_stats.py"},
		// A relative import inside a function counts.
		"pkg/other.py":     {"tests/test_other.py"},
		"pkg/deep/leaf.py": {"pkg/lazy.py", "tests/test_lazy.py"},
		// conftest.py imports pkg.deep: its __init__ and pkg's.
		"pkg/deep/__init__.py": {"conftest.py", "pkg/lazy.py", "tests/test_lazy.py"},
		// src/ on sys.path: lib.core is src/lib/core.py.
		"src/lib/core.py":         {"tests/test_src.py"},
		"tests/test_unrelated.py": nil,
	} {
		if got := Importers(imps, files, target); !slices.Equal(got, want) {
			t.Errorf("importers of %s: %v, want %v", target, got, want)
		}
	}
}

func writeTree(t *testing.T, root, p, src string) {
	t.Helper()
	f := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseImportsRejects(t *testing.T) {
	files := []string{"a.py"}
	if imps, err := ParseImports([]byte(`{"imports":{"a.py":[["os.path",0,[]],["",1,["x","*"]]]}}`), files); err != nil || len(imps["a.py"]) != 2 {
		t.Fatalf("%v, %v", imps, err)
	}
	for name, out := range map[string]string{
		"empty":            ``,
		"no imports":       `{}`,
		"null":             `{"imports":null}`,
		"unknown member":   `{"imports":{},"x":1}`,
		"file not asked":   `{"imports":{"b.py":[]}}`,
		"two members":      `{"imports":{"a.py":[["os",0]]}}`,
		"level negative":   `{"imports":{"a.py":[["os",-1,[]]]}}`,
		"level huge":       `{"imports":{"a.py":[["os",1000,[]]]}}`,
		"level a string":   `{"imports":{"a.py":[["os","1",[]]]}}`,
		"no module":        `{"imports":{"a.py":[["",0,[]]]}}`,
		"bad module":       `{"imports":{"a.py":[["os/path",0,[]]]}}`,
		"empty part":       `{"imports":{"a.py":[["os..path",0,[]]]}}`,
		"bad name":         `{"imports":{"a.py":[["os",0,["a b"]]]}}`,
		"null names":       `{"imports":{"a.py":[["os",0,null]]}}`,
		"two values":       `{"imports":{}} {}`,
		"invalid UTF-8":    "{\"imports\":{\"a.py\":[[\"o\xff\",0,[]]]}}",
		"module a number":  `{"imports":{"a.py":[[1,0,[]]]}}`,
		"digit first":      `{"imports":{"a.py":[["1os",0,[]]]}}`,
		"replacement char": `{"imports":{"a.py":[["o\ufffd",0,[]]]}}`,
	} {
		if imps, err := ParseImports([]byte(out), files); err == nil {
			t.Errorf("%s: accepted %v", name, imps)
		}
	}
}

func FuzzParseImports(f *testing.F) {
	f.Add([]byte(`{"imports":{"a.py":[["os.path",0,[]],["",1,["x","*"]]]}}`))
	f.Add([]byte(`{"imports":{}}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		imps, err := ParseImports(out, []string{"a.py", "b/c.py"})
		if err != nil {
			return
		}
		for p, list := range imps {
			if p != "a.py" && p != "b/c.py" {
				t.Fatalf("file %q", p)
			}
			for _, imp := range list {
				if imp.Level < 0 || imp.Level > maxImportLevel || imp.Module == "" && imp.Level == 0 ||
					imp.Module != "" && !isDotted(imp.Module) || strings.Contains(imp.Module, "/") {
					t.Fatalf("accepted %+v", imp)
				}
			}
		}
		// Whatever was accepted resolves without trouble.
		Importers(imps, []string{"a.py", "b/c.py", "b/__init__.py"}, "a.py")
	})
}
