package local_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/local"
)

const (
	crashChildEnv  = "SEALGATE_LEDGER_LOCAL_CRASH_CHILD" // path of the log; set only in the child
	crashRoundEnv  = "SEALGATE_LEDGER_LOCAL_CRASH_ROUND"
	crashRounds    = 20
	crashChildLife = 30 * time.Second // the child's own bound, should the parent vanish
	crashBacklog   = 64
	crashMaxBatch  = 32
	ackPrefix      = "ack "
)

// TestCrashRecovery kills a writer with SIGKILL at random moments, 20 times,
// and checks that the log kept exactly what it acknowledged.
//
// The child (this test binary, re-executed) publishes ids to "in", singly
// and in batches from two goroutines, printing each id only after Publish
// returned; a consumer group copies "in" to "out" with AckWith. After the
// last kill the parent finishes the copy and requires: every printed id in
// "in" exactly once, no id twice in "in" or "out", "out" a copy of "in", and
// a chain that verifies.
func TestCrashRecovery(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path, os.Getenv(crashRoundEnv))
		return
	}
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("re-executing the test binary is not supported under Bazel")
	}

	path := filepath.Join(t.TempDir(), "ledger.db") // a real disk, not tmpfs
	seed := uint64(time.Now().UnixNano())
	t.Logf("kill timing seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	acked := map[string]bool{}
	for round := range crashRounds {
		ids, err := runAndKill(path, round, rng)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, id := range ids {
			acked[id] = true
		}
	}
	if len(acked) == 0 {
		t.Fatal("the children acknowledged nothing: the test exercised nothing")
	}

	l := openLog(t, path)
	if err := l.VerifyChain(context.Background()); err != nil {
		t.Fatalf("VerifyChain after %d kills: %v", crashRounds, err)
	}
	finishCopy(t, l)

	entries, bad := scanAll(t, l)
	if len(bad) != 0 {
		t.Fatalf("Scan reported %v", bad)
	}
	in, out := map[string]int{}, map[string]int{}
	for _, e := range entries {
		switch e.Topic {
		case "in":
			in[e.UUID]++
		case "out":
			out[e.UUID]++
		default:
			t.Fatalf("entry %d on unexpected topic %q", e.Seq, e.Topic)
		}
	}
	for id := range acked {
		if in[id] != 1 {
			t.Errorf("acknowledged id %s is in the log %d times", id, in[id])
		}
	}
	for id, n := range in {
		if n != 1 {
			t.Errorf("id %s appended %d times", id, n)
		}
		if out["copy-"+id] != 1 {
			t.Errorf("id %s copied %d times", id, out["copy-"+id])
		}
	}
	if len(out) != len(in) {
		t.Errorf("%d copies for %d inputs", len(out), len(in))
	}
	t.Logf("%d acknowledged ids, %d in the log (the rest were unacknowledged when killed)", len(acked), len(in))
}

// runAndKill runs one child and SIGKILLs it: in even rounds at a random
// moment from its start (maybe while it opens or recovers the file), in odd
// rounds at a random moment after its first acknowledgement. It returns the
// ids the child acknowledged.
func runAndKill(path string, round int, rng *rand.Rand) ([]string, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashRecovery$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path, fmt.Sprintf("%s=%d", crashRoundEnv, round))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}

	var (
		mu       sync.Mutex
		ids      []string
		first    = make(chan struct{})
		readDone = make(chan struct{})
	)
	go func() {
		defer close(readDone)
		r := bufio.NewReader(stdout)
		var once sync.Once
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				// A line cut by the kill has no newline: it was not
				// completely printed, so it does not count.
				once.Do(func() { close(first) })
				return
			}
			if id, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), ackPrefix); ok {
				mu.Lock()
				ids = append(ids, id)
				mu.Unlock()
				once.Do(func() { close(first) })
			}
		}
	}()

	if round%2 == 1 {
		<-first
	}
	time.Sleep(time.Duration(rng.Int64N(int64(150 * time.Millisecond))))
	killErr := cmd.Process.Signal(syscall.SIGKILL)
	<-readDone
	waitErr := cmd.Wait()

	var exit *exec.ExitError
	if !errors.As(waitErr, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		return nil, fmt.Errorf("child was not killed (kill: %v, wait: %v); stderr:\n%s", killErr, waitErr, stderr.Bytes())
	}
	mu.Lock()
	defer mu.Unlock()
	return ids, nil
}

