// Package pymutant finds mutation sites on the changed lines of a Python
// source file.
//
// Go has no Python parser, so the sites are found by a small Python script
// embedded in this package (find.py) and run by an interpreter the caller
// names: Python 3.8 or later, whose ast module gives end positions. The
// script uses only the standard library and runs isolated (-I -S), so
// PYTHON* variables, the user site directory and the working directory do
// not change what it does. Its output is treated as outside input:
// ReadSites checks every site against the source before anyone uses it.
//
// The operators, by Site.Operator:
//
//	comparison       == ↔ !=, < ↔ >=, <= ↔ >
//	boundary         < ↔ <=, > ↔ >= (the boundary moved both ways)
//	identity         is ↔ is not
//	membership       in ↔ not in
//	boolean          and ↔ or (one site per operator token)
//	not              not x → x
//	arithmetic       + ↔ -, * ↔ /, // → /, % → *, ** → *  (binary only)
//	augmented        += ↔ -=, *= ↔ /=, //= → /=, %= → *=
//	boolean-literal  True ↔ False
//	number           n → n+1 and n → n-1 for int and float literals; an
//	                 int's replacement is written in decimal (0x1F → 32),
//	                 a float's as Python's repr (1.5 → 2.5), a negative
//	                 one with its minus (0 → -1)
//	return-none      return EXPR → return None
//	return-value     return EXPR → return True / False / 0 / 0.0 / "" /
//	                 [] / {} / (), as a literal types the value: a
//	                 comparison, a non-empty display, the function's
//	                 return annotation, or the literals its other return
//	                 statements give
//	negation         the condition of an if, elif, while or conditional
//	                 expression → not (condition); not where an operator
//	                 already negates it (a not, one comparison)
//	condition        that condition → True or False (a while: False only)
//	branch           the body of an if or elif that has an else, or a
//	                 plain else's body → pass (without an else, the
//	                 condition False is that mutant)
//	statement        a statement → pass: a call, await or yield (not a
//	                 logging call or print), an augmented assignment, a
//	                 del, an assignment that leaves every name it binds
//	                 bound elsewhere in its scope (removing a local's only
//	                 binding would only raise NameError)
//	raise            raise ... → pass
//	except           an except handler's body → raise (re-raise)
//	loop-control     break ↔ continue
//	string           "s" → "XXsXX" (not a docstring, not a message: of an
//	                 exception raised, an assertion, a warning, a
//	                 logging call)
//	method-call      x.m() → x for any method without arguments,
//	                 s.strip(...) → s for the methods that keep a string
//	                 a string (not on a module name, not as a statement)
//	call-default     next(it, None) → next(it): the literal default of
//	                 next, getattr, get, pop, setdefault and getenv
//	                 dropped (not a None that is their default anyway)
//	assignment       the value assigned → None, and None → "" (mutmut's):
//	                 not a literal, not to a dunder name
//	lambda           lambda ...: EXPR → lambda ...: None
//
// A site replaces a span of the source's bytes. For an operator it is the
// token (for is not and not in both tokens and what lies between them);
// for not it is the keyword and everything up to the operand's first token
// (so the replacement is empty); for return-none and return-value, raise
// and statement the whole statement; for negation and condition the
// condition; for assignment the value assigned, for lambda its body; for branch and except the body, from its first statement's
// start to its last one's end; for method-call the dot to the closing
// parenthesis and for call-default the comma to the literal's end (both
// replaced with nothing).
//
// Every mutant is compiled: one the compiler refuses is not offered; one
// whose code is the original's is Equivalent (bytecode, names, constants
// and flags compared recursively, ignoring column positions, and line
// numbers too when the edit keeps the lines: they change only what a
// traceback says), and one whose code is another mutant's is the same
// mutant and left out, so the sites are distinct behaviours.
//
// Sites are only offered where they are exact: the script locates every
// token with tokenize and then parses each mutant again, offering it only
// when it gives the syntax tree the mutation means. So there is no site
// where the text would regroup (** → * in a / b ** c would read (a / b) * c),
// for a complex literal, a float whose n+1 is not finite or equals n, a
// literal longer than 100 bytes, or a mutant that does not parse. A mutant
// is parsed in its group of top-level statements, which parses in the file
// exactly as alone; that keeps a large file to seconds, not minutes.
// Nothing inside an f-string is mutated: before Python 3.12 its insides are
// one token, and treating them the same on every version keeps the sites
// independent of the interpreter.
//
// Only UTF-8 sources are supported (a BOM is allowed; an encoding
// declaration must decode the file exactly as UTF-8 does). Lines end with
// \n, \r\n or a lone \r, as for the Python parser. Suppression comments are
// not honoured: a patch must not be able to exempt its own lines.
package pymutant

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The operators, as Site.Operator. The set is closed: ReadSites rejects any
// other name.
const (
	OpComparison     = "comparison"
	OpIdentity       = "identity"
	OpMembership     = "membership"
	OpBoolean        = "boolean"
	OpNot            = "not"
	OpArithmetic     = "arithmetic"
	OpAugmented      = "augmented"
	OpBooleanLiteral = "boolean-literal"
	OpNumber         = "number"
	OpReturnNone     = "return-none"
	OpBoundary       = "boundary"
	OpReturnValue    = "return-value"
	OpNegation       = "negation"
	OpCondition      = "condition"
	OpBranch         = "branch"
	OpStatement      = "statement"
	OpRaise          = "raise"
	OpExcept         = "except"
	OpLoopControl    = "loop-control"
	OpString         = "string"
	OpMethodCall     = "method-call"
	OpCallDefault    = "call-default"
	OpAssignment     = "assignment"
	OpLambda         = "lambda"
)

