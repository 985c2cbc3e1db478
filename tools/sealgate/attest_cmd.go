package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/safefile"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/signing/attest"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
	"github.com/sealgate/sealgate/services/signing/tlog/rekor"
)

// Verdict keys and the embedded log live in the state directory.
const (
	verdictKeyFile = "verdict.key"
	verdictPubFile = "verdict.pub"
	tlogDir        = "tlog"
	// signingKeyEnv holds a verdict signing key (PEM) instead of a file.
	signingKeyEnv = "SEALGATE_SIGNING_KEY"
)

func newKeysCmd(stdout io.Writer) *cobra.Command {
	keys := &cobra.Command{
		Use:   "keys",
		Short: "Verdict signing keys",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageErrorf("keys needs a subcommand (generate, services)")
		},
	}
	var alg, out string
	var force bool
	gen := &cobra.Command{
		Use:   "generate [--algorithm ed25519|ecdsa-p256] [--out DIR]",
		Short: "Make a verdict signing key pair: DIR/verdict.key (owner-only) and DIR/verdict.pub",
		Long: `generate writes a new verdict signing key pair: the private key as PKCS#8 PEM,
readable by its owner only, and the public key as PKIX PEM, which is what
verifiers are given (sealgate attest verify --key). It prints the paths and
the key id, never the private key. Use the key with sealgate verify
--signing-key FILE, or put its PEM text in $SEALGATE_SIGNING_KEY.

Ed25519 verdicts go to Rekor as dsse entries; ECDSA P-256 as hashedrekord.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			a, err := attest.ParseAlgorithm(alg)
			if err != nil {
				return usageErrorf("--algorithm: %v", err)
			}
			priv, pub := filepath.Join(out, verdictKeyFile), filepath.Join(out, verdictPubFile)
			if !force {
				for _, p := range []string{priv, pub} {
					if _, err := os.Stat(p); err == nil {
						return usageErrorf("%s exists; move it away or pass --force", p)
					}
				}
			}
			s, err := writeKeyPair(out, a)
			if err != nil {
				return infraErrorf("%v", err)
			}
			kid, _ := s.KeyID()
			fmt.Fprintf(stdout, "private key: %s\npublic key:  %s\nalgorithm:   %s\nkey id:      %s\n", priv, pub, a, kid)
			return nil
		},
	}
	gen.Flags().StringVar(&alg, "algorithm", string(attest.Ed25519), "ed25519 or ecdsa-p256")
	gen.Flags().StringVar(&out, "out", ".", "directory to write verdict.key and verdict.pub to")
	gen.Flags().BoolVar(&force, "force", false, "overwrite an existing key pair")
	var svcOut string
	services := &cobra.Command{
		Use:   "services [--out DIR]",
		Short: "Make every service's Ed25519 ledger key and the trust policy naming them (distributed mode)",
		Long: `services writes one Ed25519 key per service identity (sealgate_<service>.key,
owner-only; existing keys are kept) and DIR/trust.json, the trust policy that
authorizes each key for its record kinds. Give each process only the keys of
the services it runs (sealgate serve --keys), and every process the policy
(--trust). DIR defaults to the state directory's service-keys/
($SEALGATE_STATE, or the XDG state directory), where sealgate serve looks by
default; keys never land in the working directory unless asked.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if svcOut == "" {
				svcOut = filepath.Join(defaultStateDir(), serviceKeysDir)
			}
			kr, err := keyring.LoadOrCreate(svcOut)
			if err != nil {
				return infraErrorf("%v", err)
			}
			trust, err := kr.Trust()
			if err != nil {
				return infraErrorf("%v", err)
			}
			b, err := trust.Marshal()
			if err != nil {
				return infraErrorf("%v", err)
			}
			path := filepath.Join(svcOut, trustFile)
			if err := safefile.WriteAtomic(path, append(b, '\n'), 0o644); err != nil {
				return infraErrorf("%v", err)
			}
			for _, id := range keyring.Identities() {
				fmt.Fprintf(stdout, "%-24s %s\n", id, filepath.Join(svcOut, keyring.FileName(id)))
			}
			fmt.Fprintf(stdout, "%-24s %s\n", "trust policy", path)
			return nil
		},
	}
	services.Flags().StringVar(&svcOut, "out", "", "directory to write the keys and trust.json to (default STATE/service-keys)")
	keys.AddCommand(gen, services)
	return keys
}

