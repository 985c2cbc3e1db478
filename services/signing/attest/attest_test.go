package attest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

const (
	patchDigest = "5b9a8f0e6c7d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f"
	baseCommit  = "6a7e9ed6f386c1d2e3f4a5b6c7d8e9f0a1b2c3d4"
)

func artefact() *adjudication.Artefact {
	ratio := 1.0
	tests := 5
	return &adjudication.Artefact{
		Schema: adjudication.ArtefactSchema, RunID: "run-1", Decision: adjudication.Merge,
		Reason: "MERGE: fixed", Reasons: []string{"MERGE: fixed"}, FixProven: true,
		ClaimsFixed: []string{"go:./calc:TestMedian"}, CriteriaDigest: strings.Repeat("c", 64),
		Baseline: adjudication.TreeRef{Commit: baseCommit, TreeDigest: strings.Repeat("b", 64)},
		Patch:    adjudication.PatchRef{Digest: patchDigest, TreeDigest: strings.Repeat("d", 64)},
		Claims: []adjudication.ArtefactClaim{{
			ID: "go:./calc:TestMedian", Outcome: adjudication.Verified, Classification: "fixed", Oracle: "baseline",
			Baseline: &adjudication.SideRef{Outcome: "FAIL"}, Patch: &adjudication.SideRef{Outcome: "PASS"},
		}},
		Collateral: adjudication.CollateralRef{Patch: &adjudication.SideRef{Outcome: "PASS"}, Tests: &tests},
		Coverage:   adjudication.CoverageRef{Source: "computed", Ratio: &ratio, Floor: 1},
	}
}

// sealed signs and logs a statement set and returns its bundle and the
// keys that check it.
type sealed struct {
	bundle *Bundle
	key    []byte // verdict public key, PEM
	logKey []byte // note verifier key
}

