package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// workspaceOn commits baseFiles on the demo's baseline (the new baseline)
// and patchFiles on that, and opens an executor workspace on the two.
func workspaceOn(t *testing.T, baseFiles, patchFiles map[string]string) (*executor.Executor, *executor.Workspace, *checkout.Checkout) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		t.Skip("needs git and the go tool; not in -short")
	}
	ctx := context.Background()
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := repo.Commit(ctx, repo.Base, "base", "base", baseFiles)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := repo.Commit(ctx, base, "patch", "patch", patchFiles)
	if err != nil {
		t.Fatal(err)
	}
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: base, PatchCommit: patch}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e, w := openOn(t, co)
	return e, w, co
}

// near builds calc/near.go: an assertion helper with a tolerance, beside
// extra declarations.
func near(tol, extra string) string {
	return "package calc\n\nimport \"math\"\n\n// near reports whether got is within " + tol + " of want.\nfunc near(got, want float64) bool {\n\treturn math.Abs(got-want) <= " + tol + "\n}\n" + extra
}

// nearMedianTest is the demo's TestMedian comparing with near.
const nearMedianTest = `package calc

import "testing"

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{7}, 7},
		{[]float64{8, 2, 4, 6}, 5},
		{[]float64{3, 10}, 6.5},
	} {
		if got := Median(tt.in); !near(got, tt.want) {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
`

// runClaim plans a claim and runs its jobs, returning the outcomes by job
// id and the counterfactual's spec (nil when none was planned).
func runClaim(t *testing.T, e *executor.Executor, w *executor.Workspace, claim string) (map[string]string, *jobs.Spec) {
	t.Helper()
	c := &criteria.Criteria{Claims: []string{claim}, Limits: limits().Limits}
	got := map[string]string{}
	var cf *jobs.Spec
	for _, s := range w.Plan(c) {
		switch s.Purpose {
		case jobs.Claim, jobs.Counterfactual, jobs.Modules:
		default:
			continue
		}
		a := e.Execute(context.Background(), w, s)
		got[s.ID()] = a.Detail.Outcome + " " + a.Detail.Reason
		if s.Purpose == jobs.Counterfactual {
			cf = s
		}
	}
	return got, cf
}

// TestCounterfactualPutsBackAHelperBesideTheCode: the loosened helper
// beside Median (calc/near.go, a non-test file only tests call) makes
// TestMedian pass with Median unchanged; the counterfactual puts back the
// helper's baseline declaration, and TestMedian fails again. The honest
// twin — Median fixed, the helper rewritten to the same answers, a new
// helper beside it — passes its counterfactual.
func TestCounterfactualPutsBackAHelperBesideTheCode(t *testing.T) {
	base := map[string]string{"calc/near.go": near("1e-9", ""), "calc/median_test.go": nearMedianTest}
	const claim = "go:./calc:TestMedian"
	t.Run("attack", func(t *testing.T) {
		e, w, co := workspaceOn(t, base, map[string]string{"calc/near.go": near("3.75", "")})
		if want := []string{"calc/near.go#near"}; !slices.Equal(co.CounterfactualDecls, want) {
			t.Fatalf("counterfactual declarations %q, want %q", co.CounterfactualDecls, want)
		}
		got, cf := runClaim(t, e, w, claim)
		if cf == nil || !slices.Equal(cf.Restore, []string{"calc/near.go#near"}) {
			t.Fatalf("counterfactual %+v", cf)
		}
		for id, want := range map[string]string{
			"claim/baseline/" + claim:       jobs.OutcomeFail,
			"claim/patch/" + claim:          jobs.OutcomePass,
			"counterfactual/patch/" + claim: jobs.OutcomeFail,
		} {
			if !strings.HasPrefix(got[id], want+" ") {
				t.Errorf("%s: %s, want %s", id, got[id], want)
			}
		}
	})
	t.Run("honest", func(t *testing.T) {
		fixed := strings.Replace(near("1e-9", "\nfunc nearer(a, b float64) bool { return a == b }\n"), "return math.Abs(got-want) <= 1e-9", "d := got - want\n\treturn -1e-9 <= d && d <= 1e-9", 1)
		fixed = strings.Replace(fixed, "import \"math\"\n\n", "", 1)
		e, w, _ := workspaceOn(t, base, map[string]string{"calc/near.go": fixed, "calc/median.go": honestMedian})
		got, cf := runClaim(t, e, w, claim)
		if cf == nil {
			t.Fatal("no counterfactual planned for a changed helper")
		}
		for id, want := range map[string]string{
			"claim/baseline/" + claim:       jobs.OutcomeFail,
			"claim/patch/" + claim:          jobs.OutcomePass,
			"counterfactual/patch/" + claim: jobs.OutcomePass,
		} {
			if !strings.HasPrefix(got[id], want+" ") {
				t.Errorf("%s: %s, want %s", id, got[id], want)
			}
		}
	})
}

