package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/safefile"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	adjhandler "github.com/sealgate/sealgate/services/adjudication/handler"
	"github.com/sealgate/sealgate/services/signing/attest"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

func newReplayCmd(stdout io.Writer) *cobra.Command {
	var state string
	cmd := &cobra.Command{
		Use:   "replay RUN",
		Short: "Recompute a run's verdict from the ledger alone and compare it byte for byte",
		Long: `replay reads the records of RUN from the local ledger, recomputes the verdict
and the artefact with the same pure decision function, and compares them with
the verdict record and the artefact the run produced. It exits 0 when both
match byte for byte, 1 when they differ, 3 when the run is unknown.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("replay takes one run id (sealgate ledger inspect lists them)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return replay(cmd.Context(), stdout, state, args[0])
		},
	}
	cmd.Flags().StringVar(&state, "state", defaultStateDir(), "state directory of embedded mode")
	return cmd
}

func replay(ctx context.Context, w io.Writer, state, runID string) error {
	path := filepath.Join(state, ledgerFile)
	if err := ledgerExists(path); err != nil {
		return err
	}
	anchors, err := loadAnchor(state)
	if err != nil {
		return err
	}
	mark := anchors.current().Ledger
	log, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		return ledgerOpenError(path, mark, err)
	}
	defer log.Close()
	if err := log.VerifyChain(ctx); err != nil {
		var ce *local.CorruptEntryError
		if !errors.As(err, &ce) {
			return namedLedgerError(path, mark, err)
		}
		return infraErrorf("the ledger %s is damaged (%v); run `sealgate ledger verify --state %s`", path, err, state)
	}
	if err := checkLedgerHead(log, path, mark); err != nil {
		return err
	}
	run, err := localHistory(log)(ctx, runID)
	var recs []*record.Decoded
	var verdict, sealed *record.Decoded
	for _, rec := range run {
		switch {
		case sealed != nil:
		case verdict != nil:
			if rec.Record.GetVerdictSealed() != nil {
				sealed = rec
			}
		case rec.Record.GetVerdictReached() != nil:
			verdict = rec
		default:
			recs = append(recs, rec)
		}
	}
	if err != nil {
		return infraErrorf("read ledger: %v", err)
	}
	if len(recs) == 0 {
		return usageErrorf("run %s is not on the ledger in %s", runID, state)
	}
	if verdict == nil {
		return failed("run %s has no verdict on the ledger", runID)
	}
	r := adjudication.Read(runID, recs)
	var missing []string
	if p := r.Pending(); len(p) > 0 {
		missing = p
	}
	v, art := adjhandler.Verdict(r, missing)
	artBytes, err := art.Marshal()
	if err != nil {
		return infraErrorf("%v", err)
	}
	want := verdict.Record.GetVerdictReached()
	got := adjudication.VerdictRecord(v, r.Evidence, blob.Digest(artBytes))
	gotBytes, _ := proto.MarshalOptions{Deterministic: true}.Marshal(got)
	wantBytes, _ := proto.MarshalOptions{Deterministic: true}.Marshal(want)
	fmt.Fprintf(w, "run %s: %d records before the verdict\n", runID, len(recs))
	fmt.Fprintf(w, "recorded:   %s\n", want.Reason)
	fmt.Fprintf(w, "recomputed: %s\n", got.Reason)
	same := bytes.Equal(gotBytes, wantBytes)
	stored, err := blobsGet(ctx, state, want.ArtefactBlob)
	artSame := err == nil && bytes.Equal(stored, artBytes)
	fmt.Fprintf(w, "verdict record: %s\n", match(same))
	switch {
	case err != nil:
		fmt.Fprintf(w, "artefact: not checked (%v)\n", err)
	default:
		fmt.Fprintf(w, "artefact %.16s…: %s\n", want.ArtefactBlob, match(artSame))
	}
	if !same || !artSame {
		return failed("run %s: the recomputed verdict differs from the recorded one", runID)
	}
	if sealed == nil {
		return failed("run %s: the verdict was never sealed (signed and logged)", runID)
	}
	if err := replaySeal(ctx, w, state, r, stored, sealed.Record.GetVerdictSealed()); err != nil {
		return err
	}
	return nil
}

// replaySeal checks the seal of a replayed verdict: the sealed artefact is
// the recomputed one plus its seal block, and the bundle verifies offline —
// for the embedded log, with the log key in the state directory.
func replaySeal(ctx context.Context, w io.Writer, state string, r *adjudication.Run, art []byte, vs *pb.VerdictSealed) error {
	sealedArt, err := blobsGet(ctx, state, vs.ArtefactBlob)
	if err != nil {
		return failed("the sealed artefact: %v", err)
	}
	var a adjudication.Artefact
	if err := json.Unmarshal(sealedArt, &a); err != nil || a.Seal == nil {
		return failed("the sealed artefact has no seal block")
	}
	a.Seal = nil
	unsealed, err := a.Marshal()
	if err != nil {
		return infraErrorf("%v", err)
	}
	fmt.Fprintf(w, "sealed artefact %.16s…: %s\n", vs.ArtefactBlob, match(bytes.Equal(unsealed, art)))
	if !bytes.Equal(unsealed, art) {
		return failed("the sealed artefact is not the verdict's artefact plus a seal block")
	}
	raw, err := blobsGet(ctx, state, vs.BundleBlob)
	if err != nil {
		return failed("the attestation bundle: %v", err)
	}
	b, err := attest.ReadBundle(raw)
	if err != nil {
		return failed("%v", err)
	}
	want := attest.Expect{Key: []byte(b.PublicKey)}
	if r.Sealed != nil {
		want.PatchSHA256, want.BaselineCommit = r.Sealed.Criteria.PatchDigest, r.Sealed.Criteria.Baseline
	}
	if v, err := attest.ParseVerifier(want.Key); err != nil {
		return failed("the bundle's key: %v", err)
	} else if kid, _ := v.KeyID(); kid != vs.KeyId {
		return failed("the bundle names key %.16s…, the seal record %.16s…", kid, vs.KeyId)
	}
	if vs.LogKind != tlog.KindEmbedded {
		fmt.Fprintf(w, "seal: logged to %s at %d; check it with `sealgate attest verify` and the log's key\n", vs.LogKind, vs.LogIndex)
		return nil
	}
	if want.LogKey, err = embeddedLogKey(state, vs.LogId); err != nil {
		return infraErrorf("the embedded log's key: %v", err)
	}
	rep := attest.Verify(ctx, b, want)
	if f := rep.Failed(); f != nil {
		fmt.Fprintf(w, "seal: check %s FAILED: %s\n", f.Name, f.Detail)
		return failed("run %s: the seal does not verify (check %s)", r.ID, f.Name)
	}
	if rep.Verdict.ArtefactSHA256 != blob.Digest(art) {
		return failed("run %s: the signed statement names another artefact", r.ID)
	}
	fmt.Fprintf(w, "seal: embedded log index %d, every check of `attest verify` passes\n", vs.LogIndex)
	return nil
}

func blobsGet(ctx context.Context, state, digest string) ([]byte, error) {
	s, err := blob.Open(ctx, filepath.Join(state, blobsDir))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Get(ctx, digest)
}

func match(ok bool) string {
	if ok {
		return "recomputed bytes match"
	}
	return "DIFFERS"
}

// embeddedLogKey finds the verifier key of the embedded log a seal names:
// the current log's, or that of a log moved aside (STATE/tlog.aside-*).
func embeddedLogKey(state, logID string) ([]byte, error) {
	dirs, _ := filepath.Glob(filepath.Join(state, tlogDir+".aside-*"))
	dirs = append([]string{filepath.Join(state, tlogDir)}, dirs...)
	for _, d := range dirs {
		key, err := safefile.ReadRegular(filepath.Join(d, embedded.PublicKeyFile), maxKeyFile)
		if err == nil && embedded.LogID(string(key)) == logID {
			return key, nil
		}
	}
	return nil, fmt.Errorf("no %s in %s or a log moved aside is the key of log %.16s…", embedded.PublicKeyFile, filepath.Join(state, tlogDir), logID)
}
