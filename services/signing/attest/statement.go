// Package attest turns a verdict into evidence a third party checks without
// trusting sealgate: an in-toto Statement v1 whose subjects are the patch
// and the baseline, in a DSSE envelope signed with the verdict key, plus
// two companion in-toto test-result statements (baseline run, patch run);
// and it checks such a bundle offline — envelope, signature, statement,
// subject, companions, log entry, inclusion proof and checkpoint — naming
// the first check that fails.
package attest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	ita "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/sealgate/sealgate/ledger/canonical"
	"github.com/sealgate/sealgate/services/adjudication"
)

// Types of what is signed.
const (
	PayloadType             = "application/vnd.in-toto+json"
	VerdictPredicateType    = "https://sealgate.dev/attestation/verdict/v1"
	TestResultPredicateType = "https://in-toto.io/attestation/test-result/v0.1"
)

// Subject names.
const (
	SubjectPatch    = "patch"
	SubjectBaseline = "baseline"
)

// Verdict is the predicate of a verdict statement.
type Verdict struct {
	Decision       string   `json:"decision"`
	Reason         string   `json:"reason"`
	Reasons        []string `json:"reasons"`
	FixProven      bool     `json:"fixProven"`
	ClaimsFixed    []string `json:"claimsFixed"`
	RunID          string   `json:"runId"`
	CriteriaDigest string   `json:"criteriaDigest"`
	// Evidence lists the digests of every ledger record the decision used.
	Evidence []string `json:"evidence"`
	// ArtefactSHA256 is the digest of the run's JSON artefact, which holds
	// every measurement in full.
	ArtefactSHA256 string       `json:"artefactSha256"`
	Measurements   Measurements `json:"measurements"`
	// TestResults are the companion statements' envelopes, by digest.
	TestResults []TestResultRef `json:"testResults"`
	Verifier    VerifierRef     `json:"verifier"`
}

// Measurements are what the decision was made from.
type Measurements struct {
	Claims     []ClaimMeasure             `json:"claims"`
	Collateral CollateralMeasure          `json:"collateral"`
	Coverage   adjudication.CoverageRef   `json:"coverage"`
	Mutation   adjudication.StrengthRef   `json:"mutation"`
	Discovery  *adjudication.DiscoveryRef `json:"discovery"`
}

// ClaimMeasure is one claim's outcome on each side.
type ClaimMeasure struct {
	ID             string `json:"id"`
	Outcome        string `json:"outcome"`
	Classification string `json:"classification"`
	Oracle         string `json:"oracle"`
	Baseline       string `json:"baseline"`
	Patch          string `json:"patch"`
}

// CollateralMeasure is the full suite's result.
type CollateralMeasure struct {
	Tests       *int     `json:"tests"`
	Regressions []string `json:"regressions"`
	Patch       string   `json:"patch"`
	Baseline    string   `json:"baseline"`
}

// TestResultRef names a companion statement.
type TestResultRef struct {
	Side           string `json:"side"`
	EnvelopeSHA256 string `json:"envelopeSha256"`
}

// VerifierRef names the program that reached the verdict.
type VerifierRef struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// TestResult is the in-toto test-result v0.1 predicate.
type TestResult struct {
	Result        string               `json:"result"`
	Configuration []ResourceDescriptor `json:"configuration"`
	PassedTests   []string             `json:"passedTests"`
	WarnedTests   []string             `json:"warnedTests"`
	FailedTests   []string             `json:"failedTests"`
}

// ResourceDescriptor is the in-toto resource descriptor, as JSON.
type ResourceDescriptor struct {
	Name   string            `json:"name,omitempty"`
	URI    string            `json:"uri,omitempty"`
	Digest map[string]string `json:"digest,omitempty"`
}

// Input is everything a run's attestation is made of.
type Input struct {
	Artefact       *adjudication.Artefact
	ArtefactSHA256 string
	// Evidence are the digests the verdict record lists.
	Evidence []string
	Version  string
}

// Statements are a run's three signed statements.
type Statements struct {
	Verdict     *dsse.Envelope
	TestResults []*dsse.Envelope
}

// Attest builds and signs the verdict statement and its two companions.
func Attest(ctx context.Context, s dsse.SignerVerifier, in Input) (*Statements, error) {
	a := in.Artefact
	if a == nil {
		return nil, errors.New("attest: no artefact")
	}
	subjects, err := subjects(a)
	if err != nil {
		return nil, err
	}
	es, err := dsse.NewEnvelopeSigner(s)
	if err != nil {
		return nil, err
	}
	out := &Statements{}
	pred := Verdict{
		Decision: string(a.Decision), Reason: a.Reason, Reasons: nonNil(a.Reasons), FixProven: a.FixProven,
		ClaimsFixed: nonNil(a.ClaimsFixed), RunID: a.RunID, CriteriaDigest: a.CriteriaDigest,
		Evidence: nonNil(in.Evidence), ArtefactSHA256: in.ArtefactSHA256,
		Measurements: measurements(a),
		Verifier:     VerifierRef{Name: "sealgate", Version: in.Version},
		TestResults:  []TestResultRef{},
	}
	for _, side := range []string{SubjectBaseline, SubjectPatch} {
		tr := testResult(a, side)
		subj := subjects
		if side == SubjectBaseline {
			subj = subjects[1:] // the baseline run tested the baseline commit alone
		}
		payload, err := statement(subj, TestResultPredicateType, tr)
		if err != nil {
			return nil, err
		}
		env, err := es.SignPayload(ctx, PayloadType, payload)
		if err != nil {
			return nil, fmt.Errorf("attest: sign: %w", err)
		}
		d, err := EnvelopeDigest(env)
		if err != nil {
			return nil, err
		}
		out.TestResults = append(out.TestResults, env)
		pred.TestResults = append(pred.TestResults, TestResultRef{Side: side, EnvelopeSHA256: d})
	}
	payload, err := statement(subjects, VerdictPredicateType, pred)
	if err != nil {
		return nil, err
	}
	if out.Verdict, err = es.SignPayload(ctx, PayloadType, payload); err != nil {
		return nil, fmt.Errorf("attest: sign: %w", err)
	}
	return out, nil
}

