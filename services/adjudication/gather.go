package adjudication

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// Run is what a run's records say, read once: the input of the decision and
// of the artefact. Build it with Read.
type Run struct {
	ID      string
	Sealed  *criteria.Sealed
	Request *pb.RunRequested
	Trees   *pb.TreesMaterialized
	// Planned and Done hold every job by id; Results its raw result.
	Planned  map[string]*jobs.Spec
	Done     map[string]*jobs.Done
	Results  map[string]*pb.JobResult
	Coverage *pb.CoverageMeasured
	Strength *pb.StrengthMeasured
	// Refusals are the refusals of records of this run, one line each.
	Refusals []string
	// RefusedJobs are jobs whose result the ledger refused: they will never
	// be answered, so nothing waits for them.
	RefusedJobs map[string]bool
	// Problems are records that could not be read (bad spec or detail).
	Problems []string
	// Failures are the services that could not do their part of the run
	// (run.failed), one line each: the run is decided without waiting.
	Failures []string
	// Evidence lists the digests of the records read, in ledger order.
	Evidence []string
}

// Read folds a run's records, in ledger order, into a Run. Records of other
// runs are ignored; a verdict already reached stops nothing here.
func Read(runID string, recs []*record.Decoded) *Run {
	r := &Run{ID: runID, Planned: map[string]*jobs.Spec{}, Done: map[string]*jobs.Done{}, Results: map[string]*pb.JobResult{}, RefusedJobs: map[string]bool{}}
	for _, rec := range recs {
		if rec.Record.GetRunId() != runID {
			continue
		}
		switch body := rec.Record.Body.(type) {
		case *pb.Record_RunRequested:
			r.Request = body.RunRequested
		case *pb.Record_CriteriaSealed:
			s, err := criteria.Parse(body.CriteriaSealed.CanonicalCriteria)
			if err != nil {
				r.Problems = append(r.Problems, fmt.Sprintf("criteria: %v", err))
				continue
			}
			r.Sealed = s
		case *pb.Record_TreesMaterialized:
			r.Trees = body.TreesMaterialized
		case *pb.Record_JobPlanned:
			for _, j := range body.JobPlanned.Jobs {
				s, err := jobs.ParseSpec(j.Spec)
				if err != nil {
					r.Problems = append(r.Problems, fmt.Sprintf("job %s: %v", j.JobId, err))
					continue
				}
				if s.ID() != j.JobId {
					r.Problems = append(r.Problems, fmt.Sprintf("job %s: its spec names job %s", j.JobId, s.ID()))
					continue
				}
				r.Planned[j.JobId] = s
			}
		case *pb.Record_JobResult:
			res := body.JobResult
			s := r.Planned[res.JobId]
			if s == nil {
				r.Problems = append(r.Problems, fmt.Sprintf("result for unplanned job %s", res.JobId))
				continue
			}
			d, err := jobs.ParseDetail(res.Detail)
			if err != nil {
				r.Problems = append(r.Problems, fmt.Sprintf("job %s: %v", res.JobId, err))
				continue
			}
			done := &jobs.Done{Spec: s, Detail: d}
			for _, c := range res.Cases {
				done.Cases = append(done.Cases, jobs.Case{Name: c.Name, Outcome: c.Outcome})
			}
			r.Done[res.JobId] = done
			r.Results[res.JobId] = res
		case *pb.Record_CoverageMeasured:
			r.Coverage = body.CoverageMeasured
		case *pb.Record_StrengthMeasured:
			r.Strength = body.StrengthMeasured
		case *pb.Record_RecordRefused:
			ref := body.RecordRefused
			r.Refusals = append(r.Refusals, fmt.Sprintf("%s record refused: %s (%s)", record.KindName(ref.RefusedKind), ref.ReasonCode, ref.Detail))
			if d, err := record.Decode(ref.RefusedRecord); err == nil {
				if res := d.Record.GetJobResult(); res != nil {
					r.RefusedJobs[res.JobId] = true
				}
			}
			// A refusal is not a record of the run's graph: it cannot be a
			// parent, so it is not listed as evidence.
			continue
		case *pb.Record_RunFailed:
			f := body.RunFailed
			r.Failures = append(r.Failures, fmt.Sprintf("%s could not handle %s %.12s after %d attempt(s): %s", f.Service, f.FailedKind, f.FailedRecord, f.Attempts, f.Reason))
		case *pb.Record_VerdictReached, *pb.Record_VerdictSealed:
			continue
		}
		r.Evidence = append(r.Evidence, rec.Digest)
	}
	return r
}

