package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
)

// servePartitions is the partition count `sealgate serve` creates the
// ledger's topics with by default.
const servePartitions = 8

// rebuiltLine is a guard shard's log line for a partition it took over;
// partitionLine also matches the line of one it let go.
var (
	rebuiltLine   = regexp.MustCompile(`ledger: partition (\d+): admission state rebuilt from (\d+) admitted records`)
	partitionLine = regexp.MustCompile(`ledger: partition (\d+): (admission state rebuilt|released)`)
)

// admitting lists the partitions a guard shard's log says it holds with a
// rebuilt state: partitions whose proposals it is admitting now.
func admitting(t *testing.T, log string) map[int]bool {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, m := range partitionLine.FindAllStringSubmatch(string(b), -1) {
		var p int
		fmt.Sscan(m[1], &p)
		out[p] = m[2] != "released"
	}
	for p, held := range out {
		if !held {
			delete(out, p)
		}
	}
	return out
}

// logSize is how much of log is written.
func logSize(t *testing.T, log string) int64 {
	t.Helper()
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// rebuiltPartitions lists, per partition, how many records each rebuild
// of it by the ledger process that wrote log replayed, from byte from of
// the log on.
func rebuiltPartitions(t *testing.T, log string, from int64) map[int][]int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]int{}
	for _, m := range rebuiltLine.FindAllStringSubmatch(string(b[from:]), -1) {
		var p, n int
		fmt.Sscan(m[1], &p)
		fmt.Sscan(m[2], &n)
		out[p] = append(out[p], n)
	}
	return out
}

// Issue #19, admission sharded by partition: two `sealgate serve ledger`
// processes are two guard shards of one consumer group. Runs on different
// partitions are admitted by both; one shard is killed (SIGKILL, not
// restarted) while runs are in flight and its partitions move to the
// other, which rebuilds each from that partition alone. Every run ends
// with the verdict of an undisturbed run, every chain whole with no record
// twice, and `sealgate ledger verify` of the topic is clean.
func TestShardedGuardSurvivesAMovedShard(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	args := r.patchArgs(r.Base, fix.Commit, claimArgs(fix.Claims...)...)
	want := parseVerdict(t, verify(t, args...))
	c := newClusterWith(t, 1)
	// The second shard: the same flags as the first ledger process's.
	first := c.procs["ledger"][0]
	argv := append([]string(nil), first.argv...)
	for i, a := range argv {
		if a == "--state" {
			argv[i+1] = filepath.Join(c.dir, "state-ledger-1")
		}
	}
	c.add(t, "ledger", argv)
	second := c.procs["ledger"][1]
	// Both shards hold partitions before the load starts: a shard that
	// joins late would take its partitions over mid-load.
	waitGroup(t, c.brokers, "ledger", guard.ProposalTopic, 2)

	// Load: eight runs submitted at once, spread over the partitions by
	// their ids. As soon as both shards are admitting proposals of them —
	// the runs just started — the first dies: the runs on its partitions
	// must go on through the other. (All eight landing on one shard's four
	// partitions has a chance of 2/256.)
	waits := make([]func() *run, 8)
	for i := range waits {
		waits[i] = c.remote(t, args...)
	}
	for end := time.Now().Add(2 * time.Minute); len(admitting(t, first.log)) == 0 || len(admitting(t, second.log)) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the two shards are not both admitting: %v and %v", admitting(t, first.log), admitting(t, second.log))
		}
	}
	runs := len(waits)
	killedAt := logSize(t, second.log)
	heldBefore, survivorBefore := rebuiltPartitions(t, first.log, 0), rebuiltPartitions(t, second.log, 0)
	victimHeld := admitting(t, first.log)
	// Killed for good: the supervisor does not start it again, so its
	// partitions go to the other shard.
	first.mu.Lock()
	first.stopped = true
	first.mu.Unlock()
	first.kill(t, syscall.SIGKILL)
	got := make([]verdictOf, runs)
	for i, wait := range waits {
		res := wait()
		if res.exitCode != exitMerge {
			t.Fatalf("run %d: exit %d:\n%s", i, res.exitCode, res)
		}
		got[i] = parseVerdict(t, res)
		sameVerdict(t, fmt.Sprintf("run %d", i), want, got[i])
	}
	parts := map[int]bool{}
	for _, v := range got {
		c.wantWhole(t, v.RunID)
		parts[kafka.PartitionOf([]byte(guard.PartitionKey(v.RunID)), servePartitions)] = true
	}
	t.Logf("runs on partitions %v", parts)

	// Both shards admitted before the kill, and after it the survivor
	// took over partitions the killed shard had held, each rebuilt from
	// its partition alone.
	after := rebuiltPartitions(t, second.log, killedAt)
	t.Logf("rebuilt before the kill: killed shard %v, survivor %v; by the survivor after it: %v", heldBefore, survivorBefore, after)
	if len(heldBefore) == 0 || len(survivorBefore) == 0 {
		t.Fatalf("partitions rebuilt before the kill: by the killed shard %v, by the survivor %v: want both to have admitted", heldBefore, survivorBefore)
	}
	moved := 0
	for p := range victimHeld {
		if _, ok := after[p]; ok {
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("no partition the killed shard was admitting (%v) was taken over by the survivor after the kill (%v)", victimHeld, after)
	}

	ver := sealgate(t, "ledger", "verify", "--brokers", c.brokers, "--trust", filepath.Join(c.dir, "keys", "trust.json"))
	if ver.exitCode != 0 || !strings.Contains(ver.stdout, "ok: ") {
		t.Fatalf("ledger verify:\n%s", ver)
	}
}
