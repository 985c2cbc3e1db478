package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Run is what a handler is handed of a record's run: its records so far,
// in ledger order, and — once the run is sealed — its seal and the sealed
// criteria, parsed once per run by the runtime.
type Run struct {
	ID      string
	Records []*record.Decoded
	// Seal is the run's criteria.sealed record; nil before the run is
	// sealed (Criteria is nil then too).
	Seal     *record.Decoded
	Criteria *criteria.Sealed
}

// Sealed reports whether the run's criteria are sealed (and parsed).
func (r Run) Sealed() bool { return r.Criteria != nil }

// seals parses each run's sealed criteria once. It is safe for concurrent
// use.
type seals struct {
	mu     sync.Mutex
	parsed map[string]parsedSeal // by run id
}

type parsedSeal struct {
	digest string // the seal record's digest
	sealed *criteria.Sealed
}

// run builds the Run of records (id's records so far). A seal that does
// not parse is the run's permanent failure: nothing of the run can be done
// by criteria nobody can read (fail closed; the ledger admits only seals
// that parse, so this is damage, never evidence). The cache entry of a run
// is dropped with its verdict, as the runtime drops the run's records.
func (s *seals) run(id string, records []*record.Decoded, last *record.Decoded) (Run, error) {
	out := Run{ID: id, Records: records, Seal: SealOf(records)}
	if out.Seal == nil {
		return out, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parsed == nil {
		s.parsed = map[string]parsedSeal{}
	}
	if last != nil && (last.Kind == pb.Kind_KIND_VERDICT_REACHED || last.Kind == pb.Kind_KIND_VERDICT_SEALED) {
		defer delete(s.parsed, id)
	}
	if p, ok := s.parsed[id]; ok && p.digest == out.Seal.Digest {
		out.Criteria = p.sealed
		return out, nil
	}
	sealed, err := criteria.Parse(out.Seal.Record.GetCriteriaSealed().GetCanonicalCriteria())
	if err != nil {
		return out, Permanent(fmt.Errorf("run %s: its sealed criteria do not parse: %w", id, err))
	}
	s.parsed[id] = parsedSeal{digest: out.Seal.Digest, sealed: sealed}
	out.Criteria = sealed
	return out, nil
}

// runs builds the Run of every run of a snapshot, for a Ticker. A run
// whose seal does not parse is left out: its failure is reported when its
// records are handled.
func (s *seals) runs(snapshot map[string][]*record.Decoded) map[string]Run {
	out := make(map[string]Run, len(snapshot))
	for id, recs := range snapshot {
		if r, err := s.run(id, recs, nil); err == nil {
			out[id] = r
		}
	}
	return out
}

// RunOf builds a Run from records outside a service (tests, replay),
// parsing its seal; a seal that does not parse is a permanent error.
func RunOf(id string, records []*record.Decoded) (Run, error) {
	var s seals
	return s.run(id, records, nil)
}

// handleRun hands rec to the handler with its run.
func (s *Service) handleRun(ctx context.Context, id string, rec *record.Decoded, records []*record.Decoded, emit Emit) error {
	run, err := s.seals.run(id, records, rec)
	if err != nil {
		return err
	}
	return s.Handler.Handle(ctx, rec, run, emit)
}

// Request returns the run's run.requested body, or nil.
func (r Run) Request() *pb.RunRequested {
	for _, rec := range r.Records {
		if q := rec.Record.GetRunRequested(); q != nil {
			return q
		}
	}
	return nil
}

// Has reports whether the run holds a record of kind; with producers, one
// that one of them signed.
func (r Run) Has(kind pb.Kind, producers ...string) bool {
	for _, rec := range r.Records {
		if rec.Kind == kind && (len(producers) == 0 || slices.Contains(producers, rec.Record.GetProducer().GetIdentity())) {
			return true
		}
	}
	return false
}

// Refused reports whether err says the ledger refused what was emitted
// (a *RefusedError): the refusal is on the ledger and the run's verdict
// names it, so the handler's work is done.
func Refused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// IgnoreRefused is err, or nil when the ledger refused what was emitted
// (Refused).
func IgnoreRefused(err error) error {
	if Refused(err) {
		return nil
	}
	return err
}

// PermanentUnlessDone marks err Permanent unless ctx is done: work cut
// short (shutdown, a partition handed over) is not work that failed, and
// is tried again wherever the run goes on. Nil stays nil.
func PermanentUnlessDone(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil {
		return err
	}
	return Permanent(err)
}
