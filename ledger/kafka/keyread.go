package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	return readKey(ctx, brokers, topic, key, keyStart{since: since}, fn)
}

// ReadKeyFrom is ReadKeySince from offset from of the key's partition
// rather than from a time: for a caller that read the key's partition
// before and knows that none of the key's messages lie below from (the
// offset of the first one it found, or the end it read to when it found
// none). That holds only while the topic keeps the partition count it had
// then, partitions, and the offsets it had: when the count differs, or
// from lies past the partition's end (a topic deleted and made again),
// ReadKeyFrom reads nothing and returns ErrKeyMoved, and the caller reads
// by time again. A from below the partition's first offset (retention
// removed what lay there) reads from the first offset.
func ReadKeyFrom(ctx context.Context, brokers []string, topic string, key []byte, partitions int, from int64, fn func(offset int64, msg *message.Message) error) (KeyRange, error) {
	return readKey(ctx, brokers, topic, key, keyStart{from: from, partitions: partitions, byOffset: true}, fn)
}

// keyStart says where readKey begins: at a time, or at an offset that
// holds for a partition count.
type keyStart struct {
	since      time.Time
	from       int64
	partitions int
	byOffset   bool
}

func readKey(ctx context.Context, brokers []string, topic string, key []byte, start keyStart, fn func(offset int64, msg *message.Message) error) (KeyRange, error) {
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
	parts, err := topicPartitions(ctx, client, topic)
	if err != nil {
		return kr, fmt.Errorf("kafka: read %q by key: %w", topic, err)
	}
	if start.byOffset && len(parts) != start.partitions {
		return KeyRange{Partitions: len(parts)}, fmt.Errorf("kafka: read %q by key from offset %d: the topic has %d partitions, not the %d the offset was found with: %w", topic, start.from, len(parts), start.partitions, ErrKeyMoved)
	}
	if len(parts) == 0 {
		return kr, nil
	}
	// The Writer balances over the partition ids in ascending order, as
	// topicPartitions lists them.
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
	switch {
	case start.byOffset:
		if start.from > kr.End || start.from < 0 {
			return kr, fmt.Errorf("kafka: read %q partition %d from offset %d: the partition ends at %d: %w", topic, kr.Partition, start.from, kr.End, ErrKeyMoved)
		}
		kr.From = max(kr.From, start.from)
	case !start.since.IsZero() && kr.End > kr.From:
		at, err := offsetAt(ctx, client, topic, kr.Partition, start.since)
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
	return kr, fetchRange(ctx, client, topic, kr.Partition, kr.From, kr.End, fn)
}

// ReadTopic is ReadAll with the fetch requests of ReadKeySince: every
// message of topic stored when it is called, partition by partition in
// ascending order, each from its first offset to its end at that moment.
func ReadTopic(ctx context.Context, brokers []string, topic string, fn func(partition int, offset int64, msg *message.Message) error) error {
	if err := validateBrokers(brokers); err != nil {
		return fmt.Errorf("kafka: read %q: %w", topic, err)
	}
	transport := &kafka.Transport{ClientID: "sealgate"}
	defer transport.CloseIdleConnections()
	client := &kafka.Client{Addr: kafka.TCP(brokers...), Transport: transport}
	parts, err := topicPartitions(ctx, client, topic)
	if err != nil {
		return fmt.Errorf("kafka: read %q: %w", topic, err)
	}
	if len(parts) == 0 {
		return nil
	}
	bounds, err := partitionBounds(ctx, client, topic, parts)
	if err != nil {
		return fmt.Errorf("kafka: read %q: %w", topic, err)
	}
	for _, p := range parts {
		b, ok := bounds[p]
		if !ok || b[0] < 0 || b[1] < b[0] {
			return fmt.Errorf("kafka: read %q partition %d: the broker did not say where the partition starts and ends", topic, p)
		}
		err := fetchRange(ctx, client, topic, p, b[0], b[1], func(off int64, m *message.Message) error { return fn(p, off, m) })
		if err != nil {
			return err
		}
	}
	return nil
}

// fetchRange reads the messages of one partition at offsets [from, end)
// with plain fetch requests — no consumer, no wait past end — and hands
// each to fn in offset order. A fetch that brings nothing while offsets
// below end remain is an error, not an end: what was asked for is not all
// there.
func fetchRange(ctx context.Context, client *kafka.Client, topic string, partition int, from, end int64, fn func(int64, *message.Message) error) error {
	for off := from; off < end; {
		res, err := client.Fetch(ctx, &kafka.FetchRequest{Topic: topic, Partition: partition, Offset: off,
			MinBytes: DefaultMinBytes, MaxBytes: DefaultMaxBytes, MaxWait: DefaultMaxWait})
		if err != nil {
			return fmt.Errorf("kafka: read %q partition %d at %d: %w", topic, partition, off, err)
		}
		if res.Error != nil {
			return fmt.Errorf("kafka: read %q partition %d at %d: %w", topic, partition, off, res.Error)
		}
		next, err := eachRecord(res.Records, off, end, func(rec *kafka.Record, value []byte) error {
			km := kafka.Message{Topic: topic, Partition: partition, Offset: rec.Offset, Time: rec.Time, Headers: rec.Headers, Value: value}
			return fn(rec.Offset, fromKafka(km))
		})
		if err != nil {
			return fmt.Errorf("kafka: read %q partition %d at %d: %w", topic, partition, off, err)
		}
		if next <= off {
			return fmt.Errorf("kafka: read %q partition %d: the broker returned nothing at offset %d, below the end %d it named", topic, partition, off, end)
		}
		off = next
	}
	return nil
}

// eachRecord hands fn the records of rs at offsets [from, end) and returns
// the offset after the last one handed (from when none was).
func eachRecord(rs kafka.RecordReader, from, end int64, fn func(*kafka.Record, []byte) error) (int64, error) {
	next := from
	for {
		rec, err := rs.ReadRecord()
		if errors.Is(err, io.EOF) {
			return next, nil
		}
		if err != nil {
			return next, err
		}
		if rec.Offset < from {
			continue // a batch that begins before the offset asked for
		}
		if rec.Offset >= end {
			return next, nil
		}
		var value []byte
		if rec.Value != nil {
			if value, err = io.ReadAll(rec.Value); err != nil {
				return next, err
			}
		}
		if err := fn(rec, value); err != nil {
			return next, err
		}
		next = rec.Offset + 1
	}
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
