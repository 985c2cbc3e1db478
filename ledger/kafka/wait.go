package kafka

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"
)

// Broker wait defaults.
const (
	// DefaultBrokerWait is how long a service waits for its brokers at
	// start before it gives up: long enough for a broker (or a whole
	// cluster) started at the same moment to come up.
	DefaultBrokerWait = 2 * time.Minute

	// brokerBackoffFirst and brokerBackoffMax bound the wait between two
	// attempts; it doubles from the first to the most.
	brokerBackoffFirst = 250 * time.Millisecond
	brokerBackoffMax   = 5 * time.Second

	// brokerAttemptTimeout bounds one attempt, so that a broker that
	// accepts connections and never answers is tried again.
	brokerAttemptTimeout = 15 * time.Second
)

// WaitForBrokers calls try (Ping when nil) until it succeeds, for at most
// max (DefaultBrokerWait when zero), backing off between attempts from a
// quarter of a second up to five seconds and logging every failed attempt
// with its cause, so that a service started with (or before) its broker
// waits for it instead of exiting. An invalid broker list is no reason to
// wait: it is returned at once. When max passes, the error names the
// brokers, the time waited and the last cause.
func WaitForBrokers(ctx context.Context, brokers []string, max time.Duration, logger *slog.Logger, try func(context.Context) error) error {
	if err := validateBrokers(brokers); err != nil {
		return fmt.Errorf("kafka: %w", err)
	}
	for _, b := range brokers {
		if _, _, err := net.SplitHostPort(b); err != nil {
			return fmt.Errorf("kafka: broker %q: want host:port: %w", b, err)
		}
	}
	if max <= 0 {
		max = DefaultBrokerWait
	}
	if try == nil {
		try = func(ctx context.Context) error { return Ping(ctx, brokers) }
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	addrs := strings.Join(brokers, ",")
	started := time.Now()
	bounded, cancel := context.WithTimeout(ctx, max)
	defer cancel()
	backoff := brokerBackoffFirst
	for attempt := 1; ; attempt++ {
		actx, acancel := context.WithTimeout(bounded, brokerAttemptTimeout)
		err := try(actx)
		acancel()
		if err == nil {
			if attempt > 1 {
				logger.Info(fmt.Sprintf("the Kafka brokers at %s answer", addrs), "attempts", attempt, "waited", time.Since(started).Round(time.Millisecond).String())
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if bounded.Err() != nil {
			return fmt.Errorf("kafka: no broker at %s answered within %s: %w", addrs, max, err)
		}
		logger.Warn(fmt.Sprintf("waiting for the Kafka brokers at %s: %v; retrying in %s", addrs, err, backoff), "attempt", attempt)
		t := time.NewTimer(backoff)
		select {
		case <-bounded.Done():
			t.Stop()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("kafka: no broker at %s answered within %s: %w", addrs, max, err)
		case <-t.C:
		}
		backoff = min(2*backoff, brokerBackoffMax)
	}
}
