package inspect

import (
	"strings"
	"testing"
)

// FuzzGoSupport feeds arbitrary Go source, as a non-test file and as a
// test file of a package, to the reach analyses (test-only declarations,
// production data, harness reach): none may panic, and what they return
// must hold their invariants.
func FuzzGoSupport(f *testing.F) {
	for _, seed := range []string{
		"package calc\n\nimport \"math\"\n\nfunc near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }\n\nfunc Median() {}\n",
		"package calc\n\nimport _ \"embed\"\n\n//go:embed units.txt\nvar units string\n\nfunc Units() string { return units }\n",
		"package calc\n\ntype T struct{ T }\n\nfunc (t T) m() {}\n\ntype I interface{ m() }\n\nvar _ I = T{}\n",
		"package calc\n\nvar x = f()\n\nfunc f() int { return g[int]() }\n\nfunc g[P any]() P { var p P; return p }\n",
		"package calc\n\nimport \"C\"\n\n//export F\nfunc F() {}\n",
		"package calc\n\nfunc (",
		"",
	} {
		f.Add([]byte(seed), []byte("package calc\n\nvar cases = []int{1}\n\nfunc init() { cases[0] = 2 }\n"))
	}
	f.Fuzz(func(t *testing.T, src, test []byte) {
		files := map[string][]byte{
			"go.mod":            []byte("module example.com/m\n\ngo 1.22\n"),
			"calc/x.go":         src,
			"calc/y.go":         []byte("package calc\n\nfunc Y() { near(1, 2) }\n"),
			"calc/x_test.go":    test,
			"internal/h/h.go":   src,
			"cmd/tool/main.go":  []byte("package main\n\nimport \"example.com/m/internal/h\"\n\nfunc main() { h.F() }\n"),
			"calc/units.txt":    []byte("m\n"),
			"calc/golden/a.txt": []byte("1\n"),
		}
		g := GoImportGraph(files)
		for _, dir := range []string{"calc", "internal/h", "cmd/tool", "nowhere"} {
			decls, ok := g.TestOnlyDecls(dir)
			if !ok && len(decls) > 0 {
				t.Fatalf("%s: declarations %v of a package that cannot be read", dir, decls)
			}
			for i := 1; i < len(decls); i++ {
				if decls[i-1].File > decls[i].File || decls[i-1].File == decls[i].File && decls[i-1].Line > decls[i].Line {
					t.Fatalf("%s: declarations not sorted by file and line: %v", dir, decls)
				}
			}
			for _, d := range decls {
				if _, ok := files[d.File]; !ok || d.Line < 1 || d.Name == "" || strings.HasSuffix(d.File, "_test.go") {
					t.Fatalf("%s: declaration %+v", dir, d)
				}
			}
		}
		for p, how := range g.ProductionData([]string{"calc/units.txt", "calc/golden/a.txt"}) {
			if how == "" || !strings.HasPrefix(p, "calc/") {
				t.Fatalf("production data %s: %q", p, how)
			}
		}
		lines := lineCount(test)
		checkFindings(t, GoBaselineReach([]Version{{Path: "calc/x_test.go", Base: src, Patch: test, Changed: true}}, []string{"calc/x_test.go"}), RuleBaselineReach, "calc/x_test.go", lines)
	})
}
