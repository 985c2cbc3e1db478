package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
)

// BenchmarkDistributed measures verifications per minute of the cluster —
// every service its own process over the dev broker — on the fixture set
// (the demo's three patches, default floors: claims, suite, coverage and
// mutants), submitted at once, with one and with two executor replicas.
//
//	go test -run '^$' -bench Distributed -benchtime 3x ./e2e
func BenchmarkDistributed(b *testing.B) {
	if binary == "" {
		b.Skip("needs the sealgate binary (not -short, not Bazel)")
	}
	repo, err := demo.Build(context.Background(), filepath.Join(b.TempDir(), "calc"))
	if err != nil {
		b.Fatal(err)
	}
	for _, executors := range []int{1, 2} {
		b.Run(fmt.Sprintf("executors=%d", executors), func(b *testing.B) {
			c := newClusterWith(b, executors)
			round := func() {
				var waits []func() *run
				for _, p := range repo.Patches {
					args := []string{"--repo", repo.Dir, "--base", repo.Base, "--patch", p.Commit}
					for _, claim := range p.Claims {
						args = append(args, "--claim", claim)
					}
					waits = append(waits, c.remote(b, args...))
				}
				for _, w := range waits {
					if r := w(); r.exitCode > exitInconclusive {
						b.Fatalf("no verdict:\n%s", r)
					}
				}
			}
			round() // warm: consumer groups joined, build cache filled
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				round()
			}
			b.ReportMetric(float64(b.N*len(repo.Patches))/time.Since(start).Minutes(), "verifications/min")
		})
	}
}
