package embedded

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/note"

	"github.com/sealgate/sealgate/services/signing/tlog"
)

func envelope(t testing.TB, i int) *dsse.Envelope {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte(fmt.Sprintf(`{"n":%d}`, i))
	sig := ed25519.Sign(priv, dsse.PAE("application/vnd.in-toto+json", payload))
	return &dsse.Envelope{
		PayloadType: "application/vnd.in-toto+json",
		Payload:     base64.StdEncoding.EncodeToString(payload),
		Signatures:  []dsse.Signature{{KeyID: "k", Sig: base64.StdEncoding.EncodeToString(sig)}},
	}
}

func TestAppendProvesInclusionOffline(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	l, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		proofs []*tlog.Proof
	)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := l.Append(ctx, tlog.Submission{Envelope: envelope(t, i)})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			proofs = append(proofs, p)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	vkey, err := os.ReadFile(filepath.Join(dir, PublicKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for _, p := range proofs {
		if err := Verify(p, string(vkey)); err != nil {
			t.Errorf("entry %d: %v", p.Index, err)
		}
		if seen[p.Index] {
			t.Errorf("index %d handed out twice", p.Index)
		}
		seen[p.Index] = true
	}
	if len(seen) != 20 {
		t.Fatalf("%d distinct indices, want 20", len(seen))
	}

	// Reopened, the log continues the same tree, consistent with the old one.
	l, err = Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p, err := l.Append(ctx, tlog.Submission{Envelope: envelope(t, 99)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Index != 20 || p.TreeSize != 21 {
		t.Fatalf("after reopening: index %d of %d, want 20 of 21", p.Index, p.TreeSize)
	}
	old := proofs[0]
	prf, err := l.Consistency(ctx, old.TreeSize, p.TreeSize)
	if err != nil {
		t.Fatal(err)
	}
	if err := proof.VerifyConsistency(rfc6962.DefaultHasher, old.TreeSize, p.TreeSize, prf, mustHex(t, old.RootHash), mustHex(t, p.RootHash)); err != nil {
		t.Fatalf("consistency %d→%d: %v", old.TreeSize, p.TreeSize, err)
	}
}

func TestVerifyRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	l, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, err := l.Append(ctx, tlog.Submission{Envelope: envelope(t, 1)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Append(ctx, tlog.Submission{Envelope: envelope(t, 2)})
	if err != nil {
		t.Fatal(err)
	}
	vkey := l.VerifierKey()
	if err := Verify(b, vkey); err != nil {
		t.Fatal(err)
	}

	// Another entry's leaf under this proof.
	swapped := *b
	swapped.Leaf = a.Leaf
	if err := Verify(&swapped, vkey); err == nil {
		t.Error("a proof for another entry verified")
	}
	// A checkpoint signed by another key with the same name.
	skey, _, err := note.GenerateKey(rand.Reader, strings.SplitN(vkey, "+", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	body := b.Checkpoint[:strings.Index(b.Checkpoint, "\n\n")+1]
	forged, err := note.Sign(&note.Note{Text: body}, signer)
	if err != nil {
		t.Fatal(err)
	}
	f := *b
	f.Checkpoint = string(forged)
	if err := Verify(&f, vkey); err == nil || !strings.Contains(err.Error(), "checkpoint") {
		t.Errorf("a checkpoint by another key: %v", err)
	}
	// The right key, but not the one the caller trusts.
	_, other, err := note.GenerateKey(rand.Reader, "other")
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(b, other); err == nil {
		t.Error("verified under another log key")
	}
}

func TestHalfAKeyPairIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, PublicKeyFile), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), dir, Options{}); err == nil || !strings.Contains(err.Error(), "half") {
		t.Fatalf("Open = %v, want the half-key-pair error", err)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b := make([]byte, len(s)/2)
	if _, err := fmt.Sscanf(s, "%x", &b); err != nil {
		t.Fatal(err)
	}
	return b
}
