package e2e

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"
)

// bundle is the part of an attestation bundle the tests tamper with.
type bundle map[string]any

func readBundle(t *testing.T, path string) bundle {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bundle
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

func (b bundle) write(t *testing.T) string {
	t.Helper()
	raw, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bundle.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (b bundle) obj(key string) map[string]any { return b[key].(map[string]any) }

// sealedVerify runs verify in state, writing the attestation bundle, and
// returns the run and the bundle's path.
func sealedVerify(t *testing.T, state string, args ...string) (*run, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "attestation.json")
	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	r := sealgate(t, append([]string{"verify", "--state", state, "--build-cache", cache, "--attestation", path}, args...)...)
	if r.exitCode > exitInconclusive {
		t.Fatalf("no verdict:\n%s", r)
	}
	var seal struct {
		Seal *struct {
			Log          string `json:"log"`
			LogIndex     uint64 `json:"log_index"`
			BundleSHA256 string `json:"bundle_sha256"`
		} `json:"seal"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &seal); err != nil || seal.Seal == nil {
		t.Fatalf("the artefact has no seal block (%v):\n%s", err, r)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("--attestation: %v\n%s", err, r)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != seal.Seal.BundleSHA256 {
		t.Fatalf("the --attestation file is not the bundle the seal block names:\n%s", r)
	}
	return r, path
}

// attestVerify runs `sealgate attest verify` and returns the run.
func attestVerify(t *testing.T, bundlePath string, args ...string) *run {
	t.Helper()
	return sealgate(t, append([]string{"attest", "verify", bundlePath}, args...)...)
}

// wantRefused checks that attest verify refused with exactly this check.
func wantRefused(t *testing.T, r *run, check string) {
	t.Helper()
	if r.exitCode != 1 {
		t.Fatalf("exit %d, want 1 (refused):\n%s", r.exitCode, r)
	}
	if !strings.Contains(r.stdout, "FAIL "+check+" ") || !strings.Contains(r.stderr, "check "+check+" failed") {
		t.Fatalf("not refused by check %q:\n%s", check, r)
	}
}

// Issue #5: a sealed verdict checks offline from the bundle and the two
// public keys, and every tampering is refused by its named check.
func TestAttestVerify(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	state := t.TempDir()
	args := r.patchArgs(r.Base, fix.Commit, append(claimArgs(fix.Claims...), floorsZero()...)...)
	v, path := sealedVerify(t, state, args...)
	if v.exitCode != exitMerge {
		t.Fatalf("honest fix at floors 0 is not MERGE:\n%s", v)
	}
	key := filepath.Join(state, "keys", "verdict.pub")
	logKey := filepath.Join(state, "tlog", "log.pub")
	subject := []string{"--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit}
	trust := []string{"--key", key, "--log-key", logKey}

	ok := attestVerify(t, path, append(subject, trust...)...)
	if ok.exitCode != 0 || !strings.Contains(ok.stdout, "verified: MERGE") {
		t.Fatalf("the untouched bundle does not verify:\n%s", ok)
	}

	// A second verdict on the same log, signed by another key.
	keys := t.TempDir()
	if g := sealgate(t, "keys", "generate", "--algorithm", "ecdsa-p256", "--out", keys); g.exitCode != 0 || strings.Contains(g.stdout+g.stderr, "PRIVATE KEY") {
		t.Fatalf("keys generate:\n%s", g)
	}
	_, otherPath := sealedVerify(t, state, append(args, "--signing-key", filepath.Join(keys, "verdict.key"))...)
	if o := attestVerify(t, otherPath, append(subject, "--key", filepath.Join(keys, "verdict.pub"), "--log-key", logKey)...); o.exitCode != 0 {
		t.Fatalf("the ECDSA-signed bundle does not verify with its own key:\n%s", o)
	}
	other := readBundle(t, otherPath)

	t.Run("flipped byte in the payload", func(t *testing.T) {
		b := readBundle(t, path)
		env := b.obj("verdict")
		p, err := base64.StdEncoding.DecodeString(env["payload"].(string))
		if err != nil {
			t.Fatal(err)
		}
		p[len(p)/2] ^= 0x20
		env["payload"] = base64.StdEncoding.EncodeToString(p)
		wantRefused(t, attestVerify(t, b.write(t), append(subject, trust...)...), "signature")
	})
	t.Run("signature by another key", func(t *testing.T) {
		b := readBundle(t, path)
		b.obj("verdict")["signatures"] = other.obj("verdict")["signatures"]
		wantRefused(t, attestVerify(t, b.write(t), append(subject, trust...)...), "signature")
		// The other key's own bundle, checked with the trusted key.
		wantRefused(t, attestVerify(t, otherPath, append(subject, trust...)...), "signature")
	})
	t.Run("inclusion proof for another entry", func(t *testing.T) {
		b := readBundle(t, path)
		mine, theirs := b.obj("tlog"), other.obj("tlog")
		for _, k := range []string{"log_index", "tree_size", "root_hash", "inclusion_proof", "checkpoint"} {
			mine[k] = theirs[k]
		}
		wantRefused(t, attestVerify(t, b.write(t), append(subject, trust...)...), "inclusion")
	})
	t.Run("checkpoint signed by another log key", func(t *testing.T) {
		b := readBundle(t, path)
		tl := b.obj("tlog")
		cp := tl["checkpoint"].(string)
		origin := strings.SplitN(cp, "\n", 2)[0]
		skey, vkey, err := note.GenerateKey(rand.Reader, origin)
		if err != nil {
			t.Fatal(err)
		}
		signer, err := note.NewSigner(skey)
		if err != nil {
			t.Fatal(err)
		}
		forged, err := note.Sign(&note.Note{Text: cp[:strings.Index(cp, "\n\n")+1]}, signer)
		if err != nil {
			t.Fatal(err)
		}
		tl["checkpoint"] = string(forged)
		wantRefused(t, attestVerify(t, b.write(t), append(subject, trust...)...), "checkpoint")
		// And the genuine bundle under a log key that is not the log's.
		otherLog := filepath.Join(t.TempDir(), "other-log.pub")
		if err := os.WriteFile(otherLog, []byte(vkey+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, attestVerify(t, path, append(subject, "--key", key, "--log-key", otherLog)...), "checkpoint")
	})
	t.Run("subject does not match the patch given", func(t *testing.T) {
		breaks := r.patch(t, "breaks-a-test")
		wantRefused(t, attestVerify(t, path, append([]string{"--repo", r.Dir, "--base", r.Base, "--patch", breaks.Commit}, trust...)...), "subject")
		diff := r.diff(t, r.Base, breaks.Commit)
		wantRefused(t, attestVerify(t, path, append([]string{"--patch-file", diff}, trust...)...), "subject")
	})
	t.Run("usage errors", func(t *testing.T) {
		for _, a := range [][]string{
			append([]string{}, trust...),  // no patch
			append(subject, "--key", key), // no log key
			append(subject[:2], append([]string{"--patch", fix.Commit}, trust...)...), // --patch without --base
		} {
			if u := attestVerify(t, path, a...); u.exitCode != exitUsage || strings.Count(strings.TrimSpace(u.stderr), "\n") != 0 {
				t.Errorf("want exit 3 with one line:\n%s", u)
			}
		}
	})
}

// A patch given as a diff file is the subject byte for byte.
func TestAttestPatchFile(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	diff := r.diff(t, r.Base, fix.Commit)
	state := t.TempDir()
	_, path := sealedVerify(t, state, append([]string{"--repo", r.Dir, "--base", r.Base, "--patch-file", diff}, append(claimArgs(fix.Claims...), floorsZero()...)...)...)
	trust := []string{"--key", filepath.Join(state, "keys", "verdict.pub"), "--log-key", filepath.Join(state, "tlog", "log.pub")}
	if ok := attestVerify(t, path, append([]string{"--patch-file", diff}, trust...)...); ok.exitCode != 0 {
		t.Fatalf("--patch-file:\n%s", ok)
	}
	if ok := attestVerify(t, path, append([]string{"--patch-file", diff, "--repo", r.Dir, "--base", r.Base}, trust...)...); ok.exitCode != 0 {
		t.Fatalf("--patch-file with --base:\n%s", ok)
	}
	// One byte more is another patch.
	longer := filepath.Join(t.TempDir(), "longer.diff")
	raw, _ := os.ReadFile(diff)
	if err := os.WriteFile(longer, append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, attestVerify(t, path, append([]string{"--patch-file", longer}, trust...)...), "subject")
}

// The verdict signing key, given in the environment, never reaches the
// code under test nor the output: a claimed test that looks for it in its
// environment passes, and the key's text is printed nowhere.
func TestSigningKeyFromEnvironmentStaysSecret(t *testing.T) {
	r := newRepo(t)
	keys := t.TempDir()
	if g := sealgate(t, "keys", "generate", "--out", keys); g.exitCode != 0 {
		t.Fatalf("keys generate:\n%s", g)
	}
	priv, err := os.ReadFile(filepath.Join(keys, "verdict.key"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(keys, "verdict.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("verdict.key mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	probe := r.commit(t, r.Base, "probe-env", "a test that looks for the signing key", map[string]string{
		"calc/env_test.go": `package calc

import (
	"os"
	"strings"
	"testing"
)

func TestNoSigningKeyInEnvironment(t *testing.T) {
	for _, kv := range os.Environ() {
		if strings.Contains(kv, "PRIVATE KEY") || strings.HasPrefix(kv, "SEALGATE_SIGNING_KEY=") {
			t.Fatalf("the verdict signing key reached the tested code: %.40s", kv)
		}
	}
}
`,
	})
	t.Setenv("SEALGATE_SIGNING_KEY", string(priv))
	state := t.TempDir()
	// The probing test is the baseline's (a patch's test naming the gate's
	// variables is harness, which no judged run compiles); the patch is the
	// honest fix, and the probe runs on both sides.
	fix := r.commit(t, probe, "probe-env-fix", "calc: fix Median", map[string]string{"calc/median.go": r.honestMedian(t)})
	v, path := sealedVerify(t, state, r.patchArgs(probe, fix, append(claimArgs("go:./calc:TestNoSigningKeyInEnvironment"), floorsZero()...)...)...)
	var out artefact
	if err := json.Unmarshal([]byte(v.stdout), &out); err != nil {
		t.Fatal(err)
	}
	for _, c := range out.Claims {
		if c.Classification != "no_regression" {
			t.Fatalf("claim %s is %s (%s): the test saw the key, or did not run:\n%s", c.ID, c.Classification, c.Reason, v)
		}
	}
	body := strings.Split(string(priv), "\n")[1]
	if strings.Contains(v.stdout+v.stderr, body) {
		t.Fatalf("the private key is printed:\n%s", v)
	}
	ok := attestVerify(t, path, "--repo", r.Dir, "--base", probe, "--patch", fix,
		"--key", filepath.Join(keys, "verdict.pub"), "--log-key", filepath.Join(state, "tlog", "log.pub"))
	if ok.exitCode != 0 {
		t.Fatalf("the verdict signed with the key from the environment does not verify with its public key:\n%s", ok)
	}
}
