// Package criteria holds what a run is judged by, and its seal.
//
// Criteria are fixed before any step runs: their canonical JSON (RFC 8785) is
// hashed into the criteria digest, which every later record of the run must
// carry. Every floor is an explicit number in the sealed form — a default is
// filled in before sealing, so "not given" never reaches the judge — and 0
// switches a requirement off visibly.
package criteria

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sealgate/sealgate/ledger/canonical"
)

// Schema names this version of the criteria format.
const Schema = "sealgate.criteria.v1"

// Defaults of the floors and limits (DESIGN.md §5).
const (
	DefaultCoverageFloor      = 1.0
	DefaultStrengthFloor      = 0.75
	DefaultStrengthConfidence = 0.80
	DefaultMutationMax        = 20
	DefaultMaxDepth           = 4
	DefaultMaxFanout          = 256
	DefaultClaimTimeoutSec    = 300
	DefaultSuiteTimeoutSec    = 1200
	DefaultDeadlineSec        = 3600
	DefaultStabilityReruns    = 2
	// DefaultMemoryBytes is each test process's address space
	// (RLIMIT_AS). A Go test binary reserves much more than it touches,
	// and real suites decode gigabyte inputs (msgpack's TestDecoder
	// needs about 5 GiB): 4 GiB made them unrunnable.
	DefaultMemoryBytes = 8 << 30
)

// Budget dimensions a plan may allocate from.
const (
	BudgetTestRuns   = "test_runs"
	BudgetMutants    = "mutants"
	BudgetCPUSeconds = "cpu_seconds"
)

// Criteria is everything a verdict will be judged by.
type Criteria struct {
	Schema     string `json:"schema"`
	RunID      string `json:"run_id"`
	Repository string `json:"repository"`
	// Baseline is the full commit id of the baseline.
	Baseline string `json:"baseline_commit"`
	// PatchCommit is the patch as a commit id, when given as one.
	PatchCommit string `json:"patch_commit,omitempty"`
	// PatchDigest is the hex SHA-256 of the patch bytes.
	PatchDigest string `json:"patch_digest"`
	// Claims are the tests the submitter says prove the patch, sorted.
	Claims []string `json:"claims"`
	// DiscoverClaims is set when no claim was given and the gate must find
	// them itself.
	DiscoverClaims     bool    `json:"discover_claims"`
	CoverageFloor      float64 `json:"coverage_floor"`
	StrengthFloor      float64 `json:"strength_floor"`
	StrengthConfidence float64 `json:"strength_confidence"`
	MutationMax        int     `json:"mutation_max"`
	// SealPlan are checks every one of which must run, exit 0 and report
	// more than zero cases. They keep their order: checks are matched by
	// identity (Command.ID), never by position or count.
	SealPlan    []Command `json:"seal_plan"`
	TestSupport []string  `json:"test_support"`
	// Commands are the declared commands of cmd:LABEL claims, by label.
	Commands map[string]Command `json:"commands,omitempty"`
	// Suite is the full-suite command of a stack the gate does not run
	// natively (node, rust, make, unittest); nil when there is none.
	Suite *Command `json:"suite,omitempty"`
	// BareClaims maps each claim the submitter gave without its package or
	// file (go:TestName, pytest:test_x) to the claims pre-flight resolved
	// it to, which are in Claims: a reader sees what the name meant.
	BareClaims map[string][]string `json:"bare_claims,omitempty"`
	// BaselinePasses are the claims a grader says pass on the baseline
	// (a dataset's PASS_TO_PASS tests), sorted, each one of Claims. One
	// that fails on both sides shows that this run's environment is not
	// the grader's, not that the patch broke it: it is unverified, never
	// refuted.
	BaselinePasses []string `json:"baseline_passes,omitempty"`
	// TrustedTests are a grader's held-out tests, laid over both sides
	// before anything is judged; nil without.
	TrustedTests *TrustedTests `json:"trusted_tests,omitempty"`
	// Python is the interpreter pytest claims, the Python suite, coverage
	// and mutants run with: an absolute path, resolved before sealing.
	Python         string `json:"python,omitempty"`
	RequireSandbox bool   `json:"require_sandbox"`
	// FullEvidence keeps measuring (coverage, mutation) after the verdict
	// is certain to be BLOCK; without it those jobs are not run, and say
	// why.
	FullEvidence bool   `json:"full_evidence,omitempty"`
	Limits       Limits `json:"limits"`
	// Budget maps each dimension to the units the run may spend.
	Budget    map[string]uint64 `json:"budget"`
	TaskGraph TaskGraph         `json:"task_graph"`
	// DeadlineUnixMilli is when missing evidence becomes INCONCLUSIVE.
	DeadlineUnixMilli int64 `json:"deadline_unix_ms"`
}

