package cover

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of ParseProfile. They bound the memory a profile can make the
// reader hold.
const (
	// MaxProfileBytes bounds the size of a profile.
	MaxProfileBytes = 64 << 20
	// MaxLineBytes bounds one line of a profile, without its line ending.
	// A block line is a file name (an import path and a base name, or an
	// absolute path below PATH_MAX, 4 KiB) and six numbers.
	MaxLineBytes = 8 << 10
	// MaxBlocks bounds the distinct blocks of a profile (repeated blocks
	// are merged as they are read and cost nothing). It is what memory
	// holds; a million blocks is several million statements.
	MaxBlocks = 1 << 20
	// MaxPosition bounds line and column numbers and statement counts.
	// cmd/cover records them as uint32; a Go source file is far below
	// 2 GiB.
	MaxPosition = math.MaxInt32
)

// Coverage modes (go test -covermode).
const (
	ModeSet    = "set"
	ModeCount  = "count"
	ModeAtomic = "atomic"
)

const modePrefix = "mode: "

// Block is one line of a coverage profile: a span of source that cmd/cover
// counts as one basic block. Lines and columns are 1-based; columns count
// bytes; the span ends just before (EndLine, EndCol).
type Block struct {
	File      string // the name the profile uses: import path and base name
	StartLine int
	StartCol  int
	EndLine   int
	EndCol    int
	NumStmt   int // statements in the block
	Count     int // executions: 0 or 1 in set mode
}

// String renders b as a profile line, without the line ending.
func (b Block) String() string {
	return fmt.Sprintf("%s:%d.%d,%d.%d %d %d", b.File, b.StartLine, b.StartCol, b.EndLine, b.EndCol, b.NumStmt, b.Count)
}

// span renders where b is, for errors.
func (b Block) span() string {
	return fmt.Sprintf("%s:%d.%d,%d.%d", quote(b.File), b.StartLine, b.StartCol, b.EndLine, b.EndCol)
}

// Profile is a parsed coverage profile.
type Profile struct {
	Mode string // ModeSet, ModeCount or ModeAtomic
	// Blocks are sorted by file, start and end. ParseProfile and Merge
	// return no two blocks with the same file, start and end.
	Blocks []Block
}

// ParseProfile reads a coverage profile, as `go test -coverprofile` writes
// it, strictly:
//
//   - the first line is "mode: set", "mode: count" or "mode: atomic";
//   - every other line is "file:startLine.startCol,endLine.endCol numStmt
//     count": the file name is non-empty valid UTF-8 without control
//     characters and ends at the last colon before the numbers, the
//     numbers are decimal without sign or leading zeros, lines and columns
//     are positive, the start is not after the end, and in set mode the
//     count is 0 or 1;
//   - lines end with "\n" or "\r\n"; the last line ending may be missing;
//     an empty line anywhere, or a second mode line (concatenated profiles:
//     use Merge), is an error;
//   - the profile is at most MaxProfileBytes, each line at most
//     MaxLineBytes, and it has at most MaxBlocks distinct blocks.
//
// The same block (same file, start and end) may appear several times: go
// test concatenates the profiles of the packages it tests, and with
// -coverpkg each test binary reports every covered package. Its
// occurrences must agree on the statement count and are merged into one
// block whose count is their maximum in set mode and their sum in count
// and atomic mode (saturating at math.MaxInt). The blocks are returned
// sorted by file, start and end.
//
// An error names the profile line that was wrong.
func ParseProfile(r io.Reader) (*Profile, error) {
	lr := &io.LimitedReader{R: r, N: MaxProfileBytes + 1}
	sc := bufio.NewScanner(lr)
	// ScanLines drops the "\r" of a "\r\n"; 2 more bytes leave room for
	// the line ending, so that a line of MaxLineBytes+1 is reported as
	// too long rather than by the scanner.
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes+2)
	tooLarge := func() bool { return lr.N <= 0 }

	p := &Profile{}
	var acc *accumulator
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if tooLarge() {
			return nil, fmt.Errorf("coverage profile larger than %d bytes", MaxProfileBytes)
		}
		if len(line) > MaxLineBytes {
			return nil, fmt.Errorf("coverage profile line %d: longer than %d bytes", n, MaxLineBytes)
		}
		if n == 1 {
			mode, ok := strings.CutPrefix(line, modePrefix)
			if !ok {
				return nil, fmt.Errorf("coverage profile line 1: %s: want \"mode: set|count|atomic\"", quote(line))
			}
			if !validMode(mode) {
				return nil, fmt.Errorf("coverage profile line 1: unknown mode %s", quote(mode))
			}
			p.Mode = mode
			acc = newAccumulator(mode, func(at int) string { return fmt.Sprintf("line %d", at) })
			continue
		}
		b, err := parseBlock(line)
		if err == nil {
			err = checkBlock(b, p.Mode)
		}
		if err == nil {
			err = acc.add(b, n)
		}
		if err != nil {
			return nil, fmt.Errorf("coverage profile line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		if tooLarge() {
			return nil, fmt.Errorf("coverage profile larger than %d bytes", MaxProfileBytes)
		}
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("coverage profile line %d: longer than %d bytes", n+1, MaxLineBytes)
		}
		return nil, fmt.Errorf("reading coverage profile after line %d: %w", n, err)
	}
	if tooLarge() {
		return nil, fmt.Errorf("coverage profile larger than %d bytes", MaxProfileBytes)
	}
	if n == 0 {
		return nil, errors.New("coverage profile is empty: want a first line \"mode: set|count|atomic\"")
	}
	p.Blocks = acc.sorted()
	return p, nil
}

