// Package handler binds the signing service to the ledger: for every
// verdict.reached it signs the verdict's in-toto statements, appends the
// verdict envelope to the transparency log, stores the envelopes, the
// attestation bundle and the sealed artefact, and appends verdict.sealed
// with the log index, the inclusion proof and the checkpoint.
//
// Failures: signing has no evidence of its own to judge; every failure —
// an artefact the blob store does not give back or that does not parse,
// the transparency log refusing, a blob that cannot be stored — is a
// failure of the work, returned as an error (runtime.Permanent for an
// artefact that does not parse) for the runtime to retry or record.
package handler

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/canonical"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/signing/attest"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

// Handler is the signing service.
type Handler struct {
	Blobs  *blob.Store
	Signer *attest.Signer
	Log    tlog.Log
	// Version is the verifier version the statements name.
	Version string
	// sealed remembers the runs this handler sealed, so that a redelivered
	// verdict is not logged twice.
	sealed map[string]bool
}

// Handle seals each verdict once.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	v := rec.Record.GetVerdictReached()
	id := run.ID
	if v == nil || h.sealed[id] || run.Has(pb.Kind_KIND_VERDICT_SEALED) {
		return nil
	}
	art, artBytes, err := h.artefact(ctx, v.ArtefactBlob)
	if err != nil {
		return err
	}
	sealed, b, bundleJSON, err := Seal(ctx, h.Signer, h.Log, art, artBytes, v.Evidence, h.Version)
	if embedded.IsCorrupt(err) {
		// The embedded log is damaged or rolled back: nothing can be
		// sealed until it is repaired.
		return runtime.Fatal(fmt.Errorf("seal run %s: %w", id, err))
	}
	if err != nil {
		return fmt.Errorf("seal run %s: %w", id, err)
	}
	envJSON, err := canonical.Marshal(b.Verdict)
	if err != nil {
		return err
	}
	envKey, err := h.Blobs.Put(ctx, envJSON)
	if err != nil {
		return fmt.Errorf("store envelope: %w", err)
	}
	for _, tr := range b.TestResults {
		trJSON, err := canonical.Marshal(tr)
		if err != nil {
			return err
		}
		if _, err := h.Blobs.Put(ctx, trJSON); err != nil {
			return fmt.Errorf("store test-result envelope: %w", err)
		}
	}
	bundleKey, err := h.Blobs.Put(ctx, bundleJSON)
	if err != nil {
		return fmt.Errorf("store bundle: %w", err)
	}
	sealedBytes, err := sealed.Marshal()
	if err != nil {
		return err
	}
	sealedKey, err := h.Blobs.Put(ctx, sealedBytes)
	if err != nil {
		return fmt.Errorf("store sealed artefact: %w", err)
	}
	p := b.Tlog
	body := &pb.VerdictSealed{
		EnvelopeBlob: envKey, LogId: p.LogID, LogIndex: p.Index, TreeSize: p.TreeSize,
		Checkpoint: []byte(p.Checkpoint), LogKind: p.Kind, BundleBlob: bundleKey, ArtefactBlob: sealedKey,
		KeyId: sealed.Seal.KeyID,
	}
	for _, hx := range p.Hashes {
		hb, err := hex.DecodeString(hx)
		if err != nil {
			return fmt.Errorf("inclusion proof: %w", err)
		}
		body.InclusionProof = append(body.InclusionProof, hb)
	}
	if h.sealed == nil {
		h.sealed = map[string]bool{}
	}
	h.sealed[id] = true
	_, err = emit(ctx, &pb.Record{
		RunId: id, CriteriaDigest: rec.Record.GetCriteriaDigest(), Parents: []string{rec.Digest},
		Body: &pb.Record_VerdictSealed{VerdictSealed: body},
	})
	return err
}

// Seal signs a verdict's statements, logs the verdict envelope and returns
// the sealed artefact, the bundle and the bundle's bytes (which the seal
// block names by digest).
func Seal(ctx context.Context, s *attest.Signer, log tlog.Log, art *adjudication.Artefact, artBytes []byte, evidence []string, version string) (*adjudication.Artefact, *attest.Bundle, []byte, error) {
	st, err := attest.Attest(ctx, s, attest.Input{Artefact: art, ArtefactSHA256: blob.Digest(artBytes), Evidence: evidence, Version: version})
	if err != nil {
		return nil, nil, nil, err
	}
	p, err := log.Append(ctx, tlog.Submission{Envelope: st.Verdict, PublicKeyPEM: s.PublicKeyPEM()})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("transparency log (%s): %w", log.Kind(), err)
	}
	envDigest, err := attest.EnvelopeDigest(st.Verdict)
	if err != nil {
		return nil, nil, nil, err
	}
	kid, _ := s.KeyID()
	b := &attest.Bundle{
		MediaType: attest.BundleMediaType, Verdict: st.Verdict, TestResults: st.TestResults,
		PublicKey: string(s.PublicKeyPEM()), Tlog: p,
	}
	sealed := *art
	sealed.Seal = &adjudication.SealRef{
		Log: p.Kind, LogID: p.LogID, LogIndex: p.Index, TreeSize: p.TreeSize, RootHash: p.RootHash,
		InclusionProof: nonNil(p.Hashes), Checkpoint: p.Checkpoint, KeyID: kid, Algorithm: string(s.Algorithm()),
		EnvelopeSHA256: envDigest, ArtefactSHA256: blob.Digest(artBytes),
	}
	if p.Rekor != nil {
		sealed.Seal.RekorUUID = p.Rekor.UUID
	}
	raw, err := b.Marshal()
	if err != nil {
		return nil, nil, nil, err
	}
	sealed.Seal.BundleSHA256 = blob.Digest(raw)
	return &sealed, b, raw, nil
}

func (h *Handler) artefact(ctx context.Context, key string) (*adjudication.Artefact, []byte, error) {
	b, err := h.Blobs.Get(ctx, key)
	if err != nil {
		return nil, nil, fmt.Errorf("the verdict's artefact %.16s…: %w", key, err)
	}
	var a adjudication.Artefact
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, nil, runtime.Permanent(fmt.Errorf("the verdict's artefact %.16s… does not parse: %w", key, err))
	}
	return &a, b, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
