package tree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// listOK lists commit or fails the test.
func listOK(t *testing.T, r *testRepo, commit string) *Tree {
	t.Helper()
	tr, err := List(context.Background(), r.dir, commit)
	if err != nil {
		t.Fatalf("List(%s): %v", commit, err)
	}
	return tr
}

// materializeOK lists and materializes commit into a fresh directory.
func materializeOK(t *testing.T, r *testRepo, commit string) (*Tree, string) {
	t.Helper()
	tr := listOK(t, r, commit)
	dst := filepath.Join(t.TempDir(), "dst")
	if err := tr.Materialize(context.Background(), dst); err != nil {
		t.Fatalf("Materialize: %v", err)
	}
	return tr, dst
}

// assertMatchesGit checks every materialized file against `git show` and
// its mode, and that nothing else was written.
func assertMatchesGit(t *testing.T, r *testRepo, tr *Tree, dst string) {
	t.Helper()
	want := map[string]bool{}
	for _, e := range tr.Entries() {
		want[e.Path] = true
		p := filepath.Join(dst, filepath.FromSlash(e.Path))
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if e.Mode == ModeSymlink {
			if fi.Mode().Type() != fs.ModeSymlink {
				t.Fatalf("%s: mode %v, want a symlink", e.Path, fi.Mode())
			}
			target, err := os.Readlink(p)
			if err != nil {
				t.Fatal(err)
			}
			if gitTarget := r.git("cat-file", "blob", e.ObjectID); target != gitTarget || target != e.Target {
				t.Fatalf("%s: target %q, git %q, entry %q", e.Path, target, gitTarget, e.Target)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if show := r.git("show", tr.Commit()+":"+e.Path); strings.TrimSuffix(string(got), "\n") != show {
			t.Fatalf("%s: content %q, git show %q", e.Path, got, show)
		}
		if raw := r.git("cat-file", "blob", e.ObjectID); strings.TrimSuffix(string(got), "\n") != raw {
			t.Fatalf("%s: content %q, blob %q", e.Path, got, raw)
		}
		wantPerm := os.FileMode(0o644)
		if e.Mode == ModeExecutable {
			wantPerm = 0o755
		}
		if !fi.Mode().IsRegular() || fi.Mode().Perm() != wantPerm {
			t.Fatalf("%s: mode %v, want regular %v", e.Path, fi.Mode(), wantPerm)
		}
	}
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if rel != "." && fi.Mode().Perm() != 0o755 {
				t.Errorf("dir %s: mode %v", rel, fi.Mode())
			}
			return nil
		}
		if !want[rel] {
			t.Errorf("unexpected file %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMaterializeNormalTree(t *testing.T) {
	r := newTestRepo(t)
	r.write("README.md", "hello\n", 0o644)
	r.write("cmd/tool/main.go", "package main\n\nfunc main() {}\n", 0o644)
	r.write("internal/a/b/c/deep.txt", "deep\x00binary\xff\n", 0o644)
	r.write("scripts/run.sh", "#!/bin/sh\necho run\n", 0o755)
	r.write("empty", "", 0o644)
	c := r.commit("normal")

	tr, dst := materializeOK(t, r, c)
	if tr.Commit() != c || tr.ObjectFormat() != FormatSHA1 {
		t.Fatalf("commit %s format %s", tr.Commit(), tr.ObjectFormat())
	}
	var paths []string
	for _, e := range tr.Entries() {
		paths = append(paths, e.Path)
	}
	want := []string{"README.md", "cmd/tool/main.go", "empty", "internal/a/b/c/deep.txt", "scripts/run.sh"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	if e, _ := tr.Lookup("scripts/run.sh"); e.Mode != ModeExecutable || e.Type != "blob" {
		t.Fatalf("run.sh entry %+v", e)
	}
	assertMatchesGit(t, r, tr, dst)
	// Binary bytes survive exactly.
	got, err := os.ReadFile(filepath.Join(dst, "internal/a/b/c/deep.txt"))
	if err != nil || string(got) != "deep\x00binary\xff\n" {
		t.Fatalf("deep.txt %q %v", got, err)
	}
}

func TestMaterializeShortRevisionAndTag(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a\n", 0o644)
	c := r.commit("one")
	r.git("-c", "user.name=t", "-c", "user.email=t@t", "tag", "-a", "-m", "v1", "v1")
	for _, rev := range []string{c[:10], "HEAD", "v1"} {
		if got := listOK(t, r, rev).Commit(); got != c {
			t.Fatalf("List(%s).Commit() = %s, want %s", rev, got, c)
		}
	}
}

func TestExportIgnoreIsMaterialized(t *testing.T) {
	r := newTestRepo(t)
	r.write(".gitattributes", "secret.txt export-ignore\ntestdata/** export-ignore\n", 0o644)
	r.write("secret.txt", "kept\n", 0o644)
	r.write("testdata/golden.txt", "golden\n", 0o644)
	c := r.commit("attrs")
	tr, dst := materializeOK(t, r, c)
	for _, p := range []string{"secret.txt", "testdata/golden.txt", ".gitattributes"} {
		if _, err := os.Stat(filepath.Join(dst, p)); err != nil {
			t.Fatalf("%s not materialized: %v", p, err)
		}
	}
	assertMatchesGit(t, r, tr, dst)
}

func TestNoFilterRuns(t *testing.T) {
	r := newTestRepo(t)
	r.write(".gitattributes", "*.txt text=auto eol=crlf\n*.bin filter=lfs diff=lfs merge=lfs -text\n", 0o644)
	lfsPointer := "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"
	r.write("big.bin", lfsPointer, 0o644)
	r.write("notes.txt", "line one\nline two\n", 0o644)
	c := r.commit("filters")
	// A smudge filter and autocrlf that a checkout would apply.
	r.git("config", "filter.lfs.smudge", "echo SMUDGED")
	r.git("config", "filter.lfs.required", "true")
	r.git("config", "core.autocrlf", "true")

	tr, dst := materializeOK(t, r, c)
	if got, _ := os.ReadFile(filepath.Join(dst, "big.bin")); string(got) != lfsPointer {
		t.Fatalf("big.bin = %q, want the pointer blob", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dst, "notes.txt")); string(got) != "line one\nline two\n" {
		t.Fatalf("notes.txt = %q, want LF bytes", got)
	}
	assertMatchesGit(t, r, tr, dst)
}

func TestSymlinksInsideTreeKept(t *testing.T) {
	r := newTestRepo(t)
	r.write("dir/target.txt", "target\n", 0o644)
	r.write("top.txt", "top\n", 0o644)
	r.symlink("dir/target.txt", "link")
	r.symlink("../top.txt", "dir/up")
	r.symlink("dir", "dirlink")
	r.symlink("sub/../target.txt", "dir/dotted")
	r.symlink("missing-but-inside", "dangling")
	c := r.commit("links")
	tr, dst := materializeOK(t, r, c)
	assertMatchesGit(t, r, tr, dst)
	if got, err := os.ReadFile(filepath.Join(dst, "dir", "up")); err != nil || string(got) != "top\n" {
		t.Fatalf("dir/up reads %q %v", got, err)
	}
	if e, _ := tr.Lookup("dirlink"); e.Mode != ModeSymlink || e.Target != "dir" {
		t.Fatalf("dirlink entry %+v", e)
	}
}

func TestRefusals(t *testing.T) {
	skipInBazel(t)
	cases := []struct {
		name   string
		build  func(r *testRepo) string
		reason Reason
		path   string
	}{
		{"symlink to /etc/passwd", func(r *testRepo) string {
			r.symlink("/etc/passwd", "passwd")
			return r.commit("abs")
		}, ReasonSymlinkAbsolute, "passwd"},
		{"symlink to ../../x", func(r *testRepo) string {
			r.symlink("../../x", "a/esc")
			return r.commit("esc")
		}, ReasonSymlinkEscape, "a/esc"},
		{"symlink to ..", func(r *testRepo) string {
			r.symlink("..", "up")
			return r.commit("esc")
		}, ReasonSymlinkEscape, "up"},
		{"symlink to .git", func(r *testRepo) string {
			r.symlink(".git/config", "cfg")
			return r.commit("git")
		}, ReasonSymlinkEscape, "cfg"},
		{"symlink target through a symlink", func(r *testRepo) string {
			r.symlink(".", "self")
			r.symlink("self/..", "sneaky")
			return r.commit("chain")
		}, ReasonSymlinkEscape, "sneaky"},
		{"file under a symlinked directory", func(r *testRepo) string {
			b := r.blob("x")
			sub := r.gitStdin("100644 blob "+b+"\tfile\n", "mktree")
			return r.commitTree("120000 blob " + r.blob("real") + "\tlink\n040000 tree " + sub + "\tlink\n")
		}, ReasonThroughSymlink, "link/file"},
		{"submodule", func(r *testRepo) string {
			r.write("a", "a\n", 0o644)
			r.git("add", "a")
			r.git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("ab", 20)+",vendor/sub")
			r.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "sub")
			return r.git("rev-parse", "HEAD")
		}, ReasonSubmodule, "vendor/sub"},
		{"dotdot entry", func(r *testRepo) string {
			return r.commitTree("100644 blob " + r.blob("x") + "\t..\n")
		}, ReasonDotDot, ".."},
		{"nested dotdot entry", func(r *testRepo) string {
			sub := r.gitStdin("100644 blob "+r.blob("x")+"\t..\n", "mktree")
			return r.commitTree("040000 tree " + sub + "\tsub\n")
		}, ReasonDotDot, "sub/.."},
		{"dotgit entry", func(r *testRepo) string {
			sub := r.gitStdin("100644 blob "+r.blob("[core]\n")+"\tconfig\n", "mktree")
			return r.commitTree("040000 tree " + sub + "\t.git\n")
		}, ReasonDotGit, ".git/config"},
		{"upper-case dotgit entry", func(r *testRepo) string {
			return r.commitTree("100644 blob " + r.blob("x") + "\t.GIT\n")
		}, ReasonDotGit, ".GIT"},
		{"newline in path", func(r *testRepo) string {
			r.write("a\nb", "x", 0o644)
			return r.commit("nl")
		}, ReasonControl, "a\nb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			c := tc.build(r)
			_, err := List(context.Background(), r.dir, c)
			var re *RefusedError
			if !errors.As(err, &re) || !errors.Is(err, tc.reason) {
				t.Fatalf("err = %v, want a refusal for %s", err, tc.reason)
			}
			if re.Path != tc.path || re.Reason != tc.reason {
				t.Fatalf("refused %q for %s, want %q for %s", re.Path, re.Reason, tc.path, tc.reason)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("message spans lines: %q", err)
			}

			// Leniently, the entry is left out and the rest is listed.
			lenient, err := ListWith(context.Background(), r.dir, c, Options{LeaveOut: true})
			if err != nil {
				t.Fatalf("ListWith(LeaveOut): %v", err)
			}
			lo, ok := lenient.LookupLeftOut(tc.path)
			if !ok || lo.Reason != tc.reason {
				t.Fatalf("left out %+v, want %q for %s", lenient.LeftOut(), tc.path, tc.reason)
			}
			if _, ok := lenient.Lookup(tc.path); ok {
				t.Fatalf("%q is both held and left out", tc.path)
			}
			for _, e := range lenient.Entries() {
				if checkPath(e.Path) != nil || e.Mode == ModeGitlink {
					t.Fatalf("held entry %+v", e)
				}
			}
			dst := filepath.Join(t.TempDir(), "dst")
			if err := lenient.Materialize(context.Background(), dst); err != nil {
				t.Fatalf("Materialize: %v", err)
			}
			assertOnly(t, dst, lenient)
		})
	}
}

// assertOnly checks that dst holds exactly the tree's entries (and their
// directories).
func assertOnly(t *testing.T, dst string, tr *Tree) {
	t.Helper()
	want := map[string]bool{}
	for _, e := range tr.Entries() {
		for p := e.Path; p != "."; p = path.Dir(p) {
			want[p] = true
		}
	}
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		if rel != "." && !want[filepath.ToSlash(rel)] {
			t.Errorf("materialized %q, which the tree does not hold", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLeaveOutKeepsTheRest: a lenient listing of a tree with a submodule
// and an escaping symlink holds everything else, and its digest is that of
// the same tree without them.
func TestLeaveOutKeepsTheRest(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package a\n", 0o644)
	r.write("dir/b.txt", "b\n", 0o644)
	clean := r.commit("clean")
	r.symlink("../../etc", "dir/up")
	r.symlink("dir/up/x", "chain")
	r.git("add", "-A")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("cd", 20)+",sub")
	r.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "sub")
	dirty := r.git("rev-parse", "HEAD")

	want := listOK(t, r, clean)
	got, err := ListWith(context.Background(), r.dir, dirty, Options{LeaveOut: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest() != want.Digest() || !reflect.DeepEqual(got.Entries(), want.Entries()) {
		t.Fatalf("entries %+v, want %+v", got.Entries(), want.Entries())
	}
	var left []string
	for _, lo := range got.LeftOut() {
		left = append(left, lo.Path+" "+string(lo.Reason))
	}
	// chain's target passes through the symlink dir/up: both are refused
	// in the same round.
	if !reflect.DeepEqual(left, []string{"chain symlink-escape", "dir/up symlink-escape", "sub submodule"}) {
		t.Fatalf("left out %q", left)
	}
	if lo, _ := got.LookupLeftOut("sub"); lo.Mode != ModeGitlink || lo.Type != "commit" || lo.ObjectID != strings.Repeat("cd", 20) {
		t.Fatalf("gitlink left out as %+v", lo)
	}
	if _, err := List(context.Background(), r.dir, dirty); err == nil {
		t.Fatal("a strict listing accepted the tree")
	}
}

func TestRevisionErrors(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a\n", 0o644)
	r.write("d^{commit}/f", "f\n", 0o644)
	c := r.commit("one")
	treeID := r.git("rev-parse", c+"^{tree}")
	blobID := r.git("rev-parse", c+":a")
	cases := []struct {
		rev  string
		want error
	}{
		{"no-such-branch", ErrRevision},
		{strings.Repeat("1", 40), ErrRevision},
		{"", ErrRevision},
		{"--help", ErrRevision},
		{"HEAD\nHEAD", ErrRevision},
		{treeID, ErrNotCommit},
		{blobID, ErrNotCommit},
		{"HEAD:a", ErrNotCommit},
		{"HEAD:d", ErrNotCommit},
	}
	for _, tc := range cases {
		_, err := List(context.Background(), r.dir, tc.rev)
		if !errors.Is(err, tc.want) {
			t.Errorf("List(%q) err = %v, want %v", tc.rev, err, tc.want)
		}
	}
	if _, err := List(context.Background(), t.TempDir(), "HEAD"); !errors.Is(err, ErrRevision) {
		t.Errorf("List in a non-repository: %v", err)
	}
	// A full commit id is taken as it is; an annotated tag's own object
	// id peels to its commit.
	r.git("-c", "user.name=t", "-c", "user.email=t@t", "tag", "-a", "-m", "t", "v1", c)
	tagID := r.git("rev-parse", "v1")
	for _, rev := range []string{c, tagID} {
		tr, err := List(context.Background(), r.dir, rev)
		if err != nil || tr.Commit() != c {
			t.Errorf("List(%s) = %v, %v; want commit %s", rev, tr.Commit(), err, c)
		}
	}
}

func TestDigest(t *testing.T) {
	r := newTestRepo(t)
	r.write("b.txt", "b\n", 0o644)
	r.write("a/x.go", "package a\n", 0o644)
	r.write("a-b", "dash\n", 0o755)
	r.symlink("b.txt", "l")
	c1 := r.commit("one")
	r.write("b.txt", "b2\n", 0o644)
	c2 := r.commit("two")

	d1 := listOK(t, r, c1).Digest()
	if again := listOK(t, r, c1[:12]).Digest(); again != d1 {
		t.Fatalf("digest changed across List calls: %s vs %s", d1, again)
	}
	if d2 := listOK(t, r, c2).Digest(); d2 == d1 {
		t.Fatalf("digest of different commits equal: %s", d1)
	}
	// The documented recipe: git ls-tree -r --full-tree C | LC_ALL=C sort | sha256sum.
	lines := strings.SplitAfter(r.git("ls-tree", "-r", "--full-tree", c1)+"\n", "\n")
	lines = lines[:len(lines)-1]
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "")))
	if want := hex.EncodeToString(sum[:]); d1 != want {
		t.Fatalf("digest %s, recipe %s", d1, want)
	}
	var empty *Tree
	if len(empty.Digest()) != 64 {
		t.Fatal("nil tree digest")
	}
}

func TestDestination(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a\n", 0o644)
	tr := listOK(t, r, r.commit("one"))
	ctx := context.Background()

	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tr.Materialize(ctx, full); !errors.Is(err, ErrDestination) {
		t.Fatalf("non-empty dst: %v", err)
	}
	if _, err := os.Stat(filepath.Join(full, "a")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("wrote into a non-empty dst: %v", err)
	}
	hidden := t.TempDir()
	if err := os.Mkdir(filepath.Join(hidden, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tr.Materialize(ctx, hidden); !errors.Is(err, ErrDestination) {
		t.Fatalf("dst with a dot directory: %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tr.Materialize(ctx, file); !errors.Is(err, ErrDestination) {
		t.Fatalf("dst is a file: %v", err)
	}
	emptyDir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(emptyDir, link); err != nil {
		t.Fatal(err)
	}
	if err := tr.Materialize(ctx, link); !errors.Is(err, ErrDestination) {
		t.Fatalf("dst is a symlink: %v", err)
	}
	if err := tr.Materialize(ctx, emptyDir); err != nil {
		t.Fatalf("empty existing dst: %v", err)
	}
	if err := tr.Materialize(ctx, emptyDir); !errors.Is(err, ErrDestination) {
		t.Fatalf("second materialize into the same dst: %v", err)
	}
}

func TestCanceledContext(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a\n", 0o644)
	c := r.commit("one")
	tr := listOK(t, r, c)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := List(ctx, r.dir, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("List with canceled ctx: %v", err)
	}
	if err := tr.Materialize(ctx, filepath.Join(t.TempDir(), "d")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Materialize with canceled ctx: %v", err)
	}
}

func TestEmptyTree(t *testing.T) {
	r := newTestRepo(t)
	c := r.commit("empty")
	tr, dst := materializeOK(t, r, c)
	if len(tr.Entries()) != 0 {
		t.Fatalf("entries %v", tr.Entries())
	}
	if names, _ := os.ReadDir(dst); len(names) != 0 {
		t.Fatalf("dst holds %v", names)
	}
}

func TestSHA256Repository(t *testing.T) {
	skipInBazel(t)
	r := newTestRepo(t, "--object-format=sha256")
	r.write("a/b.txt", "sha256\n", 0o644)
	r.write("x.sh", "#!/bin/sh\n", 0o755)
	r.symlink("a/b.txt", "l")
	c := r.commit("one")
	if len(c) != 64 {
		t.Skipf("git made a %d-char id", len(c))
	}
	tr, dst := materializeOK(t, r, c)
	if tr.ObjectFormat() != FormatSHA256 {
		t.Fatalf("format %s", tr.ObjectFormat())
	}
	assertMatchesGit(t, r, tr, dst)
}

func TestCorruptObjectRefused(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.txt", "good\n", 0o644)
	c := r.commit("one")
	tr := listOK(t, r, c)
	good, _ := tr.Lookup("a.txt")
	bad := r.blob("evil\n") // same length, so the header still agrees
	objPath := func(oid string) string { return filepath.Join(r.dir, ".git", "objects", oid[:2], oid[2:]) }
	evil, err := os.ReadFile(objPath(bad))
	if err != nil {
		t.Skipf("objects are not loose: %v", err)
	}
	if err := os.Chmod(objPath(good.ObjectID), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(objPath(good.ObjectID), evil, 0o644); err != nil {
		t.Fatal(err)
	}
	err = tr.Materialize(context.Background(), filepath.Join(t.TempDir(), "d"))
	if !errors.Is(err, ErrObject) || !strings.Contains(err.Error(), "hashes to "+bad) {
		t.Fatalf("Materialize of a corrupt object: %v", err)
	}
}