// parseBlock parses "file:startLine.startCol,endLine.endCol numStmt count".
// The fields are found from the right: the numbers hold no space or colon,
// a file name may hold both (an absolute path on Windows, a directory with
// a space in GOPATH mode).
func parseBlock(line string) (Block, error) {
	const want = "want \"file:startLine.startCol,endLine.endCol numStmt count\""
	var b Block
	if strings.HasPrefix(line, modePrefix) {
		return b, errors.New("second mode line (several profiles are combined with Merge, not concatenated)")
	}
	if line == "" {
		return b, errors.New("empty line")
	}
	rest, count, ok := cutLast(line, ' ')
	if !ok {
		return b, fmt.Errorf("%s: %s", quote(line), want)
	}
	rest, numStmt, ok := cutLast(rest, ' ')
	if !ok {
		return b, fmt.Errorf("%s: %s", quote(line), want)
	}
	file, span, ok := cutLast(rest, ':')
	if !ok {
		return b, fmt.Errorf("%s: %s", quote(line), want)
	}
	start, end, ok := strings.Cut(span, ",")
	if !ok {
		return b, fmt.Errorf("span %s: want \"startLine.startCol,endLine.endCol\"", quote(span))
	}
	startLine, startCol, ok1 := strings.Cut(start, ".")
	endLine, endCol, ok2 := strings.Cut(end, ".")
	if !ok1 || !ok2 {
		return b, fmt.Errorf("span %s: want \"startLine.startCol,endLine.endCol\"", quote(span))
	}
	b.File = file
	var err error
	for _, f := range []struct {
		dst  *int
		text string
		what string
		max  int
	}{
		{&b.Count, count, "count", math.MaxInt},
		{&b.NumStmt, numStmt, "statement count", MaxPosition},
		{&b.StartLine, startLine, "start line", MaxPosition},
		{&b.StartCol, startCol, "start column", MaxPosition},
		{&b.EndLine, endLine, "end line", MaxPosition},
		{&b.EndCol, endCol, "end column", MaxPosition},
	} {
		if *f.dst, err = parseNumber(f.text, f.what, f.max); err != nil {
			return b, err
		}
	}
	return b, nil
}

// cutLast slices s around the last sep.
func cutLast(s string, sep byte) (before, after string, found bool) {
	i := strings.LastIndexByte(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// parseNumber parses a canonical non-negative decimal no larger than max.
func parseNumber(s, what string, max int) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("missing %s", what)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%s %s is not a decimal number", what, quote(s))
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("%s %s has a leading zero", what, quote(s))
	}
	v, err := strconv.Atoi(s)
	if err != nil || v > max {
		return 0, fmt.Errorf("%s %s is larger than %d", what, quote(s), max)
	}
	return v, nil
}

func validMode(mode string) bool {
	return mode == ModeSet || mode == ModeCount || mode == ModeAtomic
}

// checkBlock reports what makes b invalid in a profile of the given mode.
func checkBlock(b Block, mode string) error {
	if b.File == "" {
		return errors.New("empty file name")
	}
	if !utf8.ValidString(b.File) {
		return fmt.Errorf("file name %s is not valid UTF-8", quote(b.File))
	}
	for _, r := range b.File {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("file name %s holds a control character", quote(b.File))
		}
	}
	for _, f := range []struct {
		v    int
		what string
	}{
		{b.StartLine, "start line"}, {b.StartCol, "start column"},
		{b.EndLine, "end line"}, {b.EndCol, "end column"},
	} {
		if f.v < 1 || f.v > MaxPosition {
			return fmt.Errorf("%s %d out of range [1, %d]", f.what, f.v, MaxPosition)
		}
	}
	if b.StartLine > b.EndLine || (b.StartLine == b.EndLine && b.StartCol > b.EndCol) {
		return fmt.Errorf("block %s starts after it ends", b.span())
	}
	if b.NumStmt < 0 || b.NumStmt > MaxPosition {
		return fmt.Errorf("statement count %d out of range [0, %d]", b.NumStmt, MaxPosition)
	}
	if b.Count < 0 {
		return fmt.Errorf("negative count %d", b.Count)
	}
	if mode == ModeSet && b.Count > 1 {
		return fmt.Errorf("count %d in set mode, want 0 or 1", b.Count)
	}
	return nil
}

