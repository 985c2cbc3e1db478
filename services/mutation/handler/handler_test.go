package handler

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/executortest"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/runtime/runtimetest"
	"github.com/sealgate/sealgate/services/work"
)

// TestHandle: given the records of a run, the mutation service plans
// mutants on the changed lines the coverage record says tests reach (once),
// runs the jobs of its own plan in a real sandbox, and records the
// strength once every job is answered; a run whose strength cannot be
// measured gets a "not measured" strength, while trees that do not rebuild
// fail the run for good.
func TestHandle(t *testing.T) {
	ctx := context.Background()
	executortest.Skip(t)
	e := executortest.New(t)
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	fix := repo.Patches[0]
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: repo.Base, PatchCommit: fix.Commit}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const test = "example.com/calc/calc.TestMedian"
	// covered is a run sealed with edit, its trees, the executor's coverage
	// plan and the coverage record of source: every changed line of
	// calc/median.go reached by TestMedian.
	covered := func(edit func(*criteria.Criteria), source pb.MeasurementSource) runtime.Run {
		c := &criteria.Criteria{RunID: "run-1", Repository: repo.Dir, Baseline: repo.Base, PatchCommit: fix.Commit, PatchDigest: co.DiffSHA256,
			Claims: fix.Claims, CoverageFloor: 1, StrengthFloor: 0.5, StrengthConfidence: 0.8, MutationMax: 3,
			DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
		c.ApplyDefaults()
		if edit != nil {
			edit(c)
		}
		run := runtimetest.Sealed(t, c, nil)
		trees := runtimetest.Sign(t, keyring.Checkout, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: []string{run.Seal.Digest},
			Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{BaselineTreeDigest: co.Baseline.Digest(), PatchTreeDigest: co.Patch.Digest()}}})
		spec := &jobs.Spec{Purpose: jobs.Coverage, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Package: "./calc", ImportPath: "example.com/calc/calc"}
		planned, err := jobs.Plan(run.Criteria, trees.Digest, criteria.BudgetTestRuns, []*jobs.Spec{spec})
		if err != nil {
			t.Fatal(err)
		}
		plan := runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: []string{trees.Digest},
			Body: &pb.Record_JobPlanned{JobPlanned: planned}})
		reach := &pb.ReachEntry{Test: test}
		for _, ch := range co.Changes {
			if ch.Path == "calc/median.go" {
				for _, l := range ch.ChangedLines {
					reach.Lines = append(reach.Lines, &pb.LineRef{Path: ch.Path, Line: uint32(l)})
				}
			}
		}
		if len(reach.Lines) == 0 {
			t.Fatalf("the honest fix changes no line of calc/median.go: %v", co.Changes)
		}
		cov := &pb.CoverageMeasured{Source: source, Reason: "as the test says", Reach: []*pb.ReachEntry{reach}}
		return runtimetest.With(t, run, trees, plan, runtimetest.Sign(t, keyring.Reach, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest,
			Body: &pb.Record_CoverageMeasured{CoverageMeasured: cov}}))
	}
	last := func(r runtime.Run) *record.Decoded { return r.Records[len(r.Records)-1] }
	computed := covered(nil, pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED)

	// Each step runs on what the one before emitted, with one handler, as
	// the service does: coverage → plan → results → strength.
	h := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir()}
	defer h.Close()
	rec := runtimetest.NewRecorder(t, keyring.Mutation)
	if err := h.Handle(ctx, last(computed), computed, rec.Emit); err != nil {
		t.Fatal(err)
	}
	if got := rec.Kinds(); !slices.Equal(got, []string{"job.planned"}) {
		t.Fatalf("the coverage made %q, want one plan", got)
	}
	plan := rec.Emitted()[0]
	mutants := plan.Record.GetJobPlanned().GetJobs()
	if len(mutants) == 0 || len(mutants) > 3 {
		t.Fatalf("%d mutants planned, want 1 to 3 (mutation_max 3)", len(mutants))
	}
	for _, j := range mutants {
		s, err := jobs.ParseSpec(j.Spec)
		if err != nil || s.Purpose != jobs.Mutant || s.Mutation == nil || s.Mutation.Path != "calc/median.go" || len(s.Targets) != 1 || !slices.Equal(s.Targets[0].Tests, []string{"TestMedian"}) {
			t.Fatalf("mutant job %s: %+v (%v)", j.JobId, s, err)
		}
	}
	planned := runtimetest.With(t, computed, plan)
	rec.Reset()
	if err := h.Handle(ctx, plan, planned, rec.Emit); err != nil {
		t.Fatal(err)
	}
	if got := rec.Kinds(); !slices.Equal(got, slices.Repeat([]string{"job.result"}, len(mutants))) {
		t.Fatalf("the plan made %q, want a result per mutant", got)
	}
	answered := runtimetest.With(t, planned, rec.Emitted()...)
	rec.Reset()
	if err := h.Handle(ctx, last(answered), answered, rec.Emit); err != nil {
		t.Fatal(err)
	}
	if got := rec.Kinds(); !slices.Equal(got, []string{"strength.measured"}) {
		t.Fatalf("the last result made %q, want the strength", got)
	}
	if m := rec.Emitted()[0].Record.GetStrengthMeasured(); m.Source != pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED || int(m.Killed+m.Survived+m.Stillborn) != len(mutants) || m.Confidence != 0.8 {
		t.Fatalf("strength %v", m)
	}
	inline := map[string]string{}
	for _, r := range answered.Records {
		if res := r.Record.GetJobResult(); res != nil {
			inline[res.JobId] = string(res.Detail)
		}
	}

	// The distributed mode: the plan's owner publishes the mutants; another
	// replica, which never planned them, plans again without emitting, runs
	// each it is handed and names itself; the results are the inline ones,
	// and the owner measures the strength from them.
	t.Run("dispatched: mutants run by another replica", func(t *testing.T) {
		var items []work.Item
		owner := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir(),
			Dispatch: func(_ context.Context, its []work.Item) error { items = append(items, its...); return nil }}
		defer owner.Close()
		own := runtimetest.NewRecorder(t, keyring.Mutation)
		if err := owner.Handle(ctx, plan, planned, own.Emit); err != nil {
			t.Fatal(err)
		}
		if len(own.Emitted()) != 0 || len(items) != len(mutants) {
			t.Fatalf("the owner emitted %d records and dispatched %d mutants, want none and %d", len(own.Emitted()), len(items), len(mutants))
		}
		other := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir(), Worker: "replica-2"}
		defer other.Close()
		out := runtimetest.NewRecorder(t, keyring.Mutation)
		for _, it := range items {
			p, job := work.Find(planned.Records, it)
			if job == nil {
				t.Fatalf("item %+v names no mutant of the plan", it)
			}
			if err := other.RunJob(ctx, runtime.Job{Run: planned, Plan: p, Job: job}, out.Emit); err != nil {
				t.Fatal(err)
			}
		}
		if len(out.Emitted()) != len(mutants) {
			t.Fatalf("%d results, want %d", len(out.Emitted()), len(mutants))
		}
		for _, r := range out.Emitted() {
			res := r.Record.GetJobResult()
			if res.GetWorker() != "replica-2" {
				t.Fatalf("mutant %s: worker %q", res.JobId, res.GetWorker())
			}
			if a, b := detailOutcome(t, inline[res.JobId]), detailOutcome(t, string(res.Detail)); a != b {
				t.Fatalf("mutant %s: %s on another replica, %s inline", res.JobId, b, a)
			}
		}
		done := runtimetest.With(t, planned, out.Emitted()...)
		own.Reset()
		if err := owner.Handle(ctx, last(done), done, own.Emit); err != nil {
			t.Fatal(err)
		}
		if got := own.Kinds(); !slices.Equal(got, []string{"strength.measured"}) {
			t.Fatalf("the last result made %q on the owner, want the strength", got)
		}
	})

	for _, tc := range []struct {
		name      string
		run       runtime.Run
		want      []string // kinds emitted
		reason    string   // of a strength not measured
		permanent bool
	}{
		{name: "coverage delivered again once the mutants are planned: nothing", run: runtimetest.With(t, planned, last(computed))},
		{name: "another service's plan is not the mutation service's to run",
			run: runtimetest.With(t, computed, runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: "run-1", Body: &pb.Record_JobPlanned{JobPlanned: plan.Record.GetJobPlanned()}}))},
		{name: "mutation switched off: not measured", run: covered(func(c *criteria.Criteria) { c.MutationMax = 0 }, pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED),
			want: []string{"strength.measured"}, reason: "mutation switched off"},
		{name: "no computed coverage: not measured", run: covered(nil, pb.MeasurementSource_MEASUREMENT_SOURCE_NONE),
			want: []string{"strength.measured"}, reason: "no computed diff coverage"},
		{name: "no strength floor sealed: nothing", run: covered(func(c *criteria.Criteria) { c.StrengthFloor = 0 }, pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED)},
		{name: "trees that do not rebuild fail the run for good",
			run: covered(func(c *criteria.Criteria) { c.Baseline = strings.Repeat("1", 40) }, pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED), permanent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir()}
			defer h.Close()
			rec := runtimetest.NewRecorder(t, keyring.Mutation)
			err := h.Handle(ctx, last(tc.run), tc.run, rec.Emit)
			if tc.permanent != (err != nil) || tc.permanent != runtime.IsPermanent(err) {
				t.Fatalf("err = %v, want a permanent failure: %v", err, tc.permanent)
			}
			if got := rec.Kinds(); !slices.Equal(got, tc.want) {
				t.Fatalf("emitted %q, want %q", got, tc.want)
			}
			if tc.reason != "" {
				if m := rec.Emitted()[0].Record.GetStrengthMeasured(); m.Source != pb.MeasurementSource_MEASUREMENT_SOURCE_NONE || !strings.Contains(m.Reason, tc.reason) {
					t.Fatalf("strength %v, want not measured naming %q", m, tc.reason)
				}
			}
		})
	}
}

