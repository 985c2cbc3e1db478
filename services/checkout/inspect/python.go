package inspect

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// script is inspect.py, run with `python -I -S -c`.
//
//go:embed inspect.py
var script string

// Limits on the script's output, so that a misbehaving interpreter cannot
// make the caller hold unbounded data.
const (
	// MaxPythonOutput is the most bytes of the script's output read.
	MaxPythonOutput = 64 << 20
	// maxItems bounds the findings, literals or decisions of one result.
	maxItems = 200_000
	// maxStderr is how much of the interpreter's stderr is kept.
	maxStderr = 64 << 10
	// waitDelay bounds the wait for the interpreter's pipes once killed.
	waitDelay = 2 * time.Second
)

// PyRequest is one thing to read with the script.
type PyRequest struct {
	// Src is a Python source file's bytes.
	Src []byte
	// Test, when set, asks for the literals of this test of the module (a
	// pytest node-id suffix: "test_x", "TestK::test_x", parameters
	// ignored) instead of the source's analysis.
	Test string
	// Lines are the changed (1-based) lines of a source, whose decisions
	// are listed.
	Lines []int
	// Harness, when set, reads Src as test code: only the runner reach
	// test code has no business with (see Python) is listed.
	Harness bool
}

// PyItem is one finding of the script in one source: where and what.
type PyItem struct {
	Line int    `json:"line"`
	What string `json:"what"`
}

// PyResult is what the script read of one PyRequest.
type PyResult struct {
	// Err is why the source could not be read (it does not parse), "" if
	// it could.
	Err string `json:"error"`
	// Reach are the places a source reaches into the test runner or other
	// modules' state; Probes its probes of where it runs (see PySource).
	Reach  []PyItem `json:"reach"`
	Probes []PyItem `json:"probes"`
	// Lits are every literal of a source, or of a test (Found).
	Lits []Lit `json:"lits"`
	// Decisions are a source's decisions on the requested lines.
	Decisions []Decision `json:"decisions"`
	// Found reports, for a test request, whether the module declares it.
	Found bool `json:"found"`
}

// pyInput is the script's stdin.
type pyInput struct {
	Gate     nameSet     `json:"gate"`
	Places   nameSet     `json:"places"`
	Runner   []string    `json:"runner"`
	Requests []pyRequest `json:"requests"`
}

type nameSet struct {
	Prefixes []string `json:"prefixes"`
	Names    []string `json:"names"`
}

type pyRequest struct {
	Kind  string `json:"kind"`
	Src   string `json:"src"`
	Lines []int  `json:"lines,omitempty"`
	Test  string `json:"test,omitempty"`
}

// gateNames are GateVariable's rules as lists, for the script.
func gateNames() nameSet {
	return nameSet{
		Prefixes: []string{"SEALGATE_", "PYTEST_", "_PYTEST_", "COVERAGE_"},
		Names: []string{"GOFLAGS", "GOCACHE", "GOCOVERDIR", "GOMODCACHE", "GOROOT", "GOPATH", "GOPROXY", "GOTOOLCHAIN", "GOENV", "GOTELEMETRY", "GOWORK",
			"PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONNOUSERSITE", "PYTHONPATH", "PYTHONSAFEPATH", "TMPDIR", "PWD", "LC_ALL"},
	}
}

// placeNames are placePath's rules as lists, for the script.
func placeNames() nameSet {
	return nameSet{Prefixes: []string{"/proc", "/sys"},
		Names: []string{"/.dockerenv", "/run/.containerenv", "/etc/hostname", "/etc/machine-id", "/var/lib/dbus/machine-id"}}
}

// RunnerModules are the top-level modules through which Python code under
// test reaches the test runner or its measurement: importing one is
// runner reach (as is any pytest_* or _pytest* module, and unittest.mock).
func RunnerModules() []string {
	return []string{"pytest", "_pytest", "pluggy", "py", "xdist", "coverage", "ctypes", "mock", "atexit"}
}

// Python reads Python sources with the script, run by the interpreter
// python (a path, or a name looked up in PATH) isolated (-I -S): one
// process for all requests, results in order. The sources are parsed
// with ast, never imported or run. A source that does not parse is a
// result with Err set, not an error; an error is the interpreter's
// failure (missing, older than 3.8, killed, malformed output).
//
// For a source (Test ""), the result lists:
//
//   - Reach: imports of the runner's modules (RunnerModules, pytest_*,
//     _pytest*, unittest.mock) in every form (import a, b as c; from x
//     import y), importlib.import_module / __import__ of a runner module
//     or of a computed name, writes (assignment, augmented assignment,
//     del) to an attribute or item of a name an import binds (math.isclose
//     = …, sys.modules[...] = …, os.environ[...] stays a probe) or of
//     builtins, setattr/delattr on such a name, any use of sys.modules,
//     sys.meta_path, sys.path_hooks, __builtins__, frame and globals
//     attributes (f_globals, __globals__, …), sys._getframe,
//     inspect.stack, gc.get_objects, settrace, exec, eval, compile,
//     runpy, atexit.register;
//   - Probes: os.environ, os.getenv and the like of a gate variable
//     (GateVariable) or a computed name, os.environ used whole (iterated,
//     copied, passed on), string constants naming /proc, /sys, container
//     markers or the gate's variables, sys.argv, sys.executable,
//     sys.modules, the host name (socket.gethostname, platform.node,
//     os.uname), the process and user ids, the working directory, the
//     stack (traceback.extract_stack), its own source (open(__file__),
//     inspect.getsource);
//   - Lits and Decisions for the overfitting rule (see Overfitting).
func Python(ctx context.Context, python string, reqs []PyRequest) ([]PyResult, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	if python == "" {
		return nil, errors.New("inspect: no Python interpreter given")
	}
	stdin, err := scriptInput(reqs)
	if err != nil {
		return nil, err
	}
	out, err := runScript(ctx, python, stdin)
	if err != nil {
		return nil, err
	}
	res, err := ReadPython(out, reqs)
	if err != nil {
		return nil, fmt.Errorf("inspect: output of %s: %w", python, err)
	}
	return res, nil
}

