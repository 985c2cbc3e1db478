package guard_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/record"
)

// BenchmarkShards measures admitted records per second with one and two
// guard shards (members of one consumer group) over an in-process kfake
// broker, topics of 4, 8 and 16 partitions (a shard admits each partition it
// holds in a goroutine of its own). Once
// the group has settled (every partition held), whole scenario runs are
// proposed in one batch — every record checked (Ed25519) and stamped
// (Ed25519) — and the clock runs to the last admission.
//
//	go test ./ledger/guard -run '^$' -bench BenchmarkShards -benchtime 3x
func BenchmarkShards(b *testing.B) {
	for _, bc := range []struct{ partitions, shards int }{{4, 1}, {4, 2}, {8, 1}, {8, 2}, {16, 1}, {16, 2}} {
		shards := bc.shards
		b.Run(fmt.Sprintf("partitions=%d/shards=%d", bc.partitions, shards), func(b *testing.B) {
			var total time.Duration
			admitted := 0
			for it := range b.N {
				b.StopTimer()
				e := newShardedEnvOf(b, bc.partitions)
				members := make([]*shardMember, shards)
				for i := range members {
					members[i] = e.startShard(fmt.Sprint(i))
					members[i].g.Logf = nil
				}
				// Warm up until the group has settled: every member holds
				// partitions, together all of them.
				settled := func() bool {
					held := 0
					for _, m := range members {
						n := len(m.g.Stats().Partitions)
						if n == 0 {
							return false
						}
						held += n
					}
					return held == bc.partitions
				}
				for w := 0; !settled(); w++ {
					if e.ctx.Err() != nil {
						b.Fatal("the group never settled")
					}
					for p := range bc.partitions {
						r := e.run(e.runOn(p, fmt.Sprintf("warm-%d-%d", it, w)), 1)
						e.propose(r.Request)
					}
					time.Sleep(100 * time.Millisecond)
				}
				base := uint64(0)
				for _, m := range members {
					base += m.g.Stats().Admitted
				}
				var recs []*record.Decoded
				for i := range 200 {
					r := e.run(fmt.Sprintf("bench-%d-%d", it, i), 8)
					recs = append(recs, r.Records()...)
				}
				b.StartTimer()
				start := time.Now()
				e.propose(recs...)
				e.awaitCond("every record admitted", func() bool {
					n := uint64(0)
					for _, m := range members {
						n += m.g.Stats().Admitted
					}
					// Warm-up proposals still in flight may land after base.
					return n-base >= uint64(len(recs))
				})
				total += time.Since(start)
				admitted += len(recs)
				b.StopTimer()
				for d, ps := range e.partitionsOfRecords() {
					if len(ps) != 1 {
						b.Fatalf("record %.16s stored %d times", d, len(ps))
					}
				}
				for _, m := range members {
					if err := m.stop(); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(admitted)/total.Seconds(), "records/s")
		})
	}
}
