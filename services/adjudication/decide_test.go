package adjudication

import (
	"math"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func defaults() Policy {
	return Policy{CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.80}
}

// clean is evidence that deserves MERGE under defaults().
func clean() Evidence {
	return Evidence{
		Claims:     []Claim{{ID: "go:./calc:TestDivide", Outcome: Verified, Class: Fixed, Why: "fails on baseline, passes on patch"}},
		Collateral: &Collateral{PatchRan: true, PatchGreen: true, BaselineRan: true, PatchCases: ptr(12)},
		Coverage:   &Coverage{Source: Computed, Ratio: ptr(1.0)},
		Strength:   &Strength{Source: Computed, Killed: 5},
	}
}

func TestWilsonLower(t *testing.T) {
	cases := []struct {
		k, n int
		conf float64
		want float64
	}{
		{5, 5, 0.80, 0.7527},
		{4, 4, 0.80, 0.7089},
		{0, 5, 0.80, 0},
		{10, 20, 0.95, 0.2993},
	}
	for _, c := range cases {
		if got := WilsonLower(c.k, c.n, c.conf); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("WilsonLower(%d, %d, %v) = %.4f, want %.4f", c.k, c.n, c.conf, got, c.want)
		}
	}
	// The design's calibration: 5/5 passes the default floor, 4/4 does not.
	if WilsonLower(5, 5, 0.80) < 0.75 || WilsonLower(4, 4, 0.80) >= 0.75 {
		t.Fatal("5/5 must pass and 4/4 must fail the 0.75 floor at 80%")
	}
	for _, bad := range [][3]float64{{1, 0, 0.8}, {2, 1, 0.8}, {1, 1, 1}, {1, 1, 0}} {
		if got := WilsonLower(int(bad[0]), int(bad[1]), bad[2]); got != 0 {
			t.Errorf("WilsonLower(%v) = %v, want 0 for invalid input", bad, got)
		}
	}
}