// TrustedTests are a grader's held-out tests: the test files of a commit,
// or a test patch. The grader is trusted and the patch is not: both sides
// run with them, after the baseline's test files are put back, and the
// patch's own edits to them are discarded.
type TrustedTests struct {
	// Commit is the full id of the commit whose test files are the
	// trusted tests; "" for a patch.
	Commit string `json:"commit,omitempty"`
	// PatchDigest is the hex SHA-256 of the trusted test patch, the name
	// of the blob holding it; "" for a commit.
	PatchDigest string `json:"patch_digest,omitempty"`
	// Paths are the paths whose content the trusted tests decide, sorted.
	Paths []string `json:"paths"`
	// Discarded are the paths of Paths the patch changes too: its
	// versions are discarded. Sorted.
	Discarded []string `json:"discarded"`
}

func (t *TrustedTests) validate() []string {
	var errs []string
	switch {
	case (t.Commit == "") == (t.PatchDigest == ""):
		errs = append(errs, "trusted_tests: give a commit or a patch digest, one of them")
	case t.Commit != "" && !isCommit(t.Commit):
		errs = append(errs, fmt.Sprintf("trusted_tests: commit %q is not a full commit id", t.Commit))
	case t.PatchDigest != "" && !isHexSHA256(t.PatchDigest):
		errs = append(errs, fmt.Sprintf("trusted_tests: patch_digest %q is not a hex SHA-256", t.PatchDigest))
	}
	if len(t.Paths) == 0 {
		errs = append(errs, "trusted_tests: no paths")
	}
	paths := map[string]bool{}
	for _, p := range t.Paths {
		if !cleanRelative(p) {
			errs = append(errs, fmt.Sprintf("trusted_tests: path %q is not a clean relative path", p))
		}
		paths[p] = true
	}
	for _, p := range t.Discarded {
		if !paths[p] {
			errs = append(errs, fmt.Sprintf("trusted_tests: discarded %q is not one of the paths", p))
		}
	}
	return errs
}

// cleanRelative reports a clean, slash-separated path inside the
// repository, as a tree lists it.
func cleanRelative(p string) bool {
	return p != "" && p != "." && utf8.ValidString(p) && !strings.HasPrefix(p, "/") && path.Clean(p) == p &&
		!slices.Contains(strings.Split(p, "/"), "..") && !strings.ContainsRune(p, 0)
}

// Command is a declared command: a shell command line run in the tree's
// root, and the JUnit file it writes (relative to that root), if any.
// Without a JUnit file the gate has no case count from it.
type Command struct {
	Run   string `json:"run"`
	JUnit string `json:"junit,omitempty"`
}

// ID is the command's identity: what a seal check's result is matched
// back by. Two checks are the same check exactly when their IDs are equal.
// Each field is length-prefixed, so no bytes in one field can stand for the
// other: job specs carry the pair without the criteria's checks.
func (c Command) ID() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d:%s%d:%s", len(c.Run), c.Run, len(c.JUnit), c.JUnit))
	return hex.EncodeToString(sum[:8])
}

