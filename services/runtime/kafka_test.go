package runtime_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	"github.com/sealgate/sealgate/services/runtime"
)

// cluster is the distributed mode in one test: an in-process Kafka broker
// (kfake), the ledger guard admitting proposals into the records topic,
// and services consuming it.
type cluster struct {
	t       *testing.T
	ctx     context.Context
	brokers []string
	k       *keyed
	pub     *kafka.Publisher
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	kc, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	c := &cluster{t: t, ctx: ctx, brokers: kc.ListenAddrs(), k: newKeyed(t)}
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if err := kafka.CreateTopic(ctx, c.brokers, topic, 2); err != nil {
			t.Fatal(err)
		}
	}
	if c.pub, err = kafka.NewPublisher(kafka.PublisherConfig{Brokers: c.brokers}, watermill.NopLogger{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.pub.Close() })
	return c
}

func (c *cluster) reader(topic string) guard.ReadFunc {
	return func(ctx context.Context, fn func(*message.Message) error) error {
		return kafka.ReadAll(ctx, c.brokers, topic, func(_ int, _ int64, m *message.Message) error { return fn(m) })
	}
}

func (c *cluster) subscriber(group string) *kafka.Subscriber {
	c.t.Helper()
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: c.brokers, ConsumerGroup: group}, watermill.NopLogger{})
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { sub.Close() })
	return sub
}

// startGuard runs the ledger guard as `sealgate serve ledger` does.
func (c *cluster) startGuard() {
	c.t.Helper()
	trust, err := c.k.keys.Trust()
	if err != nil {
		c.t.Fatal(err)
	}
	st := authority.New(trust)
	heads, _, err := guard.Rebuild(c.ctx, st, c.k.v, c.reader(ledger.Topic), func(error) {})
	if err != nil {
		c.t.Fatal(err)
	}
	stamper, err := guard.NewStamper(c.pub, c.k.guardKey(c.t), heads, c.k.v)
	if err != nil {
		c.t.Fatal(err)
	}
	signer, err := c.k.keys.Signer(keyring.Ledger)
	if err != nil {
		c.t.Fatal(err)
	}
	app, err := ledger.NewAppender(stamper, st, signer, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	done := make(chan error, 1)
	go func() { done <- (&guard.Guard{Appender: app, Sub: c.subscriber("ledger")}).Run(ctx) }()
	c.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			c.t.Errorf("guard: %v", err)
		}
	})
}

