package guard

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// A run's admission state depends on the run's own records and on the
// ledger-wide ones (revocation epochs) only, so admission is sharded by
// partition: both topics are keyed by run id with the same partitioner
// and partition count, so a run's proposals and records share one
// partition number p, and the guard shard holding proposals partition p
// (a member of the guard's consumer group) is the single writer of
// records partition p. It rebuilds p's state from records partition p
// alone, and drops it when the partition moves to another member.
//
// Records that name no run are ledger-wide: they are keyed by
// LedgerWideKey, so they all live on one partition, the ledger-wide
// partition, whose shard admits them like any other. Every shard follows
// that partition of the records topic and refuses, without writing, the
// proposals of keys and runs that an admitted revocation epoch revoked.

// CodeMisrouted is the reason a shard gives for a message on a partition
// that is not its run's: a proposal it does not admit, a stored record it
// does not replay.
const CodeMisrouted = "misrouted"

// LedgerWideKey is the partition key of records that name no run.
const LedgerWideKey = "sealgate/ledger-wide"

// PartitionKey is the partition key of the records of runID on both
// topics: the run id, or LedgerWideKey.
func PartitionKey(runID string) string {
	if runID == "" {
		return LedgerWideKey
	}
	return runID
}

// MessageKey keys a message of either of the ledger's topics by
// PartitionKey of its run id metadata: the partition key function of every
// publisher to the ledger's topics (kafka.PublisherConfig.PartitionKey).
// A message of any other topic is keyed as Kafka's default does — by its
// run id metadata when it has one, by its UUID otherwise — so that a topic
// whose messages carry no run id (the work topic) is spread over its
// partitions, not piled on the one the ledger-wide key hashes to.
func MessageKey(topic string, msg *message.Message) []byte {
	runID := msg.Metadata.Get(ledger.MetaRunID)
	if topic == ledger.Topic || topic == ProposalTopic {
		return []byte(PartitionKey(runID))
	}
	if runID != "" {
		return []byte(runID)
	}
	return []byte(msg.UUID)
}

// Partitions is what a sharded guard needs of the transport: the topics'
// shared partition count, their partitioner, which partition a proposal
// came from, and the records topic read one partition at a time
// (kafka.Partitioning).
type Partitions interface {
	// Count returns the partition count both topics share; an error when
	// they differ or one is missing.
	Count(ctx context.Context) (int, error)
	// Of is the partition of key on topics of n partitions.
	Of(key string, n int) int
	// Assigned returns the proposals partition msg came from and a
	// channel closed when this member's hold on it ends.
	Assigned(msg *message.Message) (partition int, revoked <-chan struct{}, ok bool)
	// Read reads one records partition as stored now.
	Read(ctx context.Context, partition int, fn func(*message.Message) error) error
	// Follow reads one records partition and follows it until ctx ends.
	Follow(ctx context.Context, partition int, fn func(*message.Message) error) error
}

// Shards admits proposals partition by partition; several processes
// running it under one consumer group share the partitions.
type Shards struct {
	Trust    *authority.Trust
	Verifier *admission.Verifier
	// Signer signs refusals (the ledger identity); Key signs admissions.
	Signer *record.Signer
	Key    ed25519.PrivateKey
	// Pub writes the records topic, keyed by MessageKey.
	Pub message.Publisher
	// Sub delivers proposals under the guard's consumer group.
	Sub        message.Subscriber
	Partitions Partitions
	// Refuse receives what a rebuild skipped and the proposals refused
	// without a record (misrouted, revoked); nil is silent.
	Refuse func(error)
	// Logf reports rebuilds and refusals; nil is silent.
	Logf func(format string, args ...any)
	// Ready is called once the subscription is live.
	Ready func()

	// count is the topics' partition count when Run started.
	count  int
	mu     sync.Mutex
	shards map[int]*shard
	revs   revocations
	stats  counters
}

// shard is the admission state of one partition under one assignment.
type shard struct {
	partition, count int
	app              *ledger.Appender
	revoked          <-chan struct{}
}

type counters struct {
	admitted, refused, duplicates, misrouted, revokedDropped, rebuilds, replayed atomic.Uint64
}

// Stats are a sharded guard's counts since it started.
type Stats struct {
	// Admitted and Refused count the records and signed refusals written;
	// Duplicates the proposals dropped as already admitted.
	Admitted, Refused, Duplicates uint64
	// Misrouted counts proposals dropped because they came on a partition
	// that is not their run's; Revoked those of a revoked key or run.
	Misrouted, Revoked uint64
	// Rebuilds counts partition states rebuilt, Replayed the records they
	// replayed.
	Rebuilds, Replayed uint64
	// Epoch is the last revocation epoch applied.
	Epoch uint64
	// Partitions are the partitions whose state is held now, sorted.
	Partitions []int
}

