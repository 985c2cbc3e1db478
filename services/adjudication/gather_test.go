package adjudication

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication/schematest"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// runBuilder writes a run's records as the services would (unsigned: Read
// judges content; signatures are the ledger's business).
type runBuilder struct {
	t      *testing.T
	sealed *criteria.Sealed
	recs   []*record.Decoded
	plan   string
}

func newRun(t *testing.T, claims []string, coverageFloor, strengthFloor float64) *runBuilder {
	t.Helper()
	return newRunWith(t, claims, coverageFloor, strengthFloor, nil)
}

// newRunWith is newRun with the criteria edited before they are sealed.
func newRunWith(t *testing.T, claims []string, coverageFloor, strengthFloor float64, edit func(*criteria.Criteria)) *runBuilder {
	t.Helper()
	c := &criteria.Criteria{
		Schema: criteria.Schema, RunID: "run-1", Repository: "/repo", Baseline: strings.Repeat("a", 40),
		PatchCommit: strings.Repeat("b", 40), PatchDigest: strings.Repeat("c", 64), Claims: claims, DiscoverClaims: len(claims) == 0,
		CoverageFloor: coverageFloor, StrengthFloor: strengthFloor, StrengthConfidence: 0.8, MutationMax: 20,
		DeadlineUnixMilli: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(),
	}
	c.ApplyDefaults()
	if edit != nil {
		edit(c)
	}
	s, err := criteria.Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	b := &runBuilder{t: t, sealed: s}
	b.add(&pb.Record{Body: &pb.Record_RunRequested{RunRequested: &pb.RunRequested{PatchDigest: c.PatchDigest}}})
	b.add(&pb.Record{Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: s.Canonical, CriteriaDigest: s.Digest}}})
	b.add(&pb.Record{Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{
		BaselineTreeDigest: strings.Repeat("d", 64), PatchTreeDigest: strings.Repeat("e", 64),
		Changes: []*pb.FileChange{{Path: "calc/calc.go", Change: pb.ChangeKind_CHANGE_KIND_MODIFIED, Class: pb.FileClass_FILE_CLASS_SOURCE, ChangedLines: []uint32{3}}},
	}}})
	return b
}

func (b *runBuilder) add(r *pb.Record) string {
	r.RunId = "run-1"
	sum := sha256.Sum256([]byte(fmt.Sprint(len(b.recs), r.String())))
	d := &record.Decoded{Record: r, Digest: hex.EncodeToString(sum[:]), Kind: record.KindOf(r)}
	b.recs = append(b.recs, d)
	return d.Digest
}

func (b *runBuilder) planJobs(specs ...*jobs.Spec) {
	jp := &pb.JobPlanned{}
	for _, s := range specs {
		raw, err := s.Marshal()
		if err != nil {
			b.t.Fatal(err)
		}
		jp.Jobs = append(jp.Jobs, &pb.Job{JobId: s.ID(), Spec: raw})
	}
	b.plan = b.add(&pb.Record{Body: &pb.Record_JobPlanned{JobPlanned: jp}})
}

func (b *runBuilder) answer(s *jobs.Spec, outcome string, cases ...string) {
	d := &jobs.Detail{Outcome: outcome, Reason: "test", Runs: []jobs.Run{{Verdict: outcome, WallMillis: 100}}}
	raw, _ := d.Marshal()
	res := &pb.JobResult{JobId: s.ID(), Termination: pb.Termination_TERMINATION_EXITED, Detail: raw, Sandbox: &pb.Sandbox{Name: "bwrap", EnvNames: []string{"PATH"}}}
	for _, c := range cases {
		name, outcome, _ := strings.Cut(c, "=")
		res.Cases = append(res.Cases, &pb.TestCase{Name: name, Outcome: outcome})
	}
	b.add(&pb.Record{Body: &pb.Record_JobResult{JobResult: res}})
}

func claimSpec(claim, side string) *jobs.Spec {
	tree := jobs.TreeOracle
	if side == jobs.Baseline {
		tree = jobs.TreeBaseline
	}
	return &jobs.Spec{Purpose: jobs.Claim, Side: side, Claim: claim, Tree: tree, Module: ".", Package: "./calc", Tests: []string{"TestMedian"}}
}

func collSpec(side string) *jobs.Spec {
	tree := jobs.TreeOracle
	if side == jobs.Baseline {
		tree = jobs.TreeBaseline
	}
	return &jobs.Spec{Purpose: jobs.Collateral, Side: side, Tree: tree, Module: ".", Package: "./..."}
}

const claim = "go:./calc:TestMedian"

func decide(t *testing.T, b *runBuilder) (Verdict, *Artefact) {
	t.Helper()
	r := Read("run-1", b.recs)
	if p := r.Pending(); len(p) > 0 {
		t.Fatalf("pending: %v", p)
	}
	e := r.Gather(nil)
	v := Decide(r.Policy(), e)
	return v, r.BuildArtefact(v, e)
}

func TestRunFixedMergesWithFloorsOff(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass", "m/calc.TestMean=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass", "m/calc.TestMean=pass")
	v, a := decide(t, b)
	if v.Decision != Merge || !v.FixProven || a.ExitCode != 0 {
		t.Fatalf("got %s (%s), fix proven %v", v.Decision, v.Reason, v.FixProven)
	}
	if a.Claims[0].Classification != Fixed || a.Claims[0].Oracle != "baseline" || *a.Collateral.Tests != 2 {
		t.Fatalf("artefact claim %+v, tests %v", a.Claims[0], a.Collateral.Tests)
	}
	if a.Timing.TestProcesses != 4 || a.Timing.TestProcessesMillis != 400 {
		t.Fatalf("timing %+v", a.Timing)
	}
	validate(t, a)
}

