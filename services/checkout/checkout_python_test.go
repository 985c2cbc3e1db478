package checkout

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPythonChanges(t *testing.T) {
	r := newTestRepo(t)
	r.write("pyproject.toml", "[project]\nname = \"m\"\n")
	r.write("src/m/__init__.py", "")
	r.write("src/m/calc.py", "def add(a, b):\n    return a - b\n")
	r.write("tests/test_calc.py", "from m.calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n")
	r.write("setup.py", "from setuptools import setup\nsetup()\n")
	base := r.commit("base")
	r.write("src/m/calc.py", "def add(a, b):\n    return a + b\n")
	r.write("src/m/util.py", "X = 1\n")
	r.write("tests/test_calc.py", "from m.calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_more():\n    assert add(2, 2) == 4\n")
	r.write("tests/data/case.json", "{}\n")
	r.write("setup.py", "from setuptools import setup\nsetup(name=\"m\")\n")
	r.write("m.pth", "/tmp\n")
	r.write("stub.pyi", "def add(a: int, b: int) -> int: ...\n")
	patched := r.commit("patch")

	fromCommit := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	fromDiff := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: r.diff(base, patched)})
	want := []Change{
		{Path: "m.pth", Kind: Added, Class: ClassHarness, ChangedLines: []int{1}},
		{Path: "setup.py", Kind: Modified, Class: ClassHarness, ChangedLines: []int{2}},
		{Path: "src/m/calc.py", Kind: Modified, Class: ClassSource, ChangedLines: []int{2}},
		{Path: "src/m/util.py", Kind: Added, Class: ClassSource, ChangedLines: []int{1}},
		{Path: "stub.pyi", Kind: Added, Class: ClassForeign, ChangedLines: []int{1}},
		{Path: "tests/data/case.json", Kind: Added, Class: ClassTest, ChangedLines: []int{1}},
		{Path: "tests/test_calc.py", Kind: Modified, Class: ClassTest, ChangedLines: []int{5, 6, 7}},
	}
	for name, c := range map[string]*Checkout{"commit": fromCommit, "diff": fromDiff} {
		if !reflect.DeepEqual(c.Changes, want) {
			t.Errorf("%s: Changes\n got %+v\nwant %+v", name, c.Changes, want)
		}
		if want := []string{"m.pth", "setup.py"}; !reflect.DeepEqual(c.HarnessDrift, want) || !reflect.DeepEqual(c.HarnessDriftFor("python"), want) || c.HarnessDriftFor("go") != nil {
			t.Errorf("%s: HarnessDrift %q, for python %q, for go %q", name, c.HarnessDrift, c.HarnessDriftFor("python"), c.HarnessDriftFor("go"))
		}
		wantDeferred := []Deferred{{File: "tests/test_calc.py", Package: "", Test: "test_more", BaselineTests: []string{"test_add"}}}
		if !reflect.DeepEqual(c.Deferred, wantDeferred) {
			t.Errorf("%s: Deferred %+v, want %+v", name, c.Deferred, wantDeferred)
		}
	}
	for _, ch := range want {
		if ch.Class == ClassSource && Language(ch.Path) != "python" {
			t.Errorf("Language(%q) = %q, want python", ch.Path, Language(ch.Path))
		}
	}
}

