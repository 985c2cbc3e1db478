package keyring

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sealgate/sealgate/ledger/record"
)

func TestLoadOrCreateKeepsKeys(t *testing.T) {
	dir := t.TempDir()
	a, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range Identities() {
		sa, _ := a.Signer(id)
		sb, _ := b.Signer(id)
		if sa.KeyID() != sb.KeyID() {
			t.Errorf("%s: key changed on reload", id)
		}
		fi, err := os.Stat(filepath.Join(dir, FileName(id)))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: key file mode %v, want 0600", id, fi.Mode().Perm())
		}
	}
	if _, err := a.Signer("sealgate/nobody"); err == nil {
		t.Error("a signer for an unknown identity")
	}
}

func TestTrustAuthorizesRolesOnly(t *testing.T) {
	kr, err := LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := kr.Trust()
	if err != nil {
		t.Fatal(err)
	}
	for id, kinds := range Roles() {
		s, _ := kr.Signer(id)
		k, ok := tr.Lookup(s.KeyID())
		if !ok || k.Identity != id {
			t.Fatalf("%s: not trusted under its identity", id)
		}
		for _, kind := range record.Kinds() {
			if got, want := slices.Contains(k.Kinds, kind), slices.Contains(kinds, kind); got != want {
				t.Errorf("%s may write %s: %v, want %v", id, record.KindName(kind), got, want)
			}
		}
	}
	// Every kind has at least one writer.
	for _, kind := range record.Kinds() {
		found := false
		for _, kinds := range Roles() {
			found = found || slices.Contains(kinds, kind)
		}
		if !found {
			t.Errorf("no service may write %s", record.KindName(kind))
		}
	}
}

func TestReadKeyRefusesJunk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junk.key")
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadKey(path); err == nil {
		t.Fatal("junk read as a key")
	}
}
