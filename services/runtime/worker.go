package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"go.opentelemetry.io/otel/trace"

	"github.com/sealgate/sealgate/ledger/consume"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/telemetry"
	"github.com/sealgate/sealgate/services/work"
)

// JobRunner runs one planned job and proposes its result (a job.result
// consuming the job's token) with emit.
type JobRunner interface {
	RunJob(ctx context.Context, job Job, emit Emit) error
}

// Job is one job a worker took: the run as the ledger holds it, the
// admitted job.planned record that plans the job, and the job.
type Job struct {
	Run  Run
	Plan *record.Decoded
	Job  *pb.Job
}

// Worker takes jobs from the work topic (work.Topic) — any job of any run,
// planned by Planner — and runs each with its Runner. Every replica of a
// service runs Workers under one consumer group, so the jobs of one run
// spread over the replicas.
//
// A work item is not trusted: the worker reads the run (History) and acts
// only on the job the item names by token in an admitted job.planned
// record of the run signed by Planner; anything else is refused (logged,
// counted, acknowledged, never run). Before running, it skips a job whose
// token the ledger already holds an answer to — or one of this service's
// proposals does (Pending) — and a run whose verdict is reached.
//
// The lease: the item is acknowledged only once its result is proposed.
// A replica that dies mid-job never acknowledges it; its consumer group
// hands the partition to a live replica once the dead one's session times
// out (its heartbeats are the lease's renewal), and that replica runs the
// job again. A replica that loses the partition while it runs the job (a
// rebalance) has the job's context cancelled: it stops the job and
// proposes nothing, so that the partition's next owner is the only one to
// answer. Should two answers to one token reach the ledger all the same,
// the ledger admits the first; a byte-identical second is a duplicate, a
// different one is refused (token_conflict), and that refusal makes the
// run INCONCLUSIVE — never a silent pick.
type Worker struct {
	// Name names the worker in logs and as the service of run.failed.
	Name string
	// Planner is the identity whose plans this worker runs.
	Planner string
	// Replica names this process in the worker's log lines.
	Replica string
	Signer  *record.Signer
	Runner  JobRunner
	// Sub is the subscriber to the work topic, under the service's work
	// consumer group. One Worker is one lane: one job at a time.
	Sub      message.Subscriber
	Appender Appender
	// History returns the run's admitted records, in ledger order.
	History func(ctx context.Context, runID string) ([]*record.Decoded, error)
	// Pending, when set, returns the records this service proposed for
	// the run that the ledger has not decided yet (and may return admitted
	// ones too): a token answered there is not run again.
	Pending func(ctx context.Context, runID string) ([]*record.Decoded, error)
	// Attempts is how many times a job whose running fails is tried before
	// the run's failure is recorded; zero means 4.
	Attempts int
	// Pause is the wait before a failed item is delivered again; zero
	// means one second.
	Pause     time.Duration
	Now       func() time.Time
	Logger    *slog.Logger
	Telemetry *telemetry.Providers
	// Ready is called once the subscription is live.
	Ready func()

	refused  atomic.Int64
	mu       sync.Mutex
	attempts map[string]int
	metrics  *telemetry.Instruments
	tracer   trace.Tracer
	log      *slog.Logger
}

// Refused is how many work items this worker refused.
func (w *Worker) Refused() int64 { return w.refused.Load() }

// Run takes jobs until ctx ends or the subscription closes.
func (w *Worker) Run(ctx context.Context) error {
	if w.Now == nil {
		w.Now = time.Now
	}
	if w.Attempts <= 0 {
		w.Attempts = 4
	}
	w.attempts = map[string]int{}
	w.log = w.Logger
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	w.log = w.log.With("worker", w.Name, "replica", w.Replica)
	tel := w.Telemetry
	if tel == nil {
		tel = telemetry.Off()
	}
	m, err := telemetry.NewInstruments(tel.Meter.Meter(telemetry.Scope))
	if err != nil {
		return fmt.Errorf("%s: metrics: %w", w.Name, err)
	}
	w.metrics = m
	w.tracer = tel.Tracer.Tracer(telemetry.Scope)
	loop := &consume.Loop{Name: w.Name, Sub: w.Sub, Topic: work.Topic, Ready: w.Ready, Logger: w.log, Pause: w.Pause,
		Handle: w.handle}
	return loop.Run(ctx)
}

// refuse logs and counts an item that names no job to run.
func (w *Worker) refuse(msg *message.Message, err error) {
	n := w.refused.Add(1)
	w.log.Warn("refused a work item", "message", msg.UUID, "err", oneLine(err), "refused", n)
}

