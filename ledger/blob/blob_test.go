package blob

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestPutGetAndCorruption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	data := []byte("coverage profile\nmode: set\n")
	d, err := s.Put(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if d != Digest(data) {
		t.Fatalf("digest %s, want %s", d, Digest(data))
	}
	if again, err := s.Put(ctx, data); err != nil || again != d {
		t.Fatalf("second put: %s %v", again, err)
	}
	got, err := s.Get(ctx, d)
	if err != nil || string(got) != string(data) {
		t.Fatalf("get: %q %v", got, err)
	}
	if _, err := s.Get(ctx, Digest([]byte("absent"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("absent blob: %v, want ErrNotFound", err)
	}
	// Flip a byte on disk: the read must refuse it.
	path := filepath.Join(dir, "sha256", d)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	raw[0] ^= 1
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, d); err == nil {
		t.Fatal("a corrupt blob was returned")
	}
}

func TestOpenURL(t *testing.T) {
	ctx := context.Background()
	for _, loc := range []string{"mem://", "file://" + t.TempDir()} {
		s, err := Open(ctx, loc)
		if err != nil {
			t.Fatalf("%s: %v", loc, err)
		}
		d, err := s.Put(ctx, []byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := s.Has(ctx, d); !ok || err != nil {
			t.Fatalf("%s: has %v %v", loc, ok, err)
		}
		s.Close()
	}
	if _, err := Open(ctx, "nosuchscheme://bucket"); err == nil {
		t.Fatal("unknown scheme opened")
	}
	if _, err := Open(ctx, ""); err == nil {
		t.Fatal("empty location opened")
	}
}