// TestRunTimingCountsThisRunsProcesses: the artefact's timing counts the
// processes this run started: a test binary's build, evidence of every
// job that runs the binary, once; a cached baseline suite's runs (made by
// an earlier run) not at all, nor a build that reused a binary kept from
// an earlier run.
func TestRunTimingCountsThisRunsProcesses(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	build := jobs.Run{Verdict: "BUILD", WallMillis: 1000, Binary: "b1"}
	detail := func(s *jobs.Spec, outcome, cached string, runs ...jobs.Run) {
		d := &jobs.Detail{Outcome: outcome, Reason: "test", Runs: runs, Cached: cached}
		raw, _ := d.Marshal()
		res := &pb.JobResult{JobId: s.ID(), Termination: pb.Termination_TERMINATION_EXITED, Detail: raw, Sandbox: &pb.Sandbox{Name: "bwrap", EnvNames: []string{"PATH"}}}
		if s.Purpose == jobs.Collateral {
			res.Cases = []*pb.TestCase{{Name: "m/calc.TestMedian", Outcome: "pass"}}
		}
		b.add(&pb.Record{Body: &pb.Record_JobResult{JobResult: res}})
	}
	detail(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail, "", jobs.Run{Verdict: "BUILD", Reason: jobs.ReusedBuild + "m/calc's test binary", WallMillis: 900, Binary: "b0"}, jobs.Run{Verdict: "FAIL", WallMillis: 10})
	detail(claimSpec(claim, jobs.Patch), jobs.OutcomePass, "", build, jobs.Run{Verdict: "PASS", WallMillis: 10})
	detail(collSpec(jobs.Patch), jobs.OutcomePass, "", build, jobs.Run{Verdict: "PASS", WallMillis: 50})
	detail(collSpec(jobs.Baseline), jobs.OutcomePass, "0123456789abcdef", jobs.Run{Verdict: "BUILD", WallMillis: 20000, Binary: "old"}, jobs.Run{Verdict: "PASS", WallMillis: 50})
	_, a := decide(t, b)
	if a.Timing.TestProcesses != 4 || a.Timing.TestProcessesMillis != 10+1000+10+50 {
		t.Fatalf("timing %+v, want 4 processes, 1070 ms", a.Timing)
	}
}

// TestRunFindingsDecide: the checkout's findings the decision reads make
// a run that would merge INCONCLUSIVE, each naming its place; those of
// rules it does not read (test harness, test support: the executor acts
// on them) do not.
func TestRunFindingsDecide(t *testing.T) {
	for _, tc := range []struct {
		finding *pb.Finding
		says    string
	}{
		{&pb.Finding{Rule: "harness-reach", Path: "calc/settle.go", Line: 18, Detail: "ends the process (syscall.Exit) behind the testing package's back"},
			"the patch's code reaches into the test harness, so what its tests report may not be what its code does: calc/settle.go:18: ends the process (syscall.Exit)"},
		{&pb.Finding{Rule: "foreign-code", Path: "calc/half.go", Line: 4, Detail: "changes lines 4-6 of the cgo preamble"},
			"the patch changes code the gate cannot judge (neither measured nor mutated): calc/half.go:4: changes lines 4-6 of the cgo preamble"},
		{&pb.Finding{Rule: "probe", Path: "calc/calc.go", Line: 3, Detail: "uses testing.Testing"}, "probes where it runs"},
		{&pb.Finding{Rule: "test-harness", Path: "calc/x_test.go", Line: 3, Detail: "declares TestMain"}, ""},
	} {
		t.Run(tc.finding.Rule, func(t *testing.T) {
			b := newRun(t, []string{claim}, 0, 0)
			b.recs[2].Record.GetTreesMaterialized().Findings = []*pb.Finding{tc.finding}
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
			v, _ := decide(t, b)
			if tc.says == "" {
				if v.Decision != Merge {
					t.Fatalf("got %s (%s), want MERGE", v.Decision, v.Reason)
				}
				return
			}
			if v.Decision != Inconclusive || !strings.Contains(v.Reason, tc.says) {
				t.Fatalf("got %s (%s), want INCONCLUSIVE saying %q", v.Decision, v.Reason, tc.says)
			}
		})
	}
}

