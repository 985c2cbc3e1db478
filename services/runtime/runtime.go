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
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/consume"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/telemetry"
)

// Emit signs records as the service and appends them, in order. It returns
// them decoded, so that later records can name them as parents. A record
// the ledger refuses is an error naming the reason.
type Emit func(ctx context.Context, recs ...*pb.Record) ([]*record.Decoded, error)

// Handler is a service's binding to the ledger.
type Handler interface {
	// Handle is called once per admitted record, in ledger order. run holds
	// the records of rec's run seen so far, rec last, and the run's parsed
	// seal once it is sealed. An error is a failure of this record's work
	// (Permanent when trying again cannot mend it), never bad evidence,
	// which a handler answers with records.
	Handle(ctx context.Context, rec *record.Decoded, run Run, emit Emit) error
}

// Ticker is a Handler that also acts on the clock (deadlines).
type Ticker interface {
	Tick(ctx context.Context, now time.Time, runs map[string]Run, emit Emit) error
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
	// History returns every stored record of a run, in ledger order. The
	// service asks for it when a record arrives for a run whose beginning
	// it never saw — after a restart, or when its consumer group moved the
	// run's partition to it — so that the handler sees the whole run, and
	// can tell the work already done from the work still to do. Nil: the
	// service only knows what it consumed.
	History func(ctx context.Context, runID string) ([]*record.Decoded, error)
	// Telemetry receives a span per record handled (in the run's trace)
	// and the service's metrics; nil records nothing.
	Telemetry *telemetry.Providers
	// Admission, when set, makes the service use only what the ledger
	// guard admitted, in its place (the distributed mode, where the
	// records topic is a Kafka topic anybody with access could write):
	// every message must carry a valid admission, and each run's records
	// must follow one another in its chain. A record that arrives after a
	// gap (a restart, a partition handed over) is used only once the run's
	// History — which must then be read from the admitted chain, as
	// guard.History does — holds it. Anything else is refused: skipped,
	// logged and counted (Refusals), never handled and never a reason to
	// stop. Nil trusts the subscription (the embedded mode's local ledger,
	// which only the process writes).
	Admission *admission.Verifier
	// Refusals reports refused messages (share it with the History reader);
	// nil counts them silently.
	Refusals *Refusals
	// Logger receives the service's structured log (retries, failures
	// recorded, refusals); nil discards it.
	Logger *slog.Logger
	// Ready, when set, is called once the service's subscription is live:
	// from then on it receives every record of its topic. Health checks
	// report NOT_SERVING until then.
	Ready func()
	// Retry is how a failed handling is tried again; zero values take the
	// defaults.
	Retry RetryPolicy

	mu   sync.Mutex
	runs map[string][]*record.Decoded
	// seen holds the digests in runs, per run: a record delivered again
	// (at-least-once delivery, or already read with the history) is handled
	// again but listed once.
	seen map[string]map[string]bool
	// closed holds the runs whose verdict this service has seen: what
	// still arrives for them needs no history.
	closed map[string]bool
	// handled holds, per open run, the digests this process handled: a
	// record delivered twice is handled once (a history record was read,
	// not handled). A closed run's set is dropped with its records.
	handled map[string]map[string]bool
	// unsure holds, per run, signed records whose append failed in
	// transport: they may be on the ledger or not. Before the run's next
	// record is handled they are appended again, byte for byte, which the
	// ledger admits once (a repeat is a duplicate). Doing the work again
	// instead would produce a second, different answer to the same token.
	unsure map[string][]*record.Decoded
	// heads holds, per run, the end of its admitted chain as far as this
	// service placed it (Admission set). It outlives the run's records, so
	// that a copy of a closed run's record is still known for what it is.
	heads map[string]admission.Head
	// failed holds the open runs this service recorded as failed: their
	// later records are not handled.
	failed map[string]bool
	// unsealed holds failures on runs whose seal the service has not seen.
	unsealed map[string]*failure
	log      *slog.Logger
	refusals *Refusals
	tracer   trace.Tracer
	metrics  *telemetry.Instruments
	seals    seals
}

