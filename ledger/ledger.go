// Package ledger binds sealgate's records to an append-only log.
//
// Records travel as Watermill messages on one topic, so that a run's records
// keep one total order within their partition (Kafka) or the log (local).
// The Appender admits each record through the authority state machine before
// it is published, and publishes a signed refusal in its place when it is
// refused; the Verifier replays a stored ledger offline through the same
// machine.
package ledger

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Topic carries every run record. One topic, keyed by run id, keeps each
// run totally ordered; consumers filter by the kind in the metadata.
const Topic = "sealgate.records.v1"

// Metadata keys set on every record message.
const (
	// MetaRunID is also the Kafka partition key.
	MetaRunID  = "run_id"
	MetaKind   = "kind"
	MetaDigest = "digest"
)

// Message wraps a signed record for the log. The message UUID is the record
// digest, so a redelivered record is recognisably the same message.
func Message(rec *record.Decoded) (*message.Message, error) {
	b, err := rec.Encoded()
	if err != nil {
		return nil, fmt.Errorf("ledger: encode %s: %w", rec.Digest, err)
	}
	return messageOf(rec, b), nil
}

// messageOf wraps a record whose stored form raw is already known (and was
// checked to be canonical when it was decoded).
func messageOf(rec *record.Decoded, raw []byte) *message.Message {
	m := message.NewMessage(rec.Digest, raw)
	m.Metadata.Set(MetaRunID, rec.Record.GetRunId())
	m.Metadata.Set(MetaKind, record.KindName(rec.Kind))
	m.Metadata.Set(MetaDigest, rec.Digest)
	return m
}

// Appender admits records and appends them. It is safe for concurrent use;
// appends are serialized so admission sees the ledger order.
type Appender struct {
	mu    sync.Mutex
	pub   message.Publisher
	state *authority.State
	guard *record.Signer
	now   func() time.Time
	// broken is set when a publish failed after admission changed the
	// state: the in-memory state no longer matches the log, so the appender
	// refuses to go on (reopen to rebuild it from the log).
	broken error
}

// NewAppender returns an appender publishing to pub. state must already hold
// the ledger's existing records (see Replay); guard signs refusals and must be
// trusted for record.refused.
func NewAppender(pub message.Publisher, state *authority.State, guard *record.Signer, now func() time.Time) (*Appender, error) {
	if pub == nil || state == nil || guard == nil {
		return nil, errors.New("ledger: appender needs a publisher, a state and a guard signer")
	}
	if now == nil {
		now = time.Now
	}
	return &Appender{pub: pub, state: state, guard: guard, now: now}, nil
}

// Replay feeds one stored record to the state while rebuilding it at start.
// Every stored record must be admitted: anything else means the log was
// damaged or written by another trust policy.
func Replay(state *authority.State, payload []byte) error {
	d := state.Admit(payload)
	switch d.Outcome {
	case authority.Accepted:
		return nil
	case authority.Duplicate:
		return fmt.Errorf("ledger: stored record %.16s… is stored twice", d.Record.Digest)
	default:
		return fmt.Errorf("ledger: stored record is refused: %s: %s", d.Code, d.Detail)
	}
}

// Append admits each record in order and publishes, in one batch, the
// accepted ones and a signed refusal for each refused one. Duplicates are
// dropped. It returns one decision per record.
func (a *Appender) Append(ctx context.Context, recs ...*record.Decoded) ([]authority.Decision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raws := make([][]byte, len(recs))
	for i, rec := range recs {
		b, err := rec.Encoded()
		if err != nil {
			return nil, fmt.Errorf("ledger: encode: %w", err)
		}
		raws[i] = b
	}
	return a.AppendRaw(ctx, raws...)
}

// AppendRaw is Append for encoded SignedRecords as received from a producer.
func (a *Appender) AppendRaw(ctx context.Context, raws ...[]byte) ([]authority.Decision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Signature checks need no ledger state: run them in parallel, before
	// taking the lock that keeps admission in ledger order.
	prepared := a.prepare(raws)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.broken != nil {
		return nil, a.broken
	}
	decisions := make([]authority.Decision, 0, len(raws))
	msgs := make([]*message.Message, 0, len(raws))
	for i, p := range prepared {
		raw := raws[i]
		d := a.state.AdmitPrepared(p)
		decisions = append(decisions, d)
		switch d.Outcome {
		case authority.Accepted:
			m := messageOf(d.Record, raw)
			InjectTrace(ctx, m.Metadata)
			msgs = append(msgs, m)
		case authority.Refused:
			m, err := a.refusal(raw, d)
			if err != nil {
				a.broken = err
				return nil, err
			}
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 0 {
		return decisions, nil
	}
	if err := a.pub.Publish(Topic, msgs...); err != nil {
		a.broken = fmt.Errorf("ledger: publish failed, the appender must be reopened: %w", err)
		return nil, a.broken
	}
	return decisions, nil
}

// parallelPrepareMin is the batch size from which preparing in parallel pays
// for its goroutines.
const parallelPrepareMin = 16

func (a *Appender) prepare(raws [][]byte) []*authority.Prepared {
	out := make([]*authority.Prepared, len(raws))
	workers := min(runtime.GOMAXPROCS(0), len(raws))
	if len(raws) < parallelPrepareMin || workers < 2 {
		for i, raw := range raws {
			out[i] = a.state.Prepare(raw)
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(raws) {
					return
				}
				out[i] = a.state.Prepare(raws[i])
			}
		})
	}
	wg.Wait()
	return out
}

// refusal signs, admits and wraps the refusal of raw.
func (a *Appender) refusal(raw []byte, d authority.Decision) (*message.Message, error) {
	ref := &pb.RecordRefused{
		ReasonCode:    d.Code,
		Detail:        d.Detail,
		RefusedRecord: raw,
	}
	if d.Record != nil {
		ref.RefusedDigest = d.Record.Digest
		ref.RefusedKind = d.Record.Kind
	}
	rec, err := a.guard.Sign(&pb.Record{
		RunId:        d.RunID(),
		TimeUnixNano: a.now().UnixNano(),
		Body:         &pb.Record_RecordRefused{RecordRefused: ref},
	})
	if err != nil {
		return nil, fmt.Errorf("ledger: sign refusal: %w", err)
	}
	b, err := rec.Encoded()
	if err != nil {
		return nil, err
	}
	if got := a.state.Admit(b); got.Outcome != authority.Accepted {
		return nil, fmt.Errorf("ledger: own refusal not admitted (%s: %s): is the guard key trusted for record.refused?", got.Code, got.Detail)
	}
	return messageOf(rec, b), nil
}