// Operators lists every operator, sorted.
func Operators() []string {
	ops := []string{OpComparison, OpIdentity, OpMembership, OpBoolean, OpNot, OpArithmetic, OpAugmented,
		OpBooleanLiteral, OpNumber, OpReturnNone, OpBoundary, OpReturnValue, OpNegation, OpCondition,
		OpBranch, OpStatement, OpRaise, OpExcept, OpLoopControl, OpString, OpMethodCall, OpCallDefault,
		OpAssignment, OpLambda}
	slices.Sort(ops)
	return ops
}

// Limits on the script's output, so that a misbehaving interpreter cannot
// make the caller hold unbounded data.
const (
	// MaxOutput is the most bytes of output ReadSites reads (and Find
	// keeps before stopping the interpreter).
	MaxOutput = 16 << 20
	// MaxSites is the most sites ReadSites accepts.
	MaxSites = 100_000
	// maxNumberLen bounds a number literal's length; find.py skips longer
	// ones, so both must agree. It keeps the decimal arithmetic cheap.
	maxNumberLen = 100
	// maxStderr is how much of the interpreter's stderr is kept for the
	// error message.
	maxStderr = 64 << 10
	// maxMessage bounds the stderr line quoted in an error.
	maxMessage = 300
	// exitSource is find.py's exit status for a rejected source.
	exitSource = 3
	// waitDelay bounds the wait for the interpreter's output pipes after
	// it has been killed.
	waitDelay = 2 * time.Second
)

// script is find.py, run with `python -I -S -c`.
//
//go:embed find.py
var script string

// Site is one mutation: a replacement of a span of the source.
type Site struct {
	// Line is the 1-based line on which the replaced span starts; lines end
	// with \n, \r\n or a lone \r.
	Line int
	// Col is the 1-based column of the span's start within that line, in
	// bytes (a BOM counts on line 1).
	Col int
	// Start and End are the byte offsets of the replaced span in the
	// source, End exclusive.
	Start, End int
	// Original is src[Start:End].
	Original string
	// Replacement replaces Original in the mutant. It is empty only for
	// the operators that remove what the span holds: not (the keyword and
	// the space after it), method-call and call-default.
	Replacement string
	// Operator names the mutation operator: one of the Op constants.
	Operator string
	// Description says what changes, e.g. `replace "<" with ">="`.
	Description string
	// Equivalent: the mutant compiles to the original's code. No test can
	// kill it; it is reported apart and never run.
	Equivalent bool
	// StatementLine is the first line of the innermost statement holding
	// the site, at most Line: the line coverage.py reports the statement's
	// execution on. A site on a continuation line of a multi-line
	// statement runs when its statement does.
	StatementLine int
}

// SourceError reports that the script rejected the Python source itself:
// it does not parse, is not UTF-8, or declares another encoding. It is the
// patch's problem, not the environment's, so callers can tell the two
// apart with errors.As.
type SourceError struct {
	// Msg is the script's one-line explanation, e.g.
	// "source does not parse: line 3: invalid syntax".
	Msg string
}