func TestDecide(t *testing.T) {
	cases := []struct {
		name   string
		policy func(*Policy)
		edit   func(*Evidence)
		want   Decision
		reason string // must appear in the decisive reason
		step   Action // must appear among the next steps
	}{
		{name: "clean fix", want: Merge, reason: "fail on the baseline and pass on the patch"},
		// A patch that changes no executable line (a row of a table):
		// coverage has nothing to measure, and only mutants that a test
		// kills on every changed data line judge it.
		{name: "data-only fix witnessed", edit: func(e *Evidence) {
			e.Coverage = &Coverage{Source: Computed, Vacuous: true}
		}, want: Merge, reason: "a killed mutant witnesses every changed data line"},
		{name: "data-only change unwitnessed", edit: func(e *Evidence) {
			e.Coverage = &Coverage{Source: Computed, Vacuous: true}
			e.Strength.Unwitnessed = []Line{{Path: "calc/table.go", Line: 9}}
		}, want: Inconclusive, reason: "nothing to measure", step: AddTest},
		{name: "no executable line and no mutant", edit: func(e *Evidence) {
			e.Coverage = &Coverage{Source: Computed, Vacuous: true}
			e.Strength = &Strength{Source: Computed}
		}, want: Inconclusive, reason: "no test kills a mutant"},
		{name: "no executable line, strength off", policy: func(p *Policy) { p.StrengthFloor = 0 }, edit: func(e *Evidence) {
			e.Coverage = &Coverage{Source: Computed, Vacuous: true}
			e.Strength = nil
		}, want: Inconclusive, reason: "not judged by mutants"},
		{name: "code deleted that no claim ran", edit: func(e *Evidence) {
			e.Coverage.Deleted = []Line{{Path: "calc/bound.go", Line: 6}}
		}, want: Inconclusive, reason: "deletes code no claim ran on the baseline", step: AddTest},
		{name: "vacuous but not computed", edit: func(e *Evidence) {
			e.Coverage = &Coverage{Source: Untrusted, Vacuous: true}
		}, want: Inconclusive, reason: "diff coverage was not measured"},
		{name: "refuted claim", edit: func(e *Evidence) {
			e.Claims[0] = Claim{ID: "go:./calc:TestDivide", Outcome: Refuted, Class: IncompleteFix, Why: "fails on both sides"}
		}, want: Block, reason: "refuted", step: FixCode},
		{name: "regression outranks missing evidence", edit: func(e *Evidence) {
			e.Collateral = &Collateral{PatchRan: true, BaselineRan: true, Regressions: []string{"calc.TestAdd"}}
			e.Coverage, e.Strength = nil, nil
		}, want: Block, reason: "breaks 1 test", step: FixCode},
		{name: "failed seal check", edit: func(e *Evidence) {
			e.Seals = []SealCheck{{Command: "make lint", Ran: true, Exit: 2, Cases: ptr(3)}}
		}, want: Block, reason: `seal check "make lint" failed`},
		{name: "seal check never run", edit: func(e *Evidence) {
			e.Seals = []SealCheck{{Command: "make lint"}}
		}, want: Inconclusive, reason: "never run"},
		{name: "empty green seal", edit: func(e *Evidence) {
			e.Seals = []SealCheck{{Command: "python -m unittest", Ran: true, Cases: ptr(0)}}
		}, want: Inconclusive, reason: "empty green"},
		{name: "seal with no count", edit: func(e *Evidence) {
			e.Seals = []SealCheck{{Command: "./check.sh", Ran: true}}
		}, want: Inconclusive, reason: "no case count"},
		{name: "no claims", edit: func(e *Evidence) { e.Claims = nil }, want: Inconclusive, reason: "no claims", step: AddTest},
		{name: "skipped claim", edit: func(e *Evidence) {
			e.Claims[0] = Claim{ID: "go:./calc:TestDivide", Outcome: Unverified, Class: Unrunnable, Why: "skip event"}
		}, want: Inconclusive, reason: "unverified", step: RaiseLimit},
		{name: "unknown outcome fails closed", edit: func(e *Evidence) { e.Claims[0].Outcome = "PASSED" }, want: Inconclusive, reason: "unverified"},
		{name: "verified claim with a contradictory class", edit: func(e *Evidence) { e.Claims[0].Class = Regression }, want: Inconclusive, reason: "contradictory"},
		{name: "suite never ran", edit: func(e *Evidence) { e.Collateral = nil }, want: Inconclusive, reason: "did not run"},
		{name: "suite empty green", edit: func(e *Evidence) { e.Collateral.PatchCases = ptr(0) }, want: Inconclusive, reason: "empty green"},
		{name: "suite without a count", edit: func(e *Evidence) { e.Collateral.PatchCases = nil }, want: Inconclusive, reason: "empty green"},
		{name: "suite red on both sides", edit: func(e *Evidence) {
			e.Collateral = &Collateral{PatchRan: true, BaselineRan: true}
		}, want: Inconclusive, reason: "red on both sides"},
		{name: "suite red on the patch only: a test it adds fails", edit: func(e *Evidence) {
			e.Collateral = &Collateral{PatchRan: true, BaselineRan: true, BaselineGreen: true, NewFailing: []string{"m/calc.TestNew"}}
		}, want: Inconclusive, reason: "1 test(s) the baseline does not have fail on the patch: m/calc.TestNew", step: FixCode},
		{name: "suite red on the patch only, no test named", edit: func(e *Evidence) {
			e.Collateral = &Collateral{PatchRan: true, BaselineRan: true, BaselineGreen: true}
		}, want: Inconclusive, reason: "names no failing test"},
		{name: "coverage not measured", edit: func(e *Evidence) { e.Coverage = nil }, want: Inconclusive, reason: "not measured"},
		{name: "coverage asserted by the caller", edit: func(e *Evidence) { e.Coverage.Source = Untrusted }, want: Inconclusive, reason: "untrusted"},
		{name: "coverage below floor", edit: func(e *Evidence) {
			e.Coverage = &Coverage{Source: Computed, Ratio: ptr(0.5), Uncovered: []Line{{"calc/calc.go", 14}}}
		}, want: Inconclusive, reason: "calc/calc.go:14", step: CoverLines},
		{name: "coverage NaN", edit: func(e *Evidence) { e.Coverage.Ratio = ptr(math.NaN()) }, want: Inconclusive, reason: "not a ratio"},
		{name: "coverage switched off explicitly", policy: func(p *Policy) { p.CoverageFloor = 0 }, edit: func(e *Evidence) { e.Coverage = nil }, want: Merge, reason: "not required (floor 0)"},
		{name: "strength not measured", edit: func(e *Evidence) { e.Strength = nil }, want: Inconclusive, reason: "strength was not measured"},
		{name: "strength 4 of 4", edit: func(e *Evidence) { e.Strength.Killed = 4 }, want: Inconclusive, reason: "below the floor", step: AddTest},
		{name: "too few mutants offered", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 3, Reason: "3 mutants: 3 killed; the change offers 3 distinct mutants; the floor needs at least 5"}
		}, want: Inconclusive, reason: "the change offers 3 distinct mutants; the floor needs at least 5", step: AddTest},
		{name: "strength with survivors", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 5, Survived: 2, Survivors: []Mutant{{Line{"calc/calc.go", 9}, "< → <="}}}
		}, want: Inconclusive, reason: "5 of 7", step: KillMutant},
		{name: "strength on a deleted file", edit: func(e *Evidence) { e.Strength.Unjudgeable = []string{"calc/old.go (deleted)"} }, want: Inconclusive, reason: "cannot judge calc/old.go"},
		{name: "no mutant ran", edit: func(e *Evidence) { e.Strength = &Strength{Source: Computed} }, want: Inconclusive, reason: "no mutant ran"},
		{name: "a changed data line no test notices", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 19, Survived: 1, Unwitnessed: []Line{{"calc/allow.txt", 3}}}
		}, want: Inconclusive, reason: "no test notices a change to calc/allow.txt:3", step: AddTest},
		{name: "an unwitnessed line when the cap left mutants out", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 18, Survived: 2, Unwitnessed: []Line{{"calc/calc.go", 64}}}
		}, want: Inconclusive, reason: "no test notices a change to calc/calc.go:64 (or, as not every mutant ran, none of its mutants or not its restore was selected: the strength record names the lines --mutation-max left out)", step: AddTest},
		{name: "an unwitnessed line when every mutant ran", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 18, Survived: 2, Complete: true, Unwitnessed: []Line{{"calc/calc.go", 64}}}
		}, want: Inconclusive, reason: "no test notices a change to calc/calc.go:64: a changed statement", step: AddTest},
		{name: "unwitnessed data with every counted mutant killed", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 20, Unwitnessed: []Line{{"calc/roles.go", 6}}}
		}, want: Inconclusive, reason: "no test notices a change to calc/roles.go:6"},
		{name: "a mutant no test can judge", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 5, Unjudged: []Mutant{{Line{"calc/mode.go", 7}, "< → <="}}}
		}, want: Inconclusive, reason: "no test that reaches calc/mode.go:7 < → <= passes in the mutant's reference run", step: AddTest},
		{name: "unwitnessed data without a strength floor", policy: func(p *Policy) { p.StrengthFloor = 0 }, edit: func(e *Evidence) {
			e.Strength.Unwitnessed = []Line{{"calc/roles.go", 6}}
		}, want: Merge},
		{name: "a red test the patch turns green while changing test support", edit: func(e *Evidence) {
			e.Collateral.SelfJudged, e.Collateral.Support = []string{"example.com/calc.TestMedianGolden"}, []string{"calc/golden/median.txt"}
		}, want: Inconclusive, reason: "pass on the patch, which changes the test support they may judge by (calc/golden/median.txt)", step: AddTest},
		{name: "too few mutants, all killed", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 2, Reason: "the change offers 2 distinct mutants; the floor needs at least 5: 2 mutants on the changed, covered lines: 2 killed"}
		}, want: Inconclusive, reason: "below the floor 0.750: the change offers 2 distinct mutants; the floor needs at least 5", step: AddTest},
		{name: "too few mutants, every one offered ran and was killed", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 2, Complete: true, Reason: "the change offers 2 distinct mutants; the floor needs at least 5: 2 mutants on the changed, covered lines: 2 killed"}
		}, want: Merge, reason: "all 2 mutants the change offers killed (too few for the lower bound, 0.549, to reach 0.750)"},
		{name: "every mutant offered ran, one survived", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 3, Survived: 1, Complete: true, Survivors: []Mutant{{Line{"calc/calc.go", 9}, "< → <="}}}
		}, want: Inconclusive, reason: "3 of 4", step: KillMutant},
		{name: "every mutant offered ran and was killed, a data line unwitnessed", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 2, Complete: true, Unwitnessed: []Line{{"calc/roles.go", 6}}}
		}, want: Inconclusive, reason: "no test notices a change to calc/roles.go:6"},
		{name: "too few mutants for --mutation-max", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 3, Reason: "--mutation-max 3 allows only 3 mutants; the floor needs at least 5: 3 mutants on the changed, covered lines: 3 killed"}
		}, want: Inconclusive, reason: "--mutation-max 3 allows only 3 mutants", step: RaiseLimit},
		{name: "--mutation-max named after the counts", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 2, Reason: "2 mutants on the changed, covered lines: 2 killed, 0 survived, 0 stillborn (left out of the ratio); --mutation-max 2 allows only 2 mutants; the floor needs at least 5"}
		}, want: Inconclusive, reason: "--mutation-max 2 allows only 2 mutants; the floor needs at least 5", step: RaiseLimit},
		{name: "one mutant offered, after equivalents", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Killed: 1, Reason: "1 mutants on the changed, covered lines: 1 killed; 2 equivalent (left out of the ratio); the change offers 1 distinct mutant; the floor needs at least 5"}
		}, want: Inconclusive, reason: "below the floor 0.750: the change offers 1 distinct mutant; the floor needs at least 5", step: AddTest},
		{name: "no mutant offered", edit: func(e *Evidence) {
			e.Strength = &Strength{Source: Computed, Reason: "no mutation site on the 2 changed, covered lines: the change offers 0 distinct mutants; the floor needs at least 5"}
		}, want: Inconclusive, reason: "the change offers 0 distinct mutants; the floor needs at least 5", step: AddTest},
		{name: "strength switched off explicitly", policy: func(p *Policy) { p.StrengthFloor = 0 }, edit: func(e *Evidence) { e.Strength = nil }, want: Merge, reason: "not required (floor 0)"},
		{name: "conflicting results", edit: func(e *Evidence) { e.Conflicts = []string{"claim-1-patch"} }, want: Inconclusive, reason: "conflicting"},
		{name: "refused record", edit: func(e *Evidence) { e.Refusals = []string{"bad_signature"} }, want: Inconclusive, reason: "refused"},
		{name: "missing at deadline", edit: func(e *Evidence) { e.Missing = []string{"job claim-1-baseline"} }, want: Inconclusive, reason: "missing at the deadline"},
		{name: "fallen worker", edit: func(e *Evidence) { e.Fallen = []string{"executor-2"} }, want: Inconclusive, reason: "fell silent"},
		{name: "a service failed on the run", edit: func(e *Evidence) { e.Failures = []string{"checkout could not handle criteria.sealed: panic"} }, want: Inconclusive, reason: "a service failed on this run: checkout could not handle"},
		{name: "harness drift", edit: func(e *Evidence) { e.HarnessDrift = []string{"go.mod"} }, want: Inconclusive, reason: "go.mod"},
		{name: "budget exhausted", edit: func(e *Evidence) { e.BudgetExhausted = true }, want: Inconclusive, reason: "budget", step: RaiseLimit},
		{name: "unjudgeable content", edit: func(e *Evidence) {
			e.Unjudgeable = []string{`the patch moves submodule "lib" from commit aa to bb`}
		}, want: Inconclusive, reason: `submodule "lib"`},
		{name: "unjudgeable content outranks a refuted claim", edit: func(e *Evidence) {
			e.Unjudgeable = []string{`the patch's tree holds "a\nb.go", which the gate does not write: control-character`}
			e.Claims[0] = Claim{ID: "go:./calc:TestDivide", Outcome: Refuted, Class: IncompleteFix, Why: "fails on both sides"}
		}, want: Inconclusive, reason: "what ran is not the patch"},
		{name: "the patch's code reaches into the test harness", edit: func(e *Evidence) {
			e.HarnessReach = []string{"calc/settle.go:18: ends the process (syscall.Exit) behind the testing package's back"}
		}, want: Inconclusive, reason: "reaches into the test harness", step: FixCode},
		{name: "foreign code in a Go file", edit: func(e *Evidence) {
			e.ForeignCode = []string{"calc/half.go:4: changes lines 4-6 of the cgo preamble"}
		}, want: Inconclusive, reason: "cgo preamble", step: FixCode},
		{name: "test edits ask a human but do not block", edit: func(e *Evidence) { e.TestEdits = []string{"calc/calc_test.go"} }, want: Merge, step: HumanReviewTestEdit},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, e := defaults(), clean()
			if tc.policy != nil {
				tc.policy(&p)
			}
			if tc.edit != nil {
				tc.edit(&e)
			}
			v := Decide(p, e)
			if v.Decision != tc.want {
				t.Fatalf("decision %s (%s), want %s", v.Decision, v.Reason, tc.want)
			}
			if !strings.HasPrefix(v.Reason, string(v.Decision)+": ") {
				t.Errorf("reason %q does not start with its decision", v.Reason)
			}
			if tc.reason != "" && !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("reason %q lacks %q", v.Reason, tc.reason)
			}
			if tc.step != "" && !hasStep(v.NextSteps, tc.step) {
				t.Errorf("next steps %v lack %s", v.NextSteps, tc.step)
			}
			if v.Decision == Merge && len(v.Reasons) != 0 {
				t.Errorf("MERGE with findings %v", v.Reasons)
			}
			if v.FixProven && len(v.ClaimsFixed) == 0 {
				t.Error("fix proven with no fixed claim")
			}
		})
	}
}

