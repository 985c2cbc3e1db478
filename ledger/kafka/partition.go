package kafka

import (
	"context"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/segmentio/kafka-go"
)

// PartitionOf is the partition that a [Publisher] writes a message with
// the Kafka key key to, on a topic of n partitions: kafka-go's Hash
// balancer (FNV-1a, as sarama's hash partitioner), which every Publisher
// uses. Two topics of the same partition count thus put the messages of
// one key on the same partition number. A nil key, which Publisher spreads
// round-robin, and n < 1 have no partition: -1.
func PartitionOf(key []byte, n int) int {
	if key == nil || n < 1 {
		return -1
	}
	parts := make([]int, n)
	for i := range parts {
		parts[i] = i
	}
	return (&kafka.Hash{}).Balance(kafka.Message{Key: key}, parts...)
}

// PartitionCount returns how many partitions topic has on the cluster
// reachable through brokers, and an error when it does not exist.
func PartitionCount(ctx context.Context, brokers []string, topic string) (int, error) {
	if err := validateBrokers(brokers); err != nil {
		return 0, fmt.Errorf("kafka: partitions of %q: %w", topic, err)
	}
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	d := &kafka.Dialer{ClientID: "sealgate", Timeout: 10 * time.Second, DualStack: true}
	n, err := partitionCount(ctx, d, brokers, topic)
	if err != nil {
		return 0, fmt.Errorf("kafka: %w", err)
	}
	if n == 0 {
		return 0, fmt.Errorf("kafka: topic %q does not exist", topic)
	}
	return n, nil
}

// Copartitioned returns the partition count that topics share, and an
// error saying which differs when they do not: messages keyed alike land
// on the same partition number of each only when the counts are equal.
func Copartitioned(ctx context.Context, brokers []string, topics ...string) (int, error) {
	n := 0
	for i, t := range topics {
		c, err := PartitionCount(ctx, brokers, t)
		if err != nil {
			return 0, err
		}
		if i > 0 && c != n {
			return 0, fmt.Errorf("kafka: topic %q has %d partitions and %q has %d: they must have as many, or a key's messages land on different partition numbers (recreate one of them with %d partitions)", topics[0], n, t, c, n)
		}
		n = c
	}
	return n, nil
}

// Assignment is the partition a [Subscriber] delivered a message from,
// while it holds that partition in its consumer group.
type Assignment struct {
	Topic     string
	Partition int
	// Generation is the consumer group generation the partition was
	// assigned in: a new one after every rebalance.
	Generation int32
	// Revoked is closed when the subscriber stops consuming the partition
	// under this assignment (a rebalance, or the subscription ended).
	Revoked <-chan struct{}
}

type assignmentKey struct{}

// AssignmentOf returns the assignment msg was delivered under, when a
// Subscriber delivered it.
func AssignmentOf(msg *message.Message) (Assignment, bool) {
	a, ok := msg.Context().Value(assignmentKey{}).(Assignment)
	return a, ok
}

// ReadPartition reads the messages stored on one partition of topic when
// it is called, from its first offset to its end at that moment, in order.
func ReadPartition(ctx context.Context, brokers []string, topic string, partition int, fn func(offset int64, msg *message.Message) error) error {
	if err := validateBrokers(brokers); err != nil {
		return fmt.Errorf("kafka: read %q: %w", topic, err)
	}
	transport := &kafka.Transport{ClientID: "sealgate"}
	defer transport.CloseIdleConnections()
	client := &kafka.Client{Addr: kafka.TCP(brokers...), Transport: transport}
	offs, err := client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{
		topic: {kafka.FirstOffsetOf(partition), kafka.LastOffsetOf(partition)},
	}})
	if err != nil {
		return fmt.Errorf("kafka: read %q partition %d: list offsets: %w", topic, partition, err)
	}
	var first, end int64
	found := false
	for _, po := range offs.Topics[topic] {
		if po.Partition != partition {
			continue
		}
		if po.Error != nil {
			return fmt.Errorf("kafka: read %q partition %d: %w", topic, partition, po.Error)
		}
		first, end, found = po.FirstOffset, po.LastOffset, true
	}
	if !found {
		return fmt.Errorf("kafka: read %q: no partition %d", topic, partition)
	}
	if end <= first {
		return nil
	}
	return readPartition(ctx, brokers, topic, partition, first, end, func(_ int, off int64, m *message.Message) error { return fn(off, m) })
}

// Follow reads one partition of topic from its first offset and goes on
// with every message written to it until ctx ends (nil) or fn or a read
// fails (that error).
func Follow(ctx context.Context, brokers []string, topic string, partition int, fn func(offset int64, msg *message.Message) error) error {
	if err := validateBrokers(brokers); err != nil {
		return fmt.Errorf("kafka: follow %q: %w", topic, err)
	}
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers: brokers, Topic: topic, Partition: partition,
		MinBytes: DefaultMinBytes, MaxBytes: DefaultMaxBytes, MaxWait: DefaultMaxWait,
		ReadLagInterval: -1,
	})
	defer r.Close()
	if err := r.SetOffset(kafka.FirstOffset); err != nil {
		return fmt.Errorf("kafka: follow %q partition %d: %w", topic, partition, err)
	}
	for {
		km, err := r.ReadMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("kafka: follow %q partition %d: %w", topic, partition, err)
		}
		if err := fn(km.Offset, fromKafka(km)); err != nil {
			return err
		}
	}
}

// Partitioning binds a proposals topic and a records topic that are
// partitioned alike — the same partition count, the same partitioner —
// so that whoever consumes partition p of the first writes partition p of
// the second (the sharded ledger guard).
type Partitioning struct {
	Brokers []string
	// Proposals is the consumed topic, Records the written one.
	Proposals, Records string
}

// Count returns the partition count the two topics share, and an error
// when either is missing or their counts differ.
func (p Partitioning) Count(ctx context.Context) (int, error) {
	return Copartitioned(ctx, p.Brokers, p.Proposals, p.Records)
}

// Of returns the partition of key on topics of n partitions (PartitionOf).
func (p Partitioning) Of(key string, n int) int { return PartitionOf([]byte(key), n) }

// Assigned returns the partition msg was delivered from and the channel
// closed when this subscriber's hold on it ends.
func (p Partitioning) Assigned(msg *message.Message) (int, <-chan struct{}, bool) {
	a, ok := AssignmentOf(msg)
	if !ok || a.Topic != p.Proposals {
		return 0, nil, false
	}
	return a.Partition, a.Revoked, true
}

// Read reads records partition partition as stored now (ReadPartition).
func (p Partitioning) Read(ctx context.Context, partition int, fn func(*message.Message) error) error {
	return ReadPartition(ctx, p.Brokers, p.Records, partition, func(_ int64, m *message.Message) error { return fn(m) })
}

// Follow reads records partition partition from its start and follows it
// until ctx ends (Follow).
func (p Partitioning) Follow(ctx context.Context, partition int, fn func(*message.Message) error) error {
	return Follow(ctx, p.Brokers, p.Records, partition, func(_ int64, m *message.Message) error { return fn(m) })
}
