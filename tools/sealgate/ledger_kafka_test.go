package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kfake"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// kafkaLedger is a Kafka ledger in one test: an in-process Kafka
// wire-protocol broker (kfake) with the ledger's topics, written the way
// `sealgate serve ledger` writes the records topic — the guard's Appender
// through its Stamper, every record admitted and stamped.
type kafkaLedger struct {
	t       *testing.T
	ctx     context.Context
	brokers string
	keysDir string
	trust   string
	keys    *keyring.Keyring
	pub     *kafka.Publisher
	app     *ledger.Appender
}

func newKafkaLedger(t *testing.T, keysDir string) *kafkaLedger {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	kc, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	k := &kafkaLedger{t: t, ctx: ctx, brokers: strings.Join(kc.ListenAddrs(), ","), keysDir: keysDir}
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if err := kafka.CreateTopic(ctx, kc.ListenAddrs(), topic, 2); err != nil {
			t.Fatal(err)
		}
	}
	if k.keys, err = keyring.LoadOrCreate(keysDir); err != nil {
		t.Fatal(err)
	}
	trust, err := k.keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	k.trust = filepath.Join(t.TempDir(), "trust.json")
	if err := writeTrustIfMissing(k.trust, trust); err != nil {
		t.Fatal(err)
	}
	if k.pub, err = kafka.NewPublisher(kafka.PublisherConfig{Brokers: kc.ListenAddrs()}, watermill.NopLogger{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.pub.Close() })
	k.app = k.guardAppender(nil)
	return k
}

// guardAppender is the ledger guard's writer, continuing the chains at
// heads (nil: rebuilt from the topic, as the guard does when it starts).
func (k *kafkaLedger) guardAppender(heads map[string]admission.Head) *ledger.Appender {
	k.t.Helper()
	b, err := readInput("--trust", k.trust, maxTrustFile, "")
	if err != nil {
		k.t.Fatal(err)
	}
	trust, err := authority.ParseTrust(b)
	if err != nil {
		k.t.Fatal(err)
	}
	v := admission.NewVerifier(trust)
	st := authority.New(trust)
	rebuilt, _, err := guard.Rebuild(k.ctx, st, v, topicReader(strings.Split(k.brokers, ","), ledger.Topic), func(error) {})
	if err != nil {
		k.t.Fatal(err)
	}
	if heads == nil {
		heads = rebuilt
	}
	key, err := keyring.ReadKey(filepath.Join(k.keysDir, keyring.FileName(keyring.Ledger)))
	if err != nil {
		k.t.Fatal(err)
	}
	stamper, err := guard.NewStamper(k.pub, key, heads, v)
	if err != nil {
		k.t.Fatal(err)
	}
	signer, err := k.keys.Signer(keyring.Ledger)
	if err != nil {
		k.t.Fatal(err)
	}
	app, err := ledger.NewAppender(stamper, st, signer, nil)
	if err != nil {
		k.t.Fatal(err)
	}
	return app
}

// admit offers raw records to the guard's appender; each must be accepted.
func (k *kafkaLedger) admit(app *ledger.Appender, raws ...[]byte) {
	k.t.Helper()
	ds, err := app.AppendRaw(k.ctx, raws...)
	if err != nil {
		k.t.Fatal(err)
	}
	for _, d := range ds {
		if d.Outcome != authority.Accepted {
			k.t.Fatalf("%s was %s: %s %s", record.KindName(d.Record.Kind), d.Outcome, d.Code, d.Detail)
		}
	}
}

// inject writes msgs straight to the records topic, past the guard.
func (k *kafkaLedger) inject(msgs ...*message.Message) {
	k.t.Helper()
	if err := k.pub.Publish(ledger.Topic, msgs...); err != nil {
		k.t.Fatal(err)
	}
}

// cli runs sealgate against the Kafka ledger.
func (k *kafkaLedger) cli(args ...string) (int, string, string) {
	k.t.Helper()
	return runCLI(k.t, append(args, "--brokers", k.brokers, "--trust", k.trust)...)
}

