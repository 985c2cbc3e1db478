package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/e2e/realworld"
)

// realworldEnv switches TestRealWorld on: it downloads module zips through
// the Go module proxy (cached in the module cache) and runs two full
// verifications per fix. "1" verifies the fixes CI verifies (every fix
// whose Measured field is empty); "all" verifies every fix.
const realworldEnv = "SEALGATE_E2E_REALWORLD"

// TestRealWorld verifies the real-world corpus (package e2e/realworld) with
// the binary: for every fix, the honest fix against its parent and the
// reintroduced bug (the fix with its non-test changes reverted, its tests
// kept) against the fix, at the default floors. A correct gate
//
//   - does not BLOCK an honest fix, and proves it: fix_proven, every claim
//     in claims_fixed;
//   - BLOCKs every reintroduced bug: its claims pass on the base and fail
//     on the patch.
//
// It runs only with SEALGATE_E2E_REALWORLD=1 (CI's fixes) or =all (every
// fix, the Measured ones too):
//
//	SEALGATE_E2E_REALWORLD=1 go test -timeout 60m -run TestRealWorld -v ./e2e
//	SEALGATE_E2E_REALWORLD=all go test -timeout 90m -run TestRealWorld -v ./e2e
//	SEALGATE_E2E_REALWORLD=1 go test -run 'TestRealWorld/pflag' -v ./e2e
//
// Each verification logs its decision and reasons, so one run reports the
// whole corpus; `go run ./tools/corpus measure` prints the same as the
// table of docs/benchmarks.md.
//
// To add a fix: find a fix commit of a public Go module whose parent and
// fix are (or are contained in) two consecutive versions the module proxy
// serves, add it to realworld.Fixes with the versions' h1: hashes (`go mod
// download -json MODULE@VERSION` prints them), the files of the fix when
// the release holds other changes (Paths), and the tests the fix adds or
// changes as claims; then `go run ./tools/corpus check -run NAME` must say
// ok (docs/realworld.md).
func TestRealWorld(t *testing.T) {
	mode := os.Getenv(realworldEnv)
	if mode != "1" && mode != "all" {
		t.Skipf("the real-world corpus runs with %s=1 (CI's fixes) or %s=all", realworldEnv, realworldEnv)
	}
	needBinary(t)
	for _, f := range realworld.Fixes() {
		t.Run(f.Name, func(t *testing.T) {
			if f.Measured != "" && mode != "all" {
				t.Skipf("left to %s=all and `go run ./tools/corpus measure -run %s`: %s", realworldEnv, f.Name, f.Measured)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			repo, err := realworld.Build(ctx, filepath.Join(t.TempDir(), f.Name), f, realworld.Proxy{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s → %s (go %s): %s", f.Module, f.Before.Version, f.After.Version, goLine(repo.GoVersion), f.About)
			for _, c := range repo.Cases() {
				t.Run(c.Kind, func(t *testing.T) {
					args := []string{"--repo", repo.Dir, "--base", c.Base, "--patch", c.Patch}
					for _, claim := range c.Claims {
						args = append(args, "--claim", claim)
					}
					r := verify(t, args...)
					v, err := realworld.ParseVerdict([]byte(r.stdout))
					if err != nil {
						t.Fatalf("%v\n%s", err, r)
					}
					t.Logf("%s: %s", v.Decision, strings.Join(v.AllReasons(), "; "))
					if err := realworld.Judge(c.Kind, c.Claims, v); err != nil {
						t.Errorf("%s\n%s", err, r)
					}
				})
			}
		})
	}
}

// goLine names a go.mod's go version, "none" when it has no go line.
func goLine(v string) string {
	if v == "" {
		return "none"
	}
	return v
}
