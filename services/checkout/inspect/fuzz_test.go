package inspect

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkFindings checks what every analysis promises of its findings:
// sorted without duplicates, of one rule, in file, on one line of text,
// with a line within the source (0 for the whole file).
func checkFindings(t *testing.T, fs []Finding, rule, file string, lines int) {
	t.Helper()
	if !slices.IsSortedFunc(fs, Compare) {
		t.Fatalf("findings not sorted: %q", fs)
	}
	for i, f := range fs {
		if i > 0 && Compare(fs[i-1], f) == 0 {
			t.Fatalf("duplicate finding %q", f)
		}
		if f.Rule != rule || f.File != file || f.Line < 0 || f.Line > lines || f.What == "" || strings.ContainsAny(f.What, "\n\r") {
			t.Fatalf("finding %+v (source of %d lines)", f, lines)
		}
	}
}

// FuzzGoAnalyses feeds arbitrary Go source, as the patch's version of a
// file, to every Go analysis: none may panic, and what they return must
// hold their invariants.
func FuzzGoAnalyses(f *testing.F) {
	for _, seed := range []string{
		baseTest, baseMedian, medianTest, addTest,
		"package p\n\nvar _ = func() bool { return true }()\n\nfunc init() {}\n\n//go:linkname x y\n",
		"package p\n\nimport (\n\tenv \"os\"\n\t\"testing\"\n)\n\nvar _ = env.Getenv(\"SEALGATE_\" + k)\n\nfunc f() { if testing.Testing() { _ = \"/proc/self\" } }\n",
		"package p\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\tswitch a {\n\tcase -3, 0x1F:\n\t\treturn 'x'\n\t}\n\treturn a + b\n}\n",
		"package p\n\nimport \"embed\"\n\n//go:embed \"a b\" `c` d/*.txt\nvar fs embed.FS\n",
		"package p\n\n/*\nint x(void) { return 1; }\n*/\nimport \"C\"\n\nimport (\n\t. \"syscall\"\n\t\"runtime/coverage\"\n)\n\nvar m = map[string]float64{\"[2 4 6 8]\": 5, \"a\" + \"\\x16--- PASS\": '\\x16'}\n\nfunc (c T) String() string { C.exit(0); Exit(0); return \"/sealgate/out\" }\n\nfunc max(a, b int) int { return a }\n",
		"package p\n\nimport \"time\"\n\ntype C int8\n\ntype S struct {\n\tn C `json:\"n\"`\n\tB\n}\n\nvar t0 = time.Now()\n\nfunc f() bool { return time.Now().Year() < 2027 || time.Since(t0) > time.Hour || time.Now().Before(time.Unix(1, 0)) }\n",
		"package p\n\nimport (\n\t\"text/template\"\n\tm \"example.com/m/v3\"\n)\n",
		"package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype S struct{ suite.Suite }\n\nfunc (s *S) TestM() { s.Equal(21, Add(17, 4)) }\n\nfunc TestS(t *testing.T) {\n\tx := &S{}\n\tsuite.Run(t, x)\n}\n",
		"package p\n\nfunc (",
		"",
	} {
		f.Add([]byte(seed), []byte(baseMedian))
	}
	f.Fuzz(func(t *testing.T, src, base []byte) {
		lines := lineCount(src)
		const file = "p/x_test.go"
		var harness, semantics []Finding
		for _, f := range GoTestHarness([]Version{{Path: file, Base: base, Patch: src, Changed: true}, {Path: "p/y_test.go", Base: base, Patch: base}}, [][]byte{src, base}) {
			if f.Rule == RuleHarnessReach {
				semantics = append(semantics, f)
			} else {
				harness = append(harness, f)
			}
		}
		checkFindings(t, harness, RuleTestHarness, file, lines)
		checkFindings(t, semantics, RuleHarnessReach, file, lines)
		checkFindings(t, GoProbes("p/x.go", base, src), RuleProbe, "p/x.go", lines)
		checkFindings(t, GoProbesIn("p/x.go", base, src, func(string) bool { return true }), RuleProbe, "p/x.go", lines)
		checkFindings(t, GoTypeChanges(map[string][]byte{"p/x.go": base}, map[string][]byte{"p/x.go": src}), RuleForeignCode, "p/x.go", lines)
		checkFindings(t, GoImportChanges(map[string][]byte{"p/x.go": base}, map[string][]byte{"p/x.go": src}), RuleForeignCode, "p/x.go", lines)
		checkFindings(t, GoSignatureChanges(map[string][]byte{"p/x.go": base}, map[string][]byte{"p/x.go": src}), RuleForeignCode, "p/x.go", lines)
		checkFindings(t, GoDeclChanges(map[string][]byte{"p/x.go": base}, map[string][]byte{"p/x.go": src}, nil), RuleForeignCode, "p/x.go", lines)
		checkFindings(t, GoHarnessReach("p/x.go", base, src, false), RuleHarnessReach, "p/x.go", lines)
		checkFindings(t, GoHarnessReach(file, base, src, true), RuleHarnessReach, file, lines)
		all := make([]int, lines)
		for i := range all {
			all[i] = i + 1
		}
		ds := GoDecisions(src, all)
		for _, d := range ds {
			if d.Line < 1 || d.Line > lines {
				t.Fatalf("decision at line %d of %d", d.Line, lines)
			}
		}
		lits, _ := GoFileLits(src)
		testLits, _ := GoTestLits([][]byte{src}, "TestMedian")
		suiteLits, _ := GoTestLits([][]byte{src, base}, "TestS/TestM")
		testLits = append(testLits, suiteLits...)
		for typ, runners := range GoSuites([][]byte{src, base}) {
			if typ == "" || len(runners) == 0 {
				t.Fatalf("suite %q run by %v", typ, runners)
			}
		}
		if ms, err := GoSuiteMethods(src); err == nil {
			for typ, names := range ms {
				for _, m := range names {
					if typ == "" || !strings.HasPrefix(m, "Test") {
						t.Fatalf("suite method %s.%s", typ, m)
					}
				}
			}
		}
		for _, l := range append(lits, testLits...) {
			if err := checkLit(l); err != nil {
				t.Fatalf("literal %+v: %v", l, err)
			}
		}
		checkFindings(t, Overfitting("go:./p:TestX", "p/x.go", ds, lits, nil), RuleOverfitting, "p/x.go", lines)
		checkFindings(t, GoCgoPreamble("p/x.go", src, all), RuleForeignCode, "p/x.go", lines)
		refs := GoRefs("p/x.go", src)
		_, _ = DataFindings([]string{"p/a.txt", "p/d/b.json"}, []SourceRefs{refs})
		_ = GoImportGraph(map[string][]byte{"go.mod": base, "p/x.go": src, "p/x_test.go": src, "q/q.go": base})
	})
}

