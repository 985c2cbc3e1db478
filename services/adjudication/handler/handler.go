// Package handler binds the adjudication service to the ledger: once a
// run's evidence is complete — or its sealed deadline has passed — it
// decides the run with the pure decision function and appends the verdict,
// with the artefact stored in the blob store.
//
// Failures: evidence that is missing or bad is the verdict's business
// (INCONCLUSIVE naming it). A failure of the work itself — the artefact
// cannot be stored — is returned as an error: the runtime tries again.
package handler

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/runtime"
)

// Handler is the adjudication service.
type Handler struct {
	Blobs *blob.Store
	// decided remembers the runs this handler has decided, so that a
	// deadline tick between the verdict's append and its delivery does not
	// decide twice.
	decided map[string]bool
}

// Handle decides a run as soon as nothing is pending.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	if rec.Kind == pb.Kind_KIND_VERDICT_REACHED || h.decided[run.ID] || run.Has(pb.Kind_KIND_VERDICT_REACHED) || !run.Sealed() {
		return nil
	}
	r := adjudication.Read(run.ID, run.Records)
	if r.Sealed == nil {
		return nil
	}
	pending := r.Pending()
	switch {
	case len(r.Failures) > 0:
		// A service failed on the run: its part will not come. Decide now,
		// with what is missing named.
		return h.decide(ctx, r, pending, emit)
	case len(pending) > 0:
		return nil
	}
	return h.decide(ctx, r, nil, emit)
}

// Tick decides the runs whose deadline has passed with what is there.
func (h *Handler) Tick(ctx context.Context, now time.Time, runs map[string]runtime.Run, emit runtime.Emit) error {
	for _, id := range slices.Sorted(maps.Keys(runs)) {
		run := runs[id]
		if h.decided[id] || run.Has(pb.Kind_KIND_VERDICT_REACHED) || !run.Sealed() {
			continue
		}
		r := adjudication.Read(id, run.Records)
		if r.Sealed == nil || now.Before(r.Deadline()) {
			continue
		}
		pending := r.Pending()
		if len(pending) == 0 {
			pending = nil
		}
		if err := h.decide(ctx, r, pending, emit); err != nil {
			return err
		}
	}
	return nil
}

// Verdict computes a run's verdict and artefact from its records alone.
// missing lists evidence still pending at the deadline.
func Verdict(r *adjudication.Run, missing []string) (adjudication.Verdict, *adjudication.Artefact) {
	e := r.Gather(missing)
	v := adjudication.Decide(r.Policy(), e)
	return v, r.BuildArtefact(v, e)
}

func (h *Handler) decide(ctx context.Context, r *adjudication.Run, missing []string, emit runtime.Emit) error {
	v, a := Verdict(r, missing)
	b, err := a.Marshal()
	if err != nil {
		return fmt.Errorf("artefact: %w", err)
	}
	key, err := h.Blobs.Put(ctx, b)
	if err != nil {
		return fmt.Errorf("store artefact: %w", err)
	}
	if h.decided == nil {
		h.decided = map[string]bool{}
	}
	h.decided[r.ID] = true
	_, err = emit(ctx, &pb.Record{
		RunId: r.ID, CriteriaDigest: r.Sealed.Digest, Parents: r.Evidence,
		Body: &pb.Record_VerdictReached{VerdictReached: adjudication.VerdictRecord(v, r.Evidence, key)},
	})
	return err
}
