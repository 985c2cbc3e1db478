package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/sealgate/sealgate/ledger/kafka"
)

// hangGuard fails a test whose broker never answers, rather than letting it
// hang until the test binary's timeout. It asserts nothing about speed.
const hangGuard = 60 * time.Second

func TestBadFlagsExit3WithOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"--brokers", "0"},
		{"--partitions", "0"},
		{"--partitions", "many"},
		{"--listen", "nonsense"},
		{"--listen", "127.0.0.1:70000"},
		{"--listen", "127.0.0.1:http"},
		{"--listen", "127.0.0.1:65535", "--brokers", "2"},
		{"--no-such-flag"},
		{"stray-argument"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q, want nothing", args, stdout.String())
		}
		if msg := stderr.String(); !strings.HasPrefix(msg, "devbroker: ") || strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") {
			t.Errorf("%q: stderr %q, want one line starting with \"devbroker: \"", args, msg)
		}
	}
}

func TestHelpExits0(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-h"}, &stdout, &stderr); code != exitOK {
		t.Errorf("exit %d, want %d", code, exitOK)
	}
	if !strings.Contains(stdout.String(), "-data-dir") {
		t.Errorf("usage %q does not mention -data-dir", stdout.String())
	}
}

// TestServesUntilCancelled runs the broker in process: it announces every
// broker, creates topics on first use with --partitions partitions, and
// returns 0 once its context ends.
func TestServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdoutR, stdoutW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		defer stdoutW.Close()
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--brokers", "2", "--partitions", "3"}, stdoutW, &stderr)
	}()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the announcement: %v (stderr %q)", err, stderr.String())
	}
	brokers := parseListening(t, line)
	if len(brokers) != 2 {
		t.Fatalf("announced %d brokers, want 2: %q", len(brokers), line)
	}

	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish("auto-created", message.NewMessage(watermill.NewUUID(), nil)); err != nil {
		t.Fatal(err)
	}
	if err := pub.Close(); err != nil {
		t.Fatal(err)
	}
	parts, err := (&kafkago.Dialer{}).LookupPartitions(ctx, "tcp", brokers[1], "auto-created")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 3 {
		t.Errorf("auto-created topic has %d partitions, want 3", len(parts))
	}

	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after cancellation, want %d (stderr %q)", code, exitOK, stderr.String())
	}
	if rest, _ := io.ReadAll(stdoutR); len(rest) != 0 {
		t.Errorf("more output after the announcement: %q", rest)
	}
}

// TestDataSurvivesSIGKILL builds devbroker, writes records to it, kills it
// with SIGKILL, and reads every record back from a broker restarted on the
// same data directory; committed offsets survive a SIGKILL too, and SIGTERM
// stops it with exit code 0.
func TestDataSurvivesSIGKILL(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("builds devbroker with the go tool, which Bazel's sandbox does not provide")
	}
	if testing.Short() {
		t.Skip("builds and runs devbroker")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool in PATH")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "devbroker")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dataDir := filepath.Join(dir, "data")
	listen := freeAddr(t)
	const (
		topic  = "ledger"
		group  = "verifier"
		nParts = 3
	)
	start := func() (*exec.Cmd, []string) {
		t.Helper()
		return startBroker(t, bin, "--listen", listen, "--data-dir", dataDir, "--partitions", fmt.Sprint(nParts))
	}

	// First life: records are written, then the broker is killed.
	cmd, brokers := start()
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sent := make(map[string]*message.Message)
	for run := range 3 {
		var batch []*message.Message
		for i := range 50 {
			msg := message.NewMessage(watermill.NewUUID(), fmt.Appendf(nil, "record %d of run %d", i, run))
			msg.Metadata.Set(kafka.RunIDMetadataKey, fmt.Sprintf("run-%d", run))
			batch = append(batch, msg)
			sent[msg.UUID] = msg
		}
		if err := pub.Publish(topic, batch...); err != nil {
			t.Fatal(err)
		}
	}
	if err := pub.Close(); err != nil {
		t.Fatal(err)
	}
	kill(t, cmd)

	// Second life: every record is there; the group consumes them all.
	cmd, brokers = start()
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: brokers, ConsumerGroup: group}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := sub.Subscribe(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	for received := make(map[string]bool); len(received) < len(sent); {
		var msg *message.Message
		select {
		case msg = <-ch:
		case <-time.After(hangGuard):
			t.Fatalf("received %d of %d records", len(received), len(sent))
		}
		msg.Ack()
		want, ok := sent[msg.UUID]
		if !ok {
			t.Fatalf("received a record that was never sent: %s %q", msg.UUID, msg.Payload)
		}
		if !bytes.Equal(msg.Payload, want.Payload) || !maps.Equal(msg.Metadata, want.Metadata) {
			t.Errorf("record %s: got %q %v, want %q %v", msg.UUID, msg.Payload, msg.Metadata, want.Payload, want.Metadata)
		}
		received[msg.UUID] = true
	}
	// The last Ack's commit completes after the message was handed over.
	awaitCommitted(t, brokers, group, topic, nParts, int64(len(sent)))
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	kill(t, cmd)

	// Third life: the committed offsets are back; SIGTERM ends it cleanly.
	cmd, brokers = start()
	awaitCommitted(t, brokers, group, topic, nParts, int64(len(sent)))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v, want exit code 0", err)
	}
}

// startBroker starts bin with args and returns it once it announced its
// brokers. The process is killed when t ends, if still running.
func startBroker(t *testing.T, bin string, args ...string) (*exec.Cmd, []string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	lines := make(chan string, 1)
	go func() {
		// Ends when the process does: its stdout then reaches EOF.
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case line := <-lines:
		if line == "" {
			t.Fatalf("devbroker exited without announcing itself; stderr: %q", stderr.String())
		}
		return cmd, parseListening(t, line)
	case <-time.After(hangGuard):
		t.Fatal("devbroker did not announce itself")
	}
	return nil, nil
}

func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // "signal: killed"
}

// parseListening returns the brokers of devbroker's announcement, which
// must be exactly one line.
func parseListening(t *testing.T, line string) []string {
	t.Helper()
	re := regexp.MustCompile(`^devbroker listening on ([^,\s]+:\d+(?:,[^,\s]+:\d+)*)\n$`)
	m := re.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("announcement %q does not match %v", line, re)
	}
	return strings.Split(m[1], ",")
}

// freeAddr returns a loopback address whose port was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// awaitCommitted waits until group's committed offsets of topic's nParts
// partitions add up to want.
func awaitCommitted(t *testing.T, brokers []string, group, topic string, nParts int, want int64) {
	t.Helper()
	transport := &kafkago.Transport{}
	defer transport.CloseIdleConnections()
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...), Transport: transport}
	partitions := make([]int, nParts)
	for i := range partitions {
		partitions[i] = i
	}
	deadline := time.Now().Add(hangGuard)
	var total int64
	for {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		resp, err := client.OffsetFetch(ctx, &kafkago.OffsetFetchRequest{
			GroupID: group,
			Topics:  map[string][]int{topic: partitions},
		})
		cancel()
		if err == nil && resp.Error == nil {
			total = 0
			for _, p := range resp.Topics[topic] {
				if p.Error == nil && p.CommittedOffset > 0 {
					total += p.CommittedOffset
				}
			}
			if total == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("committed offsets add up to %d, want %d (last error: %v)", total, want, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
