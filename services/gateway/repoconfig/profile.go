package repoconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Proposal is what sealgate init proposes for a repository: a Config, and
// one human line per thing detected, ignored or chosen, in a fixed order.
// (It would be named Profile but for the function of that name.)
type Proposal struct {
	Config   *Config
	Findings []string
}

// constError is an error that can be a constant.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoStack is returned by Profile when nothing in the tree says how its
// tests run.
const ErrNoStack constError = "no go.mod, Python, package.json, Cargo.toml or Makefile with a test target; write " + FileName + " by hand (see docs)"

// Commands sealgate init proposes.
const (
	goTest         = "go test ./..."
	pytestCommand  = "python3 -m pytest -q"
	unittestSuite  = "python3 -m unittest discover -v"
	npmTest        = "npm test"
	cargoTest      = "cargo test"
	makeTest       = "make test"
	npmPlaceholder = "Error: no test specified"
)

// maxRead bounds how much of any one file the profiler reads: markers are
// near the top of the files it looks for them in.
const maxRead = 1 << 20

// ProfileDir profiles the repository at dir; its errors name dir.
func ProfileDir(dir string) (*Proposal, error) {
	p, err := Profile(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("cannot profile %s: %w", dir, err)
	}
	return p, nil
}

// Profile looks at the files at the root of a repository tree (and one
// level down where a stack calls for it) and proposes a Config: the stacks
// found, their seal checks, the suite command when a stack is not run
// natively, and sealgate's default floors written out so that the reader
// sees them. When nothing is found the error is ErrNoStack. Errors do not
// name the tree, which fs.FS does not know; ProfileDir adds it.
func Profile(fsys fs.FS) (*Proposal, error) {
	// The root must be readable: below, a file that is not there is
	// merely a stack not found, which a missing tree must not look like.
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return nil, err
	}
	p := profiler{fsys: fsys}
	// In the order of the stacks' names, so that Stacks comes out sorted
	// and seal checks and findings in a fixed order.
	detectors := []func() (*detection, error){p.goStack, p.makeStack, p.nodeStack, p.pythonStack, p.rustStack}
	var found []*detection
	for _, detect := range detectors {
		d, err := detect()
		if err != nil {
			return nil, err
		}
		if d.stack != "" {
			found = append(found, d)
		}
		p.findings = append(p.findings, d.findings...)
	}
	if len(found) == 0 {
		return nil, ErrNoStack
	}
	c := p.config(found)
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("the proposed configuration is invalid (a sealgate bug): %w", err)
	}
	return &Proposal{Config: c, Findings: p.findings}, nil
}

// profiler holds one profiling run's tree and what it has found so far.
type profiler struct {
	fsys     fs.FS
	findings []string
}

// detection is what one stack's detector found. A detector that found
// nothing leaves stack empty, and may still explain why in findings.
type detection struct {
	stack    string
	runner   string
	seal     []Command
	suite    *Command // for a stack sealgate does not run natively
	findings []string
}

func (d *detection) note(format string, args ...any) {
	d.findings = append(d.findings, fmt.Sprintf(format, args...))
}

func (p *profiler) config(found []*detection) *Config {
	c := &Config{Version: Version, Floors: DefaultFloors()}
	var suites []*detection
	for _, d := range found {
		c.Stacks = append(c.Stacks, d.stack)
		c.Seal = append(c.Seal, d.seal...)
		if d.runner != "" {
			c.Runner = d.runner
		}
		if d.suite != nil {
			suites = append(suites, d)
		}
	}
	if s := chooseSuite(suites); s != nil {
		c.Suite = s.suite
		if len(suites) > 1 {
			p.findings = append(p.findings, suiteFinding(s, suites))
		}
	}
	f := c.Floors
	p.findings = append(p.findings, fmt.Sprintf("floors: sealgate's defaults, written out: coverage %.1f, strength %v, confidence %v, mutants %d",
		*f.Coverage, *f.Strength, *f.Confidence, *f.Mutants))
	return c
}

// suitePrecedence returns the rank of a stack's suite command, lowest
// first: a Makefile's test target usually drives the others, npm test is
// the node project's own entry point, cargo test and unittest the narrowest.
func suitePrecedence(d *detection) int {
	switch {
	case d.stack == StackMake:
		return 0
	case d.stack == StackNode:
		return 1
	case d.stack == StackRust:
		return 2
	}
	return 3 // python with unittest
}

// chooseSuite sorts suites by precedence and returns the first, or nil.
func chooseSuite(suites []*detection) *detection {
	if len(suites) == 0 {
		return nil
	}
	slices.SortStableFunc(suites, func(a, b *detection) int { return suitePrecedence(a) - suitePrecedence(b) })
	return suites[0]
}

func suiteFinding(chosen *detection, suites []*detection) string {
	var others, dropped []string
	for _, d := range suites {
		if d == chosen {
			continue
		}
		others = append(others, strconv.Quote(d.suite.Run))
		if len(d.seal) == 0 {
			dropped = append(dropped, strconv.Quote(d.suite.Run))
		}
	}
	f := fmt.Sprintf("suite: %q chosen over %s: one suite command is allowed, by precedence make > node > rust > unittest",
		chosen.suite.Run, strings.Join(others, ", "))
	if len(dropped) > 0 {
		f += fmt.Sprintf("; %s will not run: without a case count a seal check can never pass (declare a JUnit file for each and add it to seal)", strings.Join(dropped, ", "))
	}
	return f
}

