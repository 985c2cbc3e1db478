package cover

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// File is one changed non-test Go source file to measure. A file without
// changed lines (only deletions) is not looked at.
type File struct {
	Path    string // repository-relative, e.g. "calc/median.go"
	Profile string // the name profiles use for it, e.g. "example.com/calc/calc/median.go"
	Src     []byte // its source on the patch side
	Lines   []int  // the changed (added) lines on the patch side, 1-based
}

// Line names a source line.
type Line struct {
	Path string
	Line int
}

func compareLines(a, b Line) int {
	return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
}

// Result is the diff coverage of a set of changed files.
type Result struct {
	Changed   int    // changed executable lines of the measured files
	Covered   int    // those of them covered
	Uncovered []Line // the changed executable lines not covered, sorted
	// Excluded are the changed lines no block claims: blank, comment-only,
	// or holding no statement (braces, signatures, declarations outside
	// function bodies). Sorted.
	Excluded []Line
	// Unmeasured are the changed files the profile does not name although
	// they have a function body: their package was not built with
	// coverage. Their lines are in no other field. Sorted.
	Unmeasured []string
	// Ratio is Covered / Changed. It is nil when nothing was measured:
	// when Changed is 0 (never 1 by vacuity: the caller decides what no
	// changed executable line means) or when Unmeasured is not empty.
	Ratio *float64
}

// Measure computes the diff coverage of files against p, by the rule the
// package documentation gives: a changed line is executable when a block
// of p claims it and covered when every block claiming it ran.
//
// Errors are refusals to measure: a nil profile; a file without a path or
// profile name, not a .go file, a test file, or named twice; a changed line
// outside its source; a source that does not scan, or that holds a line
// directive; an invalid block of the file, or blocks that lie outside its
// source or overlap (the profile is not of this source); a file the
// profile does not name whose source does not parse.
func Measure(files []File, p *Profile) (Result, error) {
	var res Result
	if p == nil {
		return res, errors.New("measure: no profile")
	}
	changed, err := scanFiles(files)
	if err != nil {
		return res, fmt.Errorf("measure: %w", err)
	}
	byName := blocksByFile(p)
	for _, cf := range changed {
		states, measured, err := cf.states(byName[cf.profile])
		if err != nil {
			return Result{}, fmt.Errorf("measure: %w", err)
		}
		if !measured {
			res.Unmeasured = append(res.Unmeasured, cf.path)
			continue
		}
		for i, l := range cf.lines {
			line := Line{Path: cf.path, Line: l}
			switch st := states[i]; {
			case !st.executable:
				res.Excluded = append(res.Excluded, line)
			case st.allRan:
				res.Changed++
				res.Covered++
			default:
				res.Changed++
				res.Uncovered = append(res.Uncovered, line)
			}
		}
	}
	slices.SortFunc(res.Uncovered, compareLines)
	slices.SortFunc(res.Excluded, compareLines)
	slices.Sort(res.Unmeasured)
	if res.Changed > 0 && len(res.Unmeasured) == 0 {
		ratio := float64(res.Covered) / float64(res.Changed)
		res.Ratio = &ratio
	}
	return res, nil
}

// Reach maps each test to the changed executable lines it executes, from
// per-test profiles (test name → the profile of running that test alone).
// A test reaches a line when at least one block claiming the line ran in
// its profile: the weaker rule, because the map selects the tests that can
// kill a mutant of the line (see the package documentation). The lines are
// sorted; tests reaching no changed line are left out.
//
// A profile that does not name a changed file reaches none of its lines:
// go test leaves out of a test binary's profile the packages the binary
// does not link, whose code its tests cannot run. (If the binary ran the
// file's code without coverage, leaving the test out can only let a mutant
// survive, never count a kill that did not happen.) Measure, on the merged
// profile, is what refuses a file no profile names.
//
// The errors are those of Measure, and a nil profile.
func Reach(files []File, perTest map[string]*Profile) (map[string][]Line, error) {
	changed, err := scanFiles(files)
	if err != nil {
		return nil, fmt.Errorf("reach: %w", err)
	}
	tests := make([]string, 0, len(perTest))
	for name := range perTest {
		tests = append(tests, name)
	}
	slices.Sort(tests) // the first error is the same on every call
	reach := map[string][]Line{}
	for _, test := range tests {
		p := perTest[test]
		if p == nil {
			return nil, fmt.Errorf("reach: test %q: no profile", test)
		}
		byName := blocksByFile(p)
		var lines []Line
		for _, cf := range changed {
			blocks := byName[cf.profile]
			if len(blocks) == 0 {
				continue
			}
			states, _, err := cf.states(blocks)
			if err != nil {
				return nil, fmt.Errorf("reach: test %q: %w", test, err)
			}
			for i, l := range cf.lines {
				if states[i].anyRan {
					lines = append(lines, Line{Path: cf.path, Line: l})
				}
			}
		}
		if len(lines) > 0 {
			reach[test] = lines // changed is sorted by path, lines within
		}
	}
	return reach, nil
}

