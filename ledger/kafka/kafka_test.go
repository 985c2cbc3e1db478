package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/sealgate/sealgate/ledger/kafka"
)

// hangGuard fails a test whose expected message never comes, rather than
// letting it hang until the test binary's timeout. It asserts nothing about
// speed: on a healthy broker every wait ends in milliseconds.
const hangGuard = 60 * time.Second

func TestConfigValidation(t *testing.T) {
	brokers := []string{"127.0.0.1:1"}
	pubCases := []struct {
		name string
		cfg  kafka.PublisherConfig
	}{
		{"no brokers", kafka.PublisherConfig{}},
		{"empty broker", kafka.PublisherConfig{Brokers: []string{"127.0.0.1:1", ""}}},
		{"negative batch timeout", kafka.PublisherConfig{Brokers: brokers, BatchTimeout: -time.Millisecond}},
		{"negative batch size", kafka.PublisherConfig{Brokers: brokers, BatchSize: -1}},
		{"negative publish timeout", kafka.PublisherConfig{Brokers: brokers, PublishTimeout: -time.Second}},
	}
	for _, tc := range pubCases {
		if _, err := kafka.NewPublisher(tc.cfg, nil); err == nil {
			t.Errorf("NewPublisher(%s): no error", tc.name)
		}
	}
	subCases := []struct {
		name string
		cfg  kafka.SubscriberConfig
	}{
		{"no brokers", kafka.SubscriberConfig{}},
		{"empty broker", kafka.SubscriberConfig{Brokers: []string{""}}},
		{"negative max wait", kafka.SubscriberConfig{Brokers: brokers, MaxWait: -time.Second}},
		{"max bytes below min bytes", kafka.SubscriberConfig{Brokers: brokers, MinBytes: 100, MaxBytes: 10}},
		{"negative min bytes", kafka.SubscriberConfig{Brokers: brokers, MinBytes: -1}},
		{"heartbeat not below session", kafka.SubscriberConfig{Brokers: brokers, HeartbeatInterval: 10 * time.Second, SessionTimeout: 10 * time.Second}},
		{"negative watch interval", kafka.SubscriberConfig{Brokers: brokers, PartitionWatchInterval: -1}},
		{"negative topic partitions", kafka.SubscriberConfig{Brokers: brokers, TopicPartitions: -3}},
		{"start at end in a group", kafka.SubscriberConfig{Brokers: brokers, ConsumerGroup: "g", StartAtEnd: true}},
	}
	for _, tc := range subCases {
		if _, err := kafka.NewSubscriber(tc.cfg, nil); err == nil {
			t.Errorf("NewSubscriber(%s): no error", tc.name)
		}
	}
	ctx := context.Background()
	if err := kafka.CreateTopic(ctx, nil, "t", 1); err == nil {
		t.Error("CreateTopic without brokers: no error")
	}
	if err := kafka.CreateTopic(ctx, brokers, "", 1); err == nil {
		t.Error("CreateTopic with an empty name: no error")
	}
	if err := kafka.CreateTopic(ctx, brokers, "t", 0); err == nil {
		t.Error("CreateTopic with 0 partitions: no error")
	}
}

func TestCreateTopicIsIdempotent(t *testing.T) {
	brokers := testBrokers(t)
	ctx := context.Background()
	topic := uniqueTopic(t)
	if err := kafka.CreateTopic(ctx, brokers, topic, 3); err != nil {
		t.Fatal(err)
	}
	// Creating it again, even with another count, leaves it as it is.
	if err := kafka.CreateTopic(ctx, brokers, topic, 5); err != nil {
		t.Fatalf("second CreateTopic: %v", err)
	}
	if got := partitionsOf(t, brokers, topic); got != 3 {
		t.Errorf("topic has %d partitions, want 3", got)
	}
}