// TestRunNamesDroppedHarness: a claim judged without the test files the
// patch adds that control the harness says so, naming them.
func TestRunNamesDroppedHarness(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	patch := claimSpec(claim, jobs.Patch)
	patch.Drop = []string{"calc/zz_test.go"}
	b.planJobs(claimSpec(claim, jobs.Baseline), patch, collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(patch, jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
	v, a := decide(t, b)
	if v.Decision != Merge || !strings.Contains(a.Claims[0].Reason, "judged without the test files the patch adds that control the test harness: calc/zz_test.go") {
		t.Fatalf("got %s, claim reason %q", v.Decision, a.Claims[0].Reason)
	}
}

func TestRunDefaultFloorsWaitForMeasurements(t *testing.T) {
	b := newRun(t, []string{claim}, criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
	if p := Read("run-1", b.recs).Pending(); !slices.Equal(p, []string{"coverage.measured", "strength.measured"}) {
		t.Fatalf("pending %v", p)
	}
	b.add(&pb.Record{Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{
		Source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, Reason: "the coverage build of ./calc failed"}}})
	b.add(&pb.Record{Body: &pb.Record_StrengthMeasured{StrengthMeasured: &pb.StrengthMeasured{
		Source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, Confidence: 0.8, Reason: "no coverage to find mutants with"}}})
	v, a := decide(t, b)
	if v.Decision != Inconclusive || !v.FixProven || !strings.Contains(v.Reason, "diff coverage was not measured (the coverage build of ./calc failed)") {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	if a.Coverage.Ratio != nil || a.Coverage.Source != None || !a.Coverage.Required || a.Strength.WilsonLower != nil {
		t.Fatalf("not measured must stay null: %+v %+v", a.Coverage, a.Strength)
	}
	validate(t, a)
}

func measured(b *runBuilder, ratio float64, uncovered []uint32, killed, survived uint32) {
	cov := &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Ratio: &ratio, ChangedLines: 4,
		CoveredLines: 4 - uint32(len(uncovered)), DiffSha256: strings.Repeat("c", 64), ProfileSha256: strings.Repeat("f", 64)}
	for _, l := range uncovered {
		cov.Uncovered = append(cov.Uncovered, &pb.LineRef{Path: "calc/calc.go", Line: l})
	}
	b.add(&pb.Record{Body: &pb.Record_CoverageMeasured{CoverageMeasured: cov}})
	st := &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Killed: killed, Survived: survived, Confidence: 0.8}
	for i := uint32(0); i < survived; i++ {
		st.Mutants = append(st.Mutants, &pb.Mutant{Id: fmt.Sprint(i + 1), At: &pb.LineRef{Path: "calc/calc.go", Line: 3}, Description: "< → <=", Status: "survived"})
	}
	b.add(&pb.Record{Body: &pb.Record_StrengthMeasured{StrengthMeasured: st}})
}

func TestRunMeasurementsDecide(t *testing.T) {
	cases := []struct {
		name      string
		ratio     float64
		uncovered []uint32
		killed    uint32
		survived  uint32
		complete  bool
		want      Decision
		reason    string
	}{
		{"covered and strong", 1, nil, 5, 0, false, Merge, "strength lower bound 0.753"},
		{"uncovered lines are named", 0.5, []uint32{7, 9}, 5, 0, false, Inconclusive, "uncovered: calc/calc.go:7, calc/calc.go:9"},
		{"4 of 4 is below the Wilson floor", 1, nil, 4, 0, false, Inconclusive, "4 of 4 mutants killed"},
		{"4 of 4, every mutant the change offers", 1, nil, 4, 0, true, Merge, ""},
		{"survivors", 1, nil, 5, 2, false, Inconclusive, "5 of 7 mutants killed"},
		{"survivors of every mutant the change offers", 1, nil, 3, 1, true, Inconclusive, "3 of 4 mutants killed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newRun(t, []string{claim}, criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor)
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
			measured(b, c.ratio, c.uncovered, c.killed, c.survived)
			b.recs[len(b.recs)-1].Record.GetStrengthMeasured().Complete = c.complete
			v, a := decide(t, b)
			if v.Decision != c.want || !strings.Contains(v.Reason, c.reason) {
				t.Fatalf("got %s: %s", v.Decision, v.Reason)
			}
			// What the census found is in the artefact, for anyone who
			// recomputes the floor.
			if a.Strength.Complete != c.complete {
				t.Fatalf("artefact strength complete %v, want %v", a.Strength.Complete, c.complete)
			}
			if c.survived > 0 && len(a.Strength.Survivors) != int(c.survived) {
				t.Fatalf("survivors %v", a.Strength.Survivors)
			}
			validate(t, a)
		})
	}
}

func TestRunDeletedSourceIsNotMerged(t *testing.T) {
	b := newRun(t, []string{claim}, criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor)
	b.recs[2].Record.GetTreesMaterialized().Changes = append(b.recs[2].Record.GetTreesMaterialized().Changes,
		&pb.FileChange{Path: "calc/old.go", Change: pb.ChangeKind_CHANGE_KIND_DELETED, Class: pb.FileClass_FILE_CLASS_SOURCE})
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
	measured(b, 1, nil, 8, 0)
	v, _ := decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "calc/old.go (deleted)") {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
}

func TestRunCollateralRegressionBlocks(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomeFail, "m/calc.TestMedian=pass", "m/calc.TestMean=fail")
	r := Read("run-1", b.recs)
	if p := r.Pending(); !slices.Equal(p, []string{"job collateral/baseline/.:./... (due, never planned)"}) {
		t.Fatalf("a suite owes its baseline run: %v", p)
	}
	b.planJobs(collSpec(jobs.Baseline))
	b.answer(collSpec(jobs.Baseline), jobs.OutcomeFail, "m/calc.TestMedian=fail", "m/calc.TestMean=pass")
	v, a := decide(t, b)
	if v.Decision != Block || !strings.Contains(v.Reason, "m/calc.TestMean") || !slices.Equal(a.Collateral.Regressions, []string{"m/calc.TestMean"}) {
		t.Fatalf("got %s: %s; regressions %v", v.Decision, v.Reason, a.Collateral.Regressions)
	}
	validate(t, a)
}

