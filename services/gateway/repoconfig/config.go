// Package repoconfig holds a repository's sealgate configuration, the file
// .sealgate.yaml at the repository root: what sealgate verify measures the
// repository by. It reads the file strictly (the file is outside input,
// often written by the very agent whose patch is verified), writes it
// deterministically, and profiles a repository tree to propose one
// (sealgate init).
package repoconfig

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// FileName is the configuration file's name, at the repository root.
const FileName = ".sealgate.yaml"

// Version is the only version of the format this package reads and writes.
const Version = 1

// Stacks a repository can be detected as. They are informational: they say
// what sealgate init found, not what sealgate verify runs.
const (
	StackGo     = "go"
	StackMake   = "make"
	StackNode   = "node"
	StackPython = "python"
	StackRust   = "rust"
)

// Python test runners.
const (
	RunnerPytest   = "pytest"
	RunnerUnittest = "unittest"
)

// maxMutants is the bound sealgate verify puts on --mutation-max; a file may
// not ask for more than the command line may.
const maxMutants = 10000

// Config is the content of .sealgate.yaml. The zero value of a field means
// the key is absent; absent floors are nil, so that an explicit 0 (which
// switches a requirement off) differs from "use the default".
type Config struct {
	// Version is the format version; always 1.
	Version int `yaml:"version"`
	// Stacks are what sealgate init detected, sorted, each at most once.
	Stacks []string `yaml:"stacks,omitempty,flow"`
	// Python is the interpreter of pytest claims: a name looked up on PATH
	// or an absolute path. Empty means sealgate's default.
	Python string `yaml:"python,omitempty"`
	// Runner is the Python test runner, pytest or unittest; only with the
	// python stack.
	Runner string `yaml:"runner,omitempty"`
	// Suite is the full-suite command of a stack sealgate does not run
	// natively (node, rust, make, unittest); nil when there is none.
	Suite *Command `yaml:"suite,omitempty"`
	// Seal are checks every one of which must run, exit 0 and report more
	// than zero cases, in the order given.
	Seal []Command `yaml:"seal,omitempty"`
	// Commands are the commands of cmd:LABEL claims, by label.
	Commands map[string]Command `yaml:"commands,omitempty"`
	// Floors override sealgate's default floors.
	Floors Floors `yaml:"floors,omitempty"`
	// TestSupport are globs, relative to the repository root, of files
	// that count as test code besides the ones sealgate recognises.
	TestSupport []string `yaml:"test_support,omitempty,flow"`
}

// Command is a shell command line run at the repository root, and the JUnit
// file it writes (relative to the root), if any. Without a JUnit file
// sealgate has no case count from the command.
type Command struct {
	Run   string `yaml:"run"`
	JUnit string `yaml:"junit,omitempty"`
}

// Floors are the thresholds a patch is judged by; nil means sealgate's
// default (criteria.Default*).
type Floors struct {
	// Coverage is the diff coverage required, in [0,1].
	Coverage *float64 `yaml:"coverage,omitempty"`
	// Strength is the mutation strength lower bound required, in [0,1].
	Strength *float64 `yaml:"strength,omitempty"`
	// Confidence is the confidence of the strength lower bound, in (0,1).
	Confidence *float64 `yaml:"confidence,omitempty"`
	// Mutants is the most mutants tried; 0 switches mutation off.
	Mutants *int `yaml:"mutants,omitempty"`
}

// DefaultFloors returns sealgate's default floors, each set explicitly.
func DefaultFloors() Floors {
	coverage := criteria.DefaultCoverageFloor
	strength := criteria.DefaultStrengthFloor
	confidence := criteria.DefaultStrengthConfidence
	mutants := criteria.DefaultMutationMax
	return Floors{Coverage: &coverage, Strength: &strength, Confidence: &confidence, Mutants: &mutants}
}

