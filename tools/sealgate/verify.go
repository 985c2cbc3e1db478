package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/gateway"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
	"github.com/sealgate/sealgate/services/telemetry"
	"go.opentelemetry.io/otel/trace"
)

// verifyOptions are the flags of sealgate verify.
type verifyOptions struct {
	repo, base, patch, patchFile   string
	claims, testSupport            []string
	coverageFloor, strengthFloor   float64
	strengthConfidence             float64
	timeout                        time.Duration
	out, state, sandbox            string
	buildCache                     string
	requireSandbox, fullEvidence   bool
	reruns, mutationMax, memoryGiB int
	mutationReport                 string
	tlogKind, rekorURL             string
	signingKey, attestation        string
	remote                         string
	otlpEndpoint                   string
	otlpInsecure                   bool
	python, testCommand, junit     string
	seals                          []string
	configFile                     string
	maxPatchBytes                  int64
	// tests and testPatchFile are a grader's trusted tests (--tests,
	// --test-patch); testPatch is the file's content, read by check
	// within --max-patch-bytes.
	tests, testPatchFile string
	testPatch            []byte
	// baselinePasses and lenientClaims are set by sealgate eval: the
	// dataset's PASS_TO_PASS claims, and claims that may name nothing.
	baselinePasses []string
	lenientClaims  bool
	// Set from the flags and the repository's .sealgate.yaml by
	// applyConfig.
	commands map[string]criteria.Command
	suite    *criteria.Command
	sealPlan []criteria.Command
	// telemetry, when set, replaces the providers --otlp-endpoint makes
	// (tests record spans and metrics in memory).
	telemetry *telemetry.Providers
}

func newVerifyCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &verifyOptions{}
	var reports reportTargets
	cmd := &cobra.Command{
		Use:   "verify --repo DIR --base REV (--patch REV | --patch-file FILE.diff) [--claim go:./pkg:TestName]...",
		Short: "Verify a patch: MERGE (exit 0), BLOCK (1) or INCONCLUSIVE (2)",
		Long: `verify seals the criteria on the ledger, then runs every service in this
process over the local ledger: checkout materializes the baseline and the patch
from git, the executor runs each claim alone on both sides with the baseline's
test files put back, and the full suite on the patch, in a sandbox; the
adjudicator decides from the recorded evidence alone.

The signing service then signs the verdict as an in-toto statement in a DSSE
envelope, with two companion test-result statements, and appends it to the
transparency log: the embedded Merkle log under STATE/tlog by default, or
Rekor v1 (--tlog rekor --rekor-url URL). A verdict that cannot be sealed is
no verdict.

It prints the sealed JSON artefact (docs/artefact.schema.json) on stdout and
exits 0 MERGE, 1 BLOCK, 2 INCONCLUSIVE, 3 usage error, 4 no verdict produced.
Progress goes to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.check(cmd); err != nil {
				return err
			}
			run := runVerify
			if o.remote != "" {
				run = runRemote
			}
			out, writeReports := reports.capture(stdout)
			code, err := run(cmd.Context(), o, out, stderr)
			if err != nil {
				return err
			}
			if err := writeReports(o.repo); err != nil {
				return err
			}
			if code != 0 {
				return &exitError{code: code, err: silent{}}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.repo, "repo", "", "the git repository (required)")
	f.StringVar(&o.base, "base", "", "the baseline revision (required)")
	f.StringVar(&o.patch, "patch", "", "the patch as a revision (a commit whose tree is the patched code)")
	f.StringVar(&o.patchFile, "patch-file", "", "the patch as a unified diff file against --base")
	f.StringArrayVar(&o.claims, "claim", nil, "a test that proves the patch: go:./pkg/path:TestName, or go:TestName for every package declaring it (repeatable; none: discover)")
	f.StringVar(&o.tests, "tests", "", "trusted tests: a revision whose test files are a grader's held-out tests, laid over both sides")
	f.StringVar(&o.testPatchFile, "test-patch", "", "trusted tests as a diff against --base touching only test files and test data")
	f.Float64Var(&o.coverageFloor, "coverage-floor", criteria.DefaultCoverageFloor, "diff coverage required, in [0,1]; 0 switches the requirement off")
	f.Float64Var(&o.strengthFloor, "strength-floor", criteria.DefaultStrengthFloor, "mutation strength lower bound required, in [0,1]; 0 switches it off")
	f.Float64Var(&o.strengthConfidence, "strength-confidence", criteria.DefaultStrengthConfidence, "confidence of the Wilson lower bound, in (0,1)")
	f.StringArrayVar(&o.testSupport, "test-support", nil, "a glob of files that are test code (restored from the baseline) (repeatable)")
	f.DurationVar(&o.timeout, "timeout", time.Hour, "deadline of the whole verification: evidence missing then makes it INCONCLUSIVE")
	f.StringVar(&o.out, "out", "", "also write the artefact to this file")
	f.StringVar(&o.state, "state", defaultStateDir(), "state directory of embedded mode (ledger, keys, blobs, build cache)")
	f.StringVar(&o.buildCache, "build-cache", "", "Go build cache of the test processes, writable by them (default STATE/gocache; keep one per trust domain: tested code can write to it)")
	f.StringVar(&o.sandbox, "sandbox", "auto", "sandbox for test processes: auto (bubblewrap when it works), bwrap, none")
	f.BoolVar(&o.requireSandbox, "require-sandbox", false, "refuse to run without the bubblewrap sandbox")
	f.IntVar(&o.mutationMax, "mutation-max", criteria.DefaultMutationMax, "mutants at most, on the changed covered lines; 0 switches mutation off (recorded)")
	f.BoolVar(&o.fullEvidence, "full-evidence", false, "measure coverage and mutation even once the verdict is certain to be BLOCK (sealed)")
	f.StringVar(&o.mutationReport, "mutation-report", "", "also write the mutants as a Stryker mutation-testing-report-schema JSON file")
	f.StringVar(&o.tlogKind, "tlog", tlog.KindEmbedded, "transparency log: embedded (STATE/tlog) or rekor")
	f.StringVar(&o.rekorURL, "rekor-url", "", "Rekor v1 server, with --tlog rekor")
	f.StringVar(&o.signingKey, "signing-key", "", "verdict signing key, PKCS#8 PEM (default $"+signingKeyEnv+", else STATE/keys/verdict.key)")
	f.StringVar(&o.otlpEndpoint, "otlp-endpoint", "", "export traces and metrics over OTLP/gRPC to this collector (host:port); off when empty")
	f.BoolVar(&o.otlpInsecure, "otlp-insecure", false, "send OTLP without TLS (a collector on loopback or a sidecar)")
	f.StringVar(&o.remote, "remote", "", "submit to a gateway (sealgate serve gateway) at this address instead of running the services in process")
	f.Var(&reports, "report", "also render the artefact as FORMAT into FILE (repeatable; formats as sealgate report's)")
	f.StringVar(&o.attestation, "attestation", "", "also write the attestation bundle (envelopes and log proof) to this file")
	f.StringVar(&o.python, "python", "", "interpreter of pytest claims and the Python suite (default: the first python3 that imports pytest)")
	f.StringVar(&o.testCommand, "test-command", "", "the command of the one cmd:LABEL claim, run by /bin/sh in the tree's root on both sides")
	f.StringVar(&o.junit, "junit", "", "with --test-command: the JUnit file it writes, relative to the tree's root (its case count; without one the claim is never verified)")
	f.StringArrayVar(&o.seals, "seal", nil, "a seal check: a command that must run, exit 0 and report cases (repeatable; added to the config file's)")
	f.StringVar(&o.configFile, "config", "", "read the repository configuration from this file instead of .sealgate.yaml at the baseline commit")
	f.IntVar(&o.reruns, "stability-reruns", criteria.DefaultStabilityReruns, "times a failing claim run is repeated before it counts as a stable failure")
	f.IntVar(&o.memoryGiB, "memory-gib", criteria.DefaultMemoryBytes>>30, "address space each test process may use, in GiB (RLIMIT_AS; a test past it is unrunnable, not failed)")
	f.Int64Var(&o.maxPatchBytes, "max-patch-bytes", defaultMaxPatchBytes, "largest --patch-file read, in bytes (a FIFO, device or directory is never read)")
	return cmd
}

// silent carries an exit code whose reason is already printed.
type silent struct{}

func (silent) Error() string { return "" }

func (o *verifyOptions) check(cmd *cobra.Command) error {
	switch {
	case o.repo == "":
		return usageErrorf("--repo is required: the git repository holding the baseline")
	case o.base == "":
		return usageErrorf("--base is required: the baseline revision")
	case o.patch != "" && o.patchFile != "":
		return usageErrorf("--patch and --patch-file exclude each other: give the patch as a revision or as a diff file")
	case o.patch == "" && o.patchFile == "":
		return usageErrorf("a patch is required: --patch REV or --patch-file FILE.diff")
	}
	for name, v := range map[string]float64{"--coverage-floor": o.coverageFloor, "--strength-floor": o.strengthFloor} {
		if !(v >= 0 && v <= 1) {
			return usageErrorf("%s %v is outside [0, 1]", name, v)
		}
	}
	if !(o.strengthConfidence > 0 && o.strengthConfidence < 1) {
		return usageErrorf("--strength-confidence %v is outside (0, 1)", o.strengthConfidence)
	}
	if o.timeout <= 0 {
		return usageErrorf("--timeout %v must be positive", o.timeout)
	}
	if o.mutationMax < 0 || o.mutationMax > 10000 {
		return usageErrorf("--mutation-max %d is outside [0, 10000]", o.mutationMax)
	}
	if o.reruns < 0 || o.reruns > 100 {
		return usageErrorf("--stability-reruns %d is outside [0, 100]", o.reruns)
	}
	if o.memoryGiB < 1 || o.memoryGiB > 1024 {
		return usageErrorf("--memory-gib %d is outside [1, 1024]", o.memoryGiB)
	}
	for _, c := range o.claims {
		if err := criteria.ValidateRequestClaim(c); err != nil {
			return usageErrorf("%v", err)
		}
	}
	if o.tests != "" && o.testPatchFile != "" {
		return usageErrorf("--tests and --test-patch exclude each other: give the trusted tests as a revision or as a diff file")
	}
	if o.testPatchFile != "" {
		b, err := readInput("--test-patch", o.testPatchFile, cmp.Or(o.maxPatchBytes, defaultMaxPatchBytes), "--max-patch-bytes")
		if err != nil {
			return err
		}
		o.testPatch = b
	}
	if err := o.applyConfig(cmd); err != nil {
		return err
	}
	switch o.sandbox {
	case "auto", "bwrap", "none":
	default:
		return usageErrorf("--sandbox %q: want auto, bwrap or none", o.sandbox)
	}
	if o.requireSandbox && o.sandbox == "none" {
		return usageErrorf("--require-sandbox contradicts --sandbox none: drop one")
	}
	if o.requireSandbox {
		o.sandbox = "bwrap"
	}
	if o.remote != "" {
		for _, f := range []string{"state", "build-cache", "signing-key", "tlog", "rekor-url", "mutation-report", "otlp-endpoint", "otlp-insecure"} {
			if cmd.Flags().Changed(f) {
				return usageErrorf("--%s is the services' business: with --remote the gateway's services decide it", f)
			}
		}
	}
	o.tlogKind = cmp.Or(o.tlogKind, tlog.KindEmbedded)
	switch {
	case o.tlogKind != tlog.KindEmbedded && o.tlogKind != tlog.KindRekor:
		return usageErrorf("--tlog %q: want embedded or rekor", o.tlogKind)
	case o.tlogKind == tlog.KindRekor && o.rekorURL == "":
		return usageErrorf("--tlog rekor needs --rekor-url URL")
	case o.tlogKind != tlog.KindRekor && o.rekorURL != "":
		return usageErrorf("--rekor-url is for --tlog rekor")
	}
	return o.checkFiles()
}

// request is the verification the options ask for, without its
// repository and patch: the same for the embedded mode and --remote.
func (o *verifyOptions) request() *gateway.Request {
	return &gateway.Request{
		Claims: o.claims, TestSupport: o.testSupport,
		CoverageFloor: o.coverageFloor, StrengthFloor: o.strengthFloor, StrengthConfidence: o.strengthConfidence,
		MutationMax: o.mutationMax, StabilityReruns: o.reruns, TimeoutMillis: o.timeout.Milliseconds(),
		MemoryBytes:    uint64(o.memoryGiB) << 30,
		RequireSandbox: o.sandbox == "bwrap", FullEvidence: o.fullEvidence, ClientVersion: version(),
		Python: o.python, Commands: o.commands, Suite: o.suite, SealPlan: o.sealPlan,
		TestsCommit: o.tests, TestPatch: o.testPatch, BaselinePasses: o.baselinePasses, LenientClaims: o.lenientClaims,
	}
}

// runVerify runs one verification and returns the decision's exit code.
func runVerify(ctx context.Context, o *verifyOptions, stdout, stderr io.Writer) (int, error) {
	started := time.Now()
	repo, err := filepath.Abs(o.repo)
	if err != nil {
		return 0, usageErrorf("--repo %s: %v", o.repo, err)
	}
	req := o.request()
	req.Repository, req.Baseline, req.PatchCommit = repo, o.base, o.patch
	if o.patchFile != "" {
		b, err := o.readPatch()
		if err != nil {
			return 0, err
		}
		req.PatchDiff = b
	}
	mode := sandbox.Auto
	switch o.sandbox {
	case "bwrap":
		mode = sandbox.Require
	case "none":
		mode = sandbox.None
	}
	box, err := sandbox.New(ctx, sandbox.Config{Mode: mode})
	if err != nil {
		return 0, usageErrorf("%v", err)
	}

	// The verdict key first: a bad --signing-key is the caller's to fix
	// before anything is opened, and $SEALGATE_SIGNING_KEY leaves the
	// environment before the pre-flight starts git.
	signer, keySource, err := loadSigner(o.signingKey, o.state)
	if err != nil {
		return 0, err
	}
	st, err := openState(ctx, o.state)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	blobs, err := blob.Open(ctx, filepath.Join(st.dir, blobsDir))
	if err != nil {
		return 0, infraErrorf("blob store: %v", err)
	}
	defer blobs.Close()
	gw, err := st.keys.Signer(keyring.Gateway)
	if err != nil {
		return 0, infraErrorf("%v", err)
	}

	// Pre-flight: a bad revision or a diff that does not parse or apply is
	// the caller's to fix, before anything is sealed. Its scratch lives
	// under STATE/work, which the next start cleans after a crash.
	if err := os.MkdirAll(filepath.Join(st.dir, workDir), 0o755); err != nil {
		return 0, infraErrorf("%v", err)
	}
	scratch, err := os.MkdirTemp(filepath.Join(st.dir, workDir), "preflight-")
	if err != nil {
		return 0, infraErrorf("%v", err)
	}
	defer os.RemoveAll(scratch)
	tel := o.telemetry
	if tel == nil {
		if tel, err = telemetry.Setup(ctx, telemetry.Config{Endpoint: o.otlpEndpoint, Insecure: o.otlpInsecure, Service: "sealgate"}); err != nil {
			return 0, usageErrorf("--otlp-endpoint: %v", err)
		}
		defer tel.Close(context.WithoutCancel(ctx))
	}
	runID := gateway.NewRunID(started)
	// The run's root span: its ids are derived from the run id, and every
	// service's spans for the run join its trace.
	rootCtx, root := tel.Tracer.Tracer(telemetry.Scope).Start(telemetry.WithRunRoot(ctx, runID), "sealgate.run",
		trace.WithAttributes(telemetry.Attr("gateway", runID)...))
	defer root.End()
	view := newProgress(stderr, runID)
	stopProgress := preflightProgress(view, req.PatchDiff, 5*time.Second)
	sub, err := gateway.Prepare(rootCtx, req, runID, started, blobs, gw, scratch)
	stopProgress()
	if err != nil {
		var ue *gateway.UsageError
		if errors.As(err, &ue) {
			return 0, usageErrorf("%v", err)
		}
		return 0, infraErrorf("%v", err)
	}
	co, sealed := sub.Checkout, sub.Sealed

	goenv, err := goToolchain(ctx, cmp.Or(o.buildCache, filepath.Join(st.dir, "gocache")))
	if err != nil {
		return 0, err
	}
	tl, tlogDesc, err := openLog(ctx, o.tlogKind, o.rekorURL, st.dir, st.anchors, st.lastSeal)
	if err != nil {
		return 0, err
	}
	defer tl.Close()

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	svcs, err := startServices(runCtx, st, blobs, box, goenv, view.job, signer, tl, tel)
	if err != nil {
		return 0, err
	}
	defer func() {
		cancel()
		svcs.close()
	}()
	watch, err := local.NewSubscriber(st.log, local.SubscriberConfig{ConsumerGroup: groupGateway})
	if err != nil {
		return 0, infraErrorf("%v", err)
	}
	defer watch.Close()
	msgs, err := watch.Subscribe(runCtx, ledger.Topic)
	if err != nil {
		return 0, infraErrorf("%v", err)
	}

	view.line("run %s: criteria sealed (%.12s), sandbox %s", runID, sealed.Digest, box.Name())
	kid, _ := signer.KeyID()
	view.line("verdicts signed with %s key %.16s… (%s), logged to the %s", signer.Algorithm(), kid, keySource, tlogDesc)
	if _, err := st.appender.Append(rootCtx, sub.Request, sub.Seal); err != nil {
		return 0, infraErrorf("append the run request: %v", err)
	}

	var strength *pb.StrengthMeasured
	var reached *pb.VerdictReached
	cols := map[string]int{}
	for {
		select {
		case <-ctx.Done():
			return 0, infraErrorf("interrupted before a verdict: run %s has no verdict", runID)
		case err := <-svcs.failure():
			hint := ""
			if embedded.IsCorrupt(err) {
				hint = "; " + repairHint(st.dir)
			}
			if reached == nil {
				// The service may have failed on the verdict before this
				// loop saw it: the ledger says whether there is one.
				reached = recordedVerdict(ctx, st, runID)
			}
			if reached != nil {
				return 0, infraErrorf("no verdict: %s was reached and recorded but not sealed: %v%s", decisionOf(reached.Decision), err, hint)
			}
			return 0, infraErrorf("no verdict: %v%s", err, hint)
		case msg, ok := <-msgs:
			if !ok {
				return 0, infraErrorf("the ledger subscription ended before a verdict")
			}
			rec, err := record.Decode(msg.Payload)
			msg.Ack()
			if err != nil || rec.Record.GetRunId() != runID {
				continue
			}
			view.record(rec)
			if st := rec.Record.GetStrengthMeasured(); st != nil {
				strength = st
			}
			if jp := rec.Record.GetJobPlanned(); jp != nil && rec.Record.Producer.GetIdentity() == keyring.Mutation {
				mutantColumns(jp, cols)
			}
			if v := rec.Record.GetVerdictReached(); v != nil {
				reached = v
				continue
			}
			sealedRec := rec.Record.GetVerdictSealed()
			if sealedRec == nil || reached == nil {
				continue
			}
			art, err := blobs.Get(ctx, sealedRec.ArtefactBlob)
			if err != nil {
				return 0, infraErrorf("the verdict's sealed artefact: %v", err)
			}
			// The ledger now holds the seal: the anchor says so.
			if err := st.anchors.save(nil); err != nil {
				return 0, err
			}
			if _, err := stdout.Write(art); err != nil {
				return 0, infraErrorf("%v", err)
			}
			if err := writeSealedOutput("--out", o.out, art); err != nil {
				return 0, err
			}
			if o.attestation != "" {
				b, err := blobs.Get(ctx, sealedRec.BundleBlob)
				if err != nil {
					return 0, infraErrorf("the attestation bundle: %v", err)
				}
				if err := writeSealedOutput("--attestation", o.attestation, b); err != nil {
					return 0, err
				}
			}
			if o.mutationReport != "" {
				if err := writeStrykerReport(ctx, o.mutationReport, repo, co, strength, cols); err != nil {
					return 0, infraErrorf("--mutation-report: %v", err)
				}
			}
			d := decisionOf(reached.Decision)
			view.done(fmt.Sprintf("%s in %.1fs: %s", d, time.Since(started).Seconds(), reached.Reason))
			return adjudication.ExitCode(d), nil
		}
	}
}

func decisionOf(d pb.Decision) adjudication.Decision {
	switch d {
	case pb.Decision_DECISION_MERGE:
		return adjudication.Merge
	case pb.Decision_DECISION_BLOCK:
		return adjudication.Block
	}
	return adjudication.Inconclusive
}
