package guard_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// shardedPartitions is the partition count of the sharded tests' topics.
const shardedPartitions = 4

// newShardedEnv is newEnv with topics of shardedPartitions partitions and
// a publisher keyed as sealgate serve keys its (guard.MessageKey).
func newShardedEnv(t testing.TB) *env { return newShardedEnvOf(t, shardedPartitions) }

// newShardedEnvOf is newShardedEnv with topics of n partitions.
func newShardedEnvOf(t testing.TB, n int) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e := &env{t: t, ctx: ctx, brokers: c.ListenAddrs(), dir: t.TempDir(), partitions: n}
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if err := kafka.CreateTopic(ctx, e.brokers, topic, n); err != nil {
			t.Fatal(err)
		}
	}
	if e.keys, err = keyring.LoadOrCreate(e.dir); err != nil {
		t.Fatal(err)
	}
	if e.trust, err = e.keys.Trust(); err != nil {
		t.Fatal(err)
	}
	e.v = admission.NewVerifier(e.trust)
	if e.pub, err = kafka.NewPublisher(kafka.PublisherConfig{Brokers: e.brokers, PartitionKey: guard.MessageKey}, watermill.NopLogger{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.pub.Close() })
	e.builder = scenario.NewBuilder(e.keys, nil)
	return e
}

func (e *env) partitioning() kafka.Partitioning {
	return kafka.Partitioning{Brokers: e.brokers, Proposals: guard.ProposalTopic, Records: ledger.Topic}
}

// partitionOf is the partition of run id's records on both topics.
func (e *env) partitionOf(id string) int {
	return kafka.PartitionOf([]byte(guard.PartitionKey(id)), e.partitions)
}

// runsOn returns a run id of partition p that the test has not used.
func (e *env) runOn(p int, prefix string) string {
	for i := 0; ; i++ {
		id := fmt.Sprintf("%s-%d", prefix, i)
		if e.partitionOf(id) == p {
			return id
		}
	}
}

// shardMember is one guard shard: a member of the guard's consumer group.
type shardMember struct {
	g       *guard.Shards
	refused *refusals
	stop    func() error
}

// startShard starts a guard shard under the consumer group "ledger".
func (e *env) startShard(name string) *shardMember {
	e.t.Helper()
	signer, err := e.keys.Signer(keyring.Ledger)
	if err != nil {
		e.t.Fatal(err)
	}
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: e.brokers, ConsumerGroup: "ledger",
		HeartbeatInterval: 500 * time.Millisecond, SessionTimeout: 6 * time.Second}, watermill.NopLogger{})
	if err != nil {
		e.t.Fatal(err)
	}
	m := &shardMember{refused: &refusals{}}
	m.g = &guard.Shards{Trust: e.trust, Verifier: e.v, Signer: signer, Key: e.key(keyring.Ledger), Pub: e.pub, Sub: sub,
		Partitions: e.partitioning(), Refuse: m.refused.add,
		Logf: func(f string, a ...any) { e.t.Logf(name+": "+f, a...) }}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() { done <- m.g.Run(ctx) }()
	var once sync.Once
	var err2 error
	m.stop = func() error {
		once.Do(func() {
			cancel()
			err2 = <-done
			sub.Close()
		})
		return err2
	}
	e.t.Cleanup(func() { m.stop() })
	return m
}

