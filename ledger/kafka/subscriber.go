package kafka

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/segmentio/kafka-go"
)

// Subscriber defaults.
const (
	// DefaultNackResendSleep is how long a nacked message waits before it is
	// delivered again, so that a handler failing on every attempt does not
	// spin.
	DefaultNackResendSleep = 100 * time.Millisecond

	// DefaultMaxWait is how long a fetch waits on the broker for new
	// records. It also bounds how long stopping a partition consumer takes:
	// kafka-go's own default of 10 s would make Close and every rebalance
	// that slow.
	DefaultMaxWait = 250 * time.Millisecond

	// DefaultMinBytes is the least a fetch waits for: one byte, so a record
	// is delivered as soon as it is written.
	DefaultMinBytes = 1

	// DefaultMaxBytes is the most one fetch returns.
	DefaultMaxBytes = 10 << 20

	// DefaultHeartbeatInterval is how often a group member tells the
	// coordinator it is alive; it is also how soon the member notices a
	// rebalance.
	DefaultHeartbeatInterval = time.Second

	// DefaultSessionTimeout is how long the coordinator waits for a
	// heartbeat before it gives a silent member's partitions to others.
	DefaultSessionTimeout = 10 * time.Second

	// DefaultPartitionWatchInterval is how often a subscription checks
	// whether its topic exists (before it joins the group) or has gained
	// partitions (after).
	DefaultPartitionWatchInterval = 5 * time.Second

	// DefaultTopicPartitions is the partition count SubscribeInitialize
	// creates topics with.
	DefaultTopicPartitions = 8

	// anonymousGroupPrefix prefixes the group generated for a subscription
	// of a Subscriber without a consumer group.
	anonymousGroupPrefix = "sealgate-anonymous-"

	// metadataTimeout bounds one topic metadata look-up or creation.
	metadataTimeout = 30 * time.Second
)

// SubscriberConfig configures a [Subscriber]. Zero fields take the defaults
// named in their comments.
type SubscriberConfig struct {
	// Brokers are the bootstrap addresses (host:port) of the cluster.
	// Required.
	Brokers []string

	// ConsumerGroup is the Kafka consumer group of the subscriptions: one
	// per service, so that its instances share the partitions and resume
	// from the offsets committed before. When empty, every Subscribe call
	// gets a group of its own that starts at the earliest record, so it
	// receives every message.
	ConsumerGroup string

	// NackResendSleep is how long a nacked message waits before it is
	// delivered again. Default: DefaultNackResendSleep; negative: no wait.
	NackResendSleep time.Duration

	// MaxWait is how long a fetch waits for records. Default: DefaultMaxWait.
	MaxWait time.Duration

	// MinBytes and MaxBytes bound the size of a fetch. Defaults:
	// DefaultMinBytes and DefaultMaxBytes.
	MinBytes, MaxBytes int

	// HeartbeatInterval and SessionTimeout tune group membership.
	// Defaults: DefaultHeartbeatInterval and DefaultSessionTimeout.
	HeartbeatInterval, SessionTimeout time.Duration

	// PartitionWatchInterval is how often a subscription looks for its
	// topic or for new partitions. Default: DefaultPartitionWatchInterval.
	PartitionWatchInterval time.Duration

	// TopicPartitions is the partition count of the topics that
	// SubscribeInitialize creates. Default: DefaultTopicPartitions.
	TopicPartitions int

	// StartAtEnd, for a Subscriber without a ConsumerGroup only, has a
	// subscription deliver only the messages written after Subscribe
	// returns: Subscribe reads every partition's end offset before it
	// returns (an error if it cannot), and the subscription starts there —
	// a partition added later from its start. It then resumes from what
	// it delivered, not from the start, should its generated group
	// rebalance. A reader of what came before reads it itself (ReadTopic,
	// ReadKeySince).
	StartAtEnd bool
}

func (c SubscriberConfig) withDefaults() SubscriberConfig {
	c.NackResendSleep = cmp.Or(c.NackResendSleep, DefaultNackResendSleep)
	c.MaxWait = cmp.Or(c.MaxWait, DefaultMaxWait)
	c.MinBytes = cmp.Or(c.MinBytes, DefaultMinBytes)
	c.MaxBytes = cmp.Or(c.MaxBytes, DefaultMaxBytes)
	c.HeartbeatInterval = cmp.Or(c.HeartbeatInterval, DefaultHeartbeatInterval)
	c.SessionTimeout = cmp.Or(c.SessionTimeout, DefaultSessionTimeout)
	c.PartitionWatchInterval = cmp.Or(c.PartitionWatchInterval, DefaultPartitionWatchInterval)
	c.TopicPartitions = cmp.Or(c.TopicPartitions, DefaultTopicPartitions)
	return c
}

