package kafka_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"

	"github.com/sealgate/sealgate/ledger/kafka"
)

// suiteNackResendSleep keeps the suite's nack-heavy tests quick.
const suiteNackResendSleep = 5 * time.Millisecond

// TestPubSub runs Watermill's universal Pub/Sub suite with the default
// partition key. Order holds only between messages of one key, and the
// suite's messages have a key each, so GuaranteedOrder is false here; see
// TestPubSubOrderedByKey. TestReconnect is skipped: it needs a command that
// restarts the broker (tools/devbroker's test covers a restart instead).
func TestPubSub(t *testing.T) {
	brokers := testBrokers(t)
	features := tests.Features{
		ConsumerGroups:                   true,
		ExactlyOnceDelivery:              false,
		GuaranteedOrder:                  false,
		Persistent:                       true,
		NewSubscriberReceivesOldMessages: true,
	}
	tests.TestPubSub(t, features, pubSubConstructor(brokers, nil), groupPubSubConstructor(brokers, nil))
}

// TestPubSubOrderedByKey runs the suite again with messages keyed by their
// payload. The suite's order test tells message streams apart by payload,
// as sealgate tells runs apart by run ID, so each stream is one key and
// keeps its order: GuaranteedOrder is true, which also runs TestNoAck.
func TestPubSubOrderedByKey(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite a second time")
	}
	brokers := testBrokers(t)
	features := tests.Features{
		ConsumerGroups:                   true,
		ExactlyOnceDelivery:              false,
		GuaranteedOrder:                  true,
		Persistent:                       true,
		NewSubscriberReceivesOldMessages: true,
	}
	byPayload := func(_ string, msg *message.Message) []byte { return msg.Payload }
	tests.TestPubSub(t, features, pubSubConstructor(brokers, byPayload), groupPubSubConstructor(brokers, byPayload))
}

func pubSubConstructor(brokers []string, key kafka.PartitionKeyFunc) tests.PubSubConstructor {
	return func(t *testing.T) (message.Publisher, message.Subscriber) {
		return newPubSub(t, brokers, "", key)
	}
}

func groupPubSubConstructor(brokers []string, key kafka.PartitionKeyFunc) tests.ConsumerGroupPubSubConstructor {
	return func(t *testing.T, group string) (message.Publisher, message.Subscriber) {
		return newPubSub(t, brokers, group, key)
	}
}

func newPubSub(t *testing.T, brokers []string, group string, key kafka.PartitionKeyFunc) (*kafka.Publisher, *kafka.Subscriber) {
	t.Helper()
	logger := watermill.NopLogger{}
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers, PartitionKey: key}, logger)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{
		Brokers:         brokers,
		ConsumerGroup:   group,
		NackResendSleep: suiteNackResendSleep,
	}, logger)
	if err != nil {
		t.Fatal(err)
	}
	var _ message.SubscribeInitializer = sub // the suite creates topics through it
	return pub, sub
}