// awaitCond polls ok until it holds.
func (e *env) awaitCond(what string, ok func() bool) {
	e.t.Helper()
	for !ok() {
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("never: %s", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// partitionsOfRecords returns, for each stored record digest, the
// partitions of the records topic holding it.
func (e *env) partitionsOfRecords() map[string][]int {
	e.t.Helper()
	out := map[string][]int{}
	err := kafka.ReadAll(e.ctx, e.brokers, ledger.Topic, func(p int, _ int64, m *message.Message) error {
		out[m.Metadata.Get(ledger.MetaDigest)] = append(out[m.Metadata.Get(ledger.MetaDigest)], p)
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// Two shards share the partitions: every run's records are admitted whole,
// once each, on its own partition — the proposals' partition — and each
// shard admitted runs of its own partitions only.
func TestShardsAdmitEachPartitionOnItsOwn(t *testing.T) {
	e := newShardedEnv(t)
	a, b := e.startShard("a"), e.startShard("b")
	var runs []*scenario.Run
	// Propose one run per partition until both shards have admitted
	// something: the second member may join after the first took all.
	for i := 0; a.g.Stats().Admitted == 0 || b.g.Stats().Admitted == 0; i++ {
		if e.ctx.Err() != nil {
			t.Fatal("both shards never admitted")
		}
		r := e.run(e.runOn(i%shardedPartitions, fmt.Sprintf("run%d", i)), 2)
		runs = append(runs, r)
		e.propose(r.Records()...)
		e.awaitCond("the run admitted", func() bool { return len(e.chains()[r.ID]) == len(r.Records()) })
	}
	got := e.chains()
	where := e.partitionsOfRecords()
	for _, r := range runs {
		if len(got[r.ID]) != len(r.Records()) {
			t.Fatalf("run %s: %d records admitted, want %d", r.ID, len(got[r.ID]), len(r.Records()))
		}
		for i, rec := range got[r.ID] {
			if rec.Digest != r.Records()[i].Digest {
				t.Fatalf("run %s: record %d is %s, want %s", r.ID, i, record.KindName(rec.Kind), record.KindName(r.Records()[i].Kind))
			}
			if ps := where[rec.Digest]; len(ps) != 1 || ps[0] != e.partitionOf(r.ID) {
				t.Fatalf("run %s: record %d stored on partitions %v, want once on %d", r.ID, i, ps, e.partitionOf(r.ID))
			}
		}
	}
	sa, sb := a.g.Stats(), b.g.Stats()
	if sa.Misrouted+sb.Misrouted+sa.Refused+sb.Refused != 0 {
		t.Fatalf("honest proposals refused or misrouted: %+v %+v", sa, sb)
	}
}

// A shard stopped mid-run hands its partitions to the other, which
// rebuilds each from its records partition only and goes on: every run
// whole, no record admitted twice.
func TestShardMovesAndRebuildsItsPartitionOnly(t *testing.T) {
	e := newShardedEnv(t)
	a := e.startShard("a")
	var runs []*scenario.Run
	for p := range shardedPartitions {
		r := e.run(e.runOn(p, "moved"), 3)
		runs = append(runs, r)
		e.propose(r.Records()[:5]...)
	}
	e.awaitCond("the first halves admitted", func() bool {
		c := e.chains()
		for _, r := range runs {
			if len(c[r.ID]) != 5 {
				return false
			}
		}
		return true
	})
	if got := a.g.Stats().Partitions; len(got) != shardedPartitions {
		t.Fatalf("shard a holds %v, want every partition", got)
	}
	b := e.startShard("b")
	if err := a.stop(); err != nil {
		t.Fatal(err)
	}
	// Proposed again as an at-least-once producer would, then the rest.
	for _, r := range runs {
		e.propose(r.Records()[3:]...)
	}
	e.awaitCond("every run whole", func() bool {
		c := e.chains()
		for _, r := range runs {
			if len(c[r.ID]) != len(r.Records()) {
				return false
			}
		}
		return true
	})
	// Each rebuild read one partition — one run, at most its whole
	// length — never the topic (four runs).
	st := b.g.Stats()
	if st.Rebuilds < shardedPartitions || st.Replayed < 5*shardedPartitions || st.Replayed > st.Rebuilds*uint64(len(runs[0].Records())) {
		t.Fatalf("shard b rebuilt %d partition states from %d records, want each of the %d partitions rebuilt from its own run's records only", st.Rebuilds, st.Replayed, shardedPartitions)
	}
	if st.Duplicates < 2*shardedPartitions {
		t.Fatalf("shard b dropped %d duplicates, want at least %d", st.Duplicates, 2*shardedPartitions)
	}
	for d, ps := range e.partitionsOfRecords() {
		if len(ps) != 1 {
			t.Fatalf("record %.16s stored %d times", d, len(ps))
		}
	}
}

// craftedPublisher writes every message to partition p, past the
// partitioner, as a producer of the attacker's would.
func (e *env) craftedPublisher(p int) *kafka.Publisher {
	e.t.Helper()
	key := e.runOn(p, "key")
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: e.brokers,
		PartitionKey: func(string, *message.Message) []byte { return []byte(key) }}, watermill.NopLogger{})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { pub.Close() })
	return pub
}

// The attack: run R's proposals written to a partition that is not R's
// must not be admitted into that partition's chains, where R's records
// would be written by a shard that does not hold R's state — a second
// writer of R's chain. The honest twin: the same proposals on R's own
// partition are admitted.
func TestMisroutedProposalIsNotAdmitted(t *testing.T) {
	e := newShardedEnv(t)
	g := e.startShard("a")
	r := e.run(e.runOn(0, "target"), 1)
	wrong := (e.partitionOf(r.ID) + 1) % shardedPartitions
	if _, err := (&guard.Proposer{Pub: e.craftedPublisher(wrong)}).Append(e.ctx, r.Records()...); err != nil {
		t.Fatal(err)
	}
	e.awaitCond("the misrouted proposals handled", func() bool { return g.g.Stats().Misrouted == uint64(len(r.Records())) })
	if n := len(e.stored()); n != 0 {
		t.Fatalf("%d messages written for misrouted proposals", n)
	}
	if g.refused.count(guard.CodeMisrouted) != len(r.Records()) {
		t.Fatalf("refused %v, want %d misrouted", g.refused.codes, len(r.Records()))
	}
	e.propose(r.Records()...)
	got := e.await("the honest proposals admitted", func(c map[string][]*record.Decoded) bool { return len(c[r.ID]) == len(r.Records()) })
	for i, rec := range got[r.ID] {
		if rec.Digest != r.Records()[i].Digest {
			t.Fatalf("record %d is %s, want %s", i, record.KindName(rec.Kind), record.KindName(r.Records()[i].Kind))
		}
	}
}

// The attack: an admitted record copied (admission and all) onto another
// records partition. The shard of that partition skips it when it
// rebuilds — it is not that partition's — and still admits the run that
// does live there. Honest twin: the original is replayed where it is.
func TestRebuildSkipsRecordsOfOtherPartitions(t *testing.T) {
	e := newShardedEnv(t)
	g := e.startShard("a")
	r := e.run(e.runOn(1, "copied"), 1)
	e.propose(r.Records()[:3]...)
	e.await("three records", func(c map[string][]*record.Decoded) bool { return len(c[r.ID]) == 3 })
	if err := g.stop(); err != nil {
		t.Fatal(err)
	}
	var copies []*message.Message
	for _, m := range e.stored() {
		copies = append(copies, copyOf(m))
	}
	other := e.run(e.runOn(2, "other"), 1)
	if err := e.craftedPublisher(2).Publish(ledger.Topic, copies...); err != nil {
		t.Fatal(err)
	}
	g = e.startShard("b")
	e.propose(other.Records()...)
	e.propose(r.Records()[3:]...)
	e.await("both runs whole", func(c map[string][]*record.Decoded) bool {
		return len(c[r.ID]) == len(r.Records()) && len(c[other.ID]) == len(other.Records())
	})
	if n := g.refused.count(guard.CodeMisrouted); n != 3 {
		t.Fatalf("%d copies refused as misplaced, want 3 (codes %v)", n, g.refused.codes)
	}
	if st := g.g.Stats(); st.Replayed != 3 {
		t.Fatalf("replayed %d records, want the 3 on the run's own partition", st.Replayed)
	}
}

// A revocation epoch admitted while the shards run reaches every shard:
// afterwards a record signed by the revoked key is refused by the shard of
// any partition — the run's partition need not be the ledger-wide one.
// The honest twin: a record of another, unrevoked key of the same run is
// still admitted.
func TestRevocationReachesEveryShard(t *testing.T) {
	e := newShardedEnv(t)
	a, b := e.startShard("a"), e.startShard("b")
	wide := e.partitionOf("")
	var runs []*scenario.Run
	for p := range shardedPartitions {
		r := e.run(e.runOn(p, "revoked"), 1)
		runs = append(runs, r)
		e.propose(r.Records()[:4]...) // through the plan
	}
	e.awaitCond("the plans admitted", func() bool {
		c := e.chains()
		for _, r := range runs {
			if len(c[r.ID]) != 4 {
				return false
			}
		}
		return true
	})
	exec, err := e.keys.Signer(keyring.Executor)
	if err != nil {
		t.Fatal(err)
	}
	epoch, err := e.builder.Sign(keyring.Authority, &pb.Record{Body: &pb.Record_RevocationEpoch{RevocationEpoch: &pb.RevocationEpoch{
		Epoch: 1, RevokedKeyIds: []string{exec.KeyID()}}}})
	if err != nil {
		t.Fatal(err)
	}
	e.propose(epoch)
	e.awaitCond("every shard applied epoch 1", func() bool { return a.g.Stats().Epoch == 1 && b.g.Stats().Epoch == 1 })
	if ps := e.partitionsOfRecords()[epoch.Digest]; len(ps) != 1 || ps[0] != wide {
		t.Fatalf("the epoch is stored on partitions %v, want once on the ledger-wide partition %d", ps, wide)
	}
	for _, r := range runs {
		e.propose(r.Results...) // signed by the revoked executor key
	}
	// The refusals: a signed one on the ledger-wide partition, where the
	// state holds the epoch; elsewhere the proposal is dropped.
	e.awaitCond("every revoked result refused", func() bool {
		sa, sb := a.g.Stats(), b.g.Stats()
		return sa.Revoked+sb.Revoked+sa.Refused+sb.Refused == shardedPartitions
	})
	if n := a.refused.count("revoked_key") + b.refused.count("revoked_key"); n != shardedPartitions-1 {
		t.Fatalf("refusals coded revoked_key: %d, want %d (%v %v)", n, shardedPartitions-1, a.refused.codes, b.refused.codes)
	}
	if sa, sb := a.g.Stats(), b.g.Stats(); sa.Revoked+sb.Revoked != shardedPartitions-1 {
		t.Fatalf("dropped %d revoked results outside the ledger-wide partition, want %d", sa.Revoked+sb.Revoked, shardedPartitions-1)
	}
	c := e.chains()
	for _, r := range runs {
		for _, rec := range c[r.ID] {
			if rec.Digest == r.Results[0].Digest {
				t.Fatalf("run %s (partition %d): the revoked key's result was admitted", r.ID, e.partitionOf(r.ID))
			}
		}
	}
	// The honest twin: the gateway's key is not revoked.
	fresh := e.run(e.runOn((wide+1)%shardedPartitions, "after"), 1)
	e.propose(fresh.Request)
	e.await("a request after the epoch", func(c map[string][]*record.Decoded) bool { return len(c[fresh.ID]) == 1 })
}

// Topics partitioned differently cannot keep a run's proposals and
// records on one partition number: the guard refuses to start, saying so.
func TestShardsRefuseTopicsPartitionedDifferently(t *testing.T) {
	e := newEnv(t) // 2 partitions each
	if err := kafka.CreateTopic(e.ctx, e.brokers, "other.records", 3); err != nil {
		t.Fatal(err)
	}
	signer, err := e.keys.Signer(keyring.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: e.brokers, ConsumerGroup: "ledger"}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	run := func(p kafka.Partitioning) error {
		g := &guard.Shards{Trust: e.trust, Verifier: e.v, Signer: signer, Key: e.key(keyring.Ledger), Pub: e.pub, Sub: sub, Partitions: p}
		ctx, cancel := context.WithTimeout(e.ctx, 3*time.Second)
		defer cancel()
		return g.Run(ctx)
	}
	err = run(kafka.Partitioning{Brokers: e.brokers, Proposals: guard.ProposalTopic, Records: "other.records"})
	if err == nil || !strings.Contains(err.Error(), "has 2 partitions") || !strings.Contains(err.Error(), "has 3") {
		t.Fatalf("Run over topics of 2 and 3 partitions: %v", err)
	}
	// The honest twin: topics of equal counts start (and stop with ctx).
	if err := run(e.partitioning()); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run over co-partitioned topics: %v", err)
	}
}

// flakyReads is the kafka partitioning whose first reads of a records
// partition fail, as when the partition's leader is not reachable yet.
type flakyReads struct {
	kafka.Partitioning
	mu    sync.Mutex
	fails int
	reads int
}

func (f *flakyReads) Read(ctx context.Context, p int, fn func(*message.Message) error) error {
	f.mu.Lock()
	f.reads++
	fail := f.fails > 0
	if fail {
		f.fails--
	}
	f.mu.Unlock()
	if fail {
		return errors.New("the partition's leader does not answer")
	}
	return f.Partitioning.Read(ctx, p, fn)
}

// A proposal whose partition's state cannot be rebuilt is not acknowledged
// (nor admitted on a state that does not hold the partition's records):
// it comes back, and once the rebuild succeeds it is admitted, once.
func TestProposalWaitsForItsPartitionsRebuild(t *testing.T) {
	e := newShardedEnv(t)
	r := e.run(e.runOn(3, "waits"), 1)
	e.propose(r.Records()[:2]...)
	first := e.startShard("a")
	e.await("two records", func(c map[string][]*record.Decoded) bool { return len(c[r.ID]) == 2 })
	if err := first.stop(); err != nil {
		t.Fatal(err)
	}
	// The rest proposed, the first two again (at-least-once), to a shard
	// whose first two rebuilds fail.
	e.propose(r.Records()...)
	flaky := &flakyReads{Partitioning: e.partitioning(), fails: 2}
	signer, err := e.keys.Signer(keyring.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: e.brokers, ConsumerGroup: "ledger"}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	g := &guard.Shards{Trust: e.trust, Verifier: e.v, Signer: signer, Key: e.key(keyring.Ledger), Pub: e.pub, Sub: sub, Partitions: flaky}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx) }()
	got := e.await("the run whole", func(c map[string][]*record.Decoded) bool { return len(c[r.ID]) == len(r.Records()) })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	flaky.mu.Lock()
	defer flaky.mu.Unlock()
	if flaky.fails != 0 || flaky.reads != 3 {
		t.Fatalf("%d reads, %d failures left: want the two failed rebuilds and one that held", flaky.reads, flaky.fails)
	}
	for i, rec := range got[r.ID] {
		if rec.Digest != r.Records()[i].Digest {
			t.Fatalf("record %d is %s, want %s", i, record.KindName(rec.Kind), record.KindName(r.Records()[i].Kind))
		}
	}
	for d, ps := range e.partitionsOfRecords() {
		if len(ps) != 1 {
			t.Fatalf("record %.16s stored %d times", d, len(ps))
		}
	}
	if st := g.Stats(); st.Admitted != uint64(len(r.Records())-2) || st.Duplicates != 2 {
		t.Fatalf("admitted %d and dropped %d duplicates, want %d and 2", st.Admitted, st.Duplicates, len(r.Records())-2)
	}
}

