package runtime

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

func signed(t *testing.T, r *pb.Record) *record.Decoded {
	t.Helper()
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := record.NewSigner("sealgate/gateway", key)
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Sign(r)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sealRecord(t *testing.T, runID string, canonical []byte) *record.Decoded {
	t.Helper()
	return signed(t, &pb.Record{RunId: runID, CriteriaDigest: "d", Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: canonical, CriteriaDigest: "d"}}})
}

// TestSealsParseOnce: a run's seal is parsed once and handed to every
// record of the run; the parse is dropped with the run's verdict; a seal
// that does not parse is the run's permanent failure, and a run not yet
// sealed has no criteria and no error.
func TestSealsParseOnce(t *testing.T) {
	c := &criteria.Criteria{RunID: "run-1", Repository: "/r", Baseline: strings.Repeat("b", 40), PatchCommit: strings.Repeat("c", 40), PatchDigest: strings.Repeat("d", 64),
		Claims: []string{"go:./a:TestA"}, StrengthConfidence: 0.8,
		DeadlineUnixMilli: time.Now().Add(time.Hour).UnixMilli()}
	c.ApplyDefaults()
	sealed, err := criteria.Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	req := signed(t, &pb.Record{RunId: "run-1", Body: &pb.Record_RunRequested{RunRequested: &pb.RunRequested{PatchBlob: "blob"}}})
	seal := sealRecord(t, "run-1", sealed.Canonical)
	var s seals

	before, err := s.run("run-1", []*record.Decoded{req}, req)
	if err != nil || before.Sealed() || before.Seal != nil || before.Request().GetPatchBlob() != "blob" {
		t.Fatalf("before the seal: %+v, %v", before, err)
	}
	first, err := s.run("run-1", []*record.Decoded{req, seal}, seal)
	if err != nil || !first.Sealed() || first.Criteria.Digest != sealed.Digest || first.Seal != seal {
		t.Fatalf("at the seal: %+v, %v", first, err)
	}
	trees := signed(t, &pb.Record{RunId: "run-1", Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{}}})
	again, err := s.run("run-1", []*record.Decoded{req, seal, trees}, trees)
	if err != nil || again.Criteria != first.Criteria {
		t.Fatalf("the seal was parsed again (%p, then %p): %v", first.Criteria, again.Criteria, err)
	}
	if !again.Has(pb.Kind_KIND_TREES_MATERIALIZED) || again.Has(pb.Kind_KIND_TREES_MATERIALIZED, "sealgate/checkout") || !again.Has(pb.Kind_KIND_TREES_MATERIALIZED, "sealgate/gateway") {
		t.Fatal("Has does not tell the records (and their producers) apart")
	}
	verdict := signed(t, &pb.Record{RunId: "run-1", Body: &pb.Record_VerdictReached{VerdictReached: &pb.VerdictReached{}}})
	if _, err := s.run("run-1", []*record.Decoded{req, seal, trees, verdict}, verdict); err != nil {
		t.Fatal(err)
	}
	if _, kept := s.parsed["run-1"]; kept {
		t.Fatal("the parse outlives the run's verdict")
	}

	bad := sealRecord(t, "run-2", []byte(`{"run_id": "run-2", "unknown": 1}`))
	_, err = s.run("run-2", []*record.Decoded{bad}, bad)
	if err == nil || !IsPermanent(err) {
		t.Fatalf("a seal that does not parse: %v, want a permanent error", err)
	}
	if got := s.runs(map[string][]*record.Decoded{"run-1": {req, seal}, "run-2": {bad}}); len(got) != 1 || !got["run-1"].Sealed() {
		t.Fatalf("a tick's runs: %v", got)
	}
}

// TestRefused: a refusal is recognised however it is wrapped, and only a
// refusal is ignored.
func TestRefused(t *testing.T) {
	refused := fmt.Errorf("emit: %w", &RefusedError{Err: errors.New("no")})
	if !Refused(refused) || IgnoreRefused(refused) != nil {
		t.Fatal("a wrapped refusal is not recognised")
	}
	other := errors.New("transport")
	if Refused(other) || IgnoreRefused(other) != other || IgnoreRefused(nil) != nil {
		t.Fatal("another error is taken for a refusal")
	}
}
