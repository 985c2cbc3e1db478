package checkout

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// lines returns "1\n2\n…n\n".
func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString("line ")
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString("\n")
	}
	return b.String()
}

// richChange commits a baseline and a patch commit that between them
// modify, add, delete, rename, change a mode, turn a file into a symlink,
// touch harness files and test files.
func richChange(t *testing.T, r *testRepo) (base, patched string) {
	t.Helper()
	r.write("go.mod", "module example.com/m\n\ngo 1.26\n")
	r.write("calc.go", "package m\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n")
	r.write("calc_test.go", "package m\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n")
	r.write("gone.go", "package m\n\nconst Gone = 1\n")
	r.write("old/name.go", "package old\n\n"+lines(1, 20))
	r.write("flip.txt", "a plain file\n")
	r.write("run.sh", "#!/bin/sh\necho run\n")
	r.write("README.md", "# m\n")
	base = r.commit("base")

	r.write("calc.go", "package m\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n")
	r.write("calc_test.go", "package m\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n\nfunc TestAddMore(t *testing.T) {}\n")
	r.remove("gone.go")
	r.remove("old/name.go")
	r.write("new/name.go", "package old\n\n"+lines(1, 19)+"changed\n")
	r.write("added.go", "package m\n\nconst Added = 2\n")
	r.symlink("calc.go", "flip.txt")
	r.writeMode("run.sh", "#!/bin/sh\necho run\n", 0o755)
	r.write("go.mod", "module example.com/m\n\ngo 1.26\n\nrequire example.com/x v1.0.0\n")
	r.write("internal/vendor/x/x.go", "package x\n")
	return base, r.commit("patch")
}

func TestCommitAndDiffAgree(t *testing.T) {
	r := newTestRepo(t)
	base, patched := richChange(t, r)

	fromCommit := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	diff := r.diff(base, patched)
	fromDiff := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: diff})

	if fromCommit.Patch.Digest() != fromDiff.Patch.Digest() {
		t.Fatalf("patch tree digests differ: commit %s, diff %s", fromCommit.Patch.Digest(), fromDiff.Patch.Digest())
	}
	if fromCommit.Baseline.Commit() != base || fromDiff.Baseline.Commit() != base {
		t.Fatalf("baseline commits %s, %s; want %s", fromCommit.Baseline.Commit(), fromDiff.Baseline.Commit(), base)
	}
	if string(fromCommit.Diff) != string(diff) {
		t.Fatalf("commit diff differs from git diff with the same flags:\n%s\n---\n%s", fromCommit.Diff, diff)
	}
	if fromCommit.DiffSHA256 != fromDiff.DiffSHA256 || len(fromDiff.DiffSHA256) != 64 {
		t.Fatalf("digests %s, %s", fromCommit.DiffSHA256, fromDiff.DiffSHA256)
	}
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"Changes", fromDiff.Changes, fromCommit.Changes},
		{"HarnessDrift", fromDiff.HarnessDrift, fromCommit.HarnessDrift},
		{"OracleRestored", fromDiff.OracleRestored, fromCommit.OracleRestored},
		{"Deferred", fromDiff.Deferred, fromCommit.Deferred},
		{"TestHarness", fromDiff.TestHarness, fromCommit.TestHarness},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			t.Errorf("%s: diff %+v, commit %+v", f.name, f.got, f.want)
		}
	}

	want := []Change{
		{Path: "added.go", Kind: Added, Class: ClassSource, ChangedLines: []int{1, 2, 3}},
		{Path: "calc.go", Kind: Modified, Class: ClassSource, ChangedLines: []int{3, 5}},
		{Path: "calc_test.go", Kind: Modified, Class: ClassTest, ChangedLines: []int{6, 7}},
		{Path: "flip.txt", Kind: Modified, Class: ClassForeign, ChangedLines: []int{1}},
		{Path: "go.mod", Kind: Modified, Class: ClassHarness, ChangedLines: []int{4, 5}},
		{Path: "gone.go", Kind: Deleted, Class: ClassSource},
		{Path: "internal/vendor/x/x.go", Kind: Added, Class: ClassHarness, ChangedLines: []int{1}},
		{Path: "new/name.go", OldPath: "old/name.go", Kind: Renamed, Class: ClassSource, ChangedLines: []int{22}},
		{Path: "run.sh", Kind: Modified, Class: ClassForeign},
	}
	if !reflect.DeepEqual(fromCommit.Changes, want) {
		t.Fatalf("Changes\n got %+v\nwant %+v", fromCommit.Changes, want)
	}
	if want := []string{"go.mod", "internal/vendor/x/x.go"}; !reflect.DeepEqual(fromCommit.HarnessDrift, want) {
		t.Fatalf("HarnessDrift %q, want %q", fromCommit.HarnessDrift, want)
	}
	wantDeferred := []Deferred{{File: "calc_test.go", Package: ".", Test: "TestAddMore", BaselineTests: []string{"TestAdd"}}}
	if !reflect.DeepEqual(fromCommit.Deferred, wantDeferred) {
		t.Fatalf("Deferred %+v, want %+v", fromCommit.Deferred, wantDeferred)
	}

	// The patch commit built from a diff is deterministic.
	again := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: diff})
	if again.Patch.Commit() != fromDiff.Patch.Commit() {
		t.Fatalf("two Prepare of one diff made commits %s and %s", fromDiff.Patch.Commit(), again.Patch.Commit())
	}

	// Both patch trees materialize to the same files.
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	if err := fromCommit.MaterializePatch(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if err := fromDiff.MaterializePatch(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if ta, tb := readTree(t, a), readTree(t, b); !reflect.DeepEqual(ta, tb) || ta["flip.txt"] != "-> calc.go" || !strings.HasPrefix(ta["run.sh"], "-rwxr-xr-x") {
		t.Fatalf("materialized patch trees:\n%v\n%v", ta, tb)
	}
}

func TestSHA256Repository(t *testing.T) {
	r := newTestRepo(t, "--object-format=sha256")
	base, patched := richChange(t, r)
	fromCommit := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	fromDiff := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: r.diff(base, patched)})
	if fromDiff.Patch.ObjectFormat() != tree.FormatSHA256 || fromCommit.Patch.Digest() != fromDiff.Patch.Digest() {
		t.Fatalf("format %s, digests %s %s", fromDiff.Patch.ObjectFormat(), fromCommit.Patch.Digest(), fromDiff.Patch.Digest())
	}
	if !reflect.DeepEqual(fromCommit.Changes, fromDiff.Changes) {
		t.Fatalf("Changes differ:\n%+v\n%+v", fromCommit.Changes, fromDiff.Changes)
	}
}