func TestRunMissingAtDeadlineIsInconclusive(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	r := Read("run-1", b.recs)
	missing := r.Pending()
	if len(missing) != 3 {
		t.Fatalf("pending %v", missing)
	}
	e := r.Gather(missing)
	v := Decide(r.Policy(), e)
	if v.Decision != Inconclusive || v.FixProven {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	a := r.BuildArtefact(v, e)
	if len(a.Missing) != 3 || a.Claims[0].Classification != NotExecuted {
		t.Fatalf("artefact missing %v, claim %+v", a.Missing, a.Claims[0])
	}
	validate(t, a)
}

func TestRunDeferredPrereqFailureIsNotExecuted(t *testing.T) {
	const added = "go:./calc:TestNew"
	then := claimSpec(added, jobs.Patch)
	pre := &jobs.Spec{Purpose: jobs.Prereq, Side: jobs.Patch, Claim: added, Tree: jobs.TreeOracle, Module: ".", Package: "./calc", Tests: []string{"TestOld"}, Then: then}
	b := newRun(t, []string{added}, 0, 0)
	b.planJobs(claimSpec(added, jobs.Baseline), pre, collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(added, jobs.Baseline), jobs.OutcomeAbsent)
	b.answer(pre, jobs.OutcomeFail)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestOld=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestOld=pass")
	v, a := decide(t, b)
	if v.Decision != Inconclusive || a.Claims[0].Classification != NotExecuted || a.Claims[0].Oracle != "baseline-file" {
		t.Fatalf("got %s: %s; claim %+v", v.Decision, v.Reason, a.Claims[0])
	}
	validate(t, a)
}

func TestRunNoClaimsDiscoversNothingIsInconclusive(t *testing.T) {
	b := newRun(t, nil, 0, 0)
	disc := func(side string) *jobs.Spec {
		tree := jobs.TreeOracle
		if side == jobs.Baseline {
			tree = jobs.TreeBaseline
		}
		return &jobs.Spec{Purpose: jobs.Discovery, Side: side, Tree: tree, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	}
	b.planJobs(disc(jobs.Baseline), disc(jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(disc(jobs.Baseline), jobs.OutcomePass, "m/calc.TestA=pass")
	b.answer(disc(jobs.Patch), jobs.OutcomePass, "m/calc.TestA=pass")
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestA=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestA=pass")
	v, a := decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "no claims") || a.Discovery == nil || len(a.Discovery.ClaimsAdded) != 0 {
		t.Fatalf("got %s: %s; discovery %+v", v.Decision, v.Reason, a.Discovery)
	}
	validate(t, a)
}

func TestClassifyTable(t *testing.T) {
	cases := []struct {
		base, patch string
		class       Class
		outcome     Outcome
	}{
		{jobs.OutcomeFail, jobs.OutcomePass, Fixed, Verified},
		{jobs.OutcomePass, jobs.OutcomePass, NoRegression, Verified},
		{jobs.OutcomeAbsent, jobs.OutcomePass, Discarded, Verified},
		{jobs.OutcomePass, jobs.OutcomeFail, Regression, Refuted},
		{jobs.OutcomeAbsent, jobs.OutcomeFail, NewBug, Refuted},
		{jobs.OutcomeFail, jobs.OutcomeFail, IncompleteFix, Refuted},
		{jobs.OutcomePass, jobs.OutcomeTimeout, Hang, Refuted},
		{jobs.OutcomeFail, jobs.OutcomeTimeout, Flaky, Unverified},
		{jobs.OutcomeTimeout, jobs.OutcomePass, Flaky, Unverified},
		{jobs.OutcomeFlaky, jobs.OutcomePass, Flaky, Unverified},
		{jobs.OutcomeFail, jobs.OutcomeUnrunnable, Unrunnable, Unverified},
		{jobs.OutcomeFail, jobs.OutcomeAbsent, Unrunnable, Unverified},
		{jobs.OutcomeFail, jobs.OutcomeNotRun, Invalid, Unverified},
		{jobs.OutcomeInvalid, jobs.OutcomePass, Invalid, Unverified},
		{"", jobs.OutcomePass, Invalid, Unverified},
		{jobs.OutcomeAbsent, jobs.OutcomeAbsent, Unrunnable, Unverified},
	}
	for _, c := range cases {
		class, out := Classify(c.base, c.patch)
		if class != c.class || out != c.outcome {
			t.Errorf("Classify(%q, %q) = %s/%s, want %s/%s", c.base, c.patch, class, out, c.class, c.outcome)
		}
	}
}

// validate checks the artefact against docs/artefact.schema.json.
func validate(t *testing.T, a *Artefact) {
	t.Helper()
	raw, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, raw, "")
}

func TestRunCollateralComparedAlways(t *testing.T) {
	// The patch's suite is green on its own terms, but a test that passes
	// on the baseline is gone (skipped by the patch, or never run): the
	// patch is not judged whole.
	for _, c := range []struct {
		name, onPatch string
		want          Decision
		reason        string
	}{
		{"skipped on the patch", "skip", Inconclusive, "did not pass on the patch, nor fail: skipped, missing or not run: m/calc.TestMean"},
		{"missing on the patch", "", Inconclusive, "did not pass on the patch, nor fail: skipped, missing or not run: m/calc.TestMean"},
		{"failing on the patch", "fail", Block, "breaks 1 test(s) that pass on the baseline: m/calc.TestMean"},
		{"passing on the patch", "pass", Merge, "the full suite passes on the patch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newRun(t, []string{claim}, 0, 0)
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			patch := []string{"m/calc.TestMedian=pass"}
			if c.onPatch != "" {
				patch = append(patch, "m/calc.TestMean="+c.onPatch)
			}
			outcome := jobs.OutcomePass
			if c.onPatch == "fail" {
				outcome = jobs.OutcomeFail
			}
			b.answer(collSpec(jobs.Patch), outcome, patch...)
			b.answer(collSpec(jobs.Baseline), jobs.OutcomeFail, "m/calc.TestMedian=fail", "m/calc.TestMean=pass")
			v, a := decide(t, b)
			if v.Decision != c.want || !strings.Contains(v.Reason, c.reason) {
				t.Fatalf("got %s: %s", v.Decision, v.Reason)
			}
			validate(t, a)
		})
	}
}

// TestRunUnjudgeableContentIsInconclusive: content the checkout recorded as
// not materialized makes the run INCONCLUSIVE naming it, even with every
// claim fixed and every floor met.
func TestRunUnjudgeableContentIsInconclusive(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.recs[2].Record.GetTreesMaterialized().Unjudgeable = []*pb.UnjudgeableContent{{Path: "lib", Why: `the patch moves submodule "lib" from commit aa to bb`}}
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
	v, a := decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, `submodule "lib"`) || v.FixProven {
		t.Fatalf("got %s (fix proven %v): %s", v.Decision, v.FixProven, v.Reason)
	}
	validate(t, a)
}

func TestRunEditedTestFailingIsForAHuman(t *testing.T) {
	// A baseline test the patch edits (its helper, here) fails on the
	// patch: the patch changes what it pins. Not a breakage the gate can
	// call, nor a pass: INCONCLUSIVE, with the test for a human to review.
	// A test the patch did not edit failing stays a regression (BLOCK).
	for _, c := range []struct {
		failing string
		want    Decision
	}{{"m/calc.TestPinned", Inconclusive}, {"m/calc.TestOther", Block}} {
		b := newRun(t, []string{claim}, 0, 0)
		b.recs[2].Record.GetTreesMaterialized().EditedTests = []string{"m/calc.TestPinned"}
		b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
		b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
		b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
		patch := []string{"m/calc.TestPinned=pass", "m/calc.TestOther=pass"}
		for i, p := range patch {
			if strings.HasPrefix(p, c.failing+"=") {
				patch[i] = c.failing + "=fail"
			}
		}
		b.answer(collSpec(jobs.Patch), jobs.OutcomeFail, patch...)
		b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestPinned=pass", "m/calc.TestOther=pass")
		v, a := decide(t, b)
		if v.Decision != c.want {
			t.Fatalf("%s failing: got %s: %s", c.failing, v.Decision, v.Reason)
		}
		if c.want == Inconclusive && (!strings.Contains(v.Reason, "changes what they pin") || !slices.Contains(v.NextSteps, NextStep{HumanReviewTestEdit, c.failing}) ||
			!v.FixProven || !slices.Equal(a.Collateral.Repinned, []string{c.failing})) {
			t.Fatalf("got %s (fix proven %v, steps %v, repinned %v)", v.Reason, v.FixProven, v.NextSteps, a.Collateral.Repinned)
		}
		validate(t, a)
	}
}

