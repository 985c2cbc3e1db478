package adjudication

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

const python = "/usr/bin/python3"

func treeOf(side string) string {
	if side == jobs.Baseline {
		return jobs.TreeBaseline
	}
	return jobs.TreeOracle
}

// pySuite and cmdSuite are the pytest suite and the declared suite command
// as the executor plans them.
func pySuite(side string) *jobs.Spec {
	return &jobs.Spec{Purpose: jobs.Collateral, Side: side, Tree: treeOf(side), Module: ".", Runner: jobs.RunnerPytest, Python: python, TimeoutSec: 1200}
}

func cmdSuite(side string) *jobs.Spec {
	return &jobs.Spec{Purpose: jobs.Collateral, Side: side, Tree: treeOf(side), Module: ".", Runner: jobs.RunnerCommand, Run: "make test", Python: python, TimeoutSec: 1200}
}

func sealSpec(c criteria.Command) *jobs.Spec {
	return &jobs.Spec{Purpose: jobs.Seal, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Runner: jobs.RunnerCommand, Run: c.Run, JUnit: c.JUnit, Python: python, TimeoutSec: 1200}
}

// answerWith answers s as answer does, with the runner's case count and
// the process's exit code; the reason names the job and its outcome.
func (b *runBuilder) answerWith(s *jobs.Spec, outcome string, count *int, exit int32, cases ...string) {
	b.t.Helper()
	d := &jobs.Detail{Outcome: outcome, Reason: s.ID() + " " + outcome, Count: count,
		Runs: []jobs.Run{{Verdict: outcome, ExitCode: int(exit), WallMillis: 100}}}
	raw, err := d.Marshal()
	if err != nil {
		b.t.Fatal(err)
	}
	res := &pb.JobResult{JobId: s.ID(), Termination: pb.Termination_TERMINATION_EXITED, ExitCode: exit, Detail: raw,
		Sandbox: &pb.Sandbox{Name: "bwrap", EnvNames: []string{"PATH"}}}
	if outcome == jobs.OutcomeTimeout {
		res.Termination = pb.Termination_TERMINATION_TIMEOUT
	}
	for _, c := range cases {
		name, outcome, _ := strings.Cut(c, "=")
		res.Cases = append(res.Cases, &pb.TestCase{Name: name, Outcome: outcome})
	}
	b.add(&pb.Record{Body: &pb.Record_JobResult{JobResult: res}})
}

// fixedRun is a run whose one claim is fixed, floors off, with the suites
// and seal checks given planned (none answered) and seal as its seal plan.
// A patch-side suite planned without its baseline run gets one that the
// baseline has no such suite for: it owes nothing.
func fixedRun(t *testing.T, seal []criteria.Command, planned ...*jobs.Spec) *runBuilder {
	t.Helper()
	b := newRunWith(t, []string{claim}, 0, 0, func(c *criteria.Criteria) { c.Python, c.SealPlan = python, seal })
	var skipped []*jobs.Spec
	for _, s := range planned {
		if s.Purpose != jobs.Collateral || s.Side != jobs.Patch {
			continue
		}
		base := BaselineOf(s)
		if !slices.ContainsFunc(planned, func(p *jobs.Spec) bool { return p.ID() == base }) {
			bs := *s
			bs.Side, bs.Tree, bs.Skip = jobs.Baseline, jobs.TreeBaseline, "the baseline has no such suite"
			skipped = append(skipped, &bs)
		}
	}
	b.planJobs(append(append([]*jobs.Spec{claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch)}, planned...), skipped...)...)
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	for _, s := range skipped {
		b.answer(s, jobs.OutcomeNotRun)
	}
	return b
}

func gather(t *testing.T, b *runBuilder) (*Run, Evidence, Verdict) {
	t.Helper()
	r := Read("run-1", b.recs)
	if len(r.Problems) > 0 {
		t.Fatalf("problems reading the run: %v", r.Problems)
	}
	e := r.Gather(r.Pending())
	return r, e, Decide(r.Policy(), e)
}