func (c SubscriberConfig) validate() error {
	if err := validateBrokers(c.Brokers); err != nil {
		return err
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"MaxWait", c.MaxWait},
		{"HeartbeatInterval", c.HeartbeatInterval},
		{"SessionTimeout", c.SessionTimeout},
		{"PartitionWatchInterval", c.PartitionWatchInterval},
	} {
		if d.v <= 0 {
			return fmt.Errorf("%s %v, want a positive duration", d.name, d.v)
		}
	}
	if c.HeartbeatInterval >= c.SessionTimeout {
		return fmt.Errorf("HeartbeatInterval %v not below SessionTimeout %v", c.HeartbeatInterval, c.SessionTimeout)
	}
	if c.MinBytes < 1 || c.MaxBytes < c.MinBytes {
		return fmt.Errorf("MinBytes %d and MaxBytes %d, want 1 <= MinBytes <= MaxBytes", c.MinBytes, c.MaxBytes)
	}
	if c.TopicPartitions < 1 {
		return fmt.Errorf("TopicPartitions %d, want at least 1", c.TopicPartitions)
	}
	if c.StartAtEnd && c.ConsumerGroup != "" {
		return fmt.Errorf("StartAtEnd with consumer group %q: a group resumes from its committed offsets", c.ConsumerGroup)
	}
	return nil
}

// Subscriber is a Watermill subscriber that consumes Kafka topics through
// consumer groups. It is safe for concurrent use.
type Subscriber struct {
	cfg    SubscriberConfig
	logger watermill.LoggerAdapter
	dialer *kafka.Dialer

	// closing is cancelled by Close; every subscription runs under it.
	closing context.Context
	cancel  context.CancelFunc

	mu     sync.Mutex
	closed bool
	subs   sync.WaitGroup // one per running subscription
}

// NewSubscriber returns a Subscriber for cfg. It does not connect: Subscribe
// does. logger may be nil.
func NewSubscriber(cfg SubscriberConfig, logger watermill.LoggerAdapter) (*Subscriber, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("kafka: subscriber config: %w", err)
	}
	if logger == nil {
		logger = watermill.NopLogger{}
	}
	closing, cancel := context.WithCancel(context.Background())
	return &Subscriber{
		cfg:     cfg,
		logger:  logger,
		dialer:  &kafka.Dialer{ClientID: "sealgate", Timeout: 10 * time.Second, DualStack: true},
		closing: closing,
		cancel:  cancel,
	}, nil
}

// SubscribeInitialize creates topic with cfg.TopicPartitions partitions
// unless it exists. It implements [message.SubscribeInitializer].
func (s *Subscriber) SubscribeInitialize(topic string) error {
	ctx, cancel := context.WithTimeout(s.closing, metadataTimeout)
	defer cancel()
	return CreateTopic(ctx, s.cfg.Brokers, topic, s.cfg.TopicPartitions)
}

// Subscribe consumes topic and returns the channel its messages arrive on.
// A message's offset is committed when it is acked; the next message of its
// partition is delivered only after that. A nacked message is delivered
// again. If the topic does not exist yet, the subscription waits for it to
// be created (by a broker that creates topics on demand, it is).
//
// The channel is closed when ctx is done or the Subscriber is closed.
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	if ctx == nil {
		return nil, errors.New("kafka: subscribe: nil context")
	}
	if topic == "" {
		return nil, errors.New("kafka: subscribe: empty topic")
	}
	var from map[int]int64
	if s.cfg.StartAtEnd {
		ends, err := s.ends(ctx, topic)
		if err != nil {
			return nil, fmt.Errorf("kafka: subscribe to %q at its end: %w", topic, err)
		}
		from = ends
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrSubscriberClosed
	}
	group := s.cfg.ConsumerGroup
	if group == "" {
		group = anonymousGroupPrefix + watermill.NewULID()
	}
	sub := &subscription{
		cfg:     s.cfg,
		dialer:  s.dialer,
		topic:   topic,
		group:   group,
		durable: s.cfg.ConsumerGroup != "",
		logger:  s.logger.With(watermill.LogFields{"topic": topic, "consumer_group": group}),
		out:     make(chan *message.Message),
		next:    from,
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.closing, cancel)
	s.subs.Add(1)
	go func() {
		defer s.subs.Done()
		defer cancel()
		defer stop()
		sub.run(ctx)
	}()
	return sub.out, nil
}

