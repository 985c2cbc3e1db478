// Package checkouttest builds small real git repositories for tests.
package checkouttest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env is the fixed environment of Run: no configuration of the machine's,
// a fixed author, committer and date, extra appended.
func Env(t testing.TB, extra ...string) []string {
	return append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_AUTHOR_DATE=1700000000 +0000",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_COMMITTER_DATE=1700000000 +0000"}, extra...)
}

// Run runs name with args in dir under Env(t, extra...) and returns its
// standard output, trimmed; a failure fails t.
func Run(t testing.TB, dir string, extra []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = Env(t, extra...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(out.String())
}

// Git runs git in dir (see Run).
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return Run(t, dir, nil, "git", args...)
}

// Write writes files (slash-separated paths → content) under dir.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// NeedGit skips t without git, or under Bazel.
func NeedGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs git")
	}
}
