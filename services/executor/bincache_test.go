package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/executortest"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// claimAnswers runs the claim and coverage jobs of c on a new workspace
// whose patch adds files, with e's binary cache set to bins, and returns
// each job's answer by id and its build run.
func claimAnswers(t *testing.T, bins string, files map[string]string, mode sandbox.Mode) (map[string]*executor.Answer, map[string]jobs.Run) {
	t.Helper()
	e, w := workspace(t, files)
	if mode == sandbox.None {
		box, err := sandbox.New(context.Background(), sandbox.Config{Mode: sandbox.None})
		if err != nil {
			t.Fatal(err)
		}
		e.Sandbox = box
	}
	e.BinCache = bins
	c := &criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, CoverageFloor: 1, Limits: limits().Limits}
	answers, builds := map[string]*executor.Answer{}, map[string]jobs.Run{}
	for _, s := range goJobs(t, w, c) {
		a := e.Execute(context.Background(), w, s)
		answers[s.ID()] = a
		for _, r := range a.Detail.Runs {
			if r.Verdict == "BUILD" {
				builds[s.ID()] = r
			}
		}
	}
	return answers, builds
}

// TestBinCacheServesAnotherRun: a second run of a tree of the same
// content reuses the test binaries the first built (the same digest, the
// same answers, its record says so); a tree that differs in one file
// builds its own; a cached binary whose content no longer matches its
// digest is thrown away and built again; in mode none nothing is kept (the
// run's own path is compiled into the binary).
func TestBinCacheServesAnotherRun(t *testing.T) {
	executortest.Skip(t)
	if e := executortest.New(t); e.Sandbox.Name() != sandbox.NameBwrap {
		t.Skip("the binary cache keeps builds made under bwrap only")
	}
	// foundIn is the part of a coverage job's reason that counts its runs.
	foundIn := regexp.MustCompile(`, found in [0-9]+ runs`)
	bins := t.TempDir()
	first, firstBuilds := claimAnswers(t, bins, nil, sandbox.Auto)
	kept, _ := filepath.Glob(filepath.Join(bins, "*.test"))
	if len(kept) == 0 {
		t.Fatal("the first run kept no binary")
	}
	second, secondBuilds := claimAnswers(t, bins, nil, sandbox.Auto)
	for id, a := range first {
		b := second[id]
		// How many runs the coverage search takes follows the tests'
		// times (a test slower than slowAlone runs alone at once), which
		// a loaded machine moves: the answer is what must not.
		if got, want := foundIn.ReplaceAllString(b.Detail.Outcome+" "+b.Detail.Reason, ""), foundIn.ReplaceAllString(a.Detail.Outcome+" "+a.Detail.Reason, ""); got != want {
			t.Errorf("%s with a reused binary: %s, want %s", id, got, want)
		}
		r, r0 := secondBuilds[id], firstBuilds[id]
		if !strings.HasPrefix(r.Reason, "reused ") || r.Binary != r0.Binary || r.Binary == "" {
			t.Errorf("%s: second build %+v, first %+v: want the first's binary, reused", id, r, r0)
		}
		if strings.HasPrefix(r0.Reason, "reused ") {
			t.Errorf("%s: the first run reused a binary from an empty cache: %+v", id, r0)
		}
	}

	// One more file in the patch: the patch's trees, and only they, are
	// other trees, with other binaries.
	_, changed := claimAnswers(t, bins, map[string]string{"calc/more.go": "package calc\n\nfunc more() int { return 1 }\n"}, sandbox.Auto)
	patchJobs := 0
	for id, r := range changed {
		if strings.Contains(id, "/patch/") {
			patchJobs++
		}
		if reused := strings.HasPrefix(r.Reason, "reused "); reused == strings.Contains(id, "/patch/") {
			t.Errorf("%s: %+v (reused %v)", id, r, reused)
		}
	}
	if patchJobs == 0 {
		t.Fatalf("no patch job among %d", len(changed))
	}

	// Tampered with: every kept binary's content changed.
	kept, _ = filepath.Glob(filepath.Join(bins, "*.test"))
	for _, p := range kept {
		if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	third, thirdBuilds := claimAnswers(t, bins, nil, sandbox.Auto)
	for id, a := range first {
		if strings.HasPrefix(thirdBuilds[id].Reason, "reused ") {
			t.Errorf("%s: a tampered binary was reused: %+v", id, thirdBuilds[id])
		}
		if got, want := third[id].Detail.Outcome, a.Detail.Outcome; got != want {
			t.Errorf("%s after tampering: %s, want %s", id, got, want)
		}
	}

	none := t.TempDir()
	claimAnswers(t, none, nil, sandbox.None)
	if left, _ := os.ReadDir(none); len(left) != 0 {
		t.Errorf("mode none kept %d entries in the binary cache", len(left))
	}
}