func (c Command) validate(what string) error {
	switch {
	case strings.TrimSpace(c.Run) == "":
		return fmt.Errorf("%s has an empty command", what)
	case strings.ContainsAny(c.Run, "\n\r\x00") || !utf8.ValidString(c.Run):
		return fmt.Errorf("%s command %q is not one line of text", what, c.Run)
	case c.JUnit != "" && (strings.ContainsFunc(c.JUnit, unicode.IsControl) || !utf8.ValidString(c.JUnit) || strings.HasPrefix(c.JUnit, "/") || path.Clean(c.JUnit) != c.JUnit || slices.Contains(strings.Split(c.JUnit, "/"), "..")):
		return fmt.Errorf("%s junit %q must be a clean relative path inside the repository", what, c.JUnit)
	}
	return nil
}

// Limits bound every process the run starts.
type Limits struct {
	ClaimTimeoutSec int    `json:"claim_timeout_s"`
	SuiteTimeoutSec int    `json:"suite_timeout_s"`
	MemoryBytes     uint64 `json:"memory_bytes"`
	CPUSeconds      uint64 `json:"cpu_seconds"`
	MaxProcesses    uint64 `json:"max_processes"`
	MaxOpenFiles    uint64 `json:"max_open_files"`
	StabilityReruns int    `json:"stability_reruns"`
}

// TaskGraph limits the run's step graph. They are inside the sealed criteria,
// so no planner can widen them afterwards.
type TaskGraph struct {
	MaxDepth  uint32 `json:"max_depth"`
	MaxFanout uint32 `json:"max_fanout"`
}

// Sealed is criteria in canonical form with their digest.
type Sealed struct {
	Criteria  *Criteria
	Canonical []byte
	// Digest is the hex SHA-256 of Canonical.
	Digest string
}

// Seal validates c and returns its canonical form and digest. It does not
// fill defaults: call ApplyDefaults first when building criteria from flags.
func Seal(c *Criteria) (*Sealed, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cc := *c
	cc.Claims = sortedUnique(c.Claims)
	cc.TestSupport = sortedUnique(c.TestSupport)
	if c.TrustedTests != nil {
		t := *c.TrustedTests
		t.Paths, t.Discarded = sortedUnique(t.Paths), sortedUnique(t.Discarded)
		cc.TrustedTests = &t
	}
	if c.BaselinePasses != nil {
		cc.BaselinePasses = sortedUnique(c.BaselinePasses)
	}
	if c.BareClaims != nil {
		cc.BareClaims = make(map[string][]string, len(c.BareClaims))
		for k, v := range c.BareClaims {
			cc.BareClaims[k] = sortedUnique(v)
		}
	}
	// The seal plan keeps its order: checks are matched by identity, but
	// the plan is what the submitter asked for, as asked.
	b, err := canonical.Marshal(&cc)
	if err != nil {
		return nil, fmt.Errorf("criteria: %w", err)
	}
	sum := sha256.Sum256(b)
	return &Sealed{Criteria: &cc, Canonical: b, Digest: hex.EncodeToString(sum[:])}, nil
}

// Parse reads sealed criteria: unknown fields, a foreign schema, invalid
// values or a non-canonical encoding are refused.
func Parse(canonicalBytes []byte) (*Sealed, error) {
	dec := json.NewDecoder(bytes.NewReader(canonicalBytes))
	dec.DisallowUnknownFields()
	var c Criteria
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("criteria: %w", err)
	}
	if dec.More() {
		return nil, errors.New("criteria: trailing data")
	}
	s, err := Seal(&c)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(s.Canonical, canonicalBytes) {
		return nil, errors.New("criteria: not in canonical form")
	}
	return s, nil
}

