package local

import (
	"fmt"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill/message"
)

// Publisher appends messages to a Log. It implements message.Publisher.
type Publisher struct {
	log    *Log
	closed atomic.Bool
}

var _ message.Publisher = (*Publisher)(nil)

// NewPublisher returns a Publisher appending to l. The Publisher does not own
// l: closing it leaves l open.
func NewPublisher(l *Log) (*Publisher, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil Log", ErrInvalidArgument)
	}
	if l.readOnly {
		return nil, fmt.Errorf("ledger/local: new publisher: %w", ErrReadOnly)
	}
	return &Publisher{log: l}, nil
}

// Publish appends msgs to topic, all in one transaction, in order, and
// returns once that transaction is committed to disk: a nil error means the
// messages are durable. Concurrent Publish calls share commits (and fsyncs).
// Either every message is appended or none is.
func (p *Publisher) Publish(topic string, msgs ...*message.Message) error {
	if p.closed.Load() {
		return ErrPublisherClosed
	}
	if len(msgs) == 0 {
		return nil
	}
	entries, size, err := p.log.encode(topic, msgs)
	if err != nil {
		return fmt.Errorf("ledger/local: publish to %q: %w", topic, err)
	}
	if err := p.log.submit(&commitRequest{entries: entries, size: size}); err != nil {
		return fmt.Errorf("ledger/local: publish %d messages to %q: %w", len(msgs), topic, err)
	}
	return nil
}

// Close makes later Publish calls fail. It does not close the Log.
func (p *Publisher) Close() error {
	p.closed.Store(true)
	return nil
}

// encode validates and encodes msgs for topic, before any transaction, so
// that the committer only meets requests it can write.
func (l *Log) encode(topic string, msgs []*message.Message) ([]pendingEntry, int, error) {
	if err := validateTopic(topic); err != nil {
		return nil, 0, err
	}
	out := make([]pendingEntry, 0, len(msgs))
	size := 0
	for i, m := range msgs {
		if m == nil {
			return nil, 0, fmt.Errorf("%w: message %d is nil", ErrInvalidArgument, i)
		}
		body, err := encodeBody(topic, m.UUID, m.Metadata, m.Payload, l.maxEntry)
		if err != nil {
			return nil, 0, fmt.Errorf("message %d (%s): %w", i, m.UUID, err)
		}
		out = append(out, pendingEntry{topic: topic, body: body})
		size += cap(body)
	}
	return out, size, nil
}
