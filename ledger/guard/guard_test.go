package guard_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// env is an in-process Kafka broker (kfake) with the ledger's topics, a
// key ring and its trust policy.
type env struct {
	t       testing.TB
	ctx     context.Context
	brokers []string
	dir     string
	keys    *keyring.Keyring
	trust   *authority.Trust
	v       *admission.Verifier
	pub     *kafka.Publisher
	builder *scenario.Builder
	// partitions is the topics' partition count (sharded tests).
	partitions int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e := &env{t: t, ctx: ctx, brokers: c.ListenAddrs(), dir: t.TempDir()}
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if err := kafka.CreateTopic(ctx, e.brokers, topic, 2); err != nil {
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
	if e.pub, err = kafka.NewPublisher(kafka.PublisherConfig{Brokers: e.brokers}, watermill.NopLogger{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.pub.Close() })
	e.builder = scenario.NewBuilder(e.keys, nil)
	return e
}

func (e *env) run(id string, jobs int) *scenario.Run {
	e.t.Helper()
	r, err := e.builder.NewRun(id, jobs)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func (e *env) key(identity string) ed25519.PrivateKey {
	e.t.Helper()
	k, err := keyring.ReadKey(filepath.Join(e.dir, keyring.FileName(identity)))
	if err != nil {
		e.t.Fatal(err)
	}
	return k
}

func (e *env) reader(topic string) guard.ReadFunc {
	return func(ctx context.Context, fn func(*message.Message) error) error {
		return kafka.ReadAll(ctx, e.brokers, topic, func(_ int, _ int64, m *message.Message) error { return fn(m) })
	}
}

// refusals collects what a reader refused.
type refusals struct {
	mu    sync.Mutex
	codes []string
}

func (r *refusals) add(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.codes = append(r.codes, admission.CodeOf(err))
}

func (r *refusals) count(code string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.codes {
		if c == code {
			n++
		}
	}
	return n
}

func (r *refusals) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.codes)
}

// startGuard rebuilds a guard from the records topic, as `sealgate serve
// ledger` does, and runs it until the returned stop is called.
func (e *env) startGuard() (stop func(), refused *refusals, replayed int) {
	e.t.Helper()
	refused = &refusals{}
	st := authority.New(e.trust)
	heads, n, err := guard.Rebuild(e.ctx, st, e.v, e.reader(ledger.Topic), refused.add)
	if err != nil {
		e.t.Fatal(err)
	}
	stamper, err := guard.NewStamper(e.pub, e.key(keyring.Ledger), heads, e.v)
	if err != nil {
		e.t.Fatal(err)
	}
	signer, err := e.keys.Signer(keyring.Ledger)
	if err != nil {
		e.t.Fatal(err)
	}
	app, err := ledger.NewAppender(stamper, st, signer, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: e.brokers, ConsumerGroup: "ledger"}, watermill.NopLogger{})
	if err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() { done <- (&guard.Guard{Appender: app, Sub: sub}).Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("guard: %v", err)
		}
		sub.Close()
	}, refused, n
}

func (e *env) propose(recs ...*record.Decoded) {
	e.t.Helper()
	if _, err := (&guard.Proposer{Pub: e.pub}).Append(e.ctx, recs...); err != nil {
		e.t.Fatal(err)
	}
}

// inject writes msgs straight to the records topic, as an attacker with
// access to it would.
func (e *env) inject(msgs ...*message.Message) {
	e.t.Helper()
	if err := e.pub.Publish(ledger.Topic, msgs...); err != nil {
		e.t.Fatal(err)
	}
}

