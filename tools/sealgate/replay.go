package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/services/adjudication"
	adjhandler "github.com/sealgate/sealgate/services/adjudication/handler"
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
	log, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		return infraErrorf("open ledger: %v", err)
	}
	defer log.Close()
	var recs []*record.Decoded
	var verdict *record.Decoded
	err = log.Scan(ctx, 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Topic != ledger.Topic || e.Metadata[ledger.MetaRunID] != runID || verdict != nil {
			return nil
		}
		rec, err := record.Decode(e.Payload)
		if err != nil {
			return fmt.Errorf("record at seq %d: %w", e.Seq, err)
		}
		if rec.Record.GetVerdictReached() != nil {
			verdict = rec
			return nil
		}
		recs = append(recs, rec)
		return nil
	})
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
