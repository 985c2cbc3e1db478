package runtime_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/runtime"
)

// checkoutLike answers a seal with trees, once with a record the ledger
// must refuse (no parent) and then with a good one.
type checkoutLike struct {
	mu      sync.Mutex
	refused error
	seen    []pb.Kind
	ticks   int
	done    chan struct{}
}

func (h *checkoutLike) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	h.mu.Lock()
	h.seen = append(h.seen, rec.Kind)
	h.mu.Unlock()
	switch rec.Kind {
	case pb.Kind_KIND_CRITERIA_SEALED:
		if run.Seal != rec || run.Criteria == nil || run.Criteria.Digest != rec.Record.CriteriaDigest {
			return errors.New("the run is not handed its parsed seal")
		}
		body := &pb.TreesMaterialized{BaselineTreeDigest: "b", PatchTreeDigest: "p"}
		_, err := emit(ctx, &pb.Record{RunId: rec.Record.RunId, CriteriaDigest: rec.Record.CriteriaDigest,
			Body: &pb.Record_TreesMaterialized{TreesMaterialized: body}})
		h.mu.Lock()
		h.refused = err
		h.mu.Unlock()
		_, err = emit(ctx, &pb.Record{RunId: rec.Record.RunId, CriteriaDigest: rec.Record.CriteriaDigest, Parents: []string{rec.Digest},
			Body: &pb.Record_TreesMaterialized{TreesMaterialized: body}})
		return err
	case pb.Kind_KIND_TREES_MATERIALIZED:
		close(h.done)
	}
	return nil
}

func (h *checkoutLike) Tick(context.Context, time.Time, map[string]runtime.Run, runtime.Emit) error {
	h.mu.Lock()
	h.ticks++
	h.mu.Unlock()
	return nil
}

