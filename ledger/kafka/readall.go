package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/segmentio/kafka-go"
)

// ReadAll reads every message of topic that is stored when it is called —
// partition by partition, each from its first offset to its end at that
// moment — and hands each to fn in partition order. A topic that does not
// exist yet has nothing to read. It is how a single writer rebuilds its
// state before it writes.
func ReadAll(ctx context.Context, brokers []string, topic string, fn func(partition int, offset int64, msg *message.Message) error) error {
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
		first, end := bounds[p][0], bounds[p][1]
		if end <= first {
			continue
		}
		if err := readPartition(ctx, brokers, topic, p, first, end, fn); err != nil {
			return err
		}
	}
	return nil
}

func readPartition(ctx context.Context, brokers []string, topic string, partition int, first, end int64, fn func(int, int64, *message.Message) error) error {
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers: brokers, Topic: topic, Partition: partition,
		MinBytes: DefaultMinBytes, MaxBytes: DefaultMaxBytes, MaxWait: DefaultMaxWait,
	})
	defer r.Close()
	if err := r.SetOffset(first); err != nil {
		return fmt.Errorf("kafka: read %q partition %d: %w", topic, partition, err)
	}
	for {
		km, err := r.ReadMessage(ctx)
		if err != nil {
			return fmt.Errorf("kafka: read %q partition %d at %d: %w", topic, partition, r.Offset(), err)
		}
		if err := fn(partition, km.Offset, fromKafka(km)); err != nil {
			return err
		}
		if km.Offset+1 >= end {
			return nil
		}
	}
}

// topicPartitions returns the partition ids of topic in ascending order
// (the order the Writer's balancer hashes over); none when the topic does
// not exist yet.
func topicPartitions(ctx context.Context, client *kafka.Client, topic string) ([]int, error) {
	meta, err := client.Metadata(ctx, &kafka.MetadataRequest{Topics: []string{topic}})
	if err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	var parts []int
	for _, t := range meta.Topics {
		if t.Name != topic {
			continue
		}
		if t.Error != nil {
			if errors.Is(t.Error, kafka.UnknownTopicOrPartition) {
				return nil, nil
			}
			return nil, t.Error
		}
		for _, p := range t.Partitions {
			parts = append(parts, p.ID)
		}
	}
	sort.Ints(parts)
	return parts, nil
}

// partitionBounds returns, per partition of parts, its first offset and
// its end (the offset the next message will get).
func partitionBounds(ctx context.Context, client *kafka.Client, topic string, parts []int) (map[int][2]int64, error) {
	req := &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{}}
	for _, p := range parts {
		req.Topics[topic] = append(req.Topics[topic], kafka.FirstOffsetOf(p), kafka.LastOffsetOf(p))
	}
	offs, err := client.ListOffsets(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("list offsets: %w", err)
	}
	bounds := map[int][2]int64{}
	for _, po := range offs.Topics[topic] {
		if po.Error != nil {
			return nil, fmt.Errorf("partition %d: %w", po.Partition, po.Error)
		}
		bounds[po.Partition] = [2]int64{po.FirstOffset, po.LastOffset}
	}
	return bounds, nil
}