// Run serves until ctx ends. Nothing about one run stops it: a record whose
// handling fails is tried again with backoff (Retry), and past the retries —
// at once when the error is Permanent or the handler panicked — the service
// records the run's failure (run.failed), which ends the run INCONCLUSIVE
// naming it, and goes on with every other run. Run returns an error only
// when the service cannot start, when its local log is damaged, or when a
// handler reports damage to the service's own state (Fatal). A
// handler that is an io.Closer is closed when Run returns (workspaces,
// processes).
func (s *Service) Run(ctx context.Context) error {
	if c, ok := s.Handler.(io.Closer); ok {
		defer c.Close()
	}
	s.runs = map[string][]*record.Decoded{}
	s.seen = map[string]map[string]bool{}
	s.closed = map[string]bool{}
	s.handled = map[string]map[string]bool{}
	s.unsure = map[string][]*record.Decoded{}
	s.heads = map[string]admission.Head{}
	s.failed = map[string]bool{}
	s.unsealed = map[string]*failure{}
	s.log = s.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = s.log.With("service", s.Name)
	tel := s.Telemetry
	if tel == nil {
		tel = telemetry.Off()
	}
	s.refusals = s.Refusals
	var err error
	if s.refusals == nil {
		if s.refusals, err = NewRefusals(s.Name, tel, nil); err != nil {
			return fmt.Errorf("%s: metrics: %w", s.Name, err)
		}
	}
	s.tracer = tel.Tracer.Tracer(telemetry.Scope)
	m, err := telemetry.NewInstruments(tel.Meter.Meter(telemetry.Scope))
	if err != nil {
		return fmt.Errorf("%s: metrics: %w", s.Name, err)
	}
	s.metrics = m
	if s.Now == nil {
		s.Now = time.Now
	}
	loop := &consume.Loop{
		Name: s.Name, Sub: s.Sub, Topic: ledger.Topic, Ready: s.Ready, Logger: s.log,
		Pause: s.retry().Max,
		Handle: func(ctx context.Context, msg *message.Message) error {
			err := s.handle(ctx, msg)
			var damaged *damagedError
			if errors.As(err, &damaged) || IsFatal(err) {
				return consume.Stop(err)
			}
			return err
		},
	}
	if ticker, ok := s.Handler.(Ticker); ok {
		loop.Every = s.TickEvery
		if loop.Every == 0 {
			loop.Every = 250 * time.Millisecond
		}
		loop.Tick = func(ctx context.Context) { s.tick(ctx, ticker) }
	}
	// A record whose handling failed past its retries has its run's
	// failure recorded (poison): what still comes back as an error is a
	// ledger that does not answer, and the record is delivered again.
	return loop.Run(ctx)
}

// RetryPolicy is how a service tries a record's handling again.
type RetryPolicy struct {
	// Attempts is how many times a handling is tried in all; zero means 4.
	Attempts int
	// Initial is the first wait between attempts, doubled each time up to
	// Max; zero means 200 ms and 5 s.
	Initial, Max time.Duration
}

func (s *Service) retry() RetryPolicy {
	p := s.Retry
	if p.Attempts <= 0 {
		p.Attempts = 4
	}
	if p.Initial <= 0 {
		p.Initial = 200 * time.Millisecond
	}
	if p.Max <= 0 {
		p.Max = 5 * time.Second
	}
	return p
}

// damagedError is a record of the local log that does not decode: the log
// is damaged, which no run caused and no retry mends.
type damagedError struct{ err error }

func (e *damagedError) Error() string { return e.err.Error() }
func (e *damagedError) Unwrap() error { return e.err }

// tick hands the clock to the handler. A failing or panicking tick is
// logged; the next tick tries again.
func (s *Service) tick(ctx context.Context, ticker Ticker) {
	s.mu.Lock()
	snapshot := make(map[string][]*record.Decoded, len(s.runs))
	for id, recs := range s.runs {
		snapshot[id] = recs
	}
	s.mu.Unlock()
	h := middleware.Recoverer(func(*message.Message) ([]*message.Message, error) {
		return nil, ticker.Tick(ctx, s.Now(), s.seals.runs(snapshot), s.emit)
	})
	if _, err := h(nil); err != nil && ctx.Err() == nil {
		s.log.Warn("tick failed; the next one tries again", "err", oneLine(err))
	}
}

