package tree

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// objectListing lists the files under a repository's object directory, to
// show that nothing was written there.
func objectListing(t *testing.T, gitDir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(gitDir, "objects"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// privateCommit builds, in a private bare repository whose objects live
// outside r, a commit of r's tree at base plus the file name with content.
// It returns the private object directory and the commit id.
func privateCommit(t *testing.T, r *testRepo, parent, base, name, content string) (objDir, commit string) {
	t.Helper()
	priv := filepath.Join(parent, "priv.git")
	r.runIn(parent, nil, "init", "-q", "--bare", "--template=", priv)
	env := append(append([]string(nil), r.env...),
		"GIT_DIR="+priv,
		"GIT_ALTERNATE_OBJECT_DIRECTORIES="+QuoteAlternate(filepath.Join(r.dir, ".git", "objects")),
		"GIT_INDEX_FILE="+filepath.Join(parent, "index"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
	)
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = parent
		cmd.Env = env
		cmd.Stdin = strings.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		}
		return strings.TrimSpace(stdout.String())
	}
	run("", "read-tree", base)
	blob := run(content, "hash-object", "-w", "--stdin")
	run("", "update-index", "--add", "--cacheinfo", ModeFile+","+blob+","+name)
	tree := run("", "write-tree")
	return filepath.Join(priv, "objects"), run("", "commit-tree", "-p", base, "-m", "private", tree)
}

func TestListWithAlternateObjectDirs(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.txt", "a\n", 0o644)
	base := r.commit("base")
	before := objectListing(t, filepath.Join(r.dir, ".git"))

	// A colon in the path needs git's quoting of the alternates list.
	parent := filepath.Join(t.TempDir(), "with:colon")
	if err := os.Mkdir(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	objDir, c := privateCommit(t, r, parent, base, "new.txt", "private\n")

	if _, err := List(context.Background(), r.dir, c); !errors.Is(err, ErrRevision) {
		t.Fatalf("List without the alternate: %v, want ErrRevision", err)
	}
	opts := Options{AlternateObjectDirs: []string{objDir}}
	tr, err := ListWith(context.Background(), r.dir, c, opts)
	if err != nil {
		t.Fatalf("ListWith: %v", err)
	}
	if tr.Commit() != c {
		t.Fatalf("commit %s, want %s", tr.Commit(), c)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	if err := tr.Materialize(context.Background(), dst); err != nil {
		t.Fatalf("Materialize: %v", err)
	}
	for name, want := range map[string]string{"a.txt": "a\n", "new.txt": "private\n"} {
		if got, err := os.ReadFile(filepath.Join(dst, name)); err != nil || string(got) != want {
			t.Fatalf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	files, err := tr.ReadFiles(context.Background(), []string{"new.txt"})
	if err != nil || string(files["new.txt"]) != "private\n" {
		t.Fatalf("ReadFiles = %q, %v", files, err)
	}
	if after := objectListing(t, filepath.Join(r.dir, ".git")); !reflect.DeepEqual(before, after) {
		t.Fatalf("repository objects changed:\nbefore %q\nafter  %q", before, after)
	}
}

func TestOptionsRefused(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.txt", "a\n", 0o644)
	c := r.commit("base")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dirs := range [][]string{{""}, {"a\nb"}, {file}} {
		if _, err := ListWith(context.Background(), r.dir, c, Options{AlternateObjectDirs: dirs}); !errors.Is(err, ErrOptions) {
			t.Errorf("ListWith(%q): %v, want ErrOptions", dirs, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := ListWith(context.Background(), r.dir, c, Options{AlternateObjectDirs: []string{missing}}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ListWith(missing): %v, want not-exist", err)
	}
}

func TestQuoteAlternate(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b":       "/a/b",
		"/a:b":       `"/a:b"`,
		`"/q`:        `"\"/q"`,
		`/a:b\c"d`:   `"/a:b\\c\"d"`,
		`/plain\dir`: `/plain\dir`,
	} {
		if got := QuoteAlternate(in); got != want {
			t.Errorf("QuoteAlternate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOverlay(t *testing.T) {
	r := newTestRepo(t)
	r.write("keep.txt", "keep\n", 0o644)
	r.write("x_test.go", "package x // base\n", 0o644)
	r.write("gone_test.go", "package x // base\n", 0o644)
	r.write("src.go", "package x\n", 0o644)
	base := listOK(t, r, r.commit("base"))

	r.write("x_test.go", "package x // patched\n", 0o755)
	r.remove("gone_test.go")
	r.write("new_test.go", "package x // new\n", 0o644)
	r.write("src.go", "package x // patched\n", 0o644)
	r.symlink("src.go", "alias.go")
	patch := listOK(t, r, r.commit("patch"))

	// The oracle: the patch with the baseline's test files put back.
	oracle, err := patch.Overlay(base, []string{"x_test.go", "gone_test.go"})
	if err != nil {
		t.Fatalf("Overlay: %v", err)
	}
	r.write("x_test.go", "package x // base\n", 0o644)
	r.write("gone_test.go", "package x // base\n", 0o644)
	want := listOK(t, r, r.commit("oracle by hand"))
	if oracle.Digest() != want.Digest() || oracle.Commit() != "" {
		t.Fatalf("oracle digest %s commit %q, want %s and no commit", oracle.Digest(), oracle.Commit(), want.Digest())
	}
	dst := filepath.Join(t.TempDir(), "oracle")
	if err := oracle.Materialize(context.Background(), dst); err != nil {
		t.Fatalf("Materialize: %v", err)
	}
	assertMatchesGit(t, r, want, dst)

	// A transplant: the baseline plus a new file and a symlink of the patch;
	// a path the source lacks is removed.
	tr, err := base.Overlay(patch, []string{"new_test.go", "alias.go", "gone_test.go"})
	if err != nil {
		t.Fatalf("Overlay: %v", err)
	}
	var paths []string
	for _, e := range tr.Entries() {
		paths = append(paths, e.Path)
	}
	if want := []string{"alias.go", "keep.txt", "new_test.go", "src.go", "x_test.go"}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("transplant paths %q, want %q", paths, want)
	}
	if e, _ := tr.Lookup("alias.go"); e.Target != "src.go" {
		t.Fatalf("alias.go target %q", e.Target)
	}
	if e, _ := tr.Lookup("src.go"); e != mustLookup(t, base, "src.go") {
		t.Fatalf("src.go not the baseline's: %+v", e)
	}

	if _, err := base.Overlay(patch, []string{"nowhere"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Overlay(nowhere): %v, want ErrNotFound", err)
	}
	if _, err := base.Overlay(nil, nil); !errors.Is(err, ErrOptions) {
		t.Fatalf("Overlay(nil): %v, want ErrOptions", err)
	}
	if _, err := tr.ReadFiles(context.Background(), []string{"nowhere"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("ReadFiles(nowhere): %v, want ErrNotFound", err)
	}
}

func mustLookup(t *testing.T, tr *Tree, p string) Entry {
	t.Helper()
	e, ok := tr.Lookup(p)
	if !ok {
		t.Fatalf("no %s", p)
	}
	return e
}

func TestOverlayRefusals(t *testing.T) {
	r := newTestRepo(t)
	r.symlink("dir", "link")
	r.write("dir/f", "f\n", 0o644)
	r.symlink("d/x", "l")
	r.write("d/x", "x\n", 0o644)
	base := listOK(t, r, r.commit("base"))

	r.remove("link")
	r.write("link/inside", "i\n", 0o644)
	r.remove("d")
	r.remove("l")
	r.symlink("dir", "d")
	patch := listOK(t, r, r.commit("patch"))

	// link stays a symlink in base, and link/inside comes from the patch.
	_, err := base.Overlay(patch, []string{"link/inside"})
	var re *RefusedError
	if !errors.As(err, &re) || re.Reason != ReasonThroughSymlink {
		t.Fatalf("through a symlink: %v", err)
	}
	// d becomes a symlink, so base's l -> d/x passes through it.
	_, err = base.Overlay(patch, []string{"d", "d/x"})
	if !errors.As(err, &re) || re.Reason != ReasonSymlinkEscape || re.Path != "l" {
		t.Fatalf("target through a symlink: %v", err)
	}

	other := newTestRepo(t)
	other.write("a", "a\n", 0o644)
	ot := listOK(t, other, other.commit("other"))
	if _, err := base.Overlay(ot, []string{"a"}); !errors.Is(err, ErrOptions) {
		t.Fatalf("other repository: %v, want ErrOptions", err)
	}
}

func TestWithFile(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package a\n", 0o644)
	r.symlink("a.go", "link.go")
	base := listOK(t, r, r.commit("base"))
	oid := strings.TrimSpace(r.gitStdin("module example.com/a\n", "hash-object", "-w", "--stdin"))

	got, err := base.WithFile("go.mod", oid)
	if err != nil {
		t.Fatalf("WithFile: %v", err)
	}
	r.write("go.mod", "module example.com/a\n", 0o644)
	want := listOK(t, r, r.commit("go.mod by hand"))
	if got.Digest() != want.Digest() || got.Commit() != "" {
		t.Fatalf("digest %s commit %q, want %s and no commit", got.Digest(), got.Commit(), want.Digest())
	}
	if _, ok := base.Lookup("go.mod"); ok {
		t.Fatal("WithFile changed the tree it was called on")
	}
	dst := filepath.Join(t.TempDir(), "with")
	if err := got.Materialize(context.Background(), dst); err != nil {
		t.Fatalf("Materialize: %v", err)
	}
	assertMatchesGit(t, r, want, dst)
	files, err := got.ReadFiles(context.Background(), []string{"go.mod"})
	if err != nil || string(files["go.mod"]) != "module example.com/a\n" {
		t.Fatalf("ReadFiles: %q, %v", files["go.mod"], err)
	}

	for name, tc := range map[string]struct{ path, oid string }{
		"a path it holds":    {"a.go", oid},
		"below a file":       {"a.go/go.mod", oid},
		"through a symlink":  {"link.go/go.mod", oid},
		"an unsafe path":     {"../go.mod", oid},
		"not an object id":   {"go.mod", "xyz"},
		"a short object id":  {"go.mod", oid[:10]},
		"an upper-case id":   {"go.mod", strings.ToUpper(oid)},
		"a path inside .git": {".git/config", oid},
	} {
		if _, err := base.WithFile(tc.path, tc.oid); err == nil {
			t.Errorf("%s: WithFile(%q, %q) accepted it", name, tc.path, tc.oid)
		}
	}
}
