package adjudication

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// ArtefactSchema names this version of the artefact (docs/artefact.schema.json).
const ArtefactSchema = "sealgate.artefact.v1"

// Artefact is the JSON a run's verdict is published as. Every field is a
// function of the run's ledger records, so anyone holding them recomputes
// the same bytes.
type Artefact struct {
	Schema         string          `json:"schema"`
	RunID          string          `json:"run_id"`
	Decision       Decision        `json:"decision"`
	ExitCode       int             `json:"exit_code"`
	Reason         string          `json:"reason"`
	Reasons        []string        `json:"reasons"`
	FixProven      bool            `json:"fix_proven"`
	ClaimsFixed    []string        `json:"claims_fixed"`
	ClaimsTotal    int             `json:"claims_total"`
	Claims         []ArtefactClaim `json:"claims"`
	NextSteps      []ArtefactStep  `json:"next_steps"`
	CriteriaDigest string          `json:"criteria_digest"`
	Criteria       json.RawMessage `json:"criteria"`
	Baseline       TreeRef         `json:"baseline"`
	Patch          PatchRef        `json:"patch"`
	Changes        []FileChange    `json:"changes"`
	HarnessDrift   []string        `json:"harness_drift"`
	Oracle         OracleRef       `json:"oracle"`
	Discovery      *DiscoveryRef   `json:"discovery"`
	Collateral     CollateralRef   `json:"collateral"`
	Coverage       CoverageRef     `json:"coverage"`
	Strength       StrengthRef     `json:"strength"`
	Sandbox        *SandboxRef     `json:"sandbox"`
	SealPlan       []SealCheckRef  `json:"seal_plan"`
	Timing         TimingRef       `json:"timing"`
	Missing        []string        `json:"missing"`
	Refusals       []string        `json:"refusals"`
	Evidence       []string        `json:"evidence"`
	// Seal is added by the signing service: where the signed verdict was
	// logged and the proof. The adjudicator's artefact has none; the
	// sealed one is that artefact, byte for byte, plus this block.
	Seal *SealRef `json:"seal,omitempty"`
}

// SealRef says how a verdict was signed and logged.
type SealRef struct {
	// Log is "embedded" or "rekor".
	Log            string   `json:"log"`
	LogID          string   `json:"log_id"`
	LogIndex       uint64   `json:"log_index"`
	TreeSize       uint64   `json:"tree_size"`
	RootHash       string   `json:"root_hash"`
	InclusionProof []string `json:"inclusion_proof"`
	Checkpoint     string   `json:"checkpoint"`
	RekorUUID      string   `json:"rekor_uuid,omitempty"`
	KeyID          string   `json:"key_id"`
	Algorithm      string   `json:"algorithm"`
	// EnvelopeSHA256 is the digest of the verdict's DSSE envelope
	// (canonical JSON), BundleSHA256 that of the attestation bundle and
	// ArtefactSHA256 that of the unsealed artefact the statement names.
	EnvelopeSHA256 string `json:"envelope_sha256"`
	BundleSHA256   string `json:"bundle_sha256"`
	ArtefactSHA256 string `json:"artefact_sha256"`
}

// ArtefactClaim is one claim's verdict with both sides' evidence.
type ArtefactClaim struct {
	ID             string   `json:"id"`
	Outcome        Outcome  `json:"outcome"`
	Classification Class    `json:"classification"`
	Reason         string   `json:"reason"`
	Oracle         string   `json:"oracle"`
	Baseline       *SideRef `json:"baseline"`
	Patch          *SideRef `json:"patch"`
	Prerequisite   *SideRef `json:"prerequisite,omitempty"`
	// EditedBaseline and EditedPatch are the runs of the patch's version
	// of a test it edits (cases added to a table), when the claim names
	// one.
	EditedBaseline *SideRef `json:"edited_baseline,omitempty"`
	EditedPatch    *SideRef `json:"edited_patch,omitempty"`
}