// Error implements error.
func (e *SourceError) Error() string { return "pymutant: " + e.Msg }

// Find returns the mutation sites whose span starts on one of lines
// (1-based) of the Python source src, sorted by Start, Operator and
// Replacement, without duplicates. No lines means no sites, and the
// interpreter is not run; a line past the end has no sites, and a line
// below 1 is an error.
//
// python is the interpreter to run (a path, or a name looked up in PATH).
// It runs with the caller's environment, which -I makes it ignore except
// for what the interpreter itself needs to start; ctx bounds the run. When
// src does not parse the error is a *SourceError; an interpreter older than
// 3.8 fails with an error.
func Find(ctx context.Context, python string, src []byte, lines []int) ([]Site, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	want, header, err := lineRanges(lines)
	if err != nil {
		return nil, err
	}
	out, err := run(ctx, python, header, src)
	if err != nil {
		return nil, err
	}
	sites, err := ReadSites(src, out)
	if err != nil {
		return nil, fmt.Errorf("pymutant: output of %s: %w", python, err)
	}
	for _, s := range sites {
		if _, ok := slices.BinarySearch(want, s.Line); !ok {
			return nil, fmt.Errorf("pymutant: output of %s: site at line %d, which was not asked for", python, s.Line)
		}
	}
	return sites, nil
}

// lineRanges returns lines sorted without duplicates and formatted as
// find.py's header: merged ranges such as "3,7-9".
func lineRanges(lines []int) ([]int, string, error) {
	ls := slices.Clone(lines)
	slices.Sort(ls)
	ls = slices.Compact(ls)
	if ls[0] < 1 {
		return nil, "", fmt.Errorf("pymutant: line %d: lines are 1-based", ls[0])
	}
	var b strings.Builder
	for i := 0; i < len(ls); {
		j := i
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ls[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(ls[j]))
		}
		i = j + 1
	}
	return ls, b.String(), nil
}

// run runs find.py on src and returns its stdout.
func run(ctx context.Context, python, header string, src []byte) ([]byte, error) {
	return runScript(ctx, python, script, io.MultiReader(strings.NewReader(header+"\n"), bytes.NewReader(src)))
}

// runScript runs one of the package's scripts with stdin and returns its
// stdout.
func runScript(ctx context.Context, python, script string, stdin io.Reader) ([]byte, error) {
	if python == "" {
		return nil, errors.New("pymutant: no Python interpreter given")
	}
	// run's own context is also cancelled when stdout overflows.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(runCtx, python, "-I", "-S", "-c", script)
	if cmd.Err != nil {
		return nil, fmt.Errorf("pymutant: Python interpreter %q: %w", python, cmd.Err)
	}
	cmd.Stdin = stdin
	stdout := &capped{max: MaxOutput, full: cancel}
	stderr := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = waitDelay
	err := cmd.Run()
	switch {
	case stdout.over:
		return nil, fmt.Errorf("pymutant: %s wrote more than %d bytes", python, MaxOutput)
	case err == nil:
		return stdout.buf.Bytes(), nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("pymutant: running %s: %w", python, context.Cause(ctx))
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return nil, fmt.Errorf("pymutant: cannot run Python interpreter %q: %w", python, err)
	}
	msg := firstLine(stderr.buf.Bytes())
	if exit.ExitCode() == exitSource {
		if m, ok := strings.CutPrefix(msg, "pymutant: "); ok {
			return nil, &SourceError{Msg: m}
		}
	}
	if msg == "" {
		msg = "no message on stderr"
	}
	return nil, fmt.Errorf("pymutant: %s failed (%v): %s", python, exit, msg)
}

// firstLine returns the first non-empty line of b, trimmed, with control
// characters and invalid UTF-8 replaced and its length bounded: it goes
// into an error message.
func firstLine(b []byte) string {
	for line := range bytes.Lines(b) {
		s := strings.TrimSpace(strings.ToValidUTF8(string(line), "\uFFFD"))
		if s == "" {
			continue
		}
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return '?'
			}
			return r
		}, s)
		if len(s) > maxMessage {
			cut := maxMessage
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			s = s[:cut] + "…"
		}
		return s
	}
	return ""
}

// capped keeps the first max bytes written to it. Past that it records the
// overflow, calls full (if set) and discards the rest, still reporting
// success so that the writer is never blocked.
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