func TestFixProven(t *testing.T) {
	v := Decide(defaults(), clean())
	if !v.FixProven || len(v.ClaimsFixed) != 1 {
		t.Fatalf("clean fix: fix_proven %v, fixed %v", v.FixProven, v.ClaimsFixed)
	}
	e := clean()
	e.Claims[0].Class = NoRegression
	v = Decide(defaults(), e)
	if v.FixProven || v.Decision != Merge || !hasStep(v.NextSteps, AddTest) {
		t.Fatalf("claims passing on both sides: fix_proven %v, decision %s, steps %v", v.FixProven, v.Decision, v.NextSteps)
	}
	e = clean()
	e.Claims = append(e.Claims, Claim{ID: "go:./calc:TestZ", Outcome: Unverified, Class: Flaky})
	if v := Decide(defaults(), e); v.FixProven {
		t.Fatal("fix proven with an unverified claim")
	}
}

// TestNextStepsAreTheClosedSet checks that no verdict ever suggests an
// action outside the closed set.
func TestNextStepsAreTheClosedSet(t *testing.T) {
	allowed := map[Action]bool{FixCode: true, CoverLines: true, KillMutant: true, AddTest: true, HumanReviewTestEdit: true, RaiseLimit: true}
	e := Evidence{
		Claims:     []Claim{{ID: "a", Outcome: Refuted}, {ID: "b", Outcome: Unverified, Class: Hang}},
		Collateral: &Collateral{PatchRan: true, BaselineRan: true, Regressions: []string{"x.TestY"}},
		Coverage:   &Coverage{Source: Computed, Ratio: ptr(0.1), Uncovered: []Line{{"a.go", 1}}},
		Strength:   &Strength{Source: Computed, Killed: 1, Survived: 3, Survivors: []Mutant{{Line{"a.go", 1}, "x"}}},
		TestEdits:  []string{"a_test.go"}, BudgetExhausted: true,
	}
	v := Decide(defaults(), e)
	for _, s := range v.NextSteps {
		if !allowed[s.Action] {
			t.Errorf("next step %v is outside the closed set", s)
		}
	}
	if v.Decision != Block || len(v.Reasons) < 5 {
		t.Fatalf("decision %s with %d reasons", v.Decision, len(v.Reasons))
	}
}

func TestDeterministic(t *testing.T) {
	e := clean()
	e.Missing = []string{"b", "a", "a"}
	e.Claims = append(e.Claims, Claim{ID: "go:./a:TestA", Outcome: Unverified})
	first := Decide(defaults(), e)
	e.Missing = []string{"a", "b"}
	e.Claims[0], e.Claims[1] = e.Claims[1], e.Claims[0]
	second := Decide(defaults(), e)
	if strings.Join(first.Reasons, "|") != strings.Join(second.Reasons, "|") {
		t.Fatalf("input order changed the verdict:\n%v\n%v", first.Reasons, second.Reasons)
	}
}

func hasStep(steps []NextStep, a Action) bool {
	for _, s := range steps {
		if s.Action == a {
			return true
		}
	}
	return false
}
