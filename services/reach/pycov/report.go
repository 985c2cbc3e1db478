package pycov

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Default limits of Parse, used for the fields of Limits left zero.
const (
	// DefaultMaxBytes bounds the size of a report. A report with contexts
	// repeats every context name on every line it ran; coverage.py 7.5 and
	// later repeat a file's lines again per function and class.
	DefaultMaxBytes = 256 << 20
	// DefaultMaxFiles bounds the files of a report.
	DefaultMaxFiles = 100_000
	// DefaultMaxLine bounds line numbers.
	DefaultMaxLine = 1_000_000
	// DefaultMaxLines bounds the entries of all executed_lines,
	// missing_lines and excluded_lines lists of a report together.
	DefaultMaxLines = 20_000_000
	// DefaultMaxContexts bounds the distinct context names of a report.
	DefaultMaxContexts = 1_000_000
	// DefaultMaxContextBytes bounds the length of one context name.
	DefaultMaxContextBytes = 4096
	// DefaultMaxContextRefs bounds the (line, context) pairs of a report:
	// the entries of all its contexts lists together.
	DefaultMaxContextRefs = 50_000_000
)

// Limits bound what Parse accepts. A zero field takes its default.
type Limits struct {
	// Root is the absolute, clean path of the tree coverage.py ran in. A
	// report names the files below the directory `coverage json` ran in
	// by relative paths and every other file by its absolute path; an
	// absolute path below Root is taken relative to Root. Empty: every
	// absolute path is refused.
	Root string

	MaxBytes        int64 // size of the report (DefaultMaxBytes)
	MaxFiles        int   // files (DefaultMaxFiles)
	MaxLine         int   // largest line number (DefaultMaxLine)
	MaxLines        int   // line list entries, all files (DefaultMaxLines)
	MaxContexts     int   // distinct context names (DefaultMaxContexts)
	MaxContextBytes int   // bytes of one context name (DefaultMaxContextBytes)
	MaxContextRefs  int   // contexts list entries, all lines (DefaultMaxContextRefs)
}