func TestDiffForms(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package m\n\nvar A = 1\n")
	r.write("pkg/b.go", "package pkg\n\nvar B = 1\n")
	r.write("del.txt", "bye\nnow\n")
	r.write("mv/from.go", "package mv\n\n"+lines(1, 10))
	base := r.commit("base")

	cases := []struct {
		name string
		diff string
		want []Change
	}{{
		name: "git diff with a/ b/ prefixes",
		diff: "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@\n-var A = 1\n+var A = 2\n",
		want: []Change{{Path: "a.go", Kind: Modified, Class: ClassSource, ChangedLines: []int{3}}},
	}, {
		name: "diff -u with bare paths and timestamps",
		diff: "--- pkg/b.go\t2024-01-02 03:04:05.000000000 +0000\n+++ pkg/b.go\t2024-01-02 03:04:06.000000000 +0000\n@@ -1,3 +1,4 @@\n package pkg\n \n var B = 1\n+var C = 2\n",
		want: []Change{{Path: "pkg/b.go", Kind: Modified, Class: ClassSource, ChangedLines: []int{4}}},
	}, {
		name: "diff -u with a bare top-level path",
		diff: "--- a.go\n+++ a.go\n@@ -1,3 +1,3 @@\n-package m\n+package n\n \n var A = 1\n",
		want: []Change{{Path: "a.go", Kind: Modified, Class: ClassSource, ChangedLines: []int{1}}},
	}, {
		name: "added from /dev/null",
		diff: "--- /dev/null\n+++ b/pkg/new.go\n@@ -0,0 +1,2 @@\n+package pkg\n+var N = 1\n",
		want: []Change{{Path: "pkg/new.go", Kind: Added, Class: ClassSource, ChangedLines: []int{1, 2}}},
	}, {
		name: "deleted to /dev/null",
		diff: "--- a/del.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n",
		want: []Change{{Path: "del.txt", Kind: Deleted, Class: ClassOther}},
	}, {
		name: "rename with a change",
		diff: "diff --git a/mv/from.go b/mv/to.go\nsimilarity index 90%\nrename from mv/from.go\nrename to mv/to.go\n--- a/mv/from.go\n+++ b/mv/to.go\n@@ -10,3 +10,3 @@\n line i\n-line j\n+line J\n line k\n",
		want: []Change{{Path: "mv/to.go", OldPath: "mv/from.go", Kind: Renamed, Class: ClassSource, ChangedLines: []int{11}}},
	}, {
		name: "no context lines (diff -U0)",
		diff: "--- a/pkg/b.go\n+++ b/pkg/b.go\n@@ -3 +3 @@\n-var B = 1\n+var B = 2\n@@ -3,0 +4 @@\n+var D = 4\n",
		want: []Change{{Path: "pkg/b.go", Kind: Modified, Class: ClassSource, ChangedLines: []int{3, 4}}},
	}, {
		name: "copy",
		diff: "diff --git a/a.go b/c.go\nsimilarity index 100%\ncopy from a.go\ncopy to c.go\n",
		want: []Change{{Path: "c.go", OldPath: "a.go", Kind: Added, Class: ClassSource}},
	}, {
		name: "pure rename",
		diff: "diff --git a/mv/from.go b/mv/to.go\nsimilarity index 100%\nrename from mv/from.go\nrename to mv/to.go\n",
		want: []Change{{Path: "mv/to.go", OldPath: "mv/from.go", Kind: Renamed, Class: ClassSource}},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: []byte(tc.diff)})
			if !reflect.DeepEqual(c.Changes, tc.want) {
				t.Fatalf("Changes\n got %+v\nwant %+v", c.Changes, tc.want)
			}
			if string(c.Diff) != tc.diff {
				t.Fatalf("Diff is not the input verbatim")
			}
			// The same change as a commit gives the same tree.
			dir := filepath.Join(t.TempDir(), "patch")
			if err := c.MaterializePatch(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			for _, ch := range tc.want {
				_, err := os.Stat(filepath.Join(dir, ch.Path))
				if (ch.Kind == Deleted) != os.IsNotExist(err) {
					t.Fatalf("%s after the patch: %v", ch.Path, err)
				}
			}
		})
	}
}

