package local

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
)

// TestAckWithConflictWritesNothing: when the offset moved past a delivery
// (another subscription of the group acked the message after this one
// ended), AckWith must neither append its outputs nor move the offset. The
// race is set up by hand, as no public sequence produces it deterministically.
func TestAckWithConflictWritesNothing(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "ledger.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pub, err := NewPublisher(l)
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish("in", message.NewMessage("a", nil), message.NewMessage("b", nil)); err != nil {
		t.Fatal(err)
	}
	sub, err := NewSubscriber(l, SubscriberConfig{ConsumerGroup: "g"})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	key := offsetKey("g", "in")
	stale := message.NewMessage("a", nil)
	sub.track(stale, &delivery{key: key, prev: 0, seq: 1})
	if err := l.submit(&commitRequest{offset: &offsetUpdate{key: key, prev: 0, next: 2}}); err != nil {
		t.Fatal(err)
	}

	err = sub.AckWith(stale, Output{Topic: "out", Messages: []*message.Message{message.NewMessage("x", nil)}})
	if !errors.Is(err, ErrOffsetConflict) {
		t.Fatalf("AckWith of a stale delivery = %v, want ErrOffsetConflict", err)
	}
	if seq, _, err := l.Head(); err != nil || seq != 2 {
		t.Fatalf("Head = %d, %v; want 2 (the outputs must not be appended)", seq, err)
	}
	if off, err := l.Offset("g", "in"); err != nil || off != 2 {
		t.Fatalf("Offset = %d, %v; want 2 (untouched)", off, err)
	}
	select {
	case <-stale.Acked():
		t.Fatal("a failed AckWith acked the message")
	default:
	}
}
