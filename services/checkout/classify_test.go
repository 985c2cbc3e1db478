package checkout

import "testing"

func TestClassify(t *testing.T) {
	support := []string{"internal/testutil/*", "*_fixture.go", "tools/??.go"}
	cases := []struct {
		path            string
		binary, symlink bool
		want            Class
	}{
		{"main.go", false, false, ClassSource},
		{"pkg/deep/x.go", false, false, ClassSource},
		{"pkg/x_test.go", false, false, ClassTest},
		{"pkg/testdata/in.go", false, false, ClassTest},
		{"testdata/img.png", true, false, ClassTest},
		{"a/b/testdata/c/d.txt", false, false, ClassTest},
		{"internal/testutil/deep/helper.go", false, false, ClassTest},
		{"pkg/db_fixture.go", false, false, ClassTest},
		{"tools/ab.go", false, false, ClassTest},
		{"tools/abc.go", false, false, ClassSource},
		{"go.mod", false, false, ClassHarness},
		{"sub/go.sum", false, false, ClassHarness},
		{"go.work", false, false, ClassHarness},
		{"a/go.work.sum", false, false, ClassHarness},
		{"vendor/modules.txt", false, false, ClassHarness},
		{"x/vendor/y/z_test.go", false, false, ClassHarness},
		{"testdata/go.mod", false, false, ClassHarness},
		{"go.work.bak", false, false, ClassForeign},
		{"vendorx/a.go", false, false, ClassSource},
		{"logo.png", true, false, ClassBinary},
		{"data.json", true, false, ClassBinary},
		{"link.go", false, true, ClassForeign},
		{"docs/link.md", false, true, ClassForeign},
		{"README", false, false, ClassOther},
		{"README.md", false, false, ClassOther},
		{"docs/readme-ja", false, false, ClassOther},
		{"CHANGELOG", false, false, ClassOther},
		{"LICENSE", false, false, ClassOther},
		{"LICENSE-MIT", false, false, ClassOther},
		{"notes.TXT", false, false, ClassOther},
		{"config.yaml", false, false, ClassOther},
		{".github/workflows/ci.yml", false, false, ClassOther},
		{"pyproject.toml", false, false, ClassHarness}, // Python harness
		{"table.csv", false, false, ClassOther},
		{".gitignore", false, false, ClassOther},
		{"sub/.gitattributes", false, false, ClassOther},
		{"README.sh", false, false, ClassForeign},
		{"readmefirst.py", false, false, ClassSource}, // Python source
		{"Makefile", false, false, ClassForeign},
		{"Dockerfile", false, false, ClassForeign},
		{"script.sh", false, false, ClassForeign},
		{"app.py", false, false, ClassSource}, // Python source
		{"asm_amd64.s", false, false, ClassForeign},
		{"cgo.c", false, false, ClassForeign},
		{"x.GO", false, false, ClassForeign},
		{"noext", false, false, ClassForeign},
		{"weird.xyz", false, false, ClassForeign},
	}
	for _, tc := range cases {
		if got := classify(tc.path, support, tc.binary, tc.symlink); got != tc.want {
			t.Errorf("classify(%q, binary=%v, symlink=%v) = %s, want %s", tc.path, tc.binary, tc.symlink, got, tc.want)
		}
	}
}

func TestClassifyPython(t *testing.T) {
	cases := []struct {
		path            string
		binary, symlink bool
		want            Class
	}{
		// Test files at any depth, and anything under tests/.
		{"test_x.py", false, false, ClassTest},
		{"pkg/test_x.py", false, false, ClassTest},
		{"a/b/c/x_test.py", false, false, ClassTest},
		{"_test.py", false, false, ClassTest},
		{"test_.py", false, false, ClassTest},
		{"tests/helpers.py", false, false, ClassTest},
		{"src/pkg/tests/__init__.py", false, false, ClassTest},
		{"tests/fixtures/data.json", false, false, ClassTest},
		{"tests/img.png", true, false, ClassTest},
		{"tests/link.py", false, true, ClassTest},
		// A Go file under tests/ keeps Go's rules.
		{"tests/helper.go", false, false, ClassSource},
		{"tests/helper_test.go", false, false, ClassTest},
		// Not test files.
		{"testx.py", false, false, ClassSource},
		{"test.py", false, false, ClassSource},
		{"Test_x.py", false, false, ClassSource},
		{"x_test.pyc", true, false, ClassHarness},
		{"testsx/a.py", false, false, ClassSource},
		{"mytests/a.py", false, false, ClassSource},
		{"tests", false, false, ClassForeign},
		// Harness at any depth; conftest.py is harness before test code.
		{"conftest.py", false, false, ClassHarness},
		{"tests/conftest.py", false, false, ClassHarness},
		{"a/b/conftest.py", false, false, ClassHarness},
		{"pytest.ini", false, false, ClassHarness},
		{"sub/.pytest.ini", false, false, ClassHarness},
		{"pytest.toml", false, false, ClassHarness},
		{".pytest.toml", false, false, ClassHarness},
		{"tox.ini", false, false, ClassHarness},
		{"pkg/pyproject.toml", false, false, ClassHarness},
		{"setup.cfg", false, false, ClassHarness},
		{"setup.py", false, false, ClassHarness},
		{"tests/setup.py", false, false, ClassHarness},
		{"sitecustomize.py", false, false, ClassHarness},
		{"lib/usercustomize.py", false, false, ClassHarness},
		{"site-packages/easy.pth", false, false, ClassHarness},
		{"x.pth", true, false, ClassHarness},
		{"conftest.py", false, true, ClassHarness},
		// What the import system reads besides the source: entry points
		// (pytest plugins), bytecode, extension modules.
		{"evil-1.0.dist-info/entry_points.txt", false, false, ClassHarness},
		{"evil-1.0.dist-info/METADATA", false, false, ClassHarness},
		{"src/evil.egg-info/entry_points.txt", false, false, ClassHarness},
		{"evil.egg-link", false, false, ClassHarness},
		{"pkg/__pycache__/mod.cpython-311.pyc", true, false, ClassHarness},
		{"pkg/__pycache__/notes.txt", false, false, ClassHarness},
		{"pkg/mod.pyc", true, false, ClassHarness},
		{"pkg/mod.cpython-311-x86_64-linux-gnu.so", true, false, ClassHarness},
		{"pkg/mod.pyd", true, false, ClassHarness},
		{"tests/__pycache__/test_a.cpython-311-pytest-7.2.1.pyc", true, false, ClassHarness},
		{"docs/dist-info.md", false, false, ClassOther},
		{"other.ini", false, false, ClassForeign},
		{"setup.py.orig", false, false, ClassForeign},
		{"Pyproject.toml", false, false, ClassOther},
		// Python source.
		{"app.py", false, false, ClassSource},
		{"src/pkg/__init__.py", false, false, ClassSource},
		{"pkg/mod.py", false, true, ClassForeign},
		{"pkg/mod.py", true, false, ClassBinary},
		// Unknown suffixes stay foreign, documents other.
		{"stub.pyi", false, false, ClassForeign},
		{"gui.pyw", false, false, ClassForeign},
		{"mod.PY", false, false, ClassForeign},
		{"requirements.txt", false, false, ClassOther},
		{"docs/index.rst", false, false, ClassOther},
	}
	for _, tc := range cases {
		if got := classify(tc.path, nil, tc.binary, tc.symlink); got != tc.want {
			t.Errorf("classify(%q, binary=%v, symlink=%v) = %s, want %s", tc.path, tc.binary, tc.symlink, got, tc.want)
		}
	}
}