// detailOutcome is the outcome of a job.result's detail.
func detailOutcome(t *testing.T, detail string) string {
	t.Helper()
	d, err := jobs.ParseDetail([]byte(detail))
	if err != nil {
		t.Fatal(err)
	}
	return d.Outcome
}

// TestAheadPlansTheSameMutants: with Ahead the service makes the mutants
// ready when the executor's plan arrives — every site of the changed lines
// in the schemata, their test binary built — and then plans, at coverage,
// the same mutants against the same tests as a service without it, whose
// jobs end the same; the build made ahead is the evidence and the process
// time of the first mutant job. A replica that starts after the plan was
// recorded plans again, keeps the plan's numbers and tokens, and gets the
// same outcomes.
func TestAheadPlansTheSameMutants(t *testing.T) {
	ctx := context.Background()
	executortest.Skip(t)
	e := executortest.New(t)
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	fix := repo.Patches[0]
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: repo.Base, PatchCommit: fix.Commit}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &criteria.Criteria{RunID: "run-1", Repository: repo.Dir, Baseline: repo.Base, PatchCommit: fix.Commit, PatchDigest: co.DiffSHA256,
		Claims: fix.Claims, CoverageFloor: 1, StrengthFloor: 0.5, StrengthConfidence: 0.8, MutationMax: 6,
		DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
	sealed := runtimetest.Sealed(t, c, nil)
	trees := runtimetest.Sign(t, keyring.Checkout, &pb.Record{RunId: sealed.ID, CriteriaDigest: sealed.Criteria.Digest, Parents: []string{sealed.Seal.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{BaselineTreeDigest: co.Baseline.Digest(), PatchTreeDigest: co.Patch.Digest()}}})
	spec := &jobs.Spec{Purpose: jobs.Coverage, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Package: "./calc", ImportPath: "example.com/calc/calc"}
	planned, err := jobs.Plan(sealed.Criteria, trees.Digest, criteria.BudgetTestRuns, []*jobs.Spec{spec})
	if err != nil {
		t.Fatal(err)
	}
	execPlan := runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: sealed.ID, CriteriaDigest: sealed.Criteria.Digest, Parents: []string{trees.Digest},
		Body: &pb.Record_JobPlanned{JobPlanned: planned}})
	before := runtimetest.With(t, sealed, trees, execPlan)
	// Not every changed line is reached: the sites of the last one are
	// made ready ahead and must not be planned.
	reach := &pb.ReachEntry{Test: "example.com/calc/calc.TestMedian"}
	var changed []int
	for _, ch := range co.Changes {
		if ch.Path == "calc/median.go" {
			changed = ch.ChangedLines
		}
	}
	if len(changed) < 2 {
		t.Fatalf("the honest fix changes lines %v of calc/median.go, want 2 or more", changed)
	}
	unreached := changed[len(changed)-1]
	for _, l := range changed[:len(changed)-1] {
		reach.Lines = append(reach.Lines, &pb.LineRef{Path: "calc/median.go", Line: uint32(l)})
	}
	cov := runtimetest.Sign(t, keyring.Reach, &pb.Record{RunId: sealed.ID, CriteriaDigest: sealed.Criteria.Digest,
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Reach: []*pb.ReachEntry{reach}}}})
	covered := runtimetest.With(t, before, cov)

	// The service without Ahead: what every plan must match.
	plain := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir()}
	defer plain.Close()
	if err := plain.Handle(ctx, execPlan, before, runtimetest.NewRecorder(t, keyring.Mutation).Emit); err != nil {
		t.Fatal(err)
	}
	if plain.spaces[sealed.ID] != nil {
		t.Fatal("without Ahead the executor's plan made a workspace")
	}
	wantPlan := planAtCoverage(t, ctx, plain, cov, covered)
	want := runPlan(t, ctx, plain, wantPlan, runtimetest.With(t, covered, wantPlan))

	ahead := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir(), Ahead: true}
	defer ahead.Close()
	rec := runtimetest.NewRecorder(t, keyring.Mutation)
	if err := ahead.Handle(ctx, execPlan, before, rec.Emit); err != nil {
		t.Fatal(err)
	}
	if len(rec.Emitted()) != 0 {
		t.Fatalf("making the mutants ready emitted %q", rec.Kinds())
	}
	wr := ahead.warmed[sealed.ID]
	if wr == nil || wr.w.Sites <= len(want) {
		t.Fatalf("made ready ahead: %+v, want more sites than the %d planned without it (the unreached line %d has sites too)", wr, len(want), unreached)
	}
	gotPlan := planAtCoverage(t, ctx, ahead, cov, covered)
	got := runPlan(t, ctx, ahead, gotPlan, runtimetest.With(t, covered, gotPlan))
	if len(got) != len(want) {
		t.Fatalf("planned %d mutants ahead, %d without", len(got), len(want))
	}
	first := true
	for _, j := range gotPlan.Record.GetJobPlanned().GetJobs() {
		s, _ := jobs.ParseSpec(j.Spec)
		key := siteOf(s)
		g, ok := got[key]
		if !ok {
			t.Fatalf("mutant %s planned ahead has no result", key)
		}
		w, ok := want[key]
		switch {
		case !ok:
			t.Errorf("mutant %s planned ahead, not without", key)
		case g.outcome != w.outcome || g.tests != w.tests:
			t.Errorf("mutant %s: %s against %s ahead, %s against %s without", key, g.outcome, g.tests, w.outcome, w.tests)
		}
		if s.Mutation.Token != wr.w.Token(s.Mutation.ID) {
			t.Errorf("mutant %s: planned with a token the schemata made ahead do not hold", key)
		}
		if s.Mutation.Line == unreached {
			t.Errorf("mutant %s of the unreached line %d planned", key, unreached)
		}
		var build *jobs.Run
		for i, r := range g.runs {
			if r.Verdict == "BUILD" {
				build = &g.runs[i]
			}
		}
		switch {
		case build == nil:
			t.Errorf("mutant %s: no build among its runs", key)
		case first && g.wallMS < build.WallMillis:
			t.Errorf("the first mutant job took %d ms of processes, less than its build made ahead (%d ms)", g.wallMS, build.WallMillis)
		}
		first = false
	}

	// A replica that starts once the plan is recorded plans again without
	// emitting: it must keep the plan's numbers, or no token fits.
	restarted := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir()}
	defer restarted.Close()
	again := runPlan(t, ctx, restarted, gotPlan, runtimetest.With(t, covered, gotPlan))
	for key, g := range got {
		if a := again[key]; a.outcome != g.outcome {
			t.Errorf("mutant %s after a restart: %s, %s before", key, a.outcome, g.outcome)
		}
	}
}

