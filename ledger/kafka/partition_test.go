package kafka_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/kafka"
)

// Two topics of equal partition counts put a key's messages on the same
// partition number, the one PartitionOf names; a subscriber delivers
// each message with the assignment of that partition; ReadPartition reads
// that partition alone. Topics of different counts are refused by
// Copartitioned, naming both counts.
func TestPartitionOfIsWherePublisherWrites(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	brokers := testBrokers(t)
	a, b, odd := uniqueTopic(t)+"-a", uniqueTopic(t)+"-b", uniqueTopic(t)+"-odd"
	for topic, n := range map[string]int{a: 4, b: 4, odd: 3} {
		if err := kafka.CreateTopic(ctx, brokers, topic, n); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := kafka.Copartitioned(ctx, brokers, a, b); err != nil || n != 4 {
		t.Fatalf("Copartitioned(a, b) = %d, %v; want 4", n, err)
	}
	if _, err := kafka.Copartitioned(ctx, brokers, a, odd); err == nil || !strings.Contains(err.Error(), "has 4 partitions") || !strings.Contains(err.Error(), "has 3") {
		t.Fatalf("Copartitioned(a, odd): %v", err)
	}
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	want := map[string]int{}
	for i := range 40 {
		run := fmt.Sprintf("run-%d", i)
		m := message.NewMessage(watermill.NewULID(), []byte(run))
		m.Metadata.Set(kafka.RunIDMetadataKey, run)
		want[run] = kafka.PartitionOf([]byte(run), 4)
		for _, topic := range []string{a, b} {
			if err := pub.Publish(topic, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, topic := range []string{a, b} {
		err := kafka.ReadAll(ctx, brokers, topic, func(p int, _ int64, m *message.Message) error {
			if want[string(m.Payload)] != p {
				return fmt.Errorf("%s: %s on partition %d, PartitionOf says %d", topic, m.Payload, p, want[string(m.Payload)])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	if err := kafka.ReadPartition(ctx, brokers, a, 2, func(_ int64, m *message.Message) error {
		if want[string(m.Payload)] != 2 {
			return fmt.Errorf("ReadPartition(2) read %s of partition %d", m.Payload, want[string(m.Payload)])
		}
		n++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	wantN := 0
	for _, p := range want {
		if p == 2 {
			wantN++
		}
	}
	if n != wantN {
		t.Fatalf("ReadPartition(2) read %d messages, want %d", n, wantN)
	}

	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: brokers, ConsumerGroup: "g-" + watermill.NewULID()}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	msgs, err := sub.Subscribe(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	for range len(want) {
		select {
		case m := <-msgs:
			as, ok := kafka.AssignmentOf(m)
			if !ok || as.Topic != a || as.Partition != want[string(m.Payload)] || as.Revoked == nil {
				t.Fatalf("%s delivered with assignment %+v (%v), want partition %d of %s", m.Payload, as, ok, want[string(m.Payload)], a)
			}
			m.Ack()
		case <-ctx.Done():
			t.Fatal("not every message delivered")
		}
	}
	if p := kafka.PartitionOf(nil, 4); p != -1 {
		t.Fatalf("PartitionOf(nil) = %d, want -1", p)
	}
}
