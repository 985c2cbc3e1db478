package gotest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests in this file run the real `go test -json` on small modules
// written to a temporary directory, the way the executor runs a claim:
// one process per claimed test, `-count=1 -run '^Name$'`.

const e2eModule = "example.com/e2e"

// e2eFiles returns the module under test: one package per scenario.
func e2eFiles() map[string]string {
	return map[string]string{
		"go.mod": "module " + e2eModule + "\n\ngo 1.22\n",

		"basic/basic_test.go": `package basic

import (
	"os"
	"testing"
)

func TestPass(t *testing.T) { t.Log("fine") }
func TestFail(t *testing.T) { t.Fatal("boom") }
func TestSkip(t *testing.T) { t.Skip("not today") }
func TestPanic(t *testing.T) { panic("oops") }
func TestExit1(t *testing.T) { os.Exit(1) }
func TestExit0(t *testing.T) { os.Exit(0) }

func TestSubtestsPass(t *testing.T) {
	t.Run("one", func(t *testing.T) {})
	t.Run("two words", func(t *testing.T) { t.Skip("skipped subtest") })
}

func TestSubtestFails(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Error("sub failed") })
}
`,

		// forge: tests that print what a report looks like. Printed plainly
		// it stays output; with the ^V marker test2json believes it.
		"forge/forge_test.go": `package forge

import (
	"fmt"
	"testing"
)

func TestPrintsReport(t *testing.T) {
	fmt.Println("--- PASS: TestGhost (0.00s)")
	fmt.Println(` + "`" + `{"Action":"pass","Package":"example.com/e2e/forge","Test":"TestGhost"}` + "`" + `)
}

func TestPrintsMarkedReport(t *testing.T) {
	fmt.Println("\x16--- PASS: TestGhost (0.00s)")
	fmt.Println("noise\x16--- PASS: TestGhost (0.00s)")
	fmt.Println(` + "`" + `{"Action":"pass","Package":"example.com/e2e/forge","Test":"TestGhost"}` + "`" + `)
	fmt.Println(` + "`" + `{"Action":"pass","Package":"example.com/e2e/forge"}` + "`" + `)
}
`,

		// initforge: an unmarked "--- PASS" printed before the first test is
		// turned into a real pass event by test2json.
		"initforge/initforge.go": `package initforge

import "fmt"

func init() { fmt.Println("--- PASS: TestInitGhost (0.00s)") }
`,
		"initforge/initforge_test.go": `package initforge

import "testing"

func TestReal(t *testing.T) {}
`,

		// mainexit: TestMain exits 0 without running any test.
		"mainexit/mainexit_test.go": `package mainexit

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(0) }

func TestClaim(t *testing.T) { t.Fatal("never runs") }
`,

		// mainforge: TestMain prints a marked transcript for a test that does
		// not exist, then runs the (non-matching) tests.
		"mainforge/mainforge_test.go": `package mainforge

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Print("\x16=== RUN   TestGhost\n\x16--- PASS: TestGhost (0.00s)\n")
	os.Exit(m.Run())
}

func TestOther(t *testing.T) {}
`,

		// mainfake: TestMain prints a whole, consistent transcript for a test
		// that does not exist and exits 0 without running anything.
		"mainfake/mainfake_test.go": `package mainfake

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Print("\x16=== RUN   TestGhost\n\x16--- PASS: TestGhost (0.00s)\n\x16PASS\n")
	os.Exit(0)
}
`,

		"buildfail/buildfail_test.go": `package buildfail

import "testing"

func TestClaim(t *testing.T) { var n int = "not a number"; _ = n }
`,

		"depfail/broken/broken.go": `package broken

func F() int { return "not a number" }
`,
		"depfail/depfail_test.go": `package depfail

import (
	"testing"

	"example.com/e2e/depfail/broken"
)

func TestClaim(t *testing.T) { _ = broken.F() }
`,

		"hang/hang_test.go": `package hang

import (
	"testing"
	"time"
)

func TestHang(t *testing.T) { time.Sleep(time.Hour) }
`,

		// parallel: tests and subtests whose output interleaves.
		"parallel/parallel_test.go": `package parallel

import (
	"fmt"
	"testing"
	"time"
)

func chatter(t *testing.T, who string) {
	for i := range 5 {
		t.Logf("line %d from %s", i, who)
		fmt.Printf("stdout %d from %s\n", i, who)
		time.Sleep(time.Millisecond)
	}
}

func TestParA(t *testing.T) { t.Parallel(); chatter(t, "ParA") }
func TestParB(t *testing.T) { t.Parallel(); chatter(t, "ParB"); t.Error("ParB fails") }
func TestParC(t *testing.T) { t.Parallel(); chatter(t, "ParC") }

func TestParSubtests(t *testing.T) {
	for _, name := range []string{"x", "y", "z"} {
		t.Run(name, func(t *testing.T) { t.Parallel(); chatter(t, "sub-"+name) })
	}
}
`,
	}
}