// withDefaults returns l with its zero fields set to their defaults, or
// an error for a negative field or an invalid root.
func (l Limits) withDefaults() (Limits, error) {
	if l.Root != "" && (!path.IsAbs(l.Root) || path.Clean(l.Root) != l.Root) {
		return l, fmt.Errorf("limits: root %s is not an absolute clean path", quote(l.Root))
	}
	if l.MaxBytes < 0 || l.MaxFiles < 0 || l.MaxLine < 0 || l.MaxLines < 0 ||
		l.MaxContexts < 0 || l.MaxContextBytes < 0 || l.MaxContextRefs < 0 {
		return l, errors.New("limits: negative limit")
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	def(&l.MaxFiles, DefaultMaxFiles)
	def(&l.MaxLine, DefaultMaxLine)
	def(&l.MaxLines, DefaultMaxLines)
	def(&l.MaxContexts, DefaultMaxContexts)
	def(&l.MaxContextBytes, DefaultMaxContextBytes)
	def(&l.MaxContextRefs, DefaultMaxContextRefs)
	return l, nil
}

// Report is a parsed coverage.py JSON report with contexts.
type Report struct {
	Version string // meta.version: the coverage.py that wrote the report
	// Format is meta.format: 2 or 3, or 0 when the report has none
	// (coverage.py before 7.5).
	Format int
	// Files are the measured files by path relative to the tree: clean,
	// slash-separated, without "." or ".." elements.
	Files map[string]*File
}

// File is what a report says of one file. Lines are 1-based.
type File struct {
	// Executed are the lines coverage.py lists as executed, without line
	// 0 and without excluded lines, ascending: the first lines of the
	// statements that ran, and docstring lines that coverage.py lists as
	// executed although it counts them as no statement (see the package
	// documentation).
	Executed []int
	// Missing are the statements that did not run, ascending. No line is
	// both executed and missing.
	Missing []int
	// Excluded are the lines coverage.py excluded from measurement,
	// ascending; a line may be executed and excluded.
	Excluded []int
	// Contexts maps each line of Executed to the names of the contexts
	// that ran it, sorted and distinct; "" is the context of code run
	// outside any test. Every line of Executed has at least one; no other
	// line has any. The report's own contexts, which name every line the
	// tracer saw (continuation lines of multi-line statements too), are
	// attributed to the statement holding the line.
	Contexts map[int][]string
	// Statements and Covered are the summary's num_statements and
	// covered_lines: coverage.py's own counts. Covered is at most
	// len(Executed); it is smaller by the lines of Executed that are no
	// statements.
	Statements int
	Covered    int
}

// Parse reads a JSON report, as `coverage json --show-contexts` writes it,
// strictly: the report is written by a process that ran the tested code,
// so it is untrusted input, and a gate must not turn a truncated or forged
// report into a number.
//
// The report is one JSON object with exactly the members "meta", "files"
// and "totals"; the members that depend on coverage.py's version are
// optional, all others required:
//
//   - "meta" has a string "version", booleans "branch_coverage" (which must
//     be false: statement coverage) and "show_contexts" (which must be
//     true), a string "timestamp" (optional), and from coverage.py 7.4.1
//     an integer "format", 2, or 3 from 7.6 (optional; other formats are
//     refused: their changes are unknown).
//   - Each member of "files" maps a path to an object with
//     "executed_lines", "missing_lines", "excluded_lines" (arrays of line
//     numbers), "contexts" (an object mapping line numbers, as decimal
//     strings, to arrays of context names) and "summary"; with format 3 it
//     may also hold "functions" and "classes", objects that repeat the
//     file's data per region and are not read (beyond being JSON objects).
//     Branch data ("executed_branches", "missing_branches") is refused.
//   - "summary" and "totals" hold the integers "covered_lines",
//     "num_statements", "missing_lines" and "excluded_lines" and the number
//     "percent_covered"; optionally the string "percent_covered_display"
//     (coverage.py 6.0), the number "percent_statements_covered" and the
//     string "percent_statements_covered_display" (7.12). The percentages
//     are not checked.
//
// Any other member, a duplicate member, or null where a value is required,
// is an error.
//
// The data must agree with itself:
//
//   - line numbers are integers from 1 to MaxLine, in each list ascending
//     and distinct; executed_lines may hold line 0, which coverage.py
//     records for a module without statements, and which is dropped;
//   - no line is both executed and missing, or missing and excluded;
//   - a summary counts its file's missing and excluded lines, its
//     statements are its covered and missing lines, and it covers no more
//     lines than the file has executed lines not excluded; the totals are
//     the sums of the summaries;
//   - every contexts list holds distinct names without control characters;
//     a line of the tracer's that lies in a missing statement is an error;
//     every executed line not excluded has a context.
//
// Paths are cleaned ("./a//b.py" is "a/b.py"); a path that is empty, not
// valid UTF-8 (or holding U+FFFD, which stands for bytes that were not),
// holding a control character or a backslash, with a ".." element, or
// absolute and not below Limits.Root is refused, as are two paths that
// clean to the same one.
//
// The report is at most MaxBytes long, with at most MaxFiles files,
// MaxLines line entries, MaxContexts distinct context names of at most
// MaxContextBytes each, and MaxContextRefs contexts list entries.
//
// Errors are one line and name where in the report the problem is.
func Parse(r io.Reader, limits Limits) (*Report, error) {
	lim, err := limits.withDefaults()
	if err != nil {
		return nil, err
	}
	lr := &io.LimitedReader{R: r, N: lim.MaxBytes + 1}
	p := &parser{
		dec:   json.NewDecoder(lr),
		lim:   lim,
		names: map[string]string{},
		rep:   &Report{Files: map[string]*File{}},
	}
	err = p.report()
	if err == nil {
		// Only white space may follow the report.
		if _, terr := p.dec.Token(); terr != io.EOF {
			err = errors.New("data after the report")
			if terr != nil {
				err = fmt.Errorf("after the report: %v", terr)
			}
		}
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("coverage report larger than %d bytes", lim.MaxBytes)
	}
	if err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("coverage report: invalid JSON at byte %d: %s", syn.Offset, oneLine(syn.Error()))
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, errors.New("coverage report: unexpected end of input")
		}
		return nil, fmt.Errorf("coverage report: %s", oneLine(err.Error()))
	}
	return p.rep, nil
}

// parser reads one report from a JSON token stream.
type parser struct {
	dec   *json.Decoder
	lim   Limits
	names map[string]string // interned context names
	lines int               // line list entries so far
	refs  int               // contexts list entries so far
	rep   *Report
	// regions is the first file holding "functions" or "classes", which
	// only format 3 has; meta may come after the files.
	regions string
}

