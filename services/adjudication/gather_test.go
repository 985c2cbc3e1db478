package adjudication

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
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
	c := &criteria.Criteria{
		Schema: criteria.Schema, RunID: "run-1", Repository: "/repo", Baseline: strings.Repeat("a", 40),
		PatchCommit: strings.Repeat("b", 40), PatchDigest: strings.Repeat("c", 64), Claims: claims, DiscoverClaims: len(claims) == 0,
		CoverageFloor: coverageFloor, StrengthFloor: strengthFloor, StrengthConfidence: 0.8, MutationMax: 20,
		DeadlineUnixMilli: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(),
	}
	c.ApplyDefaults()
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
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass", "m/calc.TestMean=pass")
	v, a := decide(t, b)
	if v.Decision != Merge || !v.FixProven || a.ExitCode != 0 {
		t.Fatalf("got %s (%s), fix proven %v", v.Decision, v.Reason, v.FixProven)
	}
	if a.Claims[0].Classification != Fixed || a.Claims[0].Oracle != "baseline" || *a.Collateral.Tests != 2 {
		t.Fatalf("artefact claim %+v, tests %v", a.Claims[0], a.Collateral.Tests)
	}
	if a.Timing.TestProcesses != 3 || a.Timing.TestProcessesMillis != 300 {
		t.Fatalf("timing %+v", a.Timing)
	}
	validate(t, a)
}

func TestRunDefaultFloorsAreInconclusiveUntilMeasured(t *testing.T) {
	b := newRun(t, []string{claim}, criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestMedian=pass")
	v, a := decide(t, b)
	if v.Decision != Inconclusive || !v.FixProven || !strings.Contains(v.Reason, "diff coverage was not measured") {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	if a.Coverage.Ratio != nil || a.Coverage.Source != None || !a.Coverage.Required || a.Strength.WilsonLower != nil {
		t.Fatalf("not measured must stay null: %+v %+v", a.Coverage, a.Strength)
	}
	validate(t, a)
}

func TestRunCollateralRegressionBlocks(t *testing.T) {
	b := newRun(t, []string{claim}, 0, 0)
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	b.answer(claimSpec(claim, jobs.Patch), jobs.OutcomePass)
	b.answer(collSpec(jobs.Patch), jobs.OutcomeFail, "m/calc.TestMedian=pass", "m/calc.TestMean=fail")
	r := Read("run-1", b.recs)
	if p := r.Pending(); !slices.Equal(p, []string{"job collateral/baseline/.:./... (due, never planned)"}) {
		t.Fatalf("a red suite must make the baseline suite due: %v", p)
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
	b.planJobs(claimSpec(claim, jobs.Baseline), claimSpec(claim, jobs.Patch), collSpec(jobs.Patch))
	b.answer(claimSpec(claim, jobs.Baseline), jobs.OutcomeFail)
	r := Read("run-1", b.recs)
	missing := r.Pending()
	if len(missing) != 2 {
		t.Fatalf("pending %v", missing)
	}
	e := r.Gather(missing)
	v := Decide(r.Policy(), e)
	if v.Decision != Inconclusive || v.FixProven {
		t.Fatalf("got %s: %s", v.Decision, v.Reason)
	}
	a := r.BuildArtefact(v, e)
	if len(a.Missing) != 2 || a.Claims[0].Classification != NotExecuted {
		t.Fatalf("artefact missing %v, claim %+v", a.Missing, a.Claims[0])
	}
	validate(t, a)
}

func TestRunDeferredPrereqFailureIsNotExecuted(t *testing.T) {
	const added = "go:./calc:TestNew"
	then := claimSpec(added, jobs.Patch)
	pre := &jobs.Spec{Purpose: jobs.Prereq, Side: jobs.Patch, Claim: added, Tree: jobs.TreeOracle, Module: ".", Package: "./calc", Tests: []string{"TestOld"}, Then: then}
	b := newRun(t, []string{added}, 0, 0)
	b.planJobs(claimSpec(added, jobs.Baseline), pre, collSpec(jobs.Patch))
	b.answer(claimSpec(added, jobs.Baseline), jobs.OutcomeAbsent)
	b.answer(pre, jobs.OutcomeFail)
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestOld=pass")
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
	b.planJobs(disc(jobs.Baseline), disc(jobs.Patch), collSpec(jobs.Patch))
	b.answer(disc(jobs.Baseline), jobs.OutcomePass, "m/calc.TestA=pass")
	b.answer(disc(jobs.Patch), jobs.OutcomePass, "m/calc.TestA=pass")
	b.answer(collSpec(jobs.Patch), jobs.OutcomePass, "m/calc.TestA=pass")
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
	if os.Getenv("TEST_SRCDIR") != "" {
		return // the schema file is outside the Bazel package
	}
	raw, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../../docs/artefact.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("artefact.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("artefact.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("artefact does not match its schema: %v\n%s", err, raw)
	}
}
