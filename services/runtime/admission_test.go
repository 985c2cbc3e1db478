package runtime_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
)

// capture keeps what is published to it.
type capture struct{ msgs []*message.Message }

func (c *capture) Publish(_ string, msgs ...*message.Message) error {
	c.msgs = append(c.msgs, msgs...)
	return nil
}

func (c *capture) Close() error { return nil }

// keyed is a key ring in a directory, with its admission verifier.
type keyed struct {
	dir  string
	keys *keyring.Keyring
	v    *admission.Verifier
}

func newKeyed(t *testing.T) *keyed {
	t.Helper()
	dir := t.TempDir()
	keys, err := keyring.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	return &keyed{dir: dir, keys: keys, v: admission.NewVerifier(trust)}
}

func (k *keyed) guardKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	key, err := keyring.ReadKey(filepath.Join(k.dir, keyring.FileName(keyring.Ledger)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// admitted returns recs as the guard writes them, each with its admission,
// in one chain per run.
func (k *keyed) admitted(t *testing.T, recs ...*record.Decoded) []*message.Message {
	t.Helper()
	c := &capture{}
	s, err := guard.NewStamper(c, k.guardKey(t), nil, k.v)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		m, err := ledger.Message(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Publish(ledger.Topic, m); err != nil {
			t.Fatal(err)
		}
	}
	return c.msgs
}

// copyOf returns a copy of m with everything it carries.
func copyOf(m *message.Message) *message.Message {
	c := message.NewMessage(m.UUID, m.Payload)
	for k, v := range m.Metadata {
		c.Metadata.Set(k, v)
	}
	return c
}

// forgedResult answers the run's first job in the executor's name with a
// key nobody trusts: a failing result, which would change the verdict.
func forgedResult(t *testing.T, run *scenario.Run) (*record.Decoded, ed25519.PrivateKey) {
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
	return r, key
}

// selfAdmitted wraps rec with an admission its forger made with key, at
// the place after head.
func selfAdmitted(t *testing.T, rec *record.Decoded, key ed25519.PrivateKey, keyID string, head admission.Head) *message.Message {
	t.Helper()
	s, err := admission.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	next := head.Next(rec.Record.GetRunId(), rec.Digest)
	a := s.Sign(head, next)
	if keyID != "" {
		a.KeyID = keyID
	}
	m, err := ledger.Message(rec)
	if err != nil {
		t.Fatal(err)
	}
	m.Metadata.Set(admission.Header, a.String())
	return m
}

// handling is one Handle call: the record and the run it came with.
type handling struct {
	rec *record.Decoded
	run []*record.Decoded
}

// observer records every Handle call and signals each.
type observer struct {
	mu    sync.Mutex
	calls []handling
	ping  chan struct{}
}

func newObserver() *observer { return &observer{ping: make(chan struct{}, 1024)} }

func (o *observer) Handle(_ context.Context, rec *record.Decoded, run runtime.Run, _ runtime.Emit) error {
	o.mu.Lock()
	o.calls = append(o.calls, handling{rec: rec, run: slices.Clone(run.Records)})
	o.mu.Unlock()
	o.ping <- struct{}{}
	return nil
}

func (o *observer) snapshot() []handling {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.calls)
}

// handledOnce checks that the digests were each handled exactly once, and
// nothing else of their runs.
func (o *observer) handledOnce(t *testing.T, want ...*record.Decoded) {
	t.Helper()
	count := map[string]int{}
	for _, c := range o.snapshot() {
		count[c.rec.Digest]++
	}
	for _, w := range want {
		if count[w.Digest] != 1 {
			t.Errorf("%s %.16s… handled %d times, want once", record.KindName(w.Kind), w.Digest, count[w.Digest])
		}
		delete(count, w.Digest)
	}
	for d, n := range count {
		t.Errorf("%.16s… handled %d times, want never", d, n)
	}
}

// neverEvidence checks that no handled record and no run a handler saw
// holds any of the digests.
func (o *observer) neverEvidence(t *testing.T, recs ...*record.Decoded) {
	t.Helper()
	for _, c := range o.snapshot() {
		for _, r := range append([]*record.Decoded{c.rec}, c.run...) {
			for _, bad := range recs {
				if r.Digest == bad.Digest {
					t.Fatalf("%s %.16s… reached a handler", record.KindName(bad.Kind), bad.Digest)
				}
			}
		}
	}
}

// logLines collects log lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) count(code string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, ": "+code+": ") {
			n++
		}
	}
	return n
}

// meteredRefusals returns a refusal reporter whose log lines and counter
// the test reads.
func meteredRefusals(t *testing.T, service string) (*runtime.Refusals, *logLines, func() map[string]int64) {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	logs := &logLines{}
	r, err := runtime.NewRefusals(service, telemetry.New(tracenoop.NewTracerProvider(), mp), logs.logf)
	if err != nil {
		t.Fatal(err)
	}
	counted := func() map[string]int64 {
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if m.Name != "sealgate.records.refused" {
					continue
				}
				for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
					code, _ := dp.Attributes.Value("sealgate.refusal.code")
					out[code.AsString()] += dp.Value
				}
			}
		}
		return out
	}
	return r, logs, counted
}

