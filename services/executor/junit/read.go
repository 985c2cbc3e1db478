package junit

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Default limits of Read.
const (
	// DefaultMaxBytes bounds the file. pytest writes a few hundred bytes
	// per passing test and a traceback per failing one.
	DefaultMaxBytes = 16 << 20
	// DefaultMaxCases bounds the <testcase> elements.
	DefaultMaxCases = 200_000
	// DefaultMaxSuites bounds the <testsuite> elements.
	DefaultMaxSuites = 50_000
	// DefaultMaxDepth bounds element nesting. A testcase in pytest's file is
	// at depth 3; tools that nest suites by package add a few levels.
	DefaultMaxDepth = 32
	// DefaultMaxNameBytes bounds the attributes that identify a case or a
	// suite (name, classname, file). A longer one is refused, not cut: a
	// cut name would be another name.
	DefaultMaxNameBytes = 4 << 10
	// DefaultMaxMessageBytes bounds the message and type kept per case.
	// Longer ones are cut (they decide nothing).
	DefaultMaxMessageBytes = 1 << 10
)

// Limits bound what a file can make the reader hold. A zero or negative
// field means its default. Text content (tracebacks, <system-out>,
// <system-err>, property values) is never kept; only MaxBytes bounds it.
type Limits struct {
	MaxBytes        int64
	MaxCases        int
	MaxSuites       int
	MaxDepth        int
	MaxNameBytes    int
	MaxMessageBytes int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxCases <= 0 {
		l.MaxCases = DefaultMaxCases
	}
	if l.MaxSuites <= 0 {
		l.MaxSuites = DefaultMaxSuites
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxNameBytes <= 0 {
		l.MaxNameBytes = DefaultMaxNameBytes
	}
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = DefaultMaxMessageBytes
	}
	return l
}

// teardownErrorPrefix starts the message pytest writes on the <error> of an
// error in a test's teardown (_pytest/junitxml.py, append_error). Setup
// errors say "failed on setup with".
const teardownErrorPrefix = `failed on teardown with "`

// Read reads one JUnit XML file to its end and checks it. A zero field of
// lim means its default.
//
// Accepted:
//   - an optional XML declaration (version 1.0, encoding UTF-8 or none) as
//     the very first thing, optionally after a UTF-8 byte order mark;
//     comments, processing instructions and white space around the root;
//   - a <testsuites> root holding <testsuite> elements, or a <testsuite>
//     root; a <testsuite> holds <testcase> elements and nested
//     <testsuite> elements; <properties> (of <property> elements),
//     <system-out> and <system-err> wherever real tools put them;
//   - a <testcase> (name required; classname, file, line, time, status,
//     result read, other attributes ignored) holding any number of
//     <failure>, <error> and <skipped> elements (message and type
//     attributes, text content), <system-out>, <system-err>,
//     <properties>, and Maven Surefire's <flakyFailure>, <flakyError>,
//     <rerunFailure> and <rerunError> (which may hold <stackTrace>,
//     <system-out> and <system-err>);
//   - attributes in a namespace (xsi:schemaLocation) are ignored.
//
// Refused (ErrMalformed): XML that is not well-formed or is cut short; any
// <!...> declaration (DOCTYPE, ENTITY: nothing is ever expanded beyond
// the five predefined entities and character references); an encoding
// other than UTF-8 and invalid UTF-8; an XML declaration that is not
// first; a root other than <testsuites> or <testsuite>; a second root;
// text other than white space outside the root or in an element that holds
// only elements; an element in a namespace; any element where the shapes
// above have none; a duplicated attribute; a testcase without a name; a
// count attribute that is not a decimal count.
//
// Refused (ErrLimit): a file over lim.MaxBytes, more than lim.MaxCases
// testcases or lim.MaxSuites suites, nesting deeper than lim.MaxDepth, a
// name, classname, file or suite name over lim.MaxNameBytes.
//
// Refused (ErrCounts): a declared count that disagrees with the cases. The
// tests, failures, errors and skipped (or skip) attributes of <testsuites>
// and of every <testsuite> are checked against the <testcase> elements in
// it, nested suites included. Tools count in one of two ways, and a count
// is accepted if it agrees with either:
//   - cases: tests counts <testcase> elements; failures, errors and
//     skipped count the elements with at least one <failure>, <error>,
//     <skipped> child (googletest writes a <failure> per failed assertion
//     and counts the test once);
//   - pytest: failures, errors and skipped count the <failure>, <error> and
//     <skipped> elements, and tests counts pytest's reports: a test that
//     passed and then errored in teardown (an element whose only children
//     are errors with pytest's teardown message) counts twice, as does a
//     setup error or a skip with a teardown error, and the two elements of
//     a failure with a teardown error (below) count once.
//
// Declared counts are only checked, never used: Report.Totals counts the
// cases.
//
// pytest writes a test that failed and then errored in its teardown as two
// <testcase> elements with the same classname, name and file, one after
// the other: the first with the <failure>, the second with the teardown
// <error> (message "failed on teardown with ..."). Read makes them one
// case, StatusFailed, with both counted in Failures and Errors, and counts
// the merge in Report.Merged. Elements that are not adjacent (pytest-xdist
// can interleave them) stay two cases, which Match then finds ambiguous.
//
// Attributes that decide nothing (time, line) are read leniently: a value
// that is not a number is reported as 0.
func Read(r io.Reader, lim Limits) (*Report, error) {
	lim = lim.withDefaults()
	lr := &limitedReader{r: r, max: lim.MaxBytes}
	br := bufio.NewReader(lr)
	if b, err := br.Peek(len(utf8BOM)); err == nil && string(b) == utf8BOM {
		if _, err := br.Discard(len(utf8BOM)); err != nil {
			return nil, fmt.Errorf("junit: reading: %w", err)
		}
	}
	dec := xml.NewDecoder(br)
	dec.Strict = true
	dec.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, notUTF8Error{label}
	}
	p := newParser(lim)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, decodeError(err, lr)
		}
		if err := p.token(tok); err != nil {
			return nil, err
		}
	}
	if lr.read > lr.max {
		return nil, limitErr("file larger than %d bytes", lr.max)
	}
	if p.root == "" {
		if lr.read == 0 {
			return nil, malformedErr("empty file")
		}
		return nil, malformedErr("no root element")
	}
	return p.report(lr.read), nil
}