// summary is a file's or the report's summary.
type summary struct {
	covered, statements, missing, excluded int
}

func (p *parser) report() error {
	var totals, sums summary
	err := p.object("the report", func(key string) error {
		switch key {
		case "meta":
			return p.meta()
		case "files":
			var err error
			sums, err = p.files()
			return err
		case "totals":
			var err error
			totals, err = p.summary("totals")
			return err
		}
		return fmt.Errorf("unknown member %s", quote(key))
	}, "meta", "files", "totals")
	if err != nil {
		return err
	}
	switch {
	case p.regions != "" && p.rep.Format < 3:
		return fmt.Errorf("files[%s] has functions or classes, which format %d reports do not have", quote(p.regions), p.rep.Format)
	case totals != sums:
		return fmt.Errorf("totals %+v are not the sums of the files' summaries %+v", totals, sums)
	}
	return nil
}

// meta reads the meta object.
func (p *parser) meta() error {
	var branch, show *bool
	version := ""
	err := p.object("meta", func(key string) error {
		switch key {
		case "version":
			s, err := p.str("meta.version")
			if err != nil {
				return err
			}
			if s == "" || len(s) > 64 || hasControl(s) {
				return fmt.Errorf("meta.version %s is not a version", quote(s))
			}
			version = s
			return nil
		case "timestamp":
			_, err := p.str("meta.timestamp")
			return err
		case "branch_coverage":
			b, err := p.boolean("meta.branch_coverage")
			branch = &b
			return err
		case "show_contexts":
			b, err := p.boolean("meta.show_contexts")
			show = &b
			return err
		case "format":
			n, err := p.integer("meta.format")
			if err != nil {
				return err
			}
			if n != 2 && n != 3 {
				return fmt.Errorf("meta.format %d is not a report format this reader knows (2 or 3)", n)
			}
			p.rep.Format = n
			return nil
		}
		return fmt.Errorf("meta: unknown member %s", quote(key))
	}, "version", "branch_coverage", "show_contexts")
	switch {
	case err != nil:
		return err
	case *branch:
		return errors.New("meta.branch_coverage is true: want a statement coverage report")
	case !*show:
		return errors.New("meta.show_contexts is false: the report was written without --show-contexts")
	}
	p.rep.Version = version
	return nil
}

// files reads the files object and returns the sums of their summaries.
func (p *parser) files() (summary, error) {
	var sums summary
	raw := map[string]string{} // clean path → path in the report
	err := p.object("files", func(key string) error {
		if len(p.rep.Files) == p.lim.MaxFiles {
			return fmt.Errorf("files: more than %d files", p.lim.MaxFiles)
		}
		name, err := cleanPath(key, p.lim.Root)
		if err != nil {
			return fmt.Errorf("files: %v", err)
		}
		if other, ok := raw[name]; ok {
			return fmt.Errorf("files: %s and %s are the same file", quote(other), quote(key))
		}
		raw[name] = key
		f, s, err := p.file(key)
		if err != nil {
			return err
		}
		p.rep.Files[name] = f
		sums.covered += s.covered
		sums.statements += s.statements
		sums.missing += s.missing
		sums.excluded += s.excluded
		return nil
	})
	return sums, err
}