// ApplyDefaults fills every zero limit, budget and graph bound with its
// default. Floors are not touched: their defaults are applied by whoever
// parses the request, because 0 is a meaningful floor.
func (c *Criteria) ApplyDefaults() {
	if c.Schema == "" {
		c.Schema = Schema
	}
	if c.Limits.ClaimTimeoutSec == 0 {
		c.Limits.ClaimTimeoutSec = DefaultClaimTimeoutSec
	}
	if c.Limits.SuiteTimeoutSec == 0 {
		c.Limits.SuiteTimeoutSec = DefaultSuiteTimeoutSec
	}
	if c.Limits.MemoryBytes == 0 {
		c.Limits.MemoryBytes = DefaultMemoryBytes
	}
	if c.Limits.CPUSeconds == 0 {
		c.Limits.CPUSeconds = 1800
	}
	if c.Limits.MaxProcesses == 0 {
		c.Limits.MaxProcesses = 4096
	}
	if c.Limits.MaxOpenFiles == 0 {
		c.Limits.MaxOpenFiles = 4096
	}
	if c.TaskGraph.MaxDepth == 0 {
		c.TaskGraph.MaxDepth = DefaultMaxDepth
	}
	if c.TaskGraph.MaxFanout == 0 {
		c.TaskGraph.MaxFanout = DefaultMaxFanout
	}
	if c.Budget == nil {
		c.Budget = map[string]uint64{
			BudgetTestRuns:   512,
			BudgetMutants:    uint64(max(c.MutationMax, 0)),
			BudgetCPUSeconds: 4 * 3600,
		}
	}
}

// Validate checks that c can be sealed.
func (c *Criteria) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if c.Schema != Schema {
		bad("schema %q, want %q", c.Schema, Schema)
	}
	if c.RunID == "" {
		bad("run_id is empty")
	}
	if !isCommit(c.Baseline) {
		bad("baseline_commit %q is not a full commit id", c.Baseline)
	}
	if c.PatchCommit != "" && !isCommit(c.PatchCommit) {
		bad("patch_commit %q is not a full commit id", c.PatchCommit)
	}
	if !isHexSHA256(c.PatchDigest) {
		bad("patch_digest %q is not a hex SHA-256", c.PatchDigest)
	}
	if len(c.Claims) == 0 && !c.DiscoverClaims {
		bad("no claims and discover_claims is off")
	}
	for _, cl := range c.Claims {
		if err := ValidateClaim(cl); err != nil {
			bad("%v", err)
		}
	}
	for name, f := range map[string]float64{"coverage_floor": c.CoverageFloor, "strength_floor": c.StrengthFloor} {
		if math.IsNaN(f) || f < 0 || f > 1 {
			bad("%s %v is outside [0, 1]", name, f)
		}
	}
	if !(c.StrengthConfidence > 0 && c.StrengthConfidence < 1) {
		bad("strength_confidence %v is outside (0, 1)", c.StrengthConfidence)
	}
	if c.MutationMax < 0 {
		bad("mutation_max %d is negative", c.MutationMax)
	}
	for _, g := range c.TestSupport {
		if g == "" || strings.HasPrefix(g, "/") || slices.Contains(strings.Split(g, "/"), "..") {
			bad("test_support glob %q must be a relative path pattern inside the repository", g)
		}
	}
	seen := map[string]bool{}
	for _, s := range c.SealPlan {
		if err := s.validate("seal_plan"); err != nil {
			bad("%v", err)
		} else if seen[s.ID()] {
			bad("seal_plan lists %q twice", s.Run)
		}
		seen[s.ID()] = true
	}
	// A seal plan the budget cannot pay for is refused here, before
	// anything runs: each check is at least one test process.
	if n := uint64(len(c.SealPlan)); n > 0 && (n > c.Budget[BudgetTestRuns] || n > uint64(c.TaskGraph.MaxFanout)) {
		bad("seal_plan has %d checks: over the test_runs budget (%d) or the fan-out limit (%d)", n, c.Budget[BudgetTestRuns], c.TaskGraph.MaxFanout)
	}
	for label, cmd := range c.Commands {
		if err := ValidateClaim("cmd:" + label); err != nil {
			bad("commands: %v", err)
		}
		if err := cmd.validate("commands[" + label + "]"); err != nil {
			bad("%v", err)
		}
	}
	for _, cl := range c.Claims {
		if label, ok := strings.CutPrefix(cl, "cmd:"); ok {
			if _, ok := c.Commands[label]; !ok {
				bad("claim %q has no declared command", cl)
			}
		}
	}
	if c.Suite != nil {
		if err := c.Suite.validate("suite"); err != nil {
			bad("%v", err)
		}
	}
	if c.TrustedTests != nil {
		errs = append(errs, c.TrustedTests.validate()...)
	}
	for bare, resolved := range c.BareClaims {
		if !IsBareClaim(bare) {
			bad("bare_claims: %q is not a claim without its package or file", bare)
		}
		// Resolving to nothing is recorded, not refused: a grader's test
		// list may name tests no test file declares (the request says
		// whether that is an error).
		for _, r := range resolved {
			if !slices.Contains(c.Claims, r) {
				bad("bare_claims: %q resolves to %q, which is not a claim", bare, r)
			}
		}
	}
	for _, p := range c.BaselinePasses {
		if !slices.Contains(c.Claims, p) {
			bad("baseline_passes: %q is not a claim", p)
		}
	}
	if c.Python != "" && !strings.HasPrefix(c.Python, "/") {
		bad("python %q is not an absolute path", c.Python)
	}
	if c.Limits.ClaimTimeoutSec <= 0 || c.Limits.SuiteTimeoutSec <= 0 {
		bad("limits: timeouts must be positive")
	}
	if c.Limits.StabilityReruns < 0 {
		bad("limits: stability_reruns is negative")
	}
	if c.TaskGraph.MaxDepth == 0 || c.TaskGraph.MaxFanout == 0 {
		bad("task_graph: max_depth and max_fanout must be positive")
	}
	if len(c.Budget) == 0 {
		bad("budget is empty")
	}
	for dim := range c.Budget {
		if dim != BudgetTestRuns && dim != BudgetMutants && dim != BudgetCPUSeconds {
			bad("budget dimension %q is unknown", dim)
		}
	}
	if c.DeadlineUnixMilli <= 0 {
		bad("deadline_unix_ms is not set")
	}
	if len(errs) > 0 {
		return fmt.Errorf("criteria: %s", strings.Join(errs, "; "))
	}
	return nil
}

