// Package adjudication decides a run: MERGE, BLOCK or INCONCLUSIVE, by a
// pure function of the sealed criteria and the evidence the other services
// recorded (DESIGN.md §6).
//
// The order is fixed and the first match wins: direct evidence of breakage
// (BLOCK) outranks missing evidence (INCONCLUSIVE), which outranks approval.
// Nothing here turns "not measured" into "passed": every requirement is met
// only by a measurement, or switched off by an explicit floor of 0 in the
// sealed criteria.
package adjudication

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Decision of a run.
type Decision string

const (
	Merge        Decision = "MERGE"
	Block        Decision = "BLOCK"
	Inconclusive Decision = "INCONCLUSIVE"
)

// Outcome of one claim.
type Outcome string

const (
	Verified   Outcome = "VERIFIED"
	Refuted    Outcome = "REFUTED"
	Unverified Outcome = "UNVERIFIED"
)

// Class says how a claim behaved on the two sides (DESIGN.md §2).
type Class string

const (
	Fixed         Class = "fixed"          // fails on the baseline, passes on the patch
	NoRegression  Class = "no_regression"  // passes on both
	Discarded     Class = "discarded"      // a new test that passes: proves nothing about a fix
	Regression    Class = "regression"     // passes on the baseline, fails on the patch
	NewBug        Class = "new_bug"        // a new test that fails on the patch
	IncompleteFix Class = "incomplete_fix" // fails on both
	Hang          Class = "hang"           // the patch side hangs where the baseline did not
	Flaky         Class = "flaky"          // a side whose results vary
	Unrunnable    Class = "unrunnable"     // no verdict from the harness: skip, build failure, death
	Invalid       Class = "invalid"        // the claim names nothing that can run
	NotExecuted   Class = "not_executed"   // never run (deferred behind failing baseline tests, drift)
	Repinned      Class = "repinned"       // the patch edits the test: its baseline's version fails on the patch, its own passes
)

// Claim is the evidence about one claimed test.
type Claim struct {
	ID      string
	Outcome Outcome
	Class   Class
	// Why names the evidence: exit codes, events, the side.
	Why string
}

// Source says where a measurement came from.
type Source string

const (
	Computed  Source = "computed"
	Untrusted Source = "untrusted"
	None      Source = "none"
)

// Line is a changed source line.
type Line struct {
	Path string
	Line int
}

func (l Line) String() string { return fmt.Sprintf("%s:%d", l.Path, l.Line) }

// Coverage is the diff coverage of the changed executable lines.
type Coverage struct {
	Source Source
	// Ratio is nil when not measured, or when Vacuous.
	Ratio *float64
	// Vacuous: computed, and the patch changes no executable source line,
	// so there is nothing to cover. What it changes may still be
	// behaviour coverage cannot see (package-level data): the measurement
	// counts only when a killed mutant witnesses every changed data line.
	Vacuous   bool
	Uncovered []Line
	// Lost are lines of modified files the claims ran on the baseline that
	// the patch keeps unchanged and no test runs on the patch.
	Lost []Line
	// Deleted are baseline lines of code the patch deletes outright that
	// no claim ran on the baseline: a deletion nothing judges.
	Deleted []Line
	Reason  string
}

// Mutant is a surviving mutant worth naming.
type Mutant struct {
	At       Line
	Mutation string
}

// Strength is the mutation measurement of the changed, covered lines.
type Strength struct {
	Source Source
	// Killed and Survived count the mutants that ran; stillborn ones are
	// outside both.
	Killed, Survived int
	Survivors        []Mutant
	// Unjudgeable names changed source the mutator cannot judge (another
	// language, deleted files): strength is then unverified.
	Unjudgeable []string
	// Unwitnessed are changed data lines (package-level initializers,
	// lines of embedded files) no killed mutant witnesses, and changed
	// statements of code no mutant of which was killed: no test notices
	// a change to them. Strength is then unverified.
	Unwitnessed []Line
	// Unjudged are mutants no test could judge: every test that reaches
	// one fails in its reference run. Strength is then unverified.
	Unjudged []Mutant
	// Complete: every distinct mutant the changed lines offer ran (none
	// stillborn, none left out by --mutation-max): Killed and Survived
	// are the whole population, not a sample of it.
	Complete bool
	Reason   string
}

