package authority_test

import (
	"testing"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/keyring"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// TestRunFailedIsAdmittedOnlyAsAServiceFailure: a service may say it failed
// on a run, naming the record it failed on as its parent; the gateway may
// not, a failure that consumes a token or names another record is
// malformed, and after the seal of the verdict nothing is added.
func TestRunFailedIsAdmittedOnlyAsAServiceFailure(t *testing.T) {
	f := newFixture(t, 1)
	failed := func(identity, parent, failedRecord, token, reason string) []byte {
		t.Helper()
		rec, err := f.b.Sign(identity, &pb.Record{
			RunId: f.run.ID, CriteriaDigest: f.run.Sealed.Digest, Parents: []string{parent}, Token: token,
			Body: &pb.Record_RunFailed{RunFailed: &pb.RunFailed{Service: "checkout", FailedKind: "criteria.sealed", FailedRecord: failedRecord, Reason: reason, Attempts: 4}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return encode(t, rec)
	}
	seal := f.run.Seal.Digest
	cases := []struct {
		name                                 string
		identity, parent, failed, token, why string
		code                                 string
	}{
		{"the checkout's failure on the seal", keyring.Checkout, seal, seal, "", "git: object not found", ""},
		{"the gateway may not say it", keyring.Gateway, seal, seal, "", "x", authority.CodeUnauthorizedKind},
		{"no reason", keyring.Checkout, seal, seal, "", "", authority.CodeMalformed},
		{"the failed record is not its parent", keyring.Checkout, seal, f.run.Request.Digest, "", "x", authority.CodeMalformed},
		{"a token consumed", keyring.Executor, seal, seal, "t-1", "x", authority.CodeMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := authority.New(f.trust)
			admitAll(t, s, f.run.Request, f.run.Seal)
			d := s.Admit(failed(c.identity, c.parent, c.failed, c.token, c.why))
			switch {
			case c.code == "" && d.Outcome != authority.Accepted:
				t.Fatalf("refused: %s: %s", d.Code, d.Detail)
			case c.code != "" && (d.Outcome != authority.Refused || d.Code != c.code):
				t.Fatalf("got %v %s (%s), want refused for %s", d.Outcome, d.Code, d.Detail, c.code)
			}
		})
	}
	// A sealed run takes nothing more, a failure included.
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()...)
	sealed, err := f.b.Sign(keyring.Signing, &pb.Record{RunId: f.run.ID, CriteriaDigest: f.run.Sealed.Digest, Parents: []string{f.run.Verdict.Digest},
		Body: &pb.Record_VerdictSealed{VerdictSealed: &pb.VerdictSealed{LogId: "l", LogIndex: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	admitAll(t, s, sealed)
	if d := s.Admit(failed(keyring.Checkout, seal, seal, "", "late")); d.Outcome != authority.Refused || d.Code != authority.CodeRunClosed {
		t.Fatalf("a failure after the seal: %v %s, want refused for %s", d.Outcome, d.Code, authority.CodeRunClosed)
	}
}