// EnvelopeDigest is the hex SHA-256 of an envelope's canonical JSON.
func EnvelopeDigest(env *dsse.Envelope) (string, error) {
	b, err := canonical.Marshal(env)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// subjects are the patch (SHA-256 of its bytes) and the baseline commit.
func subjects(a *adjudication.Artefact) ([]*ita.ResourceDescriptor, error) {
	if len(a.Patch.Digest) != 64 || len(a.Baseline.Commit) != 40 {
		return nil, fmt.Errorf("attest: the artefact names no patch digest or baseline commit (%q, %q)", a.Patch.Digest, a.Baseline.Commit)
	}
	return []*ita.ResourceDescriptor{
		{Name: SubjectPatch, Digest: map[string]string{"sha256": a.Patch.Digest}},
		{Name: SubjectBaseline, Digest: map[string]string{"gitCommit": a.Baseline.Commit}},
	}, nil
}

// statement renders an in-toto Statement v1, validated by the in-toto
// library, as canonical JSON (one byte form for one statement).
func statement(subjects []*ita.ResourceDescriptor, predicateType string, predicate any) ([]byte, error) {
	raw, err := json.Marshal(predicate)
	if err != nil {
		return nil, err
	}
	st := &structpb.Struct{}
	if err := protojson.Unmarshal(raw, st); err != nil {
		return nil, fmt.Errorf("attest: predicate: %w", err)
	}
	s := &ita.Statement{Type: ita.StatementTypeUri, Subject: subjects, PredicateType: predicateType, Predicate: st}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("attest: statement: %w", err)
	}
	b, err := protojson.Marshal(s)
	if err != nil {
		return nil, err
	}
	return canonical.Transform(b)
}

// ParseStatement reads and validates an in-toto Statement v1.
func ParseStatement(payload []byte) (*ita.Statement, error) {
	s := &ita.Statement{}
	if err := protojson.Unmarshal(payload, s); err != nil {
		return nil, fmt.Errorf("not an in-toto statement: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

func measurements(a *adjudication.Artefact) Measurements {
	m := Measurements{
		Claims:   []ClaimMeasure{},
		Coverage: a.Coverage, Mutation: a.Strength, Discovery: a.Discovery,
		Collateral: CollateralMeasure{
			Tests: a.Collateral.Tests, Regressions: nonNil(a.Collateral.Regressions),
			Patch: outcome(a.Collateral.Patch), Baseline: outcome(a.Collateral.Baseline),
		},
	}
	for _, c := range a.Claims {
		m.Claims = append(m.Claims, ClaimMeasure{
			ID: c.ID, Outcome: string(c.Outcome), Classification: string(c.Classification), Oracle: c.Oracle,
			Baseline: outcome(c.Baseline), Patch: outcome(c.Patch),
		})
	}
	return m
}

// testResult is one side's run: every claimed test and the full suite.
// Nothing run is FAILED, never PASSED.
func testResult(a *adjudication.Artefact, side string) TestResult {
	tr := TestResult{
		Configuration: []ResourceDescriptor{{Name: "criteria", Digest: map[string]string{"sha256": a.CriteriaDigest}}},
		PassedTests:   []string{}, WarnedTests: []string{}, FailedTests: []string{},
	}
	add := func(name string, s *adjudication.SideRef) {
		switch outcome(s) {
		case "PASS":
			tr.PassedTests = append(tr.PassedTests, name)
		case "FLAKY":
			tr.WarnedTests = append(tr.WarnedTests, name)
		case "":
		default:
			tr.FailedTests = append(tr.FailedTests, name)
		}
	}
	tree := a.Patch.TreeDigest
	if side == SubjectBaseline {
		tree = a.Baseline.TreeDigest
	}
	if tree != "" {
		tr.Configuration = append(tr.Configuration, ResourceDescriptor{Name: side + "-tree", URI: "sealgate:tree/" + tree})
	}
	for _, c := range a.Claims {
		if side == SubjectBaseline {
			add(c.ID, c.Baseline)
		} else {
			add(c.ID, c.Patch)
		}
	}
	if side == SubjectBaseline {
		add("suite ./...", a.Collateral.Baseline)
	} else {
		add("suite ./...", a.Collateral.Patch)
	}
	slices.Sort(tr.PassedTests)
	slices.Sort(tr.WarnedTests)
	slices.Sort(tr.FailedTests)
	switch {
	case len(tr.FailedTests) > 0 || len(tr.PassedTests)+len(tr.WarnedTests) == 0:
		tr.Result = "FAILED"
	case len(tr.WarnedTests) > 0:
		tr.Result = "WARNED"
	default:
		tr.Result = "PASSED"
	}
	return tr
}

func outcome(s *adjudication.SideRef) string {
	if s == nil {
		return ""
	}
	return s.Outcome
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