// Collateral is the full suite: run on the patch, and on the baseline when
// the patch side fails.
type Collateral struct {
	PatchRan bool
	// PatchGreen: the suite exited 0 on the patch.
	PatchGreen bool
	// PatchCases is the number of tests the runner reported; nil when it
	// reported no count.
	PatchCases  *int
	BaselineRan bool
	// BaselineGreen: every suite that ran on the baseline exited 0.
	BaselineGreen bool
	// NewFailing are tests that fail on the patch and that the baseline's
	// run does not name at all (tests the patch adds).
	NewFailing []string
	// Regressions are tests that passed on the baseline and fail on the
	// patch.
	Regressions []string
	// Stopped are tests that passed on the baseline and were stopped by a
	// resource limit on the patch (Python's MemoryError under the address
	// space limit): no evidence either way.
	Stopped []string
	// Flaky are tests that passed on the baseline, failed on the patch,
	// and passed there when run again alone: no regression proven, and
	// no pass.
	Flaky []string
	// Missing are tests that passed on the baseline and have no result on
	// the patch but a failure: skipped, not run, absent, unfinished.
	Missing []string
	// Repinned are tests that passed on the baseline and fail on the patch
	// where the patch edits the test (or a helper it calls): the patch
	// changes what the test pins, which only a human can judge.
	Repinned []string
	// SelfJudged are tests that fail on the baseline and pass on the
	// patch, unclaimed, while the patch changes the test support Support
	// (helpers only tests use, golden files, fixtures): their pass may
	// rest on an oracle the patch wrote.
	SelfJudged, Support []string
	Why                 string
}

// Written is the patch's own tree run as it wrote it, its test files
// included, and vetted as go test vets (the written jobs). The oracle
// judges by the baseline's test files; this only ever lowers a verdict.
type Written struct {
	// Packages are the packages run.
	Packages []string
	// Failing are tests that fail with the patch's test files and do not
	// fail in the patch-side suite, which ran the baseline's.
	Failing []string
	// Unrun are packages whose run gave no result per test: why.
	Unrun []string
}

// SealCheck is one command of the sealed plan.
type SealCheck struct {
	Command string
	Ran     bool
	Exit    int
	// Cases reported (JUnit, or the runner's own count); nil when none.
	Cases *int
}

// Evidence is everything the run's records established, gathered by the
// caller. Absent evidence is absent: a nil Coverage or Strength was not
// measured.
type Evidence struct {
	Claims     []Claim
	Collateral *Collateral
	// Written is nil when no written job was planned (a patch that
	// changes no Go file and puts back no test file).
	Written  *Written
	Coverage *Coverage
	Strength *Strength
	Seals    []SealCheck
	// Conflicts: different results for one consumed token.
	Conflicts []string
	// Refusals: records the ledger refused during the run.
	Refusals []string
	// Missing: evidence still absent at the deadline (job ids, kinds).
	Missing []string
	// Fallen: workers that died or never answered.
	Fallen []string
	// Failures: services that could not do their part of the run
	// (run.failed), what failed and why.
	Failures []string
	// HarnessDrift: harness paths differing from the baseline.
	HarnessDrift []string
	// TestEdits: baseline test files the patch changed (put back by the
	// oracle; a human should look at why).
	TestEdits []string
	// BudgetExhausted: the budget ran out before the plan completed.
	BudgetExhausted bool
	// Dependencies: module dependencies that could not be put where the
	// sandbox reads them (its jobs could not build).
	Dependencies []string
	// Probes: places the patch's non-test source newly probes where it runs
	// (testing.Testing(), /proc, the gate's variables, the host name…),
	// "file:line: what".
	Probes []string
	// Overfitting: changed conditions or returned values built from the
	// claim tests' own literals, "file:line: what".
	Overfitting []string
	// HarnessReach: places the patch's code (test or not) reaches into the
	// test binary around the code it tests (ends the process behind the
	// testing package's back, forges the transcript, reads the binary's
	// coverage counters, arguments or flags; a test file changing what the
	// non-test code does), "file:line: what".
	HarnessReach []string
	// ForeignCode: changed lines of Go files that are another language's
	// code the gate neither measures nor mutates (cgo preambles),
	// "file:line: what".
	ForeignCode []string
	// Harness: the patch's test files that control their package's test
	// harness (TestMain, init, code run at package initialization), each
	// saying what and how the judged runs did without it: the rule fired,
	// which every verdict records. Not a gap by itself.
	Harness []string
	// BaselineReach: such harness that uses what the baseline's test files
	// declare (their tables, helpers), "file:line: what": the tests the
	// patch would merge are not the ones that judged it.
	BaselineReach []string
	// SupportWrites: production code the patch changes that writes what
	// only tests read (an assertion helper's tolerance), "file:line:
	// what": the tests' judge changes where no counterfactual can put it
	// back.
	SupportWrites []string
	// Unjudgeable: content of the patch (or the baseline) the gate did not
	// materialize, each saying what and where. What ran is not the patch, so nothing
	// measured decides: the verdict is INCONCLUSIVE naming these, even
	// where a claim failed or a test broke.
	Unjudgeable []string
}