// utf8BOM is the UTF-8 byte order mark, which some tools write first.
const utf8BOM = "\xEF\xBB\xBF"

// notUTF8Error is what the decoder's CharsetReader returns for every
// encoding it is asked about: encoding/xml asks only for encodings other
// than UTF-8.
type notUTF8Error struct{ label string }

func (e notUTF8Error) Error() string {
	return fmt.Sprintf("encoding %s declared; only UTF-8 is accepted", short(e.label))
}

// decodeError turns an error of the XML decoder into Read's error.
func decodeError(err error, lr *limitedReader) error {
	var enc notUTF8Error
	var syntax *xml.SyntaxError
	switch {
	case errors.Is(err, errTooLarge) || lr.read > lr.max:
		return limitErr("file larger than %d bytes", lr.max)
	case errors.As(err, &enc):
		return malformedErr("%s", enc.Error())
	case errors.As(err, &syntax):
		return malformedErr("%s", clip(syntax.Error()))
	case lr.err != nil && errors.Is(err, lr.err):
		return fmt.Errorf("junit: reading after %d bytes: %w", lr.read, err)
	default:
		// The decoder's own complaints ("xml: unsupported version").
		return malformedErr("%s", clip(err.Error()))
	}
}

// errTooLarge is returned by limitedReader past its limit.
var errTooLarge = errors.New("input larger than the limit")

// limitedReader passes at most max bytes through and fails with
// errTooLarge if there are more. It remembers the underlying reader's
// error, so that Read can tell it from the decoder's.
type limitedReader struct {
	r    io.Reader
	max  int64
	read int64 // bytes read from r, at most max+1
	err  error // the last error of r other than io.EOF
}

func (l *limitedReader) Read(b []byte) (int, error) {
	if l.read > l.max {
		return 0, errTooLarge
	}
	// One byte more than the limit, to see whether there is more; written
	// so that a limit of math.MaxInt64 does not overflow.
	if left := l.max - l.read; int64(len(b)) > left {
		b = b[:left+1]
	}
	n, err := l.r.Read(b)
	l.read += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		l.err = err
	}
	if l.read > l.max {
		return n - int(l.read-l.max), errTooLarge
	}
	return n, err
}

// kind is the role of an element.
type kind uint8

const (
	kindOther kind = iota
	kindTestsuites
	kindTestsuite
	kindTestcase
	kindFailure
	kindError
	kindSkipped
	kindOutput // <system-out>, <system-err>
	kindProperties
	kindProperty
	kindRerun // Surefire's <flakyFailure>, <flakyError>, <rerunFailure>, <rerunError>
	kindStackTrace
)

