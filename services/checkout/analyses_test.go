package checkout

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/checkout/inspect"
)

// findings returns the findings of rule as "file:line: what" strings.
func findings(c *Checkout, rule string) []string {
	var out []string
	for _, f := range c.FindingsOf(rule) {
		out = append(out, f.String())
	}
	return out
}

func wantPrefixes(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s %q, want %d starting %q", what, got, len(want), want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Fatalf("%s %q, want %d starting %q", what, got, len(want), want)
		}
	}
}

// goModule commits a small module: calc (source and its test), and
// internal/check, an assertion helper only calc's test imports.
func goModule(r *testRepo) string {
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("calc/median.go", "package calc\n\nfunc Median(xs []float64) float64 { return xs[len(xs)/2] }\n")
	r.write("calc/median_test.go", "package calc\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/internal/check\"\n)\n\nvar cases = []struct{ in []float64; want float64 }{{[]float64{1, 2, 3, 4}, 2.5}}\n\nfunc TestMedian(t *testing.T) {\n\tfor _, c := range cases {\n\t\tcheck.Equal(t, Median(c.in), c.want)\n\t}\n}\n")
	r.write("internal/check/check.go", "package check\n\nimport \"testing\"\n\nfunc Equal(t *testing.T, got, want float64) {\n\tif got != want {\n\t\tt.Errorf(\"got %v, want %v\", got, want)\n\t}\n}\n")
	r.write("calc/golden/median.txt", "2.5\n")
	r.write("calc/table.go", "package calc\n\nimport _ \"embed\"\n\n//go:embed table.csv\nvar table string\n")
	r.write("calc/table.csv", "a,b\n")
	return r.commit("base")
}

// TestHarnessAnywhere: a new test file in another package whose
// package-level variable rewrites the baseline's table at init is harness
// of its package; an ordinary new test file is not.
func TestHarnessAnywhere(t *testing.T) {
	r := newTestRepo(t)
	base := goModule(r)
	r.write("calc/zz_test.go", "package calc\n\nvar _ = func() bool {\n\tcases[0].want = 2\n\treturn true\n}()\n")
	r.write("internal/check/main_test.go", "package check\n\nimport (\n\t\"flag\"\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tflag.Set(\"test.skip\", \"TestMedian\")\n\tos.Exit(m.Run())\n}\n")
	attack := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack})
	wantPrefixes(t, "harness findings", findings(c, inspect.RuleTestHarness),
		"calc/zz_test.go:3: package-level var _ runs code before the package's tests: it calls a func literal",
		"internal/check/main_test.go:9: declares TestMain")
	if want := []string{"./calc", "./internal/check"}; !reflect.DeepEqual(c.HarnessPackages, want) {
		t.Fatalf("harness packages %q, want %q", c.HarnessPackages, want)
	}
	if want := []string{"calc/zz_test.go", "internal/check/main_test.go"}; !reflect.DeepEqual(c.TestHarness, want) {
		t.Fatalf("TestHarness %q, want %q", c.TestHarness, want)
	}

	// The honest twin: a new test file with a table and a sentinel error.
	r.git("checkout", "-q", base)
	r.remove("calc/zz_test.go")
	r.remove("internal/check/main_test.go")
	r.write("calc/clamp_test.go", "package calc\n\nimport (\n\t\"errors\"\n\t\"testing\"\n)\n\nvar clampCases = []struct {\n\tx, want float64\n}{{-1, 0}, {5, 5}}\n\nvar errBoom = errors.New(\"boom\")\n\nfunc TestClamp(t *testing.T) {\n\tfor range clampCases {\n\t}\n\t_ = errBoom\n}\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	if len(c.FindingsOf(inspect.RuleTestHarness)) != 0 || len(c.HarnessPackages) != 0 || len(c.TestHarness) != 0 {
		t.Fatalf("an ordinary test file is harness: %q %q", findings(c, inspect.RuleTestHarness), c.HarnessPackages)
	}
}

