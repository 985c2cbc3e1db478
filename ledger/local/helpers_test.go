package local_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/local"
)

// fastDir returns a directory on tmpfs when the machine has one. The
// Watermill suite acks tens of thousands of messages one commit at a time;
// on a disk each commit is two fsyncs of milliseconds, which would test
// the disk, not the code. Durability is the crash test's business (and a
// SIGKILL does not lose the page cache either way).
func fastDir(t testing.TB) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		dir, err := os.MkdirTemp("/dev/shm", "sealgate-ledger-local-")
		if err == nil {
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

func openLog(t testing.TB, path string) *local.Log {
	t.Helper()
	l, err := local.Open(path, local.Options{})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return l
}

func newPublisher(t testing.TB, l *local.Log) *local.Publisher {
	t.Helper()
	p, err := local.NewPublisher(l)
	if err != nil {
		t.Fatalf("NewPublisher: %v", err)
	}
	return p
}

func newSubscriber(t testing.TB, l *local.Log, group string) *local.Subscriber {
	t.Helper()
	s, err := local.NewSubscriber(l, local.SubscriberConfig{ConsumerGroup: group})
	if err != nil {
		t.Fatalf("NewSubscriber(%q): %v", group, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// receive waits for the next message. The timeout only turns a hang into a
// failure; no test asserts how long anything takes.
func receive(t testing.TB, ch <-chan *message.Message) *message.Message {
	t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			t.Fatal("subscription channel closed")
		}
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no message within 30s")
	}
	return nil
}

func seqOf(t testing.TB, m *message.Message) uint64 {
	t.Helper()
	seq, ok := local.SeqFromContext(m.Context())
	if !ok {
		t.Fatalf("message %s has no seq in its context", m.UUID)
	}
	return seq
}

func scanAll(t testing.TB, l *local.Log) ([]local.Entry, []*local.CorruptEntryError) {
	t.Helper()
	var (
		entries []local.Entry
		bad     []*local.CorruptEntryError
	)
	err := l.Scan(context.Background(), 0, func(e local.Entry, err error) error {
		if err != nil {
			var ce *local.CorruptEntryError
			if !errors.As(err, &ce) {
				return err
			}
			bad = append(bad, ce)
			return nil
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return entries, bad
}