// scenarioRun builds a complete, signed run with a whole-length run id.
func (k *kafkaLedger) scenarioRun(id string) *scenario.Run {
	k.t.Helper()
	r, err := scenario.NewBuilder(k.keys, nil).NewRun(id, 2)
	if err != nil {
		k.t.Fatal(err)
	}
	return r
}

func encoded(t *testing.T, recs ...*record.Decoded) [][]byte {
	t.Helper()
	var out [][]byte
	for _, r := range recs {
		b, err := r.Encoded()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// forgedCoverage is a record of run signed by a key nobody trusts.
func forgedCoverage(t *testing.T, run *scenario.Run) *record.Decoded {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := record.NewSigner(keyring.Reach, key)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.Sign(&pb.Record{
		RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Trees.Digest}, TimeUnixNano: time.Now().UnixNano(),
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Ratio: proto.Float64(1)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func message1(t *testing.T, rec *record.Decoded) *message.Message {
	t.Helper()
	m, err := ledger.Message(rec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The ledger tools read a Kafka ledger the guard wrote: runs lists every
// run whole, inspect a run's records, verify the whole ledger. Records
// written to the topic past the guard are not part of any run and are
// reported as refused; an at-least-once copy of an admitted message is
// the same record, dropped silently.
func TestLedgerKafkaReadsWhatTheGuardAdmitted(t *testing.T) {
	k := newKafkaLedger(t, t.TempDir())
	first := k.scenarioRun("run-20261201T120000Z-0123456789abcdef")
	open := k.scenarioRun("run-20261201T120500Z-fedcba9876543210")
	k.admit(k.app, encoded(t, first.Records()...)...)
	openRecs := open.Records()
	k.admit(k.app, encoded(t, openRecs[:len(openRecs)-1]...)...) // no verdict yet

	// The attack: a forged coverage record of the first run, and its
	// genuine verdict relabelled as a record of the open run, both written
	// straight to the topic; and a genuine record with a made-up admission.
	forged := forgedCoverage(t, first)
	relabelled := message1(t, first.Verdict)
	relabelled.Metadata.Set(ledger.MetaRunID, open.ID)
	fakeAdmission := message1(t, first.Coverage)
	fakeAdmission.Metadata.Set(admission.Header, admission.Admission{Seq: 99, KeyID: strings.Repeat("ab", 32), Signature: make([]byte, ed25519.SignatureSize)}.String())
	k.inject(message1(t, forged), relabelled, fakeAdmission)
	// The honest twin: a copy of an admitted message, as Kafka's
	// at-least-once producer writes it.
	var dup *message.Message
	err := kafka.ReadAll(k.ctx, strings.Split(k.brokers, ","), ledger.Topic, func(_ int, _ int64, m *message.Message) error {
		if dup == nil && m.Metadata.Get(ledger.MetaDigest) == first.Plan.Digest {
			dup = message.NewMessage(m.UUID, m.Payload)
			for key, v := range m.Metadata {
				dup.Metadata.Set(key, v)
			}
		}
		return nil
	})
	if err != nil || dup == nil {
		t.Fatalf("no admitted plan on the topic: %v", err)
	}
	k.inject(dup)

	code, out, errOut := k.cli("ledger", "runs")
	if code != exitOK {
		t.Fatalf("ledger runs: exit %d\n%s%s", code, out, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[1], first.ID+" ") || !strings.Contains(lines[1], " MERGE ") || !strings.Contains(lines[1], "demo/calc") ||
		!strings.HasPrefix(lines[2], open.ID+" ") || !strings.Contains(lines[2], " open ") {
		t.Fatalf("ledger runs: the runs, whole, in the order requested, with their decisions:\n%s", out)
	}
	if !strings.Contains(out, "refused 3 messages") || strings.Count(out, "  refused: ") != 3 ||
		!strings.Contains(out, "unadmitted 2") || !strings.Contains(out, "unknown_admission_key 1") {
		t.Fatalf("ledger runs does not report the three messages past the guard:\n%s", out)
	}

	code, out, errOut = k.cli("ledger", "inspect", "--run", first.ID)
	if code != exitOK {
		t.Fatalf("ledger inspect: exit %d\n%s%s", code, out, errOut)
	}
	want := first.Records()
	if n := strings.Count(out, "\n@"); n+boolRank(strings.HasPrefix(out, "@")) != len(want) {
		t.Fatalf("ledger inspect lists %d records, the run has %d:\n%s", n, len(want), out)
	}
	for i, r := range want {
		if !strings.Contains(out, r.Digest[:12]) || !strings.Contains(out, "@"+itoa(i+1)+" ") {
			t.Fatalf("record %d (%s) is not listed at its place:\n%s", i+1, record.KindName(r.Kind), out)
		}
	}
	listing, _, _ := strings.Cut(out, "\nrefused ")
	if strings.Contains(listing, forged.Digest[:12]) || strings.Count(listing, " "+first.ID+" ") != len(want) {
		t.Fatalf("inspect lists the forged record, or not the whole run id:\n%s", out)
	}
	if !strings.Contains(out, "refused: unadmitted") || !strings.Contains(out, forged.Digest[:16]) {
		t.Fatalf("inspect does not report the forged record as refused:\n%s", out)
	}
	// The relabelled verdict is not the open run's either.
	code, out, _ = k.cli("ledger", "inspect", "--run", open.ID)
	if code != exitOK || strings.Contains(out, "verdict.reached") {
		t.Fatalf("the open run's listing takes the relabelled verdict: exit %d\n%s", code, out)
	}

	code, out, errOut = k.cli("ledger", "verify")
	if code != exitOK || !strings.Contains(out, "ok: "+itoa(len(want)+len(openRecs)-1)+" records verified") || !strings.Contains(out, "refused 3 messages") {
		t.Fatalf("ledger verify: exit %d\n%s%s", code, out, errOut)
	}

	code, out, errOut = k.cli("ledger", "runs", "--json")
	if code != exitOK {
		t.Fatalf("ledger runs --json: exit %d\n%s%s", code, out, errOut)
	}
	var doc struct {
		Runs []struct {
			RunID    string   `json:"run_id"`
			Decision string   `json:"decision"`
			After    *float64 `json:"verdict_after_seconds"`
		} `json:"runs"`
		Refused []refusal `json:"refused"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 2 || doc.Runs[0].RunID != first.ID || doc.Runs[0].Decision != "MERGE" || doc.Runs[0].After == nil ||
		doc.Runs[1].Decision != decisionOpen || doc.Runs[1].After != nil || len(doc.Refused) != 3 {
		t.Fatalf("ledger runs --json:\n%s", out)
	}
	if _, again, _ := k.cli("ledger", "runs", "--json"); again != out {
		t.Fatalf("ledger runs --json is not deterministic:\n%s\n---\n%s", out, again)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A genuine admission that contradicts a run's chain — a second writer
// with stale heads admitting another record at a place already taken —
// is the ledger damaged: verify fails naming it, and replay refuses the
// run.
func TestLedgerKafkaVerifyNamesAFork(t *testing.T) {
	k := newKafkaLedger(t, t.TempDir())
	a := k.scenarioRun("run-fork-0000000000000001")
	k.admit(k.app, encoded(t, a.Records()...)...)
	if code, out, errOut := k.cli("ledger", "verify"); code != exitOK {
		t.Fatalf("the clean ledger: exit %d\n%s%s", code, out, errOut)
	}
	// A second guard that believes the topic is empty admits another run
	// with the same id at place 1.
	stale := k.guardAppender(map[string]admission.Head{})
	b := k.scenarioRun(a.ID)
	stale.AppendRaw(k.ctx, encoded(t, b.Request)...) //nolint:errcheck // its own state is empty: it accepts
	code, out, _ := k.cli("ledger", "verify")
	if code != exitFailed || !strings.Contains(out, "FAIL ") || !strings.Contains(out, admission.CodeFork) || !strings.Contains(out, a.ID) {
		t.Fatalf("verify of a forked chain: exit %d\n%s", code, out)
	}
	code, _, errOut := k.cli("replay", a.ID, "--blobs", t.TempDir())
	if code != exitNoProof || !strings.Contains(errOut, "is damaged") {
		t.Fatalf("replay of a forked run: exit %d\n%s", code, errOut)
	}
}

// Bad flags and a --brokers address nothing answers on fail closed, with
// one line.
func TestLedgerKafkaBadInput(t *testing.T) {
	k := newKafkaLedger(t, t.TempDir())
	dead := func() string {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer lis.Close()
		return lis.Addr().String()
	}()
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"ledger", "runs", "--brokers", "localhost"}, exitUsage, "not HOST:PORT"},
		{[]string{"ledger", "runs", "--brokers", "localhost:0", "--trust", k.trust}, exitUsage, "port"},
		{[]string{"ledger", "runs", "--brokers", "localhost:99999", "--trust", k.trust}, exitUsage, "port"},
		{[]string{"ledger", "verify", "--brokers", k.brokers}, exitUsage, "--trust"},
		{[]string{"ledger", "inspect", "--brokers", k.brokers, "--trust", k.trust, "--state", t.TempDir()}, exitUsage, "two ledgers"},
		{[]string{"ledger", "verify", "--brokers", k.brokers, "--trust", k.trust, "--ledger", "x.db"}, exitUsage, "two ledgers"},
		{[]string{"ledger", "runs", "--brokers", "", "--state", t.TempDir()}, exitUsage, "--brokers is empty"},
		{[]string{"ledger", "runs", "--brokers", k.brokers, "--trust", filepath.Join(t.TempDir(), "none.json")}, exitUsage, "none.json"},
		{[]string{"replay", "some-run", "--brokers", k.brokers, "--trust", k.trust}, exitUsage, "--blobs"},
		{[]string{"replay", "some-run", "--log-key", "k.pub", "--state", t.TempDir()}, exitUsage, "--brokers"},
		{[]string{"replay", "no-such-run", "--brokers", k.brokers, "--trust", k.trust, "--blobs", t.TempDir()}, exitUsage, "not on the Kafka ledger"},
		{[]string{"ledger", "inspect", "--run", "no-such-run", "--brokers", k.brokers, "--trust", k.trust}, exitUsage, "no record of run"},
		{[]string{"ledger", "verify", "--brokers", dead, "--trust", k.trust}, exitNoProof, "no Kafka broker answers at " + dead},
		{[]string{"ledger", "runs", "--brokers", k.brokers, "--trust", k.trust, "--read-timeout", "0s"}, exitUsage, "--read-timeout"},
		{[]string{"ledger", "runs", "--brokers", k.brokers, "--trust", k.trust, "--read-timeout", "1ns"}, exitNoProof, "did not finish within --read-timeout 1ns"},
		{[]string{"replay", "r", "--brokers", dead, "--trust", k.trust, "--blobs", t.TempDir()}, exitNoProof, "no Kafka broker answers"},
	} {
		code, out, errOut := runCLI(t, c.args...)
		lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
		if code != c.code || len(lines) != 1 || !strings.Contains(errOut, c.says) || (code == exitUsage && out != "") {
			t.Errorf("%q: exit %d (want %d), stderr %q (want one line saying %q), stdout %q", c.args, code, c.code, errOut, c.says, out)
		}
	}
}

// A host that accepts connections and never answers is given up on after
// the wait, and said so.
func TestLedgerKafkaSilentBrokerIsBounded(t *testing.T) {
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
	k := newKafkaLedger(t, t.TempDir())
	f := ledgerFlags{wait: time.Second}
	cmd := &cobra.Command{}
	f.register(cmd)
	if err := cmd.ParseFlags([]string{"--brokers", lis.Addr().String(), "--trust", k.trust}); err != nil {
		t.Fatal(err)
	}
	cmd.SetContext(context.Background())
	_, err = f.open(cmd)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitNoProof || !strings.Contains(err.Error(), "within 1s") {
		t.Fatalf("open of a silent broker: %v", err)
	}
}

// The local ledger: runs lists the demo's runs whole and deterministically,
// inspect shows whole run ids.
func TestLedgerRunsLocal(t *testing.T) {
	state := t.TempDir()
	if code, out, errOut := runCLI(t, "ledger", "demo", "--state", state, "--runs", "3", "--jobs", "2", "--quiet"); code != exitOK {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "ledger", "runs", "--state", state)
	if code != exitOK {
		t.Fatalf("ledger runs: exit %d\n%s%s", code, out, errOut)
	}
	log, err := local.OpenReadOnly(filepath.Join(state, ledgerFile), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	err = log.Scan(context.Background(), 1, func(e local.Entry, err error) error {
		if err == nil && e.Metadata[ledger.MetaKind] == record.KindName(pb.Kind_KIND_RUN_REQUESTED) {
			ids = append(ids, e.Metadata[ledger.MetaRunID])
		}
		return err
	})
	log.Close()
	if err != nil || len(ids) != 3 {
		t.Fatalf("%d runs requested on the demo ledger: %v", len(ids), err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], "RUN ") {
		t.Fatalf("ledger runs:\n%s", out)
	}
	for i, id := range ids {
		if !strings.HasPrefix(lines[i+1], id+" ") || !strings.Contains(lines[i+1], " MERGE ") || !strings.Contains(lines[i+1], " yes ") && !strings.Contains(lines[i+1], " no ") {
			t.Fatalf("run %d (%s) is not listed whole, in order, with its decision:\n%s", i, id, out)
		}
	}
	// The demo offers a record of a run never requested: the ledger holds
	// only its refusal, listed after the requested runs.
	if !strings.HasPrefix(lines[4], "never-requested ") || !strings.Contains(lines[4], " open ") {
		t.Fatalf("the refused record's run is not listed last as open:\n%s", out)
	}
	if _, again, _ := runCLI(t, "ledger", "runs", "--state", state); again != out {
		t.Fatal("ledger runs is not deterministic")
	}
	code, out, _ = runCLI(t, "ledger", "inspect", "--state", state, "--run", ids[1])
	if code != exitOK || strings.Count(out, " "+ids[1]+" ") < 5 || strings.Contains(out, ids[0]) {
		t.Fatalf("inspect --run does not show the whole run id on every record:\n%s", out)
	}
	var js bytes.Buffer
	if code := run(context.Background(), []string{"ledger", "runs", "--state", state, "--json"}, &js, &bytes.Buffer{}); code != exitOK || !json.Valid(js.Bytes()) || !strings.Contains(js.String(), `"run_id": "`+ids[2]+`"`) {
		t.Fatalf("ledger runs --json: exit %d\n%s", code, js.String())
	}
}

// Replay recomputes a real verification's verdict from a Kafka ledger:
// the run's records go through the ledger guard onto the records topic,
// its artefacts are in the blob store given, its seal in the embedded
// log whose key is given. A forged verdict of the run written straight to
// the topic is not replayed, and is reported as refused.
func TestReplayFromKafka(t *testing.T) {
	f := newFixture(t)
	state := t.TempDir()
	code, a, log := f.verify(state, f.honest().Commit)
	if code != 0 {
		t.Fatalf("verify: exit %d\n%s", code, log)
	}
	k := newKafkaLedger(t, filepath.Join(state, keysDir))
	lg, err := local.OpenReadOnly(filepath.Join(state, ledgerFile), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var raws [][]byte
	err = lg.Scan(k.ctx, 1, func(e local.Entry, err error) error {
		if err == nil && e.Topic == ledger.Topic {
			raws = append(raws, e.Payload)
		}
		return err
	})
	lg.Close()
	if err != nil {
		t.Fatal(err)
	}

	// The attack: a BLOCK verdict of the run, signed by a stranger,
	// written past the guard before the guard writes the run, so that it
	// comes first in the run's partition.
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	stranger, err := record.NewSigner(keyring.Adjudication, key)
	if err != nil {
		t.Fatal(err)
	}
	fake, err := stranger.Sign(&pb.Record{RunId: a.RunID, TimeUnixNano: time.Now().UnixNano(),
		Body: &pb.Record_VerdictReached{VerdictReached: &pb.VerdictReached{Decision: pb.Decision_DECISION_BLOCK, Reason: "forged"}}})
	if err != nil {
		t.Fatal(err)
	}
	k.inject(message1(t, fake))
	k.admit(k.app, raws...)

	logKey := filepath.Join(state, tlogDir, "log.pub")
	code, out, errOut := k.cli("replay", a.RunID, "--blobs", filepath.Join(state, blobsDir), "--log-key", logKey)
	if code != exitOK || !strings.Contains(out, "verdict record: recomputed bytes match") || !strings.Contains(out, "every check of `attest verify` passes") {
		t.Fatalf("replay from Kafka: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "refused: unadmitted") || !strings.Contains(out, fake.Digest[:16]) || strings.Contains(out, "recorded:   forged") {
		t.Fatalf("replay does not report the forged verdict as refused, or used it:\n%s", out)
	}
	// The same replay without the log's key cannot check the seal: it
	// says what to give, and does not pass.
	code, _, errOut = k.cli("replay", a.RunID, "--blobs", filepath.Join(state, blobsDir))
	if code != exitUsage || !strings.Contains(errOut, "--log-key") {
		t.Fatalf("replay without --log-key: exit %d\n%s", code, errOut)
	}
	code, out, _ = runCLI(t, "ledger", "runs", "--brokers", k.brokers, "--trust", k.trust)
	if code != exitOK || !strings.Contains(out, a.RunID+" ") || !strings.Contains(out, " MERGE ") {
		t.Fatalf("ledger runs of the replayed run: exit %d\n%s", code, out)
	}
	if code, out, errOut := k.cli("ledger", "verify"); code != exitOK {
		t.Fatalf("ledger verify: exit %d\n%s%s", code, out, errOut)
	}
}

// admittedMessages reads the records topic as stored, every message with
// everything it carries.
func (k *kafkaLedger) admittedMessages() []*message.Message {
	k.t.Helper()
	var out []*message.Message
	err := kafka.ReadAll(k.ctx, strings.Split(k.brokers, ","), ledger.Topic, func(_ int, _ int64, m *message.Message) error {
		c := message.NewMessage(m.UUID, m.Payload)
		for key, v := range m.Metadata {
			c.Metadata.Set(key, v)
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		k.t.Fatal(err)
	}
	return out
}

// Admitted records whose predecessors are not on the topic (lost to
// retention, or copied without them) are a ledger that lost records:
// verify fails naming the gap. The honest twin: the same messages copied
// whole verify clean.
func TestLedgerKafkaVerifyNamesAGap(t *testing.T) {
	keys := t.TempDir()
	k := newKafkaLedger(t, keys)
	a := k.scenarioRun("run-gap-0000000000000001")
	k.admit(k.app, encoded(t, a.Records()...)...)
	msgs := k.admittedMessages()

	whole := newKafkaLedger(t, keys)
	whole.inject(msgs...)
	if code, out, errOut := whole.cli("ledger", "verify"); code != exitOK || !strings.Contains(out, "ok: "+itoa(len(msgs))+" records verified") {
		t.Fatalf("the whole copy: exit %d\n%s%s", code, out, errOut)
	}

	gap := newKafkaLedger(t, keys)
	gap.inject(msgs[:2]...)
	gap.inject(msgs[3:]...)
	code, out, _ := gap.cli("ledger", "verify")
	if code != exitFailed || !strings.Contains(out, admission.CodeGap) || !strings.Contains(out, a.ID) {
		t.Fatalf("verify of a chain with a gap: exit %d\n%s", code, out)
	}
	// A listing goes on and names the damage; runs lists the run's
	// records that are whole.
	code, out, _ = gap.cli("ledger", "inspect", "--run", a.ID)
	if code != exitOK || !strings.Contains(out, "unreadable: "+admission.CodeGap) || strings.Count(out, "\n@")+1 != 2 {
		t.Fatalf("inspect of a chain with a gap: exit %d\n%s", code, out)
	}
}
