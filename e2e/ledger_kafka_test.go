package e2e

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Issue #18: the ledger tools on the distributed mode's Kafka ledger. Two
// real verifications through the services (a MERGE and a BLOCK), then
// `ledger runs`, `ledger inspect`, `ledger verify` and `replay` with
// --brokers: every run id whole, every decision the sealed one, every
// verdict recomputed byte for byte with its seal checked. A verdict forged
// and written straight to the records topic is in no listing, replays as
// nothing, and is reported as refused; a copy of an admitted message (an
// at-least-once producer's) changes nothing.
func TestLedgerKafkaToolsOnADistributedRun(t *testing.T) {
	r := newRepo(t)
	c := newCluster(t)
	trust := filepath.Join(c.dir, "keys", "trust.json")
	kafkaFlags := []string{"--brokers", c.brokers, "--trust", trust}

	arts := map[string]verdictOf{}
	var ids []string
	waits := map[string]func() *run{}
	for _, name := range []string{"honest-fix", "breaks-a-test"} {
		p := r.patch(t, name)
		waits[name] = c.remote(t, r.patchArgs(r.Base, p.Commit, claimArgs(p.Claims...)...)...)
	}
	for _, name := range []string{"honest-fix", "breaks-a-test"} {
		got := waits[name]()
		v := parseVerdict(t, got)
		arts[v.RunID] = v
		ids = append(ids, v.RunID)
	}
	honest := ids[0]
	if arts[honest].Decision != "MERGE" || arts[ids[1]].Decision != "BLOCK" {
		t.Fatalf("decisions %s and %s, want MERGE and BLOCK", arts[honest].Decision, arts[ids[1]].Decision)
	}

	// The attack: a BLOCK verdict of the honest run signed by a stranger,
	// written past the guard. The honest twin: a copy of one of the run's
	// admitted messages.
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := record.NewSigner(keyring.Adjudication, key)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := stranger.Sign(&pb.Record{RunId: honest, TimeUnixNano: time.Now().UnixNano(),
		Body: &pb.Record_VerdictReached{VerdictReached: &pb.VerdictReached{Decision: pb.Decision_DECISION_BLOCK, Reason: "forged verdict"}}})
	if err != nil {
		t.Fatal(err)
	}
	fm, err := ledger.Message(forged)
	if err != nil {
		t.Fatal(err)
	}
	recs := c.records(t, honest)
	c.inject(t, fm, copyOf(c.messageOf(t, honest, recs[2].Digest)))

	// ledger runs: both runs, whole, with the sealed decisions.
	runs := sealgate(t, append([]string{"ledger", "runs"}, kafkaFlags...)...)
	if runs.exitCode != 0 {
		t.Fatalf("ledger runs:\n%s", runs)
	}
	t.Logf("ledger runs --brokers %s:\n%s", c.brokers, runs.stdout)
	for _, id := range ids {
		line := lineStarting(runs.stdout, id+" ")
		if line == "" || !strings.Contains(line, " "+arts[id].Decision+" ") || !strings.Contains(line, " yes ") {
			t.Fatalf("run %s is not listed whole with its sealed decision %s:\n%s", id, arts[id].Decision, runs)
		}
	}
	if !strings.Contains(runs.stdout, "refused 1 message ") || !strings.Contains(runs.stdout, forged.Digest[:16]) {
		t.Fatalf("ledger runs does not report the forged verdict as refused:\n%s", runs)
	}
	js := sealgate(t, append([]string{"ledger", "runs", "--json"}, kafkaFlags...)...)
	var doc struct {
		Runs []struct {
			RunID    string `json:"run_id"`
			Decision string `json:"decision"`
			Sealed   bool   `json:"sealed"`
			Records  int    `json:"records"`
		} `json:"runs"`
		Refused []struct {
			Code  string `json:"code"`
			RunID string `json:"run_id"`
		} `json:"refused"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil || js.exitCode != 0 {
		t.Fatalf("ledger runs --json: %v\n%s", err, js)
	}
	if len(doc.Runs) != 2 || len(doc.Refused) != 1 || doc.Refused[0].RunID != honest || doc.Refused[0].Code != "unadmitted" {
		t.Fatalf("ledger runs --json:\n%s", js.stdout)
	}
	for _, rj := range doc.Runs {
		if a, ok := arts[rj.RunID]; !ok || rj.Decision != a.Decision || !rj.Sealed {
			t.Fatalf("ledger runs --json lists %+v; the artefacts say %v", rj, arts)
		}
	}
	for _, rj := range doc.Runs {
		if rj.RunID == honest && rj.Records != len(recs) {
			t.Fatalf("the honest run has %d admitted records; ledger runs counts %d:\n%s", len(recs), rj.Records, js.stdout)
		}
	}

	// ledger inspect: the run's admitted records, each with the whole run
	// id, and not the forged one.
	insp := sealgate(t, append([]string{"ledger", "inspect", "--run", honest}, kafkaFlags...)...)
	if insp.exitCode != 0 {
		t.Fatalf("ledger inspect:\n%s", insp)
	}
	listing, _, _ := strings.Cut(insp.stdout, "\nrefused ")
	if n := strings.Count(listing, " "+honest+" "); n != len(recs) {
		t.Fatalf("ledger inspect shows the whole run id on %d lines; the run has %d records:\n%s", n, len(recs), insp)
	}
	if strings.Contains(listing, forged.Digest[:12]) || !strings.Contains(insp.stdout, "refused: unadmitted") {
		t.Fatalf("ledger inspect lists the forged verdict, or does not report it refused:\n%s", insp)
	}

	// ledger verify: the whole Kafka ledger is clean.
	ver := sealgate(t, append([]string{"ledger", "verify"}, kafkaFlags...)...)
	if ver.exitCode != 0 || !strings.Contains(ver.stdout, "ok: ") || !strings.Contains(ver.stdout, "refused 1 message ") {
		t.Fatalf("ledger verify:\n%s", ver)
	}

	// replay: each verdict recomputed byte for byte, its seal checked
	// with the signing service's embedded log key.
	for _, id := range ids {
		rep := sealgate(t, append([]string{"replay", id, "--blobs", filepath.Join(c.dir, "blobs"), "--log-key", c.logKey()}, kafkaFlags...)...)
		if rep.exitCode != 0 || !strings.Contains(rep.stdout, "verdict record: recomputed bytes match") ||
			!strings.Contains(rep.stdout, "every check of `attest verify` passes") ||
			lineStarting(rep.stdout, "recomputed: ") != "recomputed: "+arts[id].Reason ||
			lineStarting(rep.stdout, "recorded:   ") != "recorded:   "+arts[id].Reason {
			t.Fatalf("replay %s (sealed: %s, %s):\n%s", id, arts[id].Decision, arts[id].Reason, rep)
		}
		t.Logf("replay %s --brokers %s:\n%s", id, c.brokers, rep.stdout)
		if id == honest && (!strings.Contains(rep.stdout, "refused: unadmitted") || strings.Contains(rep.stdout, "forged verdict")) {
			t.Fatalf("replay of the honest run does not report the forged verdict as refused, or used it:\n%s", rep)
		}
	}

	// Nothing answers at the address: said at once, exit 4.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := lis.Addr().String()
	lis.Close()
	bad := sealgate(t, "ledger", "runs", "--brokers", dead, "--trust", trust)
	if bad.exitCode != 4 || !strings.Contains(bad.stderr, "no Kafka broker answers at "+dead) || strings.Count(strings.TrimSpace(bad.stderr), "\n") != 0 {
		t.Fatalf("ledger runs with a dead broker:\n%s", bad)
	}
}

// lineStarting returns the first line of s that starts with prefix.
func lineStarting(s, prefix string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}