func TestRoundTripKeepsRunOrder(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	pub, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{ConsumerGroup: "round-trip"})
	if err := sub.SubscribeInitialize(topic); err != nil {
		t.Fatal(err)
	}

	// Three runs interleaved in one Publish, plus a message of no run.
	var sent []*message.Message
	for i := range 30 {
		msg := message.NewMessage(watermill.NewUUID(), fmt.Appendf(nil, "record %d", i))
		msg.Metadata.Set(kafka.RunIDMetadataKey, fmt.Sprintf("run-%d", i%3))
		msg.Metadata.Set("seq", fmt.Sprint(i/3))
		msg.Metadata.Set("empty", "")
		sent = append(sent, msg)
	}
	loose := message.NewMessage(watermill.NewUUID(), nil)
	loose.Metadata.Set("kind", "no run")
	sent = append(sent, loose)
	if err := pub.Publish(topic, sent...); err != nil {
		t.Fatal(err)
	}

	ch, err := sub.Subscribe(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]*message.Message)
	nextSeq := make(map[string]int)
	for range sent {
		msg := receive(t, ch)
		msg.Ack()
		got[msg.UUID] = msg
		run := msg.Metadata.Get(kafka.RunIDMetadataKey)
		if run == "" {
			continue
		}
		if seq := msg.Metadata.Get("seq"); seq != fmt.Sprint(nextSeq[run]) {
			t.Errorf("%s: got seq %s, want %d: the run's order was lost", run, seq, nextSeq[run])
		}
		nextSeq[run]++
	}
	for _, want := range sent {
		msg, ok := got[want.UUID]
		if !ok {
			t.Errorf("message %s not received", want.UUID)
			continue
		}
		if string(msg.Payload) != string(want.Payload) {
			t.Errorf("message %s: payload %q, want %q", want.UUID, msg.Payload, want.Payload)
		}
		if !maps.Equal(msg.Metadata, want.Metadata) {
			t.Errorf("message %s: metadata %v, want %v", want.UUID, msg.Metadata, want.Metadata)
		}
	}
}