// Stats returns the guard's counts.
func (s *Shards) Stats() Stats {
	s.mu.Lock()
	parts := make([]int, 0, len(s.shards))
	for p := range s.shards {
		parts = append(parts, p)
	}
	s.mu.Unlock()
	slices.Sort(parts)
	return Stats{
		Admitted: s.stats.admitted.Load(), Refused: s.stats.refused.Load(), Duplicates: s.stats.duplicates.Load(),
		Misrouted: s.stats.misrouted.Load(), Revoked: s.stats.revokedDropped.Load(),
		Rebuilds: s.stats.rebuilds.Load(), Replayed: s.stats.replayed.Load(),
		Epoch: s.revs.epoch.Load(), Partitions: parts,
	}
}

func (s *Shards) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

func (s *Shards) refuse(err error) {
	if s.Refuse != nil {
		s.Refuse(err)
	}
}

// Run admits proposals until ctx ends. It checks first that the topics
// are partitioned alike, then follows the ledger-wide partition for
// revocations while it admits. A proposal is acknowledged only after its
// record (or its refusal) is durably on its records partition.
func (s *Shards) Run(ctx context.Context) error {
	if s.Trust == nil || s.Verifier == nil || s.Signer == nil || s.Key == nil || s.Pub == nil || s.Sub == nil || s.Partitions == nil {
		return errors.New("guard: shards need a trust policy, a verifier, a signer, a key, a publisher, a subscriber and the partitions")
	}
	if _, err := NewStamper(s.Pub, s.Key, nil, s.Verifier); err != nil {
		return err
	}
	n, err := s.Partitions.Count(ctx)
	if err != nil {
		return fmt.Errorf("guard: %w", err)
	}
	wide := s.Partitions.Of(LedgerWideKey, n)
	s.mu.Lock()
	s.shards = map[int]*shard{}
	s.mu.Unlock()
	s.count = n
	s.revs.init(s.Trust, s.Verifier)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	followErr := make(chan error, 1)
	wg.Go(func() {
		err := s.Partitions.Follow(ctx, wide, func(m *message.Message) error { s.revs.apply(m, s.logf); return nil })
		if err != nil {
			followErr <- err
			cancel()
		}
	})
	err = s.consume(ctx, wide, &wg)
	select {
	case ferr := <-followErr:
		return fmt.Errorf("guard: following the ledger-wide partition %d for revocations: %w", wide, ferr)
	default:
	}
	if err != nil {
		return fmt.Errorf("guard: %w", err)
	}
	return nil
}

// retryPause is the wait after a failed handling before the partition's
// next proposal (a failing broker is not hammered).
const retryPause = time.Second

// fatalError ends the guard: nothing later can be handled right.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

// consume subscribes to the proposals and handles each partition's in a
// goroutine of its own — the partitions' states are independent, so a
// process holding several admits them in parallel (the subscriber
// delivers a partition's next proposal only once the last is settled).
// A proposal is acknowledged when its handling succeeded, and sent back
// otherwise: when the guard stops or the partition moved at once, after a
// pause when the handling failed. It returns when ctx ends or the
// subscription closes (nil), or on a fatal error.
func (s *Shards) consume(ctx context.Context, wide int, wg *sync.WaitGroup) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs, err := s.Sub.Subscribe(ctx, ProposalTopic)
	if err != nil {
		return fmt.Errorf("subscribe to %s: %w", ProposalTopic, err)
	}
	if s.Ready != nil {
		s.Ready()
	}
	fatal := make(chan error, 1)
	workers := map[int]chan *message.Message{}
	var running sync.WaitGroup
	defer func() {
		cancel()
		for _, ch := range workers {
			close(ch)
		}
		running.Wait()
	}()
	for {
		select {
		case <-ctx.Done():
			select {
			case err := <-fatal:
				return err
			default:
				return nil
			}
		case msg, ok := <-msgs:
			if !ok {
				return nil
			}
			p, _, ok := s.Partitions.Assigned(msg)
			if !ok {
				msg.Nack()
				return fmt.Errorf("proposal %s came without its partition: the subscriber is not a partitioned one", msg.UUID)
			}
			ch := workers[p]
			if ch == nil {
				ch = make(chan *message.Message, 1)
				workers[p] = ch
				running.Go(func() {
					for m := range ch {
						if err := s.settle(ctx, m, wide, wg); err != nil {
							select {
							case fatal <- err:
							default:
							}
							cancel()
						}
					}
				})
			}
			select {
			case ch <- msg:
			case <-ctx.Done():
				msg.Nack()
			}
		}
	}
}

