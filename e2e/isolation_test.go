package e2e

import (
	"context"
	"encoding/json"
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

// TestOneBadRunStopsNothing: a run whose checkout fails for good, and one
// whose checkout handler panics, end INCONCLUSIVE naming the failure — in
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
