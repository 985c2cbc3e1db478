package kafka_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger/kafka"
)

// lines is a log sink that signals each record.
type lines struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	seen chan struct{}
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.seen <- struct{}{}:
	default:
	}
	return l.buf.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func freeAddr(t *testing.T) (string, int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String(), l.Addr().(*net.TCPAddr).Port
}

// A service started before its broker waits, says so with the cause, and
// goes on once the broker is up.
func TestWaitForBrokersStartedBeforeTheBroker(t *testing.T) {
	addr, port := freeAddr(t)
	log := &lines{seen: make(chan struct{}, 1)}
	logger := slog.New(slog.NewTextHandler(log, nil))
	done := make(chan error, 1)
	go func() { done <- kafka.WaitForBrokers(context.Background(), []string{addr}, time.Minute, logger, nil) }()
	// The first failed attempt is logged before the broker exists.
	<-log.seen
	select {
	case err := <-done:
		t.Fatalf("returned with no broker: %v", err)
	default:
	}
	got := log.String()
	if !strings.Contains(got, "waiting for the Kafka brokers at "+addr+": ") || !strings.Contains(got, "; retrying in ") {
		t.Fatalf("log says %q", got)
	}
	c, err := kfake.NewCluster(kfake.Ports(port))
	if err != nil {
		t.Fatalf("start kfake on %d: %v", port, err)
	}
	defer c.Close()
	if err := <-done; err != nil {
		t.Fatalf("WaitForBrokers after the broker started: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "the Kafka brokers at "+addr+" answer") {
		t.Fatalf("log does not say the brokers answered: %s", log.String())
	}
}

// The honest twin: a broker that is up answers at the first attempt, with
// nothing logged.
func TestWaitForBrokersUpAtOnce(t *testing.T) {
	brokers := testBrokers(t)
	var buf bytes.Buffer
	if err := kafka.WaitForBrokers(context.Background(), brokers, time.Minute, slog.New(slog.NewTextHandler(&buf, nil)), nil); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Fatalf("logged with the broker up: %s", buf.String())
	}
}

// The wait is bounded: nothing answering within max is an error naming the
// brokers and the cause, never a silent hang.
func TestWaitForBrokersIsBounded(t *testing.T) {
	addr, _ := freeAddr(t)
	err := kafka.WaitForBrokers(context.Background(), []string{addr}, 300*time.Millisecond, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "no broker at "+addr+" answered within 300ms") {
		t.Fatalf("err = %v", err)
	}
}

// A try that fails is retried, and its cause is what the error names.
func TestWaitForBrokersRetriesTheTry(t *testing.T) {
	brokers := testBrokers(t)
	n := 0
	cause := errors.New("Broker Not Available")
	err := kafka.WaitForBrokers(context.Background(), brokers, time.Minute, nil, func(ctx context.Context) error {
		if n++; n < 3 {
			return cause
		}
		return kafka.Ping(ctx, brokers)
	})
	if err != nil || n != 3 {
		t.Fatalf("err %v after %d tries", err, n)
	}
	// An invalid broker list is no reason to wait.
	if err := kafka.WaitForBrokers(context.Background(), []string{"no-port"}, time.Hour, nil, nil); err == nil {
		t.Fatal("an invalid broker list was waited for")
	}
}
