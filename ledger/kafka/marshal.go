package kafka

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/segmentio/kafka-go"
)

const (
	// UUIDHeaderKey is the Kafka header that carries the Watermill message
	// UUID. It is the key watermill-kafka uses, so the two interoperate.
	UUIDHeaderKey = "_watermill_message_uuid"

	// RunIDMetadataKey is the metadata entry that [DefaultPartitionKey] keys
	// messages by, so that the records of one run stay in one partition.
	RunIDMetadataKey = "run_id"
)

// PartitionKeyFunc returns the Kafka key of msg published to topic. Messages
// with equal keys land in the same partition and so keep their order; a nil
// key spreads messages round-robin.
type PartitionKeyFunc func(topic string, msg *message.Message) []byte

// DefaultPartitionKey keys msg by its run ID ([RunIDMetadataKey]) when it has
// one, so a run's records are consumed in the order they were published, and
// by its UUID otherwise, which spreads unrelated messages over the partitions.
func DefaultPartitionKey(_ string, msg *message.Message) []byte {
	if runID := msg.Metadata.Get(RunIDMetadataKey); runID != "" {
		return []byte(runID)
	}
	return []byte(msg.UUID)
}

// toKafka converts msg into a Kafka record of topic. Metadata headers follow
// the UUID header in key order, so equal messages encode to equal records.
func toKafka(topic string, msg *message.Message, key PartitionKeyFunc) (kafka.Message, error) {
	if msg == nil {
		return kafka.Message{}, fmt.Errorf("nil message")
	}
	if _, ok := msg.Metadata[UUIDHeaderKey]; ok {
		return kafka.Message{}, fmt.Errorf("message %s: metadata key %q is reserved for the message UUID", msg.UUID, UUIDHeaderKey)
	}
	headers := make([]kafka.Header, 0, len(msg.Metadata)+1)
	headers = append(headers, kafka.Header{Key: UUIDHeaderKey, Value: []byte(msg.UUID)})
	for _, k := range slices.Sorted(maps.Keys(msg.Metadata)) {
		headers = append(headers, kafka.Header{Key: k, Value: []byte(msg.Metadata[k])})
	}
	return kafka.Message{
		Topic:   topic,
		Key:     key(topic, msg),
		Value:   msg.Payload,
		Headers: headers,
	}, nil
}

// fromKafka converts a Kafka record back into a Watermill message. A record
// written by another producer has no UUID header; its message has an empty
// UUID rather than an invented one.
func fromKafka(km kafka.Message) *message.Message {
	var id string
	md := make(message.Metadata, len(km.Headers))
	for _, h := range km.Headers {
		if h.Key == UUIDHeaderKey {
			id = string(h.Value)
			continue
		}
		md[h.Key] = string(h.Value)
	}
	msg := message.NewMessage(id, km.Value)
	msg.Metadata = md
	return msg
}

// errorLogger adapts logger to kafka-go's error logger, which reports
// failures that kafka-go retries on its own (lost connections, failed
// produce attempts, rebalances) and so never reach a caller.
func errorLogger(logger watermill.LoggerAdapter, fields watermill.LogFields) kafka.Logger {
	return kafka.LoggerFunc(func(format string, args ...any) {
		logger.Error("kafka-go: "+fmt.Sprintf(format, args...), nil, fields)
	})
}
