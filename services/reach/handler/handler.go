// Package handler binds the reach service to the ledger: once every
// coverage job of a run is answered, it rebuilds the run's trees, has the
// reach package compute diff coverage of the changed executable lines from
// the reports the executor stored, and records it, with the reach map
// (which test executes which changed line) that mutation runs by.
//
// Failures: evidence that does not allow a measurement — a coverage job
// that failed, a report that does not parse, a changed line no report
// names — is recorded as "not measured" with the reason. A failure of the
// work itself — the trees do not rebuild, the blob store does not give a
// report back — is returned as an error (runtime.Permanent when trying
// again cannot mend it), and the runtime records the run's failure.
package handler

import (
	"context"
	"fmt"
	"strings"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/reach"
	"github.com/sealgate/sealgate/services/runtime"
)

// Handler is the reach service.
type Handler struct {
	Blobs   *blob.Store
	Scratch string

	measured map[string]bool
}

// Handle measures a run's coverage when its coverage jobs are answered.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	if rec.Kind != pb.Kind_KIND_JOB_PLANNED && rec.Kind != pb.Kind_KIND_JOB_RESULT {
		return nil
	}
	if !run.Sealed() || !jobs.MeasureCoverage(run.Criteria.Criteria) {
		return nil
	}
	if h.measured == nil {
		h.measured = map[string]bool{}
	}
	if h.measured[run.ID] || run.Has(pb.Kind_KIND_COVERAGE_MEASURED) {
		h.measured[run.ID] = true
		return nil
	}
	cov, parents, ready := coverageJobs(run)
	if !ready {
		return nil
	}
	if len(parents) == 0 {
		parents = []string{run.Seal.Digest}
	}
	m, err := h.measure(ctx, run, cov)
	if err != nil {
		return err
	}
	h.measured[run.ID] = true
	_, err = emit(ctx, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: parents,
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: m}})
	return runtime.IgnoreRefused(err)
}

// coverageJobs reads the executor's coverage jobs of the run and their
// answers; ready once the executor planned and every coverage job is
// answered. parents are the digests of the coverage results.
func coverageJobs(run runtime.Run) (cov reach.Coverage, parents []string, ready bool) {
	cov.Done = map[string]*jobs.Detail{}
	planned := false
	for _, r := range run.Records {
		switch b := r.Record.Body.(type) {
		case *pb.Record_JobPlanned:
			if r.Record.GetProducer().GetIdentity() != keyring.Executor {
				continue
			}
			planned = true
			for _, j := range b.JobPlanned.Jobs {
				if s, err := jobs.ParseSpec(j.Spec); err == nil && s.Purpose == jobs.Coverage {
					cov.Specs = append(cov.Specs, s)
				}
			}
		case *pb.Record_JobResult:
			if d, err := jobs.ParseDetail(b.JobResult.Detail); err == nil && strings.HasPrefix(b.JobResult.JobId, jobs.Coverage+"/") {
				cov.Done[b.JobResult.JobId] = d
				parents = append(parents, r.Digest)
			}
		}
	}
	if !planned {
		return cov, nil, false
	}
	for _, s := range cov.Specs {
		if cov.Done[s.ID()] == nil {
			return cov, nil, false
		}
	}
	return cov, parents, true
}

// measure rebuilds the run's trees and measures its coverage.
func (h *Handler) measure(ctx context.Context, run runtime.Run, cov reach.Coverage) (*pb.CoverageMeasured, error) {
	if m := reach.Unmeasurable(cov); m != nil {
		return m, nil
	}
	var patchBlob string
	if req := run.Request(); req != nil {
		patchBlob = req.PatchBlob
	}
	co, release, err := checkout.Rebuilder{Blobs: h.Blobs, Scratch: h.Scratch}.Rebuild(ctx, run.Criteria, patchBlob)
	if err != nil {
		return nil, runtime.PermanentUnlessDone(ctx, fmt.Errorf("run %s: the reach service could not rebuild the trees: %w", run.ID, err))
	}
	defer release()
	m, err := reach.Measure(ctx, h.Blobs, co, cov)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", run.ID, err)
	}
	return m, nil
}
