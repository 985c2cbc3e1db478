// Package jobs holds what the executor is asked to run and what it answered:
// job specs, the side outcomes of results, and the follow-up rule that says
// which further jobs earlier results make due.
//
// It is pure: the executor plans and runs with it, and the adjudicator reads
// the same records with it, so both agree on when a run's evidence is
// complete without talking to each other.
package jobs

import (
	"bytes"

	"encoding/json"
	"fmt"
	"github.com/sealgate/sealgate/ledger/criteria"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Purposes of jobs.
const (
	// Claim runs one claimed test on one side.
	Claim = "claim"
	// Prereq runs every baseline test of a test file on the patched code
	// before a test the patch added to that file may run.
	Prereq = "prereq"
	// Collateral runs the full suite on one side.
	Collateral = "collateral"
	// Discovery runs the tests of the packages the patch touches on one
	// side, to find claims when none were given.
	Discovery = "discovery"
	// Coverage builds a package's coverage test binary once and runs each
	// of its tests alone with its own profile: diff coverage and the reach
	// map (which tests execute which changed lines).
	Coverage = "coverage"
	// Mutant runs the tests that reach one mutant's line against the
	// package built with every mutant behind a switch, until one fails.
	Mutant = "mutant"
	// Seal runs one check of the sealed seal plan on the patch.
	Seal = "seal"
	// Counterfactual re-runs a claim on the patch with the test support
	// the patch changed outside the test files (helpers only tests use,
	// golden files and fixtures anywhere) put back to the baseline's: a
	// claim whose outcome changes depends on what the patch changed of
	// its own judge.
	Counterfactual = "counterfactual"
	// Edited runs, for a claim on a test both versions declare and the
	// patch edits (cases added to a table), the patch's version of that one
	// test on one side, laid over the baseline's version of its file. The
	// claim's own jobs still judge the baseline's version of the test.
	Edited = "edited"
	// Written runs, on the patch side, a Go module or the pytest suite on
	// the patch's own tree, its own test files included, as it wrote them
	// (TreePatch), and vets the Go packages the patch changes as go test
	// does: the oracle judges by the baseline's test files, so only this
	// job shows that the patch's own `go test` fails. It can only lower a
	// verdict.
	Written = "written"
	// Modules downloads, outside the sandbox and checksum-verified against
	// go.sum, the module dependencies a side's Go module requires, into
	// the module cache the sandbox then reads offline.
	Modules = "modules"
)

// Runners: what a job's processes are. The zero Runner is go test.
const (
	RunnerGo      = ""
	RunnerPytest  = "pytest"
	RunnerCommand = "command"
)

// Sides.
const (
	Baseline = "baseline"
	Patch    = "patch"
)

// Trees a job can run in.
const (
	// TreeBaseline is the baseline commit's tree.
	TreeBaseline = "baseline"
	// TreeOracle is the patch's tree with every baseline test file put
	// back: the patch never writes its own oracle.
	TreeOracle = "oracle"
	// TreePatch is the patch's tree as it is, its own test files
	// included: only a Written job runs in it.
	TreePatch = "patch"
)

// Side outcomes: how a job's target behaved on its side. Only Pass passes.
const (
	OutcomePass       = "PASS"
	OutcomeFail       = "FAIL"
	OutcomeFlaky      = "FLAKY"
	OutcomeTimeout    = "TIMEOUT"
	OutcomeUnrunnable = "UNRUNNABLE"
	OutcomeInvalid    = "INVALID"
	// OutcomeAbsent: the claimed test does not exist on this side (a new
	// test, on the baseline).
	OutcomeAbsent = "ABSENT"
	// OutcomeNotRun: the job was not run, by policy; Reason says why.
	OutcomeNotRun = "NOT_RUN"
	// NoTestsMatched is how an unrunnable Go test run's Reason says that
	// the test binary ran and no test matched the claim's pattern: a
	// subtest the test files of that side do not hold.
	NoTestsMatched = "the test binary said no tests matched"
	// Mutant job outcomes: a test failed with the mutant active, every
	// test passed, or no verdict (the schemata build failed, or a timeout
	// whose reference run was not fast); unjudged: no test that reaches
	// the mutant passes in its reference run, so none can judge it.
	OutcomeKilled    = "KILLED"
	OutcomeSurvived  = "SURVIVED"
	OutcomeStillborn = "STILLBORN"
	OutcomeUnjudged  = "UNJUDGED"
)

// Spec is one job, as planned. It travels as canonical JSON in the job's
// spec bytes, so what ran is on the ledger.
type Spec struct {
	Purpose string `json:"purpose"`
	Side    string `json:"side"`
	// Claim is the claim this job serves ("go:./pkg:TestName").
	Claim string `json:"claim,omitempty"`
	// Tree is the tree the job starts from; Transplant lists files taken
	// from the patch's tree and laid over it.
	Tree       string   `json:"tree"`
	Transplant []string `json:"transplant,omitempty"`
	// Splice lists Go test files laid over the tree as their baseline
	// version with the top-level declarations the patch adds to them
	// (package splice): a test the patch adds to an existing file runs
	// beside the baseline's versions of that file's other tests. An entry
	// "file#TestX" also takes the patch's version of TestX, a test both
	// versions declare and the patch edits (cases added to a table);
	// "file#+TestA,TestB" lays the patch's versions of TestA and TestB
	// beside the baseline's, renamed (coverage and mutant runs);
	// "file#=TestX" lays, of what the patch adds, only TestX and the
	// declarations it needs (a new test alone on the baseline code);
	// "file#*S,T" lays the patch's methods of the gocheck suites S and T
	// on wrappers registered beside them (an edited-test job's entries,
	// one per file; before "+TestA,…" in a coverage or mutant job's);
	// "file#~S,T" (after "*…") lays the patch's methods of the testify
	// suites S and T, which it edits in more than one file, on wrappers
	// that the file holding the test running them declares, which
	// ":TestX" (replaced) or "+TestX" (beside) then names.
	Splice []string `json:"splice,omitempty"`
	// Added, on a discovery job, lists the tests the patch adds to the
	// package or edits there: claims discovery proposes first.
	Added []string `json:"added,omitempty"`
	// Drop lists files removed from the tree: test files the patch adds
	// that control the harness (TestMain, init, code run at package
	// initialization), which no judged run compiles.
	Drop []string `json:"drop,omitempty"`
	// Restore lists files put back to the baseline's version (removed
	// when the baseline lacks them): the counterfactual oracle, which
	// re-runs a claim without the test support the patch changed.
	Restore []string `json:"restore,omitempty"`
	// Module is the directory of the Go module, relative to the repository
	// ("." for the root); Package the pattern run in it ("./calc",
	// "./..."); ImportPath the package's import path ("" for patterns).
	Module     string `json:"module"`
	Package    string `json:"package"`
	ImportPath string `json:"import_path,omitempty"`
	// ModulePath is, on a Go suite, the path of the module it runs: its
	// tests' import paths start with it, so a test the suite shows fixed
	// names its package (see Discovered).
	ModulePath string `json:"module_path,omitempty"`
	// Vet, on a written job, lists the packages (relative to Module:
	// "./x", ".") vetted as go test vets them, on the patch's tree and on
	// the baseline's; VetOnly runs no test, only that (a patch that edits
	// no baseline test file).
	Vet     []string `json:"vet,omitempty"`
	VetOnly bool     `json:"vet_only,omitempty"`
	// Tests are the tests selected with -run; empty runs every test.
	Tests []string `json:"tests,omitempty"`
	// Reruns is how many times a failing run is repeated (stability).
	Reruns int `json:"reruns"`
	// TimeoutSec bounds each run.
	TimeoutSec int `json:"timeout_s"`
	// Skip, when set, says why the job is not run: it is answered as not
	// started, with this reason.
	Skip string `json:"skip,omitempty"`
	// Then is the job a Prereq unlocks when every test it ran passed.
	Then *Spec `json:"then,omitempty"`
	// CoverPkgs are the import paths a Coverage job instruments.
	CoverPkgs []string `json:"cover_pkgs,omitempty"`
	// Mutation is the mutant a Mutant job activates; Targets the test
	// packages and tests it runs, in order, stopping at the first kill.
	Mutation *MutantRef `json:"mutation,omitempty"`
	Targets  []Target   `json:"targets,omitempty"`
	// Runner is what runs: go test (""), pytest, or a declared command.
	Runner string `json:"runner,omitempty"`
	// Python is the interpreter of a pytest job.
	Python string `json:"python,omitempty"`
	// Run and JUnit are a command job's command line and the JUnit file
	// it writes (relative to the tree's root), if any.
	Run   string `json:"run,omitempty"`
	JUnit string `json:"junit,omitempty"`
}

// MutantRef names one mutant of the schemata build.
type MutantRef struct {
	ID          int    `json:"id"`
	Path        string `json:"path"`
	Line        int    `json:"line"`
	Col         int    `json:"col"`
	Operator    string `json:"operator"`
	Description string `json:"description"`
	// Var, Token and Ref are a Go mutant's switch (mutant.Switch): the
	// environment variable every process of the job gets, the token that
	// activates this mutant, and its reference token, which the mutant's
	// reference runs get: it activates nothing and marks the mutant's
	// site as the token does. They never reach the tested code's tree.
	Var   string `json:"var,omitempty"`
	Token string `json:"token,omitempty"`
	Ref   string `json:"ref,omitempty"`
	// Start, End and Replacement are a source mutant's edit (Python):
	// the bytes [Start, End) of Path replaced.
	Start       int    `json:"start,omitempty"`
	End         int    `json:"end,omitempty"`
	Replacement string `json:"replacement,omitempty"`
}

// Target is a test package and the tests of it a mutant job runs.
type Target struct {
	Package    string   `json:"package"`
	ImportPath string   `json:"import_path"`
	Tests      []string `json:"tests"`
}

// ID names the job within its run; it is also its token's id.
func (s *Spec) ID() string {
	var b strings.Builder
	b.WriteString(s.Purpose)
	b.WriteByte('/')
	b.WriteString(s.Side)
	switch s.Purpose {
	case Claim, Prereq, Edited, Counterfactual:
		b.WriteByte('/')
		b.WriteString(s.Claim)
	case Discovery, Collateral, Coverage, Modules, Written:
		b.WriteByte('/')
		if s.Runner != RunnerGo {
			b.WriteString(s.Runner)
			b.WriteByte(':')
		}
		b.WriteString(s.Module)
		b.WriteByte(':')
		b.WriteString(s.Package)
	case Mutant:
		if s.Mutation != nil {
			fmt.Fprintf(&b, "/%d", s.Mutation.ID)
		}
	case Seal:
		b.WriteByte('/')
		b.WriteString(criteria.Command{Run: s.Run, JUnit: s.JUnit}.ID())
	}
	return b.String()
}

// RunPattern is the -run argument: the selected tests, anchored. A
// subtest ("TestX/case") is anchored level by level, as -run matches
// levels: "^TestX$/^case$".
func (s *Spec) RunPattern() string {
	if len(s.Tests) == 0 {
		return ""
	}
	if len(s.Tests) == 1 {
		levels := strings.Split(s.Tests[0], "/")
		for i, l := range levels {
			levels[i] = "^" + regexp.QuoteMeta(l) + "$"
		}
		return strings.Join(levels, "/")
	}
	return "^(" + strings.Join(s.Tests, "|") + ")$"
}

// Argv is the command the job runs, in Module's directory. Coverage and
// mutant jobs run several processes; Argv is the first (the build).
func (s *Spec) Argv() []string {
	switch s.Runner {
	case RunnerPytest:
		argv := []string{s.Python, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir=.", "-o", "junit_family=xunit1", "--junitxml=<report>", "-q", "--color=no"}
		switch s.Purpose {
		case Coverage:
			argv = append([]string{s.Python, "-m", "coverage", "run", "--rcfile=<rc>", "--data-file=<data>"}, argv[1:]...)
		case Mutant:
			argv = append(argv, "-x")
			for _, t := range s.Targets {
				argv = append(argv, t.Tests...)
			}
			return argv
		}
		return append(argv, s.Tests...)
	case RunnerCommand:
		return []string{"/bin/sh", "-c", s.Run}
	}
	switch s.Purpose {
	case Modules:
		return []string{"go", "mod", "download", "-json"}
	case Coverage:
		return []string{"go", "test", "-c", "-cover", "-covermode=set", "-coverpkg=" + strings.Join(s.CoverPkgs, ","), "-o", "<bin>", s.Package}
	case Mutant:
		var pkgs []string
		for _, t := range s.Targets {
			pkgs = append(pkgs, t.Package)
		}
		return append([]string{"go", "test", "-c", "-o", "<bin>"}, pkgs...)
	}
	argv := []string{"go", "test", "-json", "-count=1"}
	if p := s.RunPattern(); p != "" {
		argv = append(argv, "-run", p)
	}
	return append(argv, s.Package)
}

// Units is the budget the job may spend: one test process per run.
func (s *Spec) Units() uint64 { return uint64(1 + max(s.Reruns, 0)) }

// Marshal encodes s deterministically.
func (s *Spec) Marshal() ([]byte, error) {
	return json.Marshal(s)
}

// ParseSpec decodes spec bytes; unknown fields are refused.
func ParseSpec(b []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s Spec
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("job spec: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("job spec: trailing data")
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return &s, nil
}

// MaxReruns bounds the stability reruns of one job.
const MaxReruns = 100

func (s *Spec) check() error {
	switch s.Runner {
	case RunnerGo, RunnerPytest, RunnerCommand:
	default:
		return fmt.Errorf("job spec: unknown runner %q", s.Runner)
	}
	if s.Runner == RunnerCommand && strings.TrimSpace(s.Run) == "" {
		return fmt.Errorf("job spec: a command job names its command")
	}
	switch s.Purpose {
	case Claim, Prereq, Collateral, Discovery, Coverage, Counterfactual:
	case Edited:
		// One test spliced over its file, or a suite's methods over the
		// files that hold them (gocheck's registered, testify's wrapped).
		laid := len(s.Splice) > 0
		for _, e := range s.Splice {
			laid = laid && strings.Contains(e, "#") && !strings.Contains(e, "#+") &&
				(len(s.Splice) == 1 || strings.Contains(e, "#*") || strings.Contains(e, "#~"))
		}
		if s.Runner != RunnerGo || !laid {
			return fmt.Errorf("job spec: an edited-test job runs one Go test spliced over its file")
		}
	case Modules:
		if s.Runner != RunnerGo {
			return fmt.Errorf("job spec: a modules job is Go's")
		}
	case Written:
		if (s.Runner != RunnerGo && s.Runner != RunnerPytest) || s.Side != Patch || s.Tree != TreePatch || len(s.Transplant)+len(s.Splice)+len(s.Drop)+len(s.Restore) > 0 {
			return fmt.Errorf("job spec: a written job runs Go tests or pytest on the patch's own tree, as it is")
		}
		if (len(s.Vet) > 0 || s.VetOnly) && s.Runner != RunnerGo || s.VetOnly && len(s.Vet) == 0 {
			return fmt.Errorf("job spec: a written job vets Go packages, and one that only vets names them")
		}
	case Seal:
		if s.Runner != RunnerCommand {
			return fmt.Errorf("job spec: a seal job runs a command")
		}
	case Mutant:
		if s.Mutation == nil || s.Mutation.ID <= 0 || len(s.Targets) == 0 {
			return fmt.Errorf("job spec: a mutant job names its mutant and its targets")
		}
	default:
		return fmt.Errorf("job spec: unknown purpose %q", s.Purpose)
	}
	if s.Side != Baseline && s.Side != Patch {
		return fmt.Errorf("job spec: unknown side %q", s.Side)
	}
	switch {
	case s.Purpose != Written && (len(s.Vet) > 0 || s.VetOnly):
		return fmt.Errorf("job spec: only a written job vets")
	case s.Tree == TreePatch && s.Purpose != Written:
		return fmt.Errorf("job spec: only a written job runs in the patch's own tree")
	case s.Tree != TreeBaseline && s.Tree != TreeOracle && s.Tree != TreePatch:
		return fmt.Errorf("job spec: unknown tree %q", s.Tree)
	}
	if s.Reruns < 0 || s.Reruns > MaxReruns || s.TimeoutSec < 0 {
		return fmt.Errorf("job spec: reruns %d or timeout %d out of range", s.Reruns, s.TimeoutSec)
	}
	if s.Then != nil {
		if s.Purpose != Prereq || s.Then.Purpose != Claim || s.Then.Then != nil {
			return fmt.Errorf("job spec: only a prerequisite unlocks a job, and only a claim")
		}
		return s.Then.check()
	}
	return nil
}

// Run is one process a job started.
type Run struct {
	// Verdict is the reader's judgement of the run (gotest outcome kind,
	// or the suite's summary).
	Verdict     string `json:"verdict"`
	Reason      string `json:"reason"`
	ExitCode    int    `json:"exit_code"`
	Termination string `json:"termination"`
	WallMillis  int64  `json:"wall_ms"`
	// Stream is the digest of the go test -json stream in the blob store.
	Stream string `json:"stream,omitempty"`
	// Binary is the SHA-256 of the Go test binary the run executed.
	Binary string `json:"binary,omitempty"`
}

// ReusedBuild starts the reason of a BUILD run that started no process:
// its test binary was kept from an earlier run of the same build cache
// (the executor's binary cache).
const ReusedBuild = "reused "

// Reused reports whether r is a build that reused a kept binary instead of
// running the go command.
func (r Run) Reused() bool { return r.Verdict == "BUILD" && strings.HasPrefix(r.Reason, ReusedBuild) }

// Detail is a job result's detail: every run and the side outcome.
type Detail struct {
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
	Runs    []Run  `json:"runs"`
	// KilledBy names the test that killed a mutant.
	KilledBy string `json:"killed_by,omitempty"`
	// Profiles maps each test a coverage job ran ("<import path>.<Test>")
	// to the blob digest of its coverage profile.
	Profiles map[string]string `json:"profiles,omitempty"`
	// Count is the number of cases the runner reported (JUnit, go test
	// -json, unittest's summary) for pytest and command jobs; nil when it
	// reported none, which is never a pass by count.
	Count *int `json:"count,omitempty"`
	// Cached is the suite-cache key when the answer is one an earlier run
	// made of the same baseline tree (see the executor's suite cache): its
	// runs happened then, not in this run.
	Cached string `json:"cached,omitempty"`
}

// Marshal encodes d deterministically.
func (d *Detail) Marshal() ([]byte, error) { return json.Marshal(d) }

// ParseDetail decodes a result's detail.
func ParseDetail(b []byte) (*Detail, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var d Detail
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("job detail: %w", err)
	}
	switch d.Outcome {
	case OutcomePass, OutcomeFail, OutcomeFlaky, OutcomeTimeout, OutcomeUnrunnable, OutcomeInvalid, OutcomeAbsent, OutcomeNotRun,
		OutcomeKilled, OutcomeSurvived, OutcomeStillborn, OutcomeUnjudged:
	default:
		return nil, fmt.Errorf("job detail: unknown outcome %q", d.Outcome)
	}
	return &d, nil
}

// Case is one test's result in a suite job (collateral, discovery).
type Case struct {
	// Name is "<import path>.<test name>" for go test ("<import
	// path>.<test name>/<subtest>" for a subtest of a suite run), the
	// node id for pytest.
	Name string
	// Outcome is pass, fail, skip, none, inconsistent, CaseStopped or
	// CaseFlaky.
	Outcome string
}

// TopLevel returns, for each case of cases, the name of the listed case it
// is a subtest of, outermost first ("" for a case that is no listed case's
// subtest): a go test subtest "p.TestX/a/b" is listed with its parents
// "p.TestX/a" and "p.TestX", so a name is a subtest exactly when a prefix
// of it up to a slash is a listed name.
func TopLevel(cases []Case) map[string]string {
	names := make(map[string]bool, len(cases))
	for _, c := range cases {
		names[c.Name] = true
	}
	out := make(map[string]string, len(cases))
	for _, c := range cases {
		out[c.Name] = ""
		for i := 0; i < len(c.Name); i++ {
			if c.Name[i] == '/' && names[c.Name[:i]] {
				out[c.Name] = c.Name[:i]
				break
			}
		}
	}
	return out
}

// CaseStopped is the outcome of a test a resource limit stopped (Python's
// MemoryError under the address-space limit): harness death, not failure.
const CaseStopped = "stopped"

// CaseFlaky is the outcome of a patch-side suite test that failed and then
// passed when run again alone: no regression proven, no pass either.
const CaseFlaky = "flaky"

// PythonProfile names the coverage.py JSON report among a Python coverage
// job's profiles.
const PythonProfile = "coverage.py"

// GroupProfilePrefix starts the key of a profile of a Go coverage job
// that several tests wrote together ("group:" + import path): it counts
// toward diff coverage, never toward the reach map, which holds only the
// profiles of tests run alone.
const GroupProfilePrefix = "group:"

// BaselineProfile keys the profile of a baseline coverage job: the claims'
// tests run together on the baseline.
const BaselineProfile = "baseline"

// Done is a job with its answer.
type Done struct {
	Spec   *Spec
	Detail *Detail
	Cases  []Case
}

// Due names the follow-up jobs earlier jobs make due, by ID, with the job
// that makes them due. planned holds every planned job by ID, done the
// answered ones. It is the one rule the executor plans by and the
// adjudicator waits by.
//
// reached lists the tests (keys "<import path>.<Test>") the reach map says
// execute changed lines, nil before diff coverage is measured: with no
// claim given, they are discovered too (see Discovered).
func Due(planned map[string]*Spec, done map[string]*Done, reached []string) []string {
	var due []string
	want := func(id string) {
		if _, ok := planned[id]; !ok {
			due = append(due, id)
		}
	}
	for _, d := range done {
		switch d.Spec.Purpose {
		case Collateral:
			// Every suite runs on the baseline too (planned with it from
			// the start): a plan without it still owes it.
			if d.Spec.Side == Patch {
				b := *d.Spec
				b.Side, b.Tree = Baseline, TreeBaseline
				want(b.ID())
			}
		case Prereq:
			if d.Detail.Outcome == OutcomePass && d.Spec.Then != nil {
				want(d.Spec.Then.ID())
			}
		}
	}
	for _, test := range Discovered(planned, done, reached) {
		want((&Spec{Purpose: Claim, Side: Baseline, Claim: test}).ID())
		// A test the patch added to a baseline test file runs on the
		// patch once its prerequisite passed (the rule above).
		if _, pre := planned[(&Spec{Purpose: Prereq, Side: Patch, Claim: test}).ID()]; !pre {
			want((&Spec{Purpose: Claim, Side: Patch, Claim: test}).ID())
		}
	}
	slices.Sort(due)
	return slices.Compact(due)
}

// Reached lists the tests a coverage measurement's reach map says execute
// changed lines; nil without a measurement.
func Reached(cov *pb.CoverageMeasured) []string {
	var out []string
	for _, e := range cov.GetReach() {
		if len(e.Lines) > 0 {
			out = append(out, e.Test)
		}
	}
	return out
}

// MaxDiscovered bounds the claims discovery adds.
const MaxDiscovered = 10

// Discovered returns the claims discovery found once every discovery job
// is answered: tests of the touched packages that pass on the patch and did
// not pass on the baseline, tests anywhere the Go suite shows passing on
// the patch and not on the baseline (once both suites are answered: a test
// a change fixes from afar, through a helper its package's tests import,
// is claimed as the touched packages' are), then the reached tests (those
// that execute changed lines, from the reach map) in the packages coverage
// ran, as "go:<pkg>:<Test>" claims, at most MaxDiscovered, sorted. Before
// the discovery jobs are answered, and when claims were given (no
// discovery job), it returns nothing.
func Discovered(planned map[string]*Spec, done map[string]*Done, reached []string) []string {
	found := outcomeDiff(planned, done)
	if found == nil {
		return nil
	}
	for _, c := range suiteDiff(planned, done) {
		if len(found) < MaxDiscovered && !slices.Contains(found, c) {
			found = append(found, c)
		}
	}
	// The tests the patch adds or edits come first: they are what the
	// patch says proves it, and an added test passes on the patch only.
	var added []string
	for _, s := range planned {
		if s.Purpose == Discovery && s.Side == Patch {
			for _, t := range s.Added {
				added = append(added, fmt.Sprintf("go:%s:%s", claimPkg(s.Module, s.Package), t))
			}
		}
	}
	slices.Sort(added)
	added = slices.Compact(added)
	if len(added) > MaxDiscovered {
		added = added[:MaxDiscovered]
	}
	for _, c := range found {
		if len(added) >= MaxDiscovered {
			break
		}
		if !slices.Contains(added, c) {
			added = append(added, c)
		}
	}
	found = append([]string{}, added...)
	slices.Sort(found)
	byImport := map[string]*Spec{}
	for _, s := range planned {
		if s.Purpose == Coverage {
			byImport[s.ImportPath] = s
		}
	}
	var extra []string
	for _, key := range reached {
		i := strings.LastIndex(key, ".")
		if i < 0 {
			continue
		}
		s := byImport[key[:i]]
		if s == nil || !IsTestName(key[i+1:]) {
			continue
		}
		extra = append(extra, fmt.Sprintf("go:%s:%s", claimPkg(s.Module, s.Package), key[i+1:]))
	}
	slices.Sort(extra)
	for _, c := range slices.Compact(extra) {
		if len(found) >= MaxDiscovered {
			break
		}
		if !slices.Contains(found, c) {
			found = append(found, c)
		}
	}
	slices.Sort(found)
	return found
}

// outcomeDiff is discovery by outcome: nil until every discovery job is
// answered (or when none was planned), else the claims found, possibly
// none, at most MaxDiscovered.
func outcomeDiff(planned map[string]*Spec, done map[string]*Done) []string {
	type pair struct{ base, patch *Done }
	pairs := map[string]*pair{}
	for id, s := range planned {
		if s.Purpose != Discovery {
			continue
		}
		d := done[id]
		if d == nil {
			return nil
		}
		key := s.Module + "\x00" + s.Package
		p := pairs[key]
		if p == nil {
			p = &pair{}
			pairs[key] = p
		}
		if s.Side == Baseline {
			p.base = d
		} else {
			p.patch = d
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	found := []string{}
	for _, p := range pairs {
		if p.base == nil || p.patch == nil {
			continue
		}
		base := map[string]string{}
		for _, c := range p.base.Cases {
			base[c.Name] = c.Outcome
		}
		prefix := p.patch.Spec.ImportPath + "."
		for _, c := range p.patch.Cases {
			test, ok := strings.CutPrefix(c.Name, prefix)
			if !ok || c.Outcome != "pass" || base[c.Name] == "pass" || !IsTestName(test) {
				continue
			}
			claim := fmt.Sprintf("go:%s:%s", claimPkg(p.patch.Spec.Module, p.patch.Spec.Package), test)
			found = append(found, claim)
		}
	}
	slices.Sort(found)
	found = slices.Compact(found)
	if len(found) > MaxDiscovered {
		found = found[:MaxDiscovered]
	}
	return found
}

// suiteDiff lists, as claims, the tests the answered Go suites show
// passing on the patch and not on the baseline, sorted; none until both
// sides of a suite are answered.
func suiteDiff(planned map[string]*Spec, done map[string]*Done) []string {
	var out []string
	for id, s := range planned {
		if s.Purpose != Collateral || s.Side != Patch || s.Runner != RunnerGo || s.ModulePath == "" {
			continue
		}
		b := *s
		b.Side, b.Tree = Baseline, TreeBaseline
		patch, base := done[id], done[b.ID()]
		if patch == nil || base == nil {
			continue
		}
		before := map[string]string{}
		for _, c := range base.Cases {
			before[c.Name] = c.Outcome
		}
		for _, c := range patch.Cases {
			if c.Outcome != "pass" || before[c.Name] == "pass" {
				continue
			}
			i := strings.LastIndex(c.Name, ".")
			if i < 0 || !IsTestName(c.Name[i+1:]) {
				continue
			}
			ip, test := c.Name[:i], c.Name[i+1:]
			rel := "."
			if ip != s.ModulePath {
				r, ok := strings.CutPrefix(ip, s.ModulePath+"/")
				if !ok {
					continue
				}
				rel = "./" + r
			}
			out = append(out, fmt.Sprintf("go:%s:%s", claimPkg(s.Module, rel), test))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// IsTestName reports whether s is a top-level Go test function's name.
func IsTestName(s string) bool {
	rest, ok := strings.CutPrefix(s, "Test")
	if !ok {
		return false
	}
	for _, r := range rest {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return false
		}
	}
	return true
}

// claimPkg is a discovery job's package as a claim's package path,
// relative to the repository.
func claimPkg(module, pattern string) string {
	if module == "." || module == "" {
		return pattern
	}
	return "./" + path.Join(module, pattern)
}

// MeasureCoverage reports whether a run measures diff coverage: its floor
// requires it, or mutation needs the reach map.
func MeasureCoverage(c *criteria.Criteria) bool { return c.CoverageFloor > 0 || c.StrengthFloor > 0 }

// MeasureStrength reports whether a run's verdict waits for a strength
// measurement (which may say that mutation was switched off).
func MeasureStrength(c *criteria.Criteria) bool { return c.StrengthFloor > 0 }

// ModulePath reads the module path of a go.mod file.
func ModulePath(gomod []byte) (string, error) {
	for _, line := range strings.Split(string(gomod), "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		p := strings.Trim(strings.TrimSpace(rest), "\"`")
		if p == "" {
			break
		}
		return p, nil
	}
	return "", fmt.Errorf("go.mod has no module line")
}

// ParseClaim splits "go:./pkg/path:TestName" into its package path and test.
func ParseClaim(claim string) (pkg, test string, err error) {
	rest, ok := strings.CutPrefix(claim, "go:")
	if !ok {
		return "", "", fmt.Errorf("claim %q is not a Go claim", claim)
	}
	pkg, test, ok = strings.Cut(rest, ":")
	if !ok || pkg == "" || test == "" {
		return "", "", fmt.Errorf("claim %q: want go:./pkg/path:TestName", claim)
	}
	return pkg, test, nil
}
