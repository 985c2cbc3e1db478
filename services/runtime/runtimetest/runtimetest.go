// Package runtimetest helps test a service's handler on its own: runs built
// of really signed records, and a Recorder that stands in for the
// runtime's Emit, signing what the handler emits with a real key and
// recording it.
package runtimetest

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/runtime"
)

// Signer returns a signer of identity with a fresh key.
func Signer(t testing.TB, identity string) *record.Signer {
	t.Helper()
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := record.NewSigner(identity, key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Sign signs r as identity (a fresh key), stamping the current time.
func Sign(t testing.TB, identity string, r *pb.Record) *record.Decoded {
	t.Helper()
	r.TimeUnixNano = time.Now().UnixNano()
	d, err := Signer(t, identity).Sign(r)
	if err != nil {
		t.Fatalf("sign %s: %v", record.KindName(record.KindOf(r)), err)
	}
	return d
}

// Sealed returns the beginning of a run sealed with c (defaults applied by
// the caller): the gateway's run.requested, with req's fields, and its
// criteria.sealed.
func Sealed(t testing.TB, c *criteria.Criteria, req *pb.RunRequested) runtime.Run {
	t.Helper()
	sealed, err := criteria.Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	if req == nil {
		req = &pb.RunRequested{}
	}
	if req.Repository == "" {
		req.Repository = c.Repository
	}
	rq := Sign(t, keyring.Gateway, &pb.Record{RunId: c.RunID, Body: &pb.Record_RunRequested{RunRequested: req}})
	seal := Sign(t, keyring.Gateway, &pb.Record{RunId: c.RunID, CriteriaDigest: sealed.Digest, Parents: []string{rq.Digest},
		Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: sealed.Canonical, CriteriaDigest: sealed.Digest}}})
	return RunOf(t, c.RunID, rq, seal)
}

// RunOf is the run of records, as the runtime hands it to a handler.
func RunOf(t testing.TB, id string, records ...*record.Decoded) runtime.Run {
	t.Helper()
	r, err := runtime.RunOf(id, records)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// With returns run with records appended (the run as a handler sees it
// when the last of them arrives).
func With(t testing.TB, run runtime.Run, records ...*record.Decoded) runtime.Run {
	t.Helper()
	return RunOf(t, run.ID, append(slices.Clone(run.Records), records...)...)
}

// Recorder is a runtime.Emit for handler tests: it signs what the handler
// emits as its identity, as the runtime does, and records it in order.
// Nothing is appended anywhere.
type Recorder struct {
	signer *record.Signer
	// Refuse, when set, makes Emit answer as a ledger refusing the records
	// it returns true for: a *runtime.RefusedError, the records listed in
	// Refused and not in Emitted.
	Refuse func(*pb.Record) bool

	mu      sync.Mutex
	emitted []*record.Decoded
	refused []*record.Decoded
}

// NewRecorder returns a recorder signing as identity with a fresh key.
func NewRecorder(t testing.TB, identity string) *Recorder {
	t.Helper()
	return &Recorder{signer: Signer(t, identity)}
}

// Emit signs and records recs; it is a runtime.Emit.
func (r *Recorder) Emit(_ context.Context, recs ...*pb.Record) ([]*record.Decoded, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*record.Decoded
	var errs []error
	for _, rec := range recs {
		rec.TimeUnixNano = time.Now().UnixNano()
		d, err := r.signer.Sign(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
		if r.Refuse != nil && r.Refuse(rec) {
			r.refused = append(r.refused, d)
			errs = append(errs, fmt.Errorf("the ledger refused %s", record.KindName(d.Kind)))
			continue
		}
		r.emitted = append(r.emitted, d)
	}
	if len(errs) > 0 {
		return out, &runtime.RefusedError{Err: errors.Join(errs...)}
	}
	return out, nil
}

// Emitted returns the records emitted (and not refused) so far, in order.
func (r *Recorder) Emitted() []*record.Decoded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.emitted)
}

// Refused returns the records the recorder refused, in order.
func (r *Recorder) Refused() []*record.Decoded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.refused)
}

// Kinds returns the kinds of the records emitted so far, by name.
func (r *Recorder) Kinds() []string {
	var out []string
	for _, d := range r.Emitted() {
		out = append(out, record.KindName(d.Kind))
	}
	return out
}

// Reset forgets what was recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emitted, r.refused = nil, nil
}