// Validate reports the first thing wrong with c as one line naming the key
// and saying what to write instead.
func (c *Config) Validate() error {
	if c.Version != Version {
		if c.Version == 0 {
			return fmt.Errorf("version: missing; start the file with `version: %d`", Version)
		}
		return fmt.Errorf("version: %d is not supported; this sealgate reads `version: %d`", c.Version, Version)
	}
	checks := []func() error{
		c.validateStacks,
		c.validatePython,
		c.validateRunner,
		c.validateSuite,
		c.validateSeal,
		c.validateCommands,
		c.Floors.validate,
		c.validateTestSupport,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) validateStacks() error {
	for i, s := range c.Stacks {
		if !isStack(s) {
			return fmt.Errorf("stacks[%d]: %q is not a stack; use go, make, node, python or rust", i, s)
		}
		// Sorted and unique, so that the file has one spelling and a
		// round trip through Marshal is exact.
		if i > 0 && c.Stacks[i-1] >= s {
			return fmt.Errorf("stacks: %q is repeated or out of order; list each stack once, sorted (go, make, node, python, rust)", s)
		}
	}
	return nil
}

func isStack(s string) bool {
	switch s {
	case StackGo, StackMake, StackNode, StackPython, StackRust:
		return true
	}
	return false
}

func (c *Config) validatePython() error {
	if c.Python == "" {
		return nil
	}
	if err := checkLine(c.Python); err != nil {
		return fmt.Errorf("python: %v; give an interpreter name such as python3 or an absolute path", err)
	}
	if strings.HasPrefix(c.Python, "/") {
		if path.Clean(c.Python) != c.Python {
			return fmt.Errorf("python: %q is not a clean absolute path; write %q", c.Python, path.Clean(c.Python))
		}
		return nil
	}
	// A relative path would depend on the directory the check runs in.
	if !isProgramName(c.Python) {
		return fmt.Errorf("python: %q is neither a program name nor an absolute path; write e.g. python3 or /usr/bin/python3", c.Python)
	}
	return nil
}

// isProgramName reports whether s is a bare executable name, looked up on PATH.
func isProgramName(s string) bool {
	for i, r := range s {
		ok := r < utf8.RuneSelf && (isAlnum(byte(r)) || (i > 0 && strings.ContainsRune("._+-", r)))
		if !ok {
			return false
		}
	}
	return s != ""
}

func (c *Config) validateRunner() error {
	switch {
	case c.Runner == "":
		return nil
	case c.Runner != RunnerPytest && c.Runner != RunnerUnittest:
		return fmt.Errorf("runner: %q is not a runner; use pytest or unittest", c.Runner)
	case !slices.Contains(c.Stacks, StackPython):
		return fmt.Errorf("runner: set without the python stack; add python to stacks or remove runner")
	}
	return nil
}

func (c *Config) validateSuite() error {
	if c.Suite == nil {
		return nil
	}
	return c.Suite.validate("suite")
}

func (c *Config) validateSeal() error {
	seen := make(map[Command]int, len(c.Seal))
	for i, cmd := range c.Seal {
		key := fmt.Sprintf("seal[%d]", i)
		if err := cmd.validate(key); err != nil {
			return err
		}
		// The ledger matches a check's result back by run and junit, so
		// two equal checks would be one check counted twice.
		if j, dup := seen[cmd]; dup {
			return fmt.Errorf("%s: repeats seal[%d] (%q); remove one of them", key, j, cmd.Run)
		}
		seen[cmd] = i
	}
	return nil
}

func (c *Config) validateCommands() error {
	labels := make([]string, 0, len(c.Commands))
	for label := range c.Commands {
		labels = append(labels, label)
	}
	// Sorted, so that the error reported is the same on every run.
	slices.Sort(labels)
	for _, label := range labels {
		if !isLabel(label) {
			return fmt.Errorf("commands: label %q is not valid; use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", label)
		}
		if err := c.Commands[label].validate("commands." + label); err != nil {
			return err
		}
	}
	return nil
}

// isLabel reports whether s matches ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$.
// It is written out rather than a regexp so as to need no package state.
func isLabel(s string) bool {
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

func (c *Config) validateTestSupport() error {
	seen := make(map[string]bool, len(c.TestSupport))
	for i, g := range c.TestSupport {
		key := fmt.Sprintf("test_support[%d]", i)
		if err := checkGlob(g); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		if seen[g] {
			return fmt.Errorf("%s: %q is listed twice; remove one", key, g)
		}
		seen[g] = true
	}
	return nil
}

// checkGlob accepts the globs sealgate matches repository paths with: only
// * and ?, since character classes and escapes are where path.Match and
// shell globbing disagree.
func checkGlob(g string) error {
	if g == "" {
		return fmt.Errorf("empty glob; write a pattern such as \"fixtures/*\"")
	}
	if err := checkLine(g); err != nil {
		return fmt.Errorf("%q: %v; write a pattern such as \"fixtures/*\"", g, err)
	}
	switch {
	case strings.ContainsAny(g, `[]\`):
		return fmt.Errorf("%q uses [, ] or \\; only * and ? are supported", g)
	case strings.HasPrefix(g, "/"):
		return fmt.Errorf("%q is absolute; write it relative to the repository root", g)
	case hasDotDot(g):
		return fmt.Errorf("%q leaves the repository with ..; write it relative to the repository root", g)
	case path.Clean(g) != g:
		return fmt.Errorf("%q is not a clean path; write %q", g, path.Clean(g))
	}
	return nil
}

func (c Command) validate(key string) error {
	if strings.TrimSpace(c.Run) == "" {
		return fmt.Errorf("%s.run: empty; give the command to run, e.g. `run: make test`", key)
	}
	if err := checkLine(c.Run); err != nil {
		return fmt.Errorf("%s.run: %v; write the command on one line", key, err)
	}
	if c.JUnit == "" {
		return nil
	}
	if err := checkRelPath(c.JUnit); err != nil {
		return fmt.Errorf("%s.junit: %v", key, err)
	}
	return nil
}

// checkRelPath accepts a clean slash-separated path inside the repository,
// the form in which sealgate looks the file up in the checked-out tree.
func checkRelPath(p string) error {
	if err := checkLine(p); err != nil {
		return fmt.Errorf("%q: %v; write a path such as reports/junit.xml", p, err)
	}
	switch {
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("%q is absolute; write it relative to the repository root", p)
	case strings.Contains(p, `\`):
		return fmt.Errorf("%q contains a backslash; separate directories with /", p)
	case hasDotDot(p):
		return fmt.Errorf("%q leaves the repository with ..; write a path inside it", p)
	case p == "." || path.Clean(p) != p:
		return fmt.Errorf("%q is not a clean file path; write %q", p, path.Clean(p))
	}
	return nil
}

func hasDotDot(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "..")
}

// checkLine refuses text that is not one line of printable characters: a
// line break would smuggle a second command into a shell line, and other
// control or separator characters do not survive a YAML round trip alike.
func checkLine(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not valid UTF-8")
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			return fmt.Errorf("spans more than one line")
		case r != ' ' && !unicode.IsPrint(r):
			return fmt.Errorf("contains the non-printable character %U", r)
		}
	}
	return nil
}

func (f Floors) validate() error {
	if err := checkUnit("floors.coverage", f.Coverage, true); err != nil {
		return err
	}
	if err := checkUnit("floors.strength", f.Strength, true); err != nil {
		return err
	}
	if err := checkUnit("floors.confidence", f.Confidence, false); err != nil {
		return err
	}
	if f.Mutants != nil && (*f.Mutants < 0 || *f.Mutants > maxMutants) {
		return fmt.Errorf("floors.mutants: %d is out of range; use a whole number from 0 (mutation off) to %d", *f.Mutants, maxMutants)
	}
	return nil
}

// checkUnit checks that *v lies in [0,1] when closed, else in (0,1).
func checkUnit(key string, v *float64, closed bool) error {
	if v == nil {
		return nil
	}
	x := *v
	if closed && !(x >= 0 && x <= 1) {
		return fmt.Errorf("%s: %v is out of range; use a number from 0 to 1 (0 switches the requirement off)", key, x)
	}
	if !closed && !(x > 0 && x < 1) {
		return fmt.Errorf("%s: %v is out of range; use a number strictly between 0 and 1, e.g. 0.8", key, x)
	}
	return nil
}
