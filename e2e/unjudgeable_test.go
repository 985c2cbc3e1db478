package e2e

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// commitWithIndex makes a commit on a new branch off parent that writes
// files (path to content) and stages each of gitlinks (path to commit id)
// as a submodule entry, and returns its id. `git add --all` would drop a
// gitlink whose directory is absent, so gitlinks are staged after it.
func (r *repo) commitWithIndex(t *testing.T, parent, branch, message string, files, gitlinks map[string]string) string {
	t.Helper()
	r.git(t, "checkout", "--quiet", "-b", branch, parent)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.git(t, "add", "--all")
	for _, name := range slices.Sorted(maps.Keys(gitlinks)) {
		r.git(t, "update-index", "--add", "--cacheinfo", "160000,"+gitlinks[name]+","+name)
	}
	r.git(t, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--allow-empty", "--message", message)
	r.commits++
	id := strings.TrimSpace(r.git(t, "rev-parse", "--verify", "HEAD^{commit}"))
	r.git(t, "checkout", "--quiet", "--force", "main")
	return id
}

// TestSubmodulesAndUnjudgeablePaths: a repository holding a submodule is
// judged like any other while the patch leaves the submodule alone (it was
// exit 3 before); a patch that moves the submodule, or writes a path with a
// control character, is sealed and ends INCONCLUSIVE naming what the gate
// could not materialize — never exit 3, never MERGE — in both patch forms.
func TestSubmodulesAndUnjudgeablePaths(t *testing.T) {
	r := newRepo(t)
	const lib = "third_party/lib"
	oldLib, newLib := strings.Repeat("1a", 20), strings.Repeat("2b", 20)
	base := r.commitWithIndex(t, r.Base, "with-submodule", "vendor a library as a submodule", nil, map[string]string{lib: oldLib})
	fix := map[string]string{"calc/median.go": r.honestMedian(t)}

	t.Run("honest fix beside an untouched submodule merges", func(t *testing.T) {
		honest := r.commitWithIndex(t, base, "honest-beside-submodule", "calc: fix Median", fix, map[string]string{lib: oldLib})
		v := verify(t, r.patchArgs(base, honest, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantDecision(t, merge)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
		if !v.art.FixProven {
			t.Fatalf("fix_proven is false:\n%s", v)
		}
	})

	t.Run("a moved submodule is inconclusive", func(t *testing.T) {
		bump := r.commitWithIndex(t, base, "bump-submodule", "calc: fix Median, bump lib", fix, map[string]string{lib: newLib})
		for form, args := range map[string][]string{
			"commit": r.patchArgs(base, bump),
			"diff":   {"--repo", r.Dir, "--base", base, "--patch-file", r.diff(t, base, bump)},
		} {
			t.Run(form, func(t *testing.T) {
				v := verify(t, append(args, append(claimArgs(medianClaim), floorsZero()...)...)...)
				v.wantDecision(t, inconclusive)
				if !strings.Contains(v.art.Reason, `submodule "`+lib+`"`) || !strings.Contains(v.art.Reason, newLib) || v.art.FixProven {
					t.Fatalf("the decisive reason does not name the moved submodule (or a fix is proven):\n%s", v)
				}
			})
		}
	})

	t.Run("a control character in a path is inconclusive", func(t *testing.T) {
		files := maps.Clone(fix)
		files["calc/notes\x01.txt"] = "a note\n"
		odd := r.commitWithIndex(t, base, "odd-path", "calc: fix Median, add a note", files, map[string]string{lib: oldLib})
		v := verify(t, append(r.patchArgs(base, odd), append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantDecision(t, inconclusive)
		if !strings.Contains(v.art.Reason, `calc/notes\x01.txt`) || !strings.Contains(v.art.Reason, "control-character") {
			t.Fatalf("the decisive reason does not name the path:\n%s", v)
		}
	})

	// The caller's own mistakes stay usage errors.
	t.Run("a bad revision is still exit 3", func(t *testing.T) {
		u := sealgate(t, append([]string{"verify", "--state", t.TempDir()}, r.patchArgs(base, "no-such-commit", claimArgs(medianClaim)...)...)...)
		if u.exitCode != exitUsage {
			t.Fatalf("exit %d, want %d:\n%s", u.exitCode, exitUsage, u)
		}
	})
}