// Policy is the part of the sealed criteria the decision reads.
type Policy struct {
	CoverageFloor      float64
	StrengthFloor      float64
	StrengthConfidence float64
}

// Action is one of the closed set of next steps. Nothing outside it is ever
// suggested: never "edit the test", "lower the floor" or "change the
// harness".
type Action string

const (
	FixCode             Action = "fix_code"
	CoverLines          Action = "cover_lines"
	KillMutant          Action = "kill_mutant"
	AddTest             Action = "add_test"
	HumanReviewTestEdit Action = "human_review_test_edit"
	RaiseLimit          Action = "raise_limit"
)

// NextStep is something the submitter can do.
type NextStep struct {
	Action Action
	Target string
}

// Verdict is the decision with its reasons.
type Verdict struct {
	Decision Decision
	// Reason is the decisive reason, in words that agree with Decision.
	Reason string
	// Reasons lists every finding, decisive first, in decision order.
	Reasons     []string
	ClaimsFixed []string
	// FixProven: some claim fails on the baseline and passes on the patch,
	// and no claim is refuted or unverified. It speaks of the claims only:
	// a proven fix can still be blocked for what else the patch breaks.
	FixProven bool
	NextSteps []NextStep
	// WilsonLower is the strength lower bound recomputed here; nil when
	// strength was not measured.
	WilsonLower *float64
}

