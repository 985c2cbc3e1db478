package consume_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/consume"
	"github.com/sealgate/sealgate/ledger/local"
)

// fixture is a real local log with n messages on topic "t".
func fixture(t *testing.T, n int) *local.Subscriber {
	t.Helper()
	log, err := local.Open(filepath.Join(t.TempDir(), "log.db"), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	pub, err := local.NewPublisher(log)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := pub.Publish("t", message.NewMessage(fmt.Sprintf("m%d", i), []byte(fmt.Sprint(i)))); err != nil {
			t.Fatal(err)
		}
	}
	sub, err := local.NewSubscriber(log, local.SubscriberConfig{ConsumerGroup: "g"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Close() })
	return sub
}

// TestFailedMessageComesBackAndTheLoopGoesOn: over a real local log, a
// handler failing twice on one message neither loses it nor stops the
// loop — the message comes back after the pause and every later one is
// handled, in order — and Ready is called before the first message.
func TestFailedMessageComesBackAndTheLoopGoesOn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sub := fixture(t, 4)
	var mu sync.Mutex
	var seen []string
	ready := false
	fails := 2
	done := make(chan struct{})
	l := &consume.Loop{Name: "test", Sub: sub, Topic: "t", Pause: time.Millisecond,
		Ready: func() { mu.Lock(); ready = true; mu.Unlock() },
		Handle: func(_ context.Context, msg *message.Message) error {
			mu.Lock()
			defer mu.Unlock()
			if !ready {
				return consume.Stop(errors.New("handled before Ready"))
			}
			seen = append(seen, string(msg.Payload))
			if string(msg.Payload) == "1" && fails > 0 {
				fails--
				return errors.New("the blob store does not answer")
			}
			if string(msg.Payload) == "3" {
				close(done)
			}
			return nil
		}}
	errc := make(chan error, 1)
	go func() { errc <- l.Run(ctx) }()
	select {
	case <-done:
	case err := <-errc:
		t.Fatalf("the loop stopped: %v", err)
	case <-ctx.Done():
		t.Fatal("the messages after the failing one were never handled")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("the loop stopped: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got, want := fmt.Sprint(seen), "[0 1 1 1 2 3]"; got != want {
		t.Fatalf("handled %s, want %s", got, want)
	}
}

// TestStopEndsTheLoop: only an error marked Stop ends the loop, with that
// error, and the message is not acknowledged (a later consumer of the
// group meets it again).
func TestStopEndsTheLoop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sub := fixture(t, 2)
	damaged := errors.New("the local log is damaged")
	l := &consume.Loop{Name: "test", Sub: sub, Topic: "t",
		Handle: func(context.Context, *message.Message) error { return consume.Stop(damaged) }}
	if err := l.Run(ctx); !errors.Is(err, damaged) {
		t.Fatalf("Run returned %v, want the Stop error", err)
	}
	again := make(chan string, 1)
	l = &consume.Loop{Name: "test", Sub: sub, Topic: "t",
		Handle: func(_ context.Context, msg *message.Message) error {
			select {
			case again <- string(msg.Payload):
			default:
			}
			cancel()
			return nil
		}}
	if err := l.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if got := <-again; got != "0" {
		t.Fatalf("after the stop the group met message %s first, want 0 again", got)
	}
}

// TestTicksBetweenMessages: Tick runs on its clock while no message comes.
func TestTicksBetweenMessages(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sub := fixture(t, 0)
	ticks := 0
	l := &consume.Loop{Name: "test", Sub: sub, Topic: "t", Every: time.Millisecond,
		Tick: func(context.Context) {
			ticks++
			if ticks == 3 {
				cancel()
			}
		},
		Handle: func(context.Context, *message.Message) error { return nil }}
	if err := l.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if ticks < 3 {
		t.Fatalf("%d ticks", ticks)
	}
}