// file reads the object of the file the report names key.
func (p *parser) file(key string) (*File, summary, error) {
	where := "files[" + quote(key) + "]"
	var (
		executed, missing, excluded []int
		rawContexts                 map[int][]string
		sum                         summary
	)
	err := p.object(where, func(member string) error {
		var err error
		switch member {
		case "executed_lines":
			executed, err = p.lineList(where+".executed_lines", 0)
		case "missing_lines":
			missing, err = p.lineList(where+".missing_lines", 1)
		case "excluded_lines":
			excluded, err = p.lineList(where+".excluded_lines", 1)
		case "contexts":
			rawContexts, err = p.contexts(where + ".contexts")
		case "summary":
			sum, err = p.summary(where + ".summary")
		case "functions", "classes":
			// Format 3 repeats the file's data per function and class:
			// skipped, but it must be an object.
			var raw json.RawMessage
			if err := p.dec.Decode(&raw); err != nil {
				return fmt.Errorf("%s.%s: %w", where, member, err)
			}
			if len(raw) == 0 || raw[0] != '{' {
				return fmt.Errorf("%s.%s: want an object", where, member)
			}
			if p.regions == "" {
				p.regions = key
			}
		default:
			return fmt.Errorf("%s: unknown member %s", where, quote(member))
		}
		return err
	}, "executed_lines", "missing_lines", "excluded_lines", "contexts", "summary")
	if err != nil {
		return nil, sum, err
	}
	f := &File{Executed: []int{}, Missing: missing, Excluded: excluded, Statements: sum.statements, Covered: sum.covered}
	// Line 0 is no line of the file; excluded lines are no statements.
	executedRaw := executed
	for _, l := range executed {
		if l > 0 && !contains(excluded, l) {
			f.Executed = append(f.Executed, l)
		}
	}
	if l, ok := firstCommon(executedRaw, missing); ok {
		return nil, sum, fmt.Errorf("%s: line %d is both executed and missing", where, l)
	}
	if l, ok := firstCommon(missing, excluded); ok {
		return nil, sum, fmt.Errorf("%s: line %d is both missing and excluded", where, l)
	}
	switch {
	case sum.missing != len(missing):
		return nil, sum, fmt.Errorf("%s: the summary counts %d missing lines, the list has %d", where, sum.missing, len(missing))
	case sum.excluded != len(excluded):
		return nil, sum, fmt.Errorf("%s: the summary counts %d excluded lines, the list has %d", where, sum.excluded, len(excluded))
	case sum.statements != sum.covered+sum.missing:
		return nil, sum, fmt.Errorf("%s: the summary counts %d statements, not its %d covered and %d missing lines", where, sum.statements, sum.covered, sum.missing)
	case sum.covered > len(f.Executed):
		return nil, sum, fmt.Errorf("%s: the summary counts %d covered lines, more than the %d executed lines not excluded", where, sum.covered, len(f.Executed))
	}
	f.Contexts, err = attribute(where, rawContexts, executedRaw, f.Executed, missing, excluded)
	if err != nil {
		return nil, sum, err
	}
	return f, sum, nil
}

// attribute maps the report's contexts, which are keyed by the lines the
// tracer saw, to the statements holding those lines: the statement of a
// line is the last line at or before it that the report lists as
// executed, missing or excluded (statements list their first lines, and
// no other statement starts within a multi-line statement). Lines of
// excluded statements, line 0, and lines before any listed line (a
// docstring that a report no longer lists as executed) are dropped.
func attribute(where string, raw map[int][]string, executedRaw, executed, missing, excluded []int) (map[int][]string, error) {
	known := slices.Concat(executedRaw, missing, excluded)
	slices.Sort(known)
	known = slices.Compact(known)
	out := make(map[int][]string, len(executed))
	// In line order, so that the first error is the same on every call.
	for _, l := range slices.Sorted(maps.Keys(raw)) {
		names := raw[l]
		i, found := slices.BinarySearch(known, l)
		if !found {
			if i == 0 {
				continue
			}
			i--
		}
		stmt := known[i]
		switch {
		case stmt == 0 || contains(excluded, stmt):
			continue
		case contains(missing, stmt):
			return nil, fmt.Errorf("%s.contexts: line %d ran in statement %d, which the report lists as missing", where, l, stmt)
		}
		out[stmt] = append(out[stmt], names...)
	}
	for _, l := range executed {
		names := out[l]
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: executed line %d has no context", where, l)
		}
		slices.Sort(names)
		out[l] = slices.Clip(slices.Compact(names))
	}
	return out, nil
}

// lineList reads an array of line numbers: ascending and distinct, from
// min to MaxLine.
func (p *parser) lineList(where string, min int) ([]int, error) {
	if err := p.delim(where, '['); err != nil {
		return nil, err
	}
	lines := []int{}
	for p.dec.More() {
		if p.lines == p.lim.MaxLines {
			return nil, fmt.Errorf("%s: more than %d line entries in the report", where, p.lim.MaxLines)
		}
		p.lines++
		var n lineNumber
		if err := p.dec.Decode(&n); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", where, len(lines), err)
		}
		l := int(n)
		switch {
		case l < min || l > p.lim.MaxLine:
			return nil, fmt.Errorf("%s[%d]: line %d out of range [%d, %d]", where, len(lines), l, min, p.lim.MaxLine)
		case len(lines) > 0 && l <= lines[len(lines)-1]:
			return nil, fmt.Errorf("%s[%d]: line %d after line %d: want ascending distinct lines", where, len(lines), l, lines[len(lines)-1])
		}
		lines = append(lines, l)
	}
	if _, err := p.dec.Token(); err != nil { // the closing "]"
		return nil, err
	}
	return lines, nil
}