// deliver hands msgs one by one to svc's subscription and waits for each
// to be acked (a refused message is acked too: it is skipped, not
// retried). It fails if the service stops.
func deliver(t *testing.T, msgs chan<- *message.Message, errc <-chan error, ms ...*message.Message) {
	t.Helper()
	for _, m := range ms {
		msgs <- m
		select {
		case <-m.Acked():
		case <-m.Nacked():
			t.Fatalf("message %s was nacked", m.UUID)
		case err := <-errc:
			t.Fatalf("the service stopped: %v", err)
		case <-time.After(30 * time.Second):
			t.Fatalf("message %s was never acked", m.UUID)
		}
	}
}

// A service with admissions uses exactly what the guard admitted, each
// record once and in its run's order: undecodable messages, records
// without an admission, forged admissions, a forged record under a genuine
// admission, a record the run's history does not hold and a second record
// at a place already taken are refused — logged and counted — and the
// service goes on; duplicates of admitted records, even with other
// metadata, are not handled twice; another run's genuine record stays
// that run's.
func TestAdmissionsAreChecked(t *testing.T) {
	k := newKeyed(t)
	b := scenario.NewBuilder(k.keys, nil)
	run, err := b.NewRun("run-a", 2)
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.NewRun("run-b", 1)
	if err != nil {
		t.Fatal(err)
	}
	recs := run.Records()
	msgs := k.admitted(t, recs...)
	otherMsgs := k.admitted(t, other.Records()...)
	// Another history of run-a, as a forked guard would write it: the same
	// first four records, then the second result where the first belongs.
	forkMsgs := k.admitted(t, append(recs[:4:4], run.Results[1])...)
	forged, rogue := forgedResult(t, run)
	plan, err := k.v.Check(msgs[3].Metadata.Get(admission.Header), msgs[3].Payload)
	if err != nil {
		t.Fatal(err)
	}
	underGenuine := selfAdmitted(t, forged, rogue, "", plan.Head())
	underGenuine.Metadata.Set(admission.Header, msgs[4].Metadata.Get(admission.Header))
	unadmitted, err := ledger.Message(forged)
	if err != nil {
		t.Fatal(err)
	}
	relabelled := copyOf(msgs[3])
	relabelled.Metadata.Set(ledger.MetaRunID, other.ID)
	relabelled.Metadata.Set(ledger.MetaKind, "verdict.reached")

	signer, err := k.keys.Signer(keyring.Executor)
	if err != nil {
		t.Fatal(err)
	}
	refusals, logs, counted := meteredRefusals(t, "executor")
	obs := newObserver()
	ch := make(chan *message.Message)
	var histories []string
	svc := &runtime.Service{Name: "executor", Signer: signer, Handler: obs, Sub: chanSub{ch}, Admission: k.v, Refusals: refusals,
		History: func(_ context.Context, id string) ([]*record.Decoded, error) {
			histories = append(histories, id)
			if id == other.ID {
				return other.Records(), nil
			}
			// The run's admitted chain, as far as the topic holds it: the
			// coverage record (place 7) is not on it.
			return recs[:6], nil
		}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- svc.Run(ctx) }()

	ledgerSigner, err := k.keys.Signer(keyring.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	junk := message.NewMessage("junk", []byte("\x00\xff not a record"))
	junk.Metadata.Set(ledger.MetaRunID, run.ID)
	deliver(t, ch, errc,
		junk,
		msgs[0],
		unadmitted,
		msgs[1], msgs[2], msgs[3],
		selfAdmitted(t, forged, rogue, "", plan.Head()),                   // admitted by its own key
		selfAdmitted(t, forged, rogue, ledgerSigner.KeyID(), plan.Head()), // naming the ledger's key
		underGenuine,    // under the genuine admission of the first result
		msgs[4],         // the first result
		copyOf(msgs[3]), // the plan again, as at-least-once delivers it
		relabelled,      // the plan again, relabelled
		forkMsgs[4],     // the second result, admitted at the first one's place by a forked guard
		otherMsgs[3],    // run-b's plan: run-b's, read with run-b's history
		msgs[6],         // the coverage, after a gap, not in the run's history
		msgs[5],         // the second result
		msgs[6],         // the coverage, now in its place
		msgs[7],         // the verdict
		copyOf(msgs[2]), // the trees again, after the verdict closed the run
	)
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("the service stopped: %v", err)
	}

	obs.neverEvidence(t, forged)
	obs.handledOnce(t, append(append([]*record.Decoded{}, recs...), other.Plan)...)
	for _, c := range obs.snapshot() {
		id := c.rec.Record.GetRunId()
		for _, r := range c.run {
			if r.Record.GetRunId() != id {
				t.Fatalf("a record of run %s in the view of run %s", r.Record.GetRunId(), id)
			}
		}
		if c.rec.Digest == other.Plan.Digest && len(c.run) != len(other.Records()) {
			t.Errorf("run-b's plan came with %d records, want run-b's history", len(c.run))
		}
	}
	if !slices.Equal(histories, []string{other.ID, run.ID}) {
		t.Errorf("histories read: %v", histories)
	}
	want := map[string]int64{
		admission.CodeUndecodable:  1,
		admission.CodeUnadmitted:   1,
		admission.CodeUnknownKey:   1,
		admission.CodeBadSignature: 2,
		admission.CodeFork:         1,
		admission.CodeGap:          1,
	}
	got := counted()
	for code, n := range want {
		if got[code] != n || logs.count(code) != int(n) {
			t.Errorf("%s: counted %d, logged %d, want %d", code, got[code], logs.count(code), n)
		}
	}
	if refusals.Total() != 7 || len(got) != len(want) {
		t.Errorf("refused %d (%v), want 7", refusals.Total(), got)
	}
}
