package handler

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/adjudication/schematest"
	"github.com/sealgate/sealgate/services/signing/attest"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

// The sealed artefact is the adjudicator's, byte for byte, plus the seal
// block: removing the block gives back the bytes the statement names.
func TestSealedArtefactKeepsTheVerdictsBytes(t *testing.T) {
	ctx := context.Background()
	ratio := 0.5
	a := &adjudication.Artefact{
		Schema: adjudication.ArtefactSchema, RunID: "run-x", Decision: adjudication.Inconclusive,
		Reason: "INCONCLUSIVE: coverage", Reasons: []string{"INCONCLUSIVE: coverage"},
		Criteria: json.RawMessage(`{"a":1,"b":[1,2]}`), CriteriaDigest: strings.Repeat("c", 64),
		Baseline: adjudication.TreeRef{Commit: strings.Repeat("1", 40)},
		Patch:    adjudication.PatchRef{Digest: strings.Repeat("2", 64)},
		Coverage: adjudication.CoverageRef{Ratio: &ratio, Floor: 1, Uncovered: []string{"a.go:3"}},
	}
	artBytes, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var read adjudication.Artefact
	if err := json.Unmarshal(artBytes, &read); err != nil {
		t.Fatal(err)
	}
	s, pub, l := sealer(t)
	sealed, b, _, err := Seal(ctx, s, l, &read, artBytes, []string{strings.Repeat("e", 64)}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if sealed.Seal == nil || sealed.Seal.Log != "embedded" || sealed.Seal.ArtefactSHA256 == "" {
		t.Fatalf("seal block: %+v", sealed.Seal)
	}
	unsealed := *sealed
	unsealed.Seal = nil
	again, err := unsealed.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, artBytes) {
		t.Fatalf("the sealed artefact without its seal differs from the verdict's:\n%s\n---\n%s", again, artBytes)
	}
	validate(t, sealed)
	rep := attest.Verify(ctx, b, attest.Expect{Key: pub, LogKey: []byte(l.VerifierKey()), PatchSHA256: a.Patch.Digest})
	if f := rep.Failed(); f != nil {
		t.Fatalf("check %s: %s", f.Name, f.Detail)
	}
	if rep.Verdict.ArtefactSHA256 != sealed.Seal.ArtefactSHA256 {
		t.Fatal("the statement names another artefact than the seal block")
	}
}

// validate checks the seal block against its part of
// docs/artefact.schema.json (the rest is the adjudicator's, checked there).
func validate(t *testing.T, a *adjudication.Artefact) {
	t.Helper()
	raw, err := json.Marshal(a.Seal)
	if err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, raw, "/properties/seal")
}

// sealer is a fresh signing key and an embedded transparency log.
func sealer(t testing.TB) (*attest.Signer, []byte, *embedded.Log) {
	t.Helper()
	priv, pub, err := attest.GenerateKey(attest.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	s, err := attest.ParseSigner(priv)
	if err != nil {
		t.Fatal(err)
	}
	l, err := embedded.Open(context.Background(), t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return s, pub, l
}
