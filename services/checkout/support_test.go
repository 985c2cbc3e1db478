package checkout

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/checkout/inspect"
)

// helperModule commits a module whose tests compare with helpers: a
// package internal/check only calc's test imports, and near, a helper in
// a non-test file of calc itself.
func helperModule(r *testRepo) string {
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("calc/median.go", "package calc\n\n// Median is the API.\nfunc Median(xs []float64) float64 { return xs[len(xs)/2] }\n")
	r.write("calc/near.go", "package calc\n\nimport \"math\"\n\nfunc near(got, want float64) bool { return math.Abs(got-want) <= 1e-9 }\n")
	r.write("calc/median_test.go", "package calc\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/internal/check\"\n)\n\nfunc TestMedian(t *testing.T) {\n\tif !near(Median([]float64{1, 2}), 1.5) || !check.Near(Median([]float64{1, 2}), 1.5) {\n\t\tt.Fail()\n\t}\n}\n")
	r.write("internal/check/check.go", "package check\n\nimport \"math\"\n\n// Near compares.\nfunc Near(got, want float64) bool { return math.Abs(got-want) <= 1e-9 }\n")
	return r.commit("base")
}

// TestSupportWithTestsOfItsOwn: a loosened helper package that brings a
// test of its own is still test support, put back for every claim; a
// loosened helper beside the code under test is put back declaration by
// declaration.
func TestSupportWithTestsOfItsOwn(t *testing.T) {
	r := newTestRepo(t)
	base := helperModule(r)
	r.write("internal/check/check.go", "package check\n\nimport \"math\"\n\n// Near compares.\nfunc Near(got, want float64) bool { return math.Abs(got-want) <= 3.75 }\n")
	r.write("internal/check/check_test.go", "package check\n\nimport \"testing\"\n\nfunc TestNear(t *testing.T) {\n\tif !Near(0, 3.75) {\n\t\tt.Fail()\n\t}\n}\n")
	r.write("calc/near.go", "package calc\n\nimport \"math\"\n\nfunc near(got, want float64) bool { return math.Abs(got-want) <= 3.75 }\n\nfunc nearer(got, want float64) bool { return got == want }\n")
	attack := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack})
	if want := []string{"internal/check/check.go"}; !reflect.DeepEqual(c.Counterfactual, want) {
		t.Fatalf("counterfactual %q, want %q", c.Counterfactual, want)
	}
	if want := []string{"calc/near.go#near"}; !reflect.DeepEqual(c.CounterfactualDecls, want) {
		t.Fatalf("counterfactual declarations %q, want %q", c.CounterfactualDecls, want)
	}
	wantPrefixes(t, "support findings", findings(c, inspect.RuleTestSupport),
		"calc/near.go:5: near is declared beside the code under test, but no production code reaches it",
		"internal/check/check.go: package ./internal/check is imported only by test files")
	if got, want := c.CounterfactualRestore(), []string{"calc/near.go#near", "internal/check/check.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("counterfactual %q, want %q", got, want)
	}

	// Laundering: a production reference the patch adds (a blank import
	// of the helper package, a `var _ = near`) does not make baseline test
	// support code under test.
	r.write("calc/median.go", "package calc\n\nimport _ \"example.com/m/internal/check\"\n\n// Median is the API.\nfunc Median(xs []float64) float64 { return xs[len(xs)/2] }\n\nvar _ = near\n")
	laundered := r.commit("laundered")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: laundered})
	if got, want := c.CounterfactualRestore(), []string{"calc/near.go#near", "internal/check/check.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("counterfactual of TestMedian %q, want %q (findings %q)", got, want, findings(c, inspect.RuleTestSupport))
	}

	// The honest twin: a fix of Median alone puts nothing back.
	r.git("checkout", "-q", base)
	r.write("calc/median.go", "package calc\n\n// Median is the API.\nfunc Median(xs []float64) float64 {\n\treturn (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2\n}\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	if len(c.Counterfactual)+len(c.CounterfactualDecls) != 0 || len(c.FindingsOf(inspect.RuleTestSupport)) != 0 {
		t.Fatalf("an honest fix has counterfactual %q %q, findings %q", c.Counterfactual, c.CounterfactualDecls, c.Findings)
	}
}