// Decide is the decision function. It is pure: the same policy and evidence
// always give the same verdict.
func Decide(p Policy, e Evidence) Verdict {
	var blocks, gaps []string
	var steps []NextStep
	step := func(a Action, target string) { steps = append(steps, NextStep{Action: a, Target: target}) }

	// A service that failed on the run comes first: what else is missing
	// follows from it.
	for _, f := range sorted(e.Failures) {
		gaps = append(gaps, "a service failed on this run: "+f)
	}

	// Claims.
	var fixed []string
	unsettled := false
	for _, c := range sortedClaims(e.Claims) {
		switch c.Outcome {
		case Refuted:
			blocks = append(blocks, fmt.Sprintf("claim %s is refuted (%s): %s", c.ID, c.Class, c.Why))
			step(FixCode, c.ID)
			unsettled = true
		case Verified:
			switch c.Class {
			case Fixed:
				fixed = append(fixed, c.ID)
			case NoRegression, Discarded:
			default:
				// A verified claim can only have behaved in these ways;
				// anything else is contradictory evidence.
				gaps = append(gaps, fmt.Sprintf("claim %s is verified but classed %q: contradictory evidence", c.ID, c.Class))
				unsettled = true
			}
		default:
			gaps = append(gaps, fmt.Sprintf("claim %s is unverified (%s): %s", c.ID, orNotExecuted(c.Class), c.Why))
			unsettled = true
			switch c.Class {
			case Hang, Unrunnable:
				step(RaiseLimit, c.ID)
			case Repinned:
				step(HumanReviewTestEdit, c.ID)
			}
		}
	}
	if len(e.Claims) == 0 {
		gaps = append(gaps, "no claims: nothing shows the patch fixes anything")
		step(AddTest, "")
	} else if len(fixed) == 0 && !unsettled {
		// Every claim passes on both sides or is new: nothing was shown to
		// be fixed. That is not a failure, but it is no proof of a fix.
		step(AddTest, "")
	}

	// Collateral damage.
	switch c := e.Collateral; {
	case c == nil || !c.PatchRan:
		gaps = append(gaps, "the full suite did not run on the patch")
	case len(c.Regressions) > 0:
		regs := slices.Sorted(slices.Values(c.Regressions))
		blocks = append(blocks, fmt.Sprintf("the patch breaks %d test(s) that pass on the baseline: %s", len(regs), clip(regs)))
		for _, r := range regs {
			step(FixCode, r)
		}
	case !c.BaselineRan:
		gaps = append(gaps, "the full suite never ran on the baseline: nothing shows which tests the patch must keep passing")
	case len(c.Repinned) > 0:
		re := slices.Sorted(slices.Values(c.Repinned))
		gaps = append(gaps, fmt.Sprintf("%d test(s) that pass on the baseline fail on the patch, and the patch edits them or the helpers they call: it changes what they pin, for a human to judge: %s", len(re), clip(re)))
		for _, t := range re {
			step(HumanReviewTestEdit, t)
		}
	case len(c.Stopped) > 0:
		stopped := slices.Sorted(slices.Values(c.Stopped))
		gaps = append(gaps, fmt.Sprintf("%d test(s) that pass on the baseline were stopped by a resource limit on the patch: %s", len(stopped), clip(stopped)))
		step(RaiseLimit, stopped[0])
	case len(c.Flaky) > 0:
		flaky := slices.Sorted(slices.Values(c.Flaky))
		gaps = append(gaps, fmt.Sprintf("%d test(s) that pass on the baseline failed on the patch and passed when run again alone: flaky, neither a regression nor a pass: %s", len(flaky), clip(flaky)))
		step(RaiseLimit, flaky[0])
	case len(c.Missing) > 0:
		missing := slices.Sorted(slices.Values(c.Missing))
		gaps = append(gaps, fmt.Sprintf("%d test(s) that pass on the baseline did not pass on the patch, nor fail: skipped, missing or not run: %s", len(missing), clip(missing)))
	case !c.PatchGreen && c.BaselineRan && !c.BaselineGreen:
		gaps = append(gaps, "the full suite is red on both sides with no test that passes on the baseline and fails on the patch")
	case !c.PatchGreen && c.BaselineRan && len(c.NewFailing) > 0:
		gaps = append(gaps, fmt.Sprintf("the full suite is red on the patch and green on the baseline: %d test(s) the baseline does not have fail on the patch: %s", len(c.NewFailing), clip(c.NewFailing)))
		for _, t := range c.NewFailing {
			step(FixCode, t)
		}
	case !c.PatchGreen && c.BaselineRan:
		gaps = append(gaps, "the full suite is red on the patch and green on the baseline, and names no failing test: a run failed outside its tests")
	case !c.PatchGreen:
		gaps = append(gaps, "the full suite is red on the patch and the baseline run that would tell why is missing")
	case c.PatchCases == nil || *c.PatchCases <= 0:
		gaps = append(gaps, "the full suite exited 0 having run no test (empty green)")
	}

	// The patch never writes its own oracle: a test it turns green while
	// changing what tests judge by is no evidence until a claim re-runs it
	// without that.
	if c := e.Collateral; c != nil && len(c.SelfJudged) > 0 {
		gaps = append(gaps, fmt.Sprintf("%d test(s) that fail on the baseline pass on the patch, which changes the test support they may judge by (%s): their pass may rest on an oracle the patch wrote; claim them, so that the gate re-runs them with the baseline's version: %s",
			len(c.SelfJudged), clip(c.Support), clip(c.SelfJudged)))
		for _, t := range c.SelfJudged {
			step(AddTest, t)
		}
	}

	// The patch's own test files, as it wrote them: a merge lands them,
	// and a repository whose own tests fail after the merge is no fix.
	if w := e.Written; w != nil {
		for _, u := range w.Unrun {
			gaps = append(gaps, "the patch's tree, as the patch wrote it, gave no result: "+u)
		}
		if len(w.Failing) > 0 {
			gaps = append(gaps, fmt.Sprintf("%d test(s) fail on the patch's tree as the patch wrote it, its own test files included, and not in the suite, which runs the baseline's: the patch's own go test is red: %s", len(w.Failing), clip(w.Failing)))
			for _, t := range w.Failing {
				step(FixCode, t)
			}
		}
	}

	// Seal plan: matched by command identity, never by count.
	for _, s := range e.Seals {
		switch {
		case !s.Ran:
			gaps = append(gaps, fmt.Sprintf("seal check %q was never run", s.Command))
		case s.Exit != 0:
			blocks = append(blocks, fmt.Sprintf("seal check %q failed with exit %d", s.Command, s.Exit))
			step(FixCode, s.Command)
		case s.Cases == nil:
			gaps = append(gaps, fmt.Sprintf("seal check %q reported no case count", s.Command))
		case *s.Cases <= 0:
			gaps = append(gaps, fmt.Sprintf("seal check %q exited 0 having run no case (empty green)", s.Command))
		}
	}

	// Integrity of the run itself.
	for _, c := range sorted(e.Conflicts) {
		gaps = append(gaps, "conflicting results for one job: "+c)
	}
	for _, r := range sorted(e.Refusals) {
		gaps = append(gaps, "the ledger refused a record of this run: "+r)
	}
	missingAt := "evidence missing at the deadline: "
	if len(e.Failures) > 0 {
		missingAt = "evidence missing, as a service failed on this run: "
	}
	for _, m := range sorted(e.Missing) {
		gaps = append(gaps, missingAt+m)
	}
	for _, f := range sorted(e.Fallen) {
		gaps = append(gaps, "a worker fell silent: "+f)
	}
	if len(e.Probes) > 0 {
		gaps = append(gaps, fmt.Sprintf("the patch's source probes where it runs, so what its tests see may not be what runs elsewhere: %s", clip(sorted(e.Probes))))
		step(FixCode, sorted(e.Probes)[0])
	}
	if len(e.Overfitting) > 0 {
		gaps = append(gaps, fmt.Sprintf("the patch special-cases the test's inputs: %s", clip(sorted(e.Overfitting))))
		step(FixCode, sorted(e.Overfitting)[0])
	}
	if len(e.HarnessReach) > 0 {
		gaps = append(gaps, fmt.Sprintf("the patch's code reaches into the test harness, so what its tests report may not be what its code does: %s", clip(sorted(e.HarnessReach))))
		step(FixCode, sorted(e.HarnessReach)[0])
	}
	if len(e.ForeignCode) > 0 {
		gaps = append(gaps, fmt.Sprintf("the patch changes code the gate cannot judge (neither measured nor mutated): %s", clip(sorted(e.ForeignCode))))
		step(FixCode, sorted(e.ForeignCode)[0])
	}
	if len(e.SupportWrites) > 0 {
		w := sorted(e.SupportWrites)
		gaps = append(gaps, fmt.Sprintf("the patch's production code writes what only its tests read, so it changes their judge: %s", clip(w)))
		step(FixCode, w[0])
	}
	if len(e.BaselineReach) > 0 {
		reach := sorted(e.BaselineReach)
		gaps = append(gaps, fmt.Sprintf("the patch's test harness reaches into the baseline's tests, so the tests it would merge are not the ones that judged it: %s", clip(reach)))
		step(HumanReviewTestEdit, reach[0])
	}
	for _, d := range sorted(e.Dependencies) {
		gaps = append(gaps, "the module dependencies could not be downloaded: "+d)
	}
	if e.BudgetExhausted {
		gaps = append(gaps, "the budget ran out before the plan completed")
		step(RaiseLimit, "budget")
	}
	if len(e.HarnessDrift) > 0 {
		gaps = append(gaps, fmt.Sprintf("the patch changes the harness (%s): its tests ran under a harness it chose, which can show that it fails, never that it passes", clip(sorted(e.HarnessDrift))))
	}
	for _, t := range sorted(e.TestEdits) {
		step(HumanReviewTestEdit, t)
	}

	// Diff coverage.
	if p.CoverageFloor > 0 {
		switch c := e.Coverage; {
		case c != nil && c.Vacuous && c.Source == Computed && c.Ratio == nil:
			if why := unwitnessedChange(e.Strength); why != "" {
				gaps = append(gaps, "diff coverage has nothing to measure: the patch changes no executable source line, and "+why)
				step(AddTest, "")
			}
		case c == nil || c.Ratio == nil || c.Source == None || c.Source == "":
			gaps = append(gaps, "diff coverage was not measured"+because(c))
		case c.Source != Computed:
			gaps = append(gaps, fmt.Sprintf("diff coverage %.3f is %s, not measured by the gate", *c.Ratio, c.Source))
		case math.IsNaN(*c.Ratio) || *c.Ratio < 0 || *c.Ratio > 1:
			gaps = append(gaps, fmt.Sprintf("diff coverage %v is not a ratio", *c.Ratio))
		case *c.Ratio < p.CoverageFloor:
			lines := make([]string, len(c.Uncovered))
			for i, l := range c.Uncovered {
				lines[i] = l.String()
			}
			gaps = append(gaps, fmt.Sprintf("diff coverage %.3f is below the floor %.3f; uncovered: %s", *c.Ratio, p.CoverageFloor, clip(lines)))
			for _, l := range c.Uncovered {
				step(CoverLines, l.String())
			}
		}
	}

	// Code the patch keeps but routes around: whatever the floors, a
	// patch that leaves the old path in place, unrun, is not judged whole.
	if c := e.Coverage; c != nil && len(c.Lost) > 0 {
		lines := make([]string, len(c.Lost))
		for i, l := range c.Lost {
			lines[i] = l.String()
		}
		gaps = append(gaps, fmt.Sprintf("the patch routes around code it kept: the claims (without claims, the tests of the measured packages) ran these lines on the baseline, the patch keeps them unchanged, and no test runs them on the patch: %s", clip(lines)))
		step(CoverLines, lines[0])
	}
	// Code the patch deletes outright, which no claim ran: no patch-side
	// line carries the deletion to coverage or to a mutant (a guard
	// deleted from a function the claims never call).
	if c := e.Coverage; c != nil && len(c.Deleted) > 0 {
		lines := make([]string, len(c.Deleted))
		for i, l := range c.Deleted {
			lines[i] = l.String()
		}
		gaps = append(gaps, fmt.Sprintf("the patch deletes code no claim ran on the baseline, so nothing judges the deletion (baseline lines): %s", clip(lines)))
		step(AddTest, lines[0])
	}

	// Suite strength.
	var lower *float64
	if s := e.Strength; s != nil && s.Source == Computed && len(s.Unjudgeable) == 0 && s.Killed+s.Survived > 0 {
		lb := WilsonLower(s.Killed, s.Killed+s.Survived, p.StrengthConfidence)
		lower = &lb
	}
	if s := e.Strength; p.StrengthFloor > 0 && s != nil && s.Source == Computed && len(s.Unjudgeable) == 0 && s.Killed+s.Survived > 0 {
		// Changed data is judged only when a test notices a change to
		// it: the data analogue of coverage, whatever the ratio says.
		if len(s.Unwitnessed) > 0 {
			lines := make([]string, len(s.Unwitnessed))
			for i, l := range s.Unwitnessed {
				lines[i] = l.String()
			}
			// Not every mutant ran (stillborn, or left out by
			// --mutation-max): a line may have had none selected, which
			// is no sign its tests miss a change. The strength record
			// says which.
			capped := ""
			if !s.Complete {
				capped = " (or, as not every mutant ran, none of its mutants or not its restore was selected: the strength record names the lines --mutation-max left out)"
			}
			gaps = append(gaps, fmt.Sprintf("suite strength is unverified: no test notices a change to %s%s: a changed statement counts as judged only when the tests fail on a mutant of it (and, where the patch replaced code there, on its restore), a changed data line only when they fail on every change to it that ran", clip(lines), capped))
			for _, l := range lines {
				step(AddTest, l)
			}
		}
		// A mutant no test can judge is no evidence either way, and it
		// is not left out for free.
		if len(s.Unjudged) > 0 {
			ms := make([]string, len(s.Unjudged))
			for i, m := range s.Unjudged {
				ms[i] = fmt.Sprintf("%s %s", m.At, m.Mutation)
			}
			gaps = append(gaps, fmt.Sprintf("suite strength is unverified: no test that reaches %s passes in the mutant's reference run (the unmutated code under the gate's switch), so none can judge it", clip(ms)))
			step(AddTest, s.Unjudged[0].At.String())
		}
	}
	if p.StrengthFloor > 0 {
		switch s := e.Strength; {
		case s != nil && len(s.Unjudgeable) > 0:
			// Named first: whatever else was measured, these changes
			// were never judged.
			gaps = append(gaps, fmt.Sprintf("suite strength is unverified: the mutator cannot judge %s", clip(sorted(s.Unjudgeable))))
		case s == nil || s.Source == None || s.Source == "":
			gaps = append(gaps, "suite strength was not measured"+strengthBecause(s))
		case s.Source != Computed:
			gaps = append(gaps, fmt.Sprintf("suite strength is %s, not measured by the gate", s.Source))
		case s.Killed+s.Survived == 0:
			gaps = append(gaps, "suite strength is unverified: no mutant ran"+strengthBecause(s))
			if few := tooFewMutants(s); few != "" {
				step(AddTest, few)
			}
		case *lower < p.StrengthFloor && s.Complete && s.Survived == 0:
			// Every mutant the change offers ran and every one was
			// killed: the Wilson bound estimates a kill rate from a
			// sample, and here there is no sample to doubt — a change
			// too small to offer the floor's count is not for that
			// unjudged (every changed statement, value and gap was
			// judged above, each by a killed mutant of its own).
		case *lower < p.StrengthFloor:
			few := tooFewMutants(s)
			gap := fmt.Sprintf("suite strength: %d of %d mutants killed, Wilson lower bound %.3f at %.0f%% confidence is below the floor %.3f",
				s.Killed, s.Killed+s.Survived, *lower, 100*p.StrengthConfidence, p.StrengthFloor)
			switch {
			case few != "":
				gap += ": " + few
			case s.Survived == 0:
				// Every mutant was killed, yet too few ran to meet the
				// floor: the mutator says why, and only more tested code
				// can raise the bound.
				gap += strengthBecause(s)
				step(AddTest, "")
			}
			gaps = append(gaps, gap)
			for _, m := range s.Survivors {
				step(KillMutant, fmt.Sprintf("%s %s", m.At, m.Mutation))
			}
			switch {
			case strings.HasPrefix(few, "--mutation-max"):
				step(RaiseLimit, "mutation_max")
			case few != "" && len(s.Survivors) == 0:
				// Every mutant the change offers is killed and still too
				// few: more of the change must be reached by tests for
				// the gate to judge it.
				step(AddTest, few)
			}
		}
	}

	// Rules that fired without deciding: recorded after the findings
	// (and, in a MERGE, in its reason).
	var notes []string
	if len(e.Harness) > 0 {
		notes = append(notes, harnessNote(e.Harness))
	}

	v := Verdict{ClaimsFixed: fixed, WilsonLower: lower, NextSteps: dedupe(steps)}
	v.FixProven = len(fixed) > 0 && !unsettled
	v.Reasons = append(append([]string{}, blocks...), gaps...)
	if len(v.Reasons) > 0 {
		v.Reasons = append(v.Reasons, notes...)
	}
	switch {
	case len(e.Unjudgeable) > 0:
		// Evidence from trees that are not the patch's proves nothing
		// about the patch, for or against it.
		u := fmt.Sprintf("the patch holds content the gate cannot materialize, so what ran is not the patch: %s", clip(sorted(e.Unjudgeable)))
		v.Decision = Inconclusive
		v.Reason = "INCONCLUSIVE: " + u
		v.Reasons = append([]string{u}, v.Reasons...)
		v.FixProven = false
	case len(blocks) > 0:
		v.Decision = Block
		v.Reason = "BLOCK: " + blocks[0]
	case len(gaps) > 0:
		v.Decision = Inconclusive
		v.Reason = "INCONCLUSIVE: " + gaps[0]
	default:
		v.Decision = Merge
		v.Reason = mergeReason(p, e, fixed, lower)
		for _, n := range notes {
			v.Reason += "; " + n
		}
	}
	return v
}

