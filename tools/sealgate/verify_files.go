package main

import (
	"context"
	"sync"
	"time"

	"github.com/sealgate/sealgate/ledger/safefile"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout/patch"
)

// checkFiles checks, before anything is sealed, the files verify reads and
// writes: the state directory is made absolute (jobs run elsewhere), each
// output must be writable where it is asked for, and the patch limit must
// be positive.
func (o *verifyOptions) checkFiles() error {
	if o.maxPatchBytes <= 0 {
		return usageErrorf("--max-patch-bytes %d must be positive", o.maxPatchBytes)
	}
	if o.remote == "" {
		abs, err := absState(o.state)
		if err != nil {
			return err
		}
		o.state = abs
	}
	for _, out := range []struct{ flag, path string }{
		{"--out", o.out}, {"--attestation", o.attestation}, {"--mutation-report", o.mutationReport},
	} {
		if err := checkOutput(out.flag, out.path); err != nil {
			return err
		}
	}
	return nil
}

// readPatch reads --patch-file within --max-patch-bytes.
func (o *verifyOptions) readPatch() ([]byte, error) {
	limit := o.maxPatchBytes
	if limit <= 0 {
		limit = defaultMaxPatchBytes
	}
	return readInput("--patch-file", o.patchFile, limit, "--max-patch-bytes")
}

// Patches at least this large get pre-flight progress lines.
const (
	bigPatchBytes = 1 << 20
	bigPatchHunks = 1000
)

// preflightProgress says what a large patch holds before it is applied,
// then, every interval until stop is called, that the pre-flight is still
// at work (git applies a patch of many hunks to one file in time that grows
// with the square of their number). It prints nothing for a small patch.
func preflightProgress(view *progress, diff []byte, interval time.Duration) (stop func()) {
	started := time.Now()
	p, err := patch.Parse(diff)
	if err != nil || (len(diff) < bigPatchBytes && countHunks(p) < bigPatchHunks) {
		// A small patch, or one Prepare refuses, naming the problem.
		return func() {}
	}
	view.line("pre-flight: the patch is %s: %d files, %d hunks, parsed in %.1fs; applying it to the baseline…",
		safefile.Size(int64(len(diff))), len(p.Files), countHunks(p), time.Since(started).Seconds())
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				view.line("pre-flight: still applying the patch (%s)…", time.Since(started).Round(time.Second))
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			view.line("pre-flight: patch applied in %.1fs", time.Since(started).Seconds())
		})
	}
}

func countHunks(p *patch.Patch) int {
	n := 0
	for _, f := range p.Files {
		n += len(f.Hunks)
	}
	return n
}

// writeSealedOutput writes the outputs a sealed verdict asked for.
func writeSealedOutput(flag, path string, data []byte) error {
	if path == "" {
		return nil
	}
	if err := writeOutput(path, data); err != nil {
		return infraErrorf("%s: %v", flag, err)
	}
	return nil
}

// recordedVerdict is the run's verdict.reached on the ledger, if any.
func recordedVerdict(ctx context.Context, st *state, runID string) *pb.VerdictReached {
	recs, _ := localHistory(st.log)(ctx, runID)
	for _, r := range recs {
		if v := r.Record.GetVerdictReached(); v != nil {
			return v
		}
	}
	return nil
}