// writeKeyPair makes a key pair in dir.
func writeKeyPair(dir string, a attest.Algorithm) (*attest.Signer, error) {
	privPEM, pubPEM, err := attest.GenerateKey(a)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	priv, pub := filepath.Join(dir, verdictKeyFile), filepath.Join(dir, verdictPubFile)
	// Each written whole or not at all, owner-only from the first byte;
	// the public half last, so a crash never leaves a public key whose
	// private half is not the one on disk.
	if err := safefile.WriteAtomic(priv, privPEM, 0o600); err != nil {
		return nil, err
	}
	if err := safefile.WriteAtomic(pub, pubPEM, 0o644); err != nil {
		return nil, err
	}
	return attest.ParseSigner(privPEM)
}

// loadSigner finds the verdict signing key: --signing-key FILE, else
// $SEALGATE_SIGNING_KEY, else STATE/keys/verdict.key (made on first use).
// It returns the key and where it came from.
func loadSigner(flag, state string) (*attest.Signer, string, error) {
	switch {
	case flag != "":
		b, err := readInput("--signing-key", flag, maxKeyFile, "")
		if err != nil {
			return nil, "", err
		}
		s, err := attest.ParseSigner(b)
		if err != nil {
			return nil, "", usageErrorf("--signing-key %s: %v", flag, err)
		}
		return s, flag, nil
	case os.Getenv(signingKeyEnv) != "":
		key := os.Getenv(signingKeyEnv)
		// Read once, then gone from the environment: no git, go or test
		// process this one starts inherits it.
		os.Unsetenv(signingKeyEnv)
		s, err := attest.ParseSigner([]byte(key))
		if err != nil {
			return nil, "", usageErrorf("$%s: %v", signingKeyEnv, err)
		}
		return s, "$" + signingKeyEnv, nil
	}
	dir := filepath.Join(state, keysDir)
	b, err := safefile.ReadRegular(filepath.Join(dir, verdictKeyFile), maxKeyFile)
	if errors.Is(err, fs.ErrNotExist) {
		s, err := writeKeyPair(dir, attest.Ed25519)
		if err != nil {
			return nil, "", infraErrorf("verdict key: %v", err)
		}
		return s, filepath.Join(dir, verdictKeyFile), nil
	}
	if err != nil {
		return nil, "", infraErrorf("verdict key: %v", err)
	}
	s, err := attest.ParseSigner(b)
	if err != nil {
		return nil, "", infraErrorf("%s: %v", filepath.Join(dir, verdictKeyFile), err)
	}
	return s, filepath.Join(dir, verdictKeyFile), nil
}

// openLog opens the transparency log a verification seals into. The
// embedded log must still hold what the anchor and the ledger's last seal
// say it held, and its files must recompute to its checkpoints; a damaged
// or rolled-back log is refused (exit 4) before anything is appended.
// Each checkpoint it hands out is recorded in the anchor.
func openLog(ctx context.Context, kind, rekorURL, state string, anchors *anchorStore, seal *sealMark) (tlog.Log, string, error) {
	switch cmp.Or(kind, tlog.KindEmbedded) {
	case tlog.KindEmbedded:
		dir := filepath.Join(state, tlogDir)
		expect, err := logExpectations(anchors.current(), seal, anchors.path)
		if err != nil {
			return nil, "", err
		}
		l, err := embedded.Open(ctx, dir, embedded.Options{
			Expect: expect, Label: dir,
			OnCheckpoint: func(p embedded.Published) error { return anchors.markLog(p.LogID, p) },
		})
		if embedded.IsCorrupt(err) {
			return nil, "", infraErrorf("%v; %s", err, repairHint(state))
		}
		if err != nil {
			return nil, "", infraErrorf("%v", err)
		}
		return l, "embedded log, key " + l.PublicKeyPath(), nil
	case tlog.KindRekor:
		l, err := rekor.New(rekorURL)
		if err != nil {
			return nil, "", usageErrorf("--rekor-url: %v", err)
		}
		return l, "rekor " + rekorURL, nil
	}
	return nil, "", usageErrorf("--tlog %q: want embedded or rekor", kind)
}