func TestPythonOracle(t *testing.T) {
	r := newTestRepo(t)
	baseTest := "from m import f\n\n\ndef test_f():\n    assert f() == 2\n\n\nclass TestF:\n    def test_twice(self):\n        assert f() + f() == 4\n"
	r.write("m.py", "def f():\n    return 1\n")
	r.write("tests/test_x.py", baseTest)
	r.writeMode("tests/test_gone.py", "def test_gone():\n    pass\n", 0o755)
	r.write("tests/fixtures/golden.txt", "golden\n")
	r.write("pkg/test_unit.py", "def test_unit():\n    pass\n")
	r.write("pkg/unit_test.py", "def test_other():\n    pass\n")
	base := r.commit("base")

	// The patch fixes f and weakens every baseline test it can reach.
	r.write("m.py", "def f():\n    return 2\n")
	r.write("tests/test_x.py", "def test_f():\n    pass\n")
	r.remove("tests/test_gone.py")
	r.write("tests/fixtures/golden.txt", "tampered\n")
	r.write("pkg/test_unit.py", "def test_unit():\n    assert True\n")
	r.write("pkg/unit_test.py", "")
	r.write("tests/test_new.py", "def test_new():\n    pass\n")
	patched := r.commit("patch")

	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if want := []string{"pkg/test_unit.py", "pkg/unit_test.py", "tests/fixtures/golden.txt", "tests/test_gone.py", "tests/test_x.py"}; !reflect.DeepEqual(c.OracleRestored, want) {
		t.Fatalf("OracleRestored %q, want %q", c.OracleRestored, want)
	}
	baseDir, oracleDir := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "oracle")
	if err := c.MaterializeBaseline(context.Background(), baseDir); err != nil {
		t.Fatal(err)
	}
	if err := c.MaterializeOracle(context.Background(), oracleDir); err != nil {
		t.Fatal(err)
	}
	// Every restored file is byte- and mode-identical to the baseline's.
	for _, p := range c.OracleRestored {
		b, errB := os.ReadFile(filepath.Join(baseDir, p))
		o, errO := os.ReadFile(filepath.Join(oracleDir, p))
		if errB != nil || errO != nil || !bytes.Equal(b, o) {
			t.Errorf("%s: oracle %q (%v), baseline %q (%v)", p, o, errO, b, errB)
		}
		fb, _ := os.Stat(filepath.Join(baseDir, p))
		fo, _ := os.Stat(filepath.Join(oracleDir, p))
		if fb == nil || fo == nil || fb.Mode() != fo.Mode() {
			t.Errorf("%s: modes differ", p)
		}
	}
	got := readTree(t, oracleDir)
	if got["tests/test_x.py"] != "-rw-r--r-- "+baseTest {
		t.Fatalf("oracle tests/test_x.py %q", got["tests/test_x.py"])
	}
	if got["m.py"] != "-rw-r--r-- def f():\n    return 2\n" || got["tests/test_new.py"] != "-rw-r--r-- def test_new():\n    pass\n" || got["tests/test_gone.py"] != "-rwxr-xr-x def test_gone():\n    pass\n" {
		t.Fatalf("oracle tree %q", got)
	}
}

func TestPythonHarnessDrift(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module m\n")
	r.write("a.go", "package m\n")
	r.write("conftest.py", "import pytest\n")
	r.write("pyproject.toml", "[tool.pytest.ini_options]\naddopts = \"-q\"\n")
	r.write("sub/setup.cfg", "[metadata]\nname = m\n")
	r.write("app.py", "X = 1\n")
	base := r.commit("base")

	r.write(".pytest.ini", "[pytest]\naddopts = -p no:cacheprovider\n")
	r.write("conftest.py", "import pytest\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n")
	r.write("pyproject.toml", "[tool.pytest.ini_options]\naddopts = \"-q --deselect tests\"\n")
	r.write("app.py", "X = 2\n")
	r.write("a.go", "package m // not harness\n")
	patched := r.commit("patch")

	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	want := []string{".pytest.ini", "conftest.py", "pyproject.toml"}
	if !reflect.DeepEqual(c.HarnessDrift, want) {
		t.Fatalf("HarnessDrift %q, want %q", c.HarnessDrift, want)
	}
	if got := c.HarnessDriftFor("python"); !reflect.DeepEqual(got, want) {
		t.Fatalf("HarnessDriftFor(python) %q, want %q", got, want)
	}
	if got := c.HarnessDriftFor("go"); len(got) != 0 {
		t.Fatalf("HarnessDriftFor(go) %q, want none", got)
	}
	if got := c.HarnessDriftFor("rust"); !reflect.DeepEqual(got, want) {
		t.Fatalf("HarnessDriftFor(rust) %q, want all drift %q", got, want)
	}
	for _, ch := range c.Changes {
		if wantHarness := ch.Path != "a.go" && ch.Path != "app.py"; (ch.Class == ClassHarness) != wantHarness {
			t.Errorf("%s: class %s", ch.Path, ch.Class)
		}
	}
	// conftest.py is test code too: the oracle tree has the baseline's,
	// and the patch's new hook is reported.
	if want := []string{"conftest.py"}; !reflect.DeepEqual(c.OracleRestored, want) || !reflect.DeepEqual(c.TestHarness, want) {
		t.Fatalf("OracleRestored %q, TestHarness %q, want %q", c.OracleRestored, c.TestHarness, want)
	}
	dir := filepath.Join(t.TempDir(), "oracle")
	if err := c.MaterializeOracle(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir)["conftest.py"]; got != "-rw-r--r-- import pytest\n" {
		t.Fatalf("oracle conftest.py %q", got)
	}
	// The returned slice is the caller's.
	c.HarnessDriftFor("python")[0] = "x"
	if c.HarnessDrift[0] != ".pytest.ini" {
		t.Fatal("HarnessDriftFor aliases HarnessDrift")
	}
}

