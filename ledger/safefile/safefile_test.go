package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegularRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	if err := os.WriteFile(sparse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 10<<30); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{"/dev/zero", "is a character device, not a regular file"},
		{fifo, "is a FIFO, not a regular file"},
		{dir, "is a directory, not a regular file"},
		{sparse, "is 10 GiB, over the limit of 1 MiB"},
	} {
		b, err := ReadRegular(c.path, 1<<20)
		if err == nil || !IsBound(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d bytes, %v; want %q", c.path, len(b), err, c.want)
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "none"), 10); !errors.Is(err, fs.ErrNotExist) || IsBound(err) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestReadRegularAtTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(path, 100); err != nil || len(b) != 100 {
		t.Fatalf("at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := ReadRegular(path, 99); err == nil || !strings.Contains(err.Error(), "100 B, over the limit of 99 B") {
		t.Fatalf("one byte over: %v", err)
	}
	// A symbolic link to a regular file is that file.
	link := path + ".link"
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(link, 100); err != nil || len(b) != 100 {
		t.Fatalf("through a link: %d bytes, %v", len(b), err)
	}
}

func TestWriteAtomicReplacesWholeAndLeavesNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trust.json")
	for _, content := range []string{"old\n", "new, longer content\n", "s\n"} {
		if err := WriteAtomic(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Fatalf("read %q, want %q", b, content)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", fi.Mode())
	}
	// A write that cannot happen leaves the old content.
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if os.Geteuid() != 0 {
		if err := WriteAtomic(path, []byte("lost"), 0o644); err == nil {
			t.Fatal("wrote into a read-only directory")
		}
		if b, _ := os.ReadFile(path); string(b) != "s\n" {
			t.Fatalf("a failed write changed the file: %q", b)
		}
	}
	os.Chmod(dir, 0o700)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestWriteNewNeverOverwrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdict.key")
	if err := WriteNew(path, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(path, []byte("second"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second WriteNew: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Fatalf("content %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 64 << 20: "64 MiB", 10 << 30: "10 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