func kindOf(local string) kind {
	switch local {
	case "testsuites":
		return kindTestsuites
	case "testsuite":
		return kindTestsuite
	case "testcase":
		return kindTestcase
	case "failure":
		return kindFailure
	case "error":
		return kindError
	case "skipped":
		return kindSkipped
	case "system-out", "system-err":
		return kindOutput
	case "properties":
		return kindProperties
	case "property":
		return kindProperty
	case "flakyFailure", "flakyError", "rerunFailure", "rerunError":
		return kindRerun
	case "stackTrace":
		return kindStackTrace
	default:
		return kindOther
	}
}

// allowed reports whether an element of kind child may appear in one of
// kind parent.
func allowed(parent, child kind) bool {
	switch parent {
	case kindTestsuites:
		return child == kindTestsuite || child == kindProperties || child == kindOutput
	case kindTestsuite:
		return child == kindTestsuite || child == kindTestcase || child == kindProperties || child == kindOutput
	case kindTestcase:
		switch child {
		case kindFailure, kindError, kindSkipped, kindOutput, kindProperties, kindRerun:
			return true
		}
	case kindProperties:
		return child == kindProperty
	case kindRerun:
		return child == kindStackTrace || child == kindOutput
	}
	return false
}

// holdsText reports whether an element of kind k may hold text other than
// white space.
func holdsText(k kind) bool {
	switch k {
	case kindFailure, kindError, kindSkipped, kindOutput, kindProperty, kindRerun, kindStackTrace:
		return true
	}
	return false
}

// frame is an open element.
type frame struct {
	kind kind
	name string
	// suite is the index of a <testsuite> in parser.suites.
	suite int
	// lastCase is, for a <testsuite>, the index in parser.cases of the
	// case that just closed directly in it, or -1: only adjacent elements
	// are merged.
	lastCase int
}

// tally is what a suite's declared counts are checked against.
type tally struct {
	elements int
	// pytestTests is the tests count pytest writes: its reports, minus one
	// per failure-and-teardown-error pair.
	pytestTests  int
	casesFailure int
	elemsFailure int
	casesError   int
	elemsError   int
	casesSkipped int
	elemsSkipped int
}

func (t *tally) add(o tally) {
	t.elements += o.elements
	t.pytestTests += o.pytestTests
	t.casesFailure += o.casesFailure
	t.elemsFailure += o.elemsFailure
	t.casesError += o.casesError
	t.elemsError += o.elemsError
	t.casesSkipped += o.casesSkipped
	t.elemsSkipped += o.elemsSkipped
}

// openCase is the <testcase> being read.
type openCase struct {
	c              Case
	teardownErrors int
	statusNotRun   bool
	decided        kind // the kind whose message c.Message holds
}

type parser struct {
	lim          Limits
	stack        []frame
	tokens       int
	root         string
	rootDone     bool
	rootDeclared Declared
	rootTally    tally
	suites       []Suite
	tallies      []tally
	cases        []Case
	elements     int
	merged       int
	cur          openCase
}

func newParser(lim Limits) *parser {
	return &parser{lim: lim, rootDeclared: absent()}
}

func absent() Declared { return Declared{Tests: -1, Failures: -1, Errors: -1, Skipped: -1} }

func (p *parser) top() *frame { return &p.stack[len(p.stack)-1] }

func (p *parser) token(tok xml.Token) error {
	first := p.tokens == 0
	p.tokens++
	switch t := tok.(type) {
	case xml.StartElement:
		return p.start(t)
	case xml.EndElement:
		return p.end()
	case xml.CharData:
		return p.text(t)
	case xml.Comment:
		return nil
	case xml.ProcInst:
		if strings.EqualFold(t.Target, "xml") && !first {
			return malformedErr("XML declaration not at the start of the file")
		}
		return nil
	case xml.Directive:
		word := "declaration"
		if f := bytes.Fields(t); len(f) > 0 {
			word = string(f[0])
		}
		return malformedErr("<!%s ...> refused: no DOCTYPE or entity declarations", shortName(word))
	default:
		return malformedErr("unexpected XML token %T", tok)
	}
}

