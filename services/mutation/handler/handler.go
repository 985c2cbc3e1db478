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
)

// Handler is the mutation service.
type Handler struct {
	Exec     *executor.Executor
	Blobs    *blob.Store
	Scratch  string
	Progress func(runID, jobID, state string)

	spaces  map[string]*executor.Workspace
	settled map[string]bool
	// notes holds what planning found beyond the planned jobs, per run.
	notes map[string]*mutation.Notes
}

// Handle reacts to coverage, its own plans and its own results.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	if h.spaces == nil {
		h.spaces, h.settled, h.notes = map[string]*executor.Workspace{}, map[string]bool{}, map[string]*mutation.Notes{}
	}
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
		}
		delete(h.spaces, run.ID)
		delete(h.settled, run.ID)
		delete(h.notes, run.ID)
	}
	return nil
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
	p, err := mutation.Make(ctx, mutation.Input{Blobs: h.Blobs, Criteria: c, Run: run.Records,
		Coverage: cov.Record.GetCoverageMeasured(), Checkout: co, Workspace: w})
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
		if h.Progress != nil {
			h.Progress(run.ID, job.JobId, "running")
		}
		a := executor.Skipped(jobs.OutcomeStillborn, "the mutation service has no workspace for this run")
		jctx, span := telemetry.JobSpan(ctx, job.JobId)
		if w != nil && i < len(specs) {
			a = h.Exec.Execute(jctx, w, specs[i])
		}
		telemetry.EndJob(span, a.Detail.Outcome)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		res, err := executor.Result(job, a)
		if err != nil {
			return err
		}
		res.UnitsUsed = 1
		_, err = emit(ctx, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: []string{planRec.Digest}, Token: job.Token.GetId(),
			Body: &pb.Record_JobResult{JobResult: res}})
		if err := runtime.IgnoreRefused(err); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the workspaces of the runs still open.
func (h *Handler) Close() error {
	for id, w := range h.spaces {
		w.Close()
		delete(h.spaces, id)
	}
	return nil
}