func TestRunClaimNeedingTheFixtureItChangedIsUnverified(t *testing.T) {
	// A new test that reads a fixture the patch changes fails on the patch
	// with the baseline's fixture put back: not a refutation (the fix may
	// need its fixture), not a pass.
	b := newRun(t, []string{claim}, 0, 0)
	b.recs[2].Record.GetTreesMaterialized().OracleRestored = []string{"calc/testdata/golden.txt"}
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeAbsent)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomeFail)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMean=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMean=pass")
	v, a := decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "calc/testdata/golden.txt") {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	validate(t, a)
	// Without changed test data the same failure refutes the claim.
	b = newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeAbsent)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomeFail)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMean=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMean=pass")
	if v, _ := decide(t, b); v.Decision != Block {
		t.Fatalf("without changed test data: %s: %s", v.Decision, v.Reason)
	}
}

// TestRunRedTestTurnedGreenBySupportThePatchChanged: a test red on the
// baseline that passes on the patch, unclaimed, while the patch changes a
// golden file only tests read, proves nothing: the patch may have
// rewritten its oracle. The honest twins: the same test claimed (its
// counterfactual run judges it), the same turn to green without changed
// test support, and a golden file production code reads.
func TestRunRedTestTurnedGreenBySupportThePatchChanged(t *testing.T) {
	golden := "calc/golden/median.txt"
	run := func(t *testing.T, counterfactual, referenced []string, claims ...string) Verdict {
		b := newRun(t, []string{claim}, 0, 0)
		tm := b.recs[2].Record.GetTreesMaterialized()
		tm.Counterfactual, tm.DataReferenced = counterfactual, referenced
		specs := []*jobs.Spec{claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline)}
		for i := range specs[:2] {
			specs[i].ImportPath = "m/calc"
			specs[i].Tests = append(specs[i].Tests, claims...)
		}
		b.planJobs(specs...)
		b.answer(specs[0], jobs.OutcomeFail)
		b.answer(specs[1], jobs.OutcomePass)
		b.answer(specs[2], jobs.OutcomePass, "m/calc.TestMedian=pass", "m/calc.TestMedianGolden=pass", "m/calc.TestMean=pass")
		b.answer(specs[3], jobs.OutcomeFail, "m/calc.TestMedian=fail", "m/calc.TestMedianGolden=fail", "m/calc.TestMean=pass")
		v, a := decide(t, b)
		validate(t, a)
		return v
	}
	v := run(t, []string{golden}, nil)
	if v.Decision != Inconclusive || !strings.Contains(v.Reason, "m/calc.TestMedianGolden") || !strings.Contains(v.Reason, golden) || strings.Contains(v.Reason, "m/calc.TestMedian,") {
		t.Fatalf("attack: %s: %s", v.Decision, v.Reason)
	}
	if v := run(t, []string{golden}, nil, "TestMedianGolden"); v.Decision != Merge {
		t.Fatalf("claimed: %s: %s", v.Decision, v.Reason)
	}
	if v := run(t, nil, nil); v.Decision != Merge {
		t.Fatalf("no changed test support: %s: %s", v.Decision, v.Reason)
	}
	if v := run(t, []string{golden}, []string{golden}); v.Decision != Merge {
		t.Fatalf("data production code reads: %s: %s", v.Decision, v.Reason)
	}
}

// TestRunUnwitnessedAndUnjudgedStrength: the strength record's changed
// data lines no killed mutant witnesses, and its mutants no test could
// judge, reach the artefact and make strength unverified whatever the
// ratio.
func TestRunUnwitnessedAndUnjudgedStrength(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*pb.StrengthMeasured)
		reason string
	}{
		{"unwitnessed data", func(m *pb.StrengthMeasured) {
			m.Unwitnessed = []*pb.LineRef{{Path: "calc/allow.txt", Line: 3}}
		}, "no test notices a change to calc/allow.txt:3"},
		{"unjudged mutant", func(m *pb.StrengthMeasured) {
			m.Stillborn = 1
			m.Mutants = append(m.Mutants, &pb.Mutant{Id: "9", At: &pb.LineRef{Path: "calc/mode.go", Line: 7}, Description: "< → <=", Status: "unjudged"})
		}, "no test that reaches calc/mode.go:7 < → <="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newRun(t, []string{claim}, criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor)
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass")
			measured(b, 1, nil, 20, 0)
			tc.edit(b.recs[len(b.recs)-1].Record.GetStrengthMeasured())
			v, a := decide(t, b)
			if v.Decision != Inconclusive || !strings.Contains(v.Reason, tc.reason) {
				t.Fatalf("got %s: %s", v.Decision, v.Reason)
			}
			if len(a.Strength.Unwitnessed)+len(a.Strength.Unjudged) != 1 {
				t.Fatalf("artefact strength %+v", a.Strength)
			}
			validate(t, a)
		})
	}
}