// TestCounterfactualKeepsProductionData: a new data file the code embeds
// is not removed from under the package's build; a golden file only a
// test reads is put back, and a claim that passes only with the patch's
// version of it fails there.
func TestCounterfactualKeepsProductionData(t *testing.T) {
	const claim = "go:./calc:TestUnits"
	e, w, co := workspaceOn(t, nil, map[string]string{
		"calc/median.go":        honestMedian,
		"calc/units.go":         "package calc\n\nimport (\n\t_ \"embed\"\n\t\"strings\"\n)\n\n//go:embed units.txt\nvar unitList string\n\n// Units lists the units.\nfunc Units() []string { return strings.Fields(unitList) }\n",
		"calc/units.txt":        "m\nkg\n",
		"calc/units_test.go":    "package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestUnits(t *testing.T) {\n\tb, err := os.ReadFile(\"golden/units.txt\")\n\tif err != nil || strings.Join(Units(), \" \") != strings.TrimSpace(string(b)) {\n\t\tt.Fatal(Units(), string(b), err)\n\t}\n}\n",
		"calc/golden/units.txt": "m kg\n",
	})
	if !slices.Equal(co.Counterfactual, []string{"calc/golden/units.txt"}) {
		t.Fatalf("counterfactual %q", co.Counterfactual)
	}
	got, cf := runClaim(t, e, w, claim)
	if cf == nil || slices.Contains(cf.Restore, "calc/units.txt") {
		t.Fatalf("counterfactual %+v", cf)
	}
	// The golden file is new: without it the test cannot read it.
	if id := "counterfactual/patch/" + claim; !strings.HasPrefix(got[id], jobs.OutcomeFail+" ") {
		t.Errorf("%s: %s, want FAIL", id, got[id])
	}
	if id := "claim/patch/" + claim; !strings.HasPrefix(got[id], jobs.OutcomePass+" ") {
		t.Errorf("%s: %s, want PASS", id, got[id])
	}
}

// honestMedian is the demo's honest fix of Median.
const honestMedian = `package calc

import "slices"

// Median returns the middle value of xs, or the mean of the two middle
// values when xs has an even length.
func Median(xs []float64) float64 {
	s := sorted(xs)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
`

