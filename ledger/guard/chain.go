package guard

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/record"
)

// ReadFunc reads every message stored on one topic when it is called, in
// partition order (kafka.ReadAll bound to the brokers and the topic).
type ReadFunc func(ctx context.Context, fn func(*message.Message) error) error

// Stamper is the publisher the guard's ledger.Appender writes through: it
// gives every message for the records topic its admission — its place in
// its run's chain, signed with the guard's key — and publishes it. Use it
// for exactly one Appender: the run id and digest it signs are those the
// Appender put in the metadata of records it admitted.
type Stamper struct {
	pub    message.Publisher
	signer *admission.Signer

	mu    sync.Mutex
	heads map[string]admission.Head
	// broken is set once a publish failed: the heads may name places the
	// topic does not hold, and only a rebuild from the topic can tell.
	broken error
}

// NewStamper returns a stamper continuing the chains at heads (Rebuild's),
// signing with key, which v must trust as the ledger's key: otherwise every
// reader would refuse everything the guard writes.
func NewStamper(pub message.Publisher, key ed25519.PrivateKey, heads map[string]admission.Head, v *admission.Verifier) (*Stamper, error) {
	signer, err := admission.NewSigner(key)
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	if !v.Trusts(signer.KeyID()) {
		return nil, fmt.Errorf("guard: the trust policy does not name key %.16s… as the ledger's (identity sealgate/ledger, trusted for record.refused): readers would refuse every admission", signer.KeyID())
	}
	h := make(map[string]admission.Head, len(heads))
	for id, head := range heads {
		h[id] = head
	}
	return &Stamper{pub: pub, signer: signer, heads: h}, nil
}

// parallelSignMin is the batch size from which signing in parallel pays
// for its goroutines.
const parallelSignMin = 16

// Publish stamps msgs, which must be records for the records topic, and
// publishes them.
func (s *Stamper) Publish(topic string, msgs ...*message.Message) error {
	if topic != ledger.Topic {
		return fmt.Errorf("guard: the stamper writes %s only, not %q", ledger.Topic, topic)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return s.broken
	}
	type job struct {
		msg        *message.Message
		prev, next admission.Head
	}
	jobs := make([]job, len(msgs))
	heads := map[string]admission.Head{}
	for i, m := range msgs {
		id, digest := m.Metadata.Get(ledger.MetaRunID), m.Metadata.Get(ledger.MetaDigest)
		if !record.IsDigest(digest) {
			return fmt.Errorf("guard: message %s names no record digest: only an Appender's messages can be stamped", m.UUID)
		}
		prev, ok := heads[id]
		if !ok {
			prev = s.heads[id]
		}
		next := prev.Next(id, digest)
		heads[id] = next
		jobs[i] = job{msg: m, prev: prev, next: next}
	}
	// The links are chained in order above; the signatures are independent.
	sign := func(j job) { j.msg.Metadata.Set(admission.Header, s.signer.Sign(j.prev, j.next).String()) }
	if workers := min(runtime.GOMAXPROCS(0), len(jobs)); len(jobs) < parallelSignMin || workers < 2 {
		for _, j := range jobs {
			sign(j)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
					sign(jobs[i])
				}
			})
		}
		wg.Wait()
	}
	if err := s.pub.Publish(topic, msgs...); err != nil {
		s.broken = fmt.Errorf("guard: publish failed, the chains must be rebuilt from the topic: %w", err)
		return s.broken
	}
	for id, h := range heads {
		s.heads[id] = h
	}
	return nil
}

// Close closes the publisher underneath.
func (s *Stamper) Close() error { return s.pub.Close() }

// Rebuild replays what the guard admitted before — the records on the
// records topic that carry a valid admission, each run's in its chain
// order — into state, and returns the chain heads to continue from and how
// many records it replayed. Any other message (undecodable, unadmitted, a
// forged or misplaced admission, a record whose predecessors are not on the
// topic) is skipped and handed to refuse; a duplicate of an admitted
// message (at-least-once producer) is skipped silently. A record the guard
// admitted that the state now refuses is an error: the trust policy is not
// the one the ledger was written with.
func Rebuild(ctx context.Context, state *authority.State, v *admission.Verifier, read ReadFunc, refuse func(error)) (map[string]admission.Head, int, error) {
	n := 0
	heads, err := ReadAdmitted(ctx, v, read, func(p *admission.Admitted) error {
		raw, err := p.Record.Encoded()
		if err != nil {
			return err
		}
		if err := ledger.Replay(state, raw); err != nil {
			return fmt.Errorf("run %q place %d: %w", p.RunID(), p.Seq, err)
		}
		n++
		return nil
	}, func(m *message.Message, err error) {
		if m != nil {
			err = fmt.Errorf("message %q: %w", m.UUID, err)
		}
		refuse(err)
	})
	if err != nil {
		return nil, n, fmt.Errorf("guard: rebuild: %w", err)
	}
	return heads, n, nil
}

// History reads one run as a service restarted in its middle needs it:
// the run's admitted records in chain order, then the records self (the
// service's own key) proposed for the run that the guard has neither
// admitted nor refused yet — a service restarted between proposing a
// result and seeing it admitted must count it as said, or it would do the
// work again and answer the same token twice. Messages of the run that are
// not admitted are skipped and handed to refuse, as are admitted records
// whose predecessors are missing. Run ids, digests and producers are taken
// from the signed records, never from the metadata, which only narrows
// what is decoded.
func History(ctx context.Context, runID string, v *admission.Verifier, self ed25519.PublicKey, records, proposals ReadFunc, refuse func(error)) ([]*record.Decoded, error) {
	chain := admission.NewChain(runID)
	var out []*record.Decoded
	decided := map[string]bool{}
	place := func(placed []*admission.Admitted) {
		for _, p := range placed {
			decided[p.Record.Digest] = true
			if r := p.Record.Record.GetRecordRefused(); r != nil {
				decided[r.GetRefusedDigest()] = true
			}
			out = append(out, p.Record)
		}
	}
	err := records(ctx, func(m *message.Message) error {
		if m.Metadata.Get(ledger.MetaRunID) != runID {
			return nil
		}
		a, err := v.Check(m.Metadata.Get(admission.Header), m.Payload)
		if err == nil && a.RunID() != runID {
			// A genuine record of another run, relabelled: not this run's.
			err = &admission.Refusal{Code: admission.CodeFork, Detail: fmt.Sprintf("a record of run %q labelled as run %q", a.RunID(), runID)}
		}
		if err != nil {
			refuse(fmt.Errorf("history of run %s: message %q: %w", runID, m.UUID, err))
			return nil
		}
		placed, err := chain.Add(a)
		place(placed)
		if err != nil {
			refuse(fmt.Errorf("history of run %s: message %q: %w", runID, m.UUID, err))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, w := range chain.Waiting() {
		refuse(&admission.Refusal{Code: admission.CodeGap, Detail: fmt.Sprintf("history of run %s: the record admitted at place %d follows places that are not on the topic", runID, w.Seq)})
	}
	selfID := record.KeyID(self)
	err = proposals(ctx, func(m *message.Message) error {
		if m.Metadata.Get(ledger.MetaRunID) != runID || decided[m.Metadata.Get(ledger.MetaDigest)] {
			return nil
		}
		rec, err := record.Decode(m.Payload)
		if err != nil || rec.Record.GetRunId() != runID || rec.Record.GetProducer().GetKeyId() != selfID || decided[rec.Digest] {
			return nil // not this service's to count; the guard judges it
		}
		if err := rec.Verify(self); err != nil {
			return nil
		}
		decided[rec.Digest] = true
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
