package checkout

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// skipWithoutGit skips tests that run git, which the Bazel sandbox lacks.
func skipWithoutGit(t *testing.T) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs git, which the Bazel sandbox does not provide")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("no git: %v", err)
	}
}

// testRepo is a git repository in a temporary directory.
type testRepo struct {
	t   *testing.T
	dir string
	env []string
}

func newTestRepo(t *testing.T, initArgs ...string) *testRepo {
	t.Helper()
	skipWithoutGit(t)
	r := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "repo"), env: []string{
		"HOME=" + t.TempDir(),
		"PATH=" + os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_AUTHOR_DATE=1700000000 +0000",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_COMMITTER_DATE=1700000000 +0000",
	}}
	args := append([]string{"init", "-q"}, initArgs...)
	r.runIn(filepath.Dir(r.dir), append(args, r.dir)...)
	return r
}

func (r *testRepo) runIn(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return strings.TrimSuffix(r.runIn(r.dir, args...), "\n")
}

func (r *testRepo) write(name, content string) { r.writeMode(name, content, 0o644) }

func (r *testRepo) writeMode(name, content string, perm os.FileMode) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	_ = os.Remove(p)
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) symlink(target, name string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	_ = os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) remove(name string) {
	r.t.Helper()
	if err := os.RemoveAll(filepath.Join(r.dir, filepath.FromSlash(name))); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages everything and commits it, returning the commit id.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// diff returns `git diff` between two commits with the flags Prepare uses,
// plus extra.
func (r *testRepo) diff(base, patch string, extra ...string) []byte {
	r.t.Helper()
	args := append(append(diffArgs(), extra...), base, patch, "--")
	return []byte(r.runIn(r.dir, args...))
}

// prepare runs Prepare with a fresh scratch directory.
func prepare(t *testing.T, in Input) (*Checkout, error) {
	t.Helper()
	return Prepare(context.Background(), in, t.TempDir())
}

func mustPrepare(t *testing.T, in Input) *Checkout {
	t.Helper()
	c, err := prepare(t, in)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return c
}

// wantUsage checks that err is a *UsageError with reason.
func wantUsage(t *testing.T, err error, reason Reason) {
	t.Helper()
	var u *UsageError
	if !errors.As(err, &u) || !errors.Is(err, reason) || !IsUsage(err) {
		t.Fatalf("error %v, want a usage error %q", err, reason)
	}
	t.Log(err)
	if strings.ContainsAny(err.Error(), "\n\r") {
		t.Fatalf("error message spans lines: %q", err.Error())
	}
}

// snapshot records every file under dir: path, mode, size and content
// digest.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := rel + " " + fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		out = append(out, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// readTree reads every file of a materialized directory: content, or
// "-> target" for a symlink, with the permission bits.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Type() == fs.ModeSymlink {
			target, err := os.Readlink(p)
			out[filepath.ToSlash(rel)] = "-> " + target
			return err
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = fi.Mode().Perm().String() + " " + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