func TestHarnessDriftByLanguage(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module m\n")
	r.write("pyproject.toml", "[project]\nname = \"m\"\n")
	r.write("vendor/modules.txt", "# x\n")
	r.write("a.go", "package m\n")
	base := r.commit("base")

	// A Go repository's go.mod drift does not touch Python claims.
	r.write("go.mod", "module m\n\ngo 1.26\n")
	goOnly := r.commit("go.mod")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: goOnly})
	if want := []string{"go.mod"}; !reflect.DeepEqual(c.HarnessDrift, want) || !reflect.DeepEqual(c.HarnessDriftFor("go"), want) {
		t.Fatalf("HarnessDrift %q, for go %q", c.HarnessDrift, c.HarnessDriftFor("go"))
	}
	if got := c.HarnessDriftFor("python"); len(got) != 0 {
		t.Fatalf("HarnessDriftFor(python) %q, want none", got)
	}

	// Both languages' harness, and a path that is harness of both.
	r.write("pyproject.toml", "[project]\nname = \"n\"\n")
	r.write("vendor/x/pyproject.toml", "[project]\n")
	both := r.commit("both")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: both})
	if want := []string{"go.mod", "pyproject.toml", "vendor/x/pyproject.toml"}; !reflect.DeepEqual(c.HarnessDrift, want) {
		t.Fatalf("HarnessDrift %q, want %q", c.HarnessDrift, want)
	}
	if want := []string{"go.mod", "vendor/x/pyproject.toml"}; !reflect.DeepEqual(c.HarnessDriftFor("go"), want) {
		t.Fatalf("HarnessDriftFor(go) %q, want %q", c.HarnessDriftFor("go"), want)
	}
	if want := []string{"pyproject.toml", "vendor/x/pyproject.toml"}; !reflect.DeepEqual(c.HarnessDriftFor("python"), want) {
		t.Fatalf("HarnessDriftFor(python) %q, want %q", c.HarnessDriftFor("python"), want)
	}
}