func seal(t *testing.T, l *embedded.Log, alg Algorithm, a *adjudication.Artefact) sealed {
	t.Helper()
	ctx := context.Background()
	priv, pub, err := GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSigner(priv)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Attest(ctx, s, Input{Artefact: a, ArtefactSHA256: strings.Repeat("a", 64), Evidence: []string{strings.Repeat("e", 64)}, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Append(ctx, tlog.Submission{Envelope: st.Verdict, PublicKeyPEM: pub})
	if err != nil {
		t.Fatal(err)
	}
	return sealed{
		bundle: &Bundle{MediaType: BundleMediaType, Verdict: st.Verdict, TestResults: st.TestResults, PublicKey: string(pub), Tlog: p},
		key:    pub, logKey: []byte(l.VerifierKey()),
	}
}

func openLog(t *testing.T) *embedded.Log {
	t.Helper()
	l, err := embedded.Open(context.Background(), t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// clone deep-copies a bundle through its JSON form.
func clone(t *testing.T, b *Bundle) *Bundle {
	t.Helper()
	raw, err := b.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadBundle(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestVerifyAcceptsASealedVerdict(t *testing.T) {
	l := openLog(t)
	for _, alg := range []Algorithm{Ed25519, ECDSAP256} {
		t.Run(string(alg), func(t *testing.T) {
			s := seal(t, l, alg, artefact())
			rep := Verify(context.Background(), clone(t, s.bundle), Expect{Key: s.key, LogKey: s.logKey, PatchSHA256: patchDigest, BaselineCommit: baseCommit})
			if f := rep.Failed(); f != nil {
				t.Fatalf("check %s failed: %s", f.Name, f.Detail)
			}
			if len(rep.Checks) != len(Checks()) {
				t.Fatalf("%d checks ran, want %d", len(rep.Checks), len(Checks()))
			}
			if rep.Verdict.Decision != "MERGE" || rep.Verdict.Measurements.Claims[0].Baseline != "FAIL" {
				t.Fatalf("predicate: %+v", rep.Verdict)
			}
		})
	}
}

// The refusals issue #5 names, each by its check.
func TestVerifyRefusesEachTampering(t *testing.T) {
	ctx := context.Background()
	l := openLog(t)
	a := seal(t, l, Ed25519, artefact())
	b := seal(t, l, Ed25519, artefact()) // another entry, another key
	want := Expect{Key: a.key, LogKey: a.logKey, PatchSHA256: patchDigest, BaselineCommit: baseCommit}

	otherLogSigner, otherLogKey := newNoteKey(t, strings.SplitN(string(a.logKey), "+", 2)[0])
	cases := []struct {
		name   string
		tamper func(*Bundle)
		expect func(*Expect)
		check  string
	}{
		{"flipped byte in the payload", func(x *Bundle) {
			p, _ := base64.StdEncoding.DecodeString(x.Verdict.Payload)
			p[len(p)/2] ^= 0x01
			x.Verdict.Payload = base64.StdEncoding.EncodeToString(p)
		}, nil, CheckSignature},
		{"signature by another key", func(x *Bundle) { x.Verdict.Signatures = clone(t, b.bundle).Verdict.Signatures }, nil, CheckSignature},
		{"verdict key not the one trusted", nil, func(e *Expect) { e.Key = b.key }, CheckSignature},
		{"subject does not match the patch", nil, func(e *Expect) { e.PatchSHA256 = strings.Repeat("0", 64) }, CheckSubject},
		{"subject does not match the baseline", nil, func(e *Expect) { e.BaselineCommit = strings.Repeat("1", 40) }, CheckSubject},
		{"companion statement swapped", func(x *Bundle) { x.TestResults[1] = x.TestResults[0] }, nil, CheckTestResults},
		{"companion statement dropped", func(x *Bundle) { x.TestResults = x.TestResults[:1] }, nil, CheckTestResults},
		{"logged leaf of another entry", func(x *Bundle) { x.Tlog.Leaf = clone(t, b.bundle).Tlog.Leaf }, nil, CheckLogEntry},
		{"inclusion proof for another entry", func(x *Bundle) {
			o := clone(t, b.bundle).Tlog
			x.Tlog.Index, x.Tlog.TreeSize, x.Tlog.Hashes, x.Tlog.RootHash, x.Tlog.Checkpoint = o.Index, o.TreeSize, o.Hashes, o.RootHash, o.Checkpoint
		}, nil, CheckInclusion},
		{"checkpoint signed by another log key", func(x *Bundle) {
			x.Tlog.Checkpoint = resign(t, x.Tlog.Checkpoint, otherLogSigner)
		}, nil, CheckCheckpoint},
		{"log key not the one trusted", nil, func(e *Expect) { e.LogKey = []byte(otherLogKey) }, CheckCheckpoint},
		{"no log proof", func(x *Bundle) { x.Tlog = nil }, nil, CheckLogEntry},
		{"not in-toto", func(x *Bundle) { x.Verdict.PayloadType = "text/plain" }, nil, CheckEnvelope},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := clone(t, a.bundle)
			if c.tamper != nil {
				c.tamper(x)
			}
			w := want
			if c.expect != nil {
				c.expect(&w)
			}
			rep := Verify(ctx, x, w)
			f := rep.Failed()
			if f == nil {
				t.Fatalf("tampered bundle verified: %+v", rep.Checks)
			}
			if f.Name != c.check {
				t.Fatalf("failed check %q (%s), want %q", f.Name, f.Detail, c.check)
			}
		})
	}
}

// A statement is one byte string for one verdict: canonical JSON, and
// Ed25519 signatures are deterministic.
func TestStatementsAreDeterministic(t *testing.T) {
	priv, _, err := GenerateKey(Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSigner(priv)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Artefact: artefact(), ArtefactSHA256: strings.Repeat("a", 64), Version: "test"}
	x, err := Attest(context.Background(), s, in)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Attest(context.Background(), s, in)
	if err != nil {
		t.Fatal(err)
	}
	dx, _ := EnvelopeDigest(x.Verdict)
	dy, _ := EnvelopeDigest(y.Verdict)
	if dx != dy {
		t.Fatal("two attestations of one verdict differ")
	}
	payload, _ := x.Verdict.DecodeB64Payload()
	var st map[string]any
	if err := json.Unmarshal(payload, &st); err != nil {
		t.Fatal(err)
	}
	if st["_type"] != "https://in-toto.io/Statement/v1" || st["predicateType"] != VerdictPredicateType {
		t.Fatalf("statement header: %v %v", st["_type"], st["predicateType"])
	}
	// Nothing the baseline ran is never PASSED.
	tr := testResult(&adjudication.Artefact{}, SubjectBaseline)
	if tr.Result != "FAILED" {
		t.Fatalf("an empty run is %s, want FAILED", tr.Result)
	}
}

func TestParseSignerNeverQuotesTheKey(t *testing.T) {
	priv, _, err := GenerateKey(Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(priv, []byte("PRIVATE KEY"), []byte("PRIVATE KEX"), 1)
	_, err = ParseSigner(broken)
	if err == nil {
		t.Fatal("a broken key parsed")
	}
	body := strings.Split(string(priv), "\n")[1]
	if strings.Contains(err.Error(), body[:20]) {
		t.Fatalf("the error quotes the key: %v", err)
	}
}

func newNoteKey(t *testing.T, name string) (note.Signer, string) {
	t.Helper()
	skey, vkey, err := note.GenerateKey(rand.Reader, name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := note.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	return s, vkey
}

func resign(t *testing.T, checkpoint string, s note.Signer) string {
	t.Helper()
	body := checkpoint[:strings.Index(checkpoint, "\n\n")+1]
	out, err := note.Sign(&note.Note{Text: body}, s)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func FuzzReadBundle(f *testing.F) {
	f.Add([]byte(`{"mediaType":"` + BundleMediaType + `","verdict":{"payloadType":"x","payload":"","signatures":[]}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"mediaType":"` + BundleMediaType + `","verdict":{"payloadType":"application/vnd.in-toto+json","payload":"e30=","signatures":[{"keyid":"","sig":"AA=="}]},"testResults":[],"tlog":{"kind":"embedded","log_id":"","log_index":0,"tree_size":1,"root_hash":"","inclusion_proof":[],"checkpoint":"","leaf":""}}`))
	// Duplicate and case-variant keys at several depths, trailing data.
	f.Add([]byte(`{"mediaType":"` + BundleMediaType + `","verdict":{"payloadType":"x","payload":"","signatures":[]},"VERDICT":{"payloadType":"y","payload":"","signatures":[]}}`))
	f.Add([]byte(`{"mediaType":"` + BundleMediaType + `","verdict":{"payloadType":"x","payload":"","signatures":[{"keyid":"a","keyid":"b","sig":""}]}}`))
	f.Add([]byte(`{"mediaType":"` + BundleMediaType + `","verdict":{"payloadType":"x","payload":"","signatures":[]},"tlog":{"kind":"embedded","Kind":"rekor"}}`))
	f.Add([]byte(`{"mediaType":"` + BundleMediaType + `","verdict":{"payloadType":"x","payload":"","signatures":[]}}}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`))
	priv, pub, err := GenerateKey(Ed25519)
	if err != nil {
		f.Fatal(err)
	}
	_ = priv
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadBundle(data)
		if err != nil {
			return
		}
		// What parses strictly has no key encoding/json would fold or
		// drop: it survives a round trip through the struct unchanged in
		// meaning, so a second reading agrees with the first.
		again, err := b.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		b2, err := ReadBundle(again)
		if err != nil {
			t.Fatalf("a bundle that parsed does not parse once re-marshalled: %v", err)
		}
		if x, y := mustJSON(t, b), mustJSON(t, b2); !bytes.Equal(x, y) {
			t.Fatalf("re-reading changed the bundle:\n%s\n%s", x, y)
		}
		// Whatever parses must be checked without a panic, and never pass:
		// no fuzzed bundle carries a signature by this key.
		rep := Verify(context.Background(), b, Expect{Key: pub, LogKey: []byte("x+00000000+AQ"), PatchSHA256: patchDigest})
		if rep.Failed() == nil {
			t.Fatal("a fuzzed bundle verified")
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
