package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	demorepo "github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
)

// BenchmarkVerifyDemo verifies the demo's honest fix end to end, in
// process, against one state directory (so the gate's build cache is warm
// after the first run, as on a CI machine that keeps its state). It reports
// the gate's own overhead: the wall time of the verification minus the
// summed wall time of the test processes it started, which the artefact
// records from the ledger.
//
//	go test -run '^$' -bench VerifyDemo -benchtime 5x ./tools/sealgate
func BenchmarkVerifyDemo(b *testing.B) { benchVerifyDemo(b, false) }

// BenchmarkVerifyDemoMeasured is the same verification with the default
// floors: diff coverage (a coverage test binary, each test alone) and up
// to 20 mutants compiled once as schemata, each run against the tests that
// reach its line.
//
//	go test -run '^$' -bench VerifyDemoMeasured -benchtime 5x ./tools/sealgate
func BenchmarkVerifyDemoMeasured(b *testing.B) { benchVerifyDemo(b, true) }

func benchVerifyDemo(b *testing.B, measured bool) {
	if os.Getenv("TEST_SRCDIR") != "" {
		b.Skip("needs git and the go tool")
	}
	ctx := context.Background()
	dir := b.TempDir()
	repo, err := demorepo.Build(ctx, filepath.Join(dir, "calc"))
	if err != nil {
		b.Fatal(err)
	}
	var honest demorepo.Patch
	for _, p := range repo.Patches {
		if p.Expect == demorepo.Merge {
			honest = p
		}
	}
	o := &verifyOptions{
		repo: repo.Dir, base: repo.Base, patch: honest.Commit, claims: honest.Claims,
		coverageFloor: 0, strengthFloor: 0, strengthConfidence: criteria.DefaultStrengthConfidence,
		timeout: 10 * time.Minute, state: filepath.Join(dir, "state"), sandbox: "auto", reruns: criteria.DefaultStabilityReruns,
		buildCache: filepath.Join(dir, "gocache"),
	}
	if measured {
		o.coverageFloor, o.strengthFloor, o.mutationMax = criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor, criteria.DefaultMutationMax
	}
	// One warm-up run fills the build cache.
	if _, err := runVerify(ctx, o, io.Discard, io.Discard); err != nil {
		b.Fatal(err)
	}
	var wall, tests time.Duration
	var procs, mutants int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		start := time.Now()
		code, err := runVerify(ctx, o, &out, io.Discard)
		took := time.Since(start)
		if err != nil || code != 0 {
			b.Fatalf("exit %d, %v", code, err)
		}
		var a struct {
			Timing struct {
				TestProcesses       int   `json:"test_processes"`
				TestProcessesMillis int64 `json:"test_processes_ms"`
			} `json:"timing"`
			Strength struct {
				Killed, Survived, Stillborn int
			} `json:"strength"`
		}
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			b.Fatal(err)
		}
		mutants += a.Strength.Killed + a.Strength.Survived + a.Strength.Stillborn
		wall += took
		tests += time.Duration(a.Timing.TestProcessesMillis) * time.Millisecond
		procs += a.Timing.TestProcesses
	}
	n := float64(b.N)
	overhead := wall - tests
	b.ReportMetric(float64(wall.Milliseconds())/n, "wall-ms/op")
	b.ReportMetric(float64(tests.Milliseconds())/n, "test-ms/op")
	b.ReportMetric(float64(overhead.Milliseconds())/n, "overhead-ms/op")
	b.ReportMetric(100*float64(overhead)/float64(tests), "overhead-%")
	b.ReportMetric(float64(procs)/n, "test-procs/op")
	if measured {
		b.ReportMetric(float64(mutants)/n, "mutants/op")
	}
}

// BenchmarkVerifyPythonDemo verifies every patch of the bundled Python
// demo (pytest claims, the pytest suite, coverage.py with a context per
// test, Python mutants) at the default floors, one op being the whole demo,
// and reports its wall time next to the summed wall time of the test
// processes the verifications started (from the artefacts' timing).
//
//	go test -run '^$' -bench VerifyPythonDemo -benchtime 3x ./tools/sealgate
func BenchmarkVerifyPythonDemo(b *testing.B) {
	if os.Getenv("TEST_SRCDIR") != "" {
		b.Skip("needs git and python3 with pytest and coverage")
	}
	ctx := context.Background()
	dir := b.TempDir()
	repo, err := demorepo.BuildPython(ctx, filepath.Join(dir, "pystats"))
	if err != nil {
		b.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	verifyAll := func() (wall, tests time.Duration, procs int) {
		for _, p := range repo.Patches {
			o := &verifyOptions{
				repo: repo.Dir, base: repo.Base, patch: p.Commit, claims: p.Claims,
				coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
				strengthConfidence: criteria.DefaultStrengthConfidence, mutationMax: criteria.DefaultMutationMax,
				timeout: 10 * time.Minute, state: state, sandbox: "auto", reruns: criteria.DefaultStabilityReruns,
			}
			var out bytes.Buffer
			start := time.Now()
			if _, err := runVerify(ctx, o, &out, io.Discard); err != nil {
				b.Fatal(err)
			}
			wall += time.Since(start)
			var a struct {
				Decision string `json:"decision"`
				Timing   struct {
					TestProcesses       int   `json:"test_processes"`
					TestProcessesMillis int64 `json:"test_processes_ms"`
				} `json:"timing"`
			}
			if err := json.Unmarshal(out.Bytes(), &a); err != nil {
				b.Fatal(err)
			}
			if a.Decision != p.Expect {
				b.Fatalf("%s: %s, want %s", p.Name, a.Decision, p.Expect)
			}
			tests += time.Duration(a.Timing.TestProcessesMillis) * time.Millisecond
			procs += a.Timing.TestProcesses
		}
		return wall, tests, procs
	}
	verifyAll() // warm-up: keys, the embedded log, the page cache
	var wall, tests time.Duration
	var procs int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, t, p := verifyAll()
		wall, tests, procs = wall+w, tests+t, procs+p
	}
	n := float64(b.N)
	b.ReportMetric(float64(wall.Milliseconds())/n, "wall-ms/op")
	b.ReportMetric(float64(tests.Milliseconds())/n, "test-ms/op")
	b.ReportMetric(float64((wall-tests).Milliseconds())/n, "overhead-ms/op")
	b.ReportMetric(float64(procs)/n, "test-procs/op")
}