// crashChild is the process the parent kills. It never returns normally.
func crashChild(path, round string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
	l, err := local.Open(path, local.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		fail(err)
	}
	pub, err := local.NewPublisher(l)
	if err != nil {
		fail(err)
	}
	sub, err := local.NewSubscriber(l, local.SubscriberConfig{ConsumerGroup: "copier"})
	if err != nil {
		fail(err)
	}
	ch, err := sub.Subscribe(context.Background(), "in")
	if err != nil {
		fail(err)
	}
	// Publishers may run at most crashBacklog messages ahead of the copier,
	// which commits one message at a time, as a real pipeline would be held
	// back; an unbounded backlog would only make the parent's final copy
	// long.
	credits := make(chan struct{}, crashBacklog)
	var creditMu sync.Mutex
	go copyLoop(sub, ch, credits, fail)

	var stdoutMu sync.Mutex
	for w := range 2 {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
			for i := 0; ; i++ {
				n := 1
				if rng.IntN(2) == 0 {
					n = 2 + rng.IntN(crashMaxBatch-1)
				}
				creditMu.Lock() // all n at once, or two publishers could starve each other
				for range n {
					credits <- struct{}{}
				}
				creditMu.Unlock()
				msgs := make([]*message.Message, n)
				var lines strings.Builder
				for j := range msgs {
					id := fmt.Sprintf("r%s-w%d-%d-%d", round, w, i, j)
					msgs[j] = message.NewMessage(id, []byte("payload "+id))
					lines.WriteString(ackPrefix + id + "\n")
				}
				if err := pub.Publish("in", msgs...); err != nil {
					fail(err)
				}
				stdoutMu.Lock()
				_, err := io.WriteString(os.Stdout, lines.String())
				stdoutMu.Unlock()
				if err != nil {
					fail(err)
				}
			}
		}()
	}
	time.Sleep(crashChildLife)
	fail(errors.New("not killed in time"))
}

// copyLoop copies each "in" message to "out" atomically with its ack.
func copyLoop(sub *local.Subscriber, ch <-chan *message.Message, credits <-chan struct{}, fail func(error)) {
	for m := range ch {
		out := message.NewMessage("copy-"+m.UUID, m.Payload)
		if err := sub.AckWith(m, local.Output{Topic: "out", Messages: []*message.Message{out}}); err != nil {
			fail(err)
		}
		select {
		case <-credits:
		default: // a message of an earlier round: it held no credit
		}
	}
}

// finishCopy runs the copier until it has consumed the last "in" entry.
func finishCopy(t *testing.T, l *local.Log) {
	t.Helper()
	var last uint64
	entries, _ := scanAll(t, l)
	for _, e := range entries {
		if e.Topic == "in" {
			last = e.Seq
		}
	}
	if off, err := l.Offset("copier", "in"); err != nil || off == last {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	sub := newSubscriber(t, l, "copier")
	ch, err := sub.Subscribe(context.Background(), "in")
	if err != nil {
		t.Fatal(err)
	}
	for {
		m := receive(t, ch)
		out := message.NewMessage("copy-"+m.UUID, m.Payload)
		if err := sub.AckWith(m, local.Output{Topic: "out", Messages: []*message.Message{out}}); err != nil {
			t.Fatalf("AckWith(%s): %v", m.UUID, err)
		}
		if seqOf(t, m) == last {
			break
		}
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if off, err := l.Offset("copier", "in"); err != nil || off != last {
		t.Fatalf("copier offset %d, %v; want %d", off, err, last)
	}
}
