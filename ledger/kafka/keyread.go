package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/segmentio/kafka-go"
)

// KeyRange says which part of a topic ReadKeySince read: the partition the
// key hashes to, the topic's partition count, and the offsets read,
// [From, End). From is the partition's first offset when no start time was
// given.
type KeyRange struct {
	Partition  int
	Partitions int
	From, End  int64
}

// ReadKeySince reads the messages stored — when it is called — in the one
// partition of topic that the publisher's balancer (kafka-go's Hash, as
// the Publisher uses) gives key, from the first message whose timestamp is
// at or after since (the zero time: the partition's first message) to the
// partition's end, and hands each to fn in offset order. Messages of other
// keys in that partition are handed too: the caller filters. A topic that
// does not exist yet has nothing to read. It is how one run's records are
// found without reading the whole topic: its partition follows from its
// key, its start from the broker's time index (ListOffsets by timestamp).
// Offsets, not timestamps, order a partition: everything written after the
// first message stamped at or after since is read, whatever its stamp, and
// a message stamped after since can only be missed if it was written
// before every message stamped at or after since.
//
// The partition is right only while the topic keeps the partition count
// it had when the key's messages were written: a topic that gained
// partitions re-homes keys, and the caller must not take what it reads
// here as all there is (KeyRange.Partitions says what count was used).
func ReadKeySince(ctx context.Context, brokers []string, topic string, key []byte, since time.Time, fn func(offset int64, msg *message.Message) error) (KeyRange, error) {
	var kr KeyRange
	if err := validateBrokers(brokers); err != nil {
		return kr, fmt.Errorf("kafka: read %q by key: %w", topic, err)
	}
	if len(key) == 0 {
		return kr, fmt.Errorf("kafka: read %q by key: the key is empty", topic)
	}
	transport := &kafka.Transport{ClientID: "sealgate"}
	defer transport.CloseIdleConnections()
	client := &kafka.Client{Addr: kafka.TCP(brokers...), Transport: transport}
	meta, err := client.Metadata(ctx, &kafka.MetadataRequest{Topics: []string{topic}})
	if err != nil {
		return kr, fmt.Errorf("kafka: read %q by key: metadata: %w", topic, err)
	}
	var parts []int
	for _, t := range meta.Topics {
		if t.Name != topic {
			continue
		}
		if t.Error != nil {
			if errors.Is(t.Error, kafka.UnknownTopicOrPartition) {
				return kr, nil
			}
			return kr, fmt.Errorf("kafka: read %q by key: %w", topic, t.Error)
		}
		for _, p := range t.Partitions {
			parts = append(parts, p.ID)
		}
	}
	if len(parts) == 0 {
		return kr, nil
	}
	// The Writer balances over the partition ids in ascending order.
	sort.Ints(parts)
	kr.Partitions = len(parts)
	kr.Partition = (&kafka.Hash{}).Balance(kafka.Message{Key: key}, parts...)

	bounds, err := client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{
		topic: {kafka.FirstOffsetOf(kr.Partition), kafka.LastOffsetOf(kr.Partition)}}})
	if err != nil {
		return kr, fmt.Errorf("kafka: read %q partition %d: list offsets: %w", topic, kr.Partition, err)
	}
	found := false
	for _, po := range bounds.Topics[topic] {
		if po.Partition != kr.Partition {
			continue
		}
		if po.Error != nil {
			return kr, fmt.Errorf("kafka: read %q partition %d: %w", topic, kr.Partition, po.Error)
		}
		kr.From, kr.End, found = po.FirstOffset, po.LastOffset, true
	}
	if !found || kr.From < 0 || kr.End < kr.From {
		return kr, fmt.Errorf("kafka: read %q partition %d: the broker did not say where the partition starts and ends", topic, kr.Partition)
	}
	if !since.IsZero() && kr.End > kr.From {
		at, err := offsetAt(ctx, client, topic, kr.Partition, since)
		if err != nil {
			return kr, err
		}
		// Not found: no message is that recent; nothing to read.
		if at < 0 {
			at = kr.End
		}
		kr.From = min(max(kr.From, at), kr.End)
	}
	if kr.End <= kr.From {
		return kr, nil
	}
	return kr, readPartition(ctx, brokers, topic, kr.Partition, kr.From, kr.End, func(_ int, off int64, m *message.Message) error {
		return fn(off, m)
	})
}

// offsetAt asks the broker's time index for the first offset of partition
// whose timestamp is at or after t; -1 when there is none.
func offsetAt(ctx context.Context, client *kafka.Client, topic string, partition int, t time.Time) (int64, error) {
	res, err := client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{
		topic: {kafka.TimeOffsetOf(partition, t)}}})
	if err != nil {
		return 0, fmt.Errorf("kafka: read %q partition %d: offset for time %s: %w", topic, partition, t.UTC().Format(time.RFC3339), err)
	}
	for _, po := range res.Topics[topic] {
		if po.Partition != partition {
			continue
		}
		if po.Error != nil {
			return 0, fmt.Errorf("kafka: read %q partition %d: offset for time: %w", topic, partition, po.Error)
		}
		// kafka-go files the answer under Offsets, except when the broker
		// answers with timestamp -1 ("none found"), which it files as the
		// last offset.
		for off := range po.Offsets {
			return off, nil
		}
		return -1, nil
	}
	return 0, fmt.Errorf("kafka: read %q partition %d: the broker did not answer the offset for time %s", topic, partition, t.UTC().Format(time.RFC3339))
}