// FuzzReadPython feeds arbitrary outputs to ReadPython: it must never
// panic, and whatever it accepts must hold the invariants checked here
// independently.
func FuzzReadPython(f *testing.F) {
	src := []byte("import os, _pytest.reports as _r\n\ndef f(s):\n    if s == [1, 2]:\n        return 2.5\n")
	reqs := []PyRequest{{Src: src, Lines: []int{4, 5}}, {Src: src, Test: "test_x"}}
	f.Add([]byte(`{"results":[{"error":"","reach":[{"line":1,"what":"imports _pytest.reports"}],"probes":[],"lits":[{"k":"c","v":"[1,2]","n":2},{"k":"n","v":"2.5"}],"decisions":[{"line":4,"text":"if s == [1, 2]","cond":[{"k":"c","v":"[1,2]","n":2}],"returns":[{"k":"n","v":"2.5"}],"conj_eq":[]}],"found":false},{"error":"","reach":[],"probes":[],"lits":[],"decisions":[],"found":false}]}`))
	f.Add([]byte(`{"results":[{"error":"SyntaxError: x"},{"error":"","found":true,"lits":[{"k":"s","v":"a"}]}]}`))
	if py := lookPython(); py != "" {
		if out, err := scriptOutput(f.Context(), py, reqs); err == nil {
			f.Add(out)
		}
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		res, err := ReadPython(out, reqs)
		if err != nil {
			return
		}
		if len(res) != len(reqs) {
			t.Fatalf("%d results for %d requests", len(res), len(reqs))
		}
		lines := lineCount(src)
		for _, r := range res {
			for _, it := range append(slices.Clone(r.Reach), r.Probes...) {
				if it.Line < 1 || it.Line > lines || !utf8.ValidString(it.What) || strings.ContainsAny(it.What, "\n\r") {
					t.Fatalf("item %+v", it)
				}
			}
			for _, l := range r.Lits {
				if l.Kind != "n" && l.Kind != "s" && l.Kind != "c" {
					t.Fatalf("literal %+v", l)
				}
			}
		}
	})
}

