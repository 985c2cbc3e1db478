package executor

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTreeDigest: every change a build could read changes the digest — a
// file's content, its executable bit, its name, a symlink's target, a new
// empty directory — and the same content elsewhere has the same digest.
func TestTreeDigest(t *testing.T) {
	digest := func(t *testing.T, change func(dir string)) string {
		t.Helper()
		dir := t.TempDir()
		for name, data := range map[string]string{"go.mod": "module m\n", "a/a.go": "package a\n", "a/testdata/x": "x"} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink("x", filepath.Join(dir, "a", "testdata", "link")); err != nil {
			t.Fatal(err)
		}
		if change != nil {
			change(dir)
		}
		d, err := treeDigest(dir)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest(t, nil)
	if again := digest(t, nil); again != base {
		t.Fatalf("the same tree in another directory: %s, want %s", again, base)
	}
	for name, change := range map[string]func(dir string){
		"content":    func(dir string) { os.WriteFile(filepath.Join(dir, "a", "a.go"), []byte("package b\n"), 0o644) },
		"executable": func(dir string) { os.Chmod(filepath.Join(dir, "a", "testdata", "x"), 0o755) },
		"renamed":    func(dir string) { os.Rename(filepath.Join(dir, "a", "a.go"), filepath.Join(dir, "a", "b.go")) },
		"link": func(dir string) {
			os.Remove(filepath.Join(dir, "a", "testdata", "link"))
			os.Symlink("y", filepath.Join(dir, "a", "testdata", "link"))
		},
		"empty dir": func(dir string) { os.Mkdir(filepath.Join(dir, "a", "b"), 0o755) },
	} {
		if got := digest(t, change); got == base {
			t.Errorf("%s: the digest did not change", name)
		}
	}
}

// TestTrimBins: past the bound, the least recently used binaries go first.
func TestTrimBins(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for i, name := range []string{"old.test", "mid.test", "new.test"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, 100), 0o600); err != nil {
			t.Fatal(err)
		}
		at := now.Add(time.Duration(i-3) * time.Hour)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	trimBins(dir, 200)
	left, _ := filepath.Glob(filepath.Join(dir, "*.test"))
	if len(left) != 2 || filepath.Base(left[0]) != "mid.test" || filepath.Base(left[1]) != "new.test" {
		t.Fatalf("left %v, want mid.test and new.test", left)
	}
}