func TestPublishRejectsBadInput(t *testing.T) {
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: []string{"127.0.0.1:1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	reserved := message.NewMessage(watermill.NewUUID(), nil)
	reserved.Metadata.Set(kafka.UUIDHeaderKey, "forged")
	for name, msgs := range map[string][]*message.Message{
		"reserved metadata key": {reserved},
		"nil message":           {message.NewMessage(watermill.NewUUID(), nil), nil},
	} {
		if err := pub.Publish("topic", msgs...); err == nil {
			t.Errorf("Publish with %s: no error", name)
		}
	}
	if err := pub.Publish("", message.NewMessage(watermill.NewUUID(), nil)); err == nil {
		t.Error("Publish to an empty topic: no error")
	}
	if err := pub.Publish("topic"); err != nil {
		t.Errorf("Publish of no messages: %v", err)
	}
}

func TestSubscribeRejectsBadInput(t *testing.T) {
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: []string{"127.0.0.1:1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var nilCtx context.Context
	if _, err := sub.Subscribe(nilCtx, "topic"); err == nil {
		t.Error("Subscribe with a nil context: no error")
	}
	if _, err := sub.Subscribe(context.Background(), ""); err == nil {
		t.Error("Subscribe to an empty topic: no error")
	}
}

// TestAckCommitsAndNackRedelivers checks what a consumer group resumes from:
// the message after the last one acked, whatever was delivered after it.
func TestAckCommitsAndNackRedelivers(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	if err := kafka.CreateTopic(context.Background(), brokers, topic, 1); err != nil {
		t.Fatal(err)
	}
	cfg := kafka.SubscriberConfig{ConsumerGroup: "acks", NackResendSleep: time.Millisecond}
	pub, sub := newTestPubSub(t, brokers, cfg)
	var sent []string
	for i := range 5 {
		msg := message.NewMessage(fmt.Sprintf("m%d", i), nil)
		msg.Metadata.Set(kafka.RunIDMetadataKey, "one-run")
		if err := pub.Publish(topic, msg); err != nil {
			t.Fatal(err)
		}
		sent = append(sent, msg.UUID)
	}

	ch, err := sub.Subscribe(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	first := receive(t, ch)
	if first.UUID != sent[0] {
		t.Fatalf("first message %s, want %s", first.UUID, sent[0])
	}
	first.Nack()
	again := receive(t, ch)
	if again.UUID != sent[0] {
		t.Fatalf("after Nack got %s, want %s again", again.UUID, sent[0])
	}
	again.Ack()
	select {
	case <-again.Context().Done():
	case <-time.After(hangGuard):
		t.Fatal("message context not cancelled after Ack")
	}
	if msg := receive(t, ch); msg.UUID != sent[1] {
		t.Fatalf("got %s, want %s", msg.UUID, sent[1])
	} else {
		msg.Ack()
	}
	// Delivered but never acked: must come again after a restart.
	unacked := receive(t, ch)
	if unacked.UUID != sent[2] {
		t.Fatalf("got %s, want %s", unacked.UUID, sent[2])
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}

	_, sub2 := newTestPubSub(t, brokers, cfg)
	ch2, err := sub2.Subscribe(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range sent[2:] {
		msg := receive(t, ch2)
		if msg.UUID != want {
			t.Fatalf("after restart got %s, want %s", msg.UUID, want)
		}
		msg.Ack()
	}
}

func TestSubscribeWaitsForTopic(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	pub, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{PartitionWatchInterval: 20 * time.Millisecond})
	ch, err := sub.Subscribe(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	if err := kafka.CreateTopic(context.Background(), brokers, topic, 2); err != nil {
		t.Fatal(err)
	}
	want := message.NewMessage(watermill.NewUUID(), []byte("late"))
	if err := pub.Publish(topic, want); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, ch); got.UUID != want.UUID {
		t.Fatalf("got %s, want %s", got.UUID, want.UUID)
	}
}

func TestSubscriptionFollowsNewPartitions(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	ctx := context.Background()
	if err := kafka.CreateTopic(ctx, brokers, topic, 1); err != nil {
		t.Fatal(err)
	}
	_, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{
		ConsumerGroup:          "grows",
		PartitionWatchInterval: 20 * time.Millisecond,
	})
	ch, err := sub.Subscribe(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	// Once a message arrived, the group has assigned the one partition.
	pub1, _ := newTestPubSub(t, brokers, kafka.SubscriberConfig{})
	if err := pub1.Publish(topic, message.NewMessage(watermill.NewUUID(), nil)); err != nil {
		t.Fatal(err)
	}
	receive(t, ch).Ack()

	growPartitions(t, brokers, topic, 4)
	// A new publisher, so its metadata has all four partitions.
	pub4, _ := newTestPubSub(t, brokers, kafka.SubscriberConfig{})
	var sent []*message.Message
	for range 40 {
		sent = append(sent, message.NewMessage(watermill.NewUUID(), nil))
	}
	if err := pub4.Publish(topic, sent...); err != nil {
		t.Fatal(err)
	}
	got := make(map[string]bool)
	for len(got) < len(sent) {
		msg := receive(t, ch)
		msg.Ack()
		got[msg.UUID] = true
	}
}

func TestCloseEndsSubscriptions(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	pub, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{ConsumerGroup: "closing"})
	if err := sub.SubscribeInitialize(topic); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish(topic, message.NewMessage(watermill.NewUUID(), nil)); err != nil {
		t.Fatal(err)
	}
	ch, err := sub.Subscribe(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	idle, err := sub.Subscribe(context.Background(), topic+"-never-created")
	if err != nil {
		t.Fatal(err)
	}
	msg := receive(t, ch) // held, never acked

	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	// Close returned, so everything it owned has stopped: no waiting here.
	for name, c := range map[string]<-chan *message.Message{"active": ch, "idle": idle} {
		if _, open := <-c; open {
			t.Errorf("%s subscription's channel still open after Close", name)
		}
	}
	if msg.Context().Err() == nil {
		t.Error("unacked message's context not cancelled by Close")
	}
	if stacks := goroutineStacks(); strings.Contains(stacks, "ledger/kafka.(*subscription)") {
		t.Errorf("subscription goroutines outlive Close:\n%s", stacks)
	}
	if err := sub.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := sub.Subscribe(context.Background(), topic); !errors.Is(err, kafka.ErrSubscriberClosed) {
		t.Errorf("Subscribe after Close: %v, want ErrSubscriberClosed", err)
	}

	if err := pub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pub.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := pub.Publish(topic, message.NewMessage(watermill.NewUUID(), nil)); !errors.Is(err, kafka.ErrPublisherClosed) {
		t.Errorf("Publish after Close: %v, want ErrPublisherClosed", err)
	}
}

func TestSubscribeContextEndsSubscription(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	_, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{})
	if err := sub.SubscribeInitialize(topic); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := sub.Subscribe(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case _, open := <-ch:
		if open {
			t.Fatal("message delivered on an empty topic")
		}
	case <-time.After(hangGuard):
		t.Fatal("channel not closed after the context was cancelled")
	}
}

// newTestPubSub returns a Publisher and a Subscriber with cfg on brokers,
// closed when t ends.
// A StartAtEnd subscription delivers what is written after Subscribe
// returns and nothing before; when its group rebalances (here: the topic
// gains partitions) it goes on from where it was — nothing old, nothing
// twice — and reads the new partitions from their start.
func TestStartAtEnd(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	ctx := context.Background()
	if err := kafka.CreateTopic(ctx, brokers, topic, 3); err != nil {
		t.Fatal(err)
	}
	pub, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{StartAtEnd: true, PartitionWatchInterval: 20 * time.Millisecond})
	batch := func(pub *kafka.Publisher, prefix string, n int) map[string]bool {
		t.Helper()
		out := map[string]bool{}
		var msgs []*message.Message
		for i := range n {
			m := message.NewMessage(fmt.Sprintf("%s-%d", prefix, i), nil)
			msgs = append(msgs, m)
			out[m.UUID] = true
		}
		if err := pub.Publish(topic, msgs...); err != nil {
			t.Fatal(err)
		}
		return out
	}
	batch(pub, "old", 30)
	ch, err := sub.Subscribe(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	take := func(want map[string]bool) {
		t.Helper()
		for n := 0; n < len(want); {
			m := receive(t, ch)
			m.Ack()
			got[m.UUID]++
			if !want[m.UUID] {
				t.Fatalf("delivered %s, written before Subscribe returned or delivered before", m.UUID)
			}
			if got[m.UUID] == 1 {
				n++
			}
		}
	}
	take(batch(pub, "new", 30))

	growPartitions(t, brokers, topic, 6)
	pub6, _ := newTestPubSub(t, brokers, kafka.SubscriberConfig{})
	take(batch(pub6, "after", 60))
	for id, n := range got {
		if n != 1 {
			t.Errorf("%s delivered %d times", id, n)
		}
	}
}

// A message a handler still holds when its generation ends (the topic
// grew), acked only then, is not delivered again by the next generation
// of a StartAtEnd subscription: it reads on past every message acked.
func TestStartAtEndAckedAcrossARebalance(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	ctx := context.Background()
	if err := kafka.CreateTopic(ctx, brokers, topic, 1); err != nil {
		t.Fatal(err)
	}
	pub, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{StartAtEnd: true, PartitionWatchInterval: 20 * time.Millisecond})
	ch, err := sub.Subscribe(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	held := message.NewMessage("held", nil)
	if err := pub.Publish(topic, held); err != nil {
		t.Fatal(err)
	}
	m := receive(t, ch)
	if m.UUID != held.UUID {
		t.Fatalf("got %s, want %s", m.UUID, held.UUID)
	}
	growPartitions(t, brokers, topic, 2)
	// The generation ends once the watcher sees the new partition, and
	// cancels the held message's context.
	select {
	case <-m.Context().Done():
	case <-time.After(hangGuard):
		t.Fatal("the generation did not end")
	}
	m.Ack()
	next := message.NewMessage("next", nil)
	if err := pub.Publish(topic, next); err != nil {
		t.Fatal(err)
	}
	if m := receive(t, ch); m.UUID != next.UUID {
		t.Fatalf("after the rebalance got %s, want %s (%s was acked)", m.UUID, next.UUID, held.UUID)
	}
}

// A StartAtEnd subscription to a topic that does not exist yet reads all
// the topic will hold.
func TestStartAtEndBeforeTheTopic(t *testing.T) {
	brokers := testBrokers(t)
	topic := uniqueTopic(t)
	ctx := context.Background()
	pub, sub := newTestPubSub(t, brokers, kafka.SubscriberConfig{StartAtEnd: true, PartitionWatchInterval: 20 * time.Millisecond})
	ch, err := sub.Subscribe(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	if err := kafka.CreateTopic(ctx, brokers, topic, 2); err != nil {
		t.Fatal(err)
	}
	want := message.NewMessage("first", nil)
	if err := pub.Publish(topic, want); err != nil {
		t.Fatal(err)
	}
	m := receive(t, ch)
	m.Ack()
	if m.UUID != want.UUID {
		t.Fatalf("got %s, want %s", m.UUID, want.UUID)
	}
}

// growPartitions gives topic n partitions in all.
func growPartitions(t *testing.T, brokers []string, topic string, n int) {
	t.Helper()
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...)}
	resp, err := client.CreatePartitions(context.Background(), &kafkago.CreatePartitionsRequest{
		Topics: []kafkago.TopicPartitionsConfig{{Name: topic, Count: int32(n)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Errors[topic]; err != nil {
		t.Fatal(err)
	}
}

func newTestPubSub(t *testing.T, brokers []string, cfg kafka.SubscriberConfig) (*kafka.Publisher, *kafka.Subscriber) {
	t.Helper()
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pub.Close() })
	cfg.Brokers = brokers
	sub, err := kafka.NewSubscriber(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Close() })
	return pub, sub
}

func receive(t *testing.T, ch <-chan *message.Message) *message.Message {
	t.Helper()
	select {
	case msg, ok := <-ch:
		if !ok {
			t.Fatal("subscription channel closed")
		}
		return msg
	case <-time.After(hangGuard):
		t.Fatal("no message received")
	}
	return nil
}

// uniqueTopic names a topic for t alone, also on a shared KAFKA_BROKERS
// cluster.
func uniqueTopic(t *testing.T) string {
	name := strings.NewReplacer("/", ".", " ", "_").Replace(t.Name())
	return name + "-" + watermill.NewULID()
}

func partitionsOf(t *testing.T, brokers []string, topic string) int {
	t.Helper()
	parts, err := (&kafkago.Dialer{}).LookupPartitions(context.Background(), "tcp", brokers[0], topic)
	if err != nil {
		t.Fatal(err)
	}
	return len(parts)
}

func goroutineStacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}