// planAtCoverage hands h the coverage record and returns the mutant plan
// it emits.
func planAtCoverage(t *testing.T, ctx context.Context, h *Handler, cov *record.Decoded, run runtime.Run) *record.Decoded {
	t.Helper()
	rec := runtimetest.NewRecorder(t, keyring.Mutation)
	if err := h.Handle(ctx, cov, run, rec.Emit); err != nil {
		t.Fatal(err)
	}
	if got := rec.Kinds(); !slices.Equal(got, []string{"job.planned"}) {
		t.Fatalf("the coverage made %q, want one plan", got)
	}
	return rec.Emitted()[0]
}

// jobEnd is how a mutant's job ended.
type jobEnd struct {
	outcome, tests string
	runs           []jobs.Run
	wallMS         int64
}

// runPlan hands h the mutant plan and returns how each job ended, by site.
func runPlan(t *testing.T, ctx context.Context, h *Handler, plan *record.Decoded, planned runtime.Run) map[string]jobEnd {
	t.Helper()
	rec := runtimetest.NewRecorder(t, keyring.Mutation)
	if err := h.Handle(ctx, plan, planned, rec.Emit); err != nil {
		t.Fatal(err)
	}
	site := map[string]string{}
	for _, j := range plan.Record.GetJobPlanned().GetJobs() {
		s, err := jobs.ParseSpec(j.Spec)
		if err != nil {
			t.Fatal(err)
		}
		var tests []string
		for _, tg := range s.Targets {
			tests = append(tests, tg.ImportPath+":"+strings.Join(tg.Tests, ","))
		}
		site[j.JobId] = siteOf(s) + "\x00" + strings.Join(tests, " ")
	}
	out := map[string]jobEnd{}
	for _, r := range rec.Emitted() {
		res := r.Record.GetJobResult()
		if res == nil {
			continue
		}
		d, err := jobs.ParseDetail(res.Detail)
		if err != nil {
			t.Fatal(err)
		}
		key, tests, _ := strings.Cut(site[res.JobId], "\x00")
		out[key] = jobEnd{outcome: d.Outcome, tests: tests, runs: d.Runs, wallMS: res.GetWallNanos() / 1e6}
	}
	if len(out) != len(plan.Record.GetJobPlanned().GetJobs()) {
		t.Fatalf("%d results for %d mutants", len(out), len(plan.Record.GetJobPlanned().GetJobs()))
	}
	return out
}

// siteOf names a mutant job's site: where and what it changes.
func siteOf(s *jobs.Spec) string {
	m := s.Mutation
	return fmt.Sprintf("%s:%d:%d %s (%s)", m.Path, m.Line, m.Col, m.Operator, m.Description)
}