// TestDiscoveredClaimsGetTheClaimRules: without claims, the claim
// discovery proposes (TestMedian, fixed by a loosened helper beside the
// code) is planned with its counterfactual, as a sealed claim is, and the
// counterfactual fails; the lines the baseline's tests ran are measured on
// the baseline for every test of the measured package, so lost coverage
// is judged for whatever discovery proposes.
func TestDiscoveredClaimsGetTheClaimRules(t *testing.T) {
	e, w, _ := workspaceOn(t, map[string]string{"calc/near.go": near("1e-9", ""), "calc/median_test.go": nearMedianTest},
		map[string]string{"calc/near.go": near("3.75", "")})
	c := &criteria.Criteria{DiscoverClaims: true, CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.8, Limits: limits().Limits}
	ctx := context.Background()
	planned := map[string]*jobs.Spec{}
	done := map[string]*jobs.Done{}
	var baseCover *jobs.Spec
	for _, s := range w.Plan(c) {
		planned[s.ID()] = s
		switch {
		case s.Purpose == jobs.Discovery || s.Purpose == jobs.Modules:
			a := e.Execute(ctx, w, s)
			done[s.ID()] = &jobs.Done{Spec: s, Detail: &a.Detail, Cases: a.Cases}
		case s.Purpose == jobs.Coverage && s.Side == jobs.Baseline:
			baseCover = s
		}
	}
	if baseCover == nil || !slices.Contains(baseCover.Tests, "TestMedian") || !slices.Contains(baseCover.Tests, "TestClamp") {
		t.Fatalf("baseline coverage without claims: %+v", baseCover)
	}
	due := jobs.Due(planned, done, nil)
	specs := w.PlanDue(c, due, planned, done, nil)
	var cf *jobs.Spec
	var ids []string
	for _, s := range specs {
		ids = append(ids, s.ID())
		if s.Purpose == jobs.Counterfactual {
			cf = s
		}
	}
	const claim = "go:./calc:TestMedian"
	if !slices.Contains(ids, "claim/baseline/"+claim) || !slices.Contains(ids, "claim/patch/"+claim) || cf == nil || cf.Claim != claim {
		t.Fatalf("planned for the discovered claims: %q", ids)
	}
	if a := e.Execute(ctx, w, cf); a.Detail.Outcome != jobs.OutcomeFail {
		t.Fatalf("counterfactual %s: %s", a.Detail.Outcome, a.Detail.Reason)
	}
	// Planned once: nothing more is due for it.
	for _, s := range specs {
		planned[s.ID()] = s
	}
	if again := w.PlanDue(c, jobs.Due(planned, done, nil), planned, done, nil); len(again) != 0 {
		t.Fatalf("planned again: %v", again)
	}
}

// TestBaselineCoverageSurvivesAPanickingTest: a test that panics on the
// baseline (as a test of a panicking bug does) ends its process before the
// coverage profile is written; the baseline's other tests still leave
// their lines, and the job names the test whose lines are not known.
func TestBaselineCoverageSurvivesAPanickingTest(t *testing.T) {
	e, w, _ := workspaceOn(t, map[string]string{
		"calc/boom_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestBoom(t *testing.T) {\n\tif Median([]float64{1, 2}) == 2 {\n\t\tvar m map[int]int\n\t\tm[0] = 1\n\t}\n}\n",
	}, map[string]string{"calc/median.go": honestMedian})
	c := &criteria.Criteria{DiscoverClaims: true, CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.8, Limits: limits().Limits}
	for _, s := range w.Plan(c) {
		if s.Purpose != jobs.Coverage || s.Side != jobs.Baseline {
			continue
		}
		a := e.Execute(context.Background(), w, s)
		if a.Detail.Outcome != jobs.OutcomePass || !strings.Contains(a.Detail.Reason, "1 left none") || !strings.Contains(a.Detail.Reason, "TestBoom") {
			t.Fatalf("baseline coverage %s: %s %v", a.Detail.Outcome, a.Detail.Reason, a.Detail.Profiles)
		}
		if _, ok := a.Detail.Profiles[jobs.BaselineProfile]; !ok {
			t.Fatalf("no baseline profile: %v", a.Detail.Profiles)
		}
		return
	}
	t.Fatal("no baseline coverage job planned")
}