// Pending lists what the run still waits for: the trees, a plan, planned
// jobs without an answer, follow-up jobs the rule makes due. Empty means
// the evidence is complete.
func (r *Run) Pending() []string {
	var p []string
	switch {
	case r.Sealed == nil:
		return []string{"criteria.sealed"}
	case r.Trees == nil:
		return []string{"trees.materialized"}
	case len(r.Planned) == 0:
		return []string{"job.planned"}
	}
	for id := range r.Planned {
		if r.Done[id] == nil && !r.RefusedJobs[id] {
			p = append(p, "job "+id)
		}
	}
	for _, id := range jobs.Due(r.Planned, r.Done, jobs.Reached(r.Coverage)) {
		p = append(p, "job "+id+" (due, never planned)")
	}
	if jobs.MeasureCoverage(r.Sealed.Criteria) && r.Coverage == nil {
		p = append(p, "coverage.measured")
	}
	if jobs.MeasureStrength(r.Sealed.Criteria) && r.Strength == nil {
		p = append(p, "strength.measured")
	}
	slices.Sort(p)
	return p
}

// Claims returns the claims judged: the sealed ones, or those discovery
// found.
func (r *Run) Claims() []string {
	if r.Sealed != nil && len(r.Sealed.Criteria.Claims) > 0 {
		return r.Sealed.Criteria.Claims
	}
	return jobs.Discovered(r.Planned, r.Done, jobs.Reached(r.Coverage))
}

// Policy is the decision's part of the sealed criteria.
func (r *Run) Policy() Policy {
	c := r.Sealed.Criteria
	return Policy{CoverageFloor: c.CoverageFloor, StrengthFloor: c.StrengthFloor, StrengthConfidence: c.StrengthConfidence}
}

// Evidence gathers the decision's input. missing lists what was still
// pending at the deadline (empty when the run completed).
func (r *Run) Gather(missing []string) Evidence {
	e := Evidence{Missing: missing, Refusals: r.Refusals, Conflicts: r.Problems, Failures: r.Failures}
	if r.Trees != nil {
		e.HarnessDrift = r.Trees.HarnessDrift
		e.TestEdits = r.Trees.OracleRestored
		for _, u := range r.Trees.Unjudgeable {
			e.Unjudgeable = append(e.Unjudgeable, u.Why)
		}
		judged := r.Claims()
		for _, f := range r.Trees.Findings {
			if f.Claim != "" && !slices.Contains(judged, f.Claim) {
				// About a test discovery may have proposed and did not.
				continue
			}
			at := f.Path
			if f.Line > 0 {
				at = fmt.Sprintf("%s:%d", f.Path, f.Line)
			}
			switch f.Rule {
			case findingProbe:
				e.Probes = append(e.Probes, at+": "+f.Detail)
			case findingOverfitting:
				e.Overfitting = append(e.Overfitting, at+": "+f.Detail)
			case findingHarnessReach:
				e.HarnessReach = append(e.HarnessReach, at+": "+f.Detail)
			case findingForeignCode:
				e.ForeignCode = append(e.ForeignCode, at+": "+f.Detail)
			case findingSupportWrite:
				e.SupportWrites = append(e.SupportWrites, at+": "+f.Detail)
			case findingBaselineReach:
				e.BaselineReach = append(e.BaselineReach, at+": "+f.Detail)
			}
		}
		e.Harness = r.harness()
	}
	cut := r.cutShort(missing)
	for _, c := range r.Claims() {
		e.Claims = append(e.Claims, r.counterfactual(r.edited(r.claim(c, cut), cut)))
	}
	if r.Sealed != nil {
		// A bare claim (a grader's test name) no test file declares was
		// sealed as resolving to nothing: it was asked for and cannot be
		// checked, so it is never silently dropped.
		for _, bare := range slices.Sorted(maps.Keys(r.Sealed.Criteria.BareClaims)) {
			if len(r.Sealed.Criteria.BareClaims[bare]) == 0 {
				e.Claims = append(e.Claims, Claim{ID: bare, Outcome: Unverified, Class: Invalid,
					Why: "no test file declares it (on either side, with the trusted tests): it names nothing the gate can run"})
			}
		}
	}
	e.Collateral = r.collateral()
	e.Collateral.SelfJudged, e.Collateral.Support = r.selfJudged()
	e.Written = r.written()
	e.Dependencies, e.HarnessDrift = r.dependencies(e.HarnessDrift)
	e.Seals = r.seals()
	e.Coverage = r.coverage()
	e.Strength = r.strength()
	return e
}