// TestSupportByUse: a loosened assertion helper in a package only tests
// import and a rewritten golden file are put back by the counterfactual
// oracle; a changed embedded file is data production code reads.
func TestSupportByUse(t *testing.T) {
	r := newTestRepo(t)
	base := goModule(r)
	r.write("internal/check/check.go", "package check\n\nimport \"testing\"\n\nfunc Equal(t *testing.T, got, want float64) {}\n")
	r.write("calc/golden/median.txt", "3\n")
	r.write("calc/table.csv", "a,b\nmallory,1\n")
	r.write("calc/median.go", "package calc\n\nfunc Median(xs []float64) float64 { return xs[len(xs)/2-1] }\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if want := []string{"calc/golden/median.txt", "calc/table.csv", "internal/check/check.go"}; !reflect.DeepEqual(c.Counterfactual, want) {
		t.Fatalf("counterfactual %q, want %q", c.Counterfactual, want)
	}
	if want := []string{"calc/table.csv"}; !reflect.DeepEqual(c.DataReferenced, want) {
		t.Fatalf("referenced data %q, want %q", c.DataReferenced, want)
	}
	if want := []string{"./internal/check"}; !reflect.DeepEqual(c.TestOnlyPackages, want) {
		t.Fatalf("test-only packages %q, want %q", c.TestOnlyPackages, want)
	}
	wantPrefixes(t, "support findings", findings(c, inspect.RuleTestSupport),
		"internal/check/check.go: a non-test file that imports testing",
		"internal/check/check.go: package ./internal/check is imported only by test files")
	wantPrefixes(t, "data findings", findings(c, inspect.RuleDataFile),
		"calc/golden/median.txt: changed data file that no non-test source embeds or names",
		"calc/table.csv: changed data file that non-test source uses: calc/table.go embeds it")

	// The honest twin: a fix of source alone puts nothing back.
	r.git("checkout", "-q", base)
	r.write("calc/median.go", "package calc\n\nfunc Median(xs []float64) float64 { return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2 }\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	if len(c.Counterfactual) != 0 || len(c.Findings) != 0 {
		t.Fatalf("an honest fix has counterfactual %q, findings %q", c.Counterfactual, c.Findings)
	}
}

// TestHarnessReach: a test file that forges the transcript and a test
// file declaring a method on a production type are harness of their
// package (no judged run compiles them) with findings the decision reads;
// production code that ends the process and changed C in a cgo preamble
// are findings; a command calling os.Exit and a test declaring -update
// are none.
func TestHarnessReach(t *testing.T) {
	r := newTestRepo(t)
	goModule(r)
	r.write("calc/cgo.go", "package calc\n\n// int two(void) { return 2; }\nimport \"C\"\n\nfunc Two() int { return int(C.two()) }\n")
	base := r.commit("cgo")
	r.write("calc/aa_test.go", "package calc\n\nimport (\n\t\"fmt\"\n\t\"syscall\"\n\t\"testing\"\n)\n\nfunc TestAA(t *testing.T) {\n\tfmt.Print(\"\\x16--- PASS: TestMedian (0.00s)\\n\")\n\tsyscall.Exit(0)\n}\n")
	r.write("calc/format_test.go", "package calc\n\ntype Cents int\n")
	r.write("calc/money.go", "package calc\n\ntype Money int\n")
	r.write("calc/money_test.go", "package calc\n\nfunc (m Money) String() string { return \"m\" }\n")
	r.write("calc/exit.go", "package calc\n\nimport \"os\"\n\nfunc quit() { os.Exit(0) }\n")
	r.write("calc/cgo.go", "package calc\n\n// int two(void) { return 3; }\nimport \"C\"\n\nfunc Two() int { return int(C.two()) }\n")
	attack := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack})
	wantPrefixes(t, "harness-reach findings", findings(c, inspect.RuleHarnessReach),
		"calc/aa_test.go:10: holds test2json's framing byte 0x16",
		"calc/aa_test.go:11: ends the process (syscall.Exit)",
		"calc/exit.go:5: ends the process with os.Exit outside package main",
		"calc/money_test.go:3: declares method String on Money, a type of the package's non-test code")
	wantPrefixes(t, "foreign-code findings", findings(c, inspect.RuleForeignCode), "calc/cgo.go:3: changes line 3 of the cgo preamble")
	if want := []string{"calc/aa_test.go", "calc/money_test.go"}; !reflect.DeepEqual(c.TestHarness, want) {
		t.Fatalf("TestHarness %q, want %q", c.TestHarness, want)
	}
	if want := []string{"./calc"}; !reflect.DeepEqual(c.HarnessPackages, want) {
		t.Fatalf("harness packages %q, want %q", c.HarnessPackages, want)
	}

	// The honest twin: a command that exits, a test declaring -update, a
	// method on a test-only type.
	r.git("checkout", "-q", base)
	r.write("cmd/calc/main.go", "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\tfmt.Println(\"PASS or FAIL\")\n\t\tos.Exit(2)\n\t}\n}\n")
	r.write("calc/golden_test.go", "package calc\n\nimport (\n\t\"flag\"\n\t\"testing\"\n)\n\nvar update = flag.Bool(\"update\", false, \"rewrite golden files\")\n\ntype fake struct{}\n\nfunc (fake) String() string { return \"fake\" }\n\nfunc TestGolden(t *testing.T) { _ = *update }\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	if len(c.Findings) != 0 || len(c.TestHarness) != 0 || len(c.HarnessPackages) != 0 {
		t.Fatalf("honest code reaches into the harness: %q, %q", c.Findings, c.TestHarness)
	}
}