func TestShiftedHunkRefused(t *testing.T) {
	r := newTestRepo(t)
	r.write("f.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n")
	base := r.commit("base")
	// The context is at lines 2-4, the header says 6: git apply would
	// apply it 4 lines up, and the diff's line numbers would be wrong.
	diff := "--- a/f.txt\n+++ b/f.txt\n@@ -6,3 +6,3 @@\n two\n-three\n+THREE\n four\n"
	_, err := prepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: []byte(diff)})
	wantUsage(t, err, ReasonDisagreement)
}

func TestBinaryChange(t *testing.T) {
	r := newTestRepo(t)
	r.write("logo.png", "\x89PNG\x00\x01\x02")
	r.write("a.go", "package m\n")
	base := r.commit("base")
	r.write("logo.png", "\x89PNG\x00\x03\x04\x05")
	patched := r.commit("patch")

	want := []Change{{Path: "logo.png", Kind: Modified, Class: ClassBinary}}
	fromCommit := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if !reflect.DeepEqual(fromCommit.Changes, want) {
		t.Fatalf("commit: Changes %+v, want %+v", fromCommit.Changes, want)
	}
	fromDiff := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: r.diff(base, patched, "--binary")})
	if !reflect.DeepEqual(fromDiff.Changes, want) || fromDiff.Patch.Digest() != fromCommit.Patch.Digest() {
		t.Fatalf("diff: Changes %+v, digest %s, want %s", fromDiff.Changes, fromDiff.Patch.Digest(), fromCommit.Patch.Digest())
	}
	// Without its data, a binary change applies only when its full index
	// line names a blob the repository has.
	fromFullIndex := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: r.diff(base, patched)})
	if !reflect.DeepEqual(fromFullIndex.Changes, want) || fromFullIndex.Patch.Digest() != fromCommit.Patch.Digest() {
		t.Fatalf("full index: Changes %+v, digest %s, want %s", fromFullIndex.Changes, fromFullIndex.Patch.Digest(), fromCommit.Patch.Digest())
	}
	abbrev := r.runIn(r.dir, "diff", "--no-color", base, patched)
	if !strings.Contains(abbrev, "Binary files a/logo.png and b/logo.png differ") {
		t.Fatalf("git diff printed %q", abbrev)
	}
	_, err := prepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: []byte(abbrev)})
	wantUsage(t, err, ReasonDoesNotApply)
}