// span is where a block is; blocks with the same span are merged.
type span struct {
	file                                 string
	startLine, startCol, endLine, endCol int
}

// accumulator merges blocks as they come: max in set mode, saturating sum
// otherwise.
type accumulator struct {
	mode   string
	where  func(at int) string // names where a block came from, for errors
	index  map[span]int
	blocks []Block
	origin []int             // where each block came from first
	names  map[string]string // interned file names
}

func newAccumulator(mode string, where func(at int) string) *accumulator {
	return &accumulator{mode: mode, where: where, index: map[span]int{}, names: map[string]string{}}
}

// add merges b, which came from at, into the blocks.
func (a *accumulator) add(b Block, at int) error {
	k := span{b.File, b.StartLine, b.StartCol, b.EndLine, b.EndCol}
	i, ok := a.index[k]
	if !ok {
		if len(a.blocks) == MaxBlocks {
			return fmt.Errorf("more than %d distinct blocks", MaxBlocks)
		}
		if name, ok := a.names[b.File]; ok {
			b.File = name
		} else {
			a.names[b.File] = b.File
		}
		a.index[k] = len(a.blocks)
		a.blocks = append(a.blocks, b)
		a.origin = append(a.origin, at)
		return nil
	}
	prev := &a.blocks[i]
	if b.NumStmt != prev.NumStmt {
		return fmt.Errorf("block %s has %d statements, %d at %s", b.span(), b.NumStmt, prev.NumStmt, a.where(a.origin[i]))
	}
	switch {
	case a.mode == ModeSet:
		prev.Count = max(prev.Count, b.Count)
	case prev.Count > math.MaxInt-b.Count:
		prev.Count = math.MaxInt
	default:
		prev.Count += b.Count
	}
	return nil
}

// sorted returns the merged blocks sorted by file, start and end.
func (a *accumulator) sorted() []Block {
	slices.SortFunc(a.blocks, compareSpan)
	return a.blocks
}

func compareSpan(a, b Block) int {
	return cmp.Or(
		strings.Compare(a.File, b.File),
		cmp.Compare(a.StartLine, b.StartLine), cmp.Compare(a.StartCol, b.StartCol),
		cmp.Compare(a.EndLine, b.EndLine), cmp.Compare(a.EndCol, b.EndCol),
	)
}

// Merge combines profiles of the same mode, such as those of several test
// binaries, into a new profile. Blocks with the same file, start and end
// are merged as ParseProfile merges them: they must agree on the
// statement count; the count is the maximum in set mode and the sum
// (saturating at math.MaxInt) in count and atomic mode. Profiles of
// different modes, no profile at all, an invalid block, or more than
// MaxBlocks distinct blocks are errors.
func Merge(ps ...*Profile) (*Profile, error) {
	if len(ps) == 0 {
		return nil, errors.New("merge: no profiles")
	}
	var acc *accumulator
	for i, p := range ps {
		if p == nil {
			return nil, fmt.Errorf("merge: profile %d is nil", i)
		}
		if !validMode(p.Mode) {
			return nil, fmt.Errorf("merge: profile %d: unknown mode %s", i, quote(p.Mode))
		}
		if i == 0 {
			acc = newAccumulator(p.Mode, func(at int) string { return fmt.Sprintf("profile %d", at) })
		} else if p.Mode != acc.mode {
			return nil, fmt.Errorf("merge: profile %d has mode %s, profile 0 has mode %s", i, p.Mode, acc.mode)
		}
		for _, b := range p.Blocks {
			err := checkBlock(b, acc.mode)
			if err == nil {
				err = acc.add(b, i)
			}
			if err != nil {
				return nil, fmt.Errorf("merge: profile %d: %w", i, err)
			}
		}
	}
	return &Profile{Mode: acc.mode, Blocks: acc.sorted()}, nil
}

// Write writes p in the format ParseProfile reads, its blocks in their
// order. A profile ParseProfile returned is written so that it parses back
// to an equal profile. An invalid mode or block, or a block line longer
// than MaxLineBytes, is an error, found before anything is written.
func (p *Profile) Write(w io.Writer) error {
	if !validMode(p.Mode) {
		return fmt.Errorf("write coverage profile: unknown mode %s", quote(p.Mode))
	}
	for i, b := range p.Blocks {
		if err := checkBlock(b, p.Mode); err != nil {
			return fmt.Errorf("write coverage profile: block %d: %w", i, err)
		}
		if len(b.String()) > MaxLineBytes {
			return fmt.Errorf("write coverage profile: block %d: line longer than %d bytes", i, MaxLineBytes)
		}
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(modePrefix + p.Mode + "\n")
	for _, b := range p.Blocks {
		bw.WriteString(b.String())
		bw.WriteByte('\n')
	}
	return bw.Flush()
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
