package handler

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
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

// TestHandle: given the records of a run, the executor plans its jobs when
// the trees arrive (once), runs the jobs of its own plan in a real sandbox
// and records each result, and leaves other services' plans alone; trees
// it cannot rebuild, or rebuilds differently, fail the run for good
// instead of a plan of skipped jobs.
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
	sealedWith := func(edit func(*criteria.Criteria)) runtime.Run {
		c := &criteria.Criteria{RunID: "run-1", Repository: repo.Dir, Baseline: repo.Base, PatchCommit: fix.Commit, PatchDigest: co.DiffSHA256,
			Claims: fix.Claims, StrengthConfidence: 0.8, DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
		c.ApplyDefaults()
		if edit != nil {
			edit(c)
		}
		return runtimetest.Sealed(t, c, nil)
	}
	treesOf := func(seal runtime.Run, baseline, patch string) runtime.Run {
		return runtimetest.With(t, seal, runtimetest.Sign(t, keyring.Checkout, &pb.Record{RunId: seal.ID, CriteriaDigest: seal.Criteria.Digest,
			Parents: []string{seal.Seal.Digest}, Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{
				BaselineTreeDigest: baseline, PatchTreeDigest: patch}}}))
	}
	sealed := sealedWith(nil)
	trees := treesOf(sealed, co.Baseline.Digest(), co.Patch.Digest())
	h := &Handler{Exec: e, Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild, SealWorkers: 2}
	defer h.Close()

	// The plan the trees make, and the results of its jobs: later steps
	// of the table run on what the earlier ones emitted.
	planRec := runtimetest.NewRecorder(t, keyring.Executor)
	if err := h.Handle(ctx, trees.Records[len(trees.Records)-1], trees, planRec.Emit); err != nil {
		t.Fatal(err)
	}
	if got := planRec.Kinds(); !slices.Equal(got, []string{"job.planned"}) {
		t.Fatalf("the trees made %q, want one plan", got)
	}
	plan := planRec.Emitted()[0]
	var ids []string
	for _, j := range plan.Record.GetJobPlanned().GetJobs() {
		ids = append(ids, j.JobId)
		if j.Token.GetRunId() != "run-1" || j.Token.GetCriteriaDigest() != sealed.Criteria.Digest || j.Token.GetParentDigest() != trees.Records[len(trees.Records)-1].Digest {
			t.Fatalf("job %s has the token %v", j.JobId, j.Token)
		}
	}
	for _, want := range []string{"claim/baseline/" + fix.Claims[0], "claim/patch/" + fix.Claims[0]} {
		if !slices.Contains(ids, want) {
			t.Fatalf("the plan %q has no job %s", ids, want)
		}
	}
	planned := runtimetest.With(t, trees, plan)
	otherPlan := runtimetest.With(t, trees, runtimetest.Sign(t, keyring.Mutation, &pb.Record{RunId: "run-1", CriteriaDigest: sealed.Criteria.Digest,
		Body: &pb.Record_JobPlanned{JobPlanned: plan.Record.GetJobPlanned()}}))

	for _, tc := range []struct {
		name      string
		run       runtime.Run
		want      []string // kinds emitted
		permanent bool
		check     func(t *testing.T, out []*record.Decoded)
	}{
		{name: "trees delivered again once the run is planned: nothing", run: runtimetest.With(t, planned, trees.Records[len(trees.Records)-1])},
		{name: "the executor's plan: every job run, each result recorded", run: planned, want: slices.Repeat([]string{"job.result"}, len(ids)),
			check: func(t *testing.T, out []*record.Decoded) {
				outcome := map[string]string{}
				for _, r := range out {
					d, err := jobs.ParseDetail(r.Record.GetJobResult().Detail)
					if err != nil {
						t.Fatal(err)
					}
					outcome[r.Record.GetJobResult().JobId] = d.Outcome
					if !slices.Equal(r.Record.Parents, []string{plan.Digest}) || r.Record.Token == "" {
						t.Fatalf("result %s: parents %q, token %q", r.Record.GetJobResult().JobId, r.Record.Parents, r.Record.Token)
					}
				}
				// The honest fix: the claim fails on the baseline and passes
				// on the patch.
				if b, p := outcome["claim/baseline/"+fix.Claims[0]], outcome["claim/patch/"+fix.Claims[0]]; b != jobs.OutcomeFail || p != jobs.OutcomePass {
					t.Fatalf("the claim: %s on the baseline, %s on the patch (%v)", b, p, outcome)
				}
			}},
		{name: "another service's plan is not the executor's to run", run: otherPlan},
		{name: "trees rebuilt differently from the recorded ones fail the run for good", run: treesOf(sealed, co.Patch.Digest(), co.Baseline.Digest()), permanent: true},
		{name: "trees that do not rebuild fail the run for good",
			run: treesOf(sealedWith(func(c *criteria.Criteria) { c.Baseline = strings.Repeat("1", 40) }), "b", "p"), permanent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{Exec: e, Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild, SealWorkers: 2}
			defer h.Close()
			rec := runtimetest.NewRecorder(t, keyring.Executor)
			err := h.Handle(ctx, tc.run.Records[len(tc.run.Records)-1], tc.run, rec.Emit)
			if tc.permanent != (err != nil) || tc.permanent != runtime.IsPermanent(err) {
				t.Fatalf("err = %v, want a permanent failure: %v", err, tc.permanent)
			}
			if got := rec.Kinds(); !slices.Equal(got, tc.want) {
				t.Fatalf("emitted %q, want %q", got, tc.want)
			}
			if tc.check != nil {
				tc.check(t, rec.Emitted())
			}
		})
	}

	// The distributed mode: the plan's owner publishes its jobs (those not
	// answered yet; the modules jobs first, the others once they are
	// answered) instead of running them; another replica, with no
	// workspace of the run, rebuilds it by digest and runs each job it is
	// handed, naming itself on the result.
	t.Run("dispatched: the plan's jobs published, run by another replica", func(t *testing.T) {
		var items []work.Item
		owner := &Handler{Exec: e, Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild,
			Dispatch: func(_ context.Context, its []work.Item) error { items = append(items, its...); return nil }}
		defer owner.Close()
		rec := runtimetest.NewRecorder(t, keyring.Executor)
		if err := owner.Handle(ctx, plan, planned, rec.Emit); err != nil {
			t.Fatal(err)
		}
		modules := 0
		for _, id := range ids {
			if strings.HasPrefix(id, jobs.Modules+"/") {
				modules++
			}
		}
		if len(rec.Emitted()) != 0 || modules == 0 || len(items) != modules {
			t.Fatalf("the owner emitted %d records and dispatched %d jobs, want none and the %d modules jobs", len(rec.Emitted()), len(items), modules)
		}
		other := &Handler{Exec: e, Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild, Worker: "replica-2", MaxSpaces: 1}
		defer other.Close()
		run := planned
		var results []*record.Decoded
		for len(items) > 0 {
			todo := items
			items = nil
			for _, it := range todo {
				p, job := work.Find(planned.Records, it)
				if job == nil {
					t.Fatalf("item %+v names no job of the plan", it)
				}
				out := runtimetest.NewRecorder(t, keyring.Executor)
				if err := other.RunJob(ctx, runtime.Job{Run: run, Plan: p, Job: job}, out.Emit); err != nil {
					t.Fatal(err)
				}
				for _, r := range out.Emitted() {
					results = append(results, r)
					run = runtimetest.With(t, run, r)
					if err := owner.Handle(ctx, r, run, rec.Emit); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		outcome := map[string]string{}
		for _, r := range results {
			res := r.Record.GetJobResult()
			if res.GetWorker() != "replica-2" {
				t.Fatalf("result %s names worker %q", res.GetJobId(), res.GetWorker())
			}
			d, err := jobs.ParseDetail(res.Detail)
			if err != nil {
				t.Fatal(err)
			}
			outcome[res.JobId] = d.Outcome
		}
		if len(outcome) != len(ids) {
			t.Fatalf("%d results, want %d", len(outcome), len(ids))
		}
		if b, p := outcome["claim/baseline/"+fix.Claims[0]], outcome["claim/patch/"+fix.Claims[0]]; b != jobs.OutcomeFail || p != jobs.OutcomePass {
			t.Fatalf("the claim: %s on the baseline, %s on the patch", b, p)
		}
		// With the modules jobs and one more answered, the plan delivered
		// again dispatches only the jobs still unanswered.
		items = nil
		again := runtimetest.With(t, planned, results[:modules+1]...)
		if err := owner.Handle(ctx, plan, again, rec.Emit); err != nil {
			t.Fatal(err)
		}
		if len(items) != len(ids)-modules-1 {
			t.Fatalf("the plan delivered again dispatched %d jobs, want %d", len(items), len(ids)-modules-1)
		}
	})
}

// TestBuildsAheadWaitForTheModules: with test binaries built ahead, a
// repository with a module dependency, over an empty module cache, still
// builds — in the sandbox, which has no network — from what the modules
// jobs download: no build ahead may start before them, or it fails on the
// empty cache and its failure becomes the answer of every job that needs
// its binary.
func TestBuildsAheadWaitForTheModules(t *testing.T) {
	ctx := context.Background()
	executortest.Skip(t)
	trees := moduleRun(t)
	e := executortest.New(t)
	e.Go.ModCache = t.TempDir() // empty: only the modules jobs fill it
	h := &Handler{Exec: e, Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild, BuildAhead: 2}
	defer h.Close()
	rec := runtimetest.NewRecorder(t, keyring.Executor)
	if err := h.Handle(ctx, trees.Records[len(trees.Records)-1], trees, rec.Emit); err != nil {
		t.Fatal(err)
	}
	plan := rec.Emitted()[0]
	rec.Reset()
	if err := h.Handle(ctx, plan, runtimetest.With(t, trees, plan), rec.Emit); err != nil {
		t.Fatal(err)
	}
	outcome := map[string]string{}
	for _, r := range rec.Emitted() {
		if res := r.Record.GetJobResult(); res != nil {
			d, err := jobs.ParseDetail(res.Detail)
			if err != nil {
				t.Fatal(err)
			}
			outcome[res.JobId] = d.Outcome + ": " + d.Reason
		}
	}
	for _, id := range []string{"modules/baseline/.:", "modules/patch/.:", "claim/baseline/go:./calc:TestID", "claim/patch/go:./calc:TestID"} {
		if !strings.HasPrefix(outcome[id], jobs.OutcomePass+":") {
			t.Errorf("%s: %q, want a pass", id, outcome[id])
		}
	}
}

// moduleRun is a sealed run of executortest.ModuleRepo's patch, claiming
// TestID, with its trees materialized.
func moduleRun(t *testing.T) runtime.Run {
	t.Helper()
	ctx := context.Background()
	repo, base, patch := executortest.ModuleRepo(t, executortest.UUIDSums(t))
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: base, PatchCommit: patch}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &criteria.Criteria{RunID: "run-1", Repository: repo.Dir, Baseline: base, PatchCommit: patch, PatchDigest: co.DiffSHA256,
		Claims: []string{"go:./calc:TestID"}, StrengthConfidence: 0.8, DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
	sealed := runtimetest.Sealed(t, c, nil)
	return runtimetest.With(t, sealed, runtimetest.Sign(t, keyring.Checkout, &pb.Record{RunId: sealed.ID, CriteriaDigest: sealed.Criteria.Digest,
		Parents: []string{sealed.Seal.Digest}, Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{
			BaselineTreeDigest: co.Baseline.Digest(), PatchTreeDigest: co.Patch.Digest()}}}))
}

// TestReplicasWithTheirOwnModuleCaches: in the distributed mode the
// plan's owner publishes its modules jobs first and every other job once
// they are answered (a job beside them would build over a module cache
// still being filled); and a replica that runs a Go job of a run whose
// modules jobs ran elsewhere, over a module cache of its own, fills it
// first (verified against go.sum) — its sandbox has no network.
func TestReplicasWithTheirOwnModuleCaches(t *testing.T) {
	ctx := context.Background()
	executortest.Skip(t)
	trees := moduleRun(t)
	replica := func(name string) *Handler {
		e := executortest.New(t)
		e.Go.ModCache = t.TempDir() // empty, and this replica's own
		h := &Handler{Exec: e, Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild, Worker: name}
		t.Cleanup(func() { h.Close() })
		return h
	}
	var items []work.Item
	owner := replica("owner")
	owner.Dispatch = func(_ context.Context, its []work.Item) error { items = append(items, its...); return nil }
	rec := runtimetest.NewRecorder(t, keyring.Executor)
	if err := owner.Handle(ctx, trees.Records[len(trees.Records)-1], trees, rec.Emit); err != nil {
		t.Fatal(err)
	}
	plan := rec.Emitted()[0]
	run := runtimetest.With(t, trees, plan)
	purposes := func() []string {
		var out []string
		for _, it := range items {
			_, job := work.Find(run.Records, it)
			s, err := jobs.ParseSpec(job.GetSpec())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s.Purpose)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if err := owner.Handle(ctx, plan, run, rec.Emit); err != nil {
		t.Fatal(err)
	}
	if got := purposes(); !slices.Equal(got, []string{jobs.Modules}) {
		t.Fatalf("the plan dispatched jobs of purposes %q first, want only the modules jobs", got)
	}
	// One replica downloads; the owner hears each result and publishes
	// the rest once both are answered.
	first, rest := replica("replica-1"), replica("replica-2")
	outcome := map[string]string{}
	runAll := func(h *Handler) {
		todo := items
		items = nil
		for _, it := range todo {
			p, job := work.Find(run.Records, it)
			out := runtimetest.NewRecorder(t, keyring.Executor)
			if err := h.RunJob(ctx, runtime.Job{Run: run, Plan: p, Job: job}, out.Emit); err != nil {
				t.Fatal(err)
			}
			for _, r := range out.Emitted() {
				d, err := jobs.ParseDetail(r.Record.GetJobResult().Detail)
				if err != nil {
					t.Fatal(err)
				}
				outcome[r.Record.GetJobResult().JobId] = d.Outcome + ": " + d.Reason
				run = runtimetest.With(t, run, r)
				if err := owner.Handle(ctx, r, run, rec.Emit); err != nil {
					t.Fatal(err)
				}
				if len(items) > 0 && len(outcome) < 2 {
					t.Fatalf("jobs dispatched with a modules job unanswered: %+v", items)
				}
			}
		}
	}
	runAll(first)
	if got := purposes(); slices.Contains(got, jobs.Modules) || !slices.Contains(got, jobs.Claim) {
		t.Fatalf("once the modules jobs are answered the plan dispatched %q, want the claims and the rest", got)
	}
	runAll(rest)
	for _, id := range []string{"modules/baseline/.:", "modules/patch/.:", "claim/baseline/go:./calc:TestID", "claim/patch/go:./calc:TestID"} {
		if !strings.HasPrefix(outcome[id], jobs.OutcomePass+":") {
			t.Errorf("%s: %q, want a pass", id, outcome[id])
		}
	}
}

// TestReplicasPlanTheSameRecordAlike: when the records partition moves
// while a replica's plan is on its way to the ledger (a broker restart, a
// rebalance), the next owner plans the same trees record again. Both plans
// must say the same thing — the same jobs under the same tokens, nonces
// included — so that the ledger admits the first and takes the second for
// a duplicate; two different plans issuing one token would be refused and
// leave an honest run INCONCLUSIVE.
func TestReplicasPlanTheSameRecordAlike(t *testing.T) {
	ctx := context.Background()
	executortest.Skip(t)
	trees := moduleRun(t)
	var keys []string
	for _, name := range []string{"replica-1", "replica-2"} {
		h := &Handler{Exec: executortest.New(t), Checkout: checkout.Rebuilder{Scratch: t.TempDir()}.Rebuild, Worker: name}
		t.Cleanup(func() { h.Close() })
		rec := runtimetest.NewRecorder(t, keyring.Executor)
		if err := h.Handle(ctx, trees.Records[len(trees.Records)-1], trees, rec.Emit); err != nil {
			t.Fatal(err)
		}
		emitted := rec.Emitted()
		if len(emitted) != 1 || emitted[0].Kind != pb.Kind_KIND_JOB_PLANNED {
			t.Fatalf("%s emitted %d records, want one plan", name, len(emitted))
		}
		key, err := record.ContentKey(emitted[0].Record)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
	}
	if keys[0] != keys[1] {
		t.Fatalf("two replicas planned the same trees record differently (content keys %.12s… and %.12s…)", keys[0], keys[1])
	}
}
