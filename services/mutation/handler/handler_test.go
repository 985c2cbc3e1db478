package handler

import (
	"context"
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

// TestPlanningReadsTheExecutorsModuleCache: planning type-checks a changed
// package against its dependencies' export data, built from the module
// cache the executor fills and builds from — not the process's own, which
// on a replica need not hold them (nor be the same directory).
func TestPlanningReadsTheExecutorsModuleCache(t *testing.T) {
	ctx := context.Background()
	executortest.Skip(t)
	sums := executortest.UUIDSums(t)
	e := executortest.New(t)
	e.Go.ModCache = t.TempDir()         // the executor's, filled before planning
	t.Setenv("GOMODCACHE", t.TempDir()) // the process's: empty
	repo, base, _ := executortest.ModuleRepo(t, sums)
	patch, err := repo.Commit(ctx, base, "checked-id", "an identifier of version 4 only", map[string]string{
		"calc/id.go": "package calc\n\nimport \"github.com/google/uuid\"\n\n// ID is a new identifier.\nfunc ID() string {\n\tid := uuid.New()\n\tif id.Version() != 4 {\n\t\treturn \"\"\n\t}\n\treturn id.String()\n}\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: base, PatchCommit: patch}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &criteria.Criteria{RunID: "run-1", Repository: repo.Dir, Baseline: base, PatchCommit: patch, PatchDigest: co.DiffSHA256,
		Claims: []string{"go:./calc:TestID"}, CoverageFloor: 1, StrengthFloor: 0.5, StrengthConfidence: 0.8, MutationMax: 5,
		DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
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
	reach := &pb.ReachEntry{Test: "example.com/calc/calc.TestID"}
	for _, ch := range co.Changes {
		if ch.Path == "calc/id.go" {
			for _, l := range ch.ChangedLines {
				reach.Lines = append(reach.Lines, &pb.LineRef{Path: ch.Path, Line: uint32(l)})
			}
		}
	}
	cov := &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Reason: "as the test says", Reach: []*pb.ReachEntry{reach}}
	covered := runtimetest.With(t, run, trees, plan, runtimetest.Sign(t, keyring.Reach, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest,
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: cov}}))

	h := &Handler{Exec: e, Blobs: blobs, Scratch: t.TempDir()}
	defer h.Close()
	rec := runtimetest.NewRecorder(t, keyring.Mutation)
	state := covered
	for step := 0; step < 3 && !slices.Contains(rec.Kinds(), "strength.measured"); step++ {
		emitted := len(rec.Emitted())
		if err := h.Handle(ctx, state.Records[len(state.Records)-1], state, rec.Emit); err != nil {
			t.Fatal(err)
		}
		state = runtimetest.With(t, state, rec.Emitted()[emitted:]...)
	}
	var m *pb.StrengthMeasured
	for _, r := range rec.Emitted() {
		if s := r.Record.GetStrengthMeasured(); s != nil {
			m = s
		}
	}
	if m == nil {
		t.Fatalf("no strength measured: %q", rec.Kinds())
	}
	if m.Source != pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED || m.Killed == 0 || strings.Contains(m.Reason, "from source") {
		t.Fatalf("strength %v: want mutants killed, with export data from the executor's module cache", m)
	}
}
