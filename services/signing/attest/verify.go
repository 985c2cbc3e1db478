package attest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"golang.org/x/mod/sumdb/note"

	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
	"github.com/sealgate/sealgate/services/signing/tlog/rekor"
)

// The checks of Verify, in order. Each one names what failed.
const (
	CheckEnvelope    = "envelope"
	CheckSignature   = "signature"
	CheckStatement   = "statement"
	CheckSubject     = "subject"
	CheckTestResults = "test-results"
	CheckLogEntry    = "log-entry"
	CheckInclusion   = "inclusion"
	CheckCheckpoint  = "checkpoint"
)

// Checks lists every check in the order Verify runs them.
func Checks() []string {
	return []string{CheckEnvelope, CheckSignature, CheckStatement, CheckSubject, CheckTestResults, CheckLogEntry, CheckInclusion, CheckCheckpoint}
}

// Expect is what the verifier holds independently of the bundle.
type Expect struct {
	// Key is the verdict public key (PEM).
	Key []byte
	// LogKey is the log's key: a note verifier key (an embedded log's
	// log.pub) or a PEM public key (Rekor's).
	LogKey []byte
	// PatchSHA256 is the hex SHA-256 of the patch's bytes.
	PatchSHA256 string
	// BaselineCommit, when set, must be the baseline subject.
	BaselineCommit string
}

// Check is one check's outcome.
type Check struct {
	Name   string `json:"check"`
	Passed bool   `json:"passed"`
	Detail string `json:"detail"`
}

// Report is every check Verify ran; it stops at the first failure.
type Report struct {
	Checks  []Check  `json:"checks"`
	Verdict *Verdict `json:"verdict,omitempty"`
	LogKind string   `json:"log,omitempty"`
	Index   uint64   `json:"log_index"`
}

// Failed returns the failing check, if any.
func (r *Report) Failed() *Check {
	for i := range r.Checks {
		if !r.Checks[i].Passed {
			return &r.Checks[i]
		}
	}
	return nil
}

// Verify checks a bundle offline.
func Verify(ctx context.Context, b *Bundle, want Expect) *Report {
	r := &Report{}
	pass := func(name, format string, args ...any) {
		r.Checks = append(r.Checks, Check{Name: name, Passed: true, Detail: fmt.Sprintf(format, args...)})
	}
	fail := func(name, format string, args ...any) *Report {
		// One line, whatever the libraries put in their errors.
		detail := strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " ")
		r.Checks = append(r.Checks, Check{Name: name, Detail: detail})
		return r
	}

	env := b.Verdict
	if env == nil || env.PayloadType != PayloadType || len(env.Signatures) == 0 {
		return fail(CheckEnvelope, "the verdict is not a DSSE envelope of %s with a signature", PayloadType)
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return fail(CheckEnvelope, "payload: %v", err)
	}
	pass(CheckEnvelope, "DSSE, %s, %d signature(s)", env.PayloadType, len(env.Signatures))

	v, err := ParseVerifier(want.Key)
	if err != nil {
		return fail(CheckSignature, "verdict key: %v", err)
	}
	ev, err := dsse.NewEnvelopeVerifier(v)
	if err != nil {
		return fail(CheckSignature, "%v", err)
	}
	kid, _ := v.KeyID()
	if _, err := ev.Verify(ctx, env); err != nil {
		return fail(CheckSignature, "no signature by key %.16s… verifies over the payload (%v)", kid, err)
	}
	pass(CheckSignature, "%s key %.16s…", v.Algorithm(), kid)

	st, err := ParseStatement(payload)
	if err != nil {
		return fail(CheckStatement, "%v", err)
	}
	if st.PredicateType != VerdictPredicateType {
		return fail(CheckStatement, "predicate type %q, want %q", st.PredicateType, VerdictPredicateType)
	}
	pred, err := predicate[Verdict](st.Predicate.AsMap())
	if err != nil {
		return fail(CheckStatement, "verdict predicate: %v", err)
	}
	r.Verdict = pred
	pass(CheckStatement, "in-toto Statement v1, %s: %s", VerdictPredicateType, pred.Decision)

	var patch, base string
	for _, s := range st.Subject {
		switch s.GetName() {
		case SubjectPatch:
			patch = s.GetDigest()["sha256"]
		case SubjectBaseline:
			base = s.GetDigest()["gitCommit"]
		}
	}
	switch {
	case want.PatchSHA256 == "":
		return fail(CheckSubject, "no patch given to check the subject against")
	case patch != strings.ToLower(want.PatchSHA256):
		return fail(CheckSubject, "the verdict is for patch sha256:%.16s…, the patch given is sha256:%.16s…", patch, want.PatchSHA256)
	case want.BaselineCommit != "" && base != strings.ToLower(want.BaselineCommit):
		return fail(CheckSubject, "the verdict is for baseline %.12s, the baseline given is %.12s", base, want.BaselineCommit)
	}
	if want.BaselineCommit != "" {
		pass(CheckSubject, "patch sha256:%.16s…, baseline %.12s", patch, base)
	} else {
		pass(CheckSubject, "patch sha256:%.16s… (baseline %.12s not checked: no --base given)", patch, base)
	}

	if err := checkTestResults(ctx, ev, b.TestResults, pred.TestResults); err != nil {
		return fail(CheckTestResults, "%v", err)
	}
	pass(CheckTestResults, "%d companion test-result statements, signed and named by digest", len(b.TestResults))

	p := b.Tlog
	if p == nil {
		return fail(CheckLogEntry, "the bundle carries no transparency-log proof")
	}
	r.LogKind, r.Index = p.Kind, p.Index
	switch p.Kind {
	case tlog.KindEmbedded:
		leaf, err := tlog.EnvelopeLeaf(env)
		if err != nil {
			return fail(CheckLogEntry, "%v", err)
		}
		if !bytes.Equal(leaf, p.Leaf) {
			return fail(CheckLogEntry, "the logged leaf is not this envelope's")
		}
	case tlog.KindRekor:
		if err := rekor.VerifyEntry(p, env, want.Key); err != nil {
			return fail(CheckLogEntry, "%v", err)
		}
	default:
		return fail(CheckLogEntry, "unknown log kind %q", p.Kind)
	}
	pass(CheckLogEntry, "%s entry binds this envelope", p.Kind)

	if err := tlog.VerifyInclusion(p); err != nil {
		return fail(CheckInclusion, "%s", tlog.OneLine(err))
	}
	pass(CheckInclusion, "leaf %d of %d reaches root %.16s…", p.Index, p.TreeSize, p.RootHash)

	logKey := bytes.TrimSpace(want.LogKey)
	isPEM := bytes.HasPrefix(logKey, []byte("-----BEGIN"))
	switch {
	case p.Kind == tlog.KindEmbedded && isPEM:
		return fail(CheckCheckpoint, "an embedded log's checkpoints are checked with its note verifier key (log.pub), not a PEM key")
	case !isPEM && p.Kind != tlog.KindEmbedded:
		return fail(CheckCheckpoint, "a Rekor log's checkpoints are checked with its PEM public key")
	}
	// The log the bundle names must be the one whose key is given.
	id, err := LogIDOf(logKey)
	if err != nil {
		return fail(CheckCheckpoint, "log key: %v", err)
	}
	if !strings.EqualFold(p.LogID, id) {
		return fail(CheckCheckpoint, "the bundle names log %.16s…, the log key given is log %.16s…", p.LogID, id)
	}
	if p.Kind == tlog.KindEmbedded {
		err = embedded.VerifyCheckpoint(p, string(logKey))
	} else {
		err = rekor.VerifyCheckpoint(ctx, p, logKey)
	}
	if err != nil {
		return fail(CheckCheckpoint, "%v", err)
	}
	pass(CheckCheckpoint, "signed by the log key, tree size %d", p.TreeSize)
	return r
}