// TestProductionDataIsNotPutBack: a new data file production code embeds
// (with the code that reads it) is judged as code, not put back by the
// counterfactual, which would leave the package unbuildable; a golden
// file only a test reads, and one embedded into a variable only tests
// use, are test support.
func TestProductionDataIsNotPutBack(t *testing.T) {
	r := newTestRepo(t)
	base := helperModule(r)
	r.write("calc/units.go", "package calc\n\nimport (\n\t_ \"embed\"\n\t\"strings\"\n)\n\n//go:embed units.txt\nvar unitList string\n\n// Units lists the units.\nfunc Units() []string { return strings.Fields(unitList) }\n\n//go:embed golden/embedded.txt\nvar expected string\n")
	r.write("calc/units.txt", "m\nkg\n")
	r.write("calc/golden/median.txt", "1.5\n")
	r.write("calc/golden/embedded.txt", "1.5\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if want := []string{"calc/golden/embedded.txt", "calc/golden/median.txt"}; !reflect.DeepEqual(c.Counterfactual, want) {
		t.Fatalf("counterfactual %q, want %q", c.Counterfactual, want)
	}
	if want := []string{"calc/golden/embedded.txt", "calc/units.txt"}; !reflect.DeepEqual(c.DataReferenced, want) {
		t.Fatalf("referenced data %q, want %q", c.DataReferenced, want)
	}
	if got := c.CounterfactualRestore(); strings.Contains(strings.Join(got, " "), "units.txt") {
		t.Fatalf("the counterfactual of TestUnits puts back production data: %q", got)
	}
}

// TestHarnessReachesTheBaseline: a new test file whose initializer
// rewrites the baseline's table is harness that reaches into the
// baseline's tests; a new TestMain that keeps to its own names is harness
// that does not.
func TestHarnessReachesTheBaseline(t *testing.T) {
	r := newTestRepo(t)
	base := goModule(r)
	r.write("calc/zz_test.go", "package calc\n\nvar _ = func() bool {\n\tcases[0].want = 2\n\treturn true\n}()\n")
	attack := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack})
	wantPrefixes(t, "harness reach", findings(c, inspect.RuleBaselineReach),
		"calc/zz_test.go:4: the initializer of var _, which runs before the tests, uses cases, which the baseline's test files declare")

	r.git("checkout", "-q", base)
	r.remove("calc/zz_test.go")
	r.write("calc/main_test.go", "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tcases := m.Run()\n\tos.Exit(cases)\n}\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	if len(c.FindingsOf(inspect.RuleTestHarness)) == 0 || len(c.FindingsOf(inspect.RuleBaselineReach)) != 0 {
		t.Fatalf("harness %q, reach %q", findings(c, inspect.RuleTestHarness), findings(c, inspect.RuleBaselineReach))
	}
}

// TestOverfittingOfATestAddedToABaselineFile: a test the patch adds to a
// baseline test file runs spliced beside that file's baseline tests; its
// inputs are read from the patch, so special cases for them are found.
func TestOverfittingOfATestAddedToABaselineFile(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n")
	r.write("calc/add_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {}\n")
	base := r.commit("base")
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n")
	r.write("calc/add_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {}\n\nfunc TestAdd(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit("special")})
	found, err := c.Overfitting(t.Context(), []string{"go:./calc:TestAdd"})
	if err != nil || len(found) == 0 || !strings.Contains(found[0].What, "special-cases the test's inputs") {
		t.Fatalf("overfitting %q (%v)", found, err)
	}
}

// TestOverfittingOfRowsAndSuiteMethods: the rows a patch adds to a table
// of a test it edits, and a testify suite's method it adds or edits, run
// as the patch has them: their inputs are read from the patch too, so a
// special case for them is found whichever shape the test takes.
func TestOverfittingOfRowsAndSuiteMethods(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n")
	r.write("calc/add_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tfor _, c := range []struct{ a, b, want int }{\n\t\t{0, 0, 0},\n\t} {\n\t\tif Add(c.a, c.b) != c.want {\n\t\t\tt.Fatal(c)\n\t\t}\n\t}\n}\n")
	r.write("calc/suite_test.go", "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype AddSuite struct{ suite.Suite }\n\nfunc (s *AddSuite) TestZero() {\n\ts.Equal(0, Add(0, 0))\n}\n\nfunc TestAddSuite(t *testing.T) {\n\tsuite.Run(t, new(AddSuite))\n}\n")
	base := r.commit("base")
	special := "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n"
	for _, tc := range []struct{ name, file, src, claim string }{
		{"a row added to a table", "calc/add_test.go",
			"package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tfor _, c := range []struct{ a, b, want int }{\n\t\t{0, 0, 0},\n\t\t{17, 4, 21},\n\t} {\n\t\tif Add(c.a, c.b) != c.want {\n\t\t\tt.Fatal(c)\n\t\t}\n\t}\n}\n",
			"go:./calc:TestAdd"},
		{"a suite method added", "calc/suite_test.go",
			"package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype AddSuite struct{ suite.Suite }\n\nfunc (s *AddSuite) TestZero() {\n\ts.Equal(0, Add(0, 0))\n}\n\nfunc (s *AddSuite) TestSum() {\n\ts.Equal(21, Add(17, 4))\n}\n\nfunc TestAddSuite(t *testing.T) {\n\tsuite.Run(t, new(AddSuite))\n}\n",
			"go:./calc:TestAddSuite/TestSum"},
		{"a suite method edited", "calc/suite_test.go",
			"package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype AddSuite struct{ suite.Suite }\n\nfunc (s *AddSuite) TestZero() {\n\ts.Equal(0, Add(0, 0))\n\ts.Equal(21, Add(17, 4))\n}\n\nfunc TestAddSuite(t *testing.T) {\n\tsuite.Run(t, new(AddSuite))\n}\n",
			"go:./calc:TestAddSuite/TestZero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.git("checkout", "-q", base)
			r.write("calc/add.go", special)
			r.write(tc.file, tc.src)
			c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit(tc.name)})
			found, err := c.Overfitting(t.Context(), []string{tc.claim})
			if err != nil || len(found) == 0 || !strings.Contains(found[0].What, "special-cases the test's inputs") {
				t.Fatalf("overfitting %q (%v)", found, err)
			}
		})
	}
}

