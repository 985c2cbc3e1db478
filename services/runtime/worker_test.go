package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/work"
)

// jobLog is what the fake runners did: per token, the workers that ran it
// to the end and proposed its result.
type jobLog struct {
	mu  sync.Mutex
	ran map[string][]string
}

func (l *jobLog) runs(tok string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ran[tok]...)
}

func (l *jobLog) total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, w := range l.ran {
		n += len(w)
	}
	return n
}

// runner answers each job with the scenario's passing result, naming
// itself as the worker. A job whose token is hold waits until its context
// ends (a job in flight when the replica loses it).
type runner struct {
	name string
	b    *scenario.Builder
	sc   *scenario.Run
	log  *jobLog
	hold string
	held chan struct{}
}

func (r *runner) RunJob(ctx context.Context, j runtime.Job, emit runtime.Emit) error {
	tok := j.Job.GetToken().GetId()
	if tok == r.hold {
		close(r.held)
		<-ctx.Done()
		return ctx.Err()
	}
	if j.Run.ID != r.sc.ID || j.Plan.Digest != r.sc.Plan.Digest || !j.Run.Sealed() {
		return runtime.Permanent(errors.New("the job came without its run, plan or seal"))
	}
	res, err := r.b.Result(r.sc, j.Job, int64(time.Millisecond))
	if err != nil {
		return err
	}
	rec := proto.Clone(res.Record).(*pb.Record)
	rec.GetJobResult().Worker = r.name
	if _, err := emit(ctx, rec); err != nil {
		return err
	}
	// Logged once proposed: a job whose context ended mid-run (its
	// partition moved in a rebalance) proposes nothing and is run again by
	// the partition's next owner — work done twice, answered once.
	r.log.mu.Lock()
	r.log.ran[tok] = append(r.log.ran[tok], r.name)
	r.log.mu.Unlock()
	return nil
}

