package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/ledger/scenario"
)

// capturePub keeps what is published to it.
type capturePub struct{ msgs []*message.Message }

func (c *capturePub) Publish(_ string, msgs ...*message.Message) error {
	c.msgs = append(c.msgs, msgs...)
	return nil
}

func (c *capturePub) Close() error { return nil }

// writeStampedAt writes the guard's messages for recs to the records topic
// as the Publisher would, but with the Kafka timestamp at: the first n
// records at early, the rest at late.
func (k *kafkaLedger) writeStampedAt(recs []*record.Decoded, n int, early, late time.Time) {
	k.t.Helper()
	trust, err := k.keys.Trust()
	if err != nil {
		k.t.Fatal(err)
	}
	v := admission.NewVerifier(trust)
	key, err := keyring.ReadKey(k.keysDir + "/" + keyring.FileName(keyring.Ledger))
	if err != nil {
		k.t.Fatal(err)
	}
	c := &capturePub{}
	s, err := guard.NewStamper(c, key, nil, v)
	if err != nil {
		k.t.Fatal(err)
	}
	for _, r := range recs {
		if err := s.Publish(ledger.Topic, message1(k.t, r)); err != nil {
			k.t.Fatal(err)
		}
	}
	w := &kafkago.Writer{Addr: kafkago.TCP(strings.Split(k.brokers, ",")...), Topic: ledger.Topic, Balancer: &kafkago.Hash{},
		RequiredAcks: kafkago.RequireAll, BatchTimeout: time.Millisecond}
	defer w.Close()
	for i, m := range c.msgs {
		at := late
		if i < n {
			at = early
		}
		headers := []kafkago.Header{{Key: kafka.UUIDHeaderKey, Value: []byte(m.UUID)}}
		for _, h := range slices.Sorted(maps.Keys(m.Metadata)) {
			headers = append(headers, kafkago.Header{Key: h, Value: []byte(m.Metadata[h])})
		}
		if err := w.WriteMessages(k.ctx, kafkago.Message{Key: []byte(m.Metadata.Get(ledger.MetaRunID)), Value: m.Payload, Headers: headers, Time: at}); err != nil {
			k.t.Fatal(err)
		}
	}
}

// A service's history lookup reads the run's partition from the run's
// start; when that read is not the run whole — the run's records stamped
// long before the time its id names (a gateway clock far ahead), so the
// read starts inside the run (a chain that does not start: a gap) or after
// it (nothing; or only what the service proposed itself) — the lookup reads both topics whole and answers that, and
// the located read's refusals are not reported. The honest twin: a run
// stamped when its id says is read whole, nothing refused.
func TestKafkaHistoryFallsBackWhenTheLocatedReadIsNotWhole(t *testing.T) {
	k := newKafkaLedger(t, t.TempDir())
	trust, err := k.keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	self, err := k.keys.Signer(identityOf("executor"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	honest := k.scenarioRun(runindex.NewID(now))
	late := k.scenarioRun(runindex.NewID(now.Add(3 * time.Hour)))
	split := k.scenarioRun(runindex.NewID(now.Add(-time.Minute)))
	// The split run first: a record stamped at or after the located read's
	// start that comes earlier on the partition would take the read back
	// over the early ones (offsets, not timestamps, order a partition).
	k.writeStampedAt(split.Records(), 3, now.Add(-2*time.Hour), now)
	k.admit(k.app, encoded(t, honest.Records()...)...)
	k.writeStampedAt(late.Records(), 0, now, now)
	// The executor's own proposal for the split run, not admitted yet: the
	// located read finds it, so its answer is not empty — only the gap
	// says it is not whole.
	pending, err := scenario.NewBuilder(k.keys, nil).Result(split, split.Plan.Record.GetJobPlanned().Jobs[0], 999)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.pub.Publish(guard.ProposalTopic, message1(t, pending)); err != nil {
		t.Fatal(err)
	}
	var refused []error
	h := kafkaHistory(strings.Split(k.brokers, ","), self, admission.NewVerifier(trust), func(err error) { refused = append(refused, err) })
	for name, run := range map[string][]*record.Decoded{"honest": honest.Records(), "stamped before its id": late.Records(), "split by the skew": append(split.Records(), pending)} {
		refused = nil
		got, err := h(k.ctx, run[0].Record.RunId)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(run) {
			t.Fatalf("%s: %d records, want %d (refused: %v)", name, len(got), len(run), refused)
		}
		for i := range run {
			if got[i].Digest != run[i].Digest {
				t.Fatalf("%s: record %d is %s, want %s", name, i, record.KindName(got[i].Kind), record.KindName(run[i].Kind))
			}
		}
		if len(refused) != 0 {
			t.Fatalf("%s: refused %v", name, refused)
		}
	}
	// A work lane's two reads: what the ledger admitted (the split run
	// read whole again, without the proposal) and what the lane's service
	// proposed (the proposal alone, found on the run's partition).
	v := admission.NewVerifier(trust)
	admitted, err := admittedHistory(strings.Split(k.brokers, ","), self, v, func(err error) { t.Errorf("admitted: refused %v", err) })(k.ctx, split.ID)
	if err != nil || len(admitted) != len(split.Records()) {
		t.Fatalf("admitted history of the split run: %d records, %v; want %d", len(admitted), err, len(split.Records()))
	}
	mine, err := pendingHistory(strings.Split(k.brokers, ","), self, v, func(err error) { t.Errorf("pending: refused %v", err) })(k.ctx, split.ID)
	if err != nil || len(mine) != 1 || mine[0].Digest != pending.Digest {
		t.Fatalf("pending history of the split run: %d records, %v; want the one proposal", len(mine), err)
	}
}
