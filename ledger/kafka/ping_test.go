package kafka_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/kafka"
)

func TestPingAnsweringBroker(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := kafka.Ping(ctx, testBrokers(t)); err != nil {
		t.Fatalf("ping of a running broker: %v", err)
	}
}

// The first address answers nothing; the second is a broker: Ping goes on
// to it.
func TestPingSkipsADeadBroker(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dead := closedPort(t)
	if err := kafka.Ping(ctx, append([]string{dead}, testBrokers(t)...)); err != nil {
		t.Fatalf("ping of a dead and a running broker: %v", err)
	}
}

func TestPingNobodyListens(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dead := closedPort(t)
	err := kafka.Ping(ctx, []string{dead})
	if err == nil || !strings.Contains(err.Error(), dead) {
		t.Fatalf("ping of a closed port: %v", err)
	}
}

// A host that accepts connections and never answers holds Ping only until
// its context ends, and the error says so.
func TestPingSilentHostEndsWithContext(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			go func() { <-done; c.Close() }()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = kafka.Ping(ctx, []string{lis.Addr().String()})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ping of a silent host: %v", err)
	}
}

func TestPingNoBrokers(t *testing.T) {
	if err := kafka.Ping(context.Background(), nil); err == nil {
		t.Fatal("ping of no brokers succeeded")
	}
}

// closedPort returns an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return addr
}