// settle handles one proposal and acknowledges it or sends it back; it
// returns only a fatal error.
func (s *Shards) settle(ctx context.Context, msg *message.Message, wide int, wg *sync.WaitGroup) error {
	if ctx.Err() != nil {
		msg.Nack()
		return nil
	}
	hctx, cancel := context.WithCancel(ctx)
	unhook := context.AfterFunc(msg.Context(), cancel)
	err := s.handle(ctx, hctx, msg, wide, wg)
	unhook()
	cancel()
	var fatal *fatalError
	switch {
	case err == nil:
		msg.Ack()
	case ctx.Err() != nil || msg.Context().Err() != nil:
		// Stopping, or the partition moved: whoever holds it next
		// handles the proposal.
		msg.Nack()
	case errors.As(err, &fatal):
		msg.Nack()
		return fatal.err
	default:
		s.logf("proposal %s not settled; it will be delivered again in %s: %v", msg.UUID, retryPause, err)
		msg.Nack()
		t := time.NewTimer(retryPause)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
	return nil
}

// handle admits one proposal; runCtx is Run's, ctx the message's.
func (s *Shards) handle(runCtx, ctx context.Context, msg *message.Message, wide int, wg *sync.WaitGroup) error {
	p, revoked, ok := s.Partitions.Assigned(msg)
	if !ok {
		return &fatalError{fmt.Errorf("proposal %s came without its partition: the subscriber is not a partitioned one", msg.UUID)}
	}
	sh, err := s.shard(runCtx, ctx, p, revoked, wg)
	if err != nil {
		// Not acknowledged: delivered again, after the pause.
		return err
	}
	rec, derr := record.Decode(msg.Payload)
	runID := ""
	if derr == nil {
		runID = rec.Record.GetRunId()
	}
	if want := s.Partitions.Of(PartitionKey(runID), sh.count); want != p {
		// Written past the partitioner: admitting it here would put the
		// run's records in a chain another shard writes.
		s.stats.misrouted.Add(1)
		s.refuse(&admission.Refusal{Code: CodeMisrouted, Detail: fmt.Sprintf("proposal %s of run %q came on partition %d, but the run's partition is %d: not admitted", msg.UUID, runID, p, want)})
		return nil
	}
	if derr == nil && p != wide {
		// The ledger-wide partition's own state holds the epochs.
		if code, why := s.revs.check(rec); code != "" {
			s.stats.revokedDropped.Add(1)
			s.refuse(&admission.Refusal{Code: code, Detail: fmt.Sprintf("proposal %s: %s: not admitted", msg.UUID, why)})
			return nil
		}
	}
	ds, err := sh.app.AppendRaw(ledger.ExtractTrace(ctx, msg.Metadata), msg.Payload)
	if errors.Is(err, context.Canceled) {
		return err
	}
	if err != nil {
		// The partition's state may hold what the topic does not: drop
		// it; the proposal comes again and finds it rebuilt.
		s.drop(p, sh)
		return fmt.Errorf("partition %d: %w (its state is rebuilt from the topic)", p, err)
	}
	for _, d := range ds {
		switch d.Outcome {
		case authority.Accepted:
			s.stats.admitted.Add(1)
		case authority.Duplicate:
			s.stats.duplicates.Add(1)
		case authority.Refused:
			s.stats.refused.Add(1)
			s.logf("partition %d: refused %s: %s (%s)", p, msg.UUID, d.Code, d.Detail)
		}
	}
	return nil
}

// shard returns partition p's state under the assignment revoked names,
// rebuilding it from records partition p when it is not held yet.
func (s *Shards) shard(runCtx, ctx context.Context, p int, revoked <-chan struct{}, wg *sync.WaitGroup) (*shard, error) {
	s.mu.Lock()
	sh := s.shards[p]
	s.mu.Unlock()
	if sh != nil && sh.revoked == revoked {
		return sh, nil
	}
	n, err := s.Partitions.Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("partition %d: %w", p, err)
	}
	if n != s.count {
		// The partitioner now sends runs elsewhere: the chains written so
		// far are on the partitions of the old count.
		return nil, &fatalError{fmt.Errorf("the topics had %d partitions when the guard started and have %d now: a run's records would change partitions; restore the partition count", s.count, n)}
	}
	state := authority.New(s.Trust)
	read := func(ctx context.Context, fn func(*message.Message) error) error {
		return s.Partitions.Read(ctx, p, func(m *message.Message) error {
			if rec, err := record.Decode(m.Payload); err == nil {
				if want := s.Partitions.Of(PartitionKey(rec.Record.GetRunId()), n); want != p {
					// A copy written past the partitioner: not this
					// partition's, whatever admission it carries.
					s.refuse(&admission.Refusal{Code: CodeMisrouted, Detail: fmt.Sprintf("partition %d: message %q of run %q belongs on partition %d", p, m.UUID, rec.Record.GetRunId(), want)})
					return nil
				}
			}
			return fn(m)
		})
	}
	heads, replayed, err := Rebuild(ctx, state, s.Verifier, read, s.refuse)
	if err != nil {
		return nil, fmt.Errorf("partition %d: %w", p, err)
	}
	stamper, err := NewStamper(&partitionPub{next: s.Pub, partition: p, count: n, of: s.Partitions.Of}, s.Key, heads, s.Verifier)
	if err != nil {
		return nil, err
	}
	app, err := ledger.NewAppender(stamper, state, s.Signer, nil)
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	sh = &shard{partition: p, count: n, app: app, revoked: revoked}
	s.mu.Lock()
	s.shards[p] = sh
	s.mu.Unlock()
	s.stats.rebuilds.Add(1)
	s.stats.replayed.Add(uint64(replayed))
	s.logf("partition %d: admission state rebuilt from %d admitted records of %d runs", p, replayed, len(heads))
	// The state goes when the partition does.
	wg.Go(func() {
		select {
		case <-revoked:
			s.drop(p, sh)
			s.logf("partition %d: released", p)
		case <-runCtx.Done():
		}
	})
	return sh, nil
}