// SideRef is one job's answer.
type SideRef struct {
	Job         string     `json:"job"`
	Tree        string     `json:"tree"`
	Transplant  []string   `json:"transplant,omitempty"`
	Splice      []string   `json:"splice,omitempty"`
	Argv        []string   `json:"argv"`
	Outcome     string     `json:"outcome"`
	Reason      string     `json:"reason"`
	Runs        []jobs.Run `json:"runs"`
	Termination string     `json:"termination"`
	ExitCode    int32      `json:"exit_code"`
	WallMillis  int64      `json:"wall_ms"`
}

// ArtefactStep is one next step.
type ArtefactStep struct {
	Action Action `json:"action"`
	Target string `json:"target"`
}

// TreeRef names the baseline.
type TreeRef struct {
	Commit     string `json:"commit"`
	TreeDigest string `json:"tree_digest"`
}

// PatchRef names the patch.
type PatchRef struct {
	Commit     string `json:"commit,omitempty"`
	Digest     string `json:"digest"`
	TreeDigest string `json:"tree_digest"`
}

// FileChange is one changed path.
type FileChange struct {
	Path         string   `json:"path"`
	OldPath      string   `json:"old_path,omitempty"`
	Change       string   `json:"change"`
	Class        string   `json:"class"`
	ChangedLines []uint32 `json:"changed_lines"`
}

// OracleRef says what the baseline oracle put back and deferred.
type OracleRef struct {
	Restored []string `json:"restored"`
	Deferred []string `json:"deferred"`
}

// DiscoveryRef says how claims were found when none were given.
type DiscoveryRef struct {
	Source      string   `json:"source"`
	ClaimsAdded []string `json:"claims_added"`
}

// CollateralRef is the full suite on both sides.
type CollateralRef struct {
	// Patch and Baseline are the first suite's runs (by job id: the Go
	// suite when there is one); Suites lists every suite.
	Patch       *SideRef   `json:"patch"`
	Baseline    *SideRef   `json:"baseline"`
	Suites      []SuiteRef `json:"suites"`
	Tests       *int       `json:"tests"`
	Regressions []string   `json:"regressions"`
	// Missing and Repinned are the other tests that pass on the baseline
	// and not on the patch: with no result but a failure, and failing where
	// the patch edits them (see Collateral).
	Missing  []string `json:"missing,omitempty"`
	Repinned []string `json:"repinned,omitempty"`
	// Flaky failed on the patch and passed there when run again alone.
	Flaky []string `json:"flaky,omitempty"`
	// Written are the written jobs' runs: the patch's own tree as it
	// wrote it, its test files included, and go test's vet of the
	// packages it changes; WrittenFailing the tests (and vetted packages)
	// that fail there and not in the suite (see Written).
	Written        []*SideRef `json:"written,omitempty"`
	WrittenFailing []string   `json:"written_failing,omitempty"`
}

// SuiteRef is one stack's full suite: go test, pytest, or the declared
// suite command.
type SuiteRef struct {
	Job      string   `json:"job"`
	Patch    *SideRef `json:"patch"`
	Baseline *SideRef `json:"baseline"`
}

// SealCheckRef is one check of the seal plan, matched to its job by the
// check's command.
type SealCheckRef struct {
	Command string   `json:"command"`
	JUnit   string   `json:"junit,omitempty"`
	Ran     bool     `json:"ran"`
	Exit    *int     `json:"exit_code"`
	Cases   *int     `json:"cases"`
	Run     *SideRef `json:"run"`
}

// CoverageRef is diff coverage with its floor.
type CoverageRef struct {
	Source       Source   `json:"source"`
	Ratio        *float64 `json:"ratio"`
	Floor        float64  `json:"floor"`
	Required     bool     `json:"required"`
	ChangedLines uint32   `json:"changed_lines"`
	CoveredLines uint32   `json:"covered_lines"`
	Uncovered    []string `json:"uncovered"`
	// Lost are kept lines the claims ran on the baseline and no test runs
	// on the patch ("path:line").
	Lost       []string `json:"lost,omitempty"`
	DiffSHA256 string   `json:"diff_sha256,omitempty"`
	ProfileSHA string   `json:"profile_sha256,omitempty"`
	Reason     string   `json:"reason"`
}