// contexts reads a contexts object: line → context names.
func (p *parser) contexts(where string) (map[int][]string, error) {
	out := map[int][]string{}
	err := p.object(where, func(key string) error {
		l, err := parseLine(key)
		if err != nil || l > p.lim.MaxLine {
			return fmt.Errorf("%s: key %s is not a line number from 0 to %d", where, quote(key), p.lim.MaxLine)
		}
		at := where + "[" + quote(key) + "]"
		if err := p.delim(at, '['); err != nil {
			return err
		}
		var names []string
		for p.dec.More() {
			if p.refs == p.lim.MaxContextRefs {
				return fmt.Errorf("%s: more than %d context entries in the report", at, p.lim.MaxContextRefs)
			}
			p.refs++
			name, err := p.contextName(fmt.Sprintf("%s[%d]", at, len(names)))
			if err != nil {
				return err
			}
			if slices.Contains(names, name) {
				return fmt.Errorf("%s: context %s twice", at, quote(name))
			}
			names = append(names, name)
		}
		if _, err := p.dec.Token(); err != nil {
			return err
		}
		if len(names) == 0 {
			return fmt.Errorf("%s: no context", at)
		}
		out[l] = names
		return nil
	})
	return out, err
}

// contextName reads one context name and interns it.
func (p *parser) contextName(where string) (string, error) {
	var s *string
	if err := p.dec.Decode(&s); err != nil {
		return "", fmt.Errorf("%s: %w", where, err)
	}
	switch {
	case s == nil:
		return "", fmt.Errorf("%s: null, want a context name", where)
	case len(*s) > p.lim.MaxContextBytes:
		return "", fmt.Errorf("%s: context name longer than %d bytes", where, p.lim.MaxContextBytes)
	case hasControl(*s):
		return "", fmt.Errorf("%s: context name %s holds a control character", where, quote(*s))
	}
	if name, ok := p.names[*s]; ok {
		return name, nil
	}
	if len(p.names) == p.lim.MaxContexts {
		return "", fmt.Errorf("%s: more than %d distinct contexts in the report", where, p.lim.MaxContexts)
	}
	p.names[*s] = *s
	return *s, nil
}

// summary reads a summary object: a file's or the totals.
func (p *parser) summary(where string) (summary, error) {
	var s summary
	err := p.object(where, func(key string) error {
		var dst *int
		switch key {
		case "covered_lines":
			dst = &s.covered
		case "num_statements":
			dst = &s.statements
		case "missing_lines":
			dst = &s.missing
		case "excluded_lines":
			dst = &s.excluded
		case "percent_covered", "percent_statements_covered":
			var f *float64
			if err := p.dec.Decode(&f); err != nil {
				return fmt.Errorf("%s.%s: %w", where, key, err)
			}
			if f == nil {
				return fmt.Errorf("%s.%s: null, want a number", where, key)
			}
			return nil
		case "percent_covered_display", "percent_statements_covered_display":
			_, err := p.str(where + "." + key)
			return err
		default:
			return fmt.Errorf("%s: unknown member %s", where, quote(key))
		}
		n, err := p.integer(where + "." + key)
		if err != nil {
			return err
		}
		if n < 0 || n > p.lim.MaxLines {
			return fmt.Errorf("%s.%s: %d out of range [0, %d]", where, key, n, p.lim.MaxLines)
		}
		*dst = n
		return nil
	}, "covered_lines", "num_statements", "missing_lines", "excluded_lines", "percent_covered")
	return s, err
}

// object reads a JSON object, calling member for each member name; member
// must read the value. Duplicate names are an error, and so is a missing
// required member.
func (p *parser) object(where string, member func(key string) error, required ...string) error {
	if err := p.delim(where, '{'); err != nil {
		return err
	}
	seen := map[string]bool{}
	for p.dec.More() {
		t, err := p.dec.Token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok { // cannot happen: the decoder checks that names are strings
			return fmt.Errorf("%s: member name %v is not a string", where, t)
		}
		if seen[key] {
			return fmt.Errorf("%s: member %s twice", where, quote(key))
		}
		seen[key] = true
		if err := member(key); err != nil {
			return err
		}
	}
	if _, err := p.dec.Token(); err != nil { // the closing "}"
		return err
	}
	for _, r := range required {
		if !seen[r] {
			return fmt.Errorf("%s: no member %s", where, quote(r))
		}
	}
	return nil
}