// harnessNote says which test files of the patch control the harness and
// that the judged runs did without them.
func harnessNote(harness []string) string {
	return fmt.Sprintf("the patch's test harness was left out of every judged run (the claims and the suite ran without it): %s", clip(sorted(harness)))
}

func mergeReason(p Policy, e Evidence, fixed []string, lower *float64) string {
	var parts []string
	if len(fixed) > 0 {
		parts = append(parts, fmt.Sprintf("%d claim(s) fail on the baseline and pass on the patch", len(fixed)))
	} else {
		parts = append(parts, fmt.Sprintf("all %d claim(s) pass", len(e.Claims)))
	}
	parts = append(parts, fmt.Sprintf("the full suite passes on the patch (%d tests)", *e.Collateral.PatchCases))
	switch {
	case p.CoverageFloor > 0 && e.Coverage.Ratio == nil:
		parts = append(parts, "no executable source line changed: a killed mutant witnesses every changed data line")
	case p.CoverageFloor > 0:
		parts = append(parts, fmt.Sprintf("diff coverage %.3f meets %.3f", *e.Coverage.Ratio, p.CoverageFloor))
	default:
		parts = append(parts, "diff coverage not required (floor 0)")
	}
	switch {
	case p.StrengthFloor > 0 && *lower < p.StrengthFloor:
		// Complete, every mutant killed (see the strength gaps): the
		// bound does not meet the floor, and the message says so.
		s := e.Strength
		parts = append(parts, fmt.Sprintf("all %d mutants the change offers killed (too few for the lower bound, %.3f, to reach %.3f)", s.Killed, *lower, p.StrengthFloor))
	case p.StrengthFloor > 0:
		parts = append(parts, fmt.Sprintf("strength lower bound %.3f meets %.3f", *lower, p.StrengthFloor))
	default:
		parts = append(parts, "suite strength not required (floor 0)")
	}
	return "MERGE: " + strings.Join(parts, "; ")
}

