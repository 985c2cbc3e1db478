package executor

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// storeDirEnv hands TestStoreSameBinaryTwiceAsNonRoot's directory to the
// copy of the test that runs as a non-root user.
const storeDirEnv = "SEALGATE_TEST_STORE_DIR"

// TestStoreSameBinaryTwiceAsNonRoot stores one test binary twice, as a
// non-root user (the container image's uid 65532, which every pod runs
// as): the patch side of a claim whose patch changed only test files builds
// the baseline's binary again. Stored mode 0111, the file cannot be opened
// for writing again by anyone but root. Run as root, the test re-runs
// itself as uid 65532; it skips where it can do neither.
func TestStoreSameBinaryTwiceAsNonRoot(t *testing.T) {
	if dir := os.Getenv(storeDirEnv); dir != "" {
		storeTwice(t, dir)
		return
	}
	if os.Geteuid() != 0 {
		storeTwice(t, t.TempDir())
		return
	}
	dir, err := os.MkdirTemp("", "sealgate-store-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The test binary and a directory the non-root user can use.
	bin := filepath.Join(dir, "executor.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Skipf("cannot copy the test binary: %v", err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(work, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestStoreSameBinaryTwiceAsNonRoot$", "-test.count=1")
	cmd.Env = append(os.Environ(), storeDirEnv+"="+work, "HOME="+work, "GOCACHE="+filepath.Join(work, "cache"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65532, Gid: 65532}}
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.EPERM) {
		t.Skipf("cannot start a process as uid 65532 here (a sandbox without the capability, as Bazel's): %v", err)
	}
	if err != nil {
		t.Fatalf("as uid 65532: %v\n%s", err, out)
	}
}

func storeTwice(t *testing.T, dir string) {
	w := &Workspace{dir: dir}
	data := []byte("\x7fELF a test binary")
	var a, b goBin
	if err := w.store(data, &a); err != nil {
		t.Fatalf("first store: %v", err)
	}
	if err := w.store(data, &b); err != nil {
		t.Fatalf("the same binary stored again: %v", err)
	}
	if a.name != b.name || a.sha256 != b.sha256 {
		t.Fatalf("the same binary got two names: %s, %s", a.name, b.name)
	}
	// Another binary gets its own file.
	var c goBin
	if err := w.store([]byte("\x7fELF another"), &c); err != nil || c.name == a.name {
		t.Fatalf("another binary: %v, name %s", err, c.name)
	}
	st, err := os.Stat(filepath.Join(w.binDir(), a.name))
	if err != nil || st.Mode().Perm() != 0o111 {
		t.Fatalf("stored binary: %v, mode %v, want 0111", err, st)
	}
}