// delim reads the opening delimiter of an object or array.
func (p *parser) delim(where string, want json.Delim) error {
	t, err := p.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		kind := "an object"
		if want == '[' {
			kind = "an array"
		}
		return fmt.Errorf("%s: %s, want %s", where, describe(t), kind)
	}
	return nil
}

func (p *parser) str(where string) (string, error) {
	var s *string
	if err := p.dec.Decode(&s); err != nil {
		return "", fmt.Errorf("%s: %w", where, err)
	}
	if s == nil {
		return "", fmt.Errorf("%s: null, want a string", where)
	}
	return *s, nil
}

func (p *parser) boolean(where string) (bool, error) {
	var b *bool
	if err := p.dec.Decode(&b); err != nil {
		return false, fmt.Errorf("%s: %w", where, err)
	}
	if b == nil {
		return false, fmt.Errorf("%s: null, want true or false", where)
	}
	return *b, nil
}

func (p *parser) integer(where string) (int, error) {
	var n lineNumber
	if err := p.dec.Decode(&n); err != nil {
		return 0, fmt.Errorf("%s: %w", where, err)
	}
	return int(n), nil
}

// lineNumber is a JSON integer: optionally "-", then decimal digits; no
// fraction, exponent, or null. It is also used for the counts of
// summaries.
type lineNumber int

// UnmarshalJSON implements json.Unmarshaler.
func (n *lineNumber) UnmarshalJSON(b []byte) error {
	s := string(b)
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return fmt.Errorf("%s is not an integer", quote(s))
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("integer %s out of range", quote(s))
	}
	*n = lineNumber(v)
	return nil
}

// parseLine parses a contexts key: a canonical decimal line number.
func parseLine(s string) (int, error) {
	if s == "" || len(s) > 10 || strings.Trim(s, "0123456789") != "" || (len(s) > 1 && s[0] == '0') {
		return 0, errors.New("not a line number")
	}
	return strconv.Atoi(s)
}

// cleanPath checks and cleans a path the report names, making an absolute
// path below root relative to it.
func cleanPath(p, root string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("empty path")
	case !utf8.ValidString(p) || strings.ContainsRune(p, utf8.RuneError):
		return "", fmt.Errorf("path %s is not valid UTF-8", quote(p))
	case hasControl(p):
		return "", fmt.Errorf("path %s holds a control character", quote(p))
	case strings.ContainsRune(p, '\\'):
		return "", fmt.Errorf("path %s holds a backslash", quote(p))
	}
	for elem := range strings.SplitSeq(p, "/") {
		if elem == ".." {
			return "", fmt.Errorf("path %s has a \"..\" element", quote(p))
		}
	}
	clean := path.Clean(p)
	if path.IsAbs(clean) {
		prefix := root + "/"
		if root == "/" {
			prefix = "/"
		}
		rel, ok := strings.CutPrefix(clean, prefix)
		if root == "" || !ok {
			return "", fmt.Errorf("path %s is outside the tree", quote(p))
		}
		clean = rel
	}
	if clean == "." || clean == "" {
		return "", fmt.Errorf("path %s names the tree itself", quote(p))
	}
	return clean, nil
}

// hasControl reports whether s holds a C0 or C1 control character or DEL.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return true
		}
	}
	return false
}

// contains reports whether the ascending list holds v.
func contains(list []int, v int) bool {
	_, ok := slices.BinarySearch(list, v)
	return ok
}

// firstCommon returns the first value two ascending lists share.
func firstCommon(a, b []int) (int, bool) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			return a[i], true
		}
	}
	return 0, false
}

// describe names a JSON token for an error.
func describe(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return "found " + strconv.QuoteRune(rune(v))
	case string:
		return "found string " + quote(v)
	case nil:
		return "found null"
	case bool:
		return "found " + strconv.FormatBool(v)
	}
	return fmt.Sprintf("found %v", t)
}

// quote quotes s for an error message, shortened to a readable length.
func quote(s string) string {
	const max = 64
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// oneLine replaces line breaks, so that an error is one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return string(bytes.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, []byte(s)))
}
