//go:build linux

package jobfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// secret is a host file outside the job's directory that a test would
// like the gate to read.
func secret(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "verdict.key")
	if err := os.WriteFile(p, []byte("PRIVATE KEY MATERIAL"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadRefusesWhatAJobCanPlant(t *testing.T) {
	key := secret(t)
	cases := []struct {
		name  string
		plant func(t *testing.T, dir string) string // returns rel
		max   int64
	}{
		{"symlink to a host file", func(t *testing.T, dir string) string {
			must(t, os.Symlink(key, filepath.Join(dir, "cover.out")))
			return "cover.out"
		}, 1 << 20},
		{"relative symlink climbing out", func(t *testing.T, dir string) string {
			must(t, os.Symlink("../../../../../../.."+key, filepath.Join(dir, "cover.out")))
			return "cover.out"
		}, 1 << 20},
		{"symlink inside the directory", func(t *testing.T, dir string) string {
			must(t, os.WriteFile(filepath.Join(dir, "real"), []byte("x"), 0o644))
			must(t, os.Symlink("real", filepath.Join(dir, "cover.out")))
			return "cover.out"
		}, 1 << 20},
		{"directory symlink on the way", func(t *testing.T, dir string) string {
			must(t, os.Symlink(filepath.Dir(key), filepath.Join(dir, "sub")))
			return "sub/" + filepath.Base(key)
		}, 1 << 20},
		{"FIFO", func(t *testing.T, dir string) string {
			must(t, unix.Mkfifo(filepath.Join(dir, "junit.xml"), 0o644))
			return "junit.xml"
		}, 1 << 20},
		{"device", func(t *testing.T, dir string) string {
			// /dev/zero's device numbers (1, 5): mknod needs
			// CAP_MKNOD; without it a bind of the real device is not
			// possible either, so skip.
			p := filepath.Join(dir, "junit.xml")
			if err := unix.Mknod(p, unix.S_IFCHR|0o644, int(unix.Mkdev(1, 5))); err != nil {
				t.Skipf("mknod: %v", err)
			}
			return "junit.xml"
		}, 1 << 20},
		{"10 GiB sparse file", func(t *testing.T, dir string) string {
			f, err := os.Create(filepath.Join(dir, "cover.out"))
			must(t, err)
			must(t, f.Truncate(10<<30))
			must(t, f.Close())
			return "cover.out"
		}, 64 << 20},
		{"directory", func(t *testing.T, dir string) string {
			must(t, os.Mkdir(filepath.Join(dir, "cover.out"), 0o755))
			return "cover.out"
		}, 1 << 20},
		{"dot dot", func(t *testing.T, dir string) string { return "../" + filepath.Base(dir) + "/x" }, 1 << 20},
		{"absolute", func(t *testing.T, dir string) string { return key }, 1 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			rel := c.plant(t, dir)
			b, err := Read(dir, rel, c.max)
			if err == nil {
				t.Fatalf("Read(%q) = %q, want a refusal", rel, b)
			}
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("Read(%q): %v, want ErrRefused", rel, err)
			}
			if strings.Contains(err.Error(), "PRIVATE") {
				t.Fatalf("the error quotes the host file: %v", err)
			}
		})
	}
}

func TestReadRefusesASymlinkedDirectory(t *testing.T) {
	key := secret(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	must(t, os.Symlink(filepath.Dir(key), link))
	if _, err := Read(link, filepath.Base(key), 1<<20); !errors.Is(err, ErrRefused) {
		t.Fatalf("Read through a symlinked directory: %v, want ErrRefused", err)
	}
}

func TestReadHonest(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	want := []byte("mode: set\nexample.com/x/x.go:1.1,2.2 1 1\n")
	must(t, os.WriteFile(filepath.Join(dir, "a", "b", "p.out"), want, 0o644))
	for _, rel := range []string{"a/b/p.out", "a/./b/p.out", filepath.Join("a", "b", "p.out")} {
		got, err := Read(dir, rel, int64(len(want)))
		if err != nil || string(got) != string(want) {
			t.Fatalf("Read(%q) = %q, %v", rel, got, err)
		}
	}
	if _, err := Read(dir, "a/b/p.out", int64(len(want))-1); !errors.Is(err, ErrRefused) {
		t.Fatalf("one byte over the bound: %v, want ErrRefused", err)
	}
	if _, err := Read(dir, "missing", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	empty := filepath.Join(dir, "empty")
	must(t, os.WriteFile(empty, nil, 0o644))
	if b, err := Read(dir, "empty", 0); err != nil || len(b) != 0 {
		t.Fatalf("empty file: %q, %v", b, err)
	}
}

func TestWalkFallback(t *testing.T) {
	// The fallback used without openat2 must refuse the same things.
	key := secret(t)
	dir := t.TempDir()
	must(t, os.Symlink(filepath.Dir(key), filepath.Join(dir, "sub")))
	must(t, os.Symlink(key, filepath.Join(dir, "f")))
	must(t, os.MkdirAll(filepath.Join(dir, "ok"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "ok", "f"), []byte("fine"), 0o644))
	dfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	defer unix.Close(dfd)
	for _, rel := range []string{"sub/" + filepath.Base(key), "f"} {
		if fd, err := walk(dfd, rel); err == nil {
			unix.Close(fd)
			t.Fatalf("walk(%q) opened it", rel)
		} else if !errors.Is(err, ErrRefused) {
			t.Fatalf("walk(%q): %v", rel, err)
		}
	}
	fd, err := walk(dfd, filepath.Join("ok", "f"))
	if err != nil {
		t.Fatalf("walk(ok/f): %v", err)
	}
	unix.Close(fd)
}

func TestExcerpt(t *testing.T) {
	for in, want := range map[string]string{
		"plain":               "plain",
		"a\nb\tc\x1b[31m":     `a\nb\tc\u001b[31m`,
		"bad \xff byte":       `bad \xff byte`,
		"rtl \u202e override": `rtl \u202e override`,
		`back\slash`:          `back\\slash`,
	} {
		if got := Excerpt(in); got != want {
			t.Errorf("Excerpt(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("é", ExcerptBytes) // 2 bytes each
	got := Excerpt(long)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > ExcerptBytes+len("…") {
		t.Fatalf("Excerpt of a long string: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if q := Quote(`say "hi"`); q != `"say \"hi\""` {
		t.Fatalf("Quote = %s", q)
	}
}

func FuzzExcerpt(f *testing.F) {
	f.Add("a\x00b\xff\u202e")
	f.Fuzz(func(t *testing.T, s string) {
		got := Excerpt(s)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("control character %U left in %q", r, got)
			}
		}
		if len(got) > 6*ExcerptBytes+len("…") {
			t.Fatalf("excerpt of %d bytes", len(got))
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