// startService runs an executor over the records topic with admissions and
// the admitted history, as `sealgate serve executor` does; stop ends it
// and reports whether it ever stopped on its own.
func (c *cluster) startService(obs *observer, refusals *runtime.Refusals) (stop func()) {
	c.t.Helper()
	signer, err := c.k.keys.Signer(keyring.Executor)
	if err != nil {
		c.t.Fatal(err)
	}
	svc := &runtime.Service{Name: "executor", Signer: signer, Handler: obs, Sub: c.subscriber("executor"),
		Appender: &guard.Proposer{Pub: c.pub}, Admission: c.k.v, Refusals: refusals,
		History: func(ctx context.Context, id string) ([]*record.Decoded, error) {
			return guard.History(ctx, id, c.k.v, signer.PublicKey(), c.reader(ledger.Topic), c.reader(guard.ProposalTopic), func(err error) { refusals.Refuse(ctx, "", err) })
		}}
	ctx, cancel := context.WithCancel(c.ctx)
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	go func() {
		// A service that stops by itself fails the test at once.
		select {
		case err := <-done:
			c.t.Errorf("the service stopped by itself: %v", err)
			done <- err
		case <-ctx.Done():
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

func (c *cluster) propose(recs ...*record.Decoded) {
	c.t.Helper()
	if _, err := (&guard.Proposer{Pub: c.pub}).Append(c.ctx, recs...); err != nil {
		c.t.Fatal(err)
	}
}

func (c *cluster) inject(msgs ...*message.Message) {
	c.t.Helper()
	if err := c.pub.Publish(ledger.Topic, msgs...); err != nil {
		c.t.Fatal(err)
	}
}

// admittedMessage returns the records-topic message of rec, once the
// guard has written it.
func (c *cluster) admittedMessage(rec *record.Decoded) *message.Message {
	c.t.Helper()
	for {
		var found *message.Message
		if err := c.reader(ledger.Topic)(c.ctx, func(m *message.Message) error {
			if m.Metadata.Get(ledger.MetaDigest) == rec.Digest && m.Metadata.Get(admission.Header) != "" {
				found = m
			}
			return nil
		}); err != nil {
			c.t.Fatal(err)
		}
		if found != nil {
			return found
		}
		c.wait("the guard to admit " + record.KindName(rec.Kind))
	}
}

func (c *cluster) wait(what string) {
	c.t.Helper()
	select {
	case <-c.ctx.Done():
		c.t.Fatalf("gave up waiting for %s", what)
	case <-time.After(20 * time.Millisecond):
	}
}

// until waits for obs to have handled rec.
func (c *cluster) until(obs *observer, rec *record.Decoded) {
	c.t.Helper()
	for {
		for _, h := range obs.snapshot() {
			if h.rec.Digest == rec.Digest {
				return
			}
		}
		c.wait("the service to handle " + record.KindName(rec.Kind))
	}
}

// Over a real Kafka broker: while a run is in flight, somebody writes to
// the records topic an undecodable message, a result forged with an
// unknown key (bare, under its own admission, under one naming the ledger
// key, under a genuine admission), a genuine record of another run
// relabelled as this run's, and a copy of an admitted record. The service
// refuses and counts each, never stops, never sees the forged result; it
// is then restarted between two records and reads the rest of the run from
// the admitted history (which skips the same junk), and the run goes on to
// its end with every genuine record handled.
func TestServiceOverKafkaPoisonedTopic(t *testing.T) {
	c := newCluster(t)
	c.startGuard()
	b := scenario.NewBuilder(c.k.keys, nil)
	run, err := b.NewRun("run-a", 2)
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.NewRun("run-b", 1)
	if err != nil {
		t.Fatal(err)
	}
	recs := run.Records()
	refusals, logs, counted := meteredRefusals(t, "executor")
	first := newObserver()
	stop := c.startService(first, refusals)
	c.propose(other.Records()...)
	c.propose(recs[:4]...)
	c.until(first, run.Plan)
	c.until(first, other.Verdict)

	planMsg := c.admittedMessage(run.Plan)
	plan, err := c.k.v.Check(planMsg.Metadata.Get(admission.Header), planMsg.Payload)
	if err != nil {
		t.Fatal(err)
	}
	forged, rogue := forgedResult(t, run)
	bare, err := ledger.Message(forged)
	if err != nil {
		t.Fatal(err)
	}
	underGenuine := selfAdmitted(t, forged, rogue, "", plan.Head())
	underGenuine.Metadata.Set(admission.Header, planMsg.Metadata.Get(admission.Header))
	ledgerSigner, err := c.k.keys.Signer(keyring.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	replayed := copyOf(c.admittedMessage(other.Results[0]))
	replayed.Metadata.Set(ledger.MetaRunID, run.ID) // into run-a's partition, labelled as run-a's
	junk := message.NewMessage("junk", []byte("\x00\xff not a record"))
	junk.Metadata.Set(ledger.MetaRunID, run.ID)
	c.inject(junk, bare,
		selfAdmitted(t, forged, rogue, "", plan.Head()),
		selfAdmitted(t, forged, rogue, ledgerSigner.KeyID(), plan.Head()),
		underGenuine, replayed, copyOf(planMsg))
	for refusals.Total() < 5 {
		c.wait("the service to refuse five messages")
	}
	// The first result, then a restart before the second.
	c.propose(recs[4])
	c.until(first, run.Results[0])
	stop()

	second := newObserver()
	stop = c.startService(second, refusals)
	defer stop()
	c.propose(recs[5:]...)
	c.until(second, run.Verdict)

	first.neverEvidence(t, forged)
	second.neverEvidence(t, forged)
	// Every genuine record was handled, the first four and the first result
	// by the first process; the second process met the run in its middle
	// and saw it whole from the history.
	handled := map[string]bool{}
	for _, h := range append(first.snapshot(), second.snapshot()...) {
		handled[h.rec.Digest] = true
	}
	for _, r := range append(recs, other.Records()...) {
		if !handled[r.Digest] {
			t.Errorf("%s %.16s… never handled", record.KindName(r.Kind), r.Digest)
		}
	}
	first.handledOnce(t, append(append([]*record.Decoded{}, recs[:5]...), other.Records()...)...)
	for _, h := range second.snapshot() {
		if h.rec.Record.GetRunId() != run.ID {
			continue
		}
		place := slices.IndexFunc(recs, func(r *record.Decoded) bool { return r.Digest == h.rec.Digest })
		if len(h.run) < place+1 {
			t.Errorf("after the restart, %s came with %d records of its run, want the %d before it too", record.KindName(h.rec.Kind), len(h.run), place)
		}
		break
	}
	got := counted()
	for code, n := range map[string]int64{admission.CodeUndecodable: 1, admission.CodeUnadmitted: 1, admission.CodeUnknownKey: 1, admission.CodeBadSignature: 2} {
		if got[code] < n || logs.count(code) < int(n) {
			t.Errorf("%s: counted %d, logged %d, want at least %d", code, got[code], logs.count(code), n)
		}
	}
}