// TestRunFailedIsDecidedNow: a service's run.failed makes the run decidable
// at once — INCONCLUSIVE naming the failure and what is missing — and never
// hides a BLOCK the evidence already shows; its honest twin, the same
// evidence without the failure, still merges.
func TestRunFailedIsDecidedNow(t *testing.T) {
	failed := func(b *runBuilder) {
		b.add(&pb.Record{Body: &pb.Record_RunFailed{RunFailed: &pb.RunFailed{Service: "executor", FailedKind: "job.planned", FailedRecord: b.plan, Reason: "blob store: connection refused", Attempts: 4}}})
	}
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail, "TestMedian=fail")
	failed(b)
	r := Read("run-1", b.recs)
	if len(r.Failures) != 1 {
		t.Fatalf("failures %v", r.Failures)
	}
	e := r.Gather(r.Pending())
	v := Decide(r.Policy(), e)
	if v.Decision != Inconclusive || !strings.Contains(strings.Join(v.Reasons, "\n"), "a service failed on this run: executor could not handle job.planned") {
		t.Fatalf("got %s: %v", v.Decision, v.Reasons)
	}
	validate(t, r.BuildArtefact(v, e))

	// A refuted claim stays a BLOCK.
	b = newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail, "TestMedian=fail")
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomeFail, "TestMedian=fail")
	failed(b)
	r = Read("run-1", b.recs)
	if v := Decide(r.Policy(), r.Gather(r.Pending())); v.Decision != Block {
		t.Fatalf("a refuted claim with a failure: %s: %s", v.Decision, v.Reason)
	}

	// The twin: every answer there, no failure.
	b = newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail, "TestMedian=fail")
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass, "TestMedian=pass")
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "TestMedian=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomeFail, "TestMedian=fail")
	if v, _ := decide(t, b); v.Decision != Merge {
		t.Fatalf("the twin: %s: %s", v.Decision, v.Reason)
	}
	failed(b)
	r = Read("run-1", b.recs)
	if v := Decide(r.Policy(), r.Gather(r.Pending())); v.Decision != Inconclusive {
		t.Fatalf("the twin with a failure: %s: %s", v.Decision, v.Reason)
	}
}

// TestRunEditedClaimRepinnedIsForAHuman: the patch edits a claimed test so
// that its baseline's version fails on the patch — it drops or corrects a
// row pinning the old behaviour (fastjson v1.6.4 turns ParseBestEffort("12.")
// from 0 into 12 and rewrites that row) — while the patch's version of the
// test fails on the baseline and passes on the patch. A fix correcting an
// old expectation and a breakage dropping the row that shows it look the
// same: INCONCLUSIVE for a human, never BLOCK, never MERGE. When the
// patch's own version fails on the patch too, the claim stays refuted; and
// so it does when a test failing on both sides is rewritten into one that
// passes on the baseline too (it pins the bug).
func TestRunEditedClaimRepinnedIsForAHuman(t *testing.T) {
	edited := func(side string) *jobs.Spec {
		s := claimSpec(claim, side)
		s.Purpose, s.Splice = jobs.Edited, []string{"calc/median_test.go#TestMedian"}
		return s
	}
	for _, c := range []struct {
		name                    string
		base, patch             string // the baseline's version of the test
		editedBase, editedPatch string // the patch's version
		want                    Decision
		class                   Class
	}{
		{"old pin corrected", jobs.OutcomePass, jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomePass, Inconclusive, Repinned},
		{"old pin dropped", jobs.OutcomePass, jobs.OutcomeFail, jobs.OutcomePass, jobs.OutcomePass, Inconclusive, Repinned},
		{"failing old expectation rewritten", jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomePass, Inconclusive, Repinned},
		{"its own version fails on the patch", jobs.OutcomePass, jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomeFail, Block, Regression},
		// The claimed test fails on both sides, and the patch rewrites its
		// assertion to expect the buggy value: its own version passes on
		// the baseline too. It pins what the bug does: refuted.
		{"assertion rewritten to the bug", jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomePass, jobs.OutcomePass, Block, IncompleteFix},
		// Its own version could not run on the patch (laid over the
		// baseline's file it did not build): unknown, never a refutation.
		{"its own version unrunnable", jobs.OutcomePass, jobs.OutcomeFail, jobs.OutcomeAbsent, jobs.OutcomeUnrunnable, Inconclusive, NotExecuted},
		// Not certain before its own version ran: no early BLOCK.
		{"its own version not run yet", jobs.OutcomePass, jobs.OutcomeFail, "", "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newRun(t, []string{claim}, 0, 0)
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), edited(jobs.Baseline), edited(jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), c.base)
			b.answer(claimSpec(claim, jobs.Patch), c.patch)
			if c.editedBase != "" {
				b.answer(edited(jobs.Baseline), c.editedBase)
				b.answer(edited(jobs.Patch), c.editedPatch)
			}
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMean=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMean=pass")
			if c.editedBase == "" {
				if why := CertainBlock("run-1", b.recs); why != "" {
					t.Fatalf("certain BLOCK before the patch's version ran: %s", why)
				}
				return
			}
			v, a := decide(t, b)
			if v.Decision != c.want || a.Claims[0].Classification != c.class {
				t.Fatalf("got %s, claim %s: %s", v.Decision, a.Claims[0].Classification, v.Reason)
			}
			if c.class == Repinned && (!strings.Contains(v.Reason, "changes what it pins") || !slices.Contains(v.NextSteps, NextStep{HumanReviewTestEdit, claim}) || v.FixProven) {
				t.Fatalf("repinned claim: %s (steps %v, fix proven %v)", v.Reason, v.NextSteps, v.FixProven)
			}
			validate(t, a)
		})
	}
}

