// Package runtime binds a service's handler to the ledger: it subscribes to
// the record topic under the service's consumer group, keeps each run's
// records in ledger order, hands every record to the handler, and signs and
// appends what the handler emits. Services never call one another: every
// input arrives as an admitted ledger record and every output leaves as one.
package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Emit signs records as the service and appends them, in order. It returns
// them decoded, so that later records can name them as parents. A record
// the ledger refuses is an error naming the reason.
type Emit func(ctx context.Context, recs ...*pb.Record) ([]*record.Decoded, error)

// Handler is a service's binding to the ledger.
type Handler interface {
	// Handle is called once per admitted record, in ledger order. run holds
	// the records of rec's run seen so far, rec last. An error stops the
	// service: it is for failures of the service itself, never for bad
	// evidence, which a handler answers with records.
	Handle(ctx context.Context, rec *record.Decoded, run []*record.Decoded, emit Emit) error
}

// Ticker is a Handler that also acts on the clock (deadlines).
type Ticker interface {
	Tick(ctx context.Context, now time.Time, runs map[string][]*record.Decoded, emit Emit) error
}

// Appender appends signed records to the ledger: the ledger's Appender in
// embedded mode (admission in process), a guard.Proposer in distributed mode
// (admission by the ledger service).
type Appender interface {
	Append(ctx context.Context, recs ...*record.Decoded) ([]authority.Decision, error)
}

// Service is one running service.
type Service struct {
	Name    string
	Signer  *record.Signer
	Handler Handler
	// Sub is the subscriber, under the service's own consumer group.
	Sub      message.Subscriber
	Appender Appender
	// TickEvery is the clock period of a Ticker; zero means 250 ms.
	TickEvery time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu   sync.Mutex
	runs map[string][]*record.Decoded
}

// Run serves until ctx ends or the handler fails. A handler that is an
// io.Closer is closed when Run returns (workspaces, processes).
func (s *Service) Run(ctx context.Context) error {
	if c, ok := s.Handler.(io.Closer); ok {
		defer c.Close()
	}
	s.runs = map[string][]*record.Decoded{}
	if s.Now == nil {
		s.Now = time.Now
	}
	msgs, err := s.Sub.Subscribe(ctx, ledger.Topic)
	if err != nil {
		return fmt.Errorf("%s: subscribe: %w", s.Name, err)
	}
	emit := s.emit
	ticker, _ := s.Handler.(Ticker)
	every := s.TickEvery
	if every == 0 {
		every = 250 * time.Millisecond
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if ticker == nil {
				continue
			}
			s.mu.Lock()
			snapshot := make(map[string][]*record.Decoded, len(s.runs))
			for id, recs := range s.runs {
				snapshot[id] = recs
			}
			s.mu.Unlock()
			if err := ticker.Tick(ctx, s.Now(), snapshot, emit); err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
		case msg, ok := <-msgs:
			if !ok {
				return nil
			}
			if err := s.handle(ctx, msg, emit); err != nil {
				msg.Nack()
				return fmt.Errorf("%s: %w", s.Name, err)
			}
			msg.Ack()
		}
	}
}

func (s *Service) handle(ctx context.Context, msg *message.Message, emit Emit) error {
	rec, err := record.Decode(msg.Payload)
	if err != nil {
		// Only admitted records reach the log; one that does not decode
		// means the log is damaged. Stop rather than guess.
		return fmt.Errorf("record %s does not decode: %w", msg.UUID, err)
	}
	id := rec.Record.GetRunId()
	s.mu.Lock()
	run := append(s.runs[id], rec)
	s.runs[id] = run
	s.mu.Unlock()
	if err := s.Handler.Handle(ctx, rec, run, emit); err != nil {
		return err
	}
	if rec.Kind == pb.Kind_KIND_VERDICT_REACHED || rec.Kind == pb.Kind_KIND_VERDICT_SEALED {
		s.mu.Lock()
		delete(s.runs, id)
		s.mu.Unlock()
	}
	return nil
}

func (s *Service) emit(ctx context.Context, recs ...*pb.Record) ([]*record.Decoded, error) {
	out := make([]*record.Decoded, 0, len(recs))
	for _, r := range recs {
		r.TimeUnixNano = s.Now().UnixNano()
		d, err := s.Signer.Sign(r)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	decisions, err := s.Appender.Append(ctx, out...)
	if err != nil {
		return nil, err
	}
	var errs []error
	for i, d := range decisions {
		if d.Outcome == authority.Refused {
			errs = append(errs, fmt.Errorf("the ledger refused %s: %s (%s)", record.KindName(out[i].Kind), d.Code, d.Detail))
		}
	}
	if len(errs) > 0 {
		return out, &RefusedError{Err: errors.Join(errs...)}
	}
	return out, nil
}

// RefusedError reports records the ledger refused; their refusals are on
// the ledger.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// SealOf returns the run's criteria.sealed record body, or nil.
func SealOf(run []*record.Decoded) *record.Decoded {
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_CRITERIA_SEALED {
			return r
		}
	}
	return nil
}
