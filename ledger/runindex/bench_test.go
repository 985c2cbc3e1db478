package runindex_test

import (
	"context"
	"fmt"
	"path/filepath"
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
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/ledger/scenario"
)

// Per other run: this many records of this size on the records topic and
// as many proposals on the proposals topic (a small run's worth).
const (
	benchRecordsPerRun = 8
	benchRecordSize    = 500
	benchPartitions    = 8 // sealgate serve's default
)

// captured keeps what is published to it.
type captured struct{ msgs []*message.Message }

func (c *captured) Publish(_ string, msgs ...*message.Message) error {
	c.msgs = append(c.msgs, msgs...)
	return nil
}

func (c *captured) Close() error { return nil }

// writeAt writes msgs to topic as the Publisher does (keyed by run id,
// the metadata as headers) with the Kafka timestamp at.
func writeAt(b *testing.B, brokers []string, topic string, msgs []*message.Message, at func(i int) time.Time) {
	b.Helper()
	w := &kafkago.Writer{Addr: kafkago.TCP(brokers...), Topic: topic, Balancer: &kafkago.Hash{}, RequiredAcks: kafkago.RequireAll,
		BatchTimeout: time.Millisecond, BatchSize: 2000, BatchBytes: 16 << 20}
	defer w.Close()
	kms := make([]kafkago.Message, len(msgs))
	for i, m := range msgs {
		headers := []kafkago.Header{{Key: kafka.UUIDHeaderKey, Value: []byte(m.UUID)}}
		for k, v := range m.Metadata {
			headers = append(headers, kafkago.Header{Key: k, Value: []byte(v)})
		}
		kms[i] = kafkago.Message{Key: []byte(m.Metadata.Get(ledger.MetaRunID)), Value: m.Payload, Headers: headers, Time: at(i)}
	}
	for len(kms) > 0 {
		n := min(len(kms), 2000)
		if err := w.WriteMessages(context.Background(), kms[:n]...); err != nil {
			b.Fatal(err)
		}
		kms = kms[n:]
	}
}

// others is n other runs' worth of messages.
func others(n int, prefix string) []*message.Message {
	payload := []byte(strings.Repeat("x", benchRecordSize))
	var out []*message.Message
	for r := range n {
		id := fmt.Sprintf("%s-%06d", prefix, r)
		for i := range benchRecordsPerRun {
			m := message.NewMessage(fmt.Sprintf("%s/%d", id, i), payload)
			m.Metadata.Set(ledger.MetaRunID, id)
			out = append(out, m)
		}
	}
	return out
}

// BenchmarkHistory measures one service history lookup (guard.History over
// both topics, the admitted run verified and chained) of a run of 8
// records with N other runs on the topics, each 8 records and 8
// proposals: reading both topics whole (scan, as before) against reading
// the run's partition from its start (located), and reading it again with
// Starts (remembered: from the run's first message, as a worker reads its
// run for each job). "before": the other runs started long before the run
// (a lookup of a recent run, what a restarted service does); "within":
// they started in the minutes before it, inside the locator's skew — a
// busy topic, where the located read reads them all and the remembered
// one none; "after": they all started after it (the locator's worst case:
// it reads the run's partition from the run on, 1/8 of the topic).
func BenchmarkHistory(b *testing.B) {
	dir := b.TempDir()
	keys, err := keyring.LoadOrCreate(dir)
	if err != nil {
		b.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		b.Fatal(err)
	}
	v := admission.NewVerifier(trust)
	key, err := keyring.ReadKey(filepath.Join(dir, keyring.FileName(keyring.Ledger)))
	if err != nil {
		b.Fatal(err)
	}
	self, err := keys.Signer(keyring.Executor)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 10000} {
		for _, where := range []string{"before", "within", "after"} {
			b.Run(fmt.Sprintf("others=%d/%s", n, where), func(b *testing.B) {
				kc := broker(b, benchPartitions)
				ctx := context.Background()
				for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
					if err := kafka.CreateTopic(ctx, kc, topic, benchPartitions); err != nil {
						b.Fatal(err)
					}
				}
				t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
				start := t0.Add(24 * time.Hour)
				run, err := scenario.NewBuilder(keys, nil).NewRun(runindex.NewID(start), 3)
				if err != nil {
					b.Fatal(err)
				}
				c := &captured{}
				stamper, err := guard.NewStamper(c, key, nil, v)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range run.Records() {
					m, err := ledger.Message(r)
					if err != nil {
						b.Fatal(err)
					}
					if err := stamper.Publish(ledger.Topic, m); err != nil {
						b.Fatal(err)
					}
				}
				otherAt := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
				switch where {
				case "within":
					otherAt = func(i int) time.Time { return start.Add(-runindex.DefaultSkew/2 + time.Duration(i)*time.Millisecond) }
				case "after":
					otherAt = func(i int) time.Time { return start.Add(time.Minute + time.Duration(i)*time.Millisecond) }
				}
				runAt := func(i int) time.Time { return start.Add(time.Duration(i) * time.Millisecond) }
				if where == "after" {
					writeAt(b, kc, ledger.Topic, c.msgs, runAt)
				}
				for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
					writeAt(b, kc, topic, others(n, "other-"+topic), otherAt)
				}
				if where != "after" {
					writeAt(b, kc, ledger.Topic, c.msgs, runAt)
				}
				loc := &runindex.Locator{Brokers: kc}
				readAll := func(topic string) runindex.ReadFunc {
					return func(ctx context.Context, fn func(*message.Message) error) error {
						return kafka.ReadAll(ctx, kc, topic, func(_ int, _ int64, m *message.Message) error { return fn(m) })
					}
				}
				remembered := &runindex.Locator{Brokers: kc, Starts: runindex.NewStarts(0)}
				for _, mode := range []string{"readall", "scan", "located", "remembered"} {
					var records, proposals runindex.ReadFunc
					switch mode {
					case "readall":
						records, proposals = readAll(ledger.Topic), readAll(guard.ProposalTopic)
					case "scan":
						records, proposals = loc.Scan(ledger.Topic), loc.Scan(guard.ProposalTopic)
					case "located":
						records, proposals = loc.Run(ledger.Topic, run.ID), loc.Run(guard.ProposalTopic, run.ID)
					default:
						records, proposals = remembered.Run(ledger.Topic, run.ID), remembered.Run(guard.ProposalTopic, run.ID)
					}
					b.Run(mode, func(b *testing.B) {
						for b.Loop() {
							got, err := guard.History(ctx, run.ID, v, self.PublicKey(), records, proposals, func(err error) { b.Fatal(err) })
							if err != nil {
								b.Fatal(err)
							}
							if len(got) != len(run.Records()) {
								b.Fatalf("%d records, want %d", len(got), len(run.Records()))
							}
						}
					})
				}
			})
		}
	}
}