// ValidateClaim checks a claim's syntax: go:./pkg/path:TestName,
// pytest:path/test_x.py::test_name, or cmd:LABEL. A claim is one line of
// printable UTF-8: it is shown in verdicts and passed to test runners, so a
// newline or a control character in it is refused, as is a pytest node id
// with an empty name and a command label that is not one word (the labels
// of .sealgate.yaml: 1 to 64 letters, digits, '.', '_' or '-', starting
// with a letter or digit).
func ValidateClaim(claim string) error {
	if i := strings.IndexFunc(claim, isControlRune); i >= 0 || !utf8.ValidString(claim) {
		return fmt.Errorf("claim %q: a claim is one line of printable text (no newline, tab or control character)", claim)
	}
	scheme, rest, ok := strings.Cut(claim, ":")
	switch {
	case !ok || rest == "":
		return fmt.Errorf("claim %q: want go:./pkg:TestName, pytest:file.py::test or cmd:LABEL", claim)
	case scheme == "go":
		pkg, name, ok := strings.Cut(rest, ":")
		if !ok || pkg == "" || name == "" || !strings.HasPrefix(pkg, ".") {
			return fmt.Errorf("claim %q: want go:./pkg/path:TestName", claim)
		}
		if !strings.HasPrefix(name, "Test") || strings.ContainsAny(name, " \t^$*+?()[]{}|\\") {
			return fmt.Errorf("claim %q: %q is not a Go test name", claim, name)
		}
		if slices.Contains(strings.Split(pkg, "/"), "..") || strings.ContainsAny(pkg, " ") {
			return fmt.Errorf("claim %q: package path must stay inside the repository", claim)
		}
	case scheme == "pytest":
		file, name, ok := strings.Cut(rest, "::")
		if !ok || !strings.HasSuffix(file, ".py") || strings.HasPrefix(file, "/") || slices.Contains(strings.Split(file, "/"), "..") {
			return fmt.Errorf("claim %q: want pytest:relative/test_file.py::test_name", claim)
		}
		for _, part := range strings.Split(name, "::") {
			if strings.TrimSpace(part) == "" || strings.TrimSpace(part) != part || strings.HasPrefix(part, "-") {
				return fmt.Errorf("claim %q: every name after the file (test, class::test) must be non-empty, without surrounding spaces or a leading '-'", claim)
			}
		}
	case scheme == "cmd":
		if !isCommandLabel(rest) {
			return fmt.Errorf("claim %q: a command label is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", claim)
		}
	default:
		return fmt.Errorf("claim %q: unknown kind %q (go, pytest or cmd)", claim, scheme)
	}
	return nil
}