// drop forgets partition p's state if it is still sh.
func (s *Shards) drop(p int, sh *shard) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shards[p] == sh {
		delete(s.shards, p)
	}
}

// partitionPub refuses to publish a record anywhere but on its shard's
// partition: the partitioner, not the caller, decides where a record
// lands, so this checks that it decides p.
type partitionPub struct {
	next             message.Publisher
	partition, count int
	of               func(key string, n int) int
}

func (pp *partitionPub) Publish(topic string, msgs ...*message.Message) error {
	for _, m := range msgs {
		if got := pp.of(PartitionKey(m.Metadata.Get(ledger.MetaRunID)), pp.count); got != pp.partition {
			return fmt.Errorf("guard: the shard of partition %d would write message %s of run %q to partition %d", pp.partition, m.UUID, m.Metadata.Get(ledger.MetaRunID), got)
		}
	}
	return pp.next.Publish(topic, msgs...)
}

// Close leaves the shared publisher open.
func (pp *partitionPub) Close() error { return nil }

// revocations are the ledger-wide records admitted on the ledger-wide
// partition, replayed in its order: the keys and runs revoked so far.
type revocations struct {
	epoch atomic.Uint64

	mu    sync.Mutex
	v     *admission.Verifier
	state *authority.State
	keys  map[string]bool
	runs  map[string]bool
}

func (r *revocations) init(trust *authority.Trust, v *admission.Verifier) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.v, r.state, r.keys, r.runs = v, authority.New(trust), map[string]bool{}, map[string]bool{}
	r.epoch.Store(0)
}

// apply takes in one message of the ledger-wide partition: admitted
// ledger-wide records only, each through the authority rules.
func (r *revocations) apply(m *message.Message, logf func(string, ...any)) {
	a, err := r.v.Check(m.Metadata.Get(admission.Header), m.Payload)
	if err != nil || a.RunID() != "" {
		return
	}
	raw, err := a.Record.Encoded()
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.state.Admit(raw)
	if d.Outcome != authority.Accepted {
		if d.Outcome == authority.Refused {
			logf("ledger-wide record %.16s… not applied: %s (%s)", a.Record.Digest, d.Code, d.Detail)
		}
		return
	}
	if a.Record.Kind != pb.Kind_KIND_REVOCATION_EPOCH {
		return
	}
	e := a.Record.Record.GetRevocationEpoch()
	for _, k := range e.GetRevokedKeyIds() {
		r.keys[k] = true
	}
	for _, run := range e.GetRevokedRuns() {
		r.runs[run] = true
	}
	r.epoch.Store(e.GetEpoch())
	logf("revocation epoch %d applied: %d keys, %d runs revoked in all", e.GetEpoch(), len(r.keys), len(r.runs))
}

// check returns the reason code and why rec is revoked, or "".
func (r *revocations) check(rec *record.Decoded) (string, string) {
	if r.epoch.Load() == 0 {
		return "", ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.keys[rec.Record.GetProducer().GetKeyId()]:
		return authority.CodeRevokedKey, fmt.Sprintf("key %.16s… is revoked at epoch %d", rec.Record.GetProducer().GetKeyId(), r.epoch.Load())
	case r.runs[rec.Record.GetRunId()]:
		return authority.CodeRevokedRun, fmt.Sprintf("run %s is revoked at epoch %d", rec.Record.GetRunId(), r.epoch.Load())
	}
	return "", ""
}
