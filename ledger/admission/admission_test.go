package admission_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// fixture is a key ring, its trust policy's admission verifier, the
// guard's admission signer and two runs of records.
type fixture struct {
	dir    string
	keys   *keyring.Keyring
	v      *admission.Verifier
	signer *admission.Signer
	a, b   *scenario.Run
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	keys, err := keyring.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, keys: keys, v: admission.NewVerifier(trust), signer: signerOf(t, dir, keyring.Ledger)}
	b := scenario.NewBuilder(keys, nil)
	if f.a, err = b.NewRun("run-a", 2); err != nil {
		t.Fatal(err)
	}
	if f.b, err = b.NewRun("run-b", 2); err != nil {
		t.Fatal(err)
	}
	return f
}

func signerOf(t testing.TB, dir, identity string) *admission.Signer {
	t.Helper()
	key, err := keyring.ReadKey(filepath.Join(dir, keyring.FileName(identity)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := admission.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// admitAll admits recs in order as the guard does and returns each one's
// admission header.
func admitAll(s *admission.Signer, recs []*record.Decoded) []string {
	heads := map[string]admission.Head{}
	out := make([]string, len(recs))
	for i, r := range recs {
		id := r.Record.GetRunId()
		prev := heads[id]
		next := prev.Next(id, r.Digest)
		heads[id] = next
		out[i] = s.Sign(prev, next).String()
	}
	return out
}

func encoded(t testing.TB, r *record.Decoded) []byte {
	t.Helper()
	b, err := r.Encoded()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wantCode(t *testing.T, name string, err error, code string) {
	t.Helper()
	var r *admission.Refusal
	if !errors.As(err, &r) || r.Code != code {
		t.Errorf("%s: got %v, want a refusal %s", name, err, code)
	}
}

// The honest twin: every record the guard admits checks, at its place.
func TestCheckHonest(t *testing.T) {
	f := newFixture(t)
	recs := f.a.Records()
	headers := admitAll(f.signer, recs)
	head := admission.Head{}
	for i, r := range recs {
		a, err := f.v.Check(headers[i], encoded(t, r))
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if a.Seq != uint64(i+1) || !a.Follows(head) || a.Record.Digest != r.Digest || a.RunID() != f.a.ID {
			t.Fatalf("record %d: place %d, follows %v", i, a.Seq, a.Follows(head))
		}
		head = a.Head()
	}
}

// Each way a message can pretend to be admitted is refused for its reason.
func TestCheckAttacks(t *testing.T) {
	f := newFixture(t)
	recs := f.a.Records()
	headers := admitAll(f.signer, recs)
	plan := encoded(t, f.a.Plan)
	planHeader := headers[3]

	// A job.result signed by a key nobody trusts, in the executor's name.
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	forger, err := record.NewSigner(keyring.Executor, key)
	if err != nil {
		t.Fatal(err)
	}
	res := f.a.Results[0].Record
	forged, err := forger.Sign(&pb.Record{RunId: res.RunId, CriteriaDigest: res.CriteriaDigest, Parents: res.Parents, Token: res.Token,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: res.GetJobResult().JobId, ExitCode: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	forgedRaw := encoded(t, forged)
	rogue, err := admission.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	// Its own admission, by its own key, at the result's place.
	selfAdmitted := admitAll(rogue, append(recs[:4:4], forged))[4]
	// An admission naming the ledger's key id, signed by the rogue key.
	parsed, err := admission.Parse(selfAdmitted)
	if err != nil {
		t.Fatal(err)
	}
	parsed.KeyID = f.signer.KeyID()
	namesLedger := parsed.String()
	// An admission by a key the policy trusts, but not as the ledger's.
	executorAdmitted := admitAll(signerOf(t, f.dir, keyring.Executor), recs)[3]
	// The plan's genuine admission at another place.
	moved, err := admission.Parse(planHeader)
	if err != nil {
		t.Fatal(err)
	}
	moved.Seq++
	// A record of run b, admitted there, replayed under run a's admission
	// and the other way round.
	bHeaders := admitAll(f.signer, f.b.Records())

	for _, tc := range []struct {
		name, header string
		payload      []byte
		code         string
	}{
		{"garbage payload", planHeader, []byte("\x00not a record"), admission.CodeUndecodable},
		{"empty payload", planHeader, nil, admission.CodeUndecodable},
		{"no admission", "", plan, admission.CodeUnadmitted},
		{"forged record without admission", "", forgedRaw, admission.CodeUnadmitted},
		{"forged record, admitted by its own key", selfAdmitted, forgedRaw, admission.CodeUnknownKey},
		{"forged record, forged admission naming the ledger key", namesLedger, forgedRaw, admission.CodeBadSignature},
		{"forged record under a genuine admission", headers[4], forgedRaw, admission.CodeBadSignature},
		{"admission by a trusted non-ledger key", executorAdmitted, plan, admission.CodeUnknownKey},
		{"genuine admission of another record", headers[2], plan, admission.CodeBadSignature},
		{"genuine admission moved to another place", moved.String(), plan, admission.CodeBadSignature},
		{"record of another run under this run's admission", planHeader, encoded(t, f.b.Plan), admission.CodeBadSignature},
		{"record of this run under another run's admission", bHeaders[3], plan, admission.CodeBadSignature},
		{"truncated admission", planHeader[:len(planHeader)-2], plan, admission.CodeMalformed},
		{"uppercase admission", strings.ToUpper(planHeader), plan, admission.CodeMalformed},
	} {
		a, err := f.v.Check(tc.header, tc.payload)
		if a != nil {
			t.Errorf("%s: admitted", tc.name)
		}
		wantCode(t, tc.name, err, tc.code)
	}
	// An empty trust policy trusts no guard.
	if _, err := admission.NewVerifier(nil).Check(planHeader, plan); admission.CodeOf(err) != admission.CodeUnknownKey {
		t.Errorf("nil trust: %v", err)
	}
}

func TestParseIsStrict(t *testing.T) {
	f := newFixture(t)
	good := admitAll(f.signer, f.a.Records())[1]
	if a, err := admission.Parse(good); err != nil || a.String() != good {
		t.Fatalf("Parse(%q) = %v, %v", good, a, err)
	}
	fields := strings.Split(good, " ")
	with := func(i int, v string) string {
		g := append([]string{}, fields...)
		g[i] = v
		return strings.Join(g, " ")
	}
	for name, s := range map[string]string{
		"empty":             "",
		"v2":                with(0, "v2"),
		"seq 0":             with(1, "0"),
		"leading zero":      with(1, "02"),
		"signed seq":        with(1, "+2"),
		"seq overflow":      with(1, "18446744073709551616"),
		"short prev":        with(2, fields[2][2:]),
		"uppercase key":     with(3, strings.ToUpper(fields[3])),
		"short signature":   with(4, fields[4][:126]),
		"two spaces":        strings.Replace(good, " ", "  ", 1),
		"trailing space":    good + " ",
		"six fields":        good + " x",
		"tab":               strings.Replace(good, " ", "\t", 1),
		"non-hex signature": with(4, "g"+fields[4][1:]),
		"huge":              strings.Repeat("1", 1<<16),
	} {
		if _, err := admission.Parse(s); admission.CodeOf(err) != admission.CodeMalformed {
			t.Errorf("%s: %v, want malformed", name, err)
		}
	}
}

// checked admits recs and checks them, returning their Admitted forms.
func checked(t *testing.T, f *fixture, recs []*record.Decoded) []*admission.Admitted {
	t.Helper()
	headers := admitAll(f.signer, recs)
	out := make([]*admission.Admitted, len(recs))
	for i, r := range recs {
		a, err := f.v.Check(headers[i], encoded(t, r))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

func digests(as []*admission.Admitted) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Record.Digest[:8])
	}
	return out
}

// Chain: in order, duplicates dropped, early records wait for their
// predecessors (reordering), a gap keeps what follows it out.
func TestChainOrdersAndDeduplicates(t *testing.T) {
	f := newFixture(t)
	as := checked(t, f, f.a.Records())
	c := admission.NewChain(f.a.ID)
	var got []*admission.Admitted
	add := func(a *admission.Admitted) {
		t.Helper()
		placed, err := c.Add(a)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, placed...)
	}
	add(as[0])
	add(as[0]) // a duplicate
	add(as[3]) // early: waits
	add(as[2]) // early: waits
	if len(got) != 1 || len(c.Waiting()) != 2 {
		t.Fatalf("placed %d, %d waiting; want 1 and 2", len(got), len(c.Waiting()))
	}
	add(as[3]) // a duplicate of a waiting one
	add(as[1]) // fills the gap: 1, 2, 3 follow
	add(as[2]) // a duplicate
	if len(got) != 4 || len(c.Waiting()) != 0 || c.Head().Seq != 4 {
		t.Fatalf("placed %v, %d waiting, head %d", digests(got), len(c.Waiting()), c.Head().Seq)
	}
	for i, a := range got {
		if a.Seq != uint64(i+1) {
			t.Fatalf("placed out of order: %v", digests(got))
		}
	}
	// Truncation: place 5 never comes; what follows it never shows.
	add(as[6])
	add(as[5])
	if c.Head().Seq != 4 || len(c.Waiting()) != 2 {
		t.Fatalf("head %d with %d waiting after a gap", c.Head().Seq, len(c.Waiting()))
	}
}

// Genuine admissions that contradict the chain (a guard that forked) are
// refused; another run's record is refused by this run's chain.
func TestChainRefusesForks(t *testing.T) {
	f := newFixture(t)
	recs := f.a.Records()
	as := checked(t, f, recs)
	// A second history of the run: the same first three records, then
	// others (as a guard that lost its state would write).
	alt := append(append([]*record.Decoded{}, recs[:3]...), recs[5], recs[4])
	bs := checked(t, f, alt)
	c := admission.NewChain(f.a.ID)
	for _, a := range as[:5] {
		if _, err := c.Add(a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Add(bs[3]); admission.CodeOf(err) != admission.CodeFork {
		t.Errorf("another record at a taken place: %v", err)
	}
	if _, err := c.Add(checked(t, f, f.b.Records()[:1])[0]); admission.CodeOf(err) != admission.CodeFork {
		t.Errorf("another run's record: %v", err)
	}
	// A waiting record at a place claimed twice.
	w := admission.NewChain(f.a.ID)
	if _, err := w.Add(as[3]); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(bs[3]); admission.CodeOf(err) != admission.CodeFork {
		t.Errorf("two waiting records at one place: %v", err)
	}
	// A record at the next place that names another predecessor.
	p := admission.NewChain(f.a.ID)
	for _, a := range bs[:4] {
		if _, err := p.Add(a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Add(as[4]); admission.CodeOf(err) != admission.CodeFork {
		t.Errorf("another predecessor: %v", err)
	}
}

// Chains keeps one chain per run and reports their heads.
func TestChainsHeads(t *testing.T) {
	f := newFixture(t)
	cs := admission.NewChains()
	for _, a := range append(checked(t, f, f.a.Records()), checked(t, f, f.b.Records()[:3])...) {
		if _, err := cs.Add(a); err != nil {
			t.Fatal(err)
		}
	}
	h := cs.Heads()
	if h[f.a.ID].Seq != uint64(len(f.a.Records())) || h[f.b.ID].Seq != 3 || len(h) != 2 {
		t.Fatalf("heads %v", h)
	}
}

func BenchmarkSign(b *testing.B) {
	f := newFixture(b)
	head := admission.Head{}
	for b.Loop() {
		next := head.Next(f.a.ID, f.a.Plan.Digest)
		_ = f.signer.Sign(head, next).String()
		head = next
	}
}

func BenchmarkCheck(b *testing.B) {
	f := newFixture(b)
	header := admitAll(f.signer, f.a.Records())[3]
	raw := encoded(b, f.a.Plan)
	for b.Loop() {
		if _, err := f.v.Check(header, raw); err != nil {
			b.Fatal(err)
		}
	}
}