// The key function of sealgate serve's one publisher keys the ledger's
// topics by run (ledger-wide records together) and leaves every other
// topic to Kafka's default: the work items of one run, which carry no run
// id, must spread over the work topic's partitions — piled on the
// ledger-wide key's partition, one replica's lane would take every job.
func TestMessageKeyByTopic(t *testing.T) {
	withRun := message.NewMessage("m1", nil)
	withRun.Metadata.Set(ledger.MetaRunID, "run-1")
	bare := message.NewMessage("m2", nil)
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if got := string(guard.MessageKey(topic, withRun)); got != "run-1" {
			t.Errorf("%s: a record of run-1 keyed %q", topic, got)
		}
		if got := string(guard.MessageKey(topic, bare)); got != guard.LedgerWideKey {
			t.Errorf("%s: a ledger-wide record keyed %q, want %q", topic, got, guard.LedgerWideKey)
		}
	}
	const workTopic, partitions = "sealgate.work.v1", 32
	if got := string(guard.MessageKey(workTopic, withRun)); got != "run-1" {
		t.Errorf("work topic: a message with a run id keyed %q", got)
	}
	seen := map[int]bool{}
	for i := range 46 {
		m := message.NewMessage(fmt.Sprintf("run-1/claim-%03d-patch", i), nil)
		seen[kafka.PartitionOf(guard.MessageKey(workTopic, m), partitions)] = true
	}
	if len(seen) < partitions/2 {
		t.Errorf("46 work items of one run fell on %d of %d partitions", len(seen), partitions)
	}
}
