package adjudication

import (
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// A claim the grader says passes on the baseline (PASS_TO_PASS) that fails
// on both sides is the environment's, not the patch's: unverified, never
// BLOCK. The same claim without the grader's word is an incomplete fix
// (BLOCK), and a baseline pass broken by the patch stays a regression.
func TestBaselinePassesFailingOnBothSides(t *testing.T) {
	for _, tc := range []struct {
		name         string
		baselinePass bool
		base, patch  string
		want         Decision
		class        Class
		wantOutcome  Outcome
	}{
		{"grader's pass fails on both", true, jobs.OutcomeFail, jobs.OutcomeFail, Inconclusive, Unrunnable, Unverified},
		{"no grader's word", false, jobs.OutcomeFail, jobs.OutcomeFail, Block, IncompleteFix, Refuted},
		{"grader's pass broken by the patch", true, jobs.OutcomePass, jobs.OutcomeFail, Block, Regression, Refuted},
		{"grader's pass kept", true, jobs.OutcomePass, jobs.OutcomePass, Merge, NoRegression, Verified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newRunWith(t, []string{claim}, 0, 0, func(c *criteria.Criteria) {
				if tc.baselinePass {
					c.BaselinePasses = []string{claim}
				}
			})
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), tc.base)
			b.answer(claimSpec(claim, jobs.Patch), tc.patch)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMean=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMean=pass")
			v, a := decide(t, b)
			if v.Decision != tc.want || a.Claims[0].Classification != tc.class || a.Claims[0].Outcome != tc.wantOutcome {
				t.Fatalf("got %s (%s); claim %+v", v.Decision, v.Reason, a.Claims[0])
			}
			validate(t, a)
		})
	}
}

// A grader's test name that resolved to no test (sealed so, leniently) is
// an unverified claim: the verdict cannot be MERGE on the other claims
// alone. Its honest twin resolves and merges.
func TestBareClaimResolvingToNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		bare map[string][]string
		want Decision
	}{
		{"resolves to nothing", map[string][]string{"go:TestGone": {}, "go:TestMedian": {claim}}, Inconclusive},
		{"resolves", map[string][]string{"go:TestMedian": {claim}}, Merge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newRunWith(t, []string{claim}, 0, 0, func(c *criteria.Criteria) { c.BareClaims = tc.bare })
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
			v, a := decide(t, b)
			if v.Decision != tc.want {
				t.Fatalf("got %s: %s", v.Decision, v.Reason)
			}
			if tc.want == Inconclusive && (len(a.Claims) != 2 || a.Claims[1].ID != "go:TestGone" || a.Claims[1].Classification != Invalid) {
				t.Fatalf("claims %+v", a.Claims)
			}
			validate(t, a)
		})
	}
}
