package gateway_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	kafkago "github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
	"github.com/sealgate/sealgate/services/runtime"
)

type capture struct{ msgs []*message.Message }

func (c *capture) Publish(_ string, msgs ...*message.Message) error {
	c.msgs = append(c.msgs, msgs...)
	return nil
}

func (c *capture) Close() error { return nil }

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

// partitionOf is the partition of two that kafka-go's hash balancer (the
// publisher's) gives a key.
func partitionOf(key string) int {
	return (&kafkago.Hash{}).Balance(kafkago.Message{Key: []byte(key)}, 0, 1)
}

// newTestLedger starts a real Kafka wire-protocol broker (kfake) with the
// records topic on two partitions, and makes a fresh keyring: it returns
// the brokers, the keyring, a verifier of its trust roots and the guard's
// signing key.
func newTestLedger(ctx context.Context, t *testing.T) ([]string, *keyring.Keyring, *admission.Verifier, ed25519.PrivateKey) {
	t.Helper()
	kc, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	brokers := kc.ListenAddrs()
	if err := kafka.CreateTopic(ctx, brokers, ledger.Topic, 2); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keys, err := keyring.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	key, err := keyring.ReadKey(filepath.Join(dir, keyring.FileName(keyring.Ledger)))
	if err != nil {
		t.Fatal(err)
	}
	return brokers, keys, admission.NewVerifier(trust), key
}