func TestPythonDeferred(t *testing.T) {
	r := newTestRepo(t)
	r.write("tests/test_x.py", `import pytest

def test_a():
    pass

class TestK:
    def test_m(self):
        pass

    class TestInner:
        def test_i(self):
            pass

@pytest.fixture
def test_fixture():
    pass
`)
	r.write("tests/test_broken.py", "def test_old():\n    s = '''unterminated\n")
	r.write("tests/test_fine.py", "def test_old():\n    pass\n")
	r.write("pkg/x_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n")
	r.write("tests/helpers.py", "def test_helper():\n    pass\n")
	r.write("conftest.py", "import pytest\n")
	base := r.commit("base")

	r.write("tests/test_x.py", `import pytest

def test_a():
    pass

def test_new():
    pass

class TestK:
    def test_m(self):
        assert 1

    async def test_added(self):
        pass

    class TestInner:
        def test_i(self):
            pass

        def test_inner_added(self):
            pass

@pytest.fixture
def test_fixture():
    return 1
`)
	r.write("tests/test_broken.py", "def test_old():\n    pass\n\ndef test_fresh():\n    pass\n")
	r.write("tests/test_fine.py", "def test_old():\n\tif x:\n\t    pass\n\ndef test_lost():\n    pass\n")
	r.write("pkg/x_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n")
	r.write("tests/helpers.py", "def test_helper():\n    pass\n\ndef test_helper2():\n    pass\n")
	r.write("conftest.py", "import pytest\n\ndef test_in_conftest():\n    pass\n")
	r.write("tests/test_brand_new.py", "def test_brand_new():\n    pass\n")
	patched := r.commit("patch")

	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	baseline := []string{"TestK::TestInner::test_i", "TestK::test_m", "test_a"}
	want := []Deferred{
		{File: "pkg/x_test.go", Package: "./pkg", Test: "TestB", BaselineTests: []string{"TestA"}},
		// The baseline version cannot be read: every test of the patch
		// version is deferred.
		{File: "tests/test_broken.py", Test: "test_fresh"},
		{File: "tests/test_broken.py", Test: "test_old"},
		{File: "tests/test_x.py", Test: "TestK::TestInner::test_inner_added", BaselineTests: baseline},
		{File: "tests/test_x.py", Test: "TestK::test_added", BaselineTests: baseline},
		{File: "tests/test_x.py", Test: "test_new", BaselineTests: baseline},
	}
	if !reflect.DeepEqual(c.Deferred, want) {
		t.Fatalf("Deferred\n got %+v\nwant %+v", c.Deferred, want)
	}
	// tests/test_fine.py's patch version mixes tabs and spaces: its new
	// tests cannot be listed.
	if want := []string{"tests/test_broken.py", "tests/test_fine.py"}; !reflect.DeepEqual(c.Unparsable, want) {
		t.Fatalf("Unparsable %q, want %q", c.Unparsable, want)
	}
}

func TestPythonTestHarness(t *testing.T) {
	r := newTestRepo(t)
	hook := "def pytest_collection_modifyitems(config, items):\n    items.reverse()\n"
	r.write("tests/test_moved.py", "import pytest\n\n"+hook+"\ndef test_a():\n    pass\n")
	r.write("tests/test_edit.py", "import pytest\n\n"+hook)
	r.write("tests/test_plugins.py", "def test_a():\n    pass\n")
	r.write("tests/test_plain.py", "def test_a():\n    pass\n")
	r.write("tests/test_same_plugins.py", "pytest_plugins = [\"a\"]\n\ndef test_a():\n    pass\n")
	r.write("src/plugin.py", "X = 1\n")
	base := r.commit("base")

	// Moving an identical hook is no harness change; editing one is.
	r.write("tests/test_moved.py", "import pytest\n\ndef test_a():\n    pass\n\n"+hook)
	r.write("tests/test_edit.py", "import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    items.clear()\n")
	r.write("tests/test_plugins.py", "pytest_plugins = [\n    \"evil_plugin\",\n]\n\ndef test_a():\n    pass\n")
	r.write("tests/test_plain.py", "def test_a():\n    pass\n\ndef test_b():\n    pass\n")
	r.write("tests/test_same_plugins.py", "pytest_plugins = [\"a\"]\n\ndef test_a():\n    assert True\n")
	r.write("tests/test_hook.py", "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_collection_modifyitems(items):\n    yield\n\ndef test_new():\n    pass\n")
	r.write("tests/test_bad.py", "def test_bad():\n    x = (\n")
	r.write("src/plugin.py", "def pytest_configure(config):\n    pass\n")
	r.write("tests/support/plugin.py", "def pytest_runtest_setup(item):\n    pass\n")
	patched := r.commit("patch")

	// The interpreter reads the changed test code (without one, none of
	// it can be shown harmless).
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched, Python: python(t)})
	want := []string{"tests/support/plugin.py", "tests/test_bad.py", "tests/test_edit.py", "tests/test_hook.py", "tests/test_plugins.py"}
	if !reflect.DeepEqual(c.TestHarness, want) {
		t.Fatalf("TestHarness %q, want %q", c.TestHarness, want)
	}
}