// ends returns the end offset of every partition of topic: none when the
// topic does not exist yet (all it will hold is new).
func (s *Subscriber) ends(ctx context.Context, topic string) (map[int]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	transport := &kafka.Transport{ClientID: "sealgate"}
	defer transport.CloseIdleConnections()
	client := &kafka.Client{Addr: kafka.TCP(s.cfg.Brokers...), Transport: transport}
	parts, err := topicPartitions(ctx, client, topic)
	if err != nil || len(parts) == 0 {
		return map[int]int64{}, err
	}
	bounds, err := partitionBounds(ctx, client, topic, parts)
	if err != nil {
		return nil, err
	}
	out := make(map[int]int64, len(bounds))
	for p, b := range bounds {
		out[p] = b[1]
	}
	return out, nil
}

// Close ends every subscription, closes their channels and returns once all
// their goroutines have exited. Messages delivered but not acked are not
// committed and will be delivered again. Close is idempotent.
func (s *Subscriber) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.subs.Wait()
	return nil
}

// subscription is one Subscribe call: a consumer group member of one topic.
type subscription struct {
	cfg    SubscriberConfig
	dialer *kafka.Dialer
	topic  string
	group  string
	// durable is false for a subscription without a consumer group: its
	// generated group is never joined again, so committing is wasted work.
	durable bool
	logger  watermill.LoggerAdapter
	out     chan *message.Message

	// next, for a StartAtEnd subscription (nil otherwise), is per
	// partition the offset to read from: the end read by Subscribe, then
	// past each message acked. Partitions are consumed concurrently.
	mu   sync.Mutex
	next map[int]int64
	// owner holds, per partition, a token taken by the one worker
	// consuming it: a worker of an ended generation (kafka-go runs one
	// started on a generation that had already ended untracked) may still
	// hold a message while the next generation's worker of the same
	// partition starts, which would read from an offset the old one has
	// not moved past yet and deliver the message twice.
	owner map[int]chan struct{}
}

// own takes partition p for the caller until release is called; false
// when ctx ends first.
func (sub *subscription) own(ctx context.Context, p int) (release func(), ok bool) {
	sub.mu.Lock()
	if sub.owner == nil {
		sub.owner = map[int]chan struct{}{}
	}
	tok := sub.owner[p]
	if tok == nil {
		tok = make(chan struct{}, 1)
		sub.owner[p] = tok
	}
	sub.mu.Unlock()
	select {
	case tok <- struct{}{}:
		return func() { <-tok }, true
	case <-ctx.Done():
		return nil, false
	}
}

// startOffset is where the subscription reads partition p of a new
// generation: where it left off (a StartAtEnd subscription), else the
// group's offset.
func (sub *subscription) startOffset(pa kafka.PartitionAssignment) int64 {
	if sub.next == nil {
		return pa.Offset
	}
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if off, ok := sub.next[pa.ID]; ok {
		return off
	}
	return kafka.FirstOffset
}

// delivered records that partition p's message at offset was acked.
func (sub *subscription) delivered(p int, offset int64) {
	if sub.next == nil {
		return
	}
	sub.mu.Lock()
	sub.next[p] = offset + 1
	sub.mu.Unlock()
}