func (p *parser) start(t xml.StartElement) error {
	name := t.Name.Local
	if t.Name.Space != "" {
		return malformedErr("element <%s> in namespace %s", shortName(name), short(t.Name.Space))
	}
	if p.rootDone {
		return malformedErr("second root element <%s> after </%s>", shortName(name), p.root)
	}
	if len(p.stack) >= p.lim.MaxDepth {
		return limitErr("elements nested deeper than %d", p.lim.MaxDepth)
	}
	k := kindOf(name)
	if len(p.stack) == 0 {
		if k != kindTestsuites && k != kindTestsuite {
			return malformedErr("root element <%s>; want <testsuites> or <testsuite>", shortName(name))
		}
		p.root = name
	} else if parent := p.top(); !allowed(parent.kind, k) {
		return malformedErr("element <%s> inside <%s>", shortName(name), parent.name)
	}
	attrs, err := attributes(t)
	if err != nil {
		return err
	}
	f := frame{kind: k, name: name, suite: -1, lastCase: -1}
	switch k {
	case kindTestsuites:
		p.rootDeclared, err = declared("testsuites", attrs)
	case kindTestsuite:
		err = p.startSuite(attrs, &f)
	case kindTestcase:
		err = p.startCase(attrs)
	case kindFailure, kindError, kindSkipped:
		p.startResult(k, attrs)
	case kindRerun:
		p.cur.c.Reruns++
	}
	if err != nil {
		return err
	}
	p.stack = append(p.stack, f)
	return nil
}

// attributes returns the attributes without a namespace by name, and
// refuses duplicates (encoding/xml keeps both).
func attributes(t xml.StartElement) (map[string]string, error) {
	if len(t.Attr) == 0 {
		return nil, nil
	}
	seen := make(map[xml.Name]bool, len(t.Attr))
	plain := make(map[string]string, len(t.Attr))
	for _, a := range t.Attr {
		if seen[a.Name] {
			n := a.Name.Local
			if a.Name.Space != "" {
				n = a.Name.Space + ":" + n
			}
			return nil, malformedErr("attribute %s repeated in <%s>", short(n), shortName(t.Name.Local))
		}
		seen[a.Name] = true
		if a.Name.Space == "" {
			plain[a.Name.Local] = a.Value
		}
	}
	return plain, nil
}

func (p *parser) startSuite(attrs map[string]string, f *frame) error {
	if len(p.suites) >= p.lim.MaxSuites {
		return limitErr("more than %d testsuites", p.lim.MaxSuites)
	}
	name := attrs["name"]
	if len(name) > p.lim.MaxNameBytes {
		return limitErr("testsuite name longer than %d bytes", p.lim.MaxNameBytes)
	}
	d, err := declared(suiteLabel(name, len(p.suites)), attrs)
	if err != nil {
		return err
	}
	parent := -1
	if len(p.stack) > 0 && p.top().kind == kindTestsuite {
		pf := p.top()
		parent = pf.suite
		pf.lastCase = -1
	}
	p.suites = append(p.suites, Suite{Name: name, Parent: parent, Declared: d})
	p.tallies = append(p.tallies, tally{})
	f.suite = len(p.suites) - 1
	return nil
}

// declared reads the count attributes of a <testsuites> or <testsuite>.
func declared(what string, attrs map[string]string) (Declared, error) {
	d := absent()
	for _, a := range []struct {
		key string
		dst *int
	}{
		{"tests", &d.Tests},
		{"failures", &d.Failures},
		{"errors", &d.Errors},
		{"skipped", &d.Skipped},
	} {
		v, ok := attrs[a.key]
		if !ok {
			continue
		}
		n, ok := parseCount(v)
		if !ok {
			return d, malformedErr("%s: %s=%s is not a count", what, a.key, short(v))
		}
		*a.dst = n
	}
	if v, ok := attrs["skip"]; ok { // nose's xunit plugin
		n, ok := parseCount(v)
		if !ok {
			return d, malformedErr("%s: skip=%s is not a count", what, short(v))
		}
		if d.Skipped >= 0 && d.Skipped != n {
			return d, malformedErr("%s: skipped=%d and skip=%d disagree", what, d.Skipped, n)
		}
		d.Skipped = n
	}
	return d, nil
}