func TestMalformedDiffs(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package m\n\nvar A = 1\n")
	base := r.commit("base")
	cases := []struct {
		name   string
		diff   string
		reason Reason
		is     error
	}{
		{"hunk without a header", "@@ -3 +3 @@\n-var A = 1\n+var A = 2\n", ReasonDiff, patch.ErrHunkWithoutFile},
		{"empty diff", "", ReasonDiff, patch.ErrEmpty},
		{"blank diff", "\n\n", ReasonDiff, patch.ErrEmpty},
		{"truncated hunk", "--- a/a.go\n+++ b/a.go\n@@ -3,2 +3,2 @@\n-var A = 1\n", ReasonDiff, patch.ErrTruncated},
		{"dotdot path", "--- a/../x.go\n+++ b/../x.go\n@@ -1 +1 @@\n-a\n+b\n", ReasonDiff, patch.ErrPath},
		{"does not apply", "--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@\n-var A = 7\n+var A = 2\n", ReasonDoesNotApply, nil},
		{"missing file", "--- a/nope.go\n+++ b/nope.go\n@@ -1 +1 @@\n-a\n+b\n", ReasonDoesNotApply, nil},
		{"adds an existing file", "--- /dev/null\n+++ b/a.go\n@@ -0,0 +1 @@\n+package m\n", ReasonDoesNotApply, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: []byte(tc.diff)})
			wantUsage(t, err, tc.reason)
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want %v", err, tc.is)
			}
		})
	}
}

func TestUnsafePathsRefused(t *testing.T) {
	r := newTestRepo(t)
	r.write("dir/f.go", "package dir\n")
	r.symlink("dir", "link")
	base := r.commit("base")

	for _, tc := range []struct {
		name, diff string
		reason     Reason
	}{
		{"through a symlink", "diff --git a/link/evil.go b/link/evil.go\nnew file mode 100644\n--- /dev/null\n+++ b/link/evil.go\n@@ -0,0 +1 @@\n+package dir\n", ReasonUnsafePath},
		{"through a symlink it creates", "diff --git a/l2 b/l2\nnew file mode 120000\n--- /dev/null\n+++ b/l2\n@@ -0,0 +1 @@\n+dir\n\\ No newline at end of file\ndiff --git a/l2/evil.go b/l2/evil.go\nnew file mode 100644\n--- /dev/null\n+++ b/l2/evil.go\n@@ -0,0 +1 @@\n+package dir\n", ReasonUnsafePath},
		// git sees no file there, so the diff does not apply.
		{"modify through a symlink", "--- a/link/f.go\n+++ b/link/f.go\n@@ -1 +1 @@\n-package dir\n+package evil\n", ReasonDoesNotApply},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: []byte(tc.diff)})
			wantUsage(t, err, tc.reason)
		})
	}

	// A symlink out of the tree is content the gate does not write: no
	// usage error, but unjudgeable (see TestUnjudgeable), and not written.
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchDiff: []byte("diff --git a/out b/out\nnew file mode 120000\n--- /dev/null\n+++ b/out\n@@ -0,0 +1 @@\n+../../etc/passwd\n\\ No newline at end of file\n")})
	if len(c.Unjudgeable) != 1 || c.Unjudgeable[0].Path != "out" || !strings.Contains(c.Unjudgeable[0].Why, string(tree.ReasonSymlinkEscape)) {
		t.Fatalf("unjudgeable %+v", c.Unjudgeable)
	}
	if _, ok := c.Patch.Lookup("out"); ok {
		t.Fatal("the patch tree holds the escaping symlink")
	}
}

func TestExportIgnoreDoesNotHide(t *testing.T) {
	r := newTestRepo(t)
	r.write(".gitattributes", "secret_test.go export-ignore\ntestdata/** export-ignore\n*.go -diff\n")
	r.write("secret_test.go", "package m\n")
	r.write("testdata/golden.txt", "golden\n")
	r.write("a.go", "package m\n")
	base := r.commit("base")
	r.write("a.go", "package m\n\nvar X = 1\n")
	patched := r.commit("patch")

	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	dir := filepath.Join(t.TempDir(), "base")
	if err := c.MaterializeBaseline(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir)
	if got["secret_test.go"] != "-rw-r--r-- package m\n" || got["testdata/golden.txt"] != "-rw-r--r-- golden\n" {
		t.Fatalf("export-ignore hid files: %v", got)
	}
	// The repository's diff attributes do not make the computed diff
	// binary: it is git's default diff.
	if want := []Change{{Path: "a.go", Kind: Modified, Class: ClassSource, ChangedLines: []int{2, 3}}}; !reflect.DeepEqual(c.Changes, want) {
		t.Fatalf("Changes %+v, want %+v", c.Changes, want)
	}
}