func TestLanguage(t *testing.T) {
	for p, want := range map[string]string{
		"main.go":          "go",
		"pkg/x_test.go":    "go",
		"app.py":           "python",
		"tests/test_x.py":  "python",
		"conftest.py":      "python",
		"go.mod":           "",
		"pyproject.toml":   "",
		"x.pyi":            "",
		"x.GO":             "",
		"README.md":        "",
		"dir.go/file.txt":  "",
		"dir.py/README.md": "",
	} {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]string{
		"go.mod":                  "go",
		"sub/go.work.sum":         "go",
		"vendor/a/b.py":           "go",
		"vendor/pyproject.toml":   "go", // both; HarnessDriftFor lists it for both
		"pyproject.toml":          "python",
		"tests/conftest.py":       "python",
		"setup.py":                "python",
		"a/b.pth":                 "python",
		"sitecustomize.py":        "python",
		"app.py":                  "",
		"tests/test_x.py":         "",
		"README.md":               "",
		"go.mod.bak":              "",
		"pytest.ini.example":      "",
		"testdata/x/pytest.ini":   "python",
		"testdata/x/go.mod":       "go",
		"internal/vendorx/x.go":   "",
		"third_party/vendor/x.py": "go",
	} {
		if got := HarnessLanguage(p); got != want {
			t.Errorf("HarnessLanguage(%q) = %q, want %q", p, got, want)
		}
		if (want != "") != isHarness(p) {
			t.Errorf("isHarness(%q) = %v, HarnessLanguage %q", p, isHarness(p), want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"*", "a/b/c.go", true},
		{"a/*", "a/b/c.go", true},
		{"a/*.go", "a/b/c.go", true},
		{"a/*.go", "b/c.go", false},
		{"*_helper.go", "x/y_helper.go", true},
		{"*_helper.go", "x/y_helper.go.bak", false},
		{"a?c", "abc", true},
		{"a?c", "a/c", false},
		{"a?c", "aéc", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
		{"exact.go", "exact.go", true},
		{"exact.go", "sub/exact.go", false},
		{"**/x.go", "a/b/x.go", true},
		{"", "", true},
	}
	for _, tc := range cases {
		if got := globMatch(tc.glob, tc.path); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
	for _, bad := range []string{"", "/abs/*", "./x", "[ab]", `a\*`, "a\nb"} {
		if checkGlob(bad) == nil {
			t.Errorf("checkGlob(%q) accepted", bad)
		}
	}
	for _, good := range []string{"*", "internal/testutil/*", "a?b"} {
		if err := checkGlob(good); err != nil {
			t.Errorf("checkGlob(%q): %v", good, err)
		}
	}
}

func TestIsTestFileHonoursTestSupport(t *testing.T) {
	c := &Checkout{testSupport: []string{"e2e/*"}}
	for p, want := range map[string]bool{
		"e2e/run.go":         true,
		"e2e/deep/run.sh":    true,
		"x_test.go":          true,
		"pkg/testdata/a.bin": true,
		"pkg/a.go":           false,
		"testdatax/a.go":     false,
		"tests/test_a.py":    true,
		"pkg/a_test.py":      true,
		"conftest.py":        true,
		"tests/data/x.bin":   true,
		"tests/helper.go":    false,
		"pkg/a.py":           false,
		"pyproject.toml":     false,
	} {
		if got := c.IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIsPytestModule(t *testing.T) {
	for p, want := range map[string]bool{
		"test_x.py": true, "tests/test_x.py": true, "a/b/x_test.py": true,
		"tests/helpers.py": false, "conftest.py": false, "test_x.pyc": false, "_test.py": true,
		"testx.py": false, "x_test.go": false, "tests/data/test_x.txt": false,
	} {
		if got := IsPytestModule(p); got != want {
			t.Errorf("IsPytestModule(%q) = %v, want %v", p, got, want)
		}
	}
}