// handle admits and places one message, then runs its record through the
// middleware: trace and metrics, the run's failure past the retries,
// retries with backoff, panic recovery — around the handling itself.
func (s *Service) handle(ctx context.Context, msg *message.Message) error {
	rec, adm, gap, err := s.receive(ctx, msg)
	if err != nil || rec == nil {
		return err
	}
	id := rec.Record.GetRunId()
	s.mu.Lock()
	again := s.handled[id][rec.Digest]
	s.mu.Unlock()
	if again {
		return nil
	}
	policy := s.retry()
	attempts, refused := 0, false
	core := func(m *message.Message) ([]*message.Message, error) {
		attempts++
		var err error
		refused, err = s.process(m.Context(), msg.UUID, rec, adm, gap)
		return nil, err
	}
	h := chain(core,
		s.traced(msg, rec),
		s.poison(rec, &attempts),
		middleware.Retry{
			MaxRetries: policy.Attempts - 1, InitialInterval: policy.Initial, MaxInterval: policy.Max,
			Multiplier: 2, RandomizationFactor: 0.2,
			ShouldRetry: func(p middleware.RetryParams) bool { return retryable(ctx, p.Err) },
			OnRetryHook: func(n int, delay time.Duration) {
				s.metrics.Retries.Add(ctx, 1, metric.WithAttributes(attribute.String("sealgate.service", s.Name), attribute.String("sealgate.record.kind", record.KindName(rec.Kind))))
				s.log.Warn("handling failed; trying again", "run", id, "kind", record.KindName(rec.Kind), "attempt", n+1, "in", delay)
			},
		}.Middleware,
		middleware.Recoverer,
	)
	wm := message.NewMessage(msg.UUID, msg.Payload)
	wm.SetContext(ctx)
	if _, err := h(wm); err != nil || refused {
		// A refused record was never handled: a later delivery, once the
		// run's history holds it, may be.
		return err
	}
	s.mu.Lock()
	if s.handled[id] == nil {
		s.handled[id] = map[string]bool{}
	}
	s.handled[id][rec.Digest] = true
	s.mu.Unlock()
	if rec.Kind == pb.Kind_KIND_VERDICT_REACHED || rec.Kind == pb.Kind_KIND_VERDICT_SEALED {
		s.mu.Lock()
		delete(s.runs, id)
		delete(s.seen, id)
		delete(s.handled, id)
		delete(s.unsure, id)
		delete(s.failed, id)
		delete(s.unsealed, id)
		s.closed[id] = true
		s.mu.Unlock()
	}
	return nil
}