// Reaching inverts a reach map: each line to the sorted names of the tests
// that reach it. Each mutant of a line runs only these tests.
func Reaching(reach map[string][]Line) map[Line][]string {
	out := map[Line][]string{}
	for test, lines := range reach {
		for _, l := range lines {
			out[l] = append(out[l], test)
		}
	}
	for l, tests := range out {
		slices.Sort(tests)
		out[l] = slices.Compact(tests)
	}
	return out
}

// blocksByFile groups the blocks of p by file name.
func blocksByFile(p *Profile) map[string][]Block {
	m := map[string][]Block{}
	for _, b := range p.Blocks {
		m[b.File] = append(m[b.File], b)
	}
	return m
}

// changedFile is a File scanned once, to be checked against profiles.
type changedFile struct {
	path, profile string
	source        *source
	lines         []int                // changed lines, sorted, distinct
	deciding      map[int][]position   // per changed line: where its deciding tokens start
	hasBody       func() (bool, error) // computed once, when first needed
}

// scanFiles checks and scans files, sorted by path.
func scanFiles(files []File) ([]*changedFile, error) {
	paths := map[string]bool{}
	names := map[string]string{}
	var out []*changedFile
	for _, f := range files {
		switch {
		case f.Path == "":
			return nil, errors.New("a changed file has no path")
		case !strings.HasSuffix(f.Path, ".go"):
			return nil, fmt.Errorf("%s is not a Go source file", f.Path)
		case strings.HasSuffix(f.Path, "_test.go"):
			return nil, fmt.Errorf("%s is a test file, which diff coverage excludes", f.Path)
		case f.Profile == "":
			return nil, fmt.Errorf("%s has no profile name", f.Path)
		case paths[f.Path]:
			return nil, fmt.Errorf("%s is listed twice", f.Path)
		}
		if other, ok := names[f.Profile]; ok {
			return nil, fmt.Errorf("%s and %s have the same profile name %s", other, f.Path, f.Profile)
		}
		paths[f.Path] = true
		names[f.Profile] = f.Path
		if len(f.Lines) == 0 {
			continue // nothing added: nothing to measure
		}
		cf, err := scanFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, cf)
	}
	slices.SortFunc(out, func(a, b *changedFile) int { return strings.Compare(a.path, b.path) })
	return out, nil
}

