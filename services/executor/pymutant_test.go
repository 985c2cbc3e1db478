package executor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Attacks on the attribution of Python kills, each beside its honest twin,
// against real pytest in the sandbox.
const (
	// hashedCalc rebinds add to None when its own file differs from the
	// copy the patch committed beside it: a mutant written into the file
	// would break add, so every mutant would "die".
	hashedCalc = `import hashlib
import os


def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def unused(x):
    return x + 1


with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "calc.sum")) as _f:
    if hashlib.sha256(open(__file__, "rb").read()).hexdigest() != _f.read().strip():
        add = None
`
	// probingCalc rebinds add to None when it sees the gate's switch in
	// its environment, however it is named.
	probingCalc = `import os


def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def unused(x):
    return x + 1


if any(k.startswith("SEALGATE") or " /" in v for k, v in os.environ.items()):
    add = None
`
	fixtureTests = `import pytest

from calc import mul


@pytest.fixture
def six():
    assert mul(2, 3) == 6
    return 6


def test_uses_six(six):
    assert six == 6
`
	brokenTests = `def test_broken():
    assert False, "fails without any mutant"
`
	// markerTests writes to every file called marker beside the JUnit
	// report it finds in its arguments.
	markerTests = `import os
import sys


def test_writes_marker():
    for a in sys.argv:
        if a.startswith("--junitxml="):
            with open(os.path.join(os.path.dirname(a.split("=", 1)[1]), "marker"), "a") as f:
                f.write("forged\n")
`
)

func TestPytestMutantAttribution(t *testing.T) {
	sum := sha256.Sum256([]byte(hashedCalc))
	extra := map[string]string{
		"tests/test_fixture.py": fixtureTests,
		"tests/test_broken.py":  brokenTests,
		"tests/test_marker.py":  markerTests,
	}
	const (
		add     = "tests/test_calc.py::test_add"
		mul     = "tests/test_calc.py::test_mul"
		fixture = "tests/test_fixture.py::test_uses_six"
		broken  = "tests/test_broken.py::test_broken"
		marker  = "tests/test_marker.py::test_writes_marker"
	)
	ctx := context.Background()
	for _, tc := range []struct {
		name, calc, sum string
		edit            func(src string) (start, end int, repl string)
		tests           []string
		outcome, why    string
		killedBy        string
	}{{
		// Attack: the mutant of unused, which no test calls, used to
		// break add through the file's hash; in memory it does not.
		name: "a module hashing its own file", calc: hashedCalc, sum: hex.EncodeToString(sum[:]),
		edit:  at("x + 1", 4, "2"),
		tests: []string{add, mul}, outcome: jobs.OutcomeSurvived, why: "never ran in them",
	}, {
		// Twin: a mutant of add in the same module is killed.
		name: "the same module, a mutant its tests catch", calc: hashedCalc, sum: hex.EncodeToString(sum[:]),
		edit:  at("a + b", 2, "-"),
		tests: []string{add, mul}, outcome: jobs.OutcomeKilled, why: "after the mutated code ran", killedBy: add,
	}, {
		// Attack: the switch variable is gone before the module runs, in
		// the reference run as in the mutant's: it sees nothing.
		name: "a module probing its environment", calc: probingCalc,
		edit:  at("x + 1", 4, "2"),
		tests: []string{add, mul}, outcome: jobs.OutcomeSurvived, why: "2 reaching tests pass",
	}, {
		name: "the probing module, a mutant its tests catch", calc: probingCalc,
		edit:  at("a * b", 2, "/"),
		tests: []string{add, mul}, outcome: jobs.OutcomeKilled, killedBy: mul,
	}, {
		// An error in a fixture's setup is no kill.
		name: "a fixture fails", edit: at("a * b", 2, "/"),
		tests: []string{fixture}, outcome: jobs.OutcomeStillborn, why: "an error in setup, teardown or collection is no kill",
	}, {
		// A test that fails without the mutant judges nothing: it is
		// deselected, and test_add still kills.
		name: "a test failing unmutated beside one that kills", edit: at("a + b", 2, "*"),
		tests: []string{broken, add}, outcome: jobs.OutcomeKilled, killedBy: add,
	}, {
		name: "only a test failing unmutated", edit: at("a + b", 2, "*"),
		tests: []string{broken}, outcome: jobs.OutcomeStillborn, why: "no test that reaches the line passes unmutated",
	}, {
		// Test code writing the marker shows in the reference run.
		name: "a test writing the marker", edit: at("a + b", 2, "-"),
		tests: []string{marker, add}, outcome: jobs.OutcomeStillborn, why: "wrote the gate's marker file",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			patch := map[string]string{}
			src := patchCalc
			if tc.calc != "" {
				src = tc.calc
				patch["calc.py"] = tc.calc
			}
			if tc.sum != "" {
				patch["calc.sum"] = tc.sum + "\n"
			}
			env := pyWorkspace(t, extra, patch)
			start, end, repl := tc.edit(src)
			s := &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Runner: jobs.RunnerPytest,
				Python: env.c.Python, TimeoutSec: env.c.Limits.ClaimTimeoutSec,
				Mutation: &jobs.MutantRef{ID: 1, Path: "calc.py", Line: 1, Start: start, End: end, Replacement: repl},
				Targets:  []jobs.Target{{Package: ".", Tests: tc.tests}}}
			if err := env.w.RegisterPythonMutants([]*jobs.Spec{s}); err != nil {
				t.Fatal(err)
			}
			a := env.e.Execute(ctx, env.w, s)
			d := a.Detail
			t.Logf("%s: %s", d.Outcome, d.Reason)
			if d.Outcome != tc.outcome || !strings.Contains(d.Reason, tc.why) || d.KilledBy != tc.killedBy {
				t.Errorf("%s (%s) killed by %q, want %s (%s) killed by %q", d.Outcome, d.Reason, d.KilledBy, tc.outcome, tc.why, tc.killedBy)
			}
			// The file on disk is the patch's in the oracle tree.
			if b, err := os.ReadFile(filepath.Join(env.w.PristineDir(jobs.TreeOracle), "calc.py")); err != nil || string(b) != src {
				t.Errorf("calc.py changed: %v", err)
			}
			// The switch's variable name is recorded, never its value.
			for _, n := range a.Sandbox.EnvNames {
				if strings.Contains(n, "=") {
					t.Errorf("an environment entry with its value was recorded: %q", n)
				}
			}
		})
	}
}

