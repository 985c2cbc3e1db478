package checkout

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/checkout/tree"
)

// gitlink stages a gitlink to commit (40 hex digits) at path.
func (r *testRepo) gitlink(path, commit string) {
	r.t.Helper()
	r.git("update-index", "--add", "--cacheinfo", "160000,"+commit+","+path)
}

// commitIndex commits the index as it is (a gitlink has no work-tree
// directory, so `add -A` would drop it).
func (r *testRepo) commitIndex(msg string) string {
	r.t.Helper()
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

var (
	subA = strings.Repeat("a1", 20)
	subB = strings.Repeat("b2", 20)
)

// TestUntouchedSubmodule: a repository holding a gitlink the patch does not
// touch is judged like any other; the gitlink is left out of the trees and
// recorded. The same patch as a commit and as a diff agree.
func TestUntouchedSubmodule(t *testing.T) {
	r := newTestRepo(t)
	r.write("calc.go", "package m\n\nfunc Add(a, b int) int { return a - b }\n")
	r.write("go.mod", "module m\n")
	r.git("add", "-A")
	r.gitlink("third_party/lib", subA)
	base := r.commitIndex("base")
	r.write("calc.go", "package m\n\nfunc Add(a, b int) int { return a + b }\n")
	r.git("add", "calc.go")
	patched := r.commitIndex("fix")

	for name, in := range map[string]Input{
		"commit": {Repo: r.dir, Baseline: base, PatchCommit: patched},
		"diff":   {Repo: r.dir, Baseline: base, PatchDiff: r.diff(base, patched)},
	} {
		t.Run(name, func(t *testing.T) {
			c := mustPrepare(t, in)
			if want := []Submodule{{Path: "third_party/lib", Commit: subA}}; !reflect.DeepEqual(c.Submodules, want) {
				t.Fatalf("submodules %+v, want %+v", c.Submodules, want)
			}
			if len(c.Unjudgeable) != 0 {
				t.Fatalf("unjudgeable %+v", c.Unjudgeable)
			}
			if len(c.Changes) != 1 || c.Changes[0].Path != "calc.go" || c.Changes[0].Class != ClassSource {
				t.Fatalf("changes %+v", c.Changes)
			}
			for _, tr := range []*tree.Tree{c.Baseline, c.Patch, c.Oracle} {
				if _, ok := tr.Lookup("third_party/lib"); ok {
					t.Fatal("a tree holds the gitlink")
				}
			}
			dir := filepath.Join(t.TempDir(), "patch")
			if err := c.MaterializePatch(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			if got := readTree(t, dir); !reflect.DeepEqual(got, map[string]string{"calc.go": "-rw-r--r-- package m\n\nfunc Add(a, b int) int { return a + b }\n", "go.mod": "-rw-r--r-- module m\n"}) {
				t.Fatalf("materialized %q", got)
			}
		})
	}
}

// TestUnjudgeable: a patch that adds, moves or removes a gitlink, writes a
// path with a control character, or a symlink out of the tree, is no usage
// error: it is prepared, with the content named, and the trees hold the
// rest. Both forms of the patch say the same.
func TestUnjudgeable(t *testing.T) {
	r := newTestRepo(t)
	r.write("calc.go", "package m\n")
	r.git("add", "-A")
	r.gitlink("lib", subA)
	base := r.commitIndex("base")

	for _, tc := range []struct {
		name   string
		change func()
		want   []string // path: substring of Why
		diff   bool     // the diff form is tried too
	}{
		{"moves a submodule", func() { r.gitlink("lib", subB) }, []string{"lib: moves submodule \"lib\" from commit " + subA + " to " + subB}, true},
		{"adds a submodule", func() { r.gitlink("vendor/other", subB) }, []string{"vendor/other: adds submodule \"vendor/other\""}, true},
		{"removes a submodule", func() { r.git("rm", "-q", "--cached", "lib") }, []string{"lib: removes submodule \"lib\""}, true},
		{"newline in a path", func() {
			r.write("a\nb.go", "package m\n")
			r.git("add", "-A")
		}, []string{"a\nb.go: the patch's tree holds \"a\\nb.go\", which the gate does not write: control-character"}, true},
		{"tab in a path", func() {
			r.write("x\ty.txt", "x\n")
			r.git("add", "-A")
		}, []string{"x\ty.txt: control-character"}, true},
		{"escaping symlink", func() {
			r.symlink("../../etc/passwd", "out")
			r.git("add", "-A")
		}, []string{"out: symlink-escape"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.git("checkout", "-q", "--detach", base)
			r.git("reset", "-q", "--hard", base)
			tc.change()
			r.write("calc.go", "package m\n\nconst X = 1\n")
			r.git("add", "calc.go")
			patched := r.commitIndex(tc.name)
			forms := map[string]Input{"commit": {Repo: r.dir, Baseline: base, PatchCommit: patched}}
			if tc.diff {
				forms["diff"] = Input{Repo: r.dir, Baseline: base, PatchDiff: r.diff(base, patched)}
			}
			for form, in := range forms {
				c, err := prepare(t, in)
				if err != nil {
					t.Fatalf("%s: Prepare: %v", form, err)
				}
				if len(c.Unjudgeable) != len(tc.want) {
					t.Fatalf("%s: unjudgeable %+v, want %q", form, c.Unjudgeable, tc.want)
				}
				for i, w := range tc.want {
					p, why, _ := strings.Cut(w, ": ")
					u := c.Unjudgeable[i]
					if u.Path != p || !strings.Contains(u.Why, why) || strings.ContainsAny(u.Why, "\n\r") {
						t.Fatalf("%s: unjudgeable %+v, want %q", form, u, w)
					}
				}
				// The rest of the patch is there.
				if e, ok := c.Patch.Lookup("calc.go"); !ok || e.ObjectID == "" {
					t.Fatalf("%s: the patch tree lacks calc.go", form)
				}
				for _, ch := range c.Changes {
					if ch.Path == tc.want[0][:strings.Index(tc.want[0], ": ")] && ((ch.Class != ClassForeign && ch.Class != ClassHarness) || len(ch.ChangedLines) > 0) {
						t.Fatalf("%s: change %+v, want foreign (or harness) without lines", form, ch)
					}
				}
				if err := c.MaterializePatch(context.Background(), filepath.Join(t.TempDir(), "p")); err != nil {
					t.Fatalf("%s: %v", form, err)
				}
			}
		})
	}
}

// TestUnsafeBaselineIsUnjudgeable: a baseline holding what the gate does
// not write is prepared too; the run cannot be judged.
func TestUnsafeBaselineIsUnjudgeable(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package m\n")
	clean := r.commit("clean")
	r.symlink("/etc/passwd", "abs")
	bad := r.commit("absolute symlink")
	r.write("a.go", "package m\n\nconst X = 1\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: bad, PatchCommit: patched})
	if len(c.Unjudgeable) != 1 || c.Unjudgeable[0].Path != "abs" || !strings.Contains(c.Unjudgeable[0].Why, "the baseline and the patch hold \"abs\"") {
		t.Fatalf("unjudgeable %+v", c.Unjudgeable)
	}
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: bad, PatchCommit: clean})
	if len(c.Unjudgeable) != 1 || !strings.Contains(c.Unjudgeable[0].Why, "the baseline's tree holds \"abs\"") {
		t.Fatalf("unjudgeable %+v", c.Unjudgeable)
	}
}