// StrengthRef is suite strength with its floor.
type StrengthRef struct {
	Source      Source   `json:"source"`
	Killed      int      `json:"killed"`
	Survived    int      `json:"survived"`
	Stillborn   int      `json:"stillborn"`
	Score       *float64 `json:"score"`
	WilsonLower *float64 `json:"wilson_lower"`
	Confidence  float64  `json:"confidence"`
	Floor       float64  `json:"floor"`
	Required    bool     `json:"required"`
	// Complete: every distinct mutant the changed lines offer ran (none
	// stillborn, none left out by the mutant cap). Killed all, it meets
	// the floor whatever the Wilson bound of so few says.
	Complete  bool     `json:"complete,omitempty"`
	Survivors []string `json:"survivors"`
	// Unwitnessed are changed data lines no killed mutant witnesses
	// ("path:line"); Unjudged the mutants no test could judge ("path:line
	// mutation"). Either makes strength unverified.
	Unwitnessed []string `json:"unwitnessed,omitempty"`
	Unjudged    []string `json:"unjudged,omitempty"`
	Reason      string   `json:"reason"`
}

// SandboxRef is the sandbox the jobs ran in, as the executor recorded it.
type SandboxRef struct {
	Name     string            `json:"name"`
	EnvNames []string          `json:"env_names"`
	Limits   map[string]string `json:"limits"`
}

// TimingRef sums the test processes the run started.
type TimingRef struct {
	TestProcesses       int   `json:"test_processes"`
	TestProcessesMillis int64 `json:"test_processes_ms"`
}

// ExitCode is the command's exit code for a decision.
func ExitCode(d Decision) int {
	switch d {
	case Merge:
		return 0
	case Block:
		return 1
	}
	return 2
}