// at returns an edit of src: the n-th byte on from where find starts,
// one byte long, replaced with repl.
func at(find string, n int, repl string) func(string) (int, int, string) {
	return func(src string) (int, int, string) {
		i := strings.Index(src, find)
		if i < 0 {
			panic("no " + find)
		}
		return i + n, i + n + 1, repl
	}
}

func TestPyPluginTable(t *testing.T) {
	w := &Workspace{pristine: map[string]string{jobs.TreeOracle: t.TempDir()}}
	src := "def f(a, b):\n    return a + b\n"
	if err := os.WriteFile(filepath.Join(w.pristine[jobs.TreeOracle], "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	plus := strings.Index(src, "+")
	specs := []*jobs.Spec{
		{Purpose: jobs.Mutant, Runner: jobs.RunnerPytest, Mutation: &jobs.MutantRef{ID: 1, Path: "m.py", Start: plus, End: plus + 1, Replacement: "-"}},
		{Purpose: jobs.Mutant, Runner: jobs.RunnerPytest, Mutation: &jobs.MutantRef{ID: 2, Path: "m.py", Start: plus, End: plus + 1, Replacement: "*"}},
		{Purpose: jobs.Mutant, Mutation: &jobs.MutantRef{ID: 3, Path: "x.go"}}, // Go: not Python's
	}
	if err := w.RegisterPythonMutants(specs); err != nil {
		t.Fatal(err)
	}
	w.py.mu.Lock()
	plugin, err := w.pyPlugin()
	tokens := w.py.tokens
	name := w.py.varName
	w.py.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens) != 2 || len(tokens[1]) != 32 || tokens[1] == tokens[2] {
		t.Fatalf("tokens %v: want two distinct 32-digit tokens", tokens)
	}
	if !strings.HasPrefix(name, "SEALGATE_M_") || len(name) != len("SEALGATE_M_")+16 {
		t.Errorf("variable %q", name)
	}
	for id, tok := range tokens {
		if strings.Contains(plugin, tok) {
			t.Errorf("mutant %d's token is in the plugin in clear", id)
		}
		sum := sha256.Sum256([]byte(tok))
		if !strings.Contains(plugin, hex.EncodeToString(sum[:])) {
			t.Errorf("mutant %d's token hash is not in the plugin", id)
		}
	}
	// Registering again keeps the tokens: every process of a run gets the
	// same plugin.
	if err := w.RegisterPythonMutants(specs); err != nil {
		t.Fatal(err)
	}
	w.py.mu.Lock()
	again, _ := w.pyPlugin()
	w.py.mu.Unlock()
	if again != plugin {
		t.Error("the plugin changed when the same mutants were registered again")
	}
	// An edit that does not fit the file is refused.
	bad := []*jobs.Spec{{Purpose: jobs.Mutant, Runner: jobs.RunnerPytest, Mutation: &jobs.MutantRef{ID: 4, Path: "m.py", Start: len(src), End: len(src) + 1, Replacement: "-"}}}
	if err := w.RegisterPythonMutants(bad); err == nil {
		t.Error("an edit past the end of the file was registered")
	}
}

func TestReadPyReports(t *testing.T) {
	good := `{"nodeid": "tests/test_x.py::test_a[1-2]", "outcome": "passed", "when": "setup"}
{"nodeid": "tests/test_x.py::test_a[1-2]", "outcome": "failed", "when": "call"}
`
	rs, err := readPyReports([]byte(good))
	if err != nil || len(rs) != 2 || rs[1] != (pyReport{NodeID: "tests/test_x.py::test_a[1-2]", When: "call", Outcome: "failed"}) {
		t.Fatalf("%+v, %v", rs, err)
	}
	if rs, err := readPyReports(nil); err != nil || len(rs) != 0 {
		t.Errorf("empty: %+v, %v", rs, err)
	}
	for name, bad := range map[string]string{
		"not JSON":         "x\n",
		"missing member":   `{"nodeid": "a", "when": "call"}` + "\n",
		"unknown member":   `{"nodeid": "a", "when": "call", "outcome": "passed", "x": 1}` + "\n",
		"null member":      `{"nodeid": null, "when": "call", "outcome": "passed"}` + "\n",
		"number member":    `{"nodeid": 1, "when": "call", "outcome": "passed"}` + "\n",
		"unknown phase":    `{"nodeid": "a", "when": "collect", "outcome": "passed"}` + "\n",
		"unknown outcome":  `{"nodeid": "a", "when": "call", "outcome": "error"}` + "\n",
		"empty node id":    `{"nodeid": "", "when": "call", "outcome": "passed"}` + "\n",
		"control in id":    `{"nodeid": "a\u0000b", "when": "call", "outcome": "passed"}` + "\n",
		"two values":       `{"nodeid": "a", "when": "call", "outcome": "passed"} {}` + "\n",
		"blank line":       `{"nodeid": "a", "when": "call", "outcome": "passed"}` + "\n\n",
		"cut short":        `{"nodeid": "a", "when": "call", "outc`,
		"invalid UTF-8":    "{\"nodeid\": \"a\xff\", \"when\": \"call\", \"outcome\": \"passed\"}\n",
		"array":            "[]\n",
		"too many reports": strings.Repeat(`{"nodeid":"a","when":"call","outcome":"passed"}`+"\n", maxPyReportLines+1),
	} {
		if rs, err := readPyReports([]byte(bad)); err == nil {
			t.Errorf("%s: accepted %+v", name, rs)
		}
	}
}

func FuzzReadPyReports(f *testing.F) {
	f.Add([]byte(`{"nodeid": "t.py::a", "outcome": "passed", "when": "call"}` + "\n"))
	f.Add([]byte(`{"nodeid": "t.py::a", "outcome": "failed", "when": "teardown"}`))
	f.Add([]byte(""))
	f.Add([]byte("{}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rs, err := readPyReports(b)
		if err != nil {
			return
		}
		if len(rs) > maxPyReportLines {
			t.Fatalf("%d reports", len(rs))
		}
		for _, r := range rs {
			if r.NodeID == "" || (r.When != "setup" && r.When != "call" && r.When != "teardown") ||
				(r.Outcome != "passed" && r.Outcome != "failed" && r.Outcome != "skipped") {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}

func TestJudgePyMutant(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	ref := &pyReference{passed: map[string]bool{"t.py::a": true, "t.py::b": true}, wall: time.Second}
	m := &jobs.MutantRef{Path: "m.py", Line: 3}
	exited := func(code int) sandbox.Result { return sandbox.Result{Termination: sandbox.Exited, ExitCode: code} }
	rep := func(id, when, outcome string) pyReport { return pyReport{NodeID: id, When: when, Outcome: outcome} }
	hit := []byte(token + "\n")
	for _, tc := range []struct {
		name     string
		p        pyProcess
		outcome  string
		why      string
		killedBy string
	}{
		{"killed", pyProcess{res: exited(1), marker: hit, reports: []pyReport{rep("t.py::a", "setup", "passed"), rep("t.py::a", "call", "failed")}},
			jobs.OutcomeKilled, "t.py::a fails in its call phase", "t.py::a"},
		{"failure without the site running", pyProcess{res: exited(1), reports: []pyReport{rep("t.py::a", "call", "failed")}},
			jobs.OutcomeSurvived, "never ran in that process", ""},
		{"marker with another token", pyProcess{res: exited(1), marker: []byte("ffff\n"), reports: []pyReport{rep("t.py::a", "call", "failed")}},
			jobs.OutcomeSurvived, "something other than the mutant's token", ""},
		{"marker with the token twice", pyProcess{res: exited(1), marker: append(hit, hit...), reports: []pyReport{rep("t.py::a", "call", "failed")}},
			jobs.OutcomeSurvived, "something other", ""},
		{"failure of a test that failed unmutated", pyProcess{res: exited(1), marker: hit, reports: []pyReport{rep("t.py::c", "call", "failed")}},
			jobs.OutcomeStillborn, "no test that passed unmutated fails", ""},
		{"teardown error", pyProcess{res: exited(1), marker: hit, reports: []pyReport{rep("t.py::a", "call", "passed"), rep("t.py::a", "teardown", "failed")}},
			jobs.OutcomeStillborn, "no kill", ""},
		{"exit 0 with a failure", pyProcess{res: exited(0), marker: hit, reports: []pyReport{rep("t.py::a", "call", "failed")}},
			jobs.OutcomeStillborn, "disagree", ""},
		{"survived", pyProcess{res: exited(0), marker: hit, reports: []pyReport{rep("t.py::a", "call", "passed"), rep("t.py::b", "call", "passed")}},
			jobs.OutcomeSurvived, "2 reaching tests pass with the mutant", ""},
		{"survived without running", pyProcess{res: exited(0), reports: []pyReport{rep("t.py::a", "call", "passed")}},
			jobs.OutcomeSurvived, "never ran in them", ""},
		{"nothing ran", pyProcess{res: exited(0), marker: hit},
			jobs.OutcomeStillborn, "no reaching test ran", ""},
		{"collection error", pyProcess{res: exited(2), marker: hit}, jobs.OutcomeStillborn, "pytest exit 2", ""},
		{"timeout", pyProcess{res: sandbox.Result{Termination: sandbox.Timeout}, marker: hit}, jobs.OutcomeStillborn, "a hang is no test failure", ""},
		{"death", pyProcess{res: sandbox.Result{Termination: sandbox.OOM}, marker: hit}, jobs.OutcomeStillborn, "harness death", ""},
		{"unreadable reports", pyProcess{res: exited(1), marker: hit, rerr: os.ErrNotExist}, jobs.OutcomeStillborn, "cannot be read", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := judgePyMutant(&Answer{}, tc.p, ref, token, m)
			d := a.Detail
			if d.Outcome != tc.outcome || !strings.Contains(d.Reason, tc.why) || d.KilledBy != tc.killedBy {
				t.Errorf("%s (%s) killed by %q, want %s (%s) killed by %q", d.Outcome, d.Reason, d.KilledBy, tc.outcome, tc.why, tc.killedBy)
			}
		})
	}
}