func scanFile(f File) (*changedFile, error) {
	s, err := scanSource(f.Src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	if s.directive > 0 {
		return nil, fmt.Errorf("%s:%d: line directive: cover would record the file's blocks at other positions", f.Path, s.directive)
	}
	lines := slices.Clone(f.Lines)
	slices.Sort(lines)
	lines = slices.Compact(lines)
	if lines[0] < 1 || lines[len(lines)-1] > len(s.lineLen) {
		bad := lines[0]
		if bad >= 1 {
			bad = lines[len(lines)-1]
		}
		return nil, fmt.Errorf("%s: changed line %d is not in the source (%d lines)", f.Path, bad, len(s.lineLen))
	}
	cf := &changedFile{path: f.Path, profile: f.Profile, source: s, lines: lines, deciding: map[int][]position{}}
	isChanged := make(map[int]bool, len(lines))
	for _, l := range lines {
		isChanged[l] = true
	}
	for _, t := range s.tokens {
		if !t.deciding {
			continue
		}
		for l := t.line; l <= t.endLine; l++ {
			if isChanged[l] {
				cf.deciding[l] = append(cf.deciding[l], t.position)
			}
		}
	}
	// A changed case label is decided by its switch's header: a label
	// changed to another value is behaviour whenever the switch runs.
	for l, kws := range caseLabels(f.Src) {
		if isChanged[l] {
			cf.deciding[l] = append(cf.deciding[l], kws...)
		}
	}
	var (
		done    bool
		hasBody bool
		bodyErr error
	)
	cf.hasBody = func() (bool, error) {
		if !done {
			done = true
			hasBody, bodyErr = hasFunctionBody(f.Src)
			if bodyErr != nil {
				bodyErr = fmt.Errorf("%s: %w", f.Path, bodyErr)
			}
		}
		return hasBody, bodyErr
	}
	return cf, nil
}

// lineState is what the blocks of one profile say of a changed line.
type lineState struct {
	executable bool // a block claims it
	allRan     bool // every claiming block ran: covered
	anyRan     bool // a claiming block ran: reached
}

// states checks the blocks a profile has for cf and returns the state of
// each changed line, in the order of cf.lines. measured is false when the
// profile has no block for cf although cf has a function body.
func (cf *changedFile) states(blocks []Block) (states []lineState, measured bool, err error) {
	if len(blocks) == 0 {
		hasBody, err := cf.hasBody()
		if err != nil || hasBody {
			return nil, false, err
		}
		// Without a function body, a file has no block in any profile:
		// none of its lines holds a statement.
		return make([]lineState, len(cf.lines)), true, nil
	}
	// Blocks without statements claim nothing.
	var stmts []Block
	for _, b := range blocks {
		if err := checkBlock(b, ""); err != nil {
			return nil, false, fmt.Errorf("%s: %w", cf.path, err)
		}
		if b.NumStmt > 0 {
			if err := cf.fits(b); err != nil {
				return nil, false, err
			}
			stmts = append(stmts, b)
		}
	}
	slices.SortFunc(stmts, compareSpan)
	for i := 1; i < len(stmts); i++ {
		// cmd/cover never makes blocks of statements overlap; blocks
		// that do are not its blocks for this source.
		prev, b := stmts[i-1], stmts[i]
		if (position{b.StartLine, b.StartCol}).before(position{prev.EndLine, prev.EndCol}) {
			return nil, false, fmt.Errorf("%s: profile blocks %s and %s overlap: the profile is not of this source", cf.path, prev.span(), b.span())
		}
	}
	states = make([]lineState, len(cf.lines))
	for i, l := range cf.lines {
		st := lineState{allRan: true}
		for _, p := range cf.deciding[l] {
			// Blocks do not overlap: the last one starting at or before p
			// is the only one that can hold p.
			j, _ := slices.BinarySearchFunc(stmts, p, func(b Block, p position) int {
				if p.before(position{b.StartLine, b.StartCol}) {
					return 1
				}
				return -1
			})
			if j == 0 {
				continue
			}
			b := stmts[j-1]
			if !p.before(position{b.EndLine, b.EndCol}) {
				continue
			}
			st.executable = true
			st.allRan = st.allRan && b.Count > 0
			st.anyRan = st.anyRan || b.Count > 0
		}
		if !st.executable {
			st = lineState{}
		}
		states[i] = st
	}
	return states, true, nil
}

// fits reports a block that does not lie within cf's source: the profile
// was made from another version of the file.
func (cf *changedFile) fits(b Block) error {
	n := len(cf.source.lineLen)
	if b.EndLine > n {
		return fmt.Errorf("%s: profile block %s ends after the source's last line %d: the profile is not of this source", cf.path, b.span(), n)
	}
	// A span ends at most just after the last byte of its line.
	if b.StartCol > cf.source.lineLen[b.StartLine-1]+1 || b.EndCol > cf.source.lineLen[b.EndLine-1]+1 {
		return fmt.Errorf("%s: profile block %s lies beyond the end of its line: the profile is not of this source", cf.path, b.span())
	}
	return nil
}