// scriptInput is the script's stdin for reqs.
func scriptInput(reqs []PyRequest) ([]byte, error) {
	in := pyInput{Gate: gateNames(), Places: placeNames(), Runner: RunnerModules()}
	for _, r := range reqs {
		pr := pyRequest{Kind: "source", Src: base64.StdEncoding.EncodeToString(r.Src), Lines: r.Lines}
		switch {
		case r.Test != "":
			pr = pyRequest{Kind: "test", Src: pr.Src, Test: r.Test}
		case r.Harness:
			pr = pyRequest{Kind: "harness", Src: pr.Src}
		}
		in.Requests = append(in.Requests, pr)
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	return b, nil
}

// runScript runs the script with stdin and returns its stdout.
func runScript(ctx context.Context, python string, stdin []byte) ([]byte, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(runCtx, python, "-I", "-S", "-c", script)
	if cmd.Err != nil {
		return nil, fmt.Errorf("inspect: Python interpreter %q: %w", python, cmd.Err)
	}
	cmd.Stdin = bytes.NewReader(stdin)
	stdout := &capped{max: MaxPythonOutput, full: cancel}
	stderr := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = waitDelay
	err := cmd.Run()
	switch {
	case stdout.over:
		return nil, fmt.Errorf("inspect: %s wrote more than %d bytes", python, MaxPythonOutput)
	case err == nil:
		return stdout.buf.Bytes(), nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("inspect: running %s: %w", python, context.Cause(ctx))
	}
	msg := lastLine(stderr.buf.Bytes())
	if msg == "" {
		msg = "no message on stderr"
	}
	return nil, fmt.Errorf("inspect: %s failed (%v): %s", python, err, msg)
}

// ReadPython reads the script's output for reqs strictly: exactly one
// result per request, no unknown fields, every line within its source,
// every literal of a known kind, every text valid UTF-8 on one line, and
// within the limits. Whatever it accepts is safe to use.
func ReadPython(out []byte, reqs []PyRequest) ([]PyResult, error) {
	if len(out) > MaxPythonOutput {
		return nil, fmt.Errorf("more than %d bytes", MaxPythonOutput)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var doc struct {
		Results []PyResult `json:"results"`
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not the script's JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more after the JSON document")
	}
	if len(doc.Results) != len(reqs) {
		return nil, fmt.Errorf("%d results for %d requests", len(doc.Results), len(reqs))
	}
	for i, r := range doc.Results {
		lines := lineCount(reqs[i].Src)
		if err := checkResult(r, lines, reqs[i].Test != "", reqs[i].Harness && reqs[i].Test == ""); err != nil {
			return nil, fmt.Errorf("result %d: %w", i, err)
		}
	}
	return doc.Results, nil
}

// lineCount counts the lines of a source as Python does: \n, \r\n and a
// lone \r end one; a last line without an end counts.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) - bytes.Count(src, []byte("\r\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' && src[len(src)-1] != '\r' {
		n++
	}
	return n
}