// forgedItems are work items no admitted plan holds: another token,
// another job id, another plan digest, another planner, another run; and
// a payload that is no item.
func forgedItems(t *testing.T, sc *scenario.Run) []*message.Message {
	t.Helper()
	good := work.Items(sc.Plan, nil)[0]
	var out []*message.Message
	for _, alter := range []func(*work.Item){
		func(it *work.Item) { it.Token = "claim-999-patch" },
		func(it *work.Item) { it.Job = "claim-001-patch" },
		func(it *work.Item) { it.Plan = sc.Trees.Digest },
		func(it *work.Item) { it.Planner = keyring.Mutation },
		func(it *work.Item) { it.Run = "run-other" },
	} {
		it := good
		alter(&it)
		m, err := it.Message()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return append(out, message.NewMessage("junk", []byte(`{"v":1,"run":"x"}`)))
}

// answeredOn returns the tokens the run's job.results on recs consume.
func answeredOn(recs []*record.Decoded) map[string]int {
	out := map[string]int{}
	for _, r := range recs {
		if r.Kind == pb.Kind_KIND_JOB_RESULT {
			out[r.Record.GetToken()]++
		}
	}
	return out
}

// localRun reads a run from the local ledger.
func localRun(log *local.Log) func(ctx context.Context, id string) ([]*record.Decoded, error) {
	return func(ctx context.Context, id string) ([]*record.Decoded, error) {
		var out []*record.Decoded
		err := log.Scan(ctx, 1, func(e local.Entry, err error) error {
			if err != nil {
				return err
			}
			if e.Topic != ledger.Topic || e.Metadata[ledger.MetaRunID] != id {
				return nil
			}
			rec, err := record.Decode(e.Payload)
			if err != nil {
				return err
			}
			out = append(out, rec)
			return nil
		})
		return out, err
	}
}

// Over the real local log: two workers of one group share a plan's jobs,
// every job is run once and answered once; forged items run nothing; the
// items published again (a plan delivered again) run nothing either.
func TestWorkersOverLocalLog(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	keys, _, log, app := localLedger(t)
	b := scenario.NewBuilder(keys, nil)
	sc, err := b.NewRun("run-w", 12)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Append(ctx, sc.Request, sc.Seal, sc.Trees, sc.Plan); err != nil {
		t.Fatal(err)
	}
	pub, err := local.NewPublisher(log)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := keys.Signer(keyring.Executor)
	if err != nil {
		t.Fatal(err)
	}
	jl := &jobLog{ran: map[string][]string{}}
	var workers []*runtime.Worker
	var wg sync.WaitGroup
	wctx, stop := context.WithCancel(ctx)
	for _, name := range []string{"a", "b"} {
		sub, err := local.NewSubscriber(log, local.SubscriberConfig{ConsumerGroup: "executor.work"})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		w := &runtime.Worker{Name: "executor", Planner: keyring.Executor, Replica: name, Signer: signer, Sub: sub, Appender: app,
			Runner: &runner{name: name, b: b, sc: sc, log: jl}, History: localRun(log)}
		workers = append(workers, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Run(wctx); err != nil {
				t.Errorf("worker %s: %v", name, err)
			}
		}()
	}
	defer func() {
		stop()
		wg.Wait()
	}()
	refused := func() int64 { return workers[0].Refused() + workers[1].Refused() }
	forged := forgedItems(t, sc)
	if err := pub.Publish(work.Topic, forged...); err != nil {
		t.Fatal(err)
	}
	items := work.Items(sc.Plan, nil)
	if err := work.Publish(pub, items); err != nil {
		t.Fatal(err)
	}
	// The group delivers in order: once a forged item published after the
	// jobs is refused, every job before it has been taken.
	barrier := func(want int64) {
		if err := pub.Publish(work.Topic, forged[0]); err != nil {
			t.Fatal(err)
		}
		for refused() < want {
			if ctx.Err() != nil {
				t.Fatalf("refused %d work items, want %d", refused(), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	barrier(int64(len(forged)) + 1)
	if jl.total() != len(items) {
		t.Fatalf("%d jobs run, want %d (forged items must run nothing)", jl.total(), len(items))
	}
	hist, err := localRun(log)(ctx, sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := answeredOn(hist)
	for _, it := range items {
		if got[it.Token] != 1 || len(jl.runs(it.Token)) != 1 {
			t.Errorf("token %s: %d results on the ledger, run by %v; want one", it.Token, got[it.Token], jl.runs(it.Token))
		}
	}
	// The plan delivered again publishes its items again: all answered.
	if err := work.Publish(pub, items); err != nil {
		t.Fatal(err)
	}
	barrier(int64(len(forged)) + 2)
	if jl.total() != len(items) {
		t.Fatalf("%d jobs run after the items came again, want still %d", jl.total(), len(items))
	}
}

// Over a real Kafka broker (kfake), with the ledger guard: two workers of
// one group take the jobs of one run from a many-partition work topic; the
// one holding a job loses it (it leaves the group, as a replica whose lease
// ends does): the job's context ends, it proposes nothing, and the other
// worker runs the job. Every token has one admitted result, forged items
// run nothing.
func TestWorkersOverKafka(t *testing.T) {
	c := newCluster(t)
	if err := kafka.CreateTopic(c.ctx, c.brokers, work.Topic, 8); err != nil {
		t.Fatal(err)
	}
	c.startGuard()
	b := scenario.NewBuilder(c.k.keys, nil)
	sc, err := b.NewRun("run-k", 10)
	if err != nil {
		t.Fatal(err)
	}
	c.propose(sc.Request, sc.Seal, sc.Trees, sc.Plan)
	c.admittedMessage(sc.Plan)
	signer, err := c.k.keys.Signer(keyring.Executor)
	if err != nil {
		t.Fatal(err)
	}
	none := func(context.Context, func(*message.Message) error) error { return nil }
	admitted := func(ctx context.Context, id string) ([]*record.Decoded, error) {
		return guard.History(ctx, id, c.k.v, signer.PublicKey(), c.reader(ledger.Topic), none, func(error) {})
	}
	pending := func(ctx context.Context, id string) ([]*record.Decoded, error) {
		return guard.History(ctx, id, c.k.v, signer.PublicKey(), none, c.reader(guard.ProposalTopic), func(error) {})
	}
	items := work.Items(sc.Plan, nil)
	held := items[3].Token
	jl := &jobLog{ran: map[string][]string{}}
	start := func(name, hold string) (*runtime.Worker, chan struct{}, func()) {
		sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: c.brokers, ConsumerGroup: "executor.work",
			SessionTimeout: 6 * time.Second, HeartbeatInterval: time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := &runner{name: name, b: b, sc: sc, log: jl, hold: hold, held: make(chan struct{})}
		w := &runtime.Worker{Name: "executor", Planner: keyring.Executor, Replica: name, Signer: signer, Sub: sub,
			Appender: &guard.Proposer{Pub: c.pub}, Runner: r, History: admitted, Pending: pending, Pause: 100 * time.Millisecond}
		ctx, cancel := context.WithCancel(c.ctx)
		done := make(chan error, 1)
		go func() { done <- w.Run(ctx) }()
		return w, r.held, func() {
			sub.Close()
			cancel()
			if err := <-done; err != nil {
				t.Errorf("worker %s: %v", name, err)
			}
		}
	}
	// a holds the job of token held; b joins once a holds it.
	wa, heldByA, stopA := start("a", held)
	if err := work.Publish(c.pub, items); err != nil {
		t.Fatal(err)
	}
	if err := c.pub.Publish(work.Topic, forgedItems(t, sc)...); err != nil {
		t.Fatal(err)
	}
	select {
	case <-heldByA:
	case <-c.ctx.Done():
		t.Fatal("worker a never took the held job")
	}
	wb, _, stopB := start("b", "")
	defer stopB()
	// a leaves: the partition of the held job goes to b.
	stopA()
	for {
		hist, err := admitted(c.ctx, sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := answeredOn(hist)
		if len(got) == len(items) {
			for tok, n := range got {
				if n != 1 {
					t.Errorf("token %s: %d admitted results", tok, n)
				}
			}
			break
		}
		c.wait(fmt.Sprintf("every job answered (%d of %d)", len(got), len(items)))
	}
	if by := jl.runs(held); len(by) != 1 || by[0] != "b" {
		t.Errorf("the held job was run by %v, want by b alone", by)
	}
	for _, it := range items {
		if by := jl.runs(it.Token); len(by) != 1 {
			t.Errorf("token %s answered by %v, want by one worker once", it.Token, by)
		}
	}
	for wa.Refused()+wb.Refused() < int64(len(forgedItems(t, sc))) {
		c.wait("the forged items to be refused")
	}
}

// A token answered twice: the same result again is a duplicate (nothing
// new on the ledger), a different one — another replica's — is refused as
// a conflict, and that refusal is on the run (the adjudication counts it
// against the run: INCONCLUSIVE, never a silent pick of one answer).
func TestTokenAnsweredTwice(t *testing.T) {
	ctx := context.Background()
	keys, _, log, app := localLedger(t)
	b := scenario.NewBuilder(keys, nil)
	sc, err := b.NewRun("run-t", 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Append(ctx, sc.Request, sc.Seal, sc.Trees, sc.Plan, sc.Results[0]); err != nil {
		t.Fatal(err)
	}
	d, err := app.Append(ctx, sc.Results[0])
	if err != nil || d[0].Outcome != authority.Duplicate {
		t.Fatalf("the same result again: %v, %v; want a duplicate", d, err)
	}
	other := proto.Clone(sc.Results[0].Record).(*pb.Record)
	other.GetJobResult().Worker = "replica-2"
	rec, err := b.Sign(keyring.Executor, other)
	if err != nil {
		t.Fatal(err)
	}
	d, err = app.Append(ctx, rec)
	if err != nil || d[0].Outcome != authority.Refused || d[0].Code != authority.CodeTokenConflict {
		t.Fatalf("another replica's result for the token: %+v, %v; want refused %s", d, err, authority.CodeTokenConflict)
	}
	hist, err := localRun(log)(ctx, sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := answeredOn(hist)[sc.Results[0].Record.GetToken()]; n != 1 {
		t.Fatalf("%d admitted results for the token, want 1", n)
	}
	refusals := 0
	for _, r := range hist {
		if ref := r.Record.GetRecordRefused(); ref != nil && ref.GetReasonCode() == authority.CodeTokenConflict {
			refusals++
		}
	}
	if refusals != 1 {
		t.Fatalf("%d token_conflict refusals on the run, want 1", refusals)
	}
}

// failing fails every job for good.
type failing struct{}

func (failing) RunJob(context.Context, runtime.Job, runtime.Emit) error {
	return runtime.Permanent(errors.New("the trees do not rebuild"))
}

// A job whose running fails for good ends its run INCONCLUSIVE: the worker
// records run.failed naming the plan and the job, once, and goes on.
func TestWorkerRecordsAFailedJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	keys, _, log, app := localLedger(t)
	sc, err := scenario.NewBuilder(keys, nil).NewRun("run-f", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Append(ctx, sc.Request, sc.Seal, sc.Trees, sc.Plan); err != nil {
		t.Fatal(err)
	}
	pub, err := local.NewPublisher(log)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := local.NewSubscriber(log, local.SubscriberConfig{ConsumerGroup: "executor.work"})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	signer, err := keys.Signer(keyring.Executor)
	if err != nil {
		t.Fatal(err)
	}
	w := &runtime.Worker{Name: "executor", Planner: keyring.Executor, Signer: signer, Sub: sub, Appender: app, Runner: failing{}, History: localRun(log)}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	if err := work.Publish(pub, work.Items(sc.Plan, nil)); err != nil {
		t.Fatal(err)
	}
	for {
		hist, err := localRun(log)(ctx, sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		var failed []*pb.RunFailed
		for _, r := range hist {
			if f := r.Record.GetRunFailed(); f != nil {
				failed = append(failed, f)
			}
		}
		if len(failed) > 0 {
			f := failed[0]
			if len(failed) != 1 || f.FailedRecord != sc.Plan.Digest || f.Service != "executor" || !strings.Contains(f.Reason, "the trees do not rebuild") {
				t.Fatalf("run.failed %v", failed)
			}
			return
		}
		if ctx.Err() != nil {
			t.Fatal("no run.failed recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