// unwitnessedChange says why a patch that changes no executable line is
// not judged by its strength measurement, or "" when it is: mutants were
// measured by the gate, every one judgeable, at least one killed, and every
// changed data line witnessed by a kill. A patch of comments, types or
// signatures alone offers no mutant, and so is never judged this way.
func unwitnessedChange(s *Strength) string {
	switch {
	case s == nil || s.Source != Computed:
		return "its changes were not judged by mutants (suite strength not measured)"
	case len(s.Unjudgeable) > 0:
		return "the mutator cannot judge " + clip(sorted(s.Unjudgeable))
	case s.Killed == 0:
		return "no test kills a mutant of what it changes"
	case len(s.Unwitnessed) > 0 || len(s.Unjudged) > 0:
		return "not every changed data line is witnessed by a killed mutant"
	}
	return ""
}

// WilsonLower is the lower bound of the two-sided Wilson score interval for
// k successes in n trials at the given confidence (e.g. 0.80). n must be
// positive.
func WilsonLower(k, n int, confidence float64) float64 {
	if n <= 0 || k < 0 || k > n || !(confidence > 0 && confidence < 1) {
		return 0
	}
	z := math.Sqrt2 * math.Erfinv(confidence)
	nf := float64(n)
	phat := float64(k) / nf
	z2 := z * z
	centre := phat + z2/(2*nf)
	margin := z * math.Sqrt(phat*(1-phat)/nf+z2/(4*nf*nf))
	return math.Max(0, (centre-margin)/(1+z2/nf))
}

