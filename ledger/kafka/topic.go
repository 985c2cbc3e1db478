package kafka

import (
	"context"
	"errors"
	"fmt"

	"github.com/segmentio/kafka-go"
)

// CreateTopic creates topic with the given number of partitions and the
// broker's default replication factor on the cluster reachable through
// brokers. A topic that already exists is left as it is, whatever its
// partition count, so CreateTopic can run on every start of a service. It
// returns once the cluster's metadata lists the topic.
func CreateTopic(ctx context.Context, brokers []string, topic string, partitions int) error {
	if err := validateBrokers(brokers); err != nil {
		return fmt.Errorf("kafka: create topic %q: %w", topic, err)
	}
	if topic == "" {
		return errors.New("kafka: create topic: empty topic name")
	}
	if partitions < 1 {
		return fmt.Errorf("kafka: create topic %q: %d partitions, want at least 1", topic, partitions)
	}
	transport := &kafka.Transport{ClientID: "sealgate"}
	defer transport.CloseIdleConnections()
	client := &kafka.Client{Addr: kafka.TCP(brokers...), Transport: transport}
	// kafka-go's transport waits for a created topic to show up in the
	// metadata before CreateTopics returns, so producers that follow do not
	// fail on a topic that the cluster is still propagating.
	resp, err := client.CreateTopics(ctx, &kafka.CreateTopicsRequest{
		Topics: []kafka.TopicConfig{{
			Topic:             topic,
			NumPartitions:     partitions,
			ReplicationFactor: -1, // the broker's default.replication.factor
		}},
	})
	if err != nil {
		return fmt.Errorf("kafka: create topic %q: %w", topic, err)
	}
	if err := resp.Errors[topic]; err != nil && !errors.Is(err, kafka.TopicAlreadyExists) {
		return fmt.Errorf("kafka: create topic %q: %w", topic, err)
	}
	return nil
}

// partitionCount returns how many partitions topic has, 0 when it does not
// exist. Like every metadata request of kafka-go's Conn, it asks for
// auto-creation, which the broker grants or not.
func partitionCount(ctx context.Context, dialer *kafka.Dialer, brokers []string, topic string) (int, error) {
	var errs []error
	for _, b := range brokers {
		parts, err := dialer.LookupPartitions(ctx, "tcp", b, topic)
		switch {
		case err == nil:
			return len(parts), nil
		case errors.Is(err, kafka.UnknownTopicOrPartition):
			return 0, nil
		case ctx.Err() != nil:
			return 0, ctx.Err()
		}
		errs = append(errs, err)
	}
	return 0, fmt.Errorf("look up partitions of %q: %w", topic, errors.Join(errs...))
}
