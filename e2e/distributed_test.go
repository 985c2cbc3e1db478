package e2e

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/grpc"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// verdictOf is what must be identical between embedded and distributed
// runs of one patch: everything the decision rests on, without run ids,
// digests of records and timings.
type verdictOf struct {
	Decision    string   `json:"decision"`
	Reason      string   `json:"reason"`
	Reasons     []string `json:"reasons"`
	FixProven   bool     `json:"fix_proven"`
	ClaimsFixed []string `json:"claims_fixed"`
	Claims      []struct {
		ID             string `json:"id"`
		Outcome        string `json:"outcome"`
		Classification string `json:"classification"`
		Reason         string `json:"reason"`
	} `json:"claims"`
	NextSteps  []nextStep `json:"next_steps"`
	Collateral struct {
		Tests       *int     `json:"tests"`
		Regressions []string `json:"regressions"`
	} `json:"collateral"`
	Coverage struct {
		Ratio     *float64 `json:"ratio"`
		Uncovered []string `json:"uncovered"`
	} `json:"coverage"`
	Strength struct {
		Killed    int      `json:"killed"`
		Survived  int      `json:"survived"`
		Stillborn int      `json:"stillborn"`
		Survivors []string `json:"survivors"`
	} `json:"strength"`
	Missing []string `json:"missing"`
	Seal    *struct {
		Log string `json:"log"`
	} `json:"seal"`
	RunID string `json:"run_id"`
}

func parseVerdict(t *testing.T, r *run) verdictOf {
	t.Helper()
	var v verdictOf
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("artefact: %v\n%s", err, r)
	}
	if v.Seal == nil {
		t.Fatalf("the artefact is not sealed:\n%s", r)
	}
	return v
}

func sameVerdict(t *testing.T, name string, want, got verdictOf) {
	t.Helper()
	want.RunID, got.RunID = "", ""
	if !reflect.DeepEqual(want, got) {
		w, _ := json.MarshalIndent(want, "", "  ")
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("%s: distributed verdict differs from embedded:\n--- embedded ---\n%s\n--- distributed ---\n%s", name, w, g)
	}
}

// Issue #6: every service as its own process over the dev Kafka broker,
// two executor replicas, several verifications at once: each verdict is
// the embedded mode's, sealed, and its bundle checks offline.
func TestDistributedMatchesEmbedded(t *testing.T) {
	r := newRepo(t)
	patches := []demo.Patch{r.patch(t, "honest-fix"), r.patch(t, "breaks-a-test"), r.patch(t, "hides-the-bug")}
	want := map[string]verdictOf{}
	codes := map[string]int{}
	for _, p := range patches {
		v := verify(t, r.patchArgs(r.Base, p.Commit, claimArgs(p.Claims...)...)...)
		want[p.Name], codes[p.Name] = parseVerdict(t, v), v.exitCode
	}

	c := newCluster(t)
	bundle := t.TempDir() + "/honest.json"
	waits := map[string]func() *run{}
	for _, p := range patches {
		args := r.patchArgs(r.Base, p.Commit, claimArgs(p.Claims...)...)
		if p.Name == "honest-fix" {
			args = append(args, "--attestation", bundle)
		}
		waits[p.Name] = c.remote(t, args...)
	}
	// The honest fix once more, as a diff file, at the same time.
	fix := patches[0]
	waits["honest-fix (diff)"] = c.remote(t, append([]string{"--repo", r.Dir, "--base", r.Base, "--patch-file", r.diff(t, r.Base, fix.Commit)}, claimArgs(fix.Claims...)...)...)
	// And the Python demo's honest fix: pytest claims, coverage.py and
	// Python mutants through the same services.
	if py := pythonRepo(t); py != nil {
		pf := py.patch(t, "honest-fix")
		pyArgs := py.patchArgs(py.Base, pf.Commit, claimArgs(pf.Claims...)...)
		v := verify(t, pyArgs...)
		want["python honest-fix"], codes["python honest-fix"] = parseVerdict(t, v), v.exitCode
		waits["python honest-fix"] = c.remote(t, pyArgs...)
	}
	for name, wait := range waits {
		got := wait()
		base := strings.TrimSuffix(name, " (diff)")
		if got.exitCode != codes[base] {
			t.Fatalf("%s: exit %d, embedded %d:\n%s", name, got.exitCode, codes[base], got)
		}
		sameVerdict(t, name, want[base], parseVerdict(t, got))
	}
	ok := attestVerify(t, bundle, "--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit, "--key", c.verdictKey, "--log-key", c.logKey())
	if ok.exitCode != 0 {
		t.Fatalf("the distributed verdict's bundle does not verify:\n%s", ok)
	}
}

// admissions checks admissions against the cluster's trust policy.
func (c *cluster) admissions(t *testing.T) *admission.Verifier {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, "keys", "trust.json"))
	if err != nil {
		t.Fatal(err)
	}
	trust, err := authority.ParseTrust(b)
	if err != nil {
		t.Fatal(err)
	}
	return admission.NewVerifier(trust)
}