func checkResult(r PyResult, lines int, test, harness bool) error {
	if !text(r.Err) {
		return errors.New("error message is not one line of text")
	}
	if len(r.Reach) > maxItems || len(r.Probes) > maxItems || len(r.Lits) > maxItems || len(r.Decisions) > maxItems {
		return errors.New("too many items")
	}
	if r.Err != "" && (len(r.Reach)+len(r.Probes)+len(r.Lits)+len(r.Decisions) > 0 || r.Found) {
		return errors.New("a source that does not parse has findings")
	}
	if test && (len(r.Reach)+len(r.Probes)+len(r.Decisions) > 0 || !r.Found && len(r.Lits) > 0) {
		return errors.New("a test request with source findings, or literals of no test")
	}
	if !test && r.Found {
		return errors.New("a source request with a test found")
	}
	if harness && len(r.Probes)+len(r.Lits)+len(r.Decisions) > 0 {
		return errors.New("a test-code request with probes, literals or decisions")
	}
	for _, it := range append(slices.Clone(r.Reach), r.Probes...) {
		if it.Line < 1 || it.Line > lines || it.What == "" || !text(it.What) {
			return fmt.Errorf("finding %+v out of the source's %d lines or without words", it, lines)
		}
	}
	for _, l := range r.Lits {
		if err := checkLit(l); err != nil {
			return err
		}
	}
	for _, d := range r.Decisions {
		if d.Line < 1 || d.Line > lines || !text(d.Text) || len(d.ConjEq) == 1 {
			return fmt.Errorf("decision at line %d (of %d) malformed", d.Line, lines)
		}
		for _, ls := range [][]Lit{d.Cond, d.Returns, d.ConjEq} {
			for _, l := range ls {
				if err := checkLit(l); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func checkLit(l Lit) error {
	switch {
	case !utf8.ValidString(l.Value):
		return errors.New("a literal is not UTF-8")
	case l.Kind == "n" && (l.Value == "" || l.Elems != 0):
		return fmt.Errorf("number literal %q malformed", l.Value)
	case l.Kind == "s" && l.Elems != 0:
		return errors.New("a string literal with elements")
	case l.Kind == "c" && (l.Elems < 0 || len(l.Value) < 2):
		return fmt.Errorf("composite literal %q malformed", l.Value)
	case l.Kind != "n" && l.Kind != "s" && l.Kind != "c":
		return fmt.Errorf("literal kind %q", l.Kind)
	}
	return nil
}

// text reports a string fit for a message: valid UTF-8 on one line.
func text(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsAny(s, "\n\r")
}

// lastLine returns the last non-empty line of b (a traceback's message),
// trimmed, made valid and bounded.
func lastLine(b []byte) string {
	lines := strings.Split(strings.ToValidUTF8(string(b), "\uFFFD"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if len(l) > 300 {
				l = l[:300] + "…"
			}
			return oneLine(l)
		}
	}
	return ""
}

// capped keeps the first max bytes written to it; past that it records
// the overflow, calls full (if set) and discards the rest.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		if !c.over {
			c.over = true
			if c.full != nil {
				c.full()
			}
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

// PyNewItems returns the items of patch that base (nil: a new file) does
// not hold, compared as multisets of What, as findings of rule in file.
func PyNewItems(rule, file string, base, patch []PyItem) []Finding {
	var had []string
	for _, it := range base {
		had = append(had, it.What)
	}
	var out []Finding
	for _, it := range patch {
		if i := slices.Index(had, it.What); i >= 0 {
			had = slices.Delete(had, i, i+1)
			continue
		}
		out = append(out, Finding{Rule: rule, File: file, Line: it.Line, What: it.What})
	}
	return Sort(out)
}

// stdlibScript prints the names of the interpreter's standard library's
// top-level modules as a JSON list (sys.stdlib_module_names, or, before
// Python 3.10, the built-in modules and those of the stdlib directory).
const stdlibScript = `import json, sys
names = getattr(sys, "stdlib_module_names", None)
if names is None:
    import pkgutil, sysconfig
    names = set(sys.builtin_module_names)
    names.update(m.name for m in pkgutil.iter_modules([sysconfig.get_paths()["stdlib"]]))
json.dump(sorted(names), sys.stdout)
`

// maxStdlibNames bounds the list PythonStdlib reads (CPython 3.13 has
// about 300).
const maxStdlibNames = 5000

// PythonStdlib returns the top-level module names of the standard library
// of the interpreter python, sorted: a file of the tree importable under
// one of them shadows it. Every name must be a Python identifier.
func PythonStdlib(ctx context.Context, python string) ([]string, error) {
	if python == "" {
		return nil, errors.New("inspect: no Python interpreter given")
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(runCtx, python, "-I", "-S", "-c", stdlibScript)
	if cmd.Err != nil {
		return nil, fmt.Errorf("inspect: Python interpreter %q: %w", python, cmd.Err)
	}
	stdout := &capped{max: 1 << 20, full: cancel}
	stderr := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = waitDelay
	if err := cmd.Run(); err != nil || stdout.over {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("inspect: running %s: %w", python, context.Cause(ctx))
		}
		return nil, fmt.Errorf("inspect: %s could not list its standard library (%v): %s", python, err, lastLine(stderr.buf.Bytes()))
	}
	return ReadStdlib(stdout.buf.Bytes())
}

// ReadStdlib reads PythonStdlib's script output strictly: one JSON list of
// at most maxStdlibNames identifiers, nothing after it.
func ReadStdlib(out []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	var names []string
	if err := dec.Decode(&names); err != nil {
		return nil, fmt.Errorf("inspect: the standard library's names: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("inspect: the standard library's names: more after the list")
	}
	if len(names) > maxStdlibNames {
		return nil, fmt.Errorf("inspect: %d standard library names, more than %d", len(names), maxStdlibNames)
	}
	for _, n := range names {
		if !isIdentifier(n) {
			return nil, fmt.Errorf("inspect: standard library name %q is not an identifier", n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// isIdentifier reports an ASCII Python identifier.
func isIdentifier(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
		case i > 0 && '0' <= r && r <= '9':
		default:
			return false
		}
	}
	return true
}
