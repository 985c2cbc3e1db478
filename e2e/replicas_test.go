package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// manyClaims is how many tests the replicas fixture claims: each runs on
// both sides, so the executor plans more than 2×manyClaims jobs.
const manyClaims = 20

// slowClaim is the fixture's one slow test (both sides): a job a replica is
// still running when the test kills it.
const slowClaim = "TestLookup07"

// replicasFixture commits, on the demo's baseline, a Lookup with a bug and
// manyClaims cheap tests of it (one of them slow), then the fix; it
// returns the verify arguments of the fix with every test claimed.
func replicasFixture(t *testing.T, r *repo) []string {
	t.Helper()
	var tests strings.Builder
	// The slow test sleeps only when it runs alone (its claim jobs), not in
	// the suites, the coverage runs or the mutants' runs.
	tests.WriteString("package calc\n\nimport (\n\t\"flag\"\n\t\"testing\"\n\t\"time\"\n)\n\nfunc alone(name string) bool {\n\tf := flag.Lookup(\"test.run\")\n\treturn f != nil && f.Value.String() == \"^\"+name+\"$\"\n}\n")
	var claims []string
	for i := range manyClaims {
		name := fmt.Sprintf("TestLookup%02d", i)
		sleep := ""
		if name == slowClaim {
			sleep = "\tif alone(t.Name()) {\n\t\ttime.Sleep(3 * time.Second)\n\t}\n"
		}
		fmt.Fprintf(&tests, "\nfunc %s(t *testing.T) {\n%s\tif got := Lookup(%d); got != %d {\n\t\tt.Fatalf(\"Lookup(%d) = %%d, want %d\", got)\n\t}\n}\n", name, sleep, i, i*i+1, i, i*i+1)
		claims = append(claims, "go:./calc:"+name)
	}
	// On the honest fix, whose suite is green: the fixture's verdict is
	// MERGE, not the demo baseline's INCONCLUSIVE red suite.
	base := r.commit(t, r.patch(t, "honest-fix").Commit, "lookup-base", "calc: Lookup, with its tests", map[string]string{
		"calc/lookup.go":      "package calc\n\n// Lookup returns i squared plus one.\nfunc Lookup(i int) int {\n\treturn i * i\n}\n",
		"calc/lookup_test.go": tests.String(),
	})
	fix := r.commit(t, base, "lookup-fix", "calc: Lookup adds the one", map[string]string{
		"calc/lookup.go": "package calc\n\n// Lookup returns i squared plus one.\nfunc Lookup(i int) int {\n\treturn i*i + 1\n}\n",
	})
	return r.patchArgs(base, fix, claimArgs(claims...)...)
}

// executorResults returns the executor's admitted job.results of a run, by
// token, failing t when a token has more than one or the run holds a
// refusal (two different answers to one token are refused as a conflict).
func (c *cluster) executorResults(t *testing.T, runID string) map[string]*record.Decoded {
	t.Helper()
	out := map[string]*record.Decoded{}
	for _, r := range c.records(t, runID) {
		if r.Kind == pb.Kind_KIND_RECORD_REFUSED {
			ref := r.Record.GetRecordRefused()
			t.Errorf("run %s holds a refusal: %s (%s)", runID, ref.GetReasonCode(), ref.GetDetail())
		}
		if r.Kind != pb.Kind_KIND_JOB_RESULT || r.Record.GetProducer().GetIdentity() != keyring.Executor {
			continue
		}
		tok := r.Record.GetToken()
		if out[tok] != nil {
			t.Errorf("run %s: token %s has two admitted results", runID, tok)
		}
		out[tok] = r
	}
	return out
}

