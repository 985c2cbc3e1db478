package handler

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealgate/sealgate/services/adjudication"
)

// BenchmarkSeal measures sealing verdicts into the embedded log: build and
// sign the three statements (Ed25519), append the verdict envelope, wait
// for a signed checkpoint that contains it and build its inclusion proof.
// With one verdict in flight it is the latency of sealing one verdict; with
// many, verdicts share batches and checkpoints (the throughput).
//
//	go test -run '^$' -bench BenchmarkSeal -benchtime 3s ./services/signing/handler
func BenchmarkSeal(b *testing.B) {
	for _, inflight := range []int{1, 16, 256, 1024} {
		b.Run(fmt.Sprintf("inflight=%d", inflight), func(b *testing.B) {
			ctx := context.Background()
			s, _, l := sealer(b)
			ratio := 1.0
			art := func(i int) *adjudication.Artefact {
				return &adjudication.Artefact{
					Schema: adjudication.ArtefactSchema, RunID: fmt.Sprintf("run-%d", i), Decision: adjudication.Merge,
					Reason: "MERGE", CriteriaDigest: strings.Repeat("c", 64),
					Baseline: adjudication.TreeRef{Commit: strings.Repeat("1", 40)},
					Patch:    adjudication.PatchRef{Digest: strings.Repeat("2", 64)},
					Coverage: adjudication.CoverageRef{Ratio: &ratio},
				}
			}
			work := make(chan int)
			var wg sync.WaitGroup
			var mu sync.Mutex
			var total time.Duration
			for range inflight {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range work {
						start := time.Now()
						if _, _, _, err := Seal(ctx, s, l, art(i), []byte("artefact"), nil, "bench"); err != nil {
							b.Error(err)
							return
						}
						mu.Lock()
						total += time.Since(start)
						mu.Unlock()
					}
				}()
			}
			b.ResetTimer()
			start := time.Now()
			for i := range b.N {
				work <- i
			}
			close(work)
			wg.Wait()
			elapsed := time.Since(start)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "verdicts/s")
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/verdict-latency")
		})
	}
}