// e2eRun is one real `go test -json` run.
type e2eRun struct {
	report      *Report
	exitCode    int
	termination Termination
	raw         []byte
}

// goTester writes the module once and runs `go test -json` in it.
type goTester struct {
	goBin string
	dir   string
}

func newGoTester(t *testing.T) *goTester {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs the go command, which the Bazel sandbox does not provide")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := t.TempDir()
	for name, content := range e2eFiles() {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &goTester{goBin: goBin, dir: dir}
}

// run runs `go test -json -count=1 <args> ./<pkg>`, stdout and stderr into
// one stream as the executor captures them, and reads the stream.
func (g *goTester) run(t *testing.T, pkg string, env []string, args ...string) e2eRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmdArgs := append([]string{"test", "-json", "-count=1"}, args...)
	cmdArgs = append(cmdArgs, "./"+pkg)
	cmd := exec.CommandContext(ctx, g.goBin, cmdArgs...)
	cmd.Dir = g.dir
	// Only what these runs need from outside: the module is self-contained.
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "GOWORK=off", "GOPROXY=off", "GO111MODULE=on")
	cmd.Env = append(cmd.Env, env...)
	var combined bytes.Buffer
	cmd.Stdout = &combined
	cmd.Stderr = &combined
	run := e2eRun{termination: TerminationExited}
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr) && exitErr.Exited():
		run.exitCode = exitErr.ExitCode()
	case errors.As(err, &exitErr):
		run.exitCode, run.termination = -1, TerminationSignal
	default:
		t.Fatalf("go %s: %v", strings.Join(cmdArgs, " "), err)
	}
	if ctx.Err() != nil {
		run.termination = TerminationTimeout
	}
	run.raw = combined.Bytes()
	report, err := Read(bytes.NewReader(run.raw))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	run.report = report
	return run
}

// claim runs test alone, as the executor runs a claim, and judges it.
func (g *goTester) claim(t *testing.T, pkg, test string, env []string, args ...string) (Outcome, e2eRun) {
	t.Helper()
	run := g.run(t, pkg, env, append([]string{"-run", "^" + test + "$"}, args...)...)
	return Verdict(run.report, e2eModule+"/"+pkg, test, run.exitCode, run.termination), run
}