// handle takes one item: an error sends it back (delivered again after
// the pause), nil acknowledges it.
func (w *Worker) handle(ctx context.Context, msg *message.Message) error {
	it, err := work.Parse(msg.Payload)
	if err != nil {
		w.refuse(msg, err)
		return nil
	}
	if it.Planner != w.Planner {
		w.refuse(msg, fmt.Errorf("a job planned by %q, this worker runs the jobs of %q", it.Planner, w.Planner))
		return nil
	}
	hist, err := w.History(ctx, it.Run)
	if err != nil {
		return fmt.Errorf("history of run %s: %w", it.Run, err)
	}
	plan, job := work.Find(hist, it)
	if job == nil {
		w.refuse(msg, fmt.Errorf("run %q holds no admitted job.planned %.16s… of %s with job %q and token %q", it.Run, it.Plan, it.Planner, it.Job, it.Token))
		return nil
	}
	if ended(hist) || answered(hist, it.Token) {
		return nil
	}
	if w.Pending != nil {
		mine, err := w.Pending(ctx, it.Run)
		if err != nil {
			return fmt.Errorf("proposals of run %s: %w", it.Run, err)
		}
		if answered(mine, it.Token) {
			return nil
		}
	}
	run, err := RunOf(it.Run, hist)
	if err == nil && !run.Sealed() {
		err = Permanent(fmt.Errorf("run %s: a plan admitted before the run's seal", it.Run))
	}
	if err == nil {
		w.log.Info("job taken", "run", it.Run, "job", it.Job, "token", it.Token)
		// The job's span (the runner's job span under it) joins the run's
		// trace, as the handling of a record does.
		jctx, span := w.tracer.Start(telemetry.Extract(ctx, msg.Metadata, it.Run), w.Name+" work item",
			trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(telemetry.Attr(w.Name, it.Run)...))
		err = w.run(jctx, Job{Run: run, Plan: plan, Job: job})
		if err != nil {
			span.RecordError(err)
		}
		span.End()
	}
	key := it.Run + "/" + it.Token
	if err == nil || ctx.Err() != nil {
		if err == nil {
			w.mu.Lock()
			delete(w.attempts, key)
			w.mu.Unlock()
		}
		return err
	}
	w.mu.Lock()
	w.attempts[key]++
	n := w.attempts[key]
	w.mu.Unlock()
	var p middleware.RecoveredPanicError
	if n < w.Attempts && !IsPermanent(err) && !errors.As(err, &p) {
		w.log.Warn("job failed; it will be taken again", "run", it.Run, "job", it.Job, "attempt", n, "err", oneLine(err))
		return err
	}
	w.mu.Lock()
	delete(w.attempts, key)
	w.mu.Unlock()
	return w.fail(ctx, run, plan, job, err, n)
}

// run runs the job, a panic an error.
func (w *Worker) run(ctx context.Context, j Job) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = middleware.RecoveredPanicError{V: r}
		}
	}()
	return w.Runner.RunJob(ctx, j, w.emit)
}

// fail records that the service could not run the job: the run ends
// INCONCLUSIVE naming it.
func (w *Worker) fail(ctx context.Context, run Run, plan *record.Decoded, job *pb.Job, cause error, attempts int) error {
	reason := oneLine(cause)
	var p middleware.RecoveredPanicError
	panicked := errors.As(cause, &p)
	if panicked {
		reason = fmt.Sprintf("panic: %v", p.V)
	}
	if run.Seal == nil {
		w.log.Error("job failed in a run without a seal", "run", run.ID, "job", job.GetJobId(), "err", reason)
		return nil
	}
	_, err := w.emit(ctx, &pb.Record{
		RunId: run.ID, CriteriaDigest: run.Seal.Record.GetCriteriaDigest(), Parents: []string{plan.Digest},
		Body: &pb.Record_RunFailed{RunFailed: &pb.RunFailed{
			Service: w.Name, FailedKind: record.KindName(plan.Kind), FailedRecord: plan.Digest,
			Reason: "job " + job.GetJobId() + ": " + reason, Attempts: uint32(attempts), Panicked: panicked,
		}},
	})
	if err != nil && !Refused(err) {
		return fmt.Errorf("record the failure of run %s: %w", run.ID, err)
	}
	w.log.Error("run failed", "run", run.ID, "job", job.GetJobId(), "attempts", attempts, "err", reason)
	return nil
}

// emit signs and proposes records — unless the item's context ended (the
// partition moved to another replica, or the process stops): then the
// next owner answers the job, and this worker says nothing.
func (w *Worker) emit(ctx context.Context, recs ...*pb.Record) ([]*record.Decoded, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]*record.Decoded, 0, len(recs))
	for _, r := range recs {
		r.TimeUnixNano = w.Now().UnixNano()
		d, err := w.Signer.Sign(r)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	decisions, err := w.Appender.Append(ctx, out...)
	if err != nil {
		return nil, err
	}
	countJobs(ctx, w.metrics, w.Name, recs)
	return out, refusals(out, decisions)
}

// answered reports whether run holds a job.result consuming token.
func answered(run []*record.Decoded, token string) bool {
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_JOB_RESULT && r.Record.GetToken() == token {
			return true
		}
	}
	return false
}

// ended reports whether run's verdict is reached: its jobs need no answer.
func ended(run []*record.Decoded) bool {
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_VERDICT_REACHED || r.Kind == pb.Kind_KIND_VERDICT_SEALED {
			return true
		}
	}
	return false
}