// logExpectations are the heads the embedded log must still hold: the
// anchor's and the ledger's last seal's, unless their log was moved aside
// on purpose.
func logExpectations(a anchor, seal *sealMark, anchorPath string) ([]embedded.Head, error) {
	var out []embedded.Head
	if m := a.Log; m != nil && !a.retired(m.LogID) {
		root, _ := hex.DecodeString(m.RootHash)
		out = append(out, embedded.Head{LogID: m.LogID, Size: m.TreeSize, Root: root, Source: "the anchor " + anchorPath})
	}
	if seal != nil && !a.retired(seal.rec.LogId) {
		size, root, err := embedded.CheckpointHead(seal.rec.Checkpoint)
		if err != nil || size != seal.rec.TreeSize {
			return nil, infraErrorf("the ledger's seal of run %s (record #%d) names no readable checkpoint: run `sealgate ledger verify`", seal.run, seal.seq)
		}
		out = append(out, embedded.Head{LogID: seal.rec.LogId, Size: size, Root: root,
			Source: fmt.Sprintf("the ledger's last seal (run %s, record #%d)", seal.run, seal.seq)})
	}
	return out, nil
}

// repairHint is what to do about a damaged embedded log.
func repairHint(state string) string {
	return fmt.Sprintf("restore %s from a backup, or run `sealgate state repair-log --state %s` (rebuilds it from its own files and the sealed bundles; --move-aside starts a new log)", filepath.Join(state, tlogDir), state)
}

type attestVerifyOptions struct {
	patchFile, repo, base, patch string
	key, logKey                  string
	json                         bool
	maxPatchBytes                int64
}

func newAttestCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "attest",
		Short: "Check signed verdict attestations",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageErrorf("attest needs a subcommand (verify)")
		},
	}
	o := &attestVerifyOptions{}
	v := &cobra.Command{
		Use:   "verify BUNDLE (--patch-file F | --repo DIR --base REV --patch REV) --key PUB --log-key PUB",
		Short: "Check a verdict bundle offline: envelope, signature, subject, inclusion proof, checkpoint",
		Long: `verify checks an attestation bundle (sealgate verify --attestation FILE)
without any network or sealgate state, in this order:

  envelope      a DSSE envelope of an in-toto statement
  signature     signed by the verdict key --key (PEM)
  statement     an in-toto Statement v1 with the sealgate verdict predicate
  subject       for the patch given (its SHA-256) and, with --base, that baseline
  test-results  the two companion test-result statements, signed and named
  log-entry     the logged entry binds this envelope (and key)
  inclusion     the inclusion proof reaches the checkpoint's root
  checkpoint    the checkpoint is signed by the log key --log-key: an embedded
                log's note verifier key (STATE/tlog/log.pub) or Rekor's PEM key

It exits 0 when every check passes and 1 naming the first that fails.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("attest verify takes one bundle file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.maxPatchBytes <= 0 {
				return usageErrorf("--max-patch-bytes %d must be positive", o.maxPatchBytes)
			}
			return attestVerify(cmd.Context(), stdout, args[0], o)
		},
	}
	f := v.Flags()
	f.StringVar(&o.patchFile, "patch-file", "", "the patch as the diff file that was verified")
	f.StringVar(&o.repo, "repo", "", "the git repository (with --base and --patch, or with --patch-file to check the baseline)")
	f.StringVar(&o.base, "base", "", "the baseline revision")
	f.StringVar(&o.patch, "patch", "", "the patch as a revision")
	f.StringVar(&o.key, "key", "", "the verdict public key, PEM (required)")
	f.StringVar(&o.logKey, "log-key", "", "the transparency log's key (required)")
	f.BoolVar(&o.json, "json", false, "print the report as JSON")
	f.Int64Var(&o.maxPatchBytes, "max-patch-bytes", defaultMaxPatchBytes, "largest --patch-file read, in bytes")
	cmd.AddCommand(v)
	return cmd
}

func attestVerify(ctx context.Context, w io.Writer, path string, o *attestVerifyOptions) error {
	switch {
	case o.key == "":
		return usageErrorf("--key is required: the verdict public key (PEM) you trust")
	case o.logKey == "":
		return usageErrorf("--log-key is required: the transparency log's key you trust")
	case o.patchFile != "" && o.patch != "":
		return usageErrorf("--patch-file and --patch exclude each other")
	case o.patchFile == "" && o.patch == "":
		return usageErrorf("give the patch: --patch-file F, or --repo DIR --base REV --patch REV")
	case o.patch != "" && (o.repo == "" || o.base == ""):
		return usageErrorf("--patch needs --repo and --base")
	case o.base != "" && o.repo == "":
		return usageErrorf("--base needs --repo")
	}
	// Zero is the default (callers in this package leave it unset).
	maxPatch := cmp.Or(o.maxPatchBytes, defaultMaxPatchBytes)
	if maxPatch < 0 {
		return usageErrorf("--max-patch-bytes %d must be positive", o.maxPatchBytes)
	}
	raw, err := readInput("bundle", path, maxBundleFile, "")
	if err != nil {
		return err
	}
	key, err := readInput("--key", o.key, maxKeyFile, "")
	if err != nil {
		return err
	}
	// Keys the caller gives are the caller's to fix: garbage is a usage
	// error, not a verification that failed.
	if _, err := attest.ParseVerifier(key); err != nil {
		return usageErrorf("--key %s is not a verdict public key (PEM): %v", o.key, err)
	}
	logKey, err := readInput("--log-key", o.logKey, maxKeyFile, "")
	if err != nil {
		return err
	}
	if _, err := attest.LogIDOf(logKey); err != nil {
		return usageErrorf("--log-key %s is neither a note verifier key (log.pub) nor a PEM public key: %v", o.logKey, err)
	}
	want := attest.Expect{Key: key, LogKey: logKey}
	var patchDiff []byte
	if o.patchFile != "" {
		if patchDiff, err = readInput("--patch-file", o.patchFile, maxPatch, "--max-patch-bytes"); err != nil {
			return err
		}
		sum := sha256.Sum256(patchDiff)
		want.PatchSHA256 = hex.EncodeToString(sum[:])
	}
	if o.repo != "" && o.base != "" {
		// The same checkout the verification ran: revisions resolved, the
		// diff written and parsed the same way, so the digest is the same.
		scratch, err := os.MkdirTemp("", "sealgate-attest-")
		if err != nil {
			return infraErrorf("%v", err)
		}
		defer os.RemoveAll(scratch)
		in := checkout.Input{Repo: o.repo, Baseline: o.base, PatchCommit: o.patch}
		in.PatchDiff = patchDiff
		co, err := checkout.Prepare(ctx, in, scratch)
		if err != nil {
			if checkout.IsUsage(err) {
				return usageErrorf("%v", err)
			}
			return infraErrorf("checkout: %v", err)
		}
		want.PatchSHA256, want.BaselineCommit = co.DiffSHA256, co.BaselineCommit
	}

	b, err := attest.ReadBundle(raw)
	var rep *attest.Report
	if err != nil {
		rep = &attest.Report{Checks: []attest.Check{{Name: attest.CheckEnvelope, Detail: err.Error()}}}
	} else {
		rep = attest.Verify(ctx, b, want)
	}
	if o.json {
		out, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintf(w, "%s\n", out)
	} else {
		for _, c := range rep.Checks {
			mark := "ok  "
			if !c.Passed {
				mark = "FAIL"
			}
			fmt.Fprintf(w, "%s %-12s %s\n", mark, c.Name, c.Detail)
		}
	}
	if f := rep.Failed(); f != nil {
		return failed("attestation refused: check %s failed: %s", f.Name, f.Detail)
	}
	fmt.Fprintf(w, "verified: %s, logged at %s index %d\n", rep.Verdict.Decision, rep.LogKind, rep.Index)
	return nil
}
