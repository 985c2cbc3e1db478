package handler

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
)

// git runs git in dir with a fixed environment.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_AUTHOR_DATE=1700000000 +0000",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_COMMITTER_DATE=1700000000 +0000"}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(out.String())
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTreesRecordCarriesWhatTheCheckoutFound: the trees record names the
// submodule left out, the content the gate did not write, the harness,
// test support and data the patch changed, and the overfitting of the
// sealed claim, with paths fit for a record.
func TestTreesRecordCarriesWhatTheCheckoutFound(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs git")
	}
	ctx := context.Background()
	repo := filepath.Join(t.TempDir(), "repo")
	git(t, filepath.Dir(repo), "init", "-q", repo)
	write(t, repo, map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"calc/add.go":         "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
		"calc/add_test.go":    "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(17, 4) != 21 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n",
		"calc/golden/out.txt": "21\n",
	})
	git(t, repo, "add", "-A")
	git(t, repo, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("ab", 20)+",vendored/lib")
	git(t, repo, "commit", "-q", "-m", "base")
	base := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, map[string]string{
		"calc/add.go":          "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n",
		"calc/zz_test.go":      "package calc\n\nvar _ = func() bool { return true }()\n",
		"calc/golden/out.txt":  "22\n",
		"calc/odd\x01name.txt": "x\n",
	})
	git(t, repo, "add", "calc") // -A would drop the gitlink, whose directory is absent
	git(t, repo, "commit", "-q", "-m", "patch")
	patched := git(t, repo, "rev-parse", "HEAD")

	pre, err := checkout.Prepare(ctx, checkout.Input{Repo: repo, Baseline: base, PatchCommit: patched}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &criteria.Criteria{RunID: "run-1", Repository: repo, Baseline: base, PatchCommit: patched, PatchDigest: pre.DiffSHA256,
		Claims: []string{"go:./calc:TestAdd"}, CoverageFloor: 1, StrengthFloor: 0.75, StrengthConfidence: 0.8, MutationMax: 20,
		DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
	sealed, err := criteria.Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	req := &pb.Record{RunId: "run-1", Body: &pb.Record_RunRequested{RunRequested: &pb.RunRequested{Repository: repo}}}
	seal := &pb.Record{RunId: "run-1", CriteriaDigest: sealed.Digest, Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: sealed.Canonical, CriteriaDigest: sealed.Digest}}}
	run := []*record.Decoded{
		{Record: req, Kind: record.KindOf(req), Digest: "d1"},
		{Record: seal, Kind: record.KindOf(seal), Digest: "d2"},
	}
	var got []*pb.Record
	emit := func(_ context.Context, recs ...*pb.Record) ([]*record.Decoded, error) {
		got = append(got, recs...)
		return nil, nil
	}
	h := &Handler{Scratch: t.TempDir()}
	if err := h.Handle(ctx, run[1], run, emit); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].GetTreesMaterialized() == nil {
		t.Fatalf("emitted %v", got)
	}
	tm := got[0].GetTreesMaterialized()
	if len(tm.Submodules) != 1 || tm.Submodules[0].Path != "vendored/lib" {
		t.Fatalf("submodules %v", tm.Submodules)
	}
	if len(tm.Unjudgeable) != 1 || tm.Unjudgeable[0].Path != `"calc/odd\x01name.txt"` || !strings.Contains(tm.Unjudgeable[0].Why, "control-character") {
		t.Fatalf("unjudgeable %v", tm.Unjudgeable)
	}
	if !reflect.DeepEqual(tm.HarnessPackages, []string{"./calc"}) || !reflect.DeepEqual(tm.Counterfactual, []string{"calc/golden/out.txt"}) {
		t.Fatalf("harness packages %q, counterfactual %q", tm.HarnessPackages, tm.Counterfactual)
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
	// The record signs (its strings are valid UTF-8).
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := record.NewSigner("checkout", key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := signer.Sign(got[0]); err != nil {
		t.Fatalf("the record does not sign: %v", err)
	}
}