// TestRunCollateralSubtests: the suites list subtests beside their
// top-level tests. A subtest that passes on the baseline and is skipped on
// the patch, under a parent that still passes, is missing; so is one gone
// when fewer subtests of its top-level test pass (not when as many pass:
// renamed); a subtest under a parent that fails or is gone is left to the
// parent; only top-level tests are counted.
func TestRunCollateralSubtests(t *testing.T) {
	base := []string{"m/calc.TestMedian=pass", "m/units.TestToMeters=pass", "m/units.TestToMeters/ft=pass", "m/units.TestToMeters/in=pass",
		"m/units.TestToMeters/in/big=pass", "m/units.TestRound=pass", "m/units.TestRound/half=pass"}
	for _, c := range []struct {
		name     string
		patch    []string
		decision Decision
		missing  []string
		regress  []string
	}{
		{name: "every subtest passes, and one more", decision: Merge,
			patch: []string{"m/calc.TestMedian=pass", "m/units.TestToMeters=pass", "m/units.TestToMeters/ft=pass", "m/units.TestToMeters/in=pass",
				"m/units.TestToMeters/in/big=pass", "m/units.TestToMeters/yd=pass", "m/units.TestRound=pass", "m/units.TestRound/half=pass"}},
		{name: "a subtest skipped, one gone", decision: Inconclusive, missing: []string{"m/units.TestToMeters/ft", "m/units.TestToMeters/in/big"},
			patch: []string{"m/calc.TestMedian=pass", "m/units.TestToMeters=pass", "m/units.TestToMeters/ft=skip", "m/units.TestToMeters/in=pass",
				"m/units.TestRound=pass", "m/units.TestRound/half=pass"}},
		{name: "a subtest renamed: as many pass under its test", decision: Merge,
			patch: []string{"m/calc.TestMedian=pass", "m/units.TestToMeters=pass", "m/units.TestToMeters/feet=pass", "m/units.TestToMeters/in=pass",
				"m/units.TestToMeters/in/big=pass", "m/units.TestRound=pass", "m/units.TestRound/half=pass"}},
		{name: "duplicates of one subtest do not stand in for others gone", decision: Inconclusive,
			missing: []string{"m/units.TestToMeters/ft", "m/units.TestToMeters/in/big"},
			patch: []string{"m/calc.TestMedian=pass", "m/units.TestToMeters=pass", "m/units.TestToMeters/in=pass", "m/units.TestToMeters/in#01=pass",
				"m/units.TestToMeters/in#02=pass", "m/units.TestRound=pass", "m/units.TestRound/half=pass"}},
		{name: "a parent fails with its subtest", decision: Block, regress: []string{"m/units.TestRound"},
			patch: []string{"m/calc.TestMedian=pass", "m/units.TestToMeters=pass", "m/units.TestToMeters/ft=pass", "m/units.TestToMeters/in=pass",
				"m/units.TestToMeters/in/big=pass", "m/units.TestRound=fail", "m/units.TestRound/half=fail"}},
		{name: "a parent gone with its subtests", decision: Inconclusive, missing: []string{"m/units.TestToMeters"},
			patch: []string{"m/calc.TestMedian=pass", "m/units.TestRound=pass", "m/units.TestRound/half=pass"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newRun(t, []string{claim}, 0, 0)
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			outcome := jobs.OutcomePass
			if c.regress != nil {
				outcome = jobs.OutcomeFail
			}
			b.answer(collSpec(jobs.Patch), outcome, c.patch...)
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, base...)
			v, a := decide(t, b)
			if v.Decision != c.decision || !slices.Equal(a.Collateral.Missing, c.missing) || !slices.Equal(a.Collateral.Regressions, c.regress) {
				t.Fatalf("got %s: %s; missing %v, regressions %v", v.Decision, v.Reason, a.Collateral.Missing, a.Collateral.Regressions)
			}
			top := 0
			for _, p := range c.patch {
				if !strings.Contains(strings.SplitN(p, ".Test", 2)[1], "/") {
					top++
				}
			}
			if a.Collateral.Tests == nil || *a.Collateral.Tests != top {
				t.Fatalf("tests %v, want the %d top-level tests", a.Collateral.Tests, top)
			}
			validate(t, a)
		})
	}
}

