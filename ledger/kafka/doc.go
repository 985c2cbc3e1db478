// Package kafka carries sealgate's ledger records over Kafka: a Watermill
// [message.Publisher] and [message.Subscriber] built on
// github.com/segmentio/kafka-go.
//
// # Publishing
//
// [Publisher.Publish] is synchronous: it returns only after the partition
// leaders acknowledged every message with acks=all, so a nil error means the
// records are in the ledger. The messages of one call are handed to the
// kafka-go Writer in one write, which batches them per partition; concurrent
// calls share batches. A message's partition is chosen by hashing the key
// that [PublisherConfig.PartitionKey] returns. The default,
// [DefaultPartitionKey], keys by the run ID in the message metadata
// ([RunIDMetadataKey]), so all records of one run land in one partition and
// are read back in the order they were published.
//
// The Watermill UUID travels in the [UUIDHeaderKey] header and every metadata
// entry in a header of its own, so both survive the round trip.
//
// # Subscribing
//
// Every [Subscriber.Subscribe] call joins a Kafka consumer group: the one
// named by [SubscriberConfig.ConsumerGroup] (one per service, so the
// service's instances share the work), or a group of its own when that is
// empty, so that the subscription sees every message, as Watermill expects
// of a subscriber without a group. A group that has no committed offset
// starts from the earliest record.
//
// Each assigned partition is consumed by its own goroutine, one message at a
// time: the next message of a partition is delivered only after the previous
// one was acked, and the offset is committed only then. A nacked message is
// delivered again, after [SubscriberConfig.NackResendSleep]. Partitions
// progress independently of each other.
//
// # Topics
//
// [CreateTopic] creates a topic with the partition count asked for and
// leaves an existing one alone; [Subscriber.SubscribeInitialize] calls it.
// A missing topic is created on first use only by a broker that creates
// topics on demand (auto.create.topics.enable); elsewhere Publish to it
// fails and Subscribe waits for it to appear.
//
// # Delivery guarantees
//
// Delivery is at least once, in both directions:
//
//   - kafka-go has no idempotent producer. A produce request that the broker
//     appended but whose answer was lost is retried by the Writer and appended
//     again, and a Publish that returned an error may still have been written.
//   - A message acked but not yet committed when its consumer stops, or whose
//     partition moves to another group member, is delivered again.
//
// Consumers must therefore be idempotent; sealgate's ledger drops records it
// has already seen by their digest and token.
package kafka
