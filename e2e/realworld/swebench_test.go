package realworld

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestSWEBenchInstance(t *testing.T) {
	needGit(t)
	f := Fix{Name: "example-fix", Module: "github.com/acme/m/v2", Before: Version{"v1.0.0", "h1:x"}, After: Version{"v1.0.1", "h1:y"},
		Claims: []string{"go:.:TestNew"}, About: "a fix", Commit: "https://example.invalid/c"}
	before := tree("go.mod", "module github.com/acme/m/v2\n\ngo 1.12\n", "a.go", "package m\n\nfunc A() int { return 1 }\n",
		"a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestKeep(t *testing.T) {}\n\nfunc TestEdited(t *testing.T) {}\n\nfunc TestAlso(t *testing.T) {}\n",
		"sub/s_test.go", "package sub\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {}\n")
	after := tree("go.mod", "module github.com/acme/m/v2\n\ngo 1.12\n", "a.go", "package m\n\nfunc A() int { return 2 }\n",
		"a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestKeep(t *testing.T) {}\n\nfunc TestEdited(t *testing.T) { t.Log() }\n\nfunc TestAlso(t *testing.T) {}\n\nfunc TestNew(t *testing.T) {}\n \n",
		"sub/s_test.go", "package sub\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {}\n")
	fixed, reverted, err := Apply(before, after, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Commit(context.Background(), filepath.Join(t.TempDir(), "repo"), f, before, fixed, reverted)
	if err != nil {
		t.Fatal(err)
	}
	inst, preds, err := r.SWEBench(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if inst.Repo != "acme/m" || inst.InstanceID != "acme__m-example-fix" || inst.BaseCommit != r.Parent {
		t.Fatalf("instance %+v", inst)
	}
	if !strings.Contains(inst.Patch, "+++ b/a.go") || strings.Contains(inst.Patch, "_test.go") {
		t.Fatalf("patch:\n%s", inst.Patch)
	}
	// The test patch keeps its last context line, a lone space.
	if !strings.Contains(inst.TestPatch, "+++ b/a_test.go") || strings.Contains(inst.TestPatch, "a.go\n") || !strings.HasSuffix(inst.TestPatch, "+ \n") {
		t.Fatalf("test patch:\n%q", inst.TestPatch)
	}
	var f2p, p2p []string
	if json.Unmarshal([]byte(inst.FailToPass), &f2p) != nil || json.Unmarshal([]byte(inst.PassToPass), &p2p) != nil {
		t.Fatalf("lists %q %q", inst.FailToPass, inst.PassToPass)
	}
	// Unchanged tests of the claim's package, sorted, at most one: not the
	// edited test, not another package's.
	if strings.Join(f2p, ",") != "TestNew" || strings.Join(p2p, ",") != "TestAlso" {
		t.Fatalf("F2P %q, P2P %q", f2p, p2p)
	}
	if preds.Gold != inst.Patch || preds.Empty != "" || !strings.Contains(preds.Wrong, "+++ b/a_test.go") || strings.Contains(preds.Wrong, "a.go\n") {
		t.Fatalf("predictions %+v", preds)
	}
	if !strings.HasPrefix(preds.Untested, preds.Gold) || !strings.Contains(preds.Untested, "+++ b/zz_untested.go\n@@ -0,0 +1,12 @@\n+package m\n") {
		t.Fatalf("untested prediction:\n%s", preds.Untested)
	}
	if _, err := GitHubRepo("example.com/m"); err == nil {
		t.Fatal("a module off github.com")
	}
}