// chain wraps h in middleware, the first outermost.
func chain(h message.HandlerFunc, mw ...message.HandlerMiddleware) message.HandlerFunc {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// retryable reports whether trying again can help: not after a panic, not
// for a Permanent error, not once the service stops or the partition moves.
func retryable(ctx context.Context, err error) bool {
	var p middleware.RecoveredPanicError
	return ctx.Err() == nil && !IsPermanent(err) && !IsFatal(err) && !errors.As(err, &p)
}

// receive decodes msg — with admissions, checks its admission and its place
// in its run's chain. A nil record means: skip it (refused, logged and
// counted; or a copy of a closed run's record).
func (s *Service) receive(ctx context.Context, msg *message.Message) (rec *record.Decoded, adm *admission.Admitted, gap bool, err error) {
	if s.Admission == nil {
		r, err := record.Decode(msg.Payload)
		if err != nil {
			// Only admitted records reach the local log; one that does not
			// decode means the log is damaged. Stop rather than guess.
			return nil, nil, false, &damagedError{fmt.Errorf("record %s does not decode: %w", msg.UUID, err)}
		}
		return r, nil, false, nil
	}
	a, err := s.Admission.Check(msg.Metadata.Get(admission.Header), msg.Payload)
	if err != nil {
		s.refusals.Refuse(ctx, msg.UUID, err)
		return nil, nil, false, nil
	}
	p, err := s.place(a)
	if err != nil {
		s.refusals.Refuse(ctx, msg.UUID, err)
		return nil, nil, false, nil
	}
	if p == placedBefore {
		return nil, nil, false, nil
	}
	return a.Record, a, p == placedAfterGap, nil
}

// traced records a span (in the run's trace) and the service's metrics
// around a record's handling.
func (s *Service) traced(msg *message.Message, rec *record.Decoded) message.HandlerMiddleware {
	return func(h message.HandlerFunc) message.HandlerFunc {
		return func(m *message.Message) ([]*message.Message, error) {
			id := rec.Record.GetRunId()
			attrs := telemetry.Attr(s.Name, id)
			kind := record.KindName(rec.Kind)
			ctx, span := s.tracer.Start(telemetry.Extract(m.Context(), msg.Metadata, id), s.Name+" "+kind,
				trace.WithSpanKind(trace.SpanKindConsumer),
				trace.WithAttributes(append(attrs, attribute.String("sealgate.record.kind", kind), attribute.String("sealgate.record.digest", rec.Digest))...))
			defer span.End()
			s.metrics.Records.Add(ctx, 1, metric.WithAttributes(append(attrs[:1:1], attribute.String("sealgate.record.kind", kind))...))
			if t := rec.Record.GetTimeUnixNano(); t > 0 {
				s.metrics.Lag.Record(ctx, s.Now().Sub(time.Unix(0, t)).Seconds(), metric.WithAttributes(attrs[:1]...))
			}
			m.SetContext(ctx)
			out, err := h(m)
			if err != nil {
				span.RecordError(err)
			}
			return out, err
		}
	}
}

// poison ends the run of a record whose handling failed past its retries:
// it records run.failed and lets the message go. Only when that record
// cannot be appended does the error stay (the message comes back).
func (s *Service) poison(rec *record.Decoded, attempts *int) message.HandlerMiddleware {
	return func(h message.HandlerFunc) message.HandlerFunc {
		return func(m *message.Message) ([]*message.Message, error) {
			out, err := h(m)
			if err == nil || m.Context().Err() != nil || IsFatal(err) {
				return out, err
			}
			return nil, s.fail(m.Context(), rec, err, *attempts)
		}
	}
}

// process is the handling itself: the run's history when the service never
// saw its beginning, records whose append was left unsure, then the
// handler. refused: the record was refused (logged and counted), not
// handled.
func (s *Service) process(ctx context.Context, uuid string, rec *record.Decoded, adm *admission.Admitted, gap bool) (refused bool, err error) {
	id := rec.Record.GetRunId()
	if _, err := s.track(ctx, id, rec, adm, gap); err != nil {
		var r *admission.Refusal
		if errors.As(err, &r) {
			s.refusals.Refuse(ctx, uuid, err)
			return true, nil
		}
		return false, err
	}
	if err := s.settle(ctx, id); err != nil {
		return false, err
	}
	s.mu.Lock()
	run := s.runs[id]
	failed := s.failed[id]
	pending := s.unsealed[id]
	s.mu.Unlock()
	if failed {
		// This service already failed the run: its verdict is decided
		// without this service's part.
		return false, nil
	}
	if pending != nil && SealOf(run) != nil {
		// The service failed on the run before its seal arrived: the
		// failure is recorded now, against it.
		return false, s.fail(ctx, pending.rec, pending.cause, pending.attempts)
	}
	if err := s.failpoint(rec, run); err != nil {
		return false, err
	}
	return false, s.handleRun(ctx, id, rec, run, s.emit)
}

// fail records that the service could not do its part of rec's run.
func (s *Service) fail(ctx context.Context, rec *record.Decoded, cause error, attempts int) error {
	id := rec.Record.GetRunId()
	kind := record.KindName(rec.Kind)
	reason := oneLine(cause)
	var p middleware.RecoveredPanicError
	panicked := errors.As(cause, &p)
	if panicked {
		reason = fmt.Sprintf("panic: %v", p.V)
		s.log.Error("handler panicked", "run", id, "kind", kind, "record", rec.Digest, "panic", fmt.Sprint(p.V), "stack", p.Stacktrace)
	}
	s.mu.Lock()
	already := s.failed[id]
	seal := SealOf(s.runs[id])
	s.mu.Unlock()
	if already {
		s.log.Error("handling failed again in a run already failed", "run", id, "kind", kind, "err", reason)
		return nil
	}
	if seal == nil {
		// run.failed names the run's criteria: it waits for the seal.
		s.log.Error("handling failed before the run's seal; recorded when the seal arrives", "run", id, "kind", kind, "err", reason)
		s.mu.Lock()
		if s.unsealed[id] == nil {
			s.unsealed[id] = &failure{rec: rec, cause: cause, attempts: attempts}
		}
		s.mu.Unlock()
		return nil
	}
	_, err := s.emit(ctx, &pb.Record{
		RunId: id, CriteriaDigest: seal.Record.GetCriteriaDigest(), Parents: []string{rec.Digest},
		Body: &pb.Record_RunFailed{RunFailed: &pb.RunFailed{
			Service: s.Name, FailedKind: kind, FailedRecord: rec.Digest,
			Reason: reason, Attempts: uint32(attempts), Panicked: panicked,
		}},
	})
	var refused *RefusedError
	switch {
	case errors.As(err, &refused):
		// The ledger will not take it (the run is sealed, or an older trust
		// policy does not let this service say so): the run's deadline
		// decides it.
		s.log.Error("the run's failure was refused by the ledger", "run", id, "kind", kind, "err", reason, "refusal", refused.Error())
	case err != nil:
		return fmt.Errorf("record the failure of run %s: %w", id, err)
	default:
		s.log.Error("run failed", "run", id, "kind", kind, "record", rec.Digest, "attempts", attempts, "err", reason)
		s.metrics.Failures.Add(ctx, 1, metric.WithAttributes(attribute.String("sealgate.service", s.Name), attribute.String("sealgate.record.kind", kind)))
	}
	s.mu.Lock()
	s.failed[id] = true
	delete(s.unsealed, id)
	s.mu.Unlock()
	return nil
}

// failure is a run's failure waiting for the run's seal.
type failure struct {
	rec      *record.Decoded
	cause    error
	attempts int
}

// maxReason bounds the failure a run.failed record quotes.
const maxReason = 2000

// oneLine renders err on one bounded line.
func oneLine(err error) string {
	r := strings.Join(strings.Fields(err.Error()), " ")
	if len(r) > maxReason {
		r = r[:maxReason] + "…"
	}
	return r
}

// placement is where an admitted record falls in its run's chain.
type placement int

const (
	// placedNext: the record follows the last one placed.
	placedNext placement = iota
	// placedAgain: a place already passed, of a run still open: a record
	// delivered again, handled once all the same (it may have been read
	// with the history and not handled yet).
	placedAgain
	// placedBefore: a place already passed, of a run closed: a record
	// delivered again, or copied, after the run ended; not handled.
	placedBefore
	// placedAfterGap: the record follows places the service never saw.
	placedAfterGap
)

// place checks that adm takes its place in its run's chain as this service
// holds it, and moves the run's head on. After a gap (the service meets
// the run in its middle: a restart, a partition handed over) the run's
// history must show the record before it is used (track). A copy of a
// place already passed is the record it is, as long as the service knows
// the record at that place; anything else is a *admission.Refusal.
func (s *Service) place(adm *admission.Admitted) (placement, error) {
	id := adm.RunID()
	s.mu.Lock()
	defer s.mu.Unlock()
	head := s.heads[id]
	switch {
	case adm.Follows(head):
		s.heads[id] = adm.Head()
		return placedNext, nil
	case adm.Seq <= head.Seq && s.closed[id]:
		return placedBefore, nil
	case adm.Seq <= head.Seq:
		if s.seen[id][adm.Record.Digest] {
			return placedAgain, nil
		}
		return 0, &admission.Refusal{Code: admission.CodeFork, Detail: fmt.Sprintf("run %q: place %d holds another record", id, adm.Seq)}
	case adm.Seq == head.Seq+1:
		return 0, &admission.Refusal{Code: admission.CodeFork, Detail: fmt.Sprintf("run %q: the record at place %d names another predecessor", id, adm.Seq)}
	case s.closed[id]:
		// A closed run needs no history: the admission shows the record is
		// the run's, and the chain goes on from it.
		s.heads[id] = adm.Head()
		return placedNext, nil
	}
	return placedAfterGap, nil
}

// track adds rec to its run's records, first reading the run's history
// when the service never saw the run begin — or, with admissions, when
// rec follows places it never saw (gap) — and returns the run.
func (s *Service) track(ctx context.Context, id string, rec *record.Decoded, adm *admission.Admitted, gap bool) ([]*record.Decoded, error) {
	s.mu.Lock()
	known := len(s.runs[id]) > 0 || s.closed[id]
	s.mu.Unlock()
	need := !known && rec.Kind != pb.Kind_KIND_RUN_REQUESTED
	if adm != nil {
		need = gap
		if gap && s.History == nil {
			return nil, &admission.Refusal{Code: admission.CodeGap, Detail: fmt.Sprintf("run %q: the record at place %d follows places this service never saw, and it has no history to read them from", id, adm.Seq)}
		}
	}
	if need && s.History != nil {
		hist, err := s.History(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("history of run %s: %w", id, err)
		}
		if adm != nil && !slices.ContainsFunc(hist, func(h *record.Decoded) bool { return h.Digest == rec.Digest }) {
			return nil, &admission.Refusal{Code: admission.CodeGap, Detail: fmt.Sprintf("run %q: the record at place %d is not in the run's admitted history", id, adm.Seq)}
		}
		s.mu.Lock()
		for _, h := range hist {
			s.add(id, h)
		}
		if adm != nil {
			s.heads[id] = adm.Head()
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.add(id, rec)
	return s.runs[id], nil
}

// settle appends again the records of run id whose append failed in
// transport, and lists those the ledger did not refuse in the run.
func (s *Service) settle(ctx context.Context, id string) error {
	s.mu.Lock()
	recs := s.unsure[id]
	s.mu.Unlock()
	if len(recs) == 0 {
		return nil
	}
	decisions, err := s.Appender.Append(ctx, recs...)
	if err != nil {
		return fmt.Errorf("append again %d record(s) of run %s: %w", len(recs), id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.unsure, id)
	for i, d := range decisions {
		if d.Outcome != authority.Refused && i < len(recs) {
			s.add(id, recs[i])
		}
	}
	return nil
}

// add lists r in its run once. The caller holds s.mu.
func (s *Service) add(id string, r *record.Decoded) {
	if s.seen[id] == nil {
		s.seen[id] = map[string]bool{}
	}
	if s.seen[id][r.Digest] {
		return
	}
	s.seen[id][r.Digest] = true
	s.runs[id] = append(s.runs[id], r)
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
		s.mu.Lock()
		for _, d := range out {
			id := d.Record.GetRunId()
			s.unsure[id] = append(s.unsure[id], d)
		}
		s.mu.Unlock()
		return nil, err
	}
	// What the service itself said is part of its view of the run from
	// now on, before the ledger delivers it back: a record delivered again
	// in the meantime must not make it do the same work twice.
	s.mu.Lock()
	for i, d := range decisions {
		id := out[i].Record.GetRunId()
		if d.Outcome != authority.Refused && s.runs[id] != nil {
			s.add(id, out[i])
		}
	}
	s.mu.Unlock()
	countJobs(ctx, s.metrics, s.Name, recs)
	return out, refusals(out, decisions)
}

// RefusedError reports records the ledger refused; their refusals are on
// the ledger.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// SealOf returns the run's criteria.sealed record, or nil.
func SealOf(run []*record.Decoded) *record.Decoded {
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_CRITERIA_SEALED {
			return r
		}
	}
	return nil
}

// countJobs counts the job results among recs in the service's metrics.
func countJobs(ctx context.Context, m *telemetry.Instruments, service string, recs []*pb.Record) {
	for _, r := range recs {
		if res := r.GetJobResult(); res != nil {
			purpose, _, _ := strings.Cut(res.JobId, "/")
			a := metric.WithAttributes(attribute.String("sealgate.service", service), attribute.String("sealgate.job.purpose", purpose),
				attribute.String("sealgate.job.termination", strings.ToLower(strings.TrimPrefix(res.Termination.String(), "TERMINATION_"))))
			m.Jobs.Add(ctx, 1, a)
			m.JobTime.Record(ctx, float64(res.WallNanos)/1e9, a)
		}
	}
}

// refusals is the RefusedError naming the records of out the ledger
// refused (decisions in the same order), nil when it refused none.
func refusals(out []*record.Decoded, decisions []authority.Decision) error {
	var errs []error
	for i, d := range decisions {
		if d.Outcome == authority.Refused {
			errs = append(errs, fmt.Errorf("the ledger refused %s: %s (%s)", record.KindName(out[i].Kind), d.Code, d.Detail))
		}
	}
	if len(errs) > 0 {
		return &RefusedError{Err: errors.Join(errs...)}
	}
	return nil
}