// parseCount parses a non-negative decimal count of at most 9 digits.
func parseCount(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func (p *parser) startCase(attrs map[string]string) error {
	if p.elements >= p.lim.MaxCases {
		return limitErr("more than %d testcases", p.lim.MaxCases)
	}
	p.elements++
	name, ok := attrs["name"]
	if !ok || name == "" {
		return malformedErr("testcase %d has no name", p.elements)
	}
	for _, key := range []string{"name", "classname", "file"} {
		if len(attrs[key]) > p.lim.MaxNameBytes {
			return limitErr("testcase %d: %s longer than %d bytes", p.elements, key, p.lim.MaxNameBytes)
		}
	}
	c := Case{
		Classname: attrs["classname"],
		Name:      name,
		File:      attrs["file"],
		Line:      parseLine(attrs["line"]),
		Time:      parseSeconds(attrs["time"]),
		Suite:     p.top().suite,
	}
	status, hasStatus := attrs["status"]
	result, hasResult := attrs["result"]
	p.cur = openCase{
		c:            c,
		statusNotRun: (hasStatus && status != "run") || (hasResult && result != "completed"),
	}
	return nil
}

func (p *parser) startResult(k kind, attrs map[string]string) {
	oc := &p.cur
	switch k {
	case kindFailure:
		oc.c.Failures++
	case kindError:
		oc.c.Errors++
		if strings.HasPrefix(attrs["message"], teardownErrorPrefix) {
			oc.teardownErrors++
		}
	case kindSkipped:
		oc.c.Skips++
	}
	// The message of the first child of the deciding kind: failure over
	// error over skipped.
	if oc.decided == 0 || rank(k) < rank(oc.decided) {
		oc.decided = k
		oc.c.Message = cut(attrs["message"], p.lim.MaxMessageBytes)
		oc.c.Type = cut(attrs["type"], p.lim.MaxMessageBytes)
	}
}

func rank(k kind) int {
	switch k {
	case kindFailure:
		return 1
	case kindError:
		return 2
	default:
		return 3
	}
}

func (p *parser) text(t xml.CharData) error {
	if isSpace(t) {
		return nil
	}
	if len(p.stack) == 0 {
		if p.rootDone {
			return malformedErr("text after the root element")
		}
		return malformedErr("text before the root element")
	}
	if f := p.top(); !holdsText(f.kind) {
		return malformedErr("text inside <%s>", f.name)
	}
	return nil
}

func isSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// end closes the innermost element; the decoder has checked that the end
// tag matches it.
func (p *parser) end() error {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	var err error
	switch f.kind {
	case kindTestcase:
		p.endCase()
	case kindTestsuite:
		err = p.endSuite(f)
	case kindTestsuites:
		err = checkCounts("testsuites", p.rootDeclared, p.rootTally)
	}
	if len(p.stack) == 0 {
		p.rootDone = true
	}
	return err
}

func (p *parser) endCase() {
	oc := p.cur
	p.cur = openCase{}
	c := oc.c
	c.Status = status(c, oc.statusNotRun)
	sf := p.top() // the suite holding the case
	t := &p.tallies[c.Suite]
	t.elements++
	if prev := sf.lastCase; prev >= 0 && teardownHalf(p.cases[prev], oc) {
		pc := &p.cases[prev]
		pc.Errors += c.Errors
		pc.Reruns += c.Reruns
		pc.Time += c.Time
		// pytest counted the teardown report and took one test off again.
		t.casesError++
		t.elemsError += c.Errors
		t.pytestTests += c.Errors - 1
		p.merged++
		sf.lastCase = -1
		return
	}
	if c.Failures > 0 {
		t.casesFailure++
	}
	if c.Errors > 0 {
		t.casesError++
	}
	if c.Skips > 0 {
		t.casesSkipped++
	}
	t.elemsFailure += c.Failures
	t.elemsError += c.Errors
	t.elemsSkipped += c.Skips
	// pytest counts a report per outcome: each failure, error and skip,
	// plus the passing call of a test whose only errors are in teardown
	// (or that has no child at all).
	reports := c.Failures + c.Errors + c.Skips
	if reports == 0 || (c.Failures == 0 && c.Skips == 0 && oc.teardownErrors == c.Errors) {
		reports++
	}
	t.pytestTests += reports
	p.cases = append(p.cases, c)
	sf.lastCase = len(p.cases) - 1
}

// teardownHalf reports whether cur is the second of the two elements pytest
// writes for a test that failed and then errored in teardown.
func teardownHalf(prev Case, cur openCase) bool {
	c := cur.c
	return prev.Classname == c.Classname && prev.Name == c.Name && prev.File == c.File &&
		prev.Failures > 0 && prev.Errors == 0 && prev.Skips == 0 &&
		c.Failures == 0 && c.Skips == 0 && c.Errors > 0 && cur.teardownErrors == c.Errors
}

func status(c Case, notRun bool) Status {
	switch {
	case c.Failures > 0:
		return StatusFailed
	case c.Errors > 0:
		return StatusErrored
	case c.Skips > 0:
		return StatusSkipped
	case notRun:
		return StatusNotRun
	default:
		return StatusPassed
	}
}

func (p *parser) endSuite(f frame) error {
	s := &p.suites[f.suite]
	t := p.tallies[f.suite]
	s.Elements = t.elements
	if err := checkCounts(suiteLabel(s.Name, f.suite), s.Declared, t); err != nil {
		return err
	}
	if s.Parent >= 0 {
		p.tallies[s.Parent].add(t)
	} else {
		p.rootTally.add(t)
	}
	return nil
}

// suiteLabel names the suite with index i in error messages.
func suiteLabel(name string, i int) string {
	if name == "" {
		return fmt.Sprintf("testsuite #%d", i+1)
	}
	return "testsuite " + short(name)
}

// checkCounts checks the declared counts of what against its tally.
func checkCounts(what string, d Declared, t tally) error {
	if d.Tests >= 0 && d.Tests != t.elements && d.Tests != t.pytestTests {
		if t.pytestTests != t.elements {
			return countsErr("%s declares tests=%d, but counted %d (<testcase> elements) or %d (as pytest counts)", what, d.Tests, t.elements, t.pytestTests)
		}
		return countsErr("%s declares tests=%d, but counted %d (<testcase> elements)", what, d.Tests, t.elements)
	}
	for _, c := range []struct {
		attr, elem    string
		n, cases, els int
	}{
		{"failures", "failure", d.Failures, t.casesFailure, t.elemsFailure},
		{"errors", "error", d.Errors, t.casesError, t.elemsError},
		{"skipped", "skipped", d.Skipped, t.casesSkipped, t.elemsSkipped},
	} {
		if c.n >= 0 && c.n != c.cases && c.n != c.els {
			return countsErr("%s declares %s=%d, but counted %d (cases with <%s>) or %d (<%s> elements)", what, c.attr, c.n, c.cases, c.elem, c.els, c.elem)
		}
	}
	return nil
}

// report freezes the parser's state.
func (p *parser) report(size int64) *Report {
	r := &Report{
		Root:         p.root,
		RootDeclared: p.rootDeclared,
		Suites:       p.suites,
		Cases:        p.cases,
		Merged:       p.merged,
		Bytes:        size,
	}
	for _, c := range r.Cases {
		r.Totals.add(c.Status)
	}
	return r
}

func (t *Totals) add(s Status) {
	t.Cases++
	switch s {
	case StatusPassed:
		t.Passed++
	case StatusFailed:
		t.Failed++
	case StatusErrored:
		t.Errored++
	case StatusSkipped:
		t.Skipped++
	case StatusNotRun:
		t.NotRun++
	}
}

// parseLine reads a line attribute; anything but a non-negative integer is
// 0.
func parseLine(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// parseSeconds reads a time attribute; anything but a finite non-negative
// number of seconds is 0.
func parseSeconds(s string) time.Duration {
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0) || f > math.MaxInt64/float64(time.Second) {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

// cut returns s cut to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// Error messages quote what the file said, short and on one line.
const maxQuoted = 64

// short quotes s for an error message, cut to maxQuoted bytes.
func short(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(cut(s, maxQuoted)) + "..."
	}
	return strconv.Quote(s)
}

// shortName is short for XML names, which need no quotes.
func shortName(s string) string {
	s = oneLine(s)
	if len(s) > maxQuoted {
		return cut(s, maxQuoted) + "..."
	}
	return s
}

// clip makes a message of the XML decoder, which may quote the file, one
// line of bounded length.
func clip(s string) string {
	s = oneLine(s)
	if len(s) > 4*maxQuoted {
		return cut(s, 4*maxQuoted) + "..."
	}
	return s
}

// oneLine replaces control characters with spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

func malformedErr(format string, args ...any) error {
	return &readError{kind: ErrMalformed, msg: fmt.Sprintf(format, args...)}
}

func limitErr(format string, args ...any) error {
	return &readError{kind: ErrLimit, msg: fmt.Sprintf(format, args...)}
}

func countsErr(format string, args ...any) error {
	return &readError{kind: ErrCounts, msg: fmt.Sprintf(format, args...)}
}

// readError is an error of Read about the file's content.
type readError struct {
	kind error
	msg  string
}

func (e *readError) Error() string { return "junit: " + e.kind.Error() + ": " + e.msg }

func (e *readError) Unwrap() error { return e.kind }
