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
		{"pyproject.toml", false, false, ClassOther},
		{"table.csv", false, false, ClassOther},
		{".gitignore", false, false, ClassOther},
		{"sub/.gitattributes", false, false, ClassOther},
		{"README.sh", false, false, ClassForeign},
		{"readmefirst.py", false, false, ClassForeign},
		{"Makefile", false, false, ClassForeign},
		{"Dockerfile", false, false, ClassForeign},
		{"script.sh", false, false, ClassForeign},
		{"app.py", false, false, ClassForeign},
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
	} {
		if got := c.IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}