// TestRunCollateralDuplicateSubtestDropped: the baseline runs one subtest
// name twice (upper, upper#01); the honest fix drops the duplicate row:
// upper#01 is gone while upper passes, and nothing is missing.
func TestRunCollateralDuplicateSubtestDropped(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass", "m/codec.TestCodecs=pass", "m/codec.TestCodecs/upper=pass", "m/codec.TestCodecs/lower=pass")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMedian=pass", "m/codec.TestCodecs=pass", "m/codec.TestCodecs/upper=pass",
		"m/codec.TestCodecs/upper#01=pass", "m/codec.TestCodecs/lower=pass")
	v, a := decide(t, b)
	if v.Decision != Merge || len(a.Collateral.Missing) != 0 {
		t.Fatalf("got %s: %s; missing %v", v.Decision, v.Reason, a.Collateral.Missing)
	}
	for name, want := range map[string]string{"p.TestX/upper#01": "p.TestX/upper", "p.TestX/upper#1a": "p.TestX/upper#1a", "p.TestX/a#1/b": "p.TestX/a#1/b", "p.TestX/#": "p.TestX/#", "p.TestX/x#12": "p.TestX/x"} {
		if got := undeduplicated(name); got != want {
			t.Errorf("undeduplicated(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestRunSubtestOnlyInThePatch: the patch adds a subtest (a t.Run row) to a
// test it edits, and the claim names it. Run with the baseline's test
// files, the claim matches nothing on either side; the patch's version of
// the test fails on the baseline and passes on the patch: the fix is
// proven, as an added test proves it. When the patch's version passes on
// the baseline too, no fix is proven (a claim passing on both sides); a
// subtest missing for another reason (the run died) stays unrunnable.
func TestRunSubtestOnlyInThePatch(t *testing.T) {
	const sub = "go:./calc:TestMedian/even"
	spec := func(purpose, side string) *jobs.Spec {
		s := claimSpec(sub, side)
		s.Purpose = purpose
		if purpose == jobs.Edited {
			s.Splice = []string{"calc/median_test.go#TestMedian"}
		}
		return s
	}
	unmatched := func(b *runBuilder, s *jobs.Spec, reason string) {
		d := &jobs.Detail{Outcome: jobs.OutcomeUnrunnable, Reason: reason, Runs: []jobs.Run{{Verdict: jobs.OutcomeUnrunnable, WallMillis: 100}}}
		raw, _ := d.Marshal()
		b.add(&pb.Record{Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: s.ID(), Termination: pb.Termination_TERMINATION_EXITED, Detail: raw,
			Sandbox: &pb.Sandbox{Name: "bwrap", EnvNames: []string{"PATH"}}}}})
	}
	matched := "TestMedian/even: NOT_RUN: no event for \"TestMedian/even\"; package pass, exit 0; " + jobs.NoTestsMatched
	for _, c := range []struct {
		name                    string
		reason                  string
		editedBase, editedPatch string
		want                    Decision
		class                   Class
	}{
		{"fails on the baseline, passes on the patch", matched, jobs.OutcomeFail, jobs.OutcomePass, Merge, Fixed},
		{"passes on both sides", matched, jobs.OutcomePass, jobs.OutcomePass, Merge, NoRegression},
		{"the run died", "TestMedian/even: the test binary exited 2", jobs.OutcomeFail, jobs.OutcomePass, Inconclusive, Unrunnable},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newRun(t, []string{sub}, 0, 0)
			b.planJobs(spec(jobs.Claim, jobs.Baseline), spec(jobs.Claim, jobs.Patch), spec(jobs.Edited, jobs.Baseline), spec(jobs.Edited, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
			unmatched(b, spec(jobs.Claim, jobs.Baseline), c.reason)
			unmatched(b, spec(jobs.Claim, jobs.Patch), c.reason)
			b.answer(spec(jobs.Edited, jobs.Baseline), c.editedBase)
			b.answer(spec(jobs.Edited, jobs.Patch), c.editedPatch)
			b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMean=pass")
			b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMean=pass")
			v, a := decide(t, b)
			if v.Decision != c.want || a.Claims[0].Classification != c.class || v.FixProven != (c.class == Fixed) {
				t.Fatalf("got %s, claim %s, fix proven %v: %s", v.Decision, a.Claims[0].Classification, v.FixProven, v.Reason)
			}
			validate(t, a)
		})
	}
}

// TestRunWrittenTestsFailing: the patch's own test files, run as it wrote
// them (a written job), against the suite, which ran the baseline's. A
// test failing there and not in the suite (a helper the patch broke, a
// test it added that fails) is INCONCLUSIVE naming it; a failure the
// suite shares is the suite's to judge; a run that names no failing test
// (its files do not build, a timeout) is no result; a green run changes
// nothing. One never answered is waited for like any job.
func TestRunWrittenTestsFailing(t *testing.T) {
	written := &jobs.Spec{Purpose: jobs.Written, Side: jobs.Patch, Tree: jobs.TreePatch, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	for _, c := range []struct {
		name    string
		outcome string
		cases   []string
		want    Decision
		reason  string
		failing []string
	}{
		{"green as written", jobs.OutcomePass, []string{"m/calc.TestMedian=pass", "m/calc.TestAdded=pass"}, Merge, "the full suite passes", nil},
		{"a helper the patch broke", jobs.OutcomeFail, []string{"m/calc.TestMedian=pass", "m/calc.TestMean=fail"}, Inconclusive, "1 test(s) fail on the patch's tree as the patch wrote it", []string{"m/calc.TestMean"}},
		{"an added test failing, flaky", jobs.OutcomeFail, []string{"m/calc.TestMedian=pass", "m/calc.TestAdded=" + jobs.CaseFlaky}, Inconclusive, "m/calc.TestAdded", []string{"m/calc.TestAdded"}},
		{"a failure the suite shares", jobs.OutcomeFail, []string{"m/calc.TestMedian=pass", "m/calc.TestNet=fail"}, Inconclusive, "red on both sides", nil},
		{"does not build", jobs.OutcomeFail, nil, Inconclusive, "as the patch wrote it, gave no result: m/calc", nil},
		{"timed out", jobs.OutcomeTimeout, nil, Inconclusive, "m/calc: TIMEOUT", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newRun(t, []string{claim}, 0, 0)
			b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline), written)
			b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
			b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
			suite, outcome := []string{"m/calc.TestMedian=pass", "m/calc.TestMean=pass"}, jobs.OutcomePass
			if c.name == "a failure the suite shares" {
				suite, outcome = append(suite, "m/calc.TestNet=fail"), jobs.OutcomeFail
			}
			b.answer(collSpec(jobs.Patch), outcome, suite...)
			b.answer(collSpec(jobs.Baseline), outcome, slices.Clone(suite)...)
			b.answer(written, c.outcome, c.cases...)
			v, a := decide(t, b)
			if v.Decision != c.want || !strings.Contains(strings.Join(v.Reasons, "\n")+v.Reason, c.reason) {
				t.Fatalf("got %s: %s %v", v.Decision, v.Reason, v.Reasons)
			}
			if !slices.Equal(a.Collateral.WrittenFailing, c.failing) {
				t.Fatalf("written_failing %v, want %v", a.Collateral.WrittenFailing, c.failing)
			}
			validate(t, a)
		})
	}
}

// TestRunSuiteRedOnThePatchOnly: a suite red on the patch and green on the
// baseline with no baseline test failing (a test the patch adds fails) is
// INCONCLUSIVE, and says so: not "red on both sides".
func TestRunSuiteRedOnThePatchOnly(t *testing.T) {
	claim := "go:./calc:TestMedian"
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch), collSpec(jobs.Baseline))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomeFail, "m/calc.TestMedian=pass", "m/calc.TestMean=pass", "m/calc.TestAdded=fail")
	b.answer(collSpec(jobs.Baseline), jobs.OutcomePass, "m/calc.TestMean=pass")
	v, a := decide(t, b)
	if v.Decision != Inconclusive || !strings.Contains(strings.Join(v.Reasons, "\n"), "red on the patch and green on the baseline: 1 test(s) the baseline does not have fail on the patch: m/calc.TestAdded") {
		t.Fatalf("got %s: %s %v", v.Decision, v.Reason, v.Reasons)
	}
	validate(t, a)
}