func TestOracle(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package m\n\nfunc A() int { return 1 }\n")
	r.write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal()\n\t}\n}\n")
	r.writeMode("gone_test.go", "package m\n\nimport \"testing\"\n\nfunc TestGone(t *testing.T) {}\n", 0o755)
	r.write("testdata/golden.txt", "golden\n")
	r.write("internal/testutil/util.go", "package testutil\n")
	r.write("go.mod", "module m\n")
	base := r.commit("base")

	r.write("a.go", "package m\n\nfunc A() int { return 2 }\n")
	r.write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n")
	r.remove("gone_test.go")
	r.write("new_test.go", "package m\n\nimport \"testing\"\n\nfunc TestNew(t *testing.T) {}\n")
	r.write("testdata/golden.txt", "tampered\n")
	r.write("internal/testutil/util.go", "package testutil // tampered\n")
	patched := r.commit("patch")

	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched, TestSupport: []string{"internal/testutil/*"}})
	if want := []string{"a_test.go", "gone_test.go", "internal/testutil/util.go", "testdata/golden.txt"}; !reflect.DeepEqual(c.OracleRestored, want) {
		t.Fatalf("OracleRestored %q, want %q", c.OracleRestored, want)
	}
	dir := filepath.Join(t.TempDir(), "oracle")
	if err := c.MaterializeOracle(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir)
	want := map[string]string{
		"a.go":                      "-rw-r--r-- package m\n\nfunc A() int { return 2 }\n",
		"a_test.go":                 "-rw-r--r-- package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal()\n\t}\n}\n",
		"gone_test.go":              "-rwxr-xr-x package m\n\nimport \"testing\"\n\nfunc TestGone(t *testing.T) {}\n",
		"new_test.go":               "-rw-r--r-- package m\n\nimport \"testing\"\n\nfunc TestNew(t *testing.T) {}\n",
		"testdata/golden.txt":       "-rw-r--r-- golden\n",
		"internal/testutil/util.go": "-rw-r--r-- package testutil\n",
		"go.mod":                    "-rw-r--r-- module m\n",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("oracle tree\n got %q\nwant %q", got, want)
	}
	if c.Oracle.Digest() == c.Patch.Digest() {
		t.Fatal("oracle digest equals the patch digest")
	}

	// A transplant runs the patch's new test against the baseline code.
	dir = filepath.Join(t.TempDir(), "transplant")
	if err := c.MaterializeTransplant(context.Background(), dir, []string{"new_test.go"}); err != nil {
		t.Fatal(err)
	}
	got = readTree(t, dir)
	if got["a.go"] != "-rw-r--r-- package m\n\nfunc A() int { return 1 }\n" || got["new_test.go"] == "" || got["gone_test.go"] == "" {
		t.Fatalf("transplant tree %q", got)
	}
	if err := c.MaterializeTransplant(context.Background(), filepath.Join(t.TempDir(), "x"), []string{"gone_test.go"}); !errors.Is(err, tree.ErrNotFound) {
		t.Fatalf("transplant of a deleted file: %v", err)
	}
}

func TestOracleConflict(t *testing.T) {
	r := newTestRepo(t)
	r.write("pkg/testdata/in.txt", "in\n")
	base := r.commit("base")
	r.remove("pkg/testdata")
	r.write("pkg/testdata", "now a file\n")
	patched := r.commit("patch")
	// The patch makes the oracle impossible: the run is unjudgeable, not
	// the caller's mistake.
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if len(c.Unjudgeable) != 1 || c.Unjudgeable[0].Path != "pkg/testdata/in.txt" || !strings.Contains(c.Unjudgeable[0].Why, "cannot be put back") {
		t.Fatalf("unjudgeable %+v", c.Unjudgeable)
	}
}