// records reads a run's records from the cluster's records topic: what
// the ledger guard admitted, in the run's chain order.
func (c *cluster) records(t *testing.T, runID string) []*record.Decoded {
	t.Helper()
	var out []*record.Decoded
	for _, m := range c.admitted(t, runID) {
		rec, err := record.Decode(m.Payload)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// admitted reads the messages of a run's admitted records, in chain order,
// as the guard wrote them. A fork or a gap in the run's chain fails t.
func (c *cluster) admitted(t *testing.T, runID string) []*message.Message {
	t.Helper()
	v := c.admissions(t)
	chain := admission.NewChain(runID)
	byDigest := map[string]*message.Message{}
	var out []*message.Message
	err := kafka.ReadAll(context.Background(), []string{c.brokers}, ledger.Topic, func(_ int, _ int64, m *message.Message) error {
		if m.Metadata.Get(ledger.MetaRunID) != runID {
			return nil
		}
		a, err := v.Check(m.Metadata.Get(admission.Header), m.Payload)
		if err != nil || a.RunID() != runID {
			return nil // what somebody else wrote to the topic
		}
		if _, ok := byDigest[a.Record.Digest]; !ok {
			byDigest[a.Record.Digest] = m
		}
		placed, err := chain.Add(a)
		if err != nil {
			t.Errorf("run %s: %v", runID, err)
		}
		for _, p := range placed {
			out = append(out, byDigest[p.Record.Digest])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := chain.Waiting(); len(w) > 0 {
		t.Errorf("run %s: %d admitted records follow a gap in its chain", runID, len(w))
	}
	return out
}

// wantWhole checks a run's ledger: every record once, no refusal, one
// result per token, one verdict and one seal.
func (c *cluster) wantWhole(t *testing.T, runID string) {
	t.Helper()
	seen, tokens := map[string]bool{}, map[string]int{}
	kinds := map[pb.Kind]int{}
	for _, r := range c.records(t, runID) {
		if seen[r.Digest] {
			t.Errorf("run %s: record %.16s… (%s) is stored twice", runID, r.Digest, record.KindName(r.Kind))
		}
		seen[r.Digest] = true
		kinds[r.Kind]++
		if rf := r.Record.GetRecordRefused(); rf != nil {
			t.Errorf("run %s: a %s was refused: %s %s", runID, record.KindName(rf.RefusedKind), rf.ReasonCode, rf.Detail)
		}
		if r.Kind == pb.Kind_KIND_JOB_RESULT {
			tokens[r.Record.GetToken()]++
		}
	}
	for tok, n := range tokens {
		if n != 1 {
			t.Errorf("run %s: token %s has %d results", runID, tok, n)
		}
	}
	if kinds[pb.Kind_KIND_VERDICT_REACHED] != 1 || kinds[pb.Kind_KIND_VERDICT_SEALED] != 1 {
		t.Errorf("run %s: %d verdicts and %d seals, want one of each", runID, kinds[pb.Kind_KIND_VERDICT_REACHED], kinds[pb.Kind_KIND_VERDICT_SEALED])
	}
}

// waitFor polls the run's records until one satisfies ok.
func (c *cluster) waitFor(t *testing.T, runID string, ok func(*record.Decoded) bool) *record.Decoded {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		for _, r := range c.records(t, runID) {
			if ok(r) {
				return r
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("run %s: the awaited record never came", runID)
	return nil
}

// submitted returns the run id a verify --remote process printed first.
func runIDOf(t *testing.T, r *run) string {
	t.Helper()
	var v struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v.RunID == "" {
		t.Fatalf("no run id in the artefact:\n%s", r)
	}
	return v.RunID
}

// Issue #6 faults: services killed with SIGKILL in the middle of a run and
// restarted, a broker restart, a job delivered twice, a worker that never
// answers, and a record signed by an unknown key.
func TestDistributedFaults(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	args := r.patchArgs(r.Base, fix.Commit, claimArgs(fix.Claims...)...)
	want := parseVerdict(t, verify(t, args...))
	c := newCluster(t)

	// Each service type, stopped before the run reaches it, so that its
	// work is pending when it is killed; the supervisor starts it again
	// and the new process must find the run and finish its part.
	for _, svc := range []string{"checkout", "executor", "reach", "mutation", "adjudication", "signing", "ledger", "gateway"} {
		t.Run("SIGKILL "+svc, func(t *testing.T) {
			ps := c.procs[svc]
			for _, p := range ps {
				p.kill(t, syscall.SIGSTOP)
			}
			wait := c.remote(t, args...)
			time.Sleep(1500 * time.Millisecond)
			for _, p := range ps {
				p.kill(t, syscall.SIGKILL)
			}
			got := wait()
			if got.exitCode != exitMerge {
				t.Fatalf("exit %d after killing %s:\n%s", got.exitCode, svc, got)
			}
			v := parseVerdict(t, got)
			sameVerdict(t, "kill "+svc, want, v)
			c.wantWhole(t, v.RunID)
		})
	}

	t.Run("SIGKILL an executor while it runs jobs", func(t *testing.T) {
		wait := c.remote(t, args...)
		time.Sleep(700 * time.Millisecond)
		for _, p := range c.procs["executor"] {
			p.kill(t, syscall.SIGKILL)
		}
		got := wait()
		v := parseVerdict(t, got)
		sameVerdict(t, "kill executors mid-job", want, v)
		c.wantWhole(t, v.RunID)
	})

	t.Run("broker restart", func(t *testing.T) {
		// A run stuck after the restart reaches its deadline and names
		// what it misses, well before the test's own timeout.
		wait := c.remote(t, append(slices.Clone(args), "--timeout", "5m")...)
		time.Sleep(800 * time.Millisecond)
		c.procs["broker"][0].kill(t, syscall.SIGKILL)
		got := wait()
		if got.exitCode != exitMerge {
			t.Fatalf("exit %d after a broker restart:\n%s", got.exitCode, got)
		}
		v := parseVerdict(t, got)
		sameVerdict(t, "broker restart", want, v)
		c.wantWhole(t, v.RunID)
	})

	t.Run("a job delivered twice", func(t *testing.T) {
		known := c.runIDs(t)
		wait := c.remote(t, args...)
		// The executors' plan, once it is on the ledger, is written to the
		// records topic a second time, as an at-least-once producer can.
		runID := c.nextRun(t, known)
		plan := c.waitFor(t, runID, func(r *record.Decoded) bool {
			return r.Kind == pb.Kind_KIND_JOB_PLANNED && r.Record.Producer.GetIdentity() == keyring.Executor
		})
		c.inject(t, copyOf(c.messageOf(t, runID, plan.Digest)))
		got := wait()
		v := parseVerdict(t, got)
		sameVerdict(t, "job delivered twice", want, v)
		tokens := map[string]int{}
		for _, r := range c.records(t, v.RunID) {
			if r.Kind == pb.Kind_KIND_JOB_RESULT {
				tokens[r.Record.GetToken()]++
			}
		}
		for tok, n := range tokens {
			if n != 1 {
				t.Errorf("token %s has %d results", tok, n)
			}
		}
	})

	t.Run("a worker that never answers", func(t *testing.T) {
		defer func() {
			for _, p := range c.procs["executor"] {
				p.kill(t, syscall.SIGCONT)
			}
		}()
		// A claim that takes seconds, so that the executors have planned
		// and are still working when they stop answering.
		slow := r.commit(t, r.Base, "slow-claim", "a slow test", map[string]string{"calc/slow_test.go": `package calc

import (
	"testing"
	"time"
)

func TestSlow(t *testing.T) { time.Sleep(3 * time.Second) }
`})
		known := c.runIDs(t)
		wait := c.remote(t, r.patchArgs(r.Base, slow, "--claim", "go:./calc:TestSlow", "--coverage-floor", "0", "--strength-floor", "0", "--timeout", "20s")...)
		runID := c.nextRun(t, known)
		// The executors plan the run's jobs, then stop answering.
		c.waitFor(t, runID, func(r *record.Decoded) bool {
			return r.Kind == pb.Kind_KIND_JOB_PLANNED && r.Record.Producer.GetIdentity() == keyring.Executor
		})
		for _, p := range c.procs["executor"] {
			p.kill(t, syscall.SIGSTOP)
		}
		got := wait()
		if got.exitCode != exitInconclusive {
			t.Fatalf("exit %d, want INCONCLUSIVE at the deadline:\n%s", got.exitCode, got)
		}
		v := parseVerdict(t, got)
		named := false
		for _, m := range v.Missing {
			named = named || strings.Contains(m, "/patch/") || strings.Contains(m, "/baseline/")
		}
		if !named {
			t.Fatalf("the verdict does not name a missing job: reason %q, missing %q\n%s", v.Reason, v.Missing, got)
		}
	})

	t.Run("a record signed by an unknown key", func(t *testing.T) {
		runID := c.latestRun(t)
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		forger, err := record.NewSigner(keyring.Executor, key)
		if err != nil {
			t.Fatal(err)
		}
		seal := c.waitFor(t, runID, func(r *record.Decoded) bool { return r.Kind == pb.Kind_KIND_CRITERIA_SEALED })
		forged, err := forger.Sign(&pb.Record{RunId: runID, CriteriaDigest: seal.Record.GetCriteriaSealed().CriteriaDigest, Parents: []string{seal.Digest},
			TimeUnixNano: time.Now().UnixNano(), Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{}}})
		if err != nil {
			t.Fatal(err)
		}
		pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: []string{c.brokers}}, watermill.NopLogger{})
		if err != nil {
			t.Fatal(err)
		}
		defer pub.Close()
		if _, err := (&guard.Proposer{Pub: pub}).Append(context.Background(), forged); err != nil {
			t.Fatal(err)
		}
		ref := c.waitFor(t, runID, func(r *record.Decoded) bool {
			return r.Record.GetRecordRefused().GetRefusedDigest() == forged.Digest
		})
		if code := ref.Record.GetRecordRefused().ReasonCode; code != "unknown_producer" {
			t.Fatalf("refused with %q, want unknown_producer", code)
		}
	})
}

// messageOf returns the admitted message of a run's record.
func (c *cluster) messageOf(t *testing.T, runID, digest string) *message.Message {
	t.Helper()
	for _, m := range c.admitted(t, runID) {
		if m.Metadata.Get(ledger.MetaDigest) == digest {
			return m
		}
	}
	t.Fatalf("run %s: record %.16s… is not on the records topic", runID, digest)
	return nil
}

// copyOf returns a copy of m with everything it carries, as an
// at-least-once producer (or an attacker) writes it again.
func copyOf(m *message.Message) *message.Message {
	c := message.NewMessage(m.UUID, m.Payload)
	for k, v := range m.Metadata {
		c.Metadata.Set(k, v)
	}
	return c
}

// inject writes msgs straight to the records topic, bypassing the guard.
func (c *cluster) inject(t *testing.T, msgs ...*message.Message) {
	t.Helper()
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: []string{c.brokers}}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if err := pub.Publish(ledger.Topic, msgs...); err != nil {
		t.Fatal(err)
	}
}

// latestRun returns the id of the newest run on the records topic.
func (c *cluster) latestRun(t *testing.T) string {
	t.Helper()
	var id string
	var newest int64
	v := c.admissions(t)
	err := kafka.ReadAll(context.Background(), []string{c.brokers}, ledger.Topic, func(_ int, _ int64, m *message.Message) error {
		a, err := v.Check(m.Metadata.Get(admission.Header), m.Payload)
		if err != nil {
			return nil // not the guard's
		}
		rec := a.Record
		if rec.Kind == pb.Kind_KIND_RUN_REQUESTED && rec.Record.TimeUnixNano > newest {
			newest, id = rec.Record.TimeUnixNano, rec.Record.GetRunId()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// runIDs returns the ids of the runs requested on the records topic.
func (c *cluster) runIDs(t *testing.T) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	v := c.admissions(t)
	err := kafka.ReadAll(context.Background(), []string{c.brokers}, ledger.Topic, func(_ int, _ int64, m *message.Message) error {
		a, err := v.Check(m.Metadata.Get(admission.Header), m.Payload)
		if err != nil {
			return nil // not the guard's
		}
		if a.Record.Kind == pb.Kind_KIND_RUN_REQUESTED {
			ids[a.Record.Record.GetRunId()] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// nextRun waits for a run on the records topic that known does not hold,
// adds it to known and returns it. A run's time cannot tell which run is
// new: a keyed run starts at its key's time, to the second, so two runs
// submitted within a second have the same time.
func (c *cluster) nextRun(t *testing.T, known map[string]bool) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		var fresh []string
		for id := range c.runIDs(t) {
			if !known[id] {
				fresh = append(fresh, id)
			}
		}
		switch len(fresh) {
		case 0:
			time.Sleep(100 * time.Millisecond)
			continue
		case 1:
			known[fresh[0]] = true
			return fresh[0]
		}
		t.Fatalf("more than one new run on the records topic: %v", fresh)
	}
	t.Fatal("no new run on the records topic after a minute")
	return ""
}

// restartsOf returns how often the supervisor restarted each service.
func (c *cluster) restartsOf() map[string]int {
	out := map[string]int{}
	for name, ps := range c.procs {
		for _, p := range ps {
			p.mu.Lock()
			out[name] += p.restarts
			p.mu.Unlock()
		}
	}
	return out
}

// logsOf returns the logs of a service's processes, joined.
func (c *cluster) logsOf(t *testing.T, name string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range c.procs[name] {
		data, err := os.ReadFile(p.log)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// poison writes to the records topic, labelled as run runID (so into its
// partition), what only somebody bypassing the guard can write there: junk,
// a failing job.result for the run's first executor job forged with an
// unknown key — bare, under its own admission, under one naming the ledger
// key, under the genuine admission of the run's plan — a genuine admitted
// result of run replayFrom relabelled as this run's, and a copy of the
// run's plan with altered metadata. It returns the forged record.
func (c *cluster) poison(t *testing.T, runID, replayFrom string) *record.Decoded {
	t.Helper()
	plan := c.waitFor(t, runID, func(r *record.Decoded) bool {
		return r.Kind == pb.Kind_KIND_JOB_PLANNED && r.Record.Producer.GetIdentity() == keyring.Executor
	})
	planMsg := c.messageOf(t, runID, plan.Digest)
	v := c.admissions(t)
	placed, err := v.Check(planMsg.Metadata.Get(admission.Header), planMsg.Payload)
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	forger, err := record.NewSigner(keyring.Executor, key)
	if err != nil {
		t.Fatal(err)
	}
	job := plan.Record.GetJobPlanned().Jobs[0]
	forged, err := forger.Sign(&pb.Record{RunId: runID, CriteriaDigest: plan.Record.CriteriaDigest, Parents: []string{plan.Digest}, Token: job.Token.GetId(),
		TimeUnixNano: time.Now().UnixNano(), Body: &pb.Record_JobResult{JobResult: &pb.JobResult{
			JobId: job.JobId, Termination: pb.Termination_TERMINATION_EXITED, ExitCode: 1, CasesRun: new(uint32(1)),
			Cases: []*pb.TestCase{{Name: "TestMedian", Outcome: "fail"}}, UnitsUsed: job.Token.GetBudgetUnits()}}})
	if err != nil {
		t.Fatal(err)
	}
	rogue, err := admission.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	ledgerKey := ""
	if k, err := keyring.Load(filepath.Join(c.dir, "keys"), keyring.Ledger); err != nil {
		t.Fatal(err)
	} else if s, err := k.Signer(keyring.Ledger); err != nil {
		t.Fatal(err)
	} else {
		ledgerKey = s.KeyID()
	}
	admitted := func(header string) *message.Message {
		m, err := ledger.Message(forged)
		if err != nil {
			t.Fatal(err)
		}
		if header != "" {
			m.Metadata.Set(admission.Header, header)
		}
		return m
	}
	next := placed.Head().Next(runID, forged.Digest)
	own := rogue.Sign(placed.Head(), next)
	namesLedger := own
	namesLedger.KeyID = ledgerKey
	var replayed *message.Message
	for _, m := range c.admitted(t, replayFrom) {
		if m.Metadata.Get(ledger.MetaKind) == record.KindName(pb.Kind_KIND_JOB_RESULT) {
			replayed = copyOf(m)
			break
		}
	}
	if replayed == nil {
		t.Fatalf("run %s has no job.result to replay", replayFrom)
	}
	replayed.Metadata.Set(ledger.MetaRunID, runID)
	junk := message.NewMessage("junk-"+runID, []byte("\x00\xffnot a record"))
	junk.Metadata.Set(ledger.MetaRunID, runID)
	unlabelled := message.NewMessage("", []byte{0x0a, 0xff, 0xff})
	altered := copyOf(planMsg)
	altered.Metadata.Set(ledger.MetaKind, record.KindName(pb.Kind_KIND_VERDICT_REACHED))
	altered.Metadata.Set("traceparent", "00-00000000000000000000000000000001-0000000000000001-01")
	c.inject(t, junk, unlabelled, admitted(""), admitted(own.String()), admitted(namesLedger.String()),
		admitted(planMsg.Metadata.Get(admission.Header)), replayed, altered)
	return forged
}

// Issue #12 item 4: a poisoned records topic. While runs are in flight,
// junk, a job.result forged with an unknown key (with and without forged
// admissions) and a genuine record replayed from another run are written
// straight to the records topic. Every run reaches its normal verdict
// (the embedded mode's), the forged result is never evidence, no process
// exits, and each reader logs and counts its refusals. Readers that start
// over meet the same messages again: the gateway, killed, re-indexes the
// topic from its start; the executors, killed in the middle of a run,
// read its history through them.
func TestDistributedPoisonedTopic(t *testing.T) {
	col := &collector{metrics: map[string]bool{}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collmetrics.RegisterMetricsServiceServer(srv, metricsReceiver{c: col})
	go srv.Serve(lis)
	defer srv.Stop()

	r := newRepo(t)
	fix, broken := r.patch(t, "honest-fix"), r.patch(t, "breaks-a-test")
	fixArgs := r.patchArgs(r.Base, fix.Commit, claimArgs(fix.Claims...)...)
	brokenArgs := r.patchArgs(r.Base, broken.Commit, claimArgs(broken.Claims...)...)
	wantFix, wantBroken := verify(t, fixArgs...), verify(t, brokenArgs...)
	c := newCluster(t, "--otlp-endpoint", lis.Addr().String(), "--otlp-insecure")

	// A first run, whose genuine records are replayed into the others.
	first := c.remote(t, fixArgs...)()
	if first.exitCode != wantFix.exitCode {
		t.Fatalf("first run: exit %d, want %d:\n%s", first.exitCode, wantFix.exitCode, first)
	}
	firstID := runIDOf(t, first)
	known := c.runIDs(t)

	// Two runs in flight, both poisoned once the executors planned.
	waitA := c.remote(t, fixArgs...)
	runA := c.nextRun(t, known)
	waitB := c.remote(t, brokenArgs...)
	runB := c.nextRun(t, known)
	forgedA := c.poison(t, runA, firstID)
	forgedB := c.poison(t, runB, firstID)
	for _, tc := range []struct {
		name   string
		wait   func() *run
		want   *run
		runID  string
		forged *record.Decoded
	}{{"honest fix", waitA, wantFix, runA, forgedA}, {"breaks a test", waitB, wantBroken, runB, forgedB}} {
		got := tc.wait()
		if got.exitCode != tc.want.exitCode {
			t.Fatalf("%s: exit %d, embedded %d:\n%s", tc.name, got.exitCode, tc.want.exitCode, got)
		}
		sameVerdict(t, tc.name, parseVerdict(t, tc.want), parseVerdict(t, got))
		c.wantWhole(t, tc.runID)
		for _, rec := range c.records(t, tc.runID) {
			if rec.Digest == tc.forged.Digest || slices.Contains(rec.Record.Parents, tc.forged.Digest) {
				t.Fatalf("%s: the forged result is on the ledger as %s", tc.name, record.KindName(rec.Kind))
			}
		}
	}

	// The gateway starts over: it reads the whole topic, junk included.
	c.procs["gateway"][0].kill(t, syscall.SIGKILL)
	waitTCP(t, c.gateway)
	// The executors die in the middle of a poisoned run; the new ones read
	// its history through the junk and finish it.
	waitC := c.remote(t, fixArgs...)
	runC := c.nextRun(t, known)
	forgedC := c.poison(t, runC, firstID)
	for _, p := range c.procs["executor"] {
		p.kill(t, syscall.SIGKILL)
	}
	got := waitC()
	if got.exitCode != wantFix.exitCode {
		t.Fatalf("after the restarts: exit %d, embedded %d:\n%s", got.exitCode, wantFix.exitCode, got)
	}
	sameVerdict(t, "after the restarts", parseVerdict(t, wantFix), parseVerdict(t, got))
	c.wantWhole(t, runC)
	for _, rec := range c.records(t, runC) {
		if rec.Digest == forgedC.Digest || slices.Contains(rec.Record.Parents, forgedC.Digest) {
			t.Fatalf("after the restarts: the forged result is on the ledger as %s", record.KindName(rec.Kind))
		}
	}

	// Nobody exited but those killed.
	for name, n := range c.restartsOf() {
		want := map[string]int{"gateway": 1, "executor": 2}[name]
		if n != want {
			t.Errorf("%s restarted %d times, want %d:\n%s", name, n, want, c.logsOf(t, name))
		}
	}
	// Each reader logged its refusals, with their reasons.
	for _, name := range []string{"gateway", "executor", "checkout", "reach", "mutation", "adjudication", "signing"} {
		logs := c.logsOf(t, name)
		for _, code := range []string{admission.CodeUndecodable, admission.CodeUnadmitted, admission.CodeUnknownKey, admission.CodeBadSignature} {
			if !strings.Contains(logs, ": "+code+": ") {
				t.Errorf("%s never logged a %s refusal:\n%s", name, code, logs)
			}
		}
	}
	// What the restarted executors meet of run C depends on how far the
	// killed ones got: with the run unfinished and their offsets committed
	// past its start, the new ones read its history through the junk; with
	// offsets behind the junk, they read the junk itself again. Either way
	// they refuse it. Had the killed executors finished and committed the
	// whole run, the new ones meet nothing of it.
	after := ""
	for _, p := range c.procs["executor"] {
		data, err := os.ReadFile(p.log)
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.LastIndex(string(data), "executor: started"); i >= 0 {
			after += string(data[i:])
		}
	}
	switch {
	case strings.Contains(after, "history of run "+runC), strings.Contains(after, `"junk-`+runC+`"`):
	case strings.Contains(after, runC):
		t.Errorf("the restarted executors met run %s but refused none of its junk:\n%s", runC, after)
	default:
		t.Logf("the killed executors had finished run %s before they died: the restarted ones never met it", runC)
	}
	c.stop() // the services flush their metrics as they stop
	col.mu.Lock()
	defer col.mu.Unlock()
	if !col.metrics["sealgate.records.refused"] {
		t.Errorf("sealgate.records.refused never exported (got %v)", col.metrics)
	}
}
