package handler

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/checkouttest"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/runtime/runtimetest"
)

// TestHandle: given the records of a run, the reach service measures diff
// coverage once every coverage job of the executor's plan is answered —
// from a real go test profile of the patch — and records it with the
// reach map; evidence that allows no measurement is recorded as not
// measured, while a failure of the work (a profile the blob store does not
// hold, trees that do not rebuild) is an error, not a record.
func TestHandle(t *testing.T) {
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil || os.Getenv("TEST_SRCDIR") != "" {
			t.Skip("needs " + tool)
		}
	}
	ctx := context.Background()
	repo := filepath.Join(t.TempDir(), "repo")
	checkouttest.Run(t, filepath.Dir(repo), nil, "git", "init", "-q", repo)
	checkouttest.Write(t, repo, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"calc/add.go":      "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
		"calc/add_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n",
	})
	checkouttest.Run(t, repo, nil, "git", "add", "-A")
	checkouttest.Run(t, repo, nil, "git", "commit", "-q", "-m", "base")
	base := checkouttest.Run(t, repo, nil, "git", "rev-parse", "HEAD")
	checkouttest.Write(t, repo, map[string]string{"calc/add.go": "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\tsum := a + b\n\treturn sum\n}\n"})
	checkouttest.Run(t, repo, nil, "git", "commit", "-q", "-am", "fix")
	patched := checkouttest.Run(t, repo, nil, "git", "rev-parse", "HEAD")
	// The per-test profile of the claim on the patch, by a real go test.
	profile := filepath.Join(t.TempDir(), "add.out")
	gocache, err := exec.Command("go", "env", "GOCACHE").Output() // the caller's build cache
	if err != nil {
		t.Fatal(err)
	}
	checkouttest.Run(t, repo, []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOCACHE=" + strings.TrimSpace(string(gocache)), "GOPATH=" + t.TempDir()},
		"go", "test", "-count=1", "-run", "^TestAdd$", "-coverprofile="+profile, "./calc")
	prof, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}

	pre, err := checkout.Prepare(ctx, checkout.Input{Repo: repo, Baseline: base, PatchCommit: patched}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sealedWith := func(edit func(*criteria.Criteria)) runtime.Run {
		c := &criteria.Criteria{RunID: "run-1", Repository: repo, Baseline: base, PatchCommit: patched, PatchDigest: pre.DiffSHA256,
			Claims: []string{"go:./calc:TestAdd"}, CoverageFloor: 1, StrengthConfidence: 0.8, DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
		c.ApplyDefaults()
		if edit != nil {
			edit(c)
		}
		return runtimetest.Sealed(t, c, nil)
	}
	blobs, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	good, err := blobs.Put(ctx, prof)
	if err != nil {
		t.Fatal(err)
	}
	junk, err := blobs.Put(ctx, []byte("not a profile\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec := &jobs.Spec{Purpose: jobs.Coverage, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Package: "./calc", ImportPath: "example.com/m/calc"}
	// measured is the run sealed by seal, planned by the executor, with
	// the coverage job answered by outcome and the profile stored at
	// digest (no answer for outcome "").
	measured := func(seal runtime.Run, outcome, digest string) runtime.Run {
		planned, err := jobs.Plan(seal.Criteria, seal.Seal.Digest, criteria.BudgetTestRuns, []*jobs.Spec{spec})
		if err != nil {
			t.Fatal(err)
		}
		plan := runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: seal.ID, CriteriaDigest: seal.Criteria.Digest, Parents: []string{seal.Seal.Digest},
			Body: &pb.Record_JobPlanned{JobPlanned: planned}})
		recs := []*record.Decoded{plan}
		if outcome != "" {
			d, err := (&jobs.Detail{Outcome: outcome, Reason: "the tests " + outcome, Runs: []jobs.Run{{Verdict: outcome}},
				Profiles: map[string]string{"example.com/m/calc.TestAdd": digest}}).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: seal.ID, CriteriaDigest: seal.Criteria.Digest, Parents: []string{plan.Digest},
				Token: planned.Jobs[0].Token.Id, Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: spec.ID(), Detail: d}}}))
		}
		return runtimetest.With(t, seal, recs...)
	}
	sealed := sealedWith(nil)
	answered := measured(sealed, jobs.OutcomePass, good)
	already := runtimetest.With(t, answered, runtimetest.Sign(t, keyring.Reach, &pb.Record{RunId: "run-1",
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{}}}))

	for _, tc := range []struct {
		name      string
		run       runtime.Run
		refuse    bool
		want      []string
		source    pb.MeasurementSource
		reason    string
		fails     bool
		permanent bool
	}{
		{name: "coverage jobs answered: measured from the profile", run: answered, want: []string{"coverage.measured"},
			source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, reason: "2 of 2 changed executable lines run by 1 tests"},
		{name: "a coverage job not answered yet: nothing", run: measured(sealed, "", "")},
		{name: "measured already: nothing", run: already},
		{name: "a refused measurement is on the ledger: no error", run: answered, refuse: true},
		{name: "a coverage job that failed: not measured", run: measured(sealed, jobs.OutcomeFail, good), want: []string{"coverage.measured"},
			source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, reason: "coverage job " + spec.ID() + ": the tests " + jobs.OutcomeFail},
		{name: "a profile that does not parse: not measured", run: measured(sealed, jobs.OutcomePass, junk), want: []string{"coverage.measured"},
			source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, reason: "the profile of example.com/m/calc.TestAdd"},
		{name: "a profile the blob store does not hold: the work fails", run: measured(sealed, jobs.OutcomePass, strings.Repeat("0", 64)), fails: true},
		{name: "trees that do not rebuild: the run fails for good",
			run:   measured(sealedWith(func(c *criteria.Criteria) { c.Baseline = strings.Repeat("1", 40) }), jobs.OutcomePass, good),
			fails: true, permanent: true},
		{name: "coverage not sealed: nothing", run: measured(sealedWith(func(c *criteria.Criteria) { c.CoverageFloor = 0 }), jobs.OutcomePass, good)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := runtimetest.NewRecorder(t, keyring.Reach)
			if tc.refuse {
				rec.Refuse = func(*pb.Record) bool { return true }
			}
			last := tc.run.Records[len(tc.run.Records)-1]
			err := (&Handler{Blobs: blobs, Scratch: t.TempDir()}).Handle(ctx, last, tc.run, rec.Emit)
			if tc.fails != (err != nil) || tc.permanent != runtime.IsPermanent(err) {
				t.Fatalf("err = %v, want failure %v (permanent %v)", err, tc.fails, tc.permanent)
			}
			if got := rec.Kinds(); !slices.Equal(got, tc.want) {
				t.Fatalf("emitted %q, want %q", got, tc.want)
			}
			if len(tc.want) == 0 {
				return
			}
			m := rec.Emitted()[0].Record.GetCoverageMeasured()
			if m.Source != tc.source || !strings.Contains(m.Reason, tc.reason) {
				t.Fatalf("source %v, reason %q; want %v, %q", m.Source, m.Reason, tc.source, tc.reason)
			}
			if m.Source != pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED {
				return
			}
			if m.Ratio == nil || *m.Ratio != 1 || len(m.Reach) != 1 || m.Reach[0].Test != "example.com/m/calc.TestAdd" || m.DiffSha256 != pre.DiffSHA256 {
				t.Fatalf("measurement %v", m)
			}
		})
	}
}
