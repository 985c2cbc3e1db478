// Package consume is the loop every consumer of a ledger topic runs: the
// services' runtime, the ledger guard and the gateway's index. It
// subscribes, says when the subscription is live, hands each message to
// its handler under a context the message's own cancellation (a partition
// moved to another replica) also ends, and settles the message by the
// handler's answer: acknowledged when it succeeded; sent back when the
// loop stops, the partition moved, or the handler failed — after a pause,
// so that a failing dependency is not hammered. Only an error marked with
// Stop ends the loop; nothing a message holds stops it otherwise.
package consume

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
)

// Handler handles one message. Its error decides how the message is
// settled; wrap it with Stop to end the loop.
type Handler func(ctx context.Context, msg *message.Message) error

// Loop consumes one topic.
type Loop struct {
	// Name names the consumer in errors and logs.
	Name  string
	Sub   message.Subscriber
	Topic string
	// Handle is called for each message, one at a time, in delivery order.
	Handle Handler
	// Ready, when set, is called once the subscription is live.
	Ready func()
	// Every and Tick, when both are set, call Tick every Every between
	// messages (deadlines); a tick never runs during a handling.
	Every time.Duration
	Tick  func(ctx context.Context)
	// Pause is the wait after a failed handling before the next message;
	// zero means one second.
	Pause time.Duration
	// Logger receives a line per failed handling; nil discards them.
	Logger *slog.Logger
}

// stopError ends the loop.
type stopError struct{ err error }

func (e *stopError) Error() string { return e.err.Error() }
func (e *stopError) Unwrap() error { return e.err }

// Stop marks err as one that ends the loop (the consumer's own state is
// damaged: no later message can be handled right). Nil stays nil.
func Stop(err error) error {
	if err == nil {
		return nil
	}
	return &stopError{err: err}
}

// Run consumes until ctx ends or the subscription closes (nil), or a
// handler returns a Stop error (that error).
func (l *Loop) Run(ctx context.Context) error {
	log := l.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pause := l.Pause
	if pause <= 0 {
		pause = time.Second
	}
	// The subscription ends with the loop: a message sent back when the
	// loop stops goes to whoever subscribes next, not to a channel nobody
	// reads.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs, err := l.Sub.Subscribe(ctx, l.Topic)
	if err != nil {
		return fmt.Errorf("%s: subscribe to %s: %w", l.Name, l.Topic, err)
	}
	if l.Ready != nil {
		l.Ready()
	}
	var tick <-chan time.Time
	if l.Every > 0 && l.Tick != nil {
		t := time.NewTicker(l.Every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
			l.Tick(ctx)
		case msg, ok := <-msgs:
			if !ok {
				return nil
			}
			hctx, cancel := context.WithCancel(ctx)
			unhook := context.AfterFunc(msg.Context(), cancel)
			err := l.Handle(hctx, msg)
			unhook()
			cancel()
			var stop *stopError
			switch {
			case err == nil:
				msg.Ack()
			case ctx.Err() != nil || msg.Context().Err() != nil:
				// Stopping, or the partition moved: whoever reads the
				// message next handles it.
				msg.Nack()
			case errors.As(err, &stop):
				msg.Nack()
				return fmt.Errorf("%s: %w", l.Name, stop.err)
			default:
				log.Error("message not settled; it will be delivered again", "consumer", l.Name, "message", msg.UUID, "err", err, "retry_in", pause)
				msg.Nack()
				t := time.NewTimer(pause)
				select {
				case <-ctx.Done():
				case <-t.C:
				}
				t.Stop()
			}
		}
	}
}