// checkTestResults checks that the companions are signed by the verdict key
// and are exactly the ones the verdict names.
func checkTestResults(ctx context.Context, ev *dsse.EnvelopeVerifier, got []*dsse.Envelope, named []TestResultRef) error {
	if len(got) != len(named) || len(named) != 2 {
		return fmt.Errorf("%d companion statements in the bundle, the verdict names %d (want 2)", len(got), len(named))
	}
	for i, env := range got {
		d, err := EnvelopeDigest(env)
		if err != nil {
			return err
		}
		if d != named[i].EnvelopeSHA256 {
			return fmt.Errorf("the %s test-result statement is not the one the verdict names", named[i].Side)
		}
		if _, err := ev.Verify(ctx, env); err != nil {
			return fmt.Errorf("the %s test-result statement's signature: %v", named[i].Side, err)
		}
		payload, _ := env.DecodeB64Payload()
		st, err := ParseStatement(payload)
		if err != nil || st.PredicateType != TestResultPredicateType {
			return fmt.Errorf("the %s test-result statement is not a %s statement", named[i].Side, TestResultPredicateType)
		}
	}
	return nil
}

func predicate[T any](m map[string]any) (*T, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var t T
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	return &t, nil
}

// LogIDOf is the id of the log whose key is given: for an embedded log's
// note verifier key, the SHA-256 of the key text (embedded.LogID); for a
// PEM public key (Rekor's), the SHA-256 of its DER encoding, as Rekor
// names its log.
func LogIDOf(logKey []byte) (string, error) {
	logKey = bytes.TrimSpace(logKey)
	if !bytes.HasPrefix(logKey, []byte("-----BEGIN")) {
		if _, err := note.NewVerifier(string(logKey)); err != nil {
			return "", fmt.Errorf("not a note verifier key: %w", err)
		}
		return embedded.LogID(string(logKey)), nil
	}
	block, _ := pem.Decode(logKey)
	if block == nil {
		return "", fmt.Errorf("no PEM block")
	}
	if _, err := x509.ParsePKIXPublicKey(block.Bytes); err != nil {
		return "", err
	}
	sum := sha256.Sum256(block.Bytes)
	return hex.EncodeToString(sum[:]), nil
}