func sortedClaims(cs []Claim) []Claim {
	out := slices.Clone(cs)
	slices.SortFunc(out, func(a, b Claim) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

func dedupe(steps []NextStep) []NextStep {
	seen := map[NextStep]bool{}
	var out []NextStep
	for _, s := range steps {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func orNotExecuted(c Class) Class {
	if c == "" {
		return NotExecuted
	}
	return c
}

func because(c *Coverage) string {
	if c == nil || c.Reason == "" {
		return ""
	}
	return " (" + c.Reason + ")"
}

// tooFewMutants returns the mutation service's sentence saying the change
// offers fewer distinct mutants than the floor needs (or that
// --mutation-max allows fewer), which starts its reason, or "".
func tooFewMutants(s *Strength) string {
	r := s.Reason
	start := -1
	for _, marker := range []string{"the change offers ", "--mutation-max "} {
		for _, lead := range []string{"", ": ", "; "} {
			if lead == "" {
				if strings.HasPrefix(r, marker) {
					start = 0
				}
			} else if i := strings.Index(r, lead+marker); i >= 0 && (start < 0 || i+len(lead) < start) {
				start = i + len(lead)
			}
		}
	}
	if start < 0 {
		return ""
	}
	// The sentence is two clauses joined by "; ": the count, then what
	// the floor needs. It ends where the next clause of the reason starts.
	r = r[start:]
	first, rest, ok := strings.Cut(r, "; ")
	if !ok {
		return ""
	}
	end := len(rest)
	for _, stop := range []string{"; ", ": ", " ("} {
		if i := strings.Index(rest, stop); i >= 0 && i < end {
			end = i
		}
	}
	return first + "; " + strings.TrimSuffix(rest[:end], ")")
}

func strengthBecause(s *Strength) string {
	if s == nil || s.Reason == "" {
		return ""
	}
	return " (" + s.Reason + ")"
}

// clip joins at most five items for a reason line.
func clip(items []string) string {
	const most = 5
	if len(items) <= most {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:most], ", ") + fmt.Sprintf(" and %d more", len(items)-most)
}