// SideOf returns a claim's answered job on side, following a prerequisite
// to the job it unlocks.
func (r *Run) SideOf(claim, side string) (*jobs.Done, *jobs.Done) {
	s := jobs.Spec{Purpose: jobs.Claim, Side: side, Claim: claim}
	d := r.Done[s.ID()]
	p := jobs.Spec{Purpose: jobs.Prereq, Side: side, Claim: claim}
	return d, r.Done[p.ID()]
}

// The findings of the checkout's analyses the decision reads (rules of
// services/checkout/inspect, by their stable names).
const (
	findingProbe         = "probe"
	findingOverfitting   = "overfitting"
	findingTestHarness   = "test-harness"
	findingHarnessReach  = "harness-reach"
	findingForeignCode   = "foreign-code"
	findingBaselineReach = "baseline-reach"
	findingSupportWrite  = "support-write"
)

// harness lists the test files with a test-harness finding, each with
// what it declares and how the judged runs did without it: a file the
// patch adds is dropped from them; a baseline test file it changes is put
// back as the baseline has it.
func (r *Run) harness() []string {
	whats := map[string][]string{}
	for _, f := range r.Trees.Findings {
		if f.Rule != findingTestHarness {
			continue
		}
		what := f.Detail
		if f.Line > 0 {
			what = fmt.Sprintf("line %d %s", f.Line, f.Detail)
		}
		whats[f.Path] = append(whats[f.Path], what)
	}
	var out []string
	for _, file := range slices.Sorted(maps.Keys(whats)) {
		how := "no judged run compiles it"
		if slices.Contains(r.Trees.OracleRestored, file) {
			how = "every judged run has the baseline's version of it"
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", file, clip(whats[file]), how))
	}
	return out
}

// counterfactual compares a claim's patch-side outcome with its re-run
// without the test support the patch changed: a different outcome means
// the claim depends on what the patch changed of its own judge. A re-run
// that could not build or start is no evidence either way: the claim is
// unverified, saying so apart.
func (r *Run) counterfactual(c Claim) Claim {
	cf := jobs.Spec{Purpose: jobs.Counterfactual, Side: jobs.Patch, Claim: c.ID}
	planned, ok := r.Planned[cf.ID()]
	if !ok || c.Outcome == Unverified {
		return c
	}
	patch, _ := r.SideOf(c.ID, jobs.Patch)
	d := r.Done[cf.ID()]
	files := clip(restoredLabels(planned.Restore))
	switch {
	case d == nil:
		c.Outcome, c.Class = Unverified, NotExecuted
		c.Why = fmt.Sprintf("its counterfactual run (test support the patch changed put back: %s) never ran; %s", files, c.Why)
	case patch != nil && d.Detail.Outcome == patch.Detail.Outcome:
	case d.Detail.Outcome == jobs.OutcomeUnrunnable || d.Detail.Outcome == jobs.OutcomeNotRun:
		c.Outcome, c.Class = Unverified, Unrunnable
		c.Why = fmt.Sprintf("its counterfactual run, with the test support the patch changed put back (%s), did not build or run (%s): that is no evidence the claim depends on them, nor that it does not; %s",
			files, d.Detail.Reason, c.Why)
	case patch != nil:
		c.Outcome, c.Class = Unverified, Invalid
		c.Why = fmt.Sprintf("it depends on test support the patch changed (%s): with it put back the claim is %s on the patch, with the patch's %s; %s",
			files, d.Detail.Outcome, patch.Detail.Outcome, c.Why)
	}
	return c
}

// restoredLabels names what a counterfactual run put back: a file, or a
// declaration "file#name" as "file (name)". Sorted.
func restoredLabels(restore []string) []string {
	var out []string
	for _, f := range restore {
		if file, name, ok := strings.Cut(f, "#"); ok {
			f = file + " (" + name + ")"
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// EditedOf returns the answered runs of the patch's version of a test the
// claim names and the patch edits, on each side (nil when none).
func (r *Run) EditedOf(claim string) (base, patch *jobs.Done) {
	b := jobs.Spec{Purpose: jobs.Edited, Side: jobs.Baseline, Claim: claim}
	p := jobs.Spec{Purpose: jobs.Edited, Side: jobs.Patch, Claim: claim}
	return r.Done[b.ID()], r.Done[p.ID()]
}

// edited folds the runs of the patch's version of an edited test into a
// claim judged by the baseline's version: a refutation or a gap of either
// stands; cases the patch adds that fail on the baseline and pass on the
// patch prove the fix.
func (r *Run) edited(c Claim, cut string) Claim {
	b := jobs.Spec{Purpose: jobs.Edited, Side: jobs.Baseline, Claim: c.ID}
	if _, planned := r.Planned[b.ID()]; !planned {
		return c
	}
	eb, ep := r.EditedOf(c.ID)
	if c.Outcome == Refuted && (c.Class == Regression || c.Class == IncompleteFix) {
		// The baseline's version fails on the patch, and the patch edits
		// the test. When the patch's version passes on the patch, the
		// patch changes what the test pins — a fix that corrects an old
		// expectation and a breakage that drops the row showing it look
		// the same: for a human to judge, never a merge.
		if eb == nil || ep == nil {
			// Not certain yet: its own version may show a changed pin.
			c.Outcome, c.Class = Unverified, NotExecuted
			c.Why += "; the patch edits the test, and its version of it never ran on both sides"
			if cut != "" {
				c.Why += " before " + cut
			}
			return c
		}
		if ep.Detail.Outcome == jobs.OutcomeUnrunnable {
			// Its own version could not run on the patch (laid over the
			// baseline's file, it did not build): whether it changes
			// what the test pins is unknown, never a refutation.
			c.Outcome, c.Class = Unverified, NotExecuted
			c.Why += fmt.Sprintf("; the patch edits the test, and its version of it could not run on the patch (%s)", ep.Detail.Reason)
			return c
		}
		// A test that failed on both sides (the claimed fix is
		// incomplete) is repinned only when its own version fails on the
		// baseline, pinning something the baseline does not do: one that
		// passes there too pins what the bug does (an assertion rewritten
		// to expect the buggy value), and the refutation stands.
		class, outcome := Classify(eb.Detail.Outcome, ep.Detail.Outcome)
		switch {
		case outcome == Verified && (class == Fixed || c.Class == Regression):
			c.Outcome, c.Class = Unverified, Repinned
			c.Why = fmt.Sprintf("the patch edits the test and changes what it pins: its baseline's version fails on the patch (%s), its own version passes there (baseline %s (%s); patch %s (%s))",
				c.Why, eb.Detail.Outcome, eb.Detail.Reason, ep.Detail.Outcome, ep.Detail.Reason)
		case class == NoRegression:
			c.Why += "; the patch's own version of the test passes on the baseline too: it pins what the bug does"
		}
		return c
	}
	if c.Outcome == Unverified && c.Class == Unrunnable && r.subtestOnlyInPatch(c.ID) && eb != nil && ep != nil {
		// A subtest the patch adds to a test it edits (a row of t.Run
		// cases): the baseline's test files do not hold it, so the claim
		// matched nothing on either side. The patch's version of the test
		// is what holds it; run on both sides, it proves the fix as an
		// added test does, while the suites hold the baseline's version
		// of the test to its own pass on the patch.
		class, outcome := Classify(eb.Detail.Outcome, ep.Detail.Outcome)
		c.Outcome, c.Class = outcome, class
		c.Why = fmt.Sprintf("the claimed subtest is only in the patch's version of its test: baseline %s (%s); patch %s (%s); the baseline's version matched no test: %s",
			eb.Detail.Outcome, eb.Detail.Reason, ep.Detail.Outcome, ep.Detail.Reason, c.Why)
		return c
	}
	if c.Outcome != Verified {
		return c
	}
	if eb == nil || ep == nil {
		c.Outcome, c.Class = Unverified, NotExecuted
		c.Why += "; the patch's version of the test it edits never ran on both sides"
		if cut != "" {
			c.Why += " before " + cut
		}
		return c
	}
	class, outcome := Classify(eb.Detail.Outcome, ep.Detail.Outcome)
	why := fmt.Sprintf("the patch's version of the test it edits: baseline %s (%s); patch %s (%s)", eb.Detail.Outcome, eb.Detail.Reason, ep.Detail.Outcome, ep.Detail.Reason)
	switch {
	case outcome != Verified:
		c.Outcome, c.Class = outcome, class
		c.Why = why + "; the baseline's version: " + c.Why
	case class == Fixed:
		c.Class = Fixed
		c.Why += "; " + why
	default:
		c.Why += "; " + why
	}
	return c
}

// subtestOnlyInPatch reports a Go claim of a subtest that matched no test
// on either side run with the baseline's test files.
func (r *Run) subtestOnlyInPatch(id string) bool {
	_, test, ok := strings.Cut(strings.TrimPrefix(id, "go:"), ":")
	if !ok || !strings.HasPrefix(id, "go:") || !strings.Contains(test, "/") {
		return false
	}
	for _, side := range []string{jobs.Baseline, jobs.Patch} {
		d, _ := r.SideOf(id, side)
		if d == nil || d.Detail.Outcome != jobs.OutcomeUnrunnable || !strings.Contains(d.Detail.Reason, jobs.NoTestsMatched) {
			return false
		}
	}
	return true
}

// cutShort says what ended the run before its evidence was complete: a
// service's failure, or the deadline; "" when nothing is missing.
func (r *Run) cutShort(missing []string) string {
	switch {
	case len(missing) == 0:
		return ""
	case len(r.Failures) > 0:
		return "a service failed on the run"
	}
	return "the deadline"
}

func (r *Run) claim(id string, cut string) Claim {
	base, _ := r.SideOf(id, jobs.Baseline)
	patch, prereq := r.SideOf(id, jobs.Patch)
	c := Claim{ID: id}
	switch {
	case patch == nil && prereq != nil && prereq.Detail.Outcome != jobs.OutcomePass:
		c.Outcome, c.Class = Unverified, NotExecuted
		c.Why = fmt.Sprintf("the patch added it to a baseline test file whose baseline tests do not all pass on the patched code (%s: %s)", prereq.Detail.Outcome, prereq.Detail.Reason)
		return c
	case base == nil || patch == nil:
		c.Outcome, c.Class = Unverified, NotExecuted
		c.Why = "it was never run on both sides"
		switch cut {
		case "the deadline":
			c.Why = "the deadline passed before it ran on both sides"
		case "":
		default:
			c.Why = "it never ran on both sides before " + cut
		}
		return c
	}
	c.Class, c.Outcome = Classify(base.Detail.Outcome, patch.Detail.Outcome)
	c.Why = fmt.Sprintf("baseline %s (%s); patch %s (%s)", base.Detail.Outcome, base.Detail.Reason, patch.Detail.Outcome, patch.Detail.Reason)
	if c.Class == IncompleteFix && r.Sealed != nil && slices.Contains(r.Sealed.Criteria.BaselinePasses, id) {
		// The grader says this test passes on the baseline; here it fails
		// on both sides: this run's environment is not the grader's, and
		// the failure says nothing about the patch.
		c.Class, c.Outcome = Unrunnable, Unverified
		c.Why = "the grader says it passes on the baseline, but it fails on both sides here (the environment differs): " + c.Why
	}
	if patch.Spec.Tree == jobs.TreeOracle && r.Trees != nil && len(r.Trees.OracleRestored) > 0 {
		c.Why += fmt.Sprintf("; judged by the baseline's test files: the patch's changes to %s were put back", strings.Join(r.Trees.OracleRestored, ", "))
	}
	if len(patch.Spec.Drop) > 0 {
		// Harness the patch adds (TestMain, init, code run at package
		// initialization, reaches into the test binary) was left out.
		c.Why += fmt.Sprintf("; judged without the test files the patch adds that control the test harness: %s", strings.Join(patch.Spec.Drop, ", "))
	}
	if data := r.restoredData(id); c.Outcome == Refuted && patch.Detail.Outcome == jobs.OutcomeFail && len(data) > 0 {
		// The claim fails on the patch where the oracle put back test data
		// the patch changed: a new test may need the patch's fixture. The
		// gate cannot tell a wrong fix from a fixture the fix needs.
		c.Outcome = Unverified
		c.Why = fmt.Sprintf("it fails on the patch with the baseline's versions of test data the patch changes (%s): it may depend on them; %s", clip(data), c.Why)
	}
	return c
}

// restoredData lists the test data (not Go or Python code) the oracle put
// back in or under the claim's package (Go) or test module's directory
// (pytest).
func (r *Run) restoredData(claim string) []string {
	if r.Trees == nil {
		return nil
	}
	var dir string
	switch {
	case strings.HasPrefix(claim, "go:"):
		pkg, _, _ := strings.Cut(strings.TrimPrefix(claim, "go:"), ":")
		dir = path.Clean(strings.TrimPrefix(pkg, "./"))
	case strings.HasPrefix(claim, "pytest:"):
		file, _, _ := strings.Cut(strings.TrimPrefix(claim, "pytest:"), "::")
		dir = path.Dir(file)
	default:
		return nil
	}
	var out []string
	for _, f := range r.Trees.OracleRestored {
		if strings.HasSuffix(f, ".go") || strings.HasSuffix(f, ".py") {
			continue
		}
		if dir == "." || f == dir || strings.HasPrefix(f, dir+"/") {
			out = append(out, f)
		}
	}
	return out
}

// Suites lists the ids of the full-suite jobs planned on the patch, sorted:
// one per stack the tree has (go test, pytest, the declared suite command).
func (r *Run) Suites() []string {
	var ids []string
	for id, s := range r.Planned {
		if s.Purpose == jobs.Collateral && s.Side == jobs.Patch {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// BaselineOf returns the id of the baseline run of a patch-side suite.
func BaselineOf(s *jobs.Spec) string {
	b := *s
	b.Side, b.Tree = jobs.Baseline, jobs.TreeBaseline
	return b.ID()
}

// collateral folds every suite into one comparison: it ran when every
// suite ran, is green when every suite is, and counts its tests only when
// every suite reported a count (go test and pytest always do; a declared
// command only with a JUnit file or a runner's own count). Every suite
// runs on the baseline too, and every test that passes there needs its own
// pass on the patch: a failure is a regression, anything else (missing,
// skipped, not run) leaves the patch unjudged.
func (r *Run) collateral() *Collateral {
	ids := r.Suites()
	if len(ids) == 0 {
		return &Collateral{Why: "never planned"}
	}
	c := &Collateral{PatchRan: true, PatchGreen: true, BaselineRan: true, BaselineGreen: true}
	total, counted := 0, true
	var whys []string
	for _, id := range ids {
		patch := r.Done[id]
		if patch == nil || patch.Detail.Outcome == jobs.OutcomeNotRun {
			why := "never answered"
			if patch != nil {
				why = patch.Detail.Reason
			}
			return &Collateral{Why: why}
		}
		whys = append(whys, patch.Detail.Reason)
		switch {
		case patch.Detail.Count != nil:
			total += *patch.Detail.Count
		case patch.Spec.Runner == jobs.RunnerGo:
			for _, top := range jobs.TopLevel(patch.Cases) {
				if top == "" {
					total++
				}
			}
		default:
			counted = false
		}
		if patch.Detail.Outcome != jobs.OutcomePass {
			c.PatchGreen = false
		}
		base := r.Done[BaselineOf(patch.Spec)]
		switch {
		case base == nil:
			c.BaselineRan = false
			continue
		case base.Detail.Outcome == jobs.OutcomeNotRun:
			// Planned not to run (the baseline has no such suite):
			// nothing on the baseline passed, so nothing is owed.
			for _, cs := range patch.Cases {
				if cs.Outcome == "fail" {
					c.NewFailing = append(c.NewFailing, cs.Name)
				}
			}
			continue
		}
		if base.Detail.Outcome != jobs.OutcomePass {
			c.BaselineGreen = false
		}
		now := map[string]string{}
		for _, cs := range patch.Cases {
			now[cs.Name] = cs.Outcome
		}
		then := map[string]bool{}
		for _, cs := range base.Cases {
			then[cs.Name] = true
		}
		for _, cs := range patch.Cases {
			if cs.Outcome == "fail" && !then[cs.Name] {
				c.NewFailing = append(c.NewFailing, cs.Name)
			}
		}
		edited := map[string]bool{}
		if r.Trees != nil {
			for _, t := range r.Trees.EditedTests {
				edited[t] = true
			}
		}
		// A subtest (Case) is judged only where its top-level test
		// passes on the patch: a parent that fails, stops or is missing
		// is named itself. A failing subtest fails its parent; one
		// skipped leaves the parent passing, and is missing. One gone is
		// missing only when fewer subtests of its top-level test pass on
		// the patch than on the baseline: a subtest named after data the
		// patch changes (a row of the package's own table) comes back
		// under its new name.
		// Go names a second subtest of one name X#01: a gone X#01 whose X
		// passes is the same subtest (a duplicate row dropped), and
		// duplicates do not stand in for other names gone.
		tops := jobs.TopLevel(base.Cases)
		basePassing, patchPassing := passingSubtests(base.Cases), passingSubtests(patch.Cases)
		for _, cs := range base.Cases {
			top := tops[cs.Name]
			_, listed := now[cs.Name]
			switch {
			case top != "" && now[top] != "pass":
			case cs.Outcome != "pass" || now[cs.Name] == "pass":
			case top != "" && !listed && undeduplicated(cs.Name) != cs.Name && now[undeduplicated(cs.Name)] == "pass":
			case top != "" && !listed && patchPassing[top] >= basePassing[top]:
			case now[cs.Name] == jobs.CaseStopped:
				c.Stopped = append(c.Stopped, cs.Name)
			case now[cs.Name] == jobs.CaseFlaky:
				c.Flaky = append(c.Flaky, cs.Name)
			case now[cs.Name] == "fail" && edited[cs.Name]:
				c.Repinned = append(c.Repinned, cs.Name)
			case now[cs.Name] == "fail":
				c.Regressions = append(c.Regressions, cs.Name)
			default:
				c.Missing = append(c.Missing, cs.Name)
			}
		}
	}
	if counted {
		c.PatchCases = &total
	}
	c.Why = strings.Join(whys, "; ")
	for _, l := range []*[]string{&c.Regressions, &c.Stopped, &c.Flaky, &c.Missing, &c.Repinned, &c.NewFailing} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return c
}

// Written lists the ids of the written jobs planned, sorted.
func (r *Run) Written() []string {
	var ids []string
	for id, s := range r.Planned {
		if s.Purpose == jobs.Written {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// written compares each package run with the patch's own test files (a
// written job) with the patch-side Go suite, which ran the baseline's: a
// test that fails as the patch wrote it and does not fail there is one
// the patch's own test files break (a helper it changed, a test it added
// or edited). A run that ended without naming a failing test (the test
// files do not build, TestMain failed, a timeout) is no result at all.
// Nil when no written job was planned.
func (r *Run) written() *Written {
	ids := r.Written()
	if len(ids) == 0 {
		return nil
	}
	oracle := map[string]string{}
	for _, id := range r.Suites() {
		if d := r.Done[id]; d != nil && d.Spec.Runner != jobs.RunnerCommand {
			for _, c := range d.Cases {
				oracle[c.Name] = c.Outcome
			}
		}
	}
	failed := func(outcome string) bool {
		return outcome == "fail" || outcome == jobs.CaseFlaky || outcome == jobs.CaseStopped
	}
	w := &Written{}
	for _, id := range ids {
		s, d := r.Planned[id], r.Done[id]
		pkg := cmp.Or(s.ImportPath, s.Package)
		switch {
		case s.Runner == jobs.RunnerPytest:
			pkg = "the pytest suite"
		case s.Package == "./..." && s.ModulePath != "":
			pkg = s.ModulePath + "/..."
		}
		w.Packages = append(w.Packages, pkg)
		switch {
		case d == nil:
			w.Unrun = append(w.Unrun, pkg+": never answered")
			continue
		case d.Detail.Outcome == jobs.OutcomePass:
			continue
		case d.Detail.Outcome != jobs.OutcomeFail:
			w.Unrun = append(w.Unrun, fmt.Sprintf("%s: %s (%s)", pkg, d.Detail.Outcome, d.Detail.Reason))
			continue
		}
		named := false
		for _, c := range d.Cases {
			if !failed(c.Outcome) {
				continue
			}
			named = true
			if !failed(oracle[c.Name]) {
				w.Failing = append(w.Failing, c.Name)
			}
		}
		if !named {
			w.Unrun = append(w.Unrun, fmt.Sprintf("%s: %s", pkg, d.Detail.Reason))
		}
	}
	slices.Sort(w.Failing)
	return w
}

// passingSubtests counts, per top-level test, its distinct subtests (at
// any depth) that pass: X, X#01 and X#02 count once (see undeduplicated).
func passingSubtests(cases []jobs.Case) map[string]int {
	out := map[string]int{}
	seen := map[string]bool{}
	tops := jobs.TopLevel(cases)
	for _, c := range cases {
		name := undeduplicated(c.Name)
		if top := tops[c.Name]; top != "" && c.Outcome == "pass" && !seen[name] {
			seen[name] = true
			out[top]++
		}
	}
	return out
}

// undeduplicated is a subtest's name without the #NN go test adds to a
// second subtest of the same name under one parent ("p.TestX/upper#01" →
// "p.TestX/upper").
func undeduplicated(name string) string {
	i := strings.LastIndexByte(name, '#')
	if i < 0 || i < strings.LastIndexByte(name, '/') || i == len(name)-1 {
		return name
	}
	for _, r := range name[i+1:] {
		if r < '0' || r > '9' {
			return name
		}
	}
	return name[:i]
}

// dependencies reads the modules jobs: dependencies that could not be
// downloaded are a gap; a go.sum that disagrees with the modules' content
// is harness drift, added to drift.
func (r *Run) dependencies(drift []string) (problems, withDrift []string) {
	withDrift = slices.Clone(drift)
	for _, id := range slices.Sorted(maps.Keys(r.Planned)) {
		s := r.Planned[id]
		if s.Purpose != jobs.Modules {
			continue
		}
		d := r.Done[id]
		switch {
		case d == nil:
			// Waited for like any job; at the deadline it is missing.
		case d.Detail.Outcome == jobs.OutcomePass:
		case d.Detail.Outcome == jobs.OutcomeFail:
			withDrift = append(withDrift, fmt.Sprintf("%s/go.sum (%s side: %s)", s.Module, s.Side, d.Detail.Reason))
		default:
			problems = append(problems, fmt.Sprintf("%s side: %s", s.Side, d.Detail.Reason))
		}
	}
	return problems, withDrift
}

// seals matches each check of the sealed seal plan to its job by the
// check's identity (its command), never by position or count. A check
// that timed out, could not start or never answered did not run.
func (r *Run) seals() []SealCheck {
	if r.Sealed == nil {
		return nil
	}
	var out []SealCheck
	for _, chk := range r.Sealed.Criteria.SealPlan {
		id := (&jobs.Spec{Purpose: jobs.Seal, Side: jobs.Patch, Run: chk.Run, JUnit: chk.JUnit}).ID()
		sc := SealCheck{Command: chk.Run}
		d := r.Done[id]
		if d != nil && (d.Spec.Run != chk.Run || d.Spec.JUnit != chk.JUnit || d.Spec.Tree != jobs.TreeOracle || d.Spec.Side != jobs.Patch) {
			d = nil // the job behind this id is not this check on the patch
		}
		if d != nil && (d.Detail.Outcome == jobs.OutcomePass || d.Detail.Outcome == jobs.OutcomeFail) {
			sc.Ran, sc.Exit, sc.Cases = true, int(r.Results[id].GetExitCode()), d.Detail.Count
			switch {
			case d.Detail.Outcome == jobs.OutcomeFail && sc.Exit == 0:
				sc.Exit = 1 // a failure is never exit 0, whatever the record says
			case d.Detail.Outcome == jobs.OutcomePass:
				// Passed by its runner's rule: exit 0, or pytest's and
				// unittest's exit 5 for "no tests ran", counted as zero
				// cases (empty green, never a failure).
				sc.Exit = 0
			}
		}
		out = append(out, sc)
	}
	return out
}

func (r *Run) coverage() *Coverage {
	m := r.Coverage
	if m == nil {
		return &Coverage{Source: None, Reason: "no coverage measurement is on the ledger"}
	}
	c := &Coverage{Source: sourceOf(m.Source), Ratio: m.Ratio, Reason: m.Reason,
		Vacuous: m.Source == pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED && m.Ratio == nil && m.ChangedLines == 0 && len(m.Uncovered) == 0}
	for _, l := range m.Uncovered {
		c.Uncovered = append(c.Uncovered, Line{Path: l.Path, Line: int(l.Line)})
	}
	for _, l := range m.Lost {
		c.Lost = append(c.Lost, Line{Path: l.Path, Line: int(l.Line)})
	}
	for _, l := range m.Deleted {
		c.Deleted = append(c.Deleted, Line{Path: l.Path, Line: int(l.Line)})
	}
	return c
}

func (r *Run) strength() *Strength {
	m := r.Strength
	if m == nil {
		return &Strength{Source: None, Reason: "no mutation measurement is on the ledger", Unjudgeable: r.unjudgeable()}
	}
	s := &Strength{Source: sourceOf(m.Source), Killed: int(m.Killed), Survived: int(m.Survived), Complete: m.Complete, Reason: m.Reason, Unjudgeable: r.unjudgeable()}
	for _, mu := range m.Mutants {
		if mu.At == nil {
			continue
		}
		at := Line{Path: mu.At.Path, Line: int(mu.At.Line)}
		switch mu.Status {
		case "survived":
			s.Survivors = append(s.Survivors, Mutant{At: at, Mutation: mu.Description})
		case "unjudged":
			s.Unjudged = append(s.Unjudged, Mutant{At: at, Mutation: mu.Description})
		}
	}
	for _, l := range m.Unwitnessed {
		s.Unwitnessed = append(s.Unwitnessed, Line{Path: l.Path, Line: int(l.Line)})
	}
	return s
}

// unjudgeable lists the changed source the mutator cannot judge: source
// in another language (foreign), binary files, and deleted Go source.
func (r *Run) unjudgeable() []string {
	if r.Trees == nil {
		return nil
	}
	var out []string
	for _, ch := range r.Trees.Changes {
		switch {
		case ch.Class == pb.FileClass_FILE_CLASS_FOREIGN:
			out = append(out, ch.Path+" (foreign source)")
		case ch.Class == pb.FileClass_FILE_CLASS_BINARY:
			out = append(out, ch.Path+" (binary)")
		case ch.Class == pb.FileClass_FILE_CLASS_SOURCE && ch.Change == pb.ChangeKind_CHANGE_KIND_DELETED:
			out = append(out, ch.Path+" (deleted)")
		}
	}
	return out
}

func sourceOf(s pb.MeasurementSource) Source {
	switch s {
	case pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED:
		return Computed
	case pb.MeasurementSource_MEASUREMENT_SOURCE_UNTRUSTED:
		return Untrusted
	}
	return None
}

// Deadline is the sealed deadline of the run.
func (r *Run) Deadline() time.Time {
	if r.Sealed == nil {
		return time.Time{}
	}
	return time.UnixMilli(r.Sealed.Criteria.DeadlineUnixMilli)
}