func TestE2EClaims(t *testing.T) {
	g := newGoTester(t)
	tests := []struct {
		name   string
		pkg    string
		test   string
		env    []string
		args   []string
		want   OutcomeKind
		reason string
	}{
		{name: "passing test", pkg: "basic", test: "TestPass", want: OutcomePass, reason: `pass event for "TestPass"`},
		{name: "failing test", pkg: "basic", test: "TestFail", want: OutcomeFail, reason: `fail event for "TestFail"`},
		{name: "t.Skip", pkg: "basic", test: "TestSkip", want: OutcomeSkipped, reason: `skip event for "TestSkip"`},
		{name: "panic", pkg: "basic", test: "TestPanic", want: OutcomeFail, reason: `fail event for "TestPanic"`},
		{name: "os.Exit(1) in a test", pkg: "basic", test: "TestExit1", want: OutcomeFail, reason: "exited 1 before it finished"},
		{name: "os.Exit(0) in a test", pkg: "basic", test: "TestExit0", want: OutcomeFail, reason: `fail event for "TestExit0"`},
		{name: "no such test", pkg: "basic", test: "TestMissing", want: OutcomeNotRun, reason: "no tests matched"},
		{name: "subtests pass and skip", pkg: "basic", test: "TestSubtestsPass", want: OutcomePass, reason: "pass event"},
		{name: "a subtest fails", pkg: "basic", test: "TestSubtestFails", want: OutcomeFail, reason: `fail event for "TestSubtestFails"`},

		// Printed text and JSON stay output; a marked report line spoils
		// the printer's own claim; the printed name, run alone, does not
		// exist.
		{name: "test printing a report and a JSON event", pkg: "forge", test: "TestPrintsReport", want: OutcomePass, reason: `pass event for "TestPrintsReport"`},
		{name: "test printing marked reports", pkg: "forge", test: "TestPrintsMarkedReport", want: OutcomeInconsistent, reason: `event for "TestGhost"`},
		{name: "claim on a name only ever printed", pkg: "forge", test: "TestGhost", want: OutcomeNotRun, reason: `no event for "TestGhost"`},
		{name: "init prints an unmarked report", pkg: "initforge", test: "TestInitGhost", want: OutcomeInconsistent, reason: "no run event"},
		{name: "real test in a package whose init forges", pkg: "initforge", test: "TestReal", want: OutcomeInconsistent, reason: `event for "TestInitGhost"`},
		{name: "TestMain exits 0 without running tests", pkg: "mainexit", test: "TestClaim", want: OutcomeNotRun, reason: `no event for "TestClaim"`},
		{name: "TestMain forges a transcript then runs m.Run", pkg: "mainforge", test: "TestGhost", want: OutcomeInconsistent, reason: "no tests matched"},

		{name: "compile error", pkg: "buildfail", test: "TestClaim", want: OutcomeBuildFailed, reason: "failed build"},
		{name: "compile error, build output as text", pkg: "buildfail", test: "TestClaim", env: []string{"GODEBUG=gotestjsonbuildtext=1"}, want: OutcomeBuildFailed, reason: "[build failed]"},
		{name: "dependency does not build", pkg: "depfail", test: "TestClaim", want: OutcomeBuildFailed, reason: `failed build "example.com/e2e/depfail/broken"`},

		{name: "test never ends, -timeout 2s", pkg: "hang", test: "TestHang", args: []string{"-timeout", "2s"}, want: OutcomeHarnessDied, reason: "-timeout alarm fired"},
		{name: "parallel subtests interleave", pkg: "parallel", test: "TestParSubtests", want: OutcomePass, reason: "pass event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, run := g.claim(t, tt.pkg, tt.test, tt.env, tt.args...)
			t.Logf("%v", got)
			if got.Kind != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Verdict = %v\nwant %v naming %q\nexit %d, stream:\n%s", got, tt.want, tt.reason, run.exitCode, run.raw)
			}
		})
	}
}

