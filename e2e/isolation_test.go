package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/services/runtime"
)

// failingRepo builds the demo repository in a directory whose path holds
// marker, so that a failpoint matching marker strikes its runs only.
func failingRepo(t *testing.T, marker string) *repo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := demo.Build(ctx, filepath.Join(t.TempDir(), marker, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	return &repo{Repo: r}
}

// damagedRun builds, in a repository of its own, a baseline and a patch
// (the demo's honest fix) whose trees share a data file, and then damages
// that file's object in the object store: pre-flight and the checkout
// (which read the diff, the test files and the tree listings) accept the
// run, and no tree of it can ever be materialized — a real, permanent
// failure of one run's work, no failpoint needed.
func damagedRun(t *testing.T) []string {
	t.Helper()
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	base := r.commit(t, r.Base, "with-notes", "a data file both sides share", map[string]string{"docs/notes.txt": strings.Repeat("notes that never change\n", 64)})
	files := map[string]string{}
	for _, p := range strings.Fields(r.git(t, "diff", "--name-only", r.Base, fix.Commit)) {
		files[p] = r.show(t, fix.Commit, p)
	}
	patch := r.commit(t, base, "fix-with-notes", "the honest fix, on the baseline with notes", files)
	oid := strings.TrimSpace(r.git(t, "rev-parse", base+":docs/notes.txt"))
	obj := filepath.Join(r.Dir, ".git", "objects", oid[:2], oid[2:])
	if err := os.Chmod(obj, 0o644); err != nil {
		t.Fatalf("the notes' object is not loose: %v", err)
	}
	if err := os.WriteFile(obj, []byte("not a zlib stream: this object is damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	return r.patchArgs(base, patch, claimArgs(fix.Claims...)...)
}

// wantFailureNamed checks a run ended INCONCLUSIVE because a service failed
// on it, the failure named.
func wantFailureNamed(t *testing.T, name string, r *run, failure string) {
	t.Helper()
	if r.art.Decision == "" {
		// verify --remote in the background: its artefact is not read yet.
		if err := json.Unmarshal([]byte(r.stdout), &r.art); err != nil {
			t.Fatalf("%s: artefact: %v\n%s", name, err, r)
		}
	}
	if r.exitCode != 2 {
		t.Fatalf("%s: exit %d, want 2 (INCONCLUSIVE):\n%s", name, r.exitCode, r)
	}
	r.wantDecision(t, "INCONCLUSIVE")
	if !strings.HasPrefix(r.art.Reason, "INCONCLUSIVE: a service failed on this run: "+failure) {
		t.Fatalf("%s: the verdict's reason does not name the failure %q first:\n%s", name, failure, r)
	}
}

// TestOneBadRunStopsNothing: a run whose checkout fails for good, one whose
// checkout handler panics, and one whose repository is damaged (no tree of
// it can be materialized) end INCONCLUSIVE naming the failure at once — in
// the embedded mode, and in the distributed mode on a single partition
// while two healthy runs submitted at the same time reach their embedded
// verdicts; no service process exits. The failures are failpoints of the
// test binary (-tags failpoints), struck when the checkout handles the
// seal of a run whose repository path names them.
func TestOneBadRunStopsNothing(t *testing.T) {
	t.Setenv(runtime.FailpointsEnv, "checkout:fail:fp-checkout-fails,checkout:panic:fp-checkout-panics")
	fails, panics := failingRepo(t, "fp-checkout-fails"), failingRepo(t, "fp-checkout-panics")
	argsOf := func(r *repo, name string) []string {
		p := r.patch(t, name)
		return r.patchArgs(r.Base, p.Commit, claimArgs(p.Claims...)...)
	}
	const failed = "checkout could not handle criteria.sealed"
	damaged := damagedRun(t)
	const cannotMaterialize = "executor could not handle trees.materialized"
	wantFailureNamed(t, "embedded, damaged repository", verify(t, damaged...), cannotMaterialize)
	wantFailureNamed(t, "embedded, fails", verify(t, argsOf(fails, "honest-fix")...), failed+" ")
	wantFailureNamed(t, "embedded, panics", verify(t, argsOf(panics, "honest-fix")...), failed)

	r := newRepo(t)
	healthy := []string{"honest-fix", "breaks-a-test"}
	want := map[string]verdictOf{}
	codes := map[string]int{}
	for _, name := range healthy {
		v := verify(t, argsOf(r, name)...)
		want[name], codes[name] = parseVerdict(t, v), v.exitCode
	}

	c := newClusterWith(t, 1, "--partitions", "1")
	waitFails := c.remote(t, argsOf(fails, "honest-fix")...)
	waitPanics := c.remote(t, argsOf(panics, "honest-fix")...)
	waitDamaged := c.remote(t, damaged...)
	waits := map[string]func() *run{}
	for _, name := range healthy {
		waits[name] = c.remote(t, argsOf(r, name)...)
	}
	got := waitFails()
	wantFailureNamed(t, "distributed, fails", got, failed)
	if reasons := strings.Join(got.art.reasons(), "\n"); !strings.Contains(reasons, "failpoint: checkout fails for good on this run") {
		t.Errorf("the failure's cause is not named:\n%s", reasons)
	}
	got = waitPanics()
	wantFailureNamed(t, "distributed, panics", got, failed)
	if reasons := strings.Join(got.art.reasons(), "\n"); !strings.Contains(reasons, "panic: failpoint: checkout panics on run") {
		t.Errorf("the panic is not named:\n%s", reasons)
	}
	got = waitDamaged()
	wantFailureNamed(t, "distributed, damaged repository", got, cannotMaterialize)
	if !strings.Contains(got.art.Reason, `"docs/notes.txt"`) {
		t.Errorf("the damaged file is not named:\n%s", got.art.Reason)
	}
	for _, name := range healthy {
		got := waits[name]()
		if got.exitCode != codes[name] {
			t.Fatalf("%s: exit %d, embedded %d:\n%s", name, got.exitCode, codes[name], got)
		}
		sameVerdict(t, name, want[name], parseVerdict(t, got))
	}
	for name, n := range c.restartsOf() {
		if n != 0 {
			t.Errorf("%s exited and was restarted %d time(s):\n%s", name, n, c.logsOf(t, name))
		}
	}
}