// The gateway's index lists exactly what the guard admitted, each run's
// records in their chain order: junk and forged records are refused
// (logged, counted) without stopping the feed, a copy of an admitted record
// is listed once — even one written to another partition ahead of the
// original (reordering) — and a run whose chain lost a place shows nothing
// after the gap.
func TestIndexAdmitsOnlyTheGuardsChain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	brokers, keys, v, key := newTestLedger(ctx, t)
	b := scenario.NewBuilder(keys, nil)
	run, err := b.NewRun("run-a", 2)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := b.NewRun("run-cut", 1)
	if err != nil {
		t.Fatal(err)
	}
	seal, err := b.Sign(keyring.Signing, &pb.Record{RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Verdict.Digest},
		Body: &pb.Record_VerdictSealed{VerdictSealed: &pb.VerdictSealed{}}})
	if err != nil {
		t.Fatal(err)
	}
	recs := append(run.Records(), seal)
	c := &capture{}
	stamper, err := guard.NewStamper(c, key, nil, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range append(append([]*record.Decoded{}, recs...), cut.Records()...) {
		m, err := ledger.Message(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := stamper.Publish(ledger.Topic, m); err != nil {
			t.Fatal(err)
		}
	}
	msgs, cutMsgs := c.msgs[:len(recs)], c.msgs[len(recs):]

	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	publish := func(ms ...*message.Message) {
		t.Helper()
		if err := pub.Publish(ledger.Topic, ms...); err != nil {
			t.Fatal(err)
		}
	}
	// A copy of the first result, in the other partition, written first.
	elsewhere := "x"
	for i := 0; partitionOf(elsewhere) == partitionOf(run.ID); i++ {
		elsewhere = fmt.Sprintf("x%d", i)
	}
	early := message.NewMessage(msgs[4].UUID, msgs[4].Payload)
	for k, val := range msgs[4].Metadata {
		early.Metadata.Set(k, val)
	}
	early.Metadata.Set(ledger.MetaRunID, elsewhere)
	publish(early)

	_, rogueKey, _ := ed25519.GenerateKey(rand.Reader)
	forger, err := record.NewSigner(keyring.Executor, rogueKey)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Results[0].Record
	forged, err := forger.Sign(&pb.Record{RunId: run.ID, CriteriaDigest: res.CriteriaDigest, Parents: res.Parents, Token: res.Token,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: res.GetJobResult().JobId, ExitCode: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := ledger.Message(forged)
	if err != nil {
		t.Fatal(err)
	}
	underGenuine, err := ledger.Message(forged)
	if err != nil {
		t.Fatal(err)
	}
	underGenuine.Metadata.Set(admission.Header, msgs[4].Metadata.Get(admission.Header))
	junk := message.NewMessage("junk", []byte("junk"))
	junk.Metadata.Set(ledger.MetaRunID, run.ID)
	publish(msgs[:4]...)
	publish(junk, bare, underGenuine)
	publish(msgs[4:]...)
	publish(msgs[2])        // a duplicate
	publish(cutMsgs[:2]...) // run-cut: its third place never written
	publish(cutMsgs[3:]...)

	logs := &logLines{}
	refusals, err := runtime.NewRefusals("gateway", nil, logs.logf)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := gateway.NewIndex(v, refusals)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	fctx, fcancel := context.WithCancel(ctx)
	fed := make(chan error, 1)
	go func() { fed <- idx.Feed(fctx, sub) }()

	for {
		got, sealed, changed := idx.Since(run.ID, 0)
		if sealed {
			if len(got) != len(recs) {
				t.Fatalf("run-a lists %d records, want %d", len(got), len(recs))
			}
			for i := range recs {
				if got[i].Digest != recs[i].Digest {
					t.Fatalf("run-a's record %d is %s, want %s", i, record.KindName(got[i].Kind), record.KindName(recs[i].Kind))
				}
			}
			break
		}
		select {
		case <-changed:
		case err := <-fed:
			t.Fatalf("the feed stopped: %v", err)
		case <-ctx.Done():
			t.Fatal("run-a was never sealed in the index")
		}
	}
	// Everything is read once three refusals are in and run-cut's two
	// records (its partition may come later than run-a's); run-cut shows
	// only what precedes its gap.
	cutListed := func() int { got, _, _ := idx.Since(cut.ID, 0); return len(got) }
	for refusals.Total() < 3 || cutListed() < 2 {
		select {
		case err := <-fed:
			t.Fatalf("the feed stopped: %v", err)
		case <-ctx.Done():
			t.Fatalf("%d refusals, want 3, and run-cut lists %d records, want 2: %v", refusals.Total(), cutListed(), logs.lines)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if got, _, _ := idx.Since(cut.ID, 0); len(got) != 2 {
		t.Errorf("run-cut lists %d records, want the 2 before its gap", len(got))
	}
	fcancel()
	if err := <-fed; err != nil {
		t.Fatal(err)
	}
	if refusals.Total() != 3 {
		t.Errorf("refused %d: %v", refusals.Total(), logs.lines)
	}

	// An index that has read nothing finds a run by looking it up on its
	// partition (Load), with the same rules: the same records in the same
	// order, junk and forgeries refused, nothing after a gap; a second
	// Load lists nothing twice.
	lazyRefusals, err := runtime.NewRefusals("gateway", nil, logs.logf)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := gateway.NewIndex(v, lazyRefusals)
	if err != nil {
		t.Fatal(err)
	}
	lazy.WithLookup((&runindex.Locator{Brokers: brokers}).Lookup(ledger.Topic))
	for range 2 {
		for _, id := range []string{run.ID, cut.ID, "run-never"} {
			if err := lazy.Load(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		got, sealed, _ := lazy.Since(run.ID, 0)
		if !sealed || len(got) != len(recs) {
			t.Fatalf("looked up, run-a lists %d records (sealed %v), want %d sealed", len(got), sealed, len(recs))
		}
		for i := range recs {
			if got[i].Digest != recs[i].Digest {
				t.Fatalf("looked up, run-a's record %d is %s, want %s", i, record.KindName(got[i].Kind), record.KindName(recs[i].Kind))
			}
		}
		if got, _, _ := lazy.Since(cut.ID, 0); len(got) != 2 {
			t.Errorf("looked up, run-cut lists %d records, want the 2 before its gap", len(got))
		}
	}
	if lazyRefusals.Total() != 6 {
		t.Errorf("looked up twice, refused %d, want 3 each time: %v", lazyRefusals.Total(), logs.lines)
	}
}
