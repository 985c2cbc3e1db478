package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rekorURL returns the Rekor v1 server the Rekor tests use. CI runs them
// inside e2e/rekor/stack.sh, which starts a real Rekor on loopback and sets
// REKOR_URL, with SEALGATE_REQUIRE_REKOR=1 so that a missing server fails
// instead of skipping.
func rekorURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("REKOR_URL")
	if u == "" {
		if os.Getenv("SEALGATE_REQUIRE_REKOR") != "" {
			t.Fatal("SEALGATE_REQUIRE_REKOR is set but REKOR_URL is not: run under e2e/rekor/stack.sh run")
		}
		t.Skip("needs a Rekor v1 server: e2e/rekor/stack.sh run go test ./e2e -run Rekor")
	}
	return u
}

// rekorKey fetches the log's public key once, as a verifier pins it.
func rekorKey(t *testing.T, url string) string {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url + "/api/v1/log/publicKey")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 || !strings.Contains(string(b), "PUBLIC KEY") {
		t.Fatalf("Rekor public key: %v %d %q", err, resp.StatusCode, b)
	}
	path := filepath.Join(t.TempDir(), "rekor.pub")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Issue #5: verdicts sealed into a real Rekor v1 — Ed25519 as dsse
// entries, ECDSA P-256 as hashedrekord — check offline with the verdict
// key and Rekor's key, and a checkpoint under another key is refused.
func TestRekorSealsVerdicts(t *testing.T) {
	url := rekorURL(t)
	logKey := rekorKey(t, url)
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	subject := []string{"--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit}

	for _, tc := range []struct{ alg, kind string }{{"ed25519", "dsse"}, {"ecdsa-p256", "hashedrekord"}} {
		t.Run(tc.alg, func(t *testing.T) {
			keys := t.TempDir()
			if g := sealgate(t, "keys", "generate", "--algorithm", tc.alg, "--out", keys); g.exitCode != 0 {
				t.Fatalf("keys generate:\n%s", g)
			}
			v, path := sealedVerify(t, t.TempDir(), append(r.patchArgs(r.Base, fix.Commit, append(claimArgs(fix.Claims...), floorsZero()...)...),
				"--tlog", "rekor", "--rekor-url", url, "--signing-key", filepath.Join(keys, "verdict.key"))...)
			if v.exitCode != exitMerge {
				t.Fatalf("not MERGE:\n%s", v)
			}
			b := readBundle(t, path)
			tl := b.obj("tlog")
			rk, _ := tl["rekor"].(map[string]any)
			if tl["kind"] != "rekor" || rk == nil || rk["entry_kind"] != tc.kind || rk["uuid"] == "" {
				t.Fatalf("bundle log block: %v", tl)
			}
			trust := []string{"--key", filepath.Join(keys, "verdict.pub"), "--log-key", logKey}
			if ok := attestVerify(t, path, append(subject, trust...)...); ok.exitCode != 0 || !strings.Contains(ok.stdout, "verified: MERGE, logged at rekor") {
				t.Fatalf("a Rekor-sealed bundle does not verify:\n%s", ok)
			}
			// Rekor's checkpoint checked with a key that is not Rekor's.
			wantRefused(t, attestVerify(t, path, append(subject, "--key", filepath.Join(keys, "verdict.pub"), "--log-key", otherECDSAKey(t))...), "checkpoint")
			// The logged entry must be this envelope: another signature is
			// refused before the log is even consulted.
			wantRefused(t, attestVerify(t, path, append(subject, "--key", otherECDSAKey(t), "--log-key", logKey)...), "signature")
		})
	}
}

func otherECDSAKey(t *testing.T) string {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(k.Public())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "other.pub")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