// run consumes until ctx is done, then closes out. It waits for the topic,
// joins the group and, for every generation of the group, consumes each
// assigned partition in a goroutine of its own.
func (sub *subscription) run(ctx context.Context) {
	defer close(sub.out)
	n, ok := sub.awaitTopic(ctx)
	if !ok {
		return
	}
	// partitions is the topic's partition count as last seen. Only the
	// watcher of the current generation writes it, and the group hands out
	// the next generation only after every worker of the last one returned;
	// the atomic spares the race detector that reasoning.
	var partitions atomic.Int64
	partitions.Store(int64(n))
	group, err := kafka.NewConsumerGroup(kafka.ConsumerGroupConfig{
		ID:                sub.group,
		Brokers:           sub.cfg.Brokers,
		Dialer:            sub.dialer,
		Topics:            []string{sub.topic},
		HeartbeatInterval: sub.cfg.HeartbeatInterval,
		SessionTimeout:    sub.cfg.SessionTimeout,
		StartOffset:       kafka.FirstOffset,
		ErrorLogger:       errorLogger(sub.logger, nil),
	})
	if err != nil {
		// The configuration was validated by NewSubscriber; this is a bug.
		sub.logger.Error("Cannot create consumer group", err, nil)
		return
	}
	// workers counts the goroutines started through Generation.Start: the
	// generation waits for them itself, except for those started on a
	// generation that had already ended, which kafka-go runs untracked.
	var workers sync.WaitGroup
	defer func() {
		// Closing the group ends the current generation, which stops the
		// workers; only then is nobody left to send on out.
		if err := group.Close(); err != nil {
			sub.logger.Error("Cannot close consumer group", err, nil)
		}
		workers.Wait()
	}()
	for {
		gen, err := group.Next(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, kafka.ErrGroupClosed) {
				return
			}
			// kafka-go backs off before it tries to join again.
			sub.logger.Error("Cannot join consumer group", err, nil)
			continue
		}
		sub.logger.Debug("Joined consumer group", watermill.LogFields{
			"generation": gen.ID, "partitions": len(gen.Assignments[sub.topic]),
		})
		// A worker runs until the subscription or the generation ends.
		start := func(fn func(workCtx context.Context)) {
			workers.Add(1)
			gen.Start(func(genCtx context.Context) {
				defer workers.Done()
				workCtx, cancel := context.WithCancel(ctx)
				defer cancel()
				stop := context.AfterFunc(genCtx, cancel)
				defer stop()
				fn(workCtx)
			})
		}
		start(func(workCtx context.Context) { sub.watchPartitions(workCtx, &partitions) })
		var commit commitFunc
		if sub.durable {
			c := &committer{gen: gen, topic: sub.topic, reqs: make(chan commitRequest)}
			start(c.run)
			commit = c.commit
		}
		for _, pa := range gen.Assignments[sub.topic] {
			start(func(workCtx context.Context) {
				a := Assignment{Topic: sub.topic, Partition: pa.ID, Generation: gen.ID, Revoked: workCtx.Done()}
				sub.consumePartition(ctx, context.WithValue(workCtx, assignmentKey{}, a), commit, pa)
			})
		}
	}
}

// awaitTopic returns the partition count of the topic once it exists, and
// false if ctx ends first. A group joined before the topic exists would get
// no partitions and keep none.
func (sub *subscription) awaitTopic(ctx context.Context) (int, bool) {
	ticker := time.NewTicker(sub.cfg.PartitionWatchInterval)
	defer ticker.Stop()
	for {
		n, err := sub.partitionCount(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			sub.logger.Error("Cannot look up topic", err, nil)
		case n > 0:
			return n, true
		default:
			sub.logger.Info("Waiting for topic to be created", nil)
		}
		select {
		case <-ctx.Done():
			return 0, false
		case <-ticker.C:
		}
	}
}

// watchPartitions returns, ending the generation so that the group
// rebalances, once the topic's partition count differs from known, which it
// then updates.
func (sub *subscription) watchPartitions(ctx context.Context, known *atomic.Int64) {
	ticker := time.NewTicker(sub.cfg.PartitionWatchInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		n, err := sub.partitionCount(ctx)
		switch {
		case err != nil:
			if ctx.Err() == nil {
				sub.logger.Error("Cannot look up partitions", err, nil)
			}
		case int64(n) != known.Load():
			sub.logger.Info("Partition count changed, rebalancing", watermill.LogFields{"was": known.Load(), "now": n})
			known.Store(int64(n))
			return
		}
	}
}

func (sub *subscription) partitionCount(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	return partitionCount(ctx, sub.dialer, sub.cfg.Brokers, sub.topic)
}

// consumePartition delivers the records of one assigned partition, one at a
// time (each message's context carries the Assignment), until ctx is done (the subscription or the generation ended) or the
// partition cannot be read; returning ends the generation, and the group
// then rebalances and resumes from the committed offsets.
func (sub *subscription) consumePartition(subCtx, ctx context.Context, commit commitFunc, pa kafka.PartitionAssignment) {
	logger := sub.logger.With(watermill.LogFields{"partition": pa.ID})
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:         sub.cfg.Brokers,
		Dialer:          sub.dialer,
		Topic:           sub.topic,
		Partition:       pa.ID,
		MinBytes:        sub.cfg.MinBytes,
		MaxBytes:        sub.cfg.MaxBytes,
		MaxWait:         sub.cfg.MaxWait,
		ReadLagInterval: -1, // no lag-reporting goroutine
		ErrorLogger:     errorLogger(logger, nil),
	})
	defer func() {
		if err := r.Close(); err != nil {
			logger.Error("Cannot close partition reader", err, nil)
		}
	}()
	release, ok := sub.own(ctx, pa.ID)
	if !ok {
		return
	}
	defer release()
	start := sub.startOffset(pa)
	if err := r.SetOffset(start); err != nil {
		logger.Error("Cannot set partition offset", err, watermill.LogFields{"offset": start})
		return
	}
	for {
		rec, err := r.FetchMessage(ctx)
		if err != nil {
			if ctx.Err() == nil {
				logger.Error("Cannot fetch from partition", err, nil)
			}
			return
		}
		if !sub.deliver(subCtx, ctx, commit, rec, logger) {
			return
		}
	}
}