// TestTestDataLaundered: a golden file only tests read on the baseline
// stays test support when the patch embeds it into an exported variable;
// production data the baseline's code embedded stays production data.
func TestTestDataLaundered(t *testing.T) {
	r := newTestRepo(t)
	r.write("calc/golden/median.txt", "1.5\n")
	r.write("calc/allow.go", "package calc\n\nimport (\n\t_ \"embed\"\n\t\"strings\"\n)\n\n//go:embed allow.txt\nvar allowList string\n\n// Allowed reports whether name is allowed.\nfunc Allowed(name string) bool { return strings.Contains(allowList, name) }\n")
	r.write("calc/allow.txt", "alice\n")
	base := helperModule(r)
	r.write("calc/golden/median.txt", "2\n")
	r.write("calc/golden.go", "package calc\n\nimport _ \"embed\"\n\n// GoldenMedian is the API now.\n//\n//go:embed golden/median.txt\nvar GoldenMedian string\n")
	r.write("calc/allow.txt", "alice\ncarol\n")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit("laundered")})
	if want := []string{"calc/golden/median.txt"}; !reflect.DeepEqual(c.Counterfactual, want) {
		t.Fatalf("counterfactual %q, want %q", c.Counterfactual, want)
	}
}

// TestSupportWrittenFromProduction: a new production init that loosens
// the helper's tolerance (a variable only tests read) changes the tests'
// judge from code no counterfactual can put back; a production fix that
// writes its own state does not.
func TestSupportWrittenFromProduction(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("calc/median.go", "package calc\n\n// Median is the API.\nfunc Median(xs []float64) float64 { return xs[len(xs)/2] }\n\nvar calls int\n\n// Calls is the API.\nfunc Calls() int { return calls }\n")
	r.write("calc/near.go", "package calc\n\nimport \"math\"\n\nvar tolerance = 1e-9\n\nfunc near(got, want float64) bool { return math.Abs(got-want) <= tolerance }\n")
	r.write("calc/median_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestMedian(t *testing.T) {\n\tif !near(Median([]float64{1, 2}), 1.5) {\n\t\tt.Fail()\n\t}\n}\n")
	base := r.commit("base")
	r.write("calc/zz.go", "package calc\n\nfunc init() {\n\ttolerance = 3.75\n\t_ = tolerance\n}\n")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit("attack")})
	wantPrefixes(t, "support writes", findings(c, inspect.RuleSupportWrite),
		"calc/zz.go:4: func init, which the patch changes and production code reaches, writes tolerance, which only tests read")

	r.git("checkout", "-q", base)
	r.remove("calc/zz.go")
	r.write("calc/median.go", "package calc\n\n// Median is the API.\nfunc Median(xs []float64) float64 {\n\tcalls++\n\treturn (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2\n}\n\nvar calls int\n\n// Calls is the API.\nfunc Calls() int { return calls }\n")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit("honest")})
	if got := findings(c, inspect.RuleSupportWrite); len(got) != 0 {
		t.Fatalf("an honest fix writes test support: %q", got)
	}
}
