// Package handler binds the mutation service to the ledger: when a run's
// diff coverage is recorded it rebuilds the run's trees and has the
// mutation package plan the mutants, records the plan, runs each mutant's
// job against the tests that reach its line, and records the suite's
// strength once every job is answered.
//
// Failures: evidence that does not allow a measurement — no computed
// coverage, changed code or data no mutant can judge, a mutant the
// schemata cannot write — is recorded as a strength "not measured" with
// the reason. A failure of the work itself — the trees do not rebuild or
// cannot be materialized, the blob store does not give a report back — is
// returned as an error (runtime.Permanent when trying again cannot mend
// it), and the runtime records the run's failure.
package handler

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
	"github.com/sealgate/sealgate/services/work"
)

// Handler is the mutation service.
type Handler struct {
	Exec     *executor.Executor
	Blobs    *blob.Store
	Scratch  string
	Progress func(runID, jobID, state string)
	// Dispatch, when set, hands the mutants of an admitted plan to the
	// work topic instead of running them here: any replica's
	// runtime.Worker takes them and runs them with RunJob (the
	// distributed mode). Nil runs them inline (the embedded mode).
	Dispatch func(ctx context.Context, items []work.Item) error
	// Worker names this replica on every job.result it records.
	Worker string

	// mu guards the maps: the records loop and the work lanes call the
	// handler at once.
	mu      sync.Mutex
	spaces  map[string]*executor.Workspace
	settled map[string]bool
	// notes holds what planning found beyond the planned jobs, per run.
	notes map[string]*mutation.Notes
	// registered holds the workspaces whose plan's Python mutants are
	// registered.
	registered map[*executor.Workspace]bool
	// busy holds, per run, the lock of its workspace: one mutant of a run
	// at a time in one replica (a workspace is not safe for concurrent
	// jobs); the lanes run mutants of different runs at once, and the
	// replicas the mutants of one run.
	busy map[string]*sync.Mutex
	// users counts, per run, the mutants running in its workspace: only
	// an unused workspace is evicted.
	users map[string]int
}

// Handle reacts to coverage, its own plans and its own results.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.init()
	if !run.Sealed() || !jobs.MeasureStrength(run.Criteria.Criteria) {
		return nil
	}
	switch rec.Kind {
	case pb.Kind_KIND_COVERAGE_MEASURED:
		if run.Has(pb.Kind_KIND_JOB_PLANNED, keyring.Mutation) || run.Has(pb.Kind_KIND_STRENGTH_MEASURED, keyring.Mutation) {
			// Delivered again after a restart: the mutants are planned.
			return nil
		}
		return h.plan(ctx, rec, run, emit)
	case pb.Kind_KIND_JOB_PLANNED:
		if rec.Record.GetProducer().GetIdentity() != keyring.Mutation {
			return nil
		}
		if h.Dispatch != nil {
			// Published again each time the plan is delivered again; a
			// worker skips a mutant answered meanwhile.
			return h.Dispatch(ctx, work.Items(rec, jobs.Answered(run.Records)))
		}
		if h.spaces[run.ID] == nil {
			if _, err := h.replan(ctx, run); err != nil {
				return err
			}
		}
		return h.execute(ctx, rec, run, emit)
	case pb.Kind_KIND_JOB_RESULT:
		if rec.Record.GetProducer().GetIdentity() != keyring.Mutation || h.settled[run.ID] || run.Has(pb.Kind_KIND_STRENGTH_MEASURED, keyring.Mutation) {
			return nil
		}
		if h.notes[run.ID] == nil {
			// Planned before this process started: plan again, without
			// emitting, for what the strength record reports.
			if _, err := h.replan(ctx, run); err != nil {
				return err
			}
		}
		m, parents := mutation.Strength(run.Criteria.Criteria, run.Records, h.notes[run.ID])
		if m == nil {
			return nil
		}
		return h.strength(ctx, run, parents, m, emit)
	case pb.Kind_KIND_VERDICT_REACHED:
		if w := h.spaces[run.ID]; w != nil {
			w.Close()
			delete(h.registered, w)
		}
		delete(h.spaces, run.ID)
		delete(h.settled, run.ID)
		delete(h.notes, run.ID)
		delete(h.busy, run.ID)
	}
	return nil
}

