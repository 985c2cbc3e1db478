package handler

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
)

// treesOf runs the handler on a run sealed with claims (none: discovery)
// and returns its trees record.
func treesOf(t *testing.T, repo, base, patched string, claims []string) *pb.TreesMaterialized {
	t.Helper()
	ctx := context.Background()
	pre, err := checkout.Prepare(ctx, checkout.Input{Repo: repo, Baseline: base, PatchCommit: patched}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &criteria.Criteria{RunID: "run-1", Repository: repo, Baseline: base, PatchCommit: patched, PatchDigest: pre.DiffSHA256,
		Claims: claims, DiscoverClaims: len(claims) == 0, CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.8, MutationMax: 20,
		DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
	sealed, err := criteria.Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	req := &pb.Record{RunId: "run-1", Body: &pb.Record_RunRequested{RunRequested: &pb.RunRequested{Repository: repo}}}
	seal := &pb.Record{RunId: "run-1", CriteriaDigest: sealed.Digest, Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: sealed.Canonical, CriteriaDigest: sealed.Digest}}}
	run := []*record.Decoded{{Record: req, Kind: record.KindOf(req), Digest: "d1"}, {Record: seal, Kind: record.KindOf(seal), Digest: "d2"}}
	var got []*pb.Record
	emit := func(_ context.Context, recs ...*pb.Record) ([]*record.Decoded, error) {
		got = append(got, recs...)
		return nil, nil
	}
	if err := (&Handler{Scratch: t.TempDir()}).Handle(ctx, run[1], run, emit); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].GetTreesMaterialized() == nil {
		t.Fatalf("emitted %v", got)
	}
	return got[0].GetTreesMaterialized()
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
	if _, err := exec.LookPath("git"); err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs git")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	git(t, filepath.Dir(repo), "init", "-q", repo)
	write(t, repo, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"calc/add.go":      "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
		"calc/add_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n\nfunc TestOther(t *testing.T) {}\n",
	})
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "base")
	base := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, map[string]string{
		"calc/add.go":        "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n",
		"calc/added_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdded(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n",
	})
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "special cases")
	special := git(t, repo, "rev-parse", "HEAD")

	if got, want := overfitClaims(treesOf(t, repo, base, special, nil)), []string{"go:./calc:TestAdd", "go:./calc:TestAdded"}; !slices.Equal(got, want) {
		t.Fatalf("overfitting judged for %q, want %q", got, want)
	}
	if got, want := overfitClaims(treesOf(t, repo, base, special, []string{"go:./calc:TestAdd"})), []string{"go:./calc:TestAdd"}; !slices.Equal(got, want) {
		t.Fatalf("overfitting judged for %q, want %q", got, want)
	}

	git(t, repo, "checkout", "-q", base)
	write(t, repo, map[string]string{"calc/add.go": "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"})
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "honest")
	honest := git(t, repo, "rev-parse", "HEAD")
	if got := overfitClaims(treesOf(t, repo, base, honest, nil)); len(got) != 0 {
		t.Fatalf("an honest fix overfits %q", got)
	}
}