func TestRunEverySuiteIsCounted(t *testing.T) {
	b := fixedRun(t, nil, collSpec(jobs.Patch), pySuite(jobs.Patch), cmdSuite(jobs.Patch))
	// go test reports no count of its own: its cases are the count.
	b.answerWith(collSpec(jobs.Patch), jobs.OutcomePass, nil, 0, "m/calc.TestMedian=pass", "m/calc.TestMean=pass")
	b.answerWith(pySuite(jobs.Patch), jobs.OutcomePass, ptr(3), 0, "tests/test_calc.py::test_add=pass", "tests/test_calc.py::test_sub=pass", "tests/test_calc.py::test_div[0]=pass")
	b.answerWith(cmdSuite(jobs.Patch), jobs.OutcomePass, ptr(4), 0) // JUnit count, no cases listed
	_, e, v := gather(t, b)
	c := e.Collateral
	if !c.PatchRan || !c.PatchGreen || c.PatchCases == nil || *c.PatchCases != 2+3+4 {
		t.Fatalf("collateral %+v, cases %v", c, c.PatchCases)
	}
	for _, id := range []string{collSpec(jobs.Patch).ID(), pySuite(jobs.Patch).ID(), cmdSuite(jobs.Patch).ID()} {
		if !strings.Contains(c.Why, id) {
			t.Errorf("why %q does not name suite %s", c.Why, id)
		}
	}
	if v.Decision != Merge || !strings.Contains(v.Reason, "the full suite passes on the patch (9 tests)") {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
}

func TestRunSuiteWithoutCountIsNotCounted(t *testing.T) {
	b := fixedRun(t, nil, collSpec(jobs.Patch), cmdSuite(jobs.Patch))
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass", "m/calc.TestMean=pass")
	// A declared command without a JUnit file: it exited 0, and its cases,
	// if any were read, are no count.
	b.answerWith(cmdSuite(jobs.Patch), jobs.OutcomePass, nil, 0, "npm.test=pass")
	r, e, v := gather(t, b)
	if c := e.Collateral; !c.PatchRan || !c.PatchGreen || c.PatchCases != nil {
		t.Fatalf("collateral %+v: a suite without a count must leave the total unknown", c)
	}
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "having run no test") {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	a := r.BuildArtefact(v, e)
	if a.Collateral.Tests != nil {
		t.Fatalf("artefact counts %d tests", *a.Collateral.Tests)
	}
	validate(t, a)
}

func TestRunSuiteNotRunIsNotRan(t *testing.T) {
	for name, answer := range map[string]bool{"answered NOT_RUN": true, "never answered": false} {
		t.Run(name, func(t *testing.T) {
			b := fixedRun(t, nil, collSpec(jobs.Patch), pySuite(jobs.Patch))
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			want := "never answered"
			if answer {
				b.answerWith(pySuite(jobs.Patch), jobs.OutcomeNotRun, nil, 0)
				want = pySuite(jobs.Patch).ID() + " NOT_RUN"
			}
			r, e, v := gather(t, b)
			if c := e.Collateral; c.PatchRan || c.PatchGreen || c.PatchCases != nil || c.Why != want {
				t.Fatalf("collateral %+v: one suite not run must leave the fold not run (%s)", c, want)
			}
			if v.Decision != Inconclusive || !slices.Contains(v.Reasons, "the full suite did not run on the patch") {
				t.Fatalf("got %s: %v", v.Decision, v.Reasons)
			}
			validate(t, r.BuildArtefact(v, e))
		})
	}
}

func TestRunRedPytestSuiteRegressionsByNodeID(t *testing.T) {
	b := fixedRun(t, nil, collSpec(jobs.Patch), pySuite(jobs.Patch), pySuite(jobs.Baseline))
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answerWith(pySuite(jobs.Patch), jobs.OutcomeFail, ptr(4), 1,
		"tests/test_calc.py::test_add=pass", "tests/test_calc.py::test_div[0-1]=fail",
		"tests/test_calc.py::test_old=fail", "tests/test_calc.py::test_new=fail")
	r := Read("run-1", b.recs)
	if p := r.Pending(); !slices.Equal(p, []string{"job " + pySuite(jobs.Baseline).ID()}) {
		t.Fatalf("a pytest suite waits for its own baseline run: %v", p)
	}
	if BaselineOf(pySuite(jobs.Patch)) != pySuite(jobs.Baseline).ID() {
		t.Fatalf("baseline of the pytest suite is %s", BaselineOf(pySuite(jobs.Patch)))
	}
	b.answerWith(pySuite(jobs.Baseline), jobs.OutcomeFail, ptr(3), 1,
		"tests/test_calc.py::test_add=pass", "tests/test_calc.py::test_div[0-1]=pass", "tests/test_calc.py::test_old=fail")
	v, a := decide(t, b)
	want := []string{"tests/test_calc.py::test_div[0-1]"}
	if v.Decision != Block || !strings.Contains(v.Reason, want[0]) || !slices.Equal(a.Collateral.Regressions, want) {
		t.Fatalf("got %s: %s; regressions %v", v.Decision, v.Reason, a.Collateral.Regressions)
	}
	if !slices.Contains(v.NextSteps, NextStep{FixCode, want[0]}) {
		t.Fatalf("next steps %v", v.NextSteps)
	}
	if s := a.Collateral.Suites; len(s) != 2 || s[0].Baseline == nil || s[0].Baseline.Outcome != jobs.OutcomeNotRun || s[1].Baseline == nil || s[1].Baseline.Job != pySuite(jobs.Baseline).ID() {
		t.Fatalf("suites %+v", s)
	}
	validate(t, a)
}

func TestRunStoppedSuiteTestIsNotARegression(t *testing.T) {
	const big, add = "tests/test_mem.py::test_big", "tests/test_calc.py::test_add"
	run := func(t *testing.T, addOnPatch string) (Evidence, Verdict) {
		b := fixedRun(t, nil, collSpec(jobs.Patch), pySuite(jobs.Patch), pySuite(jobs.Baseline))
		b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
		b.answerWith(pySuite(jobs.Patch), jobs.OutcomeFail, ptr(3), 1, add+"="+addOnPatch, big+"="+jobs.CaseStopped, "tests/test_calc.py::test_old=fail")
		b.answerWith(pySuite(jobs.Baseline), jobs.OutcomeFail, ptr(3), 1, add+"=pass", big+"=pass", "tests/test_calc.py::test_old=fail")
		_, e, v := gather(t, b)
		if !slices.Equal(e.Collateral.Stopped, []string{big}) {
			t.Fatalf("stopped %v, regressions %v", e.Collateral.Stopped, e.Collateral.Regressions)
		}
		return e, v
	}
	t.Run("alone", func(t *testing.T) {
		e, v := run(t, "pass")
		if len(e.Collateral.Regressions) != 0 {
			t.Fatalf("a stopped test counted as a regression: %v", e.Collateral.Regressions)
		}
		if v.Decision != Inconclusive || !strings.Contains(v.Reason, "stopped by a resource limit on the patch: "+big) {
			t.Fatalf("got %s: %s", v.Decision, v.Reason)
		}
		if !slices.Contains(v.NextSteps, NextStep{RaiseLimit, big}) || slices.Contains(v.NextSteps, NextStep{FixCode, big}) {
			t.Fatalf("next steps %v: want raise_limit %s and no fix_code", v.NextSteps, big)
		}
	})
	t.Run("beside a regression", func(t *testing.T) {
		e, v := run(t, "fail")
		if !slices.Equal(e.Collateral.Regressions, []string{add}) {
			t.Fatalf("regressions %v", e.Collateral.Regressions)
		}
		if v.Decision != Block || strings.Contains(v.Reason, big) {
			t.Fatalf("got %s: %s", v.Decision, v.Reason)
		}
	})
}

var sealPlan = []criteria.Command{{Run: "make lint"}, {Run: "make lint", JUnit: "out/lint.xml"}, {Run: "./check.sh"}}

func TestRunSealChecksMatchedByIdentity(t *testing.T) {
	// Planned in one order, answered in another, each with its own count:
	// only matching by identity gives every check its own answer.
	b := fixedRun(t, sealPlan, collSpec(jobs.Patch), sealSpec(sealPlan[2]), sealSpec(sealPlan[0]), sealSpec(sealPlan[1]))
	b.answerWith(sealSpec(sealPlan[1]), jobs.OutcomePass, ptr(7), 0)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answerWith(sealSpec(sealPlan[2]), jobs.OutcomePass, ptr(1), 0)
	b.answerWith(sealSpec(sealPlan[0]), jobs.OutcomePass, ptr(3), 0)
	r, e, v := gather(t, b)
	want := []int{3, 7, 1}
	if len(e.Seals) != len(sealPlan) {
		t.Fatalf("seals %+v", e.Seals)
	}
	for i, s := range e.Seals {
		if s.Command != sealPlan[i].Run || !s.Ran || s.Exit != 0 || s.Cases == nil || *s.Cases != want[i] {
			t.Errorf("check %d (%+v): got %+v, cases %v, want %d cases", i, sealPlan[i], s, s.Cases, want[i])
		}
	}
	if v.Decision != Merge {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	a := r.BuildArtefact(v, e)
	for i, ref := range a.SealPlan {
		if ref.Command != sealPlan[i].Run || ref.JUnit != sealPlan[i].JUnit || ref.Run == nil || ref.Run.Job != sealSpec(sealPlan[i]).ID() ||
			ref.Cases == nil || *ref.Cases != want[i] || ref.Exit == nil || *ref.Exit != 0 {
			t.Errorf("artefact check %d: %+v", i, ref)
		}
	}
	validate(t, a)
}

func TestRunSealCheckOutcomes(t *testing.T) {
	const chk = "./check.sh"
	plan := []criteria.Command{{Run: "make lint"}, {Run: chk, JUnit: "out/check.xml"}}
	cases := []struct {
		name    string
		outcome string // "" leaves the check unanswered
		count   *int
		exit    int32
		want    Decision
		reason  string
	}{
		{"pass", jobs.OutcomePass, ptr(5), 0, Merge, ""},
		{"fail", jobs.OutcomeFail, ptr(5), 3, Block, `seal check "./check.sh" failed with exit 3`},
		{"fail recorded as exit 0", jobs.OutcomeFail, ptr(5), 0, Block, `seal check "./check.sh" failed with exit 1`},
		{"timeout", jobs.OutcomeTimeout, nil, -1, Inconclusive, `seal check "./check.sh" was never run`},
		{"unrunnable", jobs.OutcomeUnrunnable, nil, 127, Inconclusive, `seal check "./check.sh" was never run`},
		{"never answered", "", nil, 0, Inconclusive, `seal check "./check.sh" was never run`},
		{"empty green", jobs.OutcomePass, ptr(0), 0, Inconclusive, `seal check "./check.sh" exited 0 having run no case (empty green)`},
		{"no count", jobs.OutcomePass, nil, 0, Inconclusive, `seal check "./check.sh" reported no case count`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := fixedRun(t, plan, collSpec(jobs.Patch), sealSpec(plan[0]), sealSpec(plan[1]))
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			b.answerWith(sealSpec(plan[0]), jobs.OutcomePass, ptr(2), 0)
			if tc.outcome != "" {
				b.answerWith(sealSpec(plan[1]), tc.outcome, tc.count, tc.exit)
			}
			r, e, v := gather(t, b)
			if v.Decision != tc.want || !strings.Contains(v.Reason, tc.reason) {
				t.Fatalf("got %s: %s", v.Decision, v.Reason)
			}
			for _, why := range v.Reasons {
				if strings.Contains(why, `"make lint"`) {
					t.Errorf("the green check is named: %s", why)
				}
			}
			if tc.want == Block && !slices.Contains(v.NextSteps, NextStep{FixCode, chk}) {
				t.Errorf("next steps %v lack fix_code %s", v.NextSteps, chk)
			}
			a := r.BuildArtefact(v, e)
			if ran := a.SealPlan[1].Ran; ran != (tc.outcome == jobs.OutcomePass || tc.outcome == jobs.OutcomeFail) || (a.SealPlan[1].Exit == nil) == ran {
				t.Errorf("artefact check %+v", a.SealPlan[1])
			}
			validate(t, a)
		})
	}
}

// TestRunSealResultForAnotherCheck: a result is matched to a sealed check
// only by that check's identity; a job for any other command, JUnit file
// or side satisfies nothing.
func TestRunSealResultForAnotherCheck(t *testing.T) {
	lint := criteria.Command{Run: "make lint"}
	cases := []struct {
		name    string
		sealed  criteria.Command
		foreign *jobs.Spec
	}{
		{"another command", lint, sealSpec(criteria.Command{Run: "make lint --fix"})},
		{"another JUnit file", lint, sealSpec(criteria.Command{Run: "make lint", JUnit: "out/lint.xml"})},
		{"the baseline side", lint, func() *jobs.Spec {
			s := sealSpec(lint)
			s.Side, s.Tree = jobs.Baseline, jobs.TreeBaseline
			return s
		}()},
		// The fields' bytes shifted across the boundary between them: one
		// string if the identity were their concatenation. (A NUL, which a
		// separator encoding would confuse, is refused in both when the
		// criteria are sealed.)
		{"fields shifted", criteria.Command{Run: "make lint", JUnit: "o/out.xml"}, sealSpec(criteria.Command{Run: "make linto", JUnit: "/out.xml"})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := fixedRun(t, []criteria.Command{tc.sealed}, collSpec(jobs.Patch), tc.foreign)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			b.answerWith(tc.foreign, jobs.OutcomePass, ptr(5), 0)
			r, e, v := gather(t, b)
			if len(e.Seals) != 1 || e.Seals[0].Ran {
				t.Fatalf("seals %+v: a result for %s satisfied the sealed check %q", e.Seals, tc.foreign.ID(), fmt.Sprint(tc.sealed))
			}
			if v.Decision != Inconclusive || !strings.Contains(v.Reason, fmt.Sprintf("seal check %q was never run", tc.sealed.Run)) {
				t.Fatalf("got %s: %s", v.Decision, v.Reason)
			}
			a := r.BuildArtefact(v, e)
			if ref := a.SealPlan[0]; ref.Ran || ref.Run != nil || ref.Exit != nil || ref.Cases != nil {
				t.Fatalf("artefact check %+v", ref)
			}
			validate(t, a)
		})
	}
}

