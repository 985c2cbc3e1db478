package local_test

import (
	"path/filepath"
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"

	"github.com/sealgate/sealgate/ledger/local"
)

// The suite's constructors are called for every "instance" of the Pub/Sub;
// all of them share one Log, as all services of a process share one file
// (bbolt allows a single writer per file).
func suiteConstructors(l *local.Log, defaultGroup string) (tests.PubSubConstructor, tests.ConsumerGroupPubSubConstructor) {
	withGroup := func(t *testing.T, group string) (message.Publisher, message.Subscriber) {
		pub, err := local.NewPublisher(l)
		if err != nil {
			t.Fatalf("NewPublisher: %v", err)
		}
		sub, err := local.NewSubscriber(l, local.SubscriberConfig{ConsumerGroup: group})
		if err != nil {
			t.Fatalf("NewSubscriber: %v", err)
		}
		return pub, sub
	}
	return func(t *testing.T) (message.Publisher, message.Subscriber) {
		return withGroup(t, defaultGroup)
	}, withGroup
}

// TestPubSub runs Watermill's universal suite with a consumer group, the way
// sealgate services consume.
func TestPubSub(t *testing.T) {
	l := openLog(t, filepath.Join(fastDir(t), "ledger.db"))
	pubSub, groupPubSub := suiteConstructors(l, "suite")
	tests.TestPubSub(t, tests.Features{
		ConsumerGroups: true,
		// Ack commits the offset after the consumer acted; a crash in
		// between redelivers. (AckWith is exactly-once in effect, but the
		// suite acks with Ack.)
		ExactlyOnceDelivery: false,
		// One message in flight per (group, topic), in append order.
		GuaranteedOrder: true,
		Persistent:      true,
		// A new subscriber of the same group continues from the group's
		// offset; see TestPubSubEphemeral for subscribers that replay.
		NewSubscriberReceivesOldMessages: false,
		RestartServiceCommand:            nil, // embedded: no broker to restart
	}, pubSub, groupPubSub)
}

// TestPubSubEphemeral runs the suite for subscribers without a consumer
// group: each Subscribe replays the topic from the beginning.
func TestPubSubEphemeral(t *testing.T) {
	l := openLog(t, filepath.Join(fastDir(t), "ledger.db"))
	pubSub, _ := suiteConstructors(l, "")
	tests.TestPubSub(t, tests.Features{
		ConsumerGroups:                   false,
		ExactlyOnceDelivery:              false,
		GuaranteedOrder:                  true,
		Persistent:                       true,
		NewSubscriberReceivesOldMessages: true,
		RestartServiceCommand:            nil,
	}, pubSub, nil)
}