// Issue #19 item 1: the jobs of one run spread over two executor replicas
// (each `sealgate serve executor`), and a replica killed while it runs a
// job has that job run again, after its lease, by the other one.
func TestReplicasShareARun(t *testing.T) {
	r := newRepo(t)
	args := replicasFixture(t, r)
	embedded := verify(t, args...)
	want := parseVerdict(t, embedded)
	t.Logf("embedded: %s (%s)", want.Decision, want.Reason)

	c := newClusterWith(t, 2, "--job-lease", "6s", "--job-lanes", "2")
	// Every lane of both replicas holds work partitions before the run
	// starts: a replica that joins late would find the jobs taken.
	waitGroup(t, c.brokers, "executor.work", "sealgate.work.v1", 4)

	t.Run("both replicas run jobs of one run", func(t *testing.T) {
		got := c.remote(t, args...)()
		if got.exitCode != embedded.exitCode {
			t.Fatalf("exit %d, embedded %d:\n%s", got.exitCode, embedded.exitCode, got)
		}
		v := parseVerdict(t, got)
		sameVerdict(t, "two replicas", want, v)
		results := c.executorResults(t, v.RunID)
		if len(results) < 2*manyClaims {
			t.Fatalf("run %s: %d executor results, want at least %d", v.RunID, len(results), 2*manyClaims)
		}
		workers := map[string]int{}
		for _, res := range results {
			workers[res.Record.GetJobResult().GetWorker()]++
		}
		// Both replicas name themselves: the run's items spread over the
		// work topic's partitions, and each replica's lanes hold some.
		if len(workers) != 2 || workers[""] != 0 {
			t.Fatalf("run %s: jobs by worker %v, want both replicas named", v.RunID, workers)
		}
		t.Logf("%d jobs of run %s, by replica: %v", len(results), v.RunID, workers)
		mutants := map[string]int{}
		for _, r := range c.records(t, v.RunID) {
			if r.Kind == pb.Kind_KIND_JOB_RESULT && r.Record.GetProducer().GetIdentity() == keyring.Mutation {
				mutants[r.Record.GetJobResult().GetWorker()]++
			}
		}
		if len(mutants) == 0 || mutants[""] != 0 {
			t.Fatalf("run %s: mutants by worker %v, want every mutant run from the work topic", v.RunID, mutants)
		}
	})

	t.Run("a replica killed mid-job", func(t *testing.T) {
		known := c.runIDs(t)
		wait := c.remote(t, args...)
		runID := c.nextRun(t, known)
		// The replica that takes the slow claim's job: its log names the
		// job as taken; it is killed (for good) while the job runs.
		taken := regexp.MustCompile(`msg="job taken" .*run=` + regexp.QuoteMeta(runID) + ` job=(\S*` + slowClaim + `\S*) token=(\S+)`)
		var victim, survivor *proc
		var token string
		deadline := time.Now().Add(time.Minute)
		for victim == nil && time.Now().Before(deadline) {
			for i, p := range c.procs["executor"] {
				if m := taken.FindStringSubmatch(c.logOf(t, p)); m != nil {
					victim, survivor, token = p, c.procs["executor"][1-i], m[2]
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		if victim == nil {
			t.Fatalf("no replica took the job of %s in run %s", slowClaim, runID)
		}
		victimName := replicaOf(t, c.logOf(t, victim))
		victim.killForGood(t)
		if res := c.executorResults(t, runID)[token]; res != nil {
			t.Fatalf("the job of token %s was answered before its replica was killed: the test killed no job in flight", token)
		}

		got := wait()
		if got.exitCode != embedded.exitCode {
			t.Fatalf("exit %d, embedded %d:\n%s", got.exitCode, embedded.exitCode, got)
		}
		v := parseVerdict(t, got)
		sameVerdict(t, "a replica killed", want, v)
		results := c.executorResults(t, runID)
		res := results[token]
		if res == nil {
			t.Fatalf("run %s: token %s was never answered", runID, token)
		}
		by := res.Record.GetJobResult().GetWorker()
		if by == victimName || by != replicaOf(t, c.logOf(t, survivor)) {
			t.Fatalf("token %s answered by %q: want the surviving replica (the killed one was %q)", token, by, victimName)
		}
		if !regexp.MustCompile(`msg="job taken" .*run=` + regexp.QuoteMeta(runID)).MatchString(c.logOf(t, survivor)) {
			t.Fatalf("the surviving replica took no job of run %s", runID)
		}
	})
}

// logOf reads one process's log.
func (c *cluster) logOf(t *testing.T, p *proc) string {
	t.Helper()
	b, err := os.ReadFile(p.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replicaOf is the replica name a worker's log lines carry.
func replicaOf(t *testing.T, log string) string {
	t.Helper()
	m := regexp.MustCompile(`msg="job taken".* replica=(\S+)`).FindStringSubmatch(log)
	if m == nil {
		t.Fatal("the log names no replica")
	}
	return m[1]
}

// killForGood sends SIGKILL and keeps the supervisor from starting the
// process again.
func (p *proc) killForGood(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	p.stopped = true
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s: %v", p.name, err)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not exit after SIGKILL", p.name)
	}
}