func TestHarnessDrift(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module m\n")
	r.write("tools/go.sum", "x v1 h1:abc\n")
	r.write("sub/vendor/x/x.go", "package x\n")
	r.write("a.go", "package m\n")
	base := r.commit("base")
	r.write("go.mod", "module m\n\ngo 1.26\n")
	r.remove("tools/go.sum")
	r.write("sub/vendor/x/x.go", "package x // patched\n")
	r.write("vendor/modules.txt", "# x\n")
	r.write("go.work", "go 1.26\n")
	r.write("a.go", "package m // not harness\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if want := []string{"go.mod", "go.work", "sub/vendor/x/x.go", "tools/go.sum", "vendor/modules.txt"}; !reflect.DeepEqual(c.HarnessDrift, want) {
		t.Fatalf("HarnessDrift %q, want %q", c.HarnessDrift, want)
	}
	for _, ch := range c.Changes {
		if wantHarness := ch.Path != "a.go"; (ch.Class == ClassHarness) != wantHarness {
			t.Errorf("%s: class %s", ch.Path, ch.Class)
		}
	}
}

func TestDeferred(t *testing.T) {
	r := newTestRepo(t)
	r.write("pkg/x_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n")
	r.write("pkg/broken_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {}\n")
	r.write("pkg/fixme_test.go", "package pkg\n\nfunc TestOld(t *testing.T) {\n")
	base := r.commit("base")
	r.write("pkg/x_test.go", "package pkg\n\nimport tt \"testing\"\n\nfunc TestA(t *tt.T) { t.Log() }\n\nfunc TestB(t *tt.T) {}\n\nfunc TestC(t *tt.T) {}\n\nfunc helper(t *tt.T) {}\n")
	r.write("pkg/broken_test.go", "package pkg\n\nfunc TestNew( {\n")
	r.write("pkg/fixme_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {}\n\nfunc TestFresh(t *testing.T) {}\n")
	r.write("pkg/brand_new_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestBrandNew(t *testing.T) {}\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	want := []Deferred{
		{File: "pkg/fixme_test.go", Package: "./pkg", Test: "TestFresh"},
		{File: "pkg/fixme_test.go", Package: "./pkg", Test: "TestOld"},
		{File: "pkg/x_test.go", Package: "./pkg", Test: "TestC", BaselineTests: []string{"TestA", "TestB"}},
	}
	if !reflect.DeepEqual(c.Deferred, want) {
		t.Fatalf("Deferred\n got %+v\nwant %+v", c.Deferred, want)
	}
	if want := []string{"pkg/broken_test.go", "pkg/fixme_test.go"}; !reflect.DeepEqual(c.Unparsable, want) {
		t.Fatalf("Unparsable %q, want %q", c.Unparsable, want)
	}
}

func TestTestHarness(t *testing.T) {
	r := newTestRepo(t)
	initFn := "func init() {\n\tx = 1\n}\n"
	r.write("keep/k_test.go", "package keep\n\nvar x int\n\n"+initFn)
	r.write("edit/e_test.go", "package edit\n\nvar x int\n\n"+initFn)
	r.write("plain/p_test.go", "package plain\n")
	base := r.commit("base")
	// Moving an identical init is not a harness change; editing one is.
	r.write("keep/k_test.go", "package keep\n\n// moved\nvar y int\n\nvar x int\n\n"+initFn)
	r.write("edit/e_test.go", "package edit\n\nvar x int\n\nfunc init() {\n\tx = 2\n}\n")
	r.write("plain/p_test.go", "package plain\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n")
	r.write("main/main_test.go", "package main\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n")
	r.write("bad/bad_test.go", "package bad\n\nfunc init( {\n")
	r.write("notest/helper.go", "package notest\n\nfunc init() {}\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if want := []string{"bad/bad_test.go", "edit/e_test.go", "main/main_test.go"}; !reflect.DeepEqual(c.TestHarness, want) {
		t.Fatalf("TestHarness %q, want %q", c.TestHarness, want)
	}
}

