package executor_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/executortest"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// fixtureTest finds its fixture through the path of its own source file,
// as runtime.Caller reports it: the path the test binary was compiled at.
const fixtureTest = `package calc

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFixtureBySourcePath(t *testing.T) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "testdata", "fixture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "fixture\n" {
		t.Fatalf("fixture %q", b)
	}
}
`

// TestFixtureFoundBySourcePath: a test that finds its fixture by its
// source file's path (runtime.Caller) passes in every sandbox mode. The
// binary is built in the tree its runs read: under bwrap every tree is at
// /src; without bwrap the build reads the pristine tree, which stays for
// the whole run (it was built in a copy removed after the build, and
// such tests failed on both sides).
func TestFixtureFoundBySourcePath(t *testing.T) {
	executortest.Skip(t)
	ctx := context.Background()
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	var honest string
	for _, p := range repo.Patches {
		if p.Expect == demo.Merge {
			honest = p.Commit
		}
	}
	patch, err := repo.Commit(ctx, honest, "fixture", "a test that reads its fixture by its source path",
		map[string]string{"calc/fixture_test.go": fixtureTest, "calc/testdata/fixture.txt": "fixture\n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []sandbox.Mode{sandbox.Auto, sandbox.None} {
		e := executortest.New(t)
		if mode == sandbox.None {
			box, err := sandbox.New(ctx, sandbox.Config{Mode: sandbox.None})
			if err != nil {
				t.Fatal(err)
			}
			e.Sandbox = box
		}
		t.Run(e.Sandbox.Name(), func(t *testing.T) {
			co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: honest, PatchCommit: patch}, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			w, err := e.Open(ctx, "run-test", co)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			ran := 0
			for _, s := range w.Plan(&criteria.Criteria{Claims: []string{"go:./calc:TestFixtureBySourcePath"}, Limits: limits().Limits}) {
				if s.Skip != "" || (s.Purpose != jobs.Claim && s.Purpose != jobs.Collateral) || s.Side != jobs.Patch {
					continue
				}
				a := e.Execute(ctx, w, s)
				if a.Detail.Outcome != jobs.OutcomePass {
					t.Errorf("%s: %s (%s), want PASS", s.ID(), a.Detail.Outcome, a.Detail.Reason)
				}
				ran++
			}
			if ran != 2 {
				t.Fatalf("%d patch claim and suite jobs ran, want 2", ran)
			}
		})
	}
}