// deliver sends rec on out until a handler acks it, then commits its offset
// unless commit is nil. Each Nack delivers it again, as a new message, after
// NackResendSleep. It reports whether the partition's next record may follow.
func (sub *subscription) deliver(subCtx, ctx context.Context, commit commitFunc, rec kafka.Message, logger watermill.LoggerAdapter) bool {
	for {
		if ctx.Err() != nil {
			return false // ended: select below would pick at random
		}
		msg := fromKafka(rec)
		msgCtx, cancelMsg := context.WithCancel(ctx)
		msg.SetContext(msgCtx)
		select {
		case sub.out <- msg:
		case <-ctx.Done():
			cancelMsg()
			return false
		}
		select {
		case <-msg.Acked():
			cancelMsg()
			sub.delivered(rec.Partition, rec.Offset)
			if commit == nil {
				return true
			}
			if err := commit(ctx, rec.Partition, rec.Offset+1); err != nil {
				// Typically the generation ended; the partition's next
				// owner starts again from the last committed offset.
				logger.Error("Cannot commit offset", err, watermill.LogFields{"offset": rec.Offset})
				return false
			}
			return true
		case <-msg.Nacked():
			cancelMsg()
			if !sleep(ctx, sub.cfg.NackResendSleep) {
				return false
			}
		case <-ctx.Done():
			// The generation ended while a handler holds the message:
			// cancel its context and wait for it to let go, so that the
			// partition's next owner never works on a record this one is
			// still working on. (A closed subscription has no next owner to
			// protect: it returns at once.)
			cancelMsg()
			if subCtx.Err() != nil {
				return false
			}
			t := time.NewTimer(handlerDrainTimeout)
			defer t.Stop()
			select {
			case <-msg.Acked():
				// Acked, but too late to commit: a StartAtEnd
				// subscription still reads on past it in the next
				// generation (a group's next owner reads it again, from
				// the committed offset: at least once).
				sub.delivered(rec.Partition, rec.Offset)
			case <-msg.Nacked():
			case <-t.C:
				logger.Error("A handler kept a message past the end of its generation", nil, watermill.LogFields{"offset": rec.Offset})
			}
			return false
		}
	}
}

// handlerDrainTimeout bounds the wait for a handler to give back a message
// whose generation ended (below the group's rebalance timeout).
const handlerDrainTimeout = 20 * time.Second

// commitFunc commits offset as the next offset of partition to read.
type commitFunc func(ctx context.Context, partition int, offset int64) error

// committer commits the acked offsets of one generation. kafka-go's Conn
// busy-waits while several goroutines wait for responses on it, so rather
// than each partition committing on the generation's connection, they hand
// their offsets to this one goroutine, which folds the offsets acked
// meanwhile into a single request.
type committer struct {
	gen   *kafka.Generation
	topic string
	reqs  chan commitRequest
}

type commitRequest struct {
	partition int
	offset    int64
	done      chan error // buffered: run never blocks on a gone caller
}

func (c *committer) run(ctx context.Context) {
	for {
		var batch []commitRequest
		select {
		case <-ctx.Done():
			return
		case r := <-c.reqs:
			batch = append(batch, r)
		}
	more:
		for {
			select {
			case r := <-c.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		// Each partition waits for its commit before the next, so it
		// appears at most once in a batch.
		offsets := make(map[int]int64, len(batch))
		for _, r := range batch {
			offsets[r.partition] = r.offset
		}
		err := c.gen.CommitOffsets(map[string]map[int]int64{c.topic: offsets})
		for _, r := range batch {
			r.done <- err
		}
	}
}

func (c *committer) commit(ctx context.Context, partition int, offset int64) error {
	r := commitRequest{partition: partition, offset: offset, done: make(chan error, 1)}
	select {
	case c.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sleep waits for d and reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