func TestArtefactListsSuitesAndSealPlan(t *testing.T) {
	b := fixedRun(t, sealPlan, pySuite(jobs.Patch), cmdSuite(jobs.Patch), collSpec(jobs.Patch), pySuite(jobs.Baseline),
		sealSpec(sealPlan[0]), sealSpec(sealPlan[1]), sealSpec(sealPlan[2]))
	b.answerWith(pySuite(jobs.Patch), jobs.OutcomeFail, ptr(2), 1, "tests/test_calc.py::test_add=pass", "tests/test_calc.py::test_old=fail")
	b.answerWith(pySuite(jobs.Baseline), jobs.OutcomeFail, ptr(2), 1, "tests/test_calc.py::test_add=pass", "tests/test_calc.py::test_old=fail")
	b.answerWith(cmdSuite(jobs.Patch), jobs.OutcomePass, ptr(4), 0)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answerWith(sealSpec(sealPlan[2]), jobs.OutcomePass, ptr(1), 0)
	b.answerWith(sealSpec(sealPlan[0]), jobs.OutcomeFail, ptr(3), 2)
	b.answerWith(sealSpec(sealPlan[1]), jobs.OutcomeTimeout, nil, -1)
	r, e, v := gather(t, b)
	if v.Decision != Block || !strings.Contains(v.Reason, `seal check "make lint" failed with exit 2`) {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	a := r.BuildArtefact(v, e)
	validate(t, a)

	var suites []string
	for _, s := range a.Collateral.Suites {
		suites = append(suites, s.Job)
	}
	want := []string{collSpec(jobs.Patch).ID(), cmdSuite(jobs.Patch).ID(), pySuite(jobs.Patch).ID()}
	if !slices.Equal(suites, want) || !slices.Equal(r.Suites(), want) {
		t.Fatalf("suites %v, want %v", suites, want)
	}
	s := a.Collateral.Suites
	if a.Collateral.Patch != s[0].Patch || s[0].Patch.Job != want[0] || s[0].Baseline.Outcome != jobs.OutcomeNotRun || s[1].Patch.Job != want[1] ||
		s[2].Baseline == nil || s[2].Baseline.Job != pySuite(jobs.Baseline).ID() || s[2].Baseline.Outcome != jobs.OutcomeFail {
		t.Fatalf("collateral %+v", a.Collateral)
	}
	if a.Collateral.Tests == nil || *a.Collateral.Tests != 1+4+2 {
		t.Fatalf("tests %v", a.Collateral.Tests)
	}

	type row struct {
		command, junit string
		ran            bool
		exit, cases    *int
		job            string
	}
	wantPlan := []row{
		{"make lint", "", true, ptr(2), ptr(3), sealSpec(sealPlan[0]).ID()},
		{"make lint", "out/lint.xml", false, nil, nil, sealSpec(sealPlan[1]).ID()},
		{"./check.sh", "", true, ptr(0), ptr(1), sealSpec(sealPlan[2]).ID()},
	}
	if len(a.SealPlan) != len(wantPlan) {
		t.Fatalf("seal plan %+v", a.SealPlan)
	}
	eq := func(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	for i, w := range wantPlan {
		g := a.SealPlan[i]
		if g.Command != w.command || g.JUnit != w.junit || g.Ran != w.ran || !eq(g.Exit, w.exit) || !eq(g.Cases, w.cases) || g.Run == nil || g.Run.Job != w.job {
			t.Errorf("seal plan %d: got %+v, want %+v", i, g, w)
		}
	}
	if a.SealPlan[1].Run.Outcome != jobs.OutcomeTimeout || a.SealPlan[1].Run.Termination != "timeout" {
		t.Errorf("the timed-out check's run %+v", a.SealPlan[1].Run)
	}
	raw, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"junit": "out/lint.xml",
      "ran": false,
      "exit_code": null,
      "cases": null,`) {
		t.Errorf("the check that never ran is not rendered with null exit code and cases:\n%s", raw)
	}
}