// lookPython returns /usr/bin/python3, python3 from PATH, or "".
func lookPython() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	if p, err := exec.LookPath("python3"); err == nil {
		return p
	}
	return ""
}

// scriptOutput runs the script on reqs and returns its raw output.
func scriptOutput(ctx context.Context, python string, reqs []PyRequest) ([]byte, error) {
	stdin, err := scriptInput(reqs)
	if err != nil {
		return nil, err
	}
	return runScript(ctx, python, stdin)
}

// FuzzPythonScript runs the script on arbitrary source (it needs an
// interpreter): whatever the source, the script answers — a source that
// does not parse is a result with Err, never a failure of the script —
// and its answer passes ReadPython.
func FuzzPythonScript(f *testing.F) {
	py := lookPython()
	for _, seed := range []string{
		"import os, _pytest.reports as _r\nmath.isclose = 1\n",
		"def f(s):\n    if s == [1, 2, {3: 'a'}, (4,), {5}]:\n        return -2.5\n    return 1 if s else 2\n",
		"x = os.environ\nfor k in os.environ: pass\nos.environ['SEALGATE_X'] = '1'\n",
		"match x:\n    case 17:\n        return 21\n",
		"\ufeff# coding: latin-1\nx = 'é'\n",
		"def (",
		"x = 1e400 + 1j\ny = -0x1F\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if py == "" {
			t.Skip("no python3")
		}
		lines := make([]int, lineCount(src))
		for i := range lines {
			lines[i] = i + 1
		}
		if _, err := Python(context.Background(), py, []PyRequest{{Src: src, Lines: lines}, {Src: src, Test: "test_x"}}); err != nil {
			t.Fatalf("the script fails on %q: %v", src, err)
		}
	})
}

// FuzzReadStdlib feeds arbitrary outputs to ReadStdlib: it must never
// panic, and what it accepts is a sorted list of identifiers without
// duplicates, within the bound.
func FuzzReadStdlib(f *testing.F) {
	f.Add([]byte(`["__future__","_abc","json","os","sys"]`))
	f.Add([]byte(`["os","os"]`))
	f.Add([]byte(`["a b"]`))
	f.Add([]byte(`[] []`))
	f.Add([]byte(`{"x":1}`))
	if py := lookPython(); py != "" {
		if names, err := PythonStdlib(f.Context(), py); err == nil && len(names) > 0 {
			f.Add([]byte(`["` + strings.Join(names, `","`) + `"]`))
		}
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		names, err := ReadStdlib(out)
		if err != nil {
			return
		}
		if len(names) > maxStdlibNames || !slices.IsSorted(names) {
			t.Fatalf("names %q: unsorted or too many", names)
		}
		for i, n := range names {
			if !isIdentifier(n) || i > 0 && names[i-1] == n {
				t.Fatalf("name %q accepted", n)
			}
		}
	})
}

// TestPythonStdlib: the interpreter's standard library lists the modules
// a shadowing file would hide.
func TestPythonStdlib(t *testing.T) {
	py := needPy(t)
	names, err := PythonStdlib(context.Background(), py)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"json", "os", "statistics", "sys", "unittest"} {
		if !slices.Contains(names, want) {
			t.Fatalf("the standard library %q lacks %s", names, want)
		}
	}
	if _, err := PythonStdlib(context.Background(), "/nonexistent/python3"); err == nil {
		t.Fatal("a missing interpreter listed a standard library")
	}
}
