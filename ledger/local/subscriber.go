package local

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
)

// SubscriberConfig configures NewSubscriber. The zero value is an ephemeral
// subscriber.
type SubscriberConfig struct {
	// ConsumerGroup names a durable cursor per topic, stored in the log.
	// Every subscription of the group on a topic, in any Subscriber of the
	// same Log, shares it: each message goes to one of them, and the next is
	// delivered only after that one is acked and the new offset committed.
	// A group that never acked a topic starts at its first message.
	//
	// Empty means an ephemeral cursor per Subscribe call: it starts at the
	// beginning of the topic and is never stored.
	ConsumerGroup string
}

// Subscriber reads topics of a Log. It implements message.Subscriber.
//
// Delivery is at least once: a message acked just before a crash, whose
// offset commit did not make it to disk, is delivered again. Use AckWith to
// make a consumer's outputs and its offset commit one transaction, which
// makes its effects exactly once.
type Subscriber struct {
	log    *Log
	group  string
	logger watermill.LoggerAdapter

	mu      sync.Mutex
	closed  bool          // guarded by mu
	closing chan struct{} // closed by Close
	wg      sync.WaitGroup

	inflightMu sync.Mutex
	inflight   map[*message.Message]*delivery
}

var _ message.Subscriber = (*Subscriber)(nil)

// NewSubscriber returns a Subscriber of l. The Subscriber does not own l.
func NewSubscriber(l *Log, cfg SubscriberConfig) (*Subscriber, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil Log", ErrInvalidArgument)
	}
	if err := validateGroup(cfg.ConsumerGroup, true); err != nil {
		return nil, fmt.Errorf("ledger/local: new subscriber: %w", err)
	}
	if l.readOnly && cfg.ConsumerGroup != "" {
		return nil, fmt.Errorf("ledger/local: new subscriber with consumer group %q: %w", cfg.ConsumerGroup, ErrReadOnly)
	}
	return &Subscriber{
		log:      l,
		group:    cfg.ConsumerGroup,
		logger:   l.logger.With(watermill.LogFields{"consumer_group": cfg.ConsumerGroup}),
		closing:  make(chan struct{}),
		inflight: make(map[*message.Message]*delivery),
	}, nil
}

// groupCursor serializes delivery for one (group, topic). Holding the token
// is the right to read the offset, deliver the next message and commit its
// ack; that is what makes each message go to exactly one subscription of the
// group, in order.
type groupCursor struct {
	key   []byte // offsets key; nil for an ephemeral cursor
	token chan struct{}
	refs  int // guarded by Log.mu
}

func newCursor(key []byte) *groupCursor {
	c := &groupCursor{key: key, token: make(chan struct{}, 1)}
	c.token <- struct{}{}
	return c
}

// attach registers a subscription goroutine with the Log and returns its
// cursor, shared for a group.
func (l *Log) attach(group, topic string) (*groupCursor, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrClosed
	}
	l.subs.Add(1)
	if group == "" {
		return newCursor(nil), nil
	}
	key := offsetKey(group, topic)
	c := l.cursors[string(key)]
	if c == nil {
		c = newCursor(key)
		l.cursors[string(key)] = c
	}
	c.refs++
	return c, nil
}

func (l *Log) detach(c *groupCursor) {
	if c.key != nil {
		l.mu.Lock()
		if c.refs--; c.refs == 0 {
			delete(l.cursors, string(c.key))
		}
		l.mu.Unlock()
	}
	l.subs.Done()
}

// delivery is a message handed to a consumer and not yet settled.
type delivery struct {
	key   []byte // nil for an ephemeral cursor
	prev  uint64 // the group's offset when the message was read
	seq   uint64
	state atomic.Int32
}

const (
	pending int32 = iota
	committing
	committed
)

// Subscribe returns a channel of the messages of topic, from the group's
// offset (or the beginning). The next message is sent only after the
// previous one is acked; a nacked message is sent again. Each message's
// context is ctx, carrying its seq (see SeqFromContext), and is canceled once
// the message is settled or the subscription ends. The channel closes when
// ctx is done, the Subscriber or the Log is closed, or a corrupt entry is met
// (logged: delivery cannot skip a record of the ledger).
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	if err := validateTopic(topic); err != nil {
		return nil, fmt.Errorf("ledger/local: subscribe: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrSubscriberClosed
	}
	cur, err := s.log.attach(s.group, topic)
	if err != nil {
		return nil, fmt.Errorf("ledger/local: subscribe to %q: %w", topic, err)
	}
	s.wg.Add(1)
	out := make(chan *message.Message)
	go s.consume(ctx, topic, cur, out)
	return out, nil
}

// Close ends every subscription of s, closing their channels, and waits for
// them. It does not close the Log. Unacked messages are delivered again to
// the next subscription.
func (s *Subscriber) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.closing)
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// consume is the goroutine behind one Subscribe call; Subscribe's caller
// owns it through ctx and Close.
func (s *Subscriber) consume(ctx context.Context, topic string, cur *groupCursor, out chan<- *message.Message) {
	defer s.wg.Done()
	defer s.log.detach(cur)
	defer close(out)

	logger := s.logger.With(watermill.LogFields{"topic": topic})
	var position uint64 // ephemeral cursors only
	for !s.stopping(ctx) {
		select {
		case <-cur.token:
		case <-ctx.Done():
			return
		case <-s.closing:
			return
		case <-s.log.done:
			return
		}
		more := s.deliverNext(ctx, logger, topic, cur, &position, out)
		cur.token <- struct{}{}
		if !more {
			return
		}
	}
}

