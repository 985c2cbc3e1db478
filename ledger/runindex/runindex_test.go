package runindex_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	kafkago "github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/runindex"
)

const topic = "records"

// broker starts a kfake broker with topic in parts partitions.
func broker(t testing.TB, parts int) []string {
	t.Helper()
	kc, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	brokers := kc.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := kafka.CreateTopic(ctx, brokers, topic, parts); err != nil {
		t.Fatal(err)
	}
	return brokers
}

// stamped is a message of a run written at a given time.
type stamped struct {
	run  string
	uuid string
	at   time.Time
}

// write writes msgs as the Publisher does (keyed by run id, hash balancer,
// the run id in a header) but with the given timestamps, in one batch per
// call, in order.
func write(t testing.TB, brokers []string, msgs []stamped) {
	t.Helper()
	// A transport of its own: the default one keeps a topic's partition
	// count for seconds, and a test grows it.
	transport := &kafkago.Transport{}
	defer transport.CloseIdleConnections()
	w := &kafkago.Writer{Addr: kafkago.TCP(brokers...), Topic: topic, Balancer: &kafkago.Hash{}, RequiredAcks: kafkago.RequireAll,
		BatchTimeout: time.Millisecond, BatchSize: 1000, Transport: transport}
	defer w.Close()
	var kms []kafkago.Message
	for _, m := range msgs {
		kms = append(kms, kafkago.Message{Key: []byte(m.run), Value: []byte(m.uuid), Time: m.at, Headers: []kafkago.Header{
			{Key: kafka.UUIDHeaderKey, Value: []byte(m.uuid)}, {Key: kafka.RunIDMetadataKey, Value: []byte(m.run)}}})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for len(kms) > 0 {
		n := min(len(kms), 1000)
		if err := w.WriteMessages(ctx, kms[:n]...); err != nil {
			t.Fatal(err)
		}
		kms = kms[n:]
	}
}

func uuids(t *testing.T, read runindex.ReadFunc) []string {
	t.Helper()
	var out []string
	err := read(context.Background(), func(m *message.Message) error {
		out = append(out, m.UUID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestIDs(t *testing.T) {
	now := time.Date(2026, 12, 2, 1, 50, 7, 0, time.UTC)
	for _, id := range []string{runindex.NewID(now), runindex.KeyedID(runindex.NewKey(now))} {
		got, ok := runindex.StartOf(id)
		if !ok || !got.Equal(now) {
			t.Errorf("StartOf(%q) = %v, %v; want %v", id, got, ok, now)
		}
	}
	k := runindex.NewKey(now)
	first, again := runindex.KeyedID(k), runindex.KeyedID(strings.Clone(k))
	if first != again || first == runindex.KeyedID(k+"x") {
		t.Error("KeyedID is not a function of the key alone")
	}
	id1, id2 := runindex.NewID(now), runindex.NewID(now)
	if runindex.NewKey(now) == k || id1 == id2 {
		t.Error("fresh keys and ids repeat")
	}
	// Keys without a time, and look-alikes, give ids without one.
	for _, key := range []string{"retry-42", "", "20261302T000000Z-x", "20261202T015007Z", "20261202T015007Zx"} {
		id := runindex.KeyedID(key)
		if _, ok := runindex.StartOf(id); ok || !strings.HasPrefix(id, "run-key-") {
			t.Errorf("KeyedID(%q) = %q: a time where the key has none", key, id)
		}
	}
	// A keyed id never equals a minted one, whatever the key.
	if id := runindex.KeyedID(now.Format(runindex.TimeLayout) + "-0"); strings.Count(id, "-") != 2 || !strings.Contains(id, "-k") {
		t.Errorf("keyed id %q does not look keyed", id)
	}
	for _, id := range []string{"", "run-", "run-a", "run-20261202T015007Z", "run-20261202T015007Zabc", "xrun-20261202T015007Z-a"} {
		if _, ok := runindex.StartOf(id); ok {
			t.Errorf("StartOf(%q): a time in an id without one", id)
		}
	}
}

// A run is read from its partition, from its start: the runs before it,
// and the other partitions, are not read; the runs after it on its
// partition are read and filtered out.
func TestRunReadsFromTheRunsStart(t *testing.T) {
	brokers := broker(t, 4)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	start := t0.Add(24 * time.Hour)
	target := runindex.NewID(start)
	var before, after []stamped
	for i := range 200 {
		before = append(before, stamped{run: fmt.Sprintf("old-%d", i), uuid: fmt.Sprintf("old-%d", i), at: t0.Add(time.Duration(i) * time.Second)})
		after = append(after, stamped{run: fmt.Sprintf("new-%d", i), uuid: fmt.Sprintf("new-%d", i), at: start.Add(time.Duration(i) * time.Second)})
	}
	write(t, brokers, before)
	var mine []stamped
	for i := range 5 {
		mine = append(mine, stamped{run: target, uuid: fmt.Sprintf("%s/%d", target, i), at: start.Add(time.Duration(i) * time.Millisecond)})
	}
	// The run's messages interleave with the later runs'.
	write(t, brokers, append(append(append([]stamped{}, mine[:2]...), after...), mine[2:]...))

	loc := &runindex.Locator{Brokers: brokers}
	got := uuids(t, loc.Run(topic, target))
	if want := []string{mine[0].uuid, mine[1].uuid, mine[2].uuid, mine[3].uuid, mine[4].uuid}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Run = %v, want %v", got, want)
	}
	// What it read: the run's partition from the run's start only.
	var read []string
	kr, err := kafka.ReadKeySince(context.Background(), brokers, topic, []byte(target), loc.Since(target), func(_ int64, m *message.Message) error {
		read = append(read, m.UUID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range read {
		if strings.HasPrefix(u, "old-") {
			t.Fatalf("the located read read %s, a run that ended before the run began", u)
		}
	}
	if kr.Partitions != 4 || kr.From == 0 || len(read) > len(after)/2+len(mine) {
		t.Fatalf("the located read %+v read %d messages: not the run's partition from its start", kr, len(read))
	}
	// Scan (the fallback) reads everything.
	if n := len(uuids(t, loc.Scan(topic))); n != 405 {
		t.Fatalf("Scan read %d messages, want 405", n)
	}
}

// A run whose messages are stamped earlier than its id says by more than
// the skew (a gateway's clock ahead of the broker's) is read short: what
// the locator returns is not the run whole, which the caller must see (a
// chain that does not start) and fall back from. Within the skew it reads
// whole.
func TestRunSkew(t *testing.T) {
	brokers := broker(t, 2)
	idTime := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	target := runindex.NewID(idTime)
	var msgs []stamped
	for i := range 20 {
		msgs = append(msgs, stamped{run: fmt.Sprintf("o-%d", i), uuid: fmt.Sprintf("o-%d", i), at: idTime.Add(-time.Hour)})
	}
	// Two messages stamped 5 minutes before the id's time (within the
	// default skew), then one an hour before (beyond a 30-minute skew).
	msgs = append(msgs, stamped{run: target, uuid: "a", at: idTime.Add(-5 * time.Minute)}, stamped{run: target, uuid: "b", at: idTime.Add(-5 * time.Minute)})
	write(t, brokers, msgs)
	if got := uuids(t, (&runindex.Locator{Brokers: brokers}).Run(topic, target)); strings.Join(got, " ") != "a b" {
		t.Fatalf("within the skew: %v, want [a b]", got)
	}
	if got := uuids(t, (&runindex.Locator{Brokers: brokers, Skew: time.Minute}).Run(topic, target)); len(got) != 0 {
		t.Fatalf("beyond the skew: %v, want nothing (the caller sees the run is not whole)", got)
	}
}

// An id without a time is read from its partition's start; a topic that
// does not exist has nothing.
func TestRunWithoutTime(t *testing.T) {
	brokers := broker(t, 3)
	id := runindex.KeyedID("retry-7")
	write(t, brokers, []stamped{{run: id, uuid: "x", at: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}, {run: "other", uuid: "y", at: time.Now()}})
	loc := &runindex.Locator{Brokers: brokers}
	if got := uuids(t, loc.Run(topic, id)); strings.Join(got, " ") != "x" {
		t.Fatalf("Run = %v, want [x]", got)
	}
	if got := uuids(t, loc.Run("no-such-topic", id)); len(got) != 0 {
		t.Fatalf("a missing topic gave %v", got)
	}
	if err := loc.Run(topic, "")(context.Background(), func(*message.Message) error { return nil }); err == nil {
		t.Fatal("an empty run id was read")
	}
}

// Idempotency keys and run ids come from clients: any key gives a
// well-formed id, the same each time, whose time (if any) is the key's own
// prefix; StartOf of any string never panics and reads only NewID's form.
func FuzzKeyedID(f *testing.F) {
	for _, s := range []string{"", "k", "20261202T015007Z-abc", "20261202T015007Z", "99999999T999999Z-x", "run-20261202T015007Z-0", "run-key-00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		id := runindex.KeyedID(key)
		if id != runindex.KeyedID(key) || len(id) > 64 || !strings.HasPrefix(id, "run-") {
			t.Fatalf("KeyedID(%q) = %q", key, id)
		}
		if at, ok := runindex.StartOf(id); ok {
			if !strings.HasPrefix(key, at.Format(runindex.TimeLayout)+"-") {
				t.Fatalf("KeyedID(%q) = %q names time %v, not the key's", key, id, at)
			}
		}
		if at, ok := runindex.StartOf(key); ok && !strings.HasPrefix(key, "run-"+at.Format(runindex.TimeLayout)+"-") {
			t.Fatalf("StartOf(%q) = %v", key, at)
		}
	})
}

// offsetsOf is where run's messages lie in its partition of topic.
func offsetsOf(t *testing.T, brokers []string, run string) (kafka.KeyRange, []int64) {
	t.Helper()
	var offs []int64
	kr, err := kafka.ReadKeySince(context.Background(), brokers, topic, []byte(run), time.Time{}, func(off int64, m *message.Message) error {
		if m.Metadata.Get(kafka.RunIDMetadataKey) == run {
			offs = append(offs, off)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return kr, offs
}

// A locator with Starts reads a run again from the run's first message —
// not from its time less the skew — and a run it found nothing of from the
// end of that read; what it hands over is what a locator without Starts
// hands over, as the run grows, as the topic gains partitions, and when
// the topic is made again.
func TestRunRemembersWhereTheRunBegins(t *testing.T) {
	brokers := broker(t, 2)
	now := time.Now().UTC().Truncate(time.Second)
	// A run whose key a topic of 8 partitions puts elsewhere than one of 2.
	target, absent := runindex.NewID(now), runindex.NewID(now)
	for (&kafkago.Hash{}).Balance(kafkago.Message{Key: []byte(target)}, 0, 1) == (&kafkago.Hash{}).Balance(kafkago.Message{Key: []byte(target)}, 0, 1, 2, 3, 4, 5, 6, 7) {
		target = runindex.NewID(now)
	}
	var msgs []stamped
	for i := range 100 {
		msgs = append(msgs, stamped{run: fmt.Sprintf("other-%d", i), uuid: fmt.Sprintf("other-%d", i), at: now.Add(-time.Minute)})
	}
	msgs = append(msgs, stamped{run: target, uuid: "t0", at: now}, stamped{run: "after", uuid: "after", at: now}, stamped{run: target, uuid: "t1", at: now})
	write(t, brokers, msgs)

	starts := runindex.NewStarts(0)
	loc := &runindex.Locator{Brokers: brokers, Starts: starts}
	plain := &runindex.Locator{Brokers: brokers}
	same := func(what, run string) []string {
		t.Helper()
		got, want := uuids(t, loc.Run(topic, run)), uuids(t, plain.Run(topic, run))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s: read %v, a locator without starts %v", what, got, want)
		}
		return got
	}
	if got := same("first read", target); strings.Join(got, " ") != "t0 t1" {
		t.Fatalf("first read: %v", got)
	}
	_, offs := offsetsOf(t, brokers, target)
	if from, ok := starts.From(topic, target); !ok || from != offs[0] {
		t.Fatalf("remembered %d (%v), want the run's first offset %d", from, ok, offs[0])
	}
	same("second read", target)

	// Nothing of a run: remembered at the partition's end, and what is
	// written after is found.
	if got := same("absent", absent); len(got) != 0 {
		t.Fatalf("a run never written: %v", got)
	}
	kr, _ := offsetsOf(t, brokers, absent)
	if from, ok := starts.From(topic, absent); !ok || from != kr.End {
		t.Fatalf("a run found nowhere: remembered %d (%v), want the end %d", from, ok, kr.End)
	}
	write(t, brokers, []stamped{{run: absent, uuid: "a0", at: now}, {run: target, uuid: "t2", at: now}})
	if got := same("absent, then written", absent); strings.Join(got, " ") != "a0" {
		t.Fatalf("absent, then written: %v", got)
	}
	if got := same("grown", target); strings.Join(got, " ") != "t0 t1 t2" {
		t.Fatalf("the run grown: %v", got)
	}
	if from, _ := starts.From(topic, target); from != offs[0] {
		t.Fatalf("the run grown: remembered %d, want still %d", from, offs[0])
	}

	// The topic made again, shorter — as a second cluster with the same
	// topic is to these starts: the remembered offset lies past its end,
	// and the run is read by time. The locator is handed back the first
	// cluster's starts after, as though that was the topic made again.
	kept := runindex.NewStarts(0)
	(&runindex.Locator{Brokers: brokers, Starts: kept}).Run(topic, target)(context.Background(), func(*message.Message) error { return nil })
	again := broker(t, 2)
	write(t, again, []stamped{{run: target, uuid: "new", at: now}})
	loc, plain = &runindex.Locator{Brokers: again, Starts: kept}, &runindex.Locator{Brokers: again}
	if got := same("made again", target); strings.Join(got, " ") != "new" {
		t.Fatalf("the topic made again: %v", got)
	}
	if _, offs := offsetsOf(t, again, target); len(offs) != 1 {
		t.Fatalf("the topic made again holds the run at %v", offs)
	} else if from, _ := kept.From(topic, target); from != offs[0] {
		t.Fatalf("the topic made again: remembered %d, want the new topic's %d", from, offs[0])
	}
	loc, plain = &runindex.Locator{Brokers: brokers, Starts: starts}, &runindex.Locator{Brokers: brokers}

	// More partitions re-home the key: the remembered offset is of another
	// layout, and the run's new partition holds it below that offset.
	growPartitions(t, brokers, 8)
	more := []stamped{{run: target, uuid: "t3", at: now}}
	for i := range 800 {
		more = append(more, stamped{run: fmt.Sprintf("later-%d", i), uuid: fmt.Sprintf("later-%d", i), at: now})
	}
	write(t, brokers, more)
	if got := same("more partitions", target); strings.Join(got, " ") != "t3" {
		t.Fatalf("more partitions: %v (the key's new partition holds t3 only)", got)
	}
	if _, offs := offsetsOf(t, brokers, target); len(offs) != 1 {
		t.Fatalf("the key's new partition holds the run at %v", offs)
	} else if from, _ := starts.From(topic, target); from != offs[0] {
		t.Fatalf("more partitions: remembered %d, want %d", from, offs[0])
	}
}

// Starts keeps the last n runs.
func TestStartsForgetsTheOldest(t *testing.T) {
	brokers := broker(t, 1)
	starts := runindex.NewStarts(3)
	loc := &runindex.Locator{Brokers: brokers, Starts: starts}
	var runs []string
	for i := range 5 {
		run := runindex.NewID(time.Now())
		runs = append(runs, run)
		write(t, brokers, []stamped{{run: run, uuid: fmt.Sprint(i), at: time.Now()}})
		if got := uuids(t, loc.Run(topic, run)); strings.Join(got, " ") != fmt.Sprint(i) {
			t.Fatalf("run %d: %v", i, got)
		}
	}
	if starts.Len() != 3 {
		t.Fatalf("holds %d, want 3", starts.Len())
	}
	for i, run := range runs {
		if _, ok := starts.From(topic, run); ok != (i >= 2) {
			t.Errorf("run %d held: %v", i, ok)
		}
	}
	var none *runindex.Starts
	if none.Len() != 0 {
		t.Error("a nil Starts holds something")
	}
}

func growPartitions(t *testing.T, brokers []string, n int) {
	t.Helper()
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...)}
	resp, err := client.CreatePartitions(context.Background(), &kafkago.CreatePartitionsRequest{
		Topics: []kafkago.TopicPartitionsConfig{{Name: topic, Count: int32(n)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Errors[topic]; err != nil {
		t.Fatal(err)
	}
}
