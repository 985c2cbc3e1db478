package handler

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/checkouttest"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/runtime/runtimetest"
)

// sealedRun is the beginning of a run judging patched against base in
// repo, sealed with claims (none: discovery); edit changes the criteria
// before they are sealed.
func sealedRun(t *testing.T, repo, base, patched string, claims []string, edit func(*criteria.Criteria)) runtime.Run {
	t.Helper()
	pre, err := checkout.Prepare(context.Background(), checkout.Input{Repo: repo, Baseline: base, PatchCommit: patched}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &criteria.Criteria{RunID: "run-1", Repository: repo, Baseline: base, PatchCommit: patched, PatchDigest: pre.DiffSHA256,
		Claims: claims, DiscoverClaims: len(claims) == 0, CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.8, MutationMax: 20,
		DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
	if edit != nil {
		edit(c)
	}
	return runtimetest.Sealed(t, c, nil)
}

// treesOf runs the handler on a run sealed with claims and returns its
// trees record.
func treesOf(t *testing.T, repo, base, patched string, claims []string) *pb.TreesMaterialized {
	t.Helper()
	run := sealedRun(t, repo, base, patched, claims, nil)
	rec := runtimetest.NewRecorder(t, keyring.Checkout)
	if err := (&Handler{Scratch: t.TempDir()}).Handle(context.Background(), run.Seal, run, rec.Emit); err != nil {
		t.Fatal(err)
	}
	got := rec.Emitted()
	if len(got) != 1 || got[0].Record.GetTreesMaterialized() == nil {
		t.Fatalf("emitted %v", rec.Kinds())
	}
	return got[0].Record.GetTreesMaterialized()
}

// TestHandle: given the records of a run, the checkout handler emits the
// trees record once, for the seal, and nothing for anything else; a patch
// git cannot materialize, or one that hashes to another digest than the
// sealed one, is a permanent failure of the run, not a record.
func TestHandle(t *testing.T) {
	checkouttest.NeedGit(t)
	repo := filepath.Join(t.TempDir(), "repo")
	checkouttest.Git(t, filepath.Dir(repo), "init", "-q", repo)
	checkouttest.Write(t, repo, map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"calc/add.go":         "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
		"calc/add_test.go":    "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n",
		"calc/golden/out.txt": "21\n",
	})
	checkouttest.Git(t, repo, "add", "-A")
	checkouttest.Git(t, repo, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("ab", 20)+",vendored/lib")
	checkouttest.Git(t, repo, "commit", "-q", "-m", "base")
	base := checkouttest.Git(t, repo, "rev-parse", "HEAD")
	checkouttest.Write(t, repo, map[string]string{
		"calc/add.go":          "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n",
		"calc/zz_test.go":      "package calc\n\nvar _ = func() bool { return true }()\n",
		"calc/golden/out.txt":  "22\n",
		"calc/odd\x01name.txt": "x\n",
	})
	checkouttest.Git(t, repo, "add", "calc") // -A would drop the gitlink, whose directory is absent
	checkouttest.Git(t, repo, "commit", "-q", "-m", "patch")
	patched := checkouttest.Git(t, repo, "rev-parse", "HEAD")
	claims := []string{"go:./calc:TestAdd"}
	run := sealedRun(t, repo, base, patched, claims, nil)
	trees := runtimetest.Sign(t, keyring.Checkout, &pb.Record{RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: []string{run.Seal.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{BaselineTreeDigest: "b", PatchTreeDigest: "p"}}})

	for _, tc := range []struct {
		name      string
		run       runtime.Run
		rec       func(runtime.Run) *record.Decoded
		refuse    bool
		want      []string // kinds emitted
		permanent bool     // a permanent error, nothing emitted
		check     func(t *testing.T, tm *pb.TreesMaterialized)
	}{{
		name: "the seal is answered with the trees and what the checkout found",
		run:  run, rec: func(r runtime.Run) *record.Decoded { return r.Seal },
		want: []string{"trees.materialized"},
		check: func(t *testing.T, tm *pb.TreesMaterialized) {
			if len(tm.Submodules) != 1 || tm.Submodules[0].Path != "vendored/lib" {
				t.Errorf("submodules %v", tm.Submodules)
			}
			if len(tm.Unjudgeable) != 1 || tm.Unjudgeable[0].Path != `"calc/odd\x01name.txt"` || !strings.Contains(tm.Unjudgeable[0].Why, "control-character") {
				t.Errorf("unjudgeable %v", tm.Unjudgeable)
			}
			if !reflect.DeepEqual(tm.HarnessPackages, []string{"./calc"}) || !reflect.DeepEqual(tm.Counterfactual, []string{"calc/golden/out.txt"}) {
				t.Errorf("harness packages %q, counterfactual %q", tm.HarnessPackages, tm.Counterfactual)
			}
			rules := map[string]bool{}
			for _, f := range tm.Findings {
				rules[f.Rule] = true
			}
			for _, r := range []string{"test-harness", "data-file", "overfitting"} {
				if !rules[r] {
					t.Errorf("no %s finding in %v", r, tm.Findings)
				}
			}
			if tm.BaselineTreeDigest == "" || tm.PatchTreeDigest == "" || tm.BaselineTreeDigest == tm.PatchTreeDigest {
				t.Errorf("tree digests %q, %q", tm.BaselineTreeDigest, tm.PatchTreeDigest)
			}
		},
	}, {
		name: "a record other than the seal is not the checkout's business",
		run:  run, rec: func(r runtime.Run) *record.Decoded { return r.Records[0] },
	}, {
		name: "a seal delivered again once the trees are on the ledger",
		run:  runtimetest.With(t, run, trees), rec: func(r runtime.Run) *record.Decoded { return r.Seal },
	}, {
		name: "a refused trees record is on the ledger already: nothing more to do",
		run:  run, rec: func(r runtime.Run) *record.Decoded { return r.Seal }, refuse: true,
	}, {
		name: "a baseline git does not hold fails the run for good",
		run:  sealedRun(t, repo, base, patched, claims, func(c *criteria.Criteria) { c.Baseline = strings.Repeat("1", 40) }),
		rec:  func(r runtime.Run) *record.Decoded { return r.Seal }, permanent: true,
	}, {
		name: "a patch that hashes to another digest than the sealed one fails the run for good",
		run:  sealedRun(t, repo, base, patched, claims, func(c *criteria.Criteria) { c.PatchDigest = strings.Repeat("f", 64) }),
		rec:  func(r runtime.Run) *record.Decoded { return r.Seal }, permanent: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := runtimetest.NewRecorder(t, keyring.Checkout)
			if tc.refuse {
				rec.Refuse = func(*pb.Record) bool { return true }
			}
			err := (&Handler{Scratch: t.TempDir()}).Handle(context.Background(), tc.rec(tc.run), tc.run, rec.Emit)
			if tc.permanent {
				if err == nil || !runtime.IsPermanent(err) {
					t.Fatalf("err = %v, want a permanent failure", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := rec.Kinds(); !slices.Equal(got, tc.want) {
				t.Fatalf("emitted %q, want %q", got, tc.want)
			}
			if tc.check != nil {
				tm := rec.Emitted()[0]
				if tm.Record.RunId != tc.run.ID || tm.Record.CriteriaDigest != tc.run.Criteria.Digest || !slices.Equal(tm.Record.Parents, []string{tc.run.Seal.Digest}) {
					t.Errorf("run %q, criteria %q, parents %q", tm.Record.RunId, tm.Record.CriteriaDigest, tm.Record.Parents)
				}
				tc.check(t, tm.Record.GetTreesMaterialized())
			}
		})
	}
}

// overfitClaims lists the claims the overfitting findings name.
func overfitClaims(tm *pb.TreesMaterialized) []string {
	var out []string
	for _, f := range tm.Findings {
		if f.Rule == "overfitting" {
			out = append(out, f.Claim)
		}
	}
	return slices.Compact(out)
}

// TestOverfittingWithoutClaims: without sealed claims every test discovery
// may propose is judged for overfitting, each finding naming its test, so
// that the adjudicator applies the rule to the claims discovery finds;
// with sealed claims only they are judged. The honest twin — a boundary
// fix — has no finding either way.
func TestOverfittingWithoutClaims(t *testing.T) {
	checkouttest.NeedGit(t)
	repo := filepath.Join(t.TempDir(), "repo")
	checkouttest.Git(t, filepath.Dir(repo), "init", "-q", repo)
	checkouttest.Write(t, repo, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"calc/add.go":      "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
		"calc/add_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n\nfunc TestOther(t *testing.T) {}\n",
	})
	checkouttest.Git(t, repo, "add", "-A")
	checkouttest.Git(t, repo, "commit", "-q", "-m", "base")
	base := checkouttest.Git(t, repo, "rev-parse", "HEAD")
	checkouttest.Write(t, repo, map[string]string{
		"calc/add.go":        "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n",
		"calc/added_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdded(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n",
	})
	checkouttest.Git(t, repo, "add", "-A")
	checkouttest.Git(t, repo, "commit", "-q", "-m", "special cases")
	special := checkouttest.Git(t, repo, "rev-parse", "HEAD")

	if got, want := overfitClaims(treesOf(t, repo, base, special, nil)), []string{"go:./calc:TestAdd", "go:./calc:TestAdded"}; !slices.Equal(got, want) {
		t.Fatalf("overfitting judged for %q, want %q", got, want)
	}
	if got, want := overfitClaims(treesOf(t, repo, base, special, []string{"go:./calc:TestAdd"})), []string{"go:./calc:TestAdd"}; !slices.Equal(got, want) {
		t.Fatalf("overfitting judged for %q, want %q", got, want)
	}

	checkouttest.Git(t, repo, "checkout", "-q", base)
	checkouttest.Write(t, repo, map[string]string{"calc/add.go": "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"})
	checkouttest.Git(t, repo, "add", "-A")
	checkouttest.Git(t, repo, "commit", "-q", "-m", "honest")
	honest := checkouttest.Git(t, repo, "rev-parse", "HEAD")
	if got := overfitClaims(treesOf(t, repo, base, honest, nil)); len(got) != 0 {
		t.Fatalf("an honest fix overfits %q", got)
	}
}
