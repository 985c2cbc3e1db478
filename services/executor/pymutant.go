package executor

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Python mutants run in memory. The file on disk stays the patch's: a
// pytest plugin the gate writes outside the tree (pymutant_boot.py, loaded
// with -p under a name new for every run) loads every mutated file of the
// run through its own loader, compiled with the active mutant's edit made,
// when there is one. Which mutant is active is keyed by a per-run secret,
// as for Go: every process of a Python mutant job — the unmutated
// reference runs included — gets the variable <var>=<token> <marker>, var
// a name new for every run, token 32 hex digits from crypto/rand. The
// plugin knows only SHA-256(token) → the mutant's edit and removes the
// variable before any code of the tree runs; a reference run's token
// matches nothing, so it runs the original program through the same
// loader. The first time the mutated code runs, it appends the token to
// the marker file. A kill counts only when a test that passed in the
// reference run fails in its call phase and the marker holds exactly the
// active token: an import error, a collection error, an error in a
// fixture's setup or teardown, a failure of a test that fails without the
// mutant, or a failure in a process where the mutated code never ran is
// not one.

//go:embed pymutant_boot.py
var pyBoot string

// Limits on what a mutant job's process writes for the gate to read.
const (
	// maxPyReports bounds reports.jsonl, maxPyReportLines its lines.
	maxPyReports     = 16 << 20
	maxPyReportLines = 200_000
	// maxMarker bounds the marker file: a token and a line feed.
	maxMarker = 4096
)

// pyRun is a run's Python mutant switch: its secrets, the mutants it
// knows, and the reference runs made so far. The zero value is ready to
// use.
type pyRun struct {
	mu sync.Mutex
	// varName is the switch's variable, module the plugin's name, hit
	// the name bound in every mutated module for the hit call.
	varName, module, hit string
	tokens               map[int]string
	mutants              map[int]pyMutant
	refs                 map[string]*pyReference
}