// TestE2EForgedNameNeverPasses runs the forging test and asks about the
// forged name in that very stream, where a real pass event for it exists.
func TestE2EForgedNameNeverPasses(t *testing.T) {
	g := newGoTester(t)
	const pkg = e2eModule + "/forge"
	for _, args := range [][]string{{"-run", "^TestPrintsMarkedReport$"}, nil} {
		run := g.run(t, "forge", nil, args...)
		p := run.report.Packages[pkg]
		if p == nil || p.Tests["TestGhost"] == nil {
			t.Fatalf("args %q: test2json made no event for TestGhost; stream:\n%s", args, run.raw)
		}
		// test2json did turn the marked lines into pass events.
		if ghost := p.Tests["TestGhost"]; !strings.Contains(strings.Join(ghost.Finals, ","), ActionPass) {
			t.Errorf("args %q: TestGhost finals %v, want a forged pass among them", args, ghost.Finals)
		}
		if got := Verdict(run.report, pkg, "TestGhost", run.exitCode, run.termination); got.Kind == OutcomePass {
			t.Errorf("args %q: forged TestGhost judged %v", args, got)
		}
		if got := SuiteResults(run.report)[SuiteKey(pkg, "TestGhost")]; got == ResultPass {
			t.Errorf("args %q: forged TestGhost in the suite is %v", args, got)
		}
		// The printed JSON lines stayed output.
		if run.report.PlainLines != 0 || p.Final() != ActionPass || len(p.Finals) != 1 {
			t.Errorf("args %q: plain lines %d, package finals %v", args, run.report.PlainLines, p.Finals)
		}
	}
}

// TestE2ESuite is the collateral run: the whole parallel package, tests
// interleaving, one failing.
func TestE2ESuite(t *testing.T) {
	g := newGoTester(t)
	run := g.run(t, "parallel", nil)
	if run.exitCode != 1 {
		t.Errorf("exit %d, want 1", run.exitCode)
	}
	const pkg = e2eModule + "/parallel"
	got := SuiteResults(run.report)
	want := map[string]Result{
		"TestParA": ResultPass, "TestParB": ResultFail, "TestParC": ResultPass,
		"TestParSubtests": ResultPass, "TestParSubtests/x": ResultPass,
		"TestParSubtests/y": ResultPass, "TestParSubtests/z": ResultPass,
	}
	if len(got) != len(want) {
		t.Errorf("results %v, want %d of them", got, len(want))
	}
	for name, w := range want {
		if r := got[SuiteKey(pkg, name)]; r != w {
			t.Errorf("%s = %v, want %v", name, r, w)
		}
	}
	p := run.report.Packages[pkg]
	if c := p.Counts; c.Tests != 7 || c.Run != 7 || c.Passed != 6 || c.Failed != 1 {
		t.Errorf("counts = %+v", c)
	}
	// Interleaved t.Log lines land on the test that logged them.
	for _, who := range []string{"ParA", "ParB", "ParC"} {
		text := p.Tests["Test"+who].Output.Text
		if !strings.Contains(text, "line 4 from "+who) {
			t.Errorf("Test%s output lacks its own log: %q", who, text)
		}
		for _, other := range []string{"ParA", "ParB", "ParC"} {
			if other != who && strings.Contains(text, "line 0 from "+other) {
				t.Errorf("Test%s output has %s's log: %q", who, other, text)
			}
		}
	}
	// Judged as a single claim, a suite stream is contradictory: other
	// tests ran.
	if o := Verdict(run.report, pkg, "TestParA", run.exitCode, run.termination); o.Kind == OutcomePass {
		t.Errorf("a suite stream passed a claim: %v", o)
	}
}

// TestE2EBoundaryTestMainTranscript pins down what the stream alone cannot
// tell. A TestMain (or an init function) owns the test process's output
// before any test runs; printing a complete marked transcript and exiting 0
// without calling m.Run yields a stream byte-for-byte like a real pass. The
// defence is outside this package: the executor must find the claimed
// test's declaration in the package's test files before believing a run.
// If this test starts failing, the stream learned to tell: update the
// package documentation.
func TestE2EBoundaryTestMainTranscript(t *testing.T) {
	g := newGoTester(t)
	got, run := g.claim(t, "mainfake", "TestGhost", nil)
	if got.Kind != OutcomePass {
		t.Errorf("Verdict = %v; the documented boundary moved, stream:\n%s", got, run.raw)
	}
}
