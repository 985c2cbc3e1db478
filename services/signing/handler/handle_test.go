package handler

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/runtime/runtimetest"
)

// TestHandle: given the records of a run, the signing service seals each
// verdict once — statements signed, the envelope logged, the sealed
// artefact stored — and fails, rather than records, when the verdict's
// artefact is not there or does not parse.
func TestHandle(t *testing.T) {
	ctx := context.Background()
	blobs, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	signer, _, log := sealer(t)
	art := &adjudication.Artefact{Schema: adjudication.ArtefactSchema, RunID: "run-1", Decision: adjudication.Inconclusive,
		Reason: "INCONCLUSIVE: coverage", Reasons: []string{"INCONCLUSIVE: coverage"}, Criteria: json.RawMessage(`{"a":1}`),
		CriteriaDigest: strings.Repeat("c", 64), Baseline: adjudication.TreeRef{Commit: strings.Repeat("1", 40)},
		Patch: adjudication.PatchRef{Digest: strings.Repeat("2", 64)}}
	artBytes, err := art.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	artKey, err := blobs.Put(ctx, artBytes)
	if err != nil {
		t.Fatal(err)
	}
	junkKey, err := blobs.Put(ctx, []byte("not an artefact"))
	if err != nil {
		t.Fatal(err)
	}
	verdict := func(key string) *record.Decoded {
		return runtimetest.Sign(t, keyring.Adjudication, &pb.Record{RunId: "run-1", CriteriaDigest: art.CriteriaDigest, Parents: []string{strings.Repeat("e", 64)},
			Body: &pb.Record_VerdictReached{VerdictReached: &pb.VerdictReached{Decision: pb.Decision_DECISION_INCONCLUSIVE, Reason: art.Reason,
				Evidence: []string{strings.Repeat("e", 64)}, ArtefactBlob: key}}})
	}
	good := verdict(artKey)
	sealedRec := runtimetest.Sign(t, keyring.Signing, &pb.Record{RunId: "run-1", Body: &pb.Record_VerdictSealed{VerdictSealed: &pb.VerdictSealed{}}})

	for _, tc := range []struct {
		name      string
		records   []*record.Decoded // the run, the record handled last
		want      []string
		fails     bool // an error, nothing emitted
		permanent bool
	}{
		{name: "a verdict is sealed", records: []*record.Decoded{good}, want: []string{"verdict.sealed"}},
		{name: "a sealed verdict delivered again is left alone", records: []*record.Decoded{good, sealedRec, good}},
		{name: "a record other than a verdict is left alone", records: []*record.Decoded{good, sealedRec}},
		{name: "an artefact the blob store does not hold fails the work", records: []*record.Decoded{verdict(strings.Repeat("a", 64))}, fails: true},
		{name: "an artefact that does not parse fails the run for good", records: []*record.Decoded{verdict(junkKey)}, fails: true, permanent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{Blobs: blobs, Signer: signer, Log: log, Version: "test"}
			rec := runtimetest.NewRecorder(t, keyring.Signing)
			run := runtimetest.RunOf(t, "run-1", tc.records...)
			last := tc.records[len(tc.records)-1]
			err := h.Handle(ctx, last, run, rec.Emit)
			if tc.fails != (err != nil) || tc.permanent != runtime.IsPermanent(err) {
				t.Fatalf("err = %v, want failure %v (permanent %v)", err, tc.fails, tc.permanent)
			}
			if got := rec.Kinds(); !slices.Equal(got, tc.want) {
				t.Fatalf("emitted %q, want %q", got, tc.want)
			}
			if len(tc.want) == 0 {
				return
			}
			out := rec.Emitted()[0]
			vs := out.Record.GetVerdictSealed()
			if !slices.Equal(out.Record.Parents, []string{last.Digest}) || out.Record.CriteriaDigest != art.CriteriaDigest || vs.LogKind != "embedded" || len(vs.Checkpoint) == 0 {
				t.Fatalf("verdict.sealed %v", out.Record)
			}
			for _, key := range []string{vs.EnvelopeBlob, vs.BundleBlob, vs.ArtefactBlob} {
				if _, err := blobs.Get(ctx, key); err != nil {
					t.Fatalf("a blob the seal names: %v", err)
				}
			}
			// Sealed once: the same verdict again seals nothing more.
			if err := h.Handle(ctx, last, run, rec.Emit); err != nil || len(rec.Emitted()) != 1 {
				t.Fatalf("sealed twice (%v)", err)
			}
		})
	}
}
