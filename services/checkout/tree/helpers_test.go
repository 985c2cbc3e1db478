package tree

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// skipInBazel skips tests that run git, which the Bazel sandbox lacks.
func skipInBazel(t *testing.T) {
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
	skipInBazel(t)
	home := t.TempDir()
	r := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "repo"), env: []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"LC_ALL=C",
	}}
	args := append([]string{"init", "-q"}, initArgs...)
	r.runIn(filepath.Dir(r.dir), nil, append(args, r.dir)...)
	return r
}

func (r *testRepo) runIn(dir string, stdin []byte, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = r.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSuffix(stdout.String(), "\n")
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return r.runIn(r.dir, nil, args...)
}

func (r *testRepo) gitStdin(stdin string, args ...string) string {
	r.t.Helper()
	return r.runIn(r.dir, []byte(stdin), args...)
}

func (r *testRepo) write(name, content string, perm os.FileMode) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
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
	r.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// commitTree commits a tree built by `git mktree` from lines
// "mode type oid\tname", which lets a test make trees git add refuses.
func (r *testRepo) commitTree(mktree string) string {
	r.t.Helper()
	tree := r.gitStdin(mktree, "mktree")
	return r.git("-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", "-m", "crafted", tree)
}

func (r *testRepo) blob(content string) string {
	r.t.Helper()
	return r.gitStdin(content, "hash-object", "-w", "--stdin")
}