func TestUserRepositoryUnchanged(t *testing.T) {
	r := newTestRepo(t)
	base, patched := richChange(t, r)
	diff := r.diff(base, patched)
	r.git("checkout", "-q", base)
	r.write("untracked.txt", "mine\n")
	gitDir := snapshot(t, filepath.Join(r.dir, ".git"))
	work := snapshot(t, r.dir)
	status := r.git("status", "--porcelain=v1", "--untracked-files=all")

	scratch := t.TempDir()
	c, err := Prepare(context.Background(), Input{Repo: r.dir, Baseline: "HEAD", PatchDiff: diff}, scratch)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []func(context.Context, string) error{c.MaterializeBaseline, c.MaterializePatch, c.MaterializeOracle} {
		if err := m(context.Background(), filepath.Join(t.TempDir(), "t"+string(rune('0'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	if after := snapshot(t, filepath.Join(r.dir, ".git")); !reflect.DeepEqual(gitDir, after) {
		t.Fatalf(".git changed:\nbefore %q\nafter  %q", gitDir, after)
	}
	if after := snapshot(t, r.dir); !reflect.DeepEqual(work, after) {
		t.Fatal("work tree changed")
	}
	if after := r.git("status", "--porcelain=v1", "--untracked-files=all"); after != status {
		t.Fatalf("status %q, was %q", after, status)
	}
	// The patch commit is not in the repository: only the scratch has it.
	if _, err := tree.List(context.Background(), r.dir, c.Patch.Commit()); !errors.Is(err, tree.ErrRevision) {
		t.Fatalf("patch commit found in the user's repository: %v", err)
	}
	// A failed Prepare leaves nothing in scratch.
	failScratch := t.TempDir()
	if _, err := Prepare(context.Background(), Input{Repo: r.dir, Baseline: "HEAD", PatchDiff: []byte("--- a/zz\n+++ b/zz\n@@ -1 +1 @@\n-a\n+b\n")}, failScratch); err == nil {
		t.Fatal("Prepare of a diff that does not apply succeeded")
	}
	if entries, _ := os.ReadDir(failScratch); len(entries) != 0 {
		t.Fatalf("failed Prepare left %v in scratch", entries)
	}
}

func TestBareRepository(t *testing.T) {
	r := newTestRepo(t)
	base, patched := richChange(t, r)
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.runIn(r.dir, "clone", "-q", "--bare", r.dir, bare)
	diff := r.diff(base, patched)
	c := mustPrepare(t, Input{Repo: bare, Baseline: base, PatchDiff: diff})
	want := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if c.Patch.Digest() != want.Patch.Digest() {
		t.Fatalf("bare repository: patch digest %s, want %s", c.Patch.Digest(), want.Patch.Digest())
	}
}

func TestInputErrors(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package m\n")
	base := r.commit("base")
	notRepo := t.TempDir()
	cases := []struct {
		name   string
		in     Input
		reason Reason
	}{
		{"no repository", Input{Baseline: base, PatchCommit: base}, ReasonInput},
		{"no baseline", Input{Repo: r.dir, PatchCommit: base}, ReasonInput},
		{"no patch", Input{Repo: r.dir, Baseline: base}, ReasonInput},
		{"two patches", Input{Repo: r.dir, Baseline: base, PatchCommit: base, PatchDiff: []byte("x")}, ReasonInput},
		{"bad glob", Input{Repo: r.dir, Baseline: base, PatchCommit: base, TestSupport: []string{"[a-z]*"}}, ReasonInput},
		{"absolute glob", Input{Repo: r.dir, Baseline: base, PatchCommit: base, TestSupport: []string{"/x/*"}}, ReasonInput},
		{"not a repository", Input{Repo: notRepo, Baseline: base, PatchCommit: base}, ReasonRepository},
		{"missing repository", Input{Repo: filepath.Join(notRepo, "nope"), Baseline: base, PatchCommit: base}, ReasonRepository},
		{"bad baseline", Input{Repo: r.dir, Baseline: "no-such-branch", PatchCommit: base}, ReasonRevision},
		{"bad patch commit", Input{Repo: r.dir, Baseline: base, PatchCommit: "deadbeef"}, ReasonRevision},
		{"option-like revision", Input{Repo: r.dir, Baseline: "--all", PatchCommit: base}, ReasonRevision},
		{"baseline is a tree", Input{Repo: r.dir, Baseline: base + "^{tree}", PatchCommit: base}, ReasonRevision},
		{"patch commit changes nothing", Input{Repo: r.dir, Baseline: base, PatchCommit: base}, ReasonDiff},
		{"empty diff", Input{Repo: r.dir, Baseline: base, PatchDiff: []byte{}}, ReasonDiff},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prepare(t, tc.in)
			wantUsage(t, err, tc.reason)
		})
	}
	if _, err := Prepare(context.Background(), Input{Repo: r.dir, Baseline: base, PatchCommit: base}, filepath.Join(notRepo, "missing")); err == nil || IsUsage(err) {
		t.Fatalf("missing scratch: %v, want an infrastructure error", err)
	}
}
