package adjudication

import (
	"strings"
	"testing"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// trees is the run's trees.materialized body, to edit.
func (b *runBuilder) trees() *pb.TreesMaterialized {
	for _, r := range b.recs {
		if tm := r.Record.GetTreesMaterialized(); tm != nil {
			return tm
		}
	}
	b.t.Fatal("no trees")
	return nil
}

// fixedClaimRun is a run whose claim fails on the baseline and passes on the
// patch, with the suite green; extra jobs are planned beside.
func fixedClaimRun(t *testing.T, patch *jobs.Spec, extra ...*jobs.Spec) *runBuilder {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(append([]*jobs.Spec{claimSpec(claim, jobs.Baseline), patch, collSpec(jobs.Patch), collSpec(jobs.Baseline)}, extra...)...)
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(patch, jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomeFail, "m/calc.TestMedian=fail")
	return b
}

// TestRunCounterfactual: the claim is judged again with the test support
// the patch changed put back (a helper package, a helper declaration
// beside the code): the same outcome merges; another outcome is a claim
// that depends on its own judge; a run that does not build is no evidence
// either way, and says so.
func TestRunCounterfactual(t *testing.T) {
	cf := &jobs.Spec{Purpose: jobs.Counterfactual, Side: jobs.Patch, Claim: claim, Tree: jobs.TreeOracle, Module: ".", Package: "./calc",
		Tests: []string{"TestMedian"}, Restore: []string{"internal/check/check.go", "calc/near.go#near"}}
	for _, tc := range []struct {
		outcome, class string
		want           Decision
		says           string
	}{
		{jobs.OutcomePass, string(Fixed), Merge, ""},
		{jobs.OutcomeFail, string(Invalid), Inconclusive, "it depends on test support the patch changed (calc/near.go (near), internal/check/check.go): with it put back the claim is FAIL on the patch, with the patch's PASS"},
		{jobs.OutcomeUnrunnable, string(Unrunnable), Inconclusive, "its counterfactual run, with the test support the patch changed put back (calc/near.go (near), internal/check/check.go), did not build or run (test): that is no evidence the claim depends on them, nor that it does not"},
	} {
		t.Run(tc.outcome, func(t *testing.T) {
			b := fixedClaimRun(t, claimSpec(claim, jobs.Patch), cf)
			b.answer(cf, tc.outcome)
			v, a := decide(t, b)
			if v.Decision != tc.want || string(a.Claims[0].Classification) != tc.class || !strings.Contains(a.Claims[0].Reason, tc.says) {
				t.Fatalf("got %s, claim %s: %s", v.Decision, a.Claims[0].Classification, a.Claims[0].Reason)
			}
			validate(t, a)
		})
	}
	t.Run("never ran", func(t *testing.T) {
		b := fixedClaimRun(t, claimSpec(claim, jobs.Patch), cf)
		r := Read("run-1", b.recs)
		v := Decide(r.Policy(), r.Gather([]string{"job " + cf.ID()}))
		if v.Decision != Inconclusive || !strings.Contains(strings.Join(v.Reasons, "\n"), "its counterfactual run (test support the patch changed put back: calc/near.go (near), internal/check/check.go) never ran") {
			t.Fatalf("got %s: %q", v.Decision, v.Reasons)
		}
	})
}

// TestRunHarnessIsRecorded: a test file of the patch that controls the
// harness is left out of the judged runs, and the verdict says so — in the
// claim's reason, and in the verdict's (a MERGE's reason too); harness that
// uses what the baseline's tests declare is INCONCLUSIVE.
func TestRunHarnessIsRecorded(t *testing.T) {
	patch := claimSpec(claim, jobs.Patch)
	patch.Drop = []string{"calc/main_test.go"}
	harness := &pb.Finding{Rule: findingTestHarness, Path: "calc/main_test.go", Line: 9, Detail: "declares TestMain, which runs before the package's tests"}

	b := fixedClaimRun(t, patch)
	b.trees().Findings = []*pb.Finding{harness}
	b.trees().Changes = append(b.trees().Changes, &pb.FileChange{Path: "calc/main_test.go", Change: pb.ChangeKind_CHANGE_KIND_ADDED, Class: pb.FileClass_FILE_CLASS_TEST})
	v, a := decide(t, b)
	const note = "the patch's test harness was left out of every judged run (the claims and the suite ran without it): calc/main_test.go (line 9 declares TestMain, which runs before the package's tests): no judged run compiles it"
	if v.Decision != Merge || !strings.Contains(v.Reason, note) || len(v.Reasons) != 0 {
		t.Fatalf("got %s (%s): %q", v.Decision, v.Reason, v.Reasons)
	}
	if !strings.Contains(a.Claims[0].Reason, "judged without the test files the patch adds that control the test harness: calc/main_test.go") {
		t.Fatalf("claim reason %q", a.Claims[0].Reason)
	}
	validate(t, a)

	// Reaching into the baseline's tests: INCONCLUSIVE, the note after
	// the gap.
	b = fixedClaimRun(t, patch)
	b.trees().Findings = []*pb.Finding{harness, {Rule: findingBaselineReach, Path: "calc/main_test.go", Line: 10, Detail: "TestMain, which runs before the tests, uses cases, which the baseline's test files declare"}}
	v, _ = decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "reaches into the baseline's tests") || !strings.Contains(v.Reason, "calc/main_test.go:10: TestMain") ||
		v.Reasons[len(v.Reasons)-1] != note || !hasStep(v.NextSteps, HumanReviewTestEdit) {
		t.Fatalf("got %s (%s): %q %v", v.Decision, v.Reason, v.Reasons, v.NextSteps)
	}

	// A changed baseline test file is put back, not dropped.
	b = fixedClaimRun(t, claimSpec(claim, jobs.Patch))
	b.trees().Findings = []*pb.Finding{{Rule: findingTestHarness, Path: "calc/median_test.go", Line: 30, Detail: "declares init"}}
	b.trees().OracleRestored = []string{"calc/median_test.go"}
	v, _ = decide(t, b)
	if v.Decision != Merge || !strings.Contains(v.Reason, "calc/median_test.go (line 30 declares init): every judged run has the baseline's version of it") {
		t.Fatalf("got %s (%s)", v.Decision, v.Reason)
	}
}

// TestRunSupportWriteIsInconclusive: production code the patch changes
// that writes what only tests read is a gap of its own.
func TestRunSupportWriteIsInconclusive(t *testing.T) {
	b := fixedClaimRun(t, claimSpec(claim, jobs.Patch))
	b.trees().Findings = []*pb.Finding{{Rule: findingSupportWrite, Path: "calc/zz.go", Line: 4, Detail: "func init, which the patch changes and production code reaches, writes tolerance, which only tests read"}}
	v, _ := decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "writes what only its tests read") || !strings.Contains(v.Reason, "calc/zz.go:4: func init") {
		t.Fatalf("got %s (%s)", v.Decision, v.Reason)
	}
}