// BuildArtefact renders the artefact of a run decided as v.
func (r *Run) BuildArtefact(v Verdict, e Evidence) *Artefact {
	a := &Artefact{
		Schema: ArtefactSchema, RunID: r.ID, Decision: v.Decision, ExitCode: ExitCode(v.Decision),
		Reason: v.Reason, Reasons: nonNil(v.Reasons), FixProven: v.FixProven, ClaimsFixed: nonNil(v.ClaimsFixed),
		ClaimsTotal: len(e.Claims), Claims: []ArtefactClaim{}, NextSteps: []ArtefactStep{},
		HarnessDrift: []string{}, Changes: []FileChange{}, Oracle: OracleRef{Restored: []string{}, Deferred: []string{}},
		Missing: nonNil(e.Missing), Refusals: nonNil(e.Refusals), Evidence: nonNil(r.Evidence),
	}
	for _, s := range v.NextSteps {
		a.NextSteps = append(a.NextSteps, ArtefactStep(s))
	}
	if r.Sealed != nil {
		a.CriteriaDigest = r.Sealed.Digest
		a.Criteria = json.RawMessage(r.Sealed.Canonical)
		c := r.Sealed.Criteria
		a.Baseline.Commit = c.Baseline
		a.Patch.Commit, a.Patch.Digest = c.PatchCommit, c.PatchDigest
		a.Coverage.Floor, a.Coverage.Required = c.CoverageFloor, c.CoverageFloor > 0
		a.Strength.Floor, a.Strength.Required = c.StrengthFloor, c.StrengthFloor > 0
		a.Strength.Confidence = c.StrengthConfidence
		if len(c.Claims) == 0 {
			src := "outcome-diff"
			if len(jobs.Reached(r.Coverage)) > 0 {
				src = "outcome-diff+reach"
			}
			a.Discovery = &DiscoveryRef{Source: src, ClaimsAdded: nonNil(jobs.Discovered(r.Planned, r.Done, jobs.Reached(r.Coverage)))}
		}
	}
	if t := r.Trees; t != nil {
		a.Baseline.TreeDigest, a.Patch.TreeDigest = t.BaselineTreeDigest, t.PatchTreeDigest
		for _, ch := range t.Changes {
			a.Changes = append(a.Changes, FileChange{
				Path: ch.Path, OldPath: ch.OldPath, Change: changeName(ch.Change), Class: className(ch.Class),
				ChangedLines: nonNil(ch.ChangedLines),
			})
		}
		a.HarnessDrift = nonNil(t.HarnessDrift)
		a.Oracle.Restored = nonNil(t.OracleRestored)
		a.Oracle.Deferred = nonNil(t.DeferredTests)
	}
	for _, c := range e.Claims {
		ac := ArtefactClaim{ID: c.ID, Outcome: c.Outcome, Classification: c.Class, Reason: c.Why}
		base, _ := r.SideOf(c.ID, jobs.Baseline)
		patch, prereq := r.SideOf(c.ID, jobs.Patch)
		ac.Baseline, ac.Patch, ac.Prerequisite = r.side(base), r.side(patch), r.side(prereq)
		eb, ep := r.EditedOf(c.ID)
		ac.EditedBaseline, ac.EditedPatch = r.side(eb), r.side(ep)
		ac.Oracle = "patch"
		switch {
		case prereq != nil:
			ac.Oracle = "baseline-file"
		case patch != nil && patch.Spec.Tree == jobs.TreeOracle:
			ac.Oracle = "baseline"
		}
		a.Claims = append(a.Claims, ac)
	}
	a.Collateral.Suites = []SuiteRef{}
	for _, id := range r.Suites() {
		sr := SuiteRef{Job: id, Patch: r.side(r.Done[id]), Baseline: r.side(r.Done[BaselineOf(r.Planned[id])])}
		if len(a.Collateral.Suites) == 0 {
			a.Collateral.Patch, a.Collateral.Baseline = sr.Patch, sr.Baseline
		}
		a.Collateral.Suites = append(a.Collateral.Suites, sr)
	}
	for _, id := range r.Written() {
		if ref := r.side(r.Done[id]); ref != nil {
			a.Collateral.Written = append(a.Collateral.Written, ref)
		}
	}
	if e.Written != nil {
		a.Collateral.WrittenFailing = e.Written.Failing
	}
	a.SealPlan = []SealCheckRef{}
	if r.Sealed != nil {
		for i, chk := range r.Sealed.Criteria.SealPlan {
			id := (&jobs.Spec{Purpose: jobs.Seal, Side: jobs.Patch, Run: chk.Run, JUnit: chk.JUnit}).ID()
			ref := SealCheckRef{Command: chk.Run, JUnit: chk.JUnit, Run: r.side(r.Done[id])}
			if i < len(e.Seals) && e.Seals[i].Ran {
				exit := e.Seals[i].Exit
				ref.Ran, ref.Exit, ref.Cases = true, &exit, e.Seals[i].Cases
			}
			a.SealPlan = append(a.SealPlan, ref)
		}
	}
	if e.Collateral != nil {
		a.Collateral.Tests = e.Collateral.PatchCases
		a.Collateral.Regressions = nonNil(e.Collateral.Regressions)
		a.Collateral.Missing, a.Collateral.Repinned, a.Collateral.Flaky = e.Collateral.Missing, e.Collateral.Repinned, e.Collateral.Flaky
	} else {
		a.Collateral.Regressions = []string{}
	}
	a.Coverage.Source, a.Coverage.Uncovered = None, []string{}
	if cov := e.Coverage; cov != nil {
		a.Coverage.Source, a.Coverage.Ratio, a.Coverage.Reason = cov.Source, cov.Ratio, cov.Reason
		for _, l := range cov.Lost {
			a.Coverage.Lost = append(a.Coverage.Lost, l.String())
		}
		for _, l := range cov.Uncovered {
			a.Coverage.Uncovered = append(a.Coverage.Uncovered, l.String())
		}
	}
	if m := r.Coverage; m != nil {
		a.Coverage.ChangedLines, a.Coverage.CoveredLines = m.ChangedLines, m.CoveredLines
		a.Coverage.DiffSHA256, a.Coverage.ProfileSHA = m.DiffSha256, m.ProfileSha256
	}
	a.Strength.Source, a.Strength.Survivors = None, []string{}
	if s := e.Strength; s != nil {
		a.Strength.Source, a.Strength.Killed, a.Strength.Survived, a.Strength.Reason = s.Source, s.Killed, s.Survived, s.Reason
		a.Strength.Complete = s.Complete
		for _, m := range s.Survivors {
			a.Strength.Survivors = append(a.Strength.Survivors, m.At.String()+" "+m.Mutation)
		}
		for _, l := range s.Unwitnessed {
			a.Strength.Unwitnessed = append(a.Strength.Unwitnessed, l.String())
		}
		for _, m := range s.Unjudged {
			a.Strength.Unjudged = append(a.Strength.Unjudged, m.At.String()+" "+m.Mutation)
		}
	}
	if m := r.Strength; m != nil {
		a.Strength.Stillborn, a.Strength.Score = int(m.Stillborn), m.Score
	}
	a.Strength.WilsonLower = v.WilsonLower
	ids := make([]string, 0, len(r.Results))
	for id := range r.Results {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	// A test binary is built once and its build is evidence of every job
	// that runs it: it is one process.
	builds := map[string]bool{}
	for _, id := range ids {
		res := r.Results[id]
		if res.Sandbox != nil && a.Sandbox == nil && res.Termination != pb.Termination_TERMINATION_NOT_STARTED {
			a.Sandbox = &SandboxRef{Name: res.Sandbox.Name, EnvNames: nonNil(res.Sandbox.EnvNames), Limits: res.Sandbox.Limits}
		}
		// A cached suite answer's runs happened in an earlier run.
		if d := r.Done[id]; d != nil && d.Spec.Purpose != jobs.Modules && d.Detail.Cached == "" {
			for _, run := range d.Detail.Runs {
				if run.Reused() {
					continue // a binary kept from an earlier run: no process
				}
				if run.Verdict == "BUILD" && run.Binary != "" {
					if builds[run.Binary] {
						continue
					}
					builds[run.Binary] = true
				}
				a.Timing.TestProcesses++
				a.Timing.TestProcessesMillis += run.WallMillis
			}
		}
	}
	return a
}

func (r *Run) side(d *jobs.Done) *SideRef {
	if d == nil {
		return nil
	}
	id := d.Spec.ID()
	s := &SideRef{
		Job: id, Tree: d.Spec.Tree, Transplant: d.Spec.Transplant, Splice: d.Spec.Splice, Argv: d.Spec.Argv(),
		Outcome: d.Detail.Outcome, Reason: d.Detail.Reason, Runs: nonNil(d.Detail.Runs),
	}
	if res := r.Results[id]; res != nil {
		s.Termination = strings.ToLower(strings.TrimPrefix(res.Termination.String(), "TERMINATION_"))
		s.ExitCode, s.WallMillis = res.ExitCode, res.WallNanos/1e6
	}
	return s
}

// Marshal renders the artefact as indented JSON with a final newline.
func (a *Artefact) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(a); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// VerdictRecord is the body of the verdict.reached record.
func VerdictRecord(v Verdict, evidence []string, artefactBlob string) *pb.VerdictReached {
	out := &pb.VerdictReached{
		Reason: v.Reason, Reasons: v.Reasons, ClaimsFixed: v.ClaimsFixed, FixProven: v.FixProven,
		Evidence: evidence, ArtefactBlob: artefactBlob,
	}
	switch v.Decision {
	case Merge:
		out.Decision = pb.Decision_DECISION_MERGE
	case Block:
		out.Decision = pb.Decision_DECISION_BLOCK
	default:
		out.Decision = pb.Decision_DECISION_INCONCLUSIVE
	}
	for _, s := range v.NextSteps {
		out.NextSteps = append(out.NextSteps, &pb.NextStep{Action: string(s.Action), Target: s.Target})
	}
	return out
}

func changeName(k pb.ChangeKind) string {
	return strings.ToLower(strings.TrimPrefix(k.String(), "CHANGE_KIND_"))
}

func className(c pb.FileClass) string {
	return strings.ToLower(strings.TrimPrefix(c.String(), "FILE_CLASS_"))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