// localLedger is a real local ledger admitting records by a fresh key
// ring's trust policy, closed when t ends.
func localLedger(t *testing.T) (*keyring.Keyring, *authority.Trust, *local.Log, *ledger.Appender) {
	t.Helper()
	keys, err := keyring.LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	log, err := local.Open(filepath.Join(t.TempDir(), "ledger.db"), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	pub, err := local.NewPublisher(log)
	if err != nil {
		t.Fatal(err)
	}
	guard, err := keys.Signer(keyring.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	app, err := ledger.NewAppender(pub, authority.New(trust), guard, nil)
	if err != nil {
		t.Fatal(err)
	}
	return keys, trust, log, app
}

// TestServiceOverLocalLedger runs a service against a real local ledger:
// it sees every admitted record in order, its records are signed as its
// identity and admitted, and a record the ledger refuses comes back as a
// RefusedError with its signed refusal on the ledger.
func TestServiceOverLocalLedger(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	keys, trust, log, app := localLedger(t)
	sub, err := local.NewSubscriber(log, local.SubscriberConfig{ConsumerGroup: "checkout"})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	signer, err := keys.Signer(keyring.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	h := &checkoutLike{done: make(chan struct{})}
	svc := &runtime.Service{Name: "checkout", Signer: signer, Handler: h, Sub: sub, Appender: app, TickEvery: 10 * time.Millisecond}
	errc := make(chan error, 1)
	go func() { errc <- svc.Run(ctx) }()

	run, err := scenario.NewBuilder(keys, nil).NewRun("run-1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Append(ctx, run.Request, run.Seal); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.done:
	case err := <-errc:
		t.Fatalf("service stopped: %v", err)
	case <-ctx.Done():
		t.Fatal("the service's trees never reached the ledger")
	}
	for ticked := false; !ticked; {
		h.mu.Lock()
		ticked = h.ticks > 0
		h.mu.Unlock()
		select {
		case <-ctx.Done():
			t.Fatal("the ticker never ticked")
		case <-time.After(5 * time.Millisecond):
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var re *runtime.RefusedError
	if !errors.As(h.refused, &re) {
		t.Fatalf("a record without parents was not refused: %v", h.refused)
	}
	want := []pb.Kind{pb.Kind_KIND_RUN_REQUESTED, pb.Kind_KIND_CRITERIA_SEALED, pb.Kind_KIND_RECORD_REFUSED, pb.Kind_KIND_TREES_MATERIALIZED}
	if len(h.seen) != len(want) {
		t.Fatalf("saw %v, want %v", h.seen, want)
	}
	for i := range want {
		if h.seen[i] != want[i] {
			t.Fatalf("saw %v, want %v", h.seen, want)
		}
	}
	// The whole ledger re-verifies offline.
	reverify(t, trust, log)
}

// reverify checks every record of log offline against trust.
func reverify(t *testing.T, trust *authority.Trust, log *local.Log) {
	t.Helper()
	v := ledger.NewVerifier(trust)
	err := log.Scan(context.Background(), 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if p := v.Next(e.Seq, e.Payload); p != nil {
			return p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := v.Finish(); p != nil {
		t.Fatal(p)
	}
}

// chanSub delivers the messages the test hands it, as a broker would,
// including again after a nack.
type chanSub struct{ c chan *message.Message }

func (s chanSub) Subscribe(context.Context, string) (<-chan *message.Message, error) { return s.c, nil }
func (s chanSub) Close() error                                                       { return nil }

// lostAck appends for real and then reports a transport failure once, and
// ends the delivery the append was made for, as a broker that goes away
// after it stored a write but before it acknowledged it.
type lostAck struct {
	app  runtime.Appender
	once sync.Once
	drop func()
}

func (l *lostAck) Append(ctx context.Context, recs ...*record.Decoded) ([]authority.Decision, error) {
	d, err := l.app.Append(ctx, recs...)
	lost := false
	l.once.Do(func() { lost = true })
	if lost && err == nil {
		l.drop()
		return nil, errors.New("write acknowledgement lost")
	}
	return d, err
}

// worker answers the seal with trees once: only when its view of the run
// does not hold its own answer yet, as the executor skips answered tokens.
type worker struct {
	mu    sync.Mutex
	works int
}

func (w *worker) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	if rec.Kind != pb.Kind_KIND_CRITERIA_SEALED {
		return nil
	}
	for _, r := range run.Records {
		if r.Kind == pb.Kind_KIND_TREES_MATERIALIZED {
			return nil
		}
	}
	w.mu.Lock()
	w.works++
	w.mu.Unlock()
	_, err := emit(ctx, &pb.Record{RunId: rec.Record.RunId, CriteriaDigest: rec.Record.CriteriaDigest, Parents: []string{rec.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{BaselineTreeDigest: "b", PatchTreeDigest: time.Now().String()}}})
	return err
}

// TestLostAcknowledgementIsNotWorkRedone: an answer the ledger stored but
// never acknowledged is appended again byte for byte when its record is
// delivered again, and the work is not done a second time — a second,
// different answer would conflict with the first.
func TestLostAcknowledgementIsNotWorkRedone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	keys, _, log, app := localLedger(t)
	signer, err := keys.Signer(keyring.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	run, err := scenario.NewBuilder(keys, nil).NewRun("run-1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Append(ctx, run.Request, run.Seal); err != nil {
		t.Fatal(err)
	}
	msgOf := func(r *record.Decoded) (*message.Message, context.CancelFunc) {
		m, err := ledger.Message(r)
		if err != nil {
			t.Fatal(err)
		}
		mctx, mcancel := context.WithCancel(ctx)
		m.SetContext(mctx)
		return m, mcancel
	}
	first, drop := msgOf(run.Seal)
	msgs := make(chan *message.Message, 4)
	w := &worker{}
	svc := &runtime.Service{Name: "checkout", Signer: signer, Handler: w, Sub: chanSub{msgs}, Appender: &lostAck{app: app, drop: drop}}
	errc := make(chan error, 1)
	go func() { errc <- svc.Run(ctx) }()

	req, _ := msgOf(run.Request)
	msgs <- req
	msgs <- first
	select {
	case <-first.Nacked():
	case <-first.Acked():
		t.Fatal("a delivery whose answer was not acknowledged was acked")
	case err := <-errc:
		t.Fatalf("service stopped: %v", err)
	}
	again, _ := msgOf(run.Seal)
	msgs <- again
	select {
	case <-again.Acked():
	case <-again.Nacked():
		t.Fatal("the delivery again was nacked")
	case err := <-errc:
		t.Fatalf("service stopped: %v", err)
	}
	cancel()
	<-errc
	if w.works != 1 {
		t.Fatalf("the work was done %d times, want once", w.works)
	}
	trees := 0
	err = log.Scan(context.Background(), 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Metadata[ledger.MetaKind] == record.KindName(pb.Kind_KIND_TREES_MATERIALIZED) {
			trees++
		}
		if e.Metadata[ledger.MetaKind] == record.KindName(pb.Kind_KIND_RECORD_REFUSED) {
			t.Errorf("the ledger refused a record")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if trees != 1 {
		t.Fatalf("%d trees records on the ledger, want 1", trees)
	}
}
