package inspect

import (
	"reflect"
	"slices"
	"testing"
)

// module is a small Go module: calc (the library), internal/check (an
// assertion helper only tests import), internal/check/deep (imported only
// by check), internal/util (used by calc), cmd/tool (a command), and a
// nested module.
func module() map[string][]byte {
	files := map[string]string{
		"go.mod":                         "module example.com/m\n\ngo 1.22\n",
		"calc/median.go":                 "package calc\n\nimport \"example.com/m/internal/util\"\n\nfunc Median(xs []float64) float64 { return util.Mid(xs) }\n",
		"calc/median_test.go":            "package calc\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/internal/check\"\n)\n\nfunc TestMedian(t *testing.T) { check.Equal(t, Median(nil), 0) }\n",
		"calc/ignored.go":                "//go:build ignore\n\npackage calc\n\nimport _ \"example.com/m/internal/check\"\n",
		"calc/windows.go":                "package calc\n\nimport _ \"example.com/m/internal/check\"\n",
		"calc/calc_windows.go":           "package calc\n\nimport _ \"example.com/m/internal/check\"\n",
		"internal/check/check.go":        "package check\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/internal/check/deep\"\n)\n\nfunc Equal(t *testing.T, a, b float64) { deep.Same(a, b) }\n",
		"internal/check/deep/deep.go":    "package deep\n\nfunc Same(a, b float64) bool { return a == b }\n",
		"internal/util/util.go":          "package util\n\nfunc Mid(xs []float64) float64 { return 0 }\n",
		"internal/util/util_test.go":     "package util\n",
		"cmd/tool/main.go":               "package main\n\nimport \"example.com/m/internal/util\"\n\nfunc main() { _ = util.Mid }\n",
		"testdata/x/x.go":                "package x\n\nimport _ \"example.com/m/internal/util\"\n",
		"nested/go.mod":                  "module example.com/nested\n",
		"nested/fixture/fixture.go":      "package fixture\n",
		"calc/nested_test.go":            "package calc\n\nimport _ \"example.com/nested/fixture\"\n",
		"broken/broken.go":               "package broken\n\nimport (",
		"_hidden/h.go":                   "package hidden\n\nimport _ \"example.com/m/internal/check\"\n",
		"internal/lonely/lonely.go":      "package lonely\n",
		"internal/lonely/lonely_test.go": "package lonely_test\n\nimport _ \"example.com/m/internal/lonely\"\n",
	}
	// calc/windows.go is built on every platform (only a _windows suffix
	// restricts), so it makes check production; drop it for the main case.
	delete(files, "calc/windows.go")
	out := map[string][]byte{}
	for p, s := range files {
		out[p] = []byte(s)
	}
	return out
}

func TestGoImportGraph(t *testing.T) {
	g := GoImportGraph(module())
	if want := []string{"internal/check", "internal/check/deep", "nested/fixture"}; !reflect.DeepEqual(g.TestOnly, want) {
		t.Fatalf("test-only packages %q, want %q", g.TestOnly, want)
	}
	if want := []string{"internal/check/check.go"}; !reflect.DeepEqual(g.ImportsTesting, want) {
		t.Fatalf("non-test files importing testing %q, want %q", g.ImportsTesting, want)
	}
	wantFindings(t, g.TestSupportFindings([]string{"calc/median.go", "internal/check/check.go", "internal/check/deep/deep.go", "internal/util/util.go", "internal/check/check_test.go", "README.md"}),
		"internal/check/check.go: a non-test file that imports testing",
		"internal/check/check.go: package ./internal/check is imported only by test files",
		"internal/check/deep/deep.go: package ./internal/check/deep is imported only by test files",
	)
}

// TestGoImportGraphProductionUse: one non-test file that compiles and
// imports a helper makes it (and what it imports) production code.
func TestGoImportGraphProductionUse(t *testing.T) {
	files := module()
	files["calc/windows.go"] = []byte("package calc\n\nimport _ \"example.com/m/internal/check\"\n")
	g := GoImportGraph(files)
	if want := []string{"nested/fixture"}; !reflect.DeepEqual(g.TestOnly, want) {
		t.Fatalf("test-only packages %q, want %q", g.TestOnly, want)
	}
}

// TestGoImportGraphOwnTests: a helper package's own tests do not make it
// code under test (the attack: a loosened helper that brings a test pinning
// its new answers), whether they are an internal or an external test
// package; nor does a library package only other packages' tests import.
// A package nothing outside its directory imports stays production (an
// API, a command), tests of its own or not.
func TestGoImportGraphOwnTests(t *testing.T) {
	for _, own := range []string{
		"package check\n\nimport \"testing\"\n\nfunc TestEqual(t *testing.T) { Equal(t, 1, 1) }\n",
		"package check_test\n\nimport \"example.com/m/internal/check\"\n\nvar _ = check.Equal\n",
	} {
		files := module()
		files["internal/check/check_test.go"] = []byte(own)
		if g, want := GoImportGraph(files), []string{"internal/check", "internal/check/deep", "nested/fixture"}; !reflect.DeepEqual(g.TestOnly, want) {
			t.Fatalf("test-only packages %q, want %q", g.TestOnly, want)
		}
	}
	files := module()
	files["calc/lonely_test.go"] = []byte("package calc\n\nimport _ \"example.com/m/internal/lonely\"\n")
	if g := GoImportGraph(files); !slices.Contains(g.TestOnly, "internal/lonely") {
		t.Fatalf("test-only packages %q: internal/lonely is imported only by a test file", g.TestOnly)
	}
	// A package another module can import, with tests of its own, is an
	// API even when only other packages' tests of this module import it
	// (calc, imported by a test of check); without tests of its own it is
	// test support.
	files = module()
	files["internal/check/calc_test.go"] = []byte("package check\n\nimport _ \"example.com/m/calc\"\n")
	files["pub/pub.go"] = []byte("package pub\n")
	files["calc/pub_test.go"] = []byte("package calc\n\nimport _ \"example.com/m/pub\"\n")
	if g := GoImportGraph(files); slices.Contains(g.TestOnly, "calc") || !slices.Contains(g.TestOnly, "pub") {
		t.Fatalf("test-only packages %q", g.TestOnly)
	}
	// The honest twin: lonely imported by nothing but its own tests is an
	// API (or dead code), and util, imported by calc, is code under test.
	g := GoImportGraph(module())
	if slices.Contains(g.TestOnly, "internal/lonely") || slices.Contains(g.TestOnly, "internal/util") {
		t.Fatalf("test-only packages %q", g.TestOnly)
	}
	// A main package is never test support, even when a test imports it
	// (go test refuses that, but the graph does not build anything).
	files = module()
	files["calc/tool_test.go"] = []byte("package calc\n\nimport _ \"example.com/m/cmd/tool\"\n")
	if g := GoImportGraph(files); slices.Contains(g.TestOnly, "cmd/tool") {
		t.Fatalf("test-only packages %q", g.TestOnly)
	}
}
