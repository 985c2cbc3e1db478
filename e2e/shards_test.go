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

// rebuiltPartitions lists, per partition, how many records each rebuild
// of it by the ledger process that wrote log replayed.
func rebuiltPartitions(t *testing.T, log string) map[int][]int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]int{}
	for _, m := range rebuiltLine.FindAllStringSubmatch(string(b), -1) {
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
	for i, wait := range waits {
		if i == 1 {
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

	// Both shards admitted, and the survivor took over partitions it did
	// not hold before the kill, each rebuilt from its partition alone.
	before, after := rebuiltPartitions(t, first.log), rebuiltPartitions(t, second.log)
	if len(before) == 0 || len(after) == 0 {
		t.Fatalf("partitions rebuilt by the killed shard %v, by the survivor %v: want both to have held some", before, after)
	}
	moved := 0
	for p := range before {
		if _, ok := after[p]; ok {
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("no partition of the killed shard (%v) was taken over by the survivor (%v)", before, after)
	}

	ver := sealgate(t, "ledger", "verify", "--brokers", c.brokers, "--trust", filepath.Join(c.dir, "keys", "trust.json"))
	if ver.exitCode != 0 || !strings.Contains(ver.stdout, "ok: ") {
		t.Fatalf("ledger verify:\n%s", ver)
	}
}