// stored returns every message of the records topic.
func (e *env) stored() []*message.Message {
	e.t.Helper()
	var out []*message.Message
	if err := e.reader(ledger.Topic)(e.ctx, func(m *message.Message) error {
		out = append(out, m)
		return nil
	}); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// chains reads the records topic through admissions and returns each
// run's records in chain order, failing on anything not admitted or out
// of place.
func (e *env) chains() map[string][]*record.Decoded {
	e.t.Helper()
	cs := admission.NewChains()
	out := map[string][]*record.Decoded{}
	for _, m := range e.stored() {
		a, err := e.v.Check(m.Metadata.Get(admission.Header), m.Payload)
		if err != nil {
			continue
		}
		placed, err := cs.Add(a)
		if err != nil {
			e.t.Fatalf("records topic: %v", err)
		}
		for _, p := range placed {
			out[p.RunID()] = append(out[p.RunID()], p.Record)
		}
	}
	if w := cs.Waiting(); len(w) > 0 {
		e.t.Fatalf("records topic: %d admitted records wait for missing places", len(w))
	}
	return out
}

// await polls the admitted chains until ok holds.
func (e *env) await(what string, ok func(map[string][]*record.Decoded) bool) map[string][]*record.Decoded {
	e.t.Helper()
	for {
		c := e.chains()
		if ok(c) {
			return c
		}
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("never: %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func msgOf(t testing.TB, r *record.Decoded) *message.Message {
	t.Helper()
	m, err := ledger.Message(r)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// copyOf returns a copy of m with everything it carries, as an attacker
// (or an at-least-once producer) writes it again.
func copyOf(m *message.Message) *message.Message {
	c := message.NewMessage(m.UUID, m.Payload)
	for k, v := range m.Metadata {
		c.Metadata.Set(k, v)
	}
	return c
}

// forgedResult answers the run's first job, as the executor, with a key
// nobody trusts.
func forgedResult(t *testing.T, run *scenario.Run) *record.Decoded {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	forger, err := record.NewSigner(keyring.Executor, key)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Results[0].Record
	r, err := forger.Sign(&pb.Record{RunId: res.RunId, CriteriaDigest: res.CriteriaDigest, Parents: res.Parents, Token: res.Token,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: res.GetJobResult().JobId, Termination: pb.Termination_TERMINATION_EXITED, ExitCode: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// withAdmission returns a message of rec carrying an admission at place
// seq after prev, signed with key.
func withAdmission(t *testing.T, rec *record.Decoded, key ed25519.PrivateKey, keyID string, prev admission.Head) *message.Message {
	t.Helper()
	s, err := admission.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	next := prev.Next(rec.Record.GetRunId(), rec.Digest)
	a := s.Sign(prev, next)
	if keyID != "" {
		a.KeyID = keyID
	}
	m := msgOf(t, rec)
	m.Metadata.Set(admission.Header, a.String())
	return m
}

// The honest path: everything the guard writes carries an admission, and
// each run's records — refusals included — form one unbroken chain.
func TestGuardWritesChains(t *testing.T) {
	e := newEnv(t)
	stop, _, _ := e.startGuard()
	defer stop()
	a, b := e.run("run-a", 2), e.run("run-b", 1)
	e.propose(a.Records()[:5]...)
	e.propose(b.Records()...)
	// A second, different result for a consumed token: refused, and the
	// refusal takes its place in the run's chain.
	again, err := e.builder.Result(a, a.Plan.Record.GetJobPlanned().Jobs[0], 99)
	if err != nil {
		t.Fatal(err)
	}
	e.propose(again)
	e.propose(a.Records()[5:]...)
	got := e.await("both runs whole", func(c map[string][]*record.Decoded) bool {
		return len(c[a.ID]) == len(a.Records())+1 && len(c[b.ID]) == len(b.Records())
	})
	if got[a.ID][5].Kind != pb.Kind_KIND_RECORD_REFUSED || got[a.ID][5].Record.GetRecordRefused().ReasonCode != "token_conflict" {
		t.Fatalf("run a's 6th record is %s, want the refusal of the conflicting result", record.KindName(got[a.ID][5].Kind))
	}
	for _, m := range e.stored() {
		if m.Metadata.Get(admission.Header) == "" {
			t.Fatalf("message %s has no admission", m.UUID)
		}
	}
	// The stamper signs only with a key the trust policy names as the
	// ledger's.
	if _, err := guard.NewStamper(e.pub, e.key(keyring.Executor), nil, e.v); err == nil {
		t.Fatal("a stamper with the executor's key")
	}
}

// A guard restarted on a records topic that somebody wrote junk, forged
// and replayed records to rebuilds from what it admitted itself — each
// foreign message refused, a duplicate of its own silently dropped — and
// goes on with the same chains: the forged result did not consume the
// token, so the genuine result is admitted.
func TestGuardRebuildsFromPoisonedTopic(t *testing.T) {
	e := newEnv(t)
	stop, _, _ := e.startGuard()
	a, b := e.run("run-a", 2), e.run("run-b", 1)
	e.propose(a.Records()[:4]...) // through the plan
	e.propose(b.Records()...)
	before := e.await("the first records", func(c map[string][]*record.Decoded) bool {
		return len(c[a.ID]) == 4 && len(c[b.ID]) == len(b.Records())
	})
	stop()

	var planMsg, bResult *message.Message
	for _, m := range e.stored() {
		switch m.Metadata.Get(ledger.MetaDigest) {
		case a.Plan.Digest:
			planMsg = m
		case b.Results[0].Digest:
			bResult = m
		}
	}
	forged := forgedResult(t, a)
	// The head of run a, from the genuine admission of its plan.
	pa, err := e.v.Check(planMsg.Metadata.Get(admission.Header), planMsg.Payload)
	if err != nil {
		t.Fatal(err)
	}
	head := pa.Head()
	junk := message.NewMessage("junk", []byte("\x00\x01 not a record"))
	junk.Metadata.Set(ledger.MetaRunID, a.ID)
	_, rogue, _ := ed25519.GenerateKey(rand.Reader)
	relabelled := copyOf(bResult)
	relabelled.Metadata.Set(ledger.MetaRunID, a.ID)
	underPlan := msgOf(t, forged)
	underPlan.Metadata.Set(admission.Header, planMsg.Metadata.Get(admission.Header))
	e.inject(
		junk,
		msgOf(t, forged), // no admission
		withAdmission(t, forged, rogue, "", head),                         // admitted by its own key
		withAdmission(t, forged, rogue, keyIDOf(e, keyring.Ledger), head), // naming the ledger's key
		underPlan,       // under the plan's genuine admission
		copyOf(planMsg), // the honest twin: a duplicate, as at-least-once writes
		relabelled,      // run b's result, relabelled as run a's: still run b's
	)

	stop, refused, replayed := e.startGuard()
	defer stop()
	if replayed != len(before[a.ID])+len(before[b.ID]) {
		t.Errorf("rebuilt from %d records, want %d", replayed, len(before[a.ID])+len(before[b.ID]))
	}
	if refused.count(admission.CodeUndecodable) != 1 || refused.count(admission.CodeUnadmitted) != 1 ||
		refused.count(admission.CodeUnknownKey) != 1 || refused.count(admission.CodeBadSignature) != 2 || refused.total() != 5 {
		t.Errorf("refused %v, want 1 undecodable, 1 unadmitted, 1 unknown key, 2 bad signatures", refused.codes)
	}
	e.propose(a.Records()[4:]...)
	got := e.await("run a whole", func(c map[string][]*record.Decoded) bool { return len(c[a.ID]) >= len(a.Records()) })
	for i, r := range got[a.ID] {
		if r.Digest != a.Records()[i].Digest {
			t.Fatalf("run a's record %d is %s, want %s: the forged result, or a refusal, got in", i, record.KindName(r.Kind), record.KindName(a.Records()[i].Kind))
		}
	}
}

func keyIDOf(e *env, identity string) string {
	s, err := e.keys.Signer(identity)
	if err != nil {
		e.t.Fatal(err)
	}
	return s.KeyID()
}