// TestPatchCoverageSurvivesAPanickingTest: a test that panics on the
// patched code leaves no profile in the coverage search; it counts as
// reaching nothing, the other tests' reach stands, and the job names it
// (msgpack's out-of-memory test voided a whole package's coverage before).
func TestPatchCoverageSurvivesAPanickingTest(t *testing.T) {
	e, w, _ := workspaceOn(t, map[string]string{
		"calc/boom_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestBoom(t *testing.T) {\n\tif Median([]float64{1, 2}) == 1.5 {\n\t\tvar m map[int]int\n\t\tm[0] = 1\n\t}\n}\n",
	}, map[string]string{"calc/median.go": honestMedian})
	c := &criteria.Criteria{DiscoverClaims: true, CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.8, Limits: limits().Limits}
	for _, s := range w.Plan(c) {
		if s.Purpose != jobs.Coverage || s.Side != jobs.Patch {
			continue
		}
		a := e.Execute(context.Background(), w, s)
		if a.Detail.Outcome != jobs.OutcomePass || !strings.Contains(a.Detail.Reason, "1 left no coverage profile") || !strings.Contains(a.Detail.Reason, "TestBoom") {
			t.Fatalf("patch coverage %s: %s %v", a.Detail.Outcome, a.Detail.Reason, a.Detail.Profiles)
		}
		if len(a.Detail.Profiles) == 0 {
			t.Fatal("no profile of the other tests")
		}
		return
	}
	t.Fatal("no patch coverage job planned")
}

// TestNewTestRunsAloneOnTheBaseline: a fix adds a test file whose tests
// are the claimed one, which calls only code the baseline has, and one of
// a helper the fix adds. Whole, the file does not build on the baseline;
// the claimed test laid over it alone does, and fails there: the fix is
// proven. The helper's test is still new behaviour, proving nothing.
func TestNewTestRunsAloneOnTheBaseline(t *testing.T) {
	const newTests = "package calc\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\n" +
		"func TestMedianEven(t *testing.T) {\n\tif got := Median([]float64{8, 2, 4, 6}); got != 5 {\n\t\tt.Fatalf(\"Median = %v\", got)\n\t}\n}\n\n" +
		"func TestMiddle(t *testing.T) {\n\tif middle(4) != 2 {\n\t\tt.Fatal(strings.Repeat(\"x\", 2))\n\t}\n}\n"
	e, w, _ := workspaceOn(t, map[string]string{}, map[string]string{
		"calc/median.go":          honestMedian + "\nfunc middle(n int) int { return n / 2 }\n",
		"calc/median_new_test.go": newTests,
	})
	for claim, want := range map[string]map[string]string{
		"go:./calc:TestMedianEven": {"baseline": jobs.OutcomeFail, "patch": jobs.OutcomePass},
		"go:./calc:TestMiddle":     {"baseline": jobs.OutcomeAbsent, "patch": jobs.OutcomePass},
	} {
		got, _ := runClaim(t, e, w, claim)
		for side, outcome := range want {
			id := "claim/" + side + "/" + claim
			if !strings.HasPrefix(got[id], outcome+" ") {
				t.Errorf("%s: %s, want %s", id, got[id], outcome)
			}
		}
		if b := got["claim/baseline/"+claim]; strings.HasPrefix(b, jobs.OutcomeFail) && !strings.Contains(b, "run alone on the baseline") {
			t.Errorf("the baseline run does not say it ran alone: %s", b)
		}
	}

	// The same two tests added to an existing test file.
	const old = "package calc\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestOld(t *testing.T) {\n\tif strings.Repeat(\"a\", 2) != \"aa\" {\n\t\tt.Fatal()\n\t}\n}\n"
	e, w, co := workspaceOn(t, map[string]string{"calc/old_test.go": old}, map[string]string{
		"calc/median.go":   honestMedian + "\nfunc middle(n int) int { return n / 2 }\n",
		"calc/old_test.go": old + strings.TrimPrefix(newTests, "package calc\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n"),
	})
	if len(co.Deferred) != 2 {
		t.Fatalf("deferred %+v, want the two added tests", co.Deferred)
	}
	for claim, want := range map[string]string{
		"go:./calc:TestMedianEven": jobs.OutcomeFail,
		"go:./calc:TestMiddle":     jobs.OutcomeAbsent,
	} {
		got, _ := runClaim(t, e, w, claim)
		if b := got["claim/baseline/"+claim]; !strings.HasPrefix(b, want+" ") {
			t.Errorf("added to an existing file: claim/baseline/%s: %s, want %s", claim, b, want)
		}
	}
}