// IsBareClaim reports a claim given without its package (go:TestName,
// go:TestName/sub) or its file (pytest:test_x, pytest:TestK::test_m,
// pytest:test_p[id]): pre-flight resolves it to the claims of the tests
// that declare it (ValidateRequestClaim checks its syntax).
func IsBareClaim(claim string) bool {
	scheme, rest, ok := strings.Cut(claim, ":")
	if !ok || rest == "" {
		return false
	}
	switch scheme {
	case "go":
		return !strings.Contains(rest, ":")
	case "pytest":
		file, _, _ := strings.Cut(rest, "::")
		if i := strings.IndexByte(file, '['); i >= 0 {
			file = file[:i]
		}
		return !strings.HasSuffix(file, ".py") && !strings.Contains(file, "/")
	}
	return false
}

// ValidateRequestClaim checks a claim as a submitter may give it: a claim
// ValidateClaim accepts, or a bare one (IsBareClaim) whose name is a Go
// test name (go:TestName, go:TestName/sub) or a pytest node id without its
// file (test_x, TestK::test_m, test_p[id]).
func ValidateRequestClaim(claim string) error {
	if !IsBareClaim(claim) {
		return ValidateClaim(claim)
	}
	scheme, rest, _ := strings.Cut(claim, ":")
	if scheme == "go" {
		if !strings.HasPrefix(rest, "Test") || strings.ContainsAny(rest, " \t^$*+?()[]{}|\\") {
			return fmt.Errorf("claim %q: %q is not a Go test name", claim, rest)
		}
		return nil
	}
	name := rest
	if i := strings.IndexByte(name, '['); i >= 0 {
		if !strings.HasSuffix(name, "]") {
			return fmt.Errorf("claim %q: a parameter id ends with ]", claim)
		}
		name = name[:i]
	}
	for _, part := range strings.Split(name, "::") {
		if !isIdentifier(part) {
			return fmt.Errorf("claim %q: want pytest:test_name or pytest:TestClass::test_name (or the node id with its file)", claim)
		}
	}
	if strings.ContainsFunc(rest, unicode.IsControl) || !utf8.ValidString(rest) {
		return fmt.Errorf("claim %q is not one line of text", claim)
	}
	return nil
}

// isIdentifier reports an ASCII Python identifier.
func isIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func isControlRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029'
}

// isCommandLabel is the spelling of a cmd:LABEL claim's label.
func isCommandLabel(s string) bool {
	if len(s) == 0 || len(s) > 64 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-' {
			return false
		}
	}
	return true
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

func isCommit(s string) bool {
	return (len(s) == 40 || len(s) == 64) && isHex(s)
}

func isHexSHA256(s string) bool { return len(s) == 64 && isHex(s) }

func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}

func sortedUnique(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}