func (s *Subscriber) stopping(ctx context.Context) bool {
	select {
	case <-ctx.Done():
	case <-s.closing:
	case <-s.log.done:
	default:
		return false
	}
	return true
}

// deliverNext delivers the next message after the cursor until it is acked,
// and commits the ack. It runs holding the cursor token and reports whether
// the subscription goes on.
func (s *Subscriber) deliverNext(ctx context.Context, logger watermill.LoggerAdapter, topic string, cur *groupCursor, position *uint64, out chan<- *message.Message) bool {
	var (
		offset uint64
		e      Entry
	)
	for {
		wake := s.log.wakeup(topic)
		var found bool
		var err error
		offset, e, found, err = s.log.next(cur.key, topic, *position)
		if err != nil {
			logger.Error("Cannot read the next message; ending the subscription", err, nil)
			return false
		}
		if found {
			break
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return false
		case <-s.closing:
			return false
		case <-s.log.done:
			return false
		}
	}

	for {
		msg := message.NewMessage(e.UUID, slices.Clone(e.Payload))
		msg.Metadata = maps.Clone(e.Metadata)
		msgCtx, cancel := context.WithCancel(context.WithValue(ctx, seqContextKey{}, e.Seq))
		msg.SetContext(msgCtx)
		d := &delivery{key: cur.key, prev: offset, seq: e.Seq}

		s.track(msg, d)
		outcome := s.await(ctx, msg, out)
		s.untrack(msg)

		switch outcome {
		case nacked:
			cancel()
			continue
		case acked:
			s.settle(logger, d, position)
			cancel()
			return true
		default:
			cancel()
			return false
		}
	}
}

type outcome int

const (
	stopped outcome = iota
	acked
	nacked
)

func (s *Subscriber) await(ctx context.Context, msg *message.Message, out chan<- *message.Message) outcome {
	select {
	case out <- msg:
	case <-ctx.Done():
		return stopped
	case <-s.closing:
		return stopped
	case <-s.log.done:
		return stopped
	}
	select {
	case <-msg.Acked():
		return acked
	case <-msg.Nacked():
		return nacked
	case <-ctx.Done():
	case <-s.closing:
	case <-s.log.done:
	}
	// An ack racing the shutdown still counts: committing it saves a redelivery.
	select {
	case <-msg.Acked():
		return acked
	default:
		return stopped
	}
}

// settle records an ack: the in-memory position of an ephemeral cursor, or
// the group's stored offset unless AckWith already committed it.
func (s *Subscriber) settle(logger watermill.LoggerAdapter, d *delivery, position *uint64) {
	if d.key == nil {
		*position = d.seq
		return
	}
	if d.state.Load() == committed {
		return
	}
	u := &offsetUpdate{key: d.key, prev: d.prev, next: d.seq, settled: true}
	if err := s.log.submit(&commitRequest{offset: u}); err != nil {
		logger.Error("Cannot commit the consumer offset; the message will be delivered again", err, watermill.LogFields{"seq": d.seq})
	}
}

func (s *Subscriber) track(msg *message.Message, d *delivery) {
	s.inflightMu.Lock()
	s.inflight[msg] = d
	s.inflightMu.Unlock()
}

func (s *Subscriber) untrack(msg *message.Message) {
	s.inflightMu.Lock()
	delete(s.inflight, msg)
	s.inflightMu.Unlock()
}

// Output is a batch of messages to append to Topic.
type Output struct {
	Topic    string
	Messages []*message.Message
}

// AckWith appends outputs and commits the consumer offset past msg in one
// transaction, then acks msg. So a consumer that derives outputs from its
// input and crashes at any point has either done both or neither: no output
// is lost or written twice, and msg is redelivered exactly when its outputs
// are absent.
//
// msg must have been delivered by s and not yet acked or nacked. If the
// offset already moved past msg (msg was acked another way, or redelivered
// to another subscription of the group after this one ended and acked
// there), AckWith writes nothing and returns an error wrapping
// ErrOffsetConflict: the work was already committed, drop it. On any other
// error nothing was written and msg is still unsettled: retry or Nack it.
//
// In a Watermill router handler, call AckWith and return no messages: the
// router's own Ack afterwards is a no-op.
func (s *Subscriber) AckWith(msg *message.Message, outputs ...Output) error {
	if s.group == "" {
		return ErrNoConsumerGroup
	}
	var entries []pendingEntry
	size := 0
	for _, o := range outputs {
		es, n, err := s.log.encode(o.Topic, o.Messages)
		if err != nil {
			return fmt.Errorf("ledger/local: ack with output to %q: %w", o.Topic, err)
		}
		entries = append(entries, es...)
		size += n
	}

	s.inflightMu.Lock()
	d := s.inflight[msg]
	s.inflightMu.Unlock()
	if d == nil || !d.state.CompareAndSwap(pending, committing) {
		return ErrNotInFlight
	}
	err := s.log.submit(&commitRequest{
		entries: entries,
		offset:  &offsetUpdate{key: d.key, prev: d.prev, next: d.seq},
		size:    size,
	})
	if err != nil {
		d.state.Store(pending)
		return fmt.Errorf("ledger/local: ack seq %d with %d outputs: %w", d.seq, len(entries), err)
	}
	d.state.Store(committed)
	msg.Ack()
	return nil
}

type seqContextKey struct{}

// SeqFromContext returns the seq of the entry a delivered message was read
// from, given the message's context.
func SeqFromContext(ctx context.Context) (uint64, bool) {
	seq, ok := ctx.Value(seqContextKey{}).(uint64)
	return seq, ok
}
