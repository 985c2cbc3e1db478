package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
)

// servePartitions is the partition count `sealgate serve` creates the
// ledger's topics with by default.
const servePartitions = 8

// rebuiltLine is a guard shard's log line for a partition it took over.
var rebuiltLine = regexp.MustCompile(`ledger: partition (\d+): admission state rebuilt from (\d+) admitted records`)

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

	// Load: runs submitted together, spread over the partitions by their
	// ids; the first shard dies once the first verdict is on the ledger,
	// with the others in flight.
	const runs = 4
	waits := make([]func() *run, runs)
	for i := range waits {
		waits[i] = c.remote(t, args...)
	}
	got := make([]verdictOf, runs)
	var killedAt int64
	var heldBefore, survivorBefore map[int][]int
	for i, wait := range waits {
		if i == 1 {
			killedAt = logSize(t, second.log)
			heldBefore, survivorBefore = rebuiltPartitions(t, first.log, 0), rebuiltPartitions(t, second.log, 0)
			// Killed for good: the supervisor does not start it again, so
			// its partitions go to the other shard.
			first.mu.Lock()
			first.stopped = true
			first.mu.Unlock()
			first.kill(t, syscall.SIGKILL)
		}
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
	for p := range heldBefore {
		if _, ok := after[p]; ok {
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("no partition of the killed shard (%v) was taken over by the survivor after the kill (%v)", heldBefore, after)
	}

	ver := sealgate(t, "ledger", "verify", "--brokers", c.brokers, "--trust", filepath.Join(c.dir, "keys", "trust.json"))
	if ver.exitCode != 0 || !strings.Contains(ver.stdout, "ok: ") {
		t.Fatalf("ledger verify:\n%s", ver)
	}
}