func (h *Handler) init() {
	if h.spaces == nil {
		h.spaces, h.settled, h.notes, h.registered = map[string]*executor.Workspace{}, map[string]bool{}, map[string]*mutation.Notes{}, map[*executor.Workspace]bool{}
		h.busy, h.users = map[string]*sync.Mutex{}, map[string]int{}
	}
}

// RunJob runs one mutant a runtime.Worker took from the work topic — of
// any run — in this replica's workspace of the run, rebuilt (and the
// mutants planned again, deterministically, without emitting) when it has
// none, and proposes its result.
func (h *Handler) RunJob(ctx context.Context, j runtime.Job, emit runtime.Emit) error {
	run := j.Run
	if !jobs.MeasureStrength(run.Criteria.Criteria) {
		return nil
	}
	var specs []*jobs.Spec
	var spec *jobs.Spec
	for _, pj := range j.Plan.Record.GetJobPlanned().GetJobs() {
		s, err := jobs.ParseSpec(pj.Spec)
		if err != nil {
			continue
		}
		specs = append(specs, s)
		if pj.GetToken().GetId() == j.Job.GetToken().GetId() {
			spec = s
		}
	}
	h.mu.Lock()
	h.init()
	if h.spaces[run.ID] == nil {
		h.evict(run.ID)
		if _, err := h.replan(ctx, run); err != nil {
			h.mu.Unlock()
			return err
		}
	}
	w := h.spaces[run.ID]
	if w != nil && !h.registered[w] {
		// A Python mutant whose edit does not fit is stillborn by its job.
		_ = w.RegisterPythonMutants(specs)
		h.registered[w] = true
	}
	busy := h.busy[run.ID]
	if busy == nil {
		busy = &sync.Mutex{}
		h.busy[run.ID] = busy
	}
	h.users[run.ID]++
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.users[run.ID]--
		if h.users[run.ID] <= 0 {
			delete(h.users, run.ID)
		}
		h.mu.Unlock()
	}()
	busy.Lock()
	defer busy.Unlock()
	_, err := h.runOne(ctx, run, j.Plan, j.Job, w, spec, emit)
	return err
}

// prepare rebuilds the run's trees, materializes them and plans the
// mutants against the coverage record cov, keeping the workspace and what
// planning found for the jobs and the strength record.
func (h *Handler) prepare(ctx context.Context, run runtime.Run, cov *record.Decoded) (*mutation.Plan, error) {
	c := run.Criteria.Criteria
	if m := mutation.Unmeasurable(c, cov.Record.GetCoverageMeasured()); m != nil {
		return &mutation.Plan{Strength: m}, nil
	}
	var patchBlob string
	if req := run.Request(); req != nil {
		patchBlob = req.PatchBlob
	}
	co, release, err := checkout.Rebuilder{Blobs: h.Blobs, Scratch: h.Scratch}.Rebuild(ctx, run.Criteria, patchBlob)
	if err != nil {
		return nil, runtime.PermanentUnlessDone(ctx, fmt.Errorf("run %s: the mutation service could not rebuild the trees: %w", run.ID, err))
	}
	w, err := h.Exec.Open(ctx, run.ID+"-mutation", co)
	release()
	if err != nil {
		return nil, runtime.PermanentUnlessDone(ctx, fmt.Errorf("run %s: the mutation service could not materialize the trees: %w", run.ID, err))
	}
	w.ApplyLimits(c)
	if old := h.spaces[run.ID]; old != nil {
		old.Close()
	}
	h.spaces[run.ID] = w
	// Planning type-checks the changed packages against their
	// dependencies, offline: on a replica that ran none of the run's
	// modules jobs, its module cache may lack them.
	h.Exec.EnsureModules(ctx, w, jobs.TreeOracle, slices.Sorted(maps.Keys(mutation.ChangedGoSources(co))))
	p, err := mutation.Make(ctx, mutation.Input{Blobs: h.Blobs, Criteria: c, Run: run.Records,
		Coverage: cov.Record.GetCoverageMeasured(), Checkout: co, Workspace: w, Go: h.Exec.Go})
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", run.ID, err)
	}
	if p.Notes != nil {
		h.notes[run.ID] = p.Notes
	}
	return p, nil
}

// replan prepares a run whose mutants were planned before this process
// started: planning is deterministic, so planning again, without
// emitting, rebuilds the same schemata.
func (h *Handler) replan(ctx context.Context, run runtime.Run) (*mutation.Plan, error) {
	for _, r := range run.Records {
		if r.Kind == pb.Kind_KIND_COVERAGE_MEASURED {
			return h.prepare(ctx, run, r)
		}
	}
	return nil, nil
}