// pyMutant is one mutant as the plugin's table holds it.
type pyMutant struct {
	Path        string `json:"path"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
	Original    string `json:"original"`
	Replacement string `json:"replacement"`
}

// pyReference is what an unmutated run of one selection of tests
// established.
type pyReference struct {
	// passed are the node ids that passed every phase; the others run no
	// more (they are deselected) and judge nothing.
	passed  map[string]bool
	failing []string
	wall    time.Duration
	// unusable says why no mutant can be judged by this selection, or "".
	unusable string
}

// RegisterPythonMutants makes the run's Python mutants known before any of
// them runs, so that every process of the run — reference runs included —
// gets the same plugin with the same table. A mutant not registered is
// added when its job runs. A mutant whose edit does not fit its file is
// left out (its job says so) and named in the error.
func (w *Workspace) RegisterPythonMutants(specs []*jobs.Spec) error {
	w.py.mu.Lock()
	defer w.py.mu.Unlock()
	var errs []error
	for _, s := range specs {
		if s.Runner == jobs.RunnerPytest && s.Purpose == jobs.Mutant && s.Mutation != nil {
			if _, err := w.pyAdd(s.Mutation); err != nil {
				errs = append(errs, fmt.Errorf("mutant %d: %w", s.Mutation.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}

// pyAdd adds a mutant to the run's switch and returns its token; w.py.mu
// must be held.
func (w *Workspace) pyAdd(m *jobs.MutantRef) (string, error) {
	p := &w.py
	if p.varName == "" {
		v, err := randomHex(8)
		if err != nil {
			return "", err
		}
		p.varName, p.module, p.hit = "SEALGATE_M_"+strings.ToUpper(v), "sealgate_boot_"+v, "_sealgate_hit_"+v
		p.tokens, p.mutants, p.refs = map[int]string{}, map[int]pyMutant{}, map[string]*pyReference{}
	}
	if t, ok := p.tokens[m.ID]; ok {
		return t, nil
	}
	src, err := os.ReadFile(filepath.Join(w.tree(jobs.TreeOracle), filepath.FromSlash(m.Path)))
	if err != nil || m.Start < 0 || m.End <= m.Start || m.End > len(src) || !utf8.Valid(src[m.Start:m.End]) || !utf8.ValidString(m.Replacement) {
		return "", fmt.Errorf("the mutant's edit does not fit %s", m.Path)
	}
	token, err := randomHex(16)
	if err != nil {
		return "", err
	}
	p.tokens[m.ID] = token
	p.mutants[m.ID] = pyMutant{Path: m.Path, Start: m.Start, End: m.End, Original: string(src[m.Start:m.End]), Replacement: m.Replacement}
	return token, nil
}

// pyPlugin returns the plugin's source with the run's table: the variable,
// the hit name, the files the plugin loads, and SHA-256 of each token →
// its mutant. w.py.mu must be held.
func (w *Workspace) pyPlugin() (string, error) {
	p := &w.py
	table := struct {
		Var     string              `json:"var"`
		Hit     string              `json:"hit"`
		Files   []string            `json:"files"`
		Mutants map[string]pyMutant `json:"mutants"`
	}{Var: p.varName, Hit: p.hit, Files: []string{}, Mutants: map[string]pyMutant{}}
	files := map[string]bool{}
	for id, m := range p.mutants {
		sum := sha256.Sum256([]byte(p.tokens[id]))
		table.Mutants[hex.EncodeToString(sum[:])] = m
		files[m.Path] = true
	}
	table.Files = slices.Sorted(maps.Keys(files))
	b, err := json.Marshal(table)
	if err != nil {
		return "", err
	}
	// A JSON string is a Python string literal.
	lit, err := json.Marshal(string(b))
	if err != nil {
		return "", err
	}
	if strings.Count(pyBoot, "TABLE_JSON") != 1 {
		return "", errors.New("the mutant plugin has no single table placeholder")
	}
	return strings.Replace(pyBoot, "TABLE_JSON", string(lit), 1), nil
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// pyProcess is what one pytest process of a mutant job left.
type pyProcess struct {
	res     sandbox.Result
	stderr  string
	marker  []byte
	reports []pyReport
	// rerr says why the reports cannot be read.
	rerr error
}

// runPyMutantProcess runs the selected tests (deselect left out) once in a
// fresh copy of the oracle tree with the plugin loaded and the switch set
// to token.
func (e *Executor) runPyMutantProcess(ctx context.Context, w *Workspace, a *Answer, s *jobs.Spec, plugin, token string, tests, deselect []string) (pyProcess, error) {
	dir, out, cleanup, err := w.processTrees(s)
	defer cleanup()
	if err != nil {
		return pyProcess{}, err
	}
	w.py.mu.Lock()
	module, varName := w.py.module, w.py.varName
	w.py.mu.Unlock()
	marker := filepath.Join(out, "marker")
	for name, content := range map[string]string{module + ".py": plugin, "marker": "", "reports.jsonl": ""} {
		if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
			return pyProcess{}, err
		}
	}
	argv := append([]string{s.Python}, PytestArgs(filepath.Join(out, "junit.xml"))...)
	argv = append(argv, "-p", module)
	for _, d := range deselect {
		argv = append(argv, "--deselect", d)
	}
	argv = append(argv, tests...)
	env := append(pythonEnv(), "PYTHONPATH="+out, varName+"="+token+" "+marker)
	r, err := e.start(ctx, w, a, proc{dir: dir, argv: argv, env: env, ro: pythonBinds(s.Python), rw: []string{out}, timeout: timeoutOf(s), readOnly: true})
	if err != nil {
		return pyProcess{}, err
	}
	p := pyProcess{res: r.res, stderr: r.stderr}
	p.marker, _ = readBounded(marker, maxMarker)
	b, err := readBounded(filepath.Join(out, "reports.jsonl"), maxPyReports)
	if err == nil {
		p.reports, p.rerr = readPyReports(b)
	} else {
		p.rerr = err
	}
	return p, nil
}

// readBounded reads at most max bytes of a file; more is an error.
func readBounded(p string, max int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > max {
		return b[:max], fmt.Errorf("%s holds more than %d bytes", filepath.Base(p), max)
	}
	return b, nil
}

// pyReport is one test report the plugin recorded: a phase of a test.
type pyReport struct {
	NodeID, When, Outcome string
}

// readPyReports reads reports.jsonl strictly: one JSON object per line
// with exactly the string members nodeid (a non-empty node id without
// control characters), when (setup, call or teardown) and outcome
// (passed, failed or skipped). The file is written inside the test
// process, so it is outside input: anything else is an error, never a
// partial list.
func readPyReports(b []byte) ([]pyReport, error) {
	if len(b) > maxPyReports {
		return nil, fmt.Errorf("the test reports are %d bytes, more than %d", len(b), maxPyReports)
	}
	if !utf8.Valid(b) {
		return nil, errors.New("the test reports are not valid UTF-8")
	}
	var out []pyReport
	if len(b) == 0 {
		return out, nil
	}
	if b[len(b)-1] != '\n' {
		return nil, errors.New("the test reports end in the middle of a line")
	}
	for i, line := range bytes.Split(b[:len(b)-1], []byte("\n")) {
		if len(out) == maxPyReportLines {
			return nil, fmt.Errorf("the test reports have more than %d lines", maxPyReportLines)
		}
		var r struct {
			NodeID  *string `json:"nodeid"`
			When    *string `json:"when"`
			Outcome *string `json:"outcome"`
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("test report line %d: %v", i+1, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, fmt.Errorf("test report line %d: more than one JSON value", i+1)
		}
		switch {
		case r.NodeID == nil || r.When == nil || r.Outcome == nil:
			return nil, fmt.Errorf("test report line %d: a member is missing", i+1)
		case *r.NodeID == "" || strings.IndexFunc(*r.NodeID, unicode.IsControl) >= 0:
			return nil, fmt.Errorf("test report line %d: node id %q", i+1, *r.NodeID)
		case *r.When != "setup" && *r.When != "call" && *r.When != "teardown":
			return nil, fmt.Errorf("test report line %d: phase %q", i+1, *r.When)
		case *r.Outcome != "passed" && *r.Outcome != "failed" && *r.Outcome != "skipped":
			return nil, fmt.Errorf("test report line %d: outcome %q", i+1, *r.Outcome)
		}
		out = append(out, pyReport{NodeID: *r.NodeID, When: *r.When, Outcome: *r.Outcome})
	}
	return out, nil
}

// pyReferenceFor returns the reference run of a selection of tests, making
// it the first time: the same plugin and switch variable as the mutant
// runs, with a token that matches no mutant.
func (e *Executor) pyReferenceFor(ctx context.Context, w *Workspace, a *Answer, s *jobs.Spec, plugin string, tests []string) (*pyReference, error) {
	key := strings.Join(tests, "\x00")
	w.py.mu.Lock()
	ref := w.py.refs[key]
	w.py.mu.Unlock()
	if ref != nil {
		return ref, nil
	}
	inert, err := randomHex(16)
	if err != nil {
		return nil, err
	}
	p, err := e.runPyMutantProcess(ctx, w, a, s, plugin, inert, tests, nil)
	if err != nil {
		return nil, err
	}
	ref = &pyReference{passed: map[string]bool{}, wall: p.res.Wall}
	phases := map[string]map[string]string{}
	for _, r := range p.reports {
		if phases[r.NodeID] == nil {
			phases[r.NodeID] = map[string]string{}
		}
		if phases[r.NodeID][r.When] != "failed" {
			phases[r.NodeID][r.When] = r.Outcome
		}
	}
	for _, id := range slices.Sorted(maps.Keys(phases)) {
		ph := phases[id]
		if ph["setup"] == "passed" && ph["call"] == "passed" && ph["teardown"] != "failed" {
			ref.passed[id] = true
		} else {
			ref.failing = append(ref.failing, id)
		}
	}
	switch {
	case p.res.Termination != sandbox.Exited:
		ref.unusable = fmt.Sprintf("the unmutated reference run of the reaching tests did not finish (%s)", p.res.Termination)
	case p.res.ExitCode != 0 && p.res.ExitCode != 1:
		ref.unusable = fmt.Sprintf("the unmutated reference run of the reaching tests: pytest exit %d, %s: %s", p.res.ExitCode, pytestExit(p.res.ExitCode), firstLine(p.stderr))
	case p.rerr != nil:
		ref.unusable = fmt.Sprintf("the unmutated reference run's test reports cannot be read: %v", p.rerr)
	case len(p.marker) > 0:
		ref.unusable = "the unmutated reference run wrote the gate's marker file: code under test writes it, so no kill can be attributed"
	case len(ref.passed) == 0:
		ref.unusable = "no test that reaches the line passes unmutated"
	}
	w.py.mu.Lock()
	w.py.refs[key] = ref
	w.py.mu.Unlock()
	return ref, nil
}

// executePytestMutant runs the tests that reach a Python mutant's line
// with the mutant applied in memory (see above), after the same tests ran
// unmutated once, stopping at the first test that fails in its call phase.
// Killed needs a test that passed unmutated to fail in its call phase in a
// process whose marker holds the mutant's token; all passing is survived;
// anything that is no test verdict (a collection or usage error, a
// timeout, a death, errors only in setup or teardown) is stillborn, out of
// both sides of the ratio.
func (e *Executor) executePytestMutant(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}}}
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	m := s.Mutation
	var tests []string
	for _, t := range s.Targets {
		tests = append(tests, t.Tests...)
	}
	slices.Sort(tests)
	tests = slices.Compact(tests)
	if len(tests) == 0 {
		return done(jobs.OutcomeStillborn, "no test reaches the mutant's line")
	}
	w.py.mu.Lock()
	token, err := w.pyAdd(m)
	var plugin string
	if err == nil {
		plugin, err = w.pyPlugin()
	}
	w.py.mu.Unlock()
	if err != nil {
		return done(jobs.OutcomeStillborn, "%v", err)
	}
	ref, err := e.pyReferenceFor(ctx, w, a, s, plugin, tests)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	if ref.unusable != "" {
		return done(jobs.OutcomeStillborn, "%s", ref.unusable)
	}
	p, err := e.runPyMutantProcess(ctx, w, a, s, plugin, token, tests, ref.failing)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	return judgePyMutant(a, p, ref, token, m)
}

// judgePyMutant decides a mutant from its process and the reference run.
func judgePyMutant(a *Answer, p pyProcess, ref *pyReference, token string, m *jobs.MutantRef) *Answer {
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	switch {
	case p.res.Termination == sandbox.Timeout:
		return done(jobs.OutcomeStillborn, "the tests did not finish with the mutant within the limit (the reference run took %v): a hang is no test failure", ref.wall.Round(time.Millisecond))
	case p.res.Termination != sandbox.Exited:
		return done(jobs.OutcomeStillborn, "the tests died with the mutant (%s): a harness death is no kill", p.res.Termination)
	case p.res.ExitCode != 0 && p.res.ExitCode != 1:
		return done(jobs.OutcomeStillborn, "pytest exit %d with the mutant, %s: no test verdict", p.res.ExitCode, pytestExit(p.res.ExitCode))
	case p.rerr != nil:
		return done(jobs.OutcomeStillborn, "the test reports cannot be read: %v", p.rerr)
	}
	ran := bytes.Equal(p.marker, []byte(token+"\n"))
	var failed []string
	passed := map[string]bool{}
	for _, r := range p.reports {
		if !ref.passed[r.NodeID] {
			continue // judges nothing: it did not pass unmutated
		}
		switch {
		case r.When == "call" && r.Outcome == "failed":
			failed = append(failed, r.NodeID)
		case r.When == "call" && r.Outcome == "passed":
			passed[r.NodeID] = true
		}
	}
	where := fmt.Sprintf("%s:%d", m.Path, m.Line)
	switch {
	case len(failed) > 0 && p.res.ExitCode != 1:
		return done(jobs.OutcomeStillborn, "pytest exit %d although %s failed: the reports disagree with the exit", p.res.ExitCode, failed[0])
	case len(failed) > 0 && ran:
		a.Detail.KilledBy = failed[0]
		return done(jobs.OutcomeKilled, "%s fails in its call phase with the mutant, after the mutated code ran", failed[0])
	case len(failed) > 0 && len(p.marker) == 0:
		return done(jobs.OutcomeSurvived, "%s fails, but the mutated code at %s never ran in that process: not attributable to the mutant", failed[0], where)
	case len(failed) > 0:
		return done(jobs.OutcomeSurvived, "%s fails, but the marker file holds something other than the mutant's token: not attributable to the mutant", failed[0])
	case p.res.ExitCode == 1:
		return done(jobs.OutcomeStillborn, "pytest exit 1 with the mutant and no test that passed unmutated fails in its call phase: an error in setup, teardown or collection is no kill")
	case len(passed) == 0:
		return done(jobs.OutcomeStillborn, "exit 0 but no reaching test ran with the mutant")
	case !ran:
		return done(jobs.OutcomeSurvived, "%d reaching tests pass with the mutant; the mutated code at %s never ran in them", len(passed), where)
	}
	return done(jobs.OutcomeSurvived, "%d reaching tests pass with the mutant", len(passed))
}
