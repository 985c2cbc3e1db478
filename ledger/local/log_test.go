package local_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"go.etcd.io/bbolt"

	"github.com/sealgate/sealgate/ledger/local"
)

func testMessage(id string) *message.Message {
	m := message.NewMessage(id, []byte("payload of "+id))
	m.Metadata.Set("id", id)
	m.Metadata.Set("kind", "test")
	return m
}

func sameMessage(t *testing.T, got, want *message.Message) {
	t.Helper()
	if got.UUID != want.UUID || !bytes.Equal(got.Payload, want.Payload) || !maps.Equal(got.Metadata, want.Metadata) {
		t.Fatalf("got message %s %q %v, want %s %q %v", got.UUID, got.Payload, got.Metadata, want.UUID, want.Payload, want.Metadata)
	}
}

func TestReopenKeepsMessagesAndOffsets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	var want []*message.Message
	for i := range 5 {
		want = append(want, testMessage(fmt.Sprintf("m%d", i)))
	}

	l, err := local.Open(path, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pub := newPublisher(t, l)
	if err := pub.Publish("a", want[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish("b", testMessage("other")); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish("a", want[2:]...); err != nil {
		t.Fatal(err)
	}
	sub := newSubscriber(t, l, "g")
	ch, err := sub.Subscribe(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	var thirdSeq uint64
	for i := range 3 {
		m := receive(t, ch)
		sameMessage(t, m, want[i])
		thirdSeq = seqOf(t, m)
		m.Ack()
	}
	// The fourth is delivered only after the third's offset is committed,
	// so receiving it (unacked) pins the stored offset at the third.
	sameMessage(t, receive(t, ch), want[3])
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	l = openLog(t, path)
	if off, err := l.Offset("g", "a"); err != nil || off != thirdSeq {
		t.Fatalf("Offset(g, a) after reopen = %d, %v; want %d", off, err, thirdSeq)
	}
	if off, err := l.Offset("g", "b"); err != nil || off != 0 {
		t.Fatalf("Offset(g, b) = %d, %v; want 0", off, err)
	}
	ch, err = newSubscriber(t, l, "g").Subscribe(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	for i := 3; i < 5; i++ {
		m := receive(t, ch)
		sameMessage(t, m, want[i])
		m.Ack()
	}

	entries, bad := scanAll(t, l)
	if len(bad) != 0 {
		t.Fatalf("Scan reported %v", bad)
	}
	wantOrder := []string{"m0", "m1", "other", "m2", "m3", "m4"}
	if len(entries) != len(wantOrder) {
		t.Fatalf("Scan returned %d entries, want %d", len(entries), len(wantOrder))
	}
	for i, e := range entries {
		if e.Seq != uint64(i+1) || e.UUID != wantOrder[i] {
			t.Fatalf("entry %d = seq %d %s, want seq %d %s", i, e.Seq, e.UUID, i+1, wantOrder[i])
		}
		if i > 0 && e.PrevHash != entries[i-1].Hash {
			t.Fatalf("entry %d prev_hash does not link to entry %d", e.Seq, entries[i-1].Seq)
		}
	}
	if err := l.VerifyChain(context.Background()); err != nil {
		t.Fatalf("VerifyChain: %v", err)
	}
	if seq, h, err := l.Head(); err != nil || seq != 6 || h != entries[5].Hash {
		t.Fatalf("Head = %d %s %v; want 6 %s", seq, h, err, entries[5].Hash)
	}
}

func TestOpenFailsOnLockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	l, err := local.Open(path, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// bbolt's flock is per open file, so a second Open in this process
	// contends exactly as another process would.
	if _, err := local.Open(path, local.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, local.ErrLocked) {
		t.Fatalf("second Open: got %v, want ErrLocked", err)
	}
	if _, err := local.OpenReadOnly(path, local.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, local.ErrLocked) {
		t.Fatalf("OpenReadOnly while open for writing: got %v, want ErrLocked", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	r1, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	defer r2.Close()
	if _, err := local.Open(path, local.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, local.ErrLocked) {
		t.Fatalf("Open while read: got %v, want ErrLocked", err)
	}
	if _, err := local.NewPublisher(r1); !errors.Is(err, local.ErrReadOnly) {
		t.Fatalf("NewPublisher on a read-only log: got %v, want ErrReadOnly", err)
	}
	if _, err := local.NewSubscriber(r1, local.SubscriberConfig{ConsumerGroup: "g"}); !errors.Is(err, local.ErrReadOnly) {
		t.Fatalf("group subscriber on a read-only log: got %v, want ErrReadOnly", err)
	}
}

func TestOpenCorruptFile(t *testing.T) {
	dir := t.TempDir()

	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a bbolt file "), 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func(string, local.Options) (*local.Log, error){"Open": local.Open, "OpenReadOnly": local.OpenReadOnly} {
		if _, err := open(garbage, local.Options{}); !errors.Is(err, local.ErrCorruptFile) {
			t.Errorf("%s(garbage) = %v, want ErrCorruptFile", name, err)
		}
	}

	// Valid meta pages, garbage everywhere else: bbolt trusts page headers
	// and panics or faults; that must come back as an error.
	damaged := filepath.Join(dir, "damaged.db")
	l := openLog(t, damaged)
	pub := newPublisher(t, l)
	for i := range 50 {
		if err := pub.Publish(fmt.Sprintf("t%d", i%3), testMessage(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(damaged)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	for i := 2 * pageSize; i < len(raw); i++ {
		raw[i] = byte(i*7 + 3)
	}
	if err := os.WriteFile(damaged, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func(string, local.Options) (*local.Log, error){"Open": local.Open, "OpenReadOnly": local.OpenReadOnly} {
		d, err := open(damaged, local.Options{LockTimeout: time.Second})
		t.Logf("%s(damaged): %v", name, err)
		if errors.Is(err, local.ErrLocked) {
			t.Fatalf("%s(damaged): the failed open left the file locked: %v", name, err)
		}
		if err != nil {
			continue
		}
		verr := d.VerifyChain(context.Background())
		_ = d.Close()
		if verr == nil {
			t.Errorf("%s(damaged) and VerifyChain both succeeded on a damaged file", name)
		}
	}
}

func TestTamperNamesTheEntry(t *testing.T) {
	const n = 12
	base := filepath.Join(t.TempDir(), "base.db")
	l := openLog(t, base)
	pub := newPublisher(t, l)
	for i := range n {
		if err := pub.Publish([]string{"x", "y"}[i%2], testMessage(fmt.Sprintf("m%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	pristine, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}

	// Byte positions in a stored value, by what they hit.
	positions := []struct {
		name string
		at   func(size int) int
	}{
		{"version", func(int) int { return 0 }},
		{"seq", func(int) int { return 8 }},
		{"prev_hash", func(int) int { return 20 }},
		{"topic length", func(int) int { return 44 }},
		{"uuid", func(int) int { return 50 }},
		{"payload", func(size int) int { return size - 32 - 2 }},
		{"stored hash", func(size int) int { return size - 1 }},
	}
	type tamper struct {
		name string
		seq  uint64
		edit func(b *bbolt.Bucket, key []byte) error
	}
	var cases []tamper
	for _, seq := range []uint64{1, 7, n} {
		for _, p := range positions {
			cases = append(cases, tamper{
				name: fmt.Sprintf("flip %s of seq %d", p.name, seq),
				seq:  seq,
				edit: func(b *bbolt.Bucket, key []byte) error {
					v := bytes.Clone(b.Get(key))
					v[p.at(len(v))] ^= 0x01
					return b.Put(key, v)
				},
			})
		}
	}
	cases = append(cases,
		tamper{name: "delete seq 7", seq: 7, edit: func(b *bbolt.Bucket, key []byte) error { return b.Delete(key) }},
		tamper{name: "delete the last entry", seq: n, edit: func(b *bbolt.Bucket, key []byte) error { return b.Delete(key) }},
	)

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tampered.db")
			if err := os.WriteFile(path, pristine, 0o600); err != nil {
				t.Fatal(err)
			}
			db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bbolt.Tx) error {
				return tc.edit(tx.Bucket([]byte("entries")), seqBytes(tc.seq))
			})
			if cerr := db.Close(); err != nil || cerr != nil {
				t.Fatal(err, cerr)
			}

			l, err := local.OpenReadOnly(path, local.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()

			var ce *local.CorruptEntryError
			if err := l.VerifyChain(context.Background()); !errors.As(err, &ce) || ce.Seq != tc.seq {
				t.Fatalf("VerifyChain = %v, want a CorruptEntryError at seq %d", err, tc.seq)
			}
			entries, bad := scanAll(t, l)
			if len(bad) != 1 || bad[0].Seq != tc.seq {
				t.Fatalf("Scan reported %v, want exactly one error, at seq %d", bad, tc.seq)
			}
			if len(entries) != n-1 {
				t.Fatalf("Scan passed %d good entries, want %d", len(entries), n-1)
			}
		})
	}
}

func seqBytes(seq uint64) []byte {
	var b [8]byte
	for i := range b {
		b[7-i] = byte(seq >> (8 * i))
	}
	return b[:]
}

func TestScanFromSeq(t *testing.T) {
	l := openLog(t, filepath.Join(t.TempDir(), "ledger.db"))
	pub := newPublisher(t, l)
	for i := range 10 {
		if err := pub.Publish("t", testMessage(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	var seqs []uint64
	err := l.Scan(context.Background(), 4, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		seqs = append(seqs, e.Seq)
		if e.Seq == 8 {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("Scan returned %v, want the callback's error", err)
	}
	if fmt.Sprint(seqs) != "[4 5 6 7 8]" {
		t.Fatalf("Scan from 4 visited %v", seqs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Scan(ctx, 0, func(local.Entry, error) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("Scan with a canceled context = %v", err)
	}
}

var errStop = errors.New("stop")

func TestConsumerGroupsShareACursor(t *testing.T) {
	l := openLog(t, filepath.Join(fastDir(t), "ledger.db"))
	pub := newPublisher(t, l)
	const n = 40
	for i := range n {
		if err := pub.Publish("t", testMessage(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	// Two subscriptions of group g, from two Subscribers, and one of h.
	merged := make(chan *message.Message)
	gs := []*local.Subscriber{newSubscriber(t, l, "g"), newSubscriber(t, l, "g")}
	for _, s := range gs {
		ch, err := s.Subscribe(context.Background(), "t")
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for m := range ch {
				merged <- m
			}
		}()
	}
	seen := map[string]int{}
	var last uint64
	for range n {
		m := receive(t, merged)
		seen[m.UUID]++
		if seq := seqOf(t, m); seq <= last {
			t.Fatalf("group g got seq %d after %d", seq, last)
		} else {
			last = seq
		}
		m.Ack()
	}
	if len(seen) != n {
		t.Fatalf("group g got %d distinct messages of %d: %v", len(seen), n, seen)
	}
	// Close waits for the subscriptions, which commit an ack before they
	// end, so the offset is final after it.
	for _, s := range gs {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	hch, err := newSubscriber(t, l, "h").Subscribe(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		m := receive(t, hch)
		if m.UUID != fmt.Sprint(i) {
			t.Fatalf("group h message %d is %s", i, m.UUID)
		}
		m.Ack()
	}
	if off, err := l.Offset("g", "t"); err != nil || off != n {
		t.Fatalf("Offset(g) = %d, %v; want %d", off, err, n)
	}
}

func TestNackRedeliversTheSameMessage(t *testing.T) {
	l := openLog(t, filepath.Join(fastDir(t), "ledger.db"))
	if err := newPublisher(t, l).Publish("t", testMessage("a"), testMessage("b")); err != nil {
		t.Fatal(err)
	}
	ch, err := newSubscriber(t, l, "g").Subscribe(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	first := receive(t, ch)
	first.Nack()
	again := receive(t, ch)
	if again.UUID != "a" || seqOf(t, again) != seqOf(t, first) {
		t.Fatalf("after Nack got %s (seq %d), want a (seq %d)", again.UUID, seqOf(t, again), seqOf(t, first))
	}
	select {
	case <-first.Context().Done():
	default:
		t.Fatal("a nacked message's context is not canceled")
	}
	again.Ack()
	if m := receive(t, ch); m.UUID != "b" {
		t.Fatalf("after Ack got %s, want b", m.UUID)
	}
}

func TestAckWithCommitsOutputsAndOffsetTogether(t *testing.T) {
	l := openLog(t, filepath.Join(fastDir(t), "ledger.db"))
	pub := newPublisher(t, l)
	for _, id := range []string{"a", "b", "c"} {
		if err := pub.Publish("in", testMessage(id)); err != nil {
			t.Fatal(err)
		}
	}
	sub := newSubscriber(t, l, "copier")
	ch, err := sub.Subscribe(context.Background(), "in")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		m := receive(t, ch)
		out := message.NewMessage("out-"+m.UUID, m.Payload)
		if err := sub.AckWith(m, local.Output{Topic: "out", Messages: []*message.Message{out}}); err != nil {
			t.Fatalf("AckWith(%s): %v", m.UUID, err)
		}
		select {
		case <-m.Acked():
		default:
			t.Fatal("AckWith did not ack the message")
		}
		if err := sub.AckWith(m); !errors.Is(err, local.ErrNotInFlight) {
			t.Fatalf("second AckWith(%s) = %v, want ErrNotInFlight", m.UUID, err)
		}
		seq := seqOf(t, m)
		if off, err := l.Offset("copier", "in"); err != nil || off != seq {
			t.Fatalf("offset after AckWith = %d, %v; want %d", off, err, seq)
		}
	}
	entries, _ := scanAll(t, l)
	var outs []string
	for _, e := range entries {
		if e.Topic == "out" {
			outs = append(outs, e.UUID)
		}
	}
	if strings.Join(outs, ",") != "out-a,out-b,out-c" {
		t.Fatalf("out topic holds %v", outs)
	}

	// Invalid outputs are refused before anything is written.
	if err := pub.Publish("in", testMessage("d")); err != nil {
		t.Fatal(err)
	}
	m := receive(t, ch)
	if err := sub.AckWith(m, local.Output{Topic: "", Messages: []*message.Message{testMessage("x")}}); !errors.Is(err, local.ErrInvalidArgument) {
		t.Fatalf("AckWith to an empty topic = %v, want ErrInvalidArgument", err)
	}
	if err := sub.AckWith(m); err != nil {
		t.Fatalf("AckWith without outputs after a refused one: %v", err)
	}

	eph := newSubscriber(t, l, "")
	ech, err := eph.Subscribe(context.Background(), "in")
	if err != nil {
		t.Fatal(err)
	}
	if err := eph.AckWith(receive(t, ech)); !errors.Is(err, local.ErrNoConsumerGroup) {
		t.Fatalf("AckWith without a group = %v, want ErrNoConsumerGroup", err)
	}
}

func TestCloseEndsSubscriptions(t *testing.T) {
	l, err := local.Open(filepath.Join(fastDir(t), "ledger.db"), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pub := newPublisher(t, l)
	sub := newSubscriber(t, l, "g")
	idle, err := sub.Subscribe(context.Background(), "idle")
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish("busy", testMessage("a")); err != nil {
		t.Fatal(err)
	}
	busy, err := sub.Subscribe(context.Background(), "busy")
	if err != nil {
		t.Fatal(err)
	}
	unacked := receive(t, busy)

	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// Close returned, so every subscription goroutine has ended and closed
	// its channel.
	for name, ch := range map[string]<-chan *message.Message{"idle": idle, "busy": busy} {
		select {
		case _, open := <-ch:
			if open {
				t.Fatalf("%s subscription delivered after Close", name)
			}
		default:
			t.Fatalf("%s subscription channel still open after Close", name)
		}
	}
	select {
	case <-unacked.Context().Done():
	default:
		t.Fatal("an unacked message's context is not canceled by Close")
	}
	if err := pub.Publish("busy", testMessage("b")); !errors.Is(err, local.ErrClosed) {
		t.Fatalf("Publish after Log.Close = %v, want ErrClosed", err)
	}
	if _, err := sub.Subscribe(context.Background(), "busy"); !errors.Is(err, local.ErrClosed) {
		t.Fatalf("Subscribe after Log.Close = %v, want ErrClosed", err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestValidation(t *testing.T) {
	dir := t.TempDir()
	if _, err := local.Open("", local.Options{}); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("Open(\"\") = %v", err)
	}
	if _, err := local.Open(filepath.Join(dir, "a.db"), local.Options{LockTimeout: -1}); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("negative LockTimeout: %v", err)
	}
	if _, err := local.Open(filepath.Join(dir, "a.db"), local.Options{MaxEntryBytes: 10}); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("tiny MaxEntryBytes: %v", err)
	}
	if _, err := local.OpenReadOnly(filepath.Join(dir, "missing.db"), local.Options{}); err == nil {
		t.Error("OpenReadOnly of a missing file succeeded")
	}
	if _, err := local.NewPublisher(nil); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("NewPublisher(nil) = %v", err)
	}
	if _, err := local.NewSubscriber(nil, local.SubscriberConfig{}); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("NewSubscriber(nil) = %v", err)
	}

	l, err := local.Open(filepath.Join(dir, "b.db"), local.Options{MaxEntryBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := local.NewSubscriber(l, local.SubscriberConfig{ConsumerGroup: strings.Repeat("g", local.MaxGroupBytes+1)}); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("long group: %v", err)
	}
	pub := newPublisher(t, l)
	for name, tc := range map[string]struct {
		topic string
		msgs  []*message.Message
		want  error
	}{
		"empty topic": {"", []*message.Message{testMessage("a")}, local.ErrInvalidArgument},
		"long topic":  {strings.Repeat("t", local.MaxTopicBytes+1), []*message.Message{testMessage("a")}, local.ErrInvalidArgument},
		"nil message": {"t", []*message.Message{testMessage("a"), nil}, local.ErrInvalidArgument},
		"large entry": {"t", []*message.Message{testMessage("a"), message.NewMessage("big", make([]byte, 2048))}, local.ErrEntryTooLarge},
		"no messages": {"t", nil, nil},
		"one message": {"t", []*message.Message{testMessage("ok")}, nil},
	} {
		if err := pub.Publish(tc.topic, tc.msgs...); !errors.Is(err, tc.want) {
			t.Errorf("%s: Publish = %v, want %v", name, err, tc.want)
		}
	}
	// A rejected Publish wrote nothing, not even its valid messages.
	if seq, _, err := l.Head(); err != nil || seq != 1 {
		t.Errorf("Head after the rejected publishes = %d, %v; want 1", seq, err)
	}
	sub := newSubscriber(t, l, "")
	if _, err := sub.Subscribe(context.Background(), ""); !errors.Is(err, local.ErrInvalidArgument) {
		t.Errorf("Subscribe(\"\") = %v", err)
	}
	if err := pub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish("t", testMessage("late")); !errors.Is(err, local.ErrPublisherClosed) {
		t.Errorf("Publish after Close = %v", err)
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.Subscribe(context.Background(), "t"); !errors.Is(err, local.ErrSubscriberClosed) {
		t.Errorf("Subscribe after Close = %v", err)
	}
}
