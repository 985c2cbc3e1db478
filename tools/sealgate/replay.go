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
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay RUN",
		Short: "Recompute a run's verdict from the ledger alone and compare it byte for byte",
		Long: `replay reads the records of RUN from the ledger — the local one, or with
--brokers the Kafka ledger (only what the ledger guard admitted) — recomputes
the verdict and the artefact with the same pure decision function, and
compares them with the verdict record and the artefact the run produced. It
exits 0 when both match byte for byte and the seal checks, 1 when they
differ, 3 when the run is unknown.

On a Kafka ledger the artefacts come from --blobs (the blob store the
services share), and a seal in the signing service's embedded log is checked
with --log-key (that service's STATE/tlog/log.pub).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("replay takes one run id (sealgate ledger runs lists them)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return replay(cmd, stdout, &o, args[0])
		},
	}
	o.flags.anchored = true
	o.flags.register(cmd)
	cmd.Flags().StringVar(&o.blobs, "blobs", "", "with --brokers: the services' blob store, a directory or a gocloud.dev bucket URL")
	cmd.Flags().StringVar(&o.logKey, "log-key", "", "with --brokers: the embedded transparency log's public key (the signing service's STATE/tlog/log.pub)")
	return cmd
}

// replayOptions are replay's flags.
type replayOptions struct {
	flags         ledgerFlags
	blobs, logKey string
}

// blobsAt returns where the run's artefacts are.
func (o *replayOptions) blobsAt() string {
	if o.flags.kafka() {
		return o.blobs
	}
	return filepath.Join(o.flags.state, blobsDir)
}

func replay(cmd *cobra.Command, w io.Writer, o *replayOptions, runID string) error {
	ctx := cmd.Context()
	if o.flags.kafka() && o.blobs == "" {
		return usageErrorf("replay --brokers needs --blobs: the blob store the services share, which holds the run's artefacts")
	}
	if !o.flags.kafka() && (o.blobs != "" || o.logKey != "") {
		return usageErrorf("--blobs and --log-key go with --brokers; the local ledger's artefacts and log key are in --state")
	}
	src, err := o.flags.open(cmd)
	if err != nil {
		return err
	}
	defer src.Close()
	run, err := readRun(ctx, src, runID)
	if err != nil {
		return err
	}
	if _, err := src.Check(ctx, false); err != nil {
		return err
	}
	printRefused(w, src, run.refused)
	var recs []*record.Decoded
	var verdict, sealed *record.Decoded
	for _, rec := range run.records {
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
	if len(recs) == 0 {
		return usageErrorf("run %s is not on %s (sealgate ledger runs lists them)", runID, src)
	}
	if verdict == nil {
		return failed("run %s has no verdict on %s", runID, src)
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
	stored, err := blobAt(ctx, o.blobsAt(), want.ArtefactBlob)
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
	if err := replaySeal(ctx, w, o, r, stored, sealed.Record.GetVerdictSealed()); err != nil {
		return err
	}
	return nil
}

// runRecords are one run's records as replay reads them.
type runRecords struct {
	records []*record.Decoded
	// refused are the messages of the run the ledger never admitted.
	refused []refusal
}

// readRun reads one run's records from src, in ledger order. A ledger
// damaged where the run is (or where no run can be told) is refused:
// replay recomputes from a whole ledger or not at all.
func readRun(ctx context.Context, src ledgerSource, runID string) (*runRecords, error) {
	out := &runRecords{}
	var fault error
	err := src.Scan(ctx, func(e ledgerEntry) error {
		if e.Fault != nil {
			if e.RunID == "" || e.RunID == runID {
				fault = fmt.Errorf("%s: %w", e.Label, e.Fault)
				return errStopScan
			}
			return nil
		}
		if e.RunID != runID {
			return nil
		}
		rec, err := record.Decode(e.Payload)
		if err != nil {
			fault = fmt.Errorf("%s: %w", e.Label, err)
			return errStopScan
		}
		if rec.Record.GetRunId() != runID {
			return nil
		}
		out.records = append(out.records, rec)
		return nil
	})
	if err != nil && !errors.Is(err, errStopScan) {
		return nil, err
	}
	if fault != nil {
		return nil, infraErrorf("%s is damaged (%v); run `sealgate ledger verify` on it", src, fault)
	}
	for _, r := range src.Refused() {
		if r.RunID == runID {
			out.refused = append(out.refused, r)
		}
	}
	return out, nil
}

// replaySeal checks the seal of a replayed verdict: the sealed artefact is
// the recomputed one plus its seal block, and the bundle verifies offline —
// for the embedded log, with the log key in the state directory.
func replaySeal(ctx context.Context, w io.Writer, o *replayOptions, r *adjudication.Run, art []byte, vs *pb.VerdictSealed) error {
	sealedArt, err := blobAt(ctx, o.blobsAt(), vs.ArtefactBlob)
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
	raw, err := blobAt(ctx, o.blobsAt(), vs.BundleBlob)
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
	if want.LogKey, err = o.embeddedLogKey(vs.LogId); err != nil {
		return err
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

// blobsGet reads one blob of the state directory's blob store.
func blobsGet(ctx context.Context, state, digest string) ([]byte, error) {
	return blobAt(ctx, filepath.Join(state, blobsDir), digest)
}

// blobAt reads one blob of the store at location, a directory or a bucket
// URL.
func blobAt(ctx context.Context, location, digest string) ([]byte, error) {
	s, err := blob.Open(ctx, location)
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

// embeddedLogKey returns the key of the embedded log a seal names: on the
// local ledger, from the state directory; on a Kafka ledger, --log-key,
// which must be that log's.
func (o *replayOptions) embeddedLogKey(logID string) ([]byte, error) {
	if !o.flags.kafka() {
		key, err := embeddedLogKey(o.flags.state, logID)
		if err != nil {
			return nil, infraErrorf("the embedded log's key: %v", err)
		}
		return key, nil
	}
	if o.logKey == "" {
		return nil, usageErrorf("the run was sealed in the embedded log %.16s…: give --log-key FILE (the signing service's STATE/tlog/%s) to check the seal", logID, embedded.PublicKeyFile)
	}
	key, err := readInput("--log-key", o.logKey, maxKeyFile, "")
	if err != nil {
		return nil, err
	}
	if id := embedded.LogID(string(key)); id != logID {
		return nil, failed("--log-key %s is the key of log %.16s…, but the run was sealed in log %.16s…", o.logKey, id, logID)
	}
	return key, nil
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