func (p *profiler) goStack() (*detection, error) {
	d := new(detection)
	ok, err := p.isFile("go.mod")
	if err != nil {
		return d, err
	}
	where := "go.mod at the root"
	if !ok {
		// A repository from before Go modules: Go files at the root and
		// no go.mod. The gate writes one into the trees it checks out.
		gofiles, err := p.regularFiles(".", func(name string) bool { return strings.HasSuffix(name, ".go") })
		if err != nil || len(gofiles) == 0 {
			return d, err
		}
		where = "Go files at the root and no go.mod (the gate writes one declaring the module path the code imports itself by)"
	}
	d.stack = StackGo
	// go vet reports no count of what it checked, and a seal check
	// without a case count can never be passed: only go test, which the
	// gate runs with -json and counts, is proposed.
	d.seal = []Command{{Run: goTest}}
	d.note("go: %s; seal check %q, counted by its test events (the Go suite runs natively; go vet is not proposed: it reports no count)", where, goTest)
	return d, nil
}

func (p *profiler) rustStack() (*detection, error) {
	d := new(detection)
	ok, err := p.isFile("Cargo.toml")
	if err != nil || !ok {
		return d, err
	}
	d.stack = StackRust
	d.suite = &Command{Run: cargoTest}
	d.note("rust: Cargo.toml at the root; suite %q, compared by exit code on both sides (no seal check: it reports no case count; declare a JUnit file to make it one)", cargoTest)
	return d, nil
}

func (p *profiler) makeStack() (*detection, error) {
	d := new(detection)
	// The makefile make itself would read: GNU make tries these in order.
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		ok, err := p.isFile(name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		src, err := p.read(name)
		if err != nil {
			return nil, err
		}
		if !hasTestTarget(src) {
			d.note("make: %s has no test target; no make check proposed", name)
			return d, nil
		}
		d.stack = StackMake
		d.suite = &Command{Run: makeTest}
		d.note("make: %s has a test target; suite %q, compared by exit code on both sides (no seal check: it reports no case count; declare a JUnit file to make it one)", name, makeTest)
		return d, nil
	}
	return d, nil
}

// hasTestTarget reports whether a makefile has a rule whose targets include
// test: a line, not a recipe line, reading "test:" or "test other: deps".
// Assignments such as "test := x" or "X = a:b" are not rules.
func hasTestTarget(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		if line == "" || line[0] == '\t' || line[0] == '#' {
			continue
		}
		targets, rest, ok := strings.Cut(line, ":")
		if !ok || strings.Contains(targets, "=") || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":=") {
			continue
		}
		if slices.Contains(strings.Fields(targets), "test") {
			return true
		}
	}
	return false
}

func (p *profiler) nodeStack() (*detection, error) {
	d := new(detection)
	ok, err := p.isFile("package.json")
	if err != nil || !ok {
		return d, err
	}
	src, err := p.read("package.json")
	if err != nil {
		return nil, err
	}
	test, err := npmTestScript(src)
	if err != nil {
		d.note("node: package.json ignored: %v", err)
		return d, nil
	}
	d.stack = StackNode
	switch {
	case strings.TrimSpace(test) == "":
		d.note("node: package.json has no test script; no npm test check proposed")
	case strings.Contains(test, npmPlaceholder):
		d.note("node: package.json's test script is npm's placeholder; no npm test check proposed")
	default:
		d.suite = &Command{Run: npmTest}
		d.note("node: package.json has a test script; suite %q, compared by exit code on both sides (no seal check: it reports no case count; declare a JUnit file to make it one)", npmTest)
	}
	return d, nil
}

// npmTestScript returns scripts.test of a package.json, "" when there is
// none. A file that is not a JSON object, or whose scripts are not strings,
// is an error: npm would not run it either.
func npmTestScript(src []byte) (string, error) {
	if len(src) >= maxRead {
		return "", fmt.Errorf("larger than %d bytes", maxRead)
	}
	var pkg map[string]json.RawMessage
	if err := json.Unmarshal(src, &pkg); err != nil {
		return "", fmt.Errorf("not a JSON object (%v)", err)
	}
	raw, ok := pkg["scripts"]
	if !ok {
		return "", nil
	}
	var scripts map[string]string
	if err := json.Unmarshal(raw, &scripts); err != nil {
		return "", fmt.Errorf("scripts is not an object of strings (%v)", err)
	}
	return scripts["test"], nil
}

// isFile reports whether name is a regular file of the tree (a link to one
// counts). Only a file that is not there is false: any other failure to
// look is an error, not a stack silently missed.
func (p *profiler) isFile(name string) (bool, error) {
	fi, err := fs.Stat(p.fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fi.Mode().IsRegular(), nil
}

// read returns the first maxRead bytes of name.
func (p *profiler) read(name string) ([]byte, error) {
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxRead))
}

// readDir lists dir, or nothing when dir is not there.
func (p *profiler) readDir(dir string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(p.fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return entries, err
}

// regularFiles returns the names (joined to dir) of dir's regular files
// that match keep, sorted.
func (p *profiler) regularFiles(dir string, keep func(string) bool) ([]string, error) {
	entries, err := p.readDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && keep(e.Name()) {
			names = append(names, path.Join(dir, e.Name()))
		}
	}
	return names, nil
}