// plan plans the mutants of a run whose coverage just arrived and records
// the plan, or the strength when planning ends without a mutant to run.
func (h *Handler) plan(ctx context.Context, cov *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	parents := []string{cov.Digest}
	p, err := h.prepare(ctx, run, cov)
	if err != nil {
		return err
	}
	if p.Strength != nil {
		return h.strength(ctx, run, parents, p.Strength, emit)
	}
	plan, err := jobs.Plan(run.Criteria, cov.Digest, criteria.BudgetMutants, p.Specs)
	if err != nil {
		return err
	}
	_, err = emit(ctx, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: parents, Body: &pb.Record_JobPlanned{JobPlanned: plan}})
	if runtime.Refused(err) {
		return h.strength(ctx, run, parents, mutation.NotMeasured("the ledger refused the mutant plan: %v", err), emit)
	}
	return err
}

func (h *Handler) strength(ctx context.Context, run runtime.Run, parents []string, m *pb.StrengthMeasured, emit runtime.Emit) error {
	h.settled[run.ID] = true
	m.Confidence = run.Criteria.Criteria.StrengthConfidence
	_, err := emit(ctx, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: parents,
		Body: &pb.Record_StrengthMeasured{StrengthMeasured: m}})
	return runtime.IgnoreRefused(err)
}

func (h *Handler) execute(ctx context.Context, planRec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	w := h.spaces[run.ID]
	answered := jobs.Answered(run.Records)
	var specs []*jobs.Spec
	for _, j := range planRec.Record.GetJobPlanned().GetJobs() {
		if s, err := jobs.ParseSpec(j.Spec); err == nil {
			specs = append(specs, s)
		}
	}
	if w != nil {
		// A Python mutant whose edit does not fit is stillborn by its job.
		_ = w.RegisterPythonMutants(specs)
	}
	for i, job := range planRec.Record.GetJobPlanned().GetJobs() {
		if answered[job.Token.GetId()] {
			continue // answered before a restart
		}
		var spec *jobs.Spec
		if i < len(specs) {
			spec = specs[i]
		}
		if _, err := h.runOne(ctx, run, planRec, job, w, spec, emit); err != nil {
			return err
		}
	}
	return nil
}

// maxSpaces bounds the workspaces a replica keeps for the work topic's
// mutants: those of runs whose verdict it never sees (another replica
// owns the run's partition) are closed past it, idle ones first, and
// rebuilt by digest when a mutant of the run comes again.
const maxSpaces = 8

// evict closes idle workspaces of runs other than keep past maxSpaces.
// The caller holds h.mu.
func (h *Handler) evict(keep string) {
	for id, w := range h.spaces {
		if len(h.spaces) < maxSpaces {
			return
		}
		if id == keep || h.users[id] > 0 {
			continue
		}
		w.Close()
		delete(h.spaces, id)
		delete(h.registered, w)
	}
}

// runOne runs one mutant's job in w (none: stillborn, saying so) and
// proposes its result.
func (h *Handler) runOne(ctx context.Context, run runtime.Run, planRec *record.Decoded, job *pb.Job, w *executor.Workspace, spec *jobs.Spec, emit runtime.Emit) ([]*record.Decoded, error) {
	if h.Progress != nil {
		h.Progress(run.ID, job.JobId, "running")
	}
	a := executor.Skipped(jobs.OutcomeStillborn, "the mutation service has no workspace for this run")
	jctx, span := telemetry.JobSpan(ctx, job.JobId)
	if w != nil && spec != nil {
		a = h.Exec.Execute(jctx, w, spec)
	}
	telemetry.EndJob(span, a.Detail.Outcome)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	res, err := executor.Result(job, a)
	if err != nil {
		return nil, err
	}
	res.UnitsUsed = 1
	res.Worker = h.Worker
	recs, err := emit(ctx, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: []string{planRec.Digest}, Token: job.Token.GetId(),
		Body: &pb.Record_JobResult{JobResult: res}})
	return recs, runtime.IgnoreRefused(err)
}

// Close removes the workspaces of the runs still open.
func (h *Handler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, w := range h.spaces {
		w.Close()
		delete(h.spaces, id)
	}
	return nil
}
