package gotest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Default limits of Read.
const (
	// DefaultMaxLineBytes bounds a line that may be an event. test2json
	// splits output at 1 KiB and test names are short, so a real event
	// line is a few KiB at most; anything beyond this is kept as plain
	// output and never parsed.
	DefaultMaxLineBytes = 1 << 20
	// DefaultMaxOutputBytes bounds the output kept per test, per package,
	// per build and for plain lines. Bytes beyond it are counted, not kept.
	DefaultMaxOutputBytes = 64 << 10
)

// readBufferBytes is the bufio buffer size: lines longer than this are
// assembled from several reads.
const readBufferBytes = 64 << 10

// Limits bound the memory a stream can make the reader hold. A zero field
// means its default.
type Limits struct {
	MaxLineBytes   int
	MaxOutputBytes int
}

func (l Limits) withDefaults() Limits {
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultMaxLineBytes
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = DefaultMaxOutputBytes
	}
	return l
}

// Read reads a `go test -json` stream (stdout, optionally with stderr mixed
// in) with the default limits. See ReadLimited.
func Read(r io.Reader) (*Report, error) {
	return ReadLimited(r, Limits{})
}

// ReadLimited reads a test2json stream to its end. Lines that are not
// exactly one JSON event — plain text, broken JSON, JSON that is not an
// event, lines longer than lim.MaxLineBytes, invalid UTF-8 — are kept as
// plain output; they never decide anything. No content makes it fail: the
// only error is the reader's, and then the report of what was read so far
// is returned with it, so a caller can show it but must not judge by it.
func ReadLimited(r io.Reader, lim Limits) (*Report, error) {
	st := newReadState(lim.withDefaults())
	br := bufio.NewReaderSize(r, readBufferBytes)
	var err error
	for {
		var line []byte
		var unbuffered int
		var ok bool
		line, unbuffered, ok, err = st.readLine(br)
		if ok {
			st.handleLine(line, unbuffered)
		}
		if err != nil {
			break
		}
	}
	report := st.report()
	if errors.Is(err, io.EOF) {
		return report, nil
	}
	return report, fmt.Errorf("gotest: reading test2json stream after line %d: %w", report.Lines, err)
}

// readState is the reader's work in progress; report turns it into a
// Report.
type readState struct {
	lim      Limits
	lineBuf  []byte
	packages map[string]*packageState
	builds   map[string]*buildState
	plain    boundedText
	counts   struct{ lines, events, plainLines, overlongLines, unknownActions int }
}

type packageState struct {
	pkg    Package
	output boundedText
	tests  map[string]*testState
	// midLine is set while the package's output has an unfinished line, so
	// markers are only recognized at the start of a line.
	midLine bool
}

type testState struct {
	test   Test
	output boundedText
}

type buildState struct {
	build  Build
	output boundedText
}

func newReadState(lim Limits) *readState {
	return &readState{
		lim:      lim,
		packages: make(map[string]*packageState),
		builds:   make(map[string]*buildState),
	}
}

// readLine returns the next line without its line ending, at most
// MaxLineBytes+1 bytes of it (one more than the limit, so that an overlong
// line shows), and how many bytes of the line were not buffered. ok is false
// when there was no line (end of input).
func (st *readState) readLine(br *bufio.Reader) (line []byte, unbuffered int, ok bool, err error) {
	st.lineBuf = st.lineBuf[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		ok = ok || len(chunk) > 0
		room := max(st.lim.MaxLineBytes+1-len(st.lineBuf), 0)
		kept := min(room, len(chunk))
		st.lineBuf = append(st.lineBuf, chunk[:kept]...)
		unbuffered += len(chunk) - kept
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if kept < len(chunk) && chunk[len(chunk)-1] == '\n' {
			unbuffered-- // the line ending is not part of the line
		}
		line := st.lineBuf
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
		}
		return line, unbuffered, ok, err
	}
}

// handleLine handles one line; unbuffered counts the bytes of an overlong
// line that were never read into line.
func (st *readState) handleLine(line []byte, unbuffered int) {
	st.counts.lines++
	if len(line) > st.lim.MaxLineBytes {
		st.counts.overlongLines++
		st.keepPlain(line, unbuffered)
		return
	}
	e, err := parseEvent(line)
	if err != nil {
		st.keepPlain(line, 0)
		return
	}
	st.counts.events++
	st.handleEvent(e)
}

func (st *readState) keepPlain(line []byte, unbuffered int) {
	st.counts.plainLines++
	st.plain.append(line, st.lim.MaxOutputBytes)
	st.plain.append([]byte{'\n'}, st.lim.MaxOutputBytes)
	st.plain.dropped += int64(unbuffered)
}

func (st *readState) handleEvent(e event) {
	switch e.Action {
	case ActionBuildOutput, ActionBuildFail:
		st.handleBuildEvent(e)
		return
	}
	ps := st.packages[e.Package]
	if ps == nil {
		ps = &packageState{pkg: Package{ImportPath: e.Package}, tests: make(map[string]*testState)}
		st.packages[e.Package] = ps
	}
	if len(ps.pkg.Finals) > 0 {
		// cmd/go writes the package's final event last.
		ps.pkg.EventsAfterFinal++
	}
	if e.Action == ActionOutput {
		ps.scanMarkers(e.Output, e.Test == "")
	}
	if e.Test == "" {
		st.handlePackageEvent(ps, e)
		return
	}
	ts := ps.tests[e.Test]
	if ts == nil {
		ts = &testState{test: Test{Name: e.Test}}
		ps.tests[e.Test] = ts
	}
	st.handleTestEvent(ts, e)
}

func (st *readState) handleBuildEvent(e event) {
	path := e.ImportPath
	if path == "" {
		path = e.Package
	}
	bs := st.builds[path]
	if bs == nil {
		bs = &buildState{build: Build{ImportPath: path}}
		st.builds[path] = bs
	}
	if e.Action == ActionBuildFail {
		bs.build.Failed = true
		return
	}
	bs.output.append([]byte(e.Output), st.lim.MaxOutputBytes)
}

func (st *readState) handlePackageEvent(ps *packageState, e event) {
	switch e.Action {
	case ActionStart:
		ps.pkg.Starts++
	case ActionOutput:
		ps.output.append([]byte(e.Output), st.lim.MaxOutputBytes)
	case ActionPass, ActionFail, ActionSkip:
		if len(ps.pkg.Finals) == 0 {
			ps.pkg.Elapsed, ps.pkg.ElapsedReported = elapsed(e)
		}
		ps.pkg.Finals = append(ps.pkg.Finals, e.Action)
		if ps.pkg.FailedBuild == "" {
			ps.pkg.FailedBuild = e.FailedBuild
		}
	case ActionRun, ActionPause, ActionCont, ActionBench, ActionAttr, ActionArtifacts:
		// A framing line with an empty test name: attributable to no
		// test, so it decides nothing.
	default:
		st.counts.unknownActions++
	}
}

func (st *readState) handleTestEvent(ts *testState, e event) {
	t := &ts.test
	if len(t.Finals) > 0 {
		t.EventsAfterFinal++
	}
	switch e.Action {
	case ActionRun:
		t.Runs++
	case ActionOutput:
		ts.output.append([]byte(e.Output), st.lim.MaxOutputBytes)
	case ActionPass, ActionFail, ActionSkip, ActionBench:
		if len(t.Finals) == 0 {
			t.Elapsed, t.ElapsedReported = elapsed(e)
		}
		if t.Runs == 0 {
			t.FinalWithoutRun = true
		}
		t.Finals = append(t.Finals, e.Action)
	case ActionPause, ActionCont, ActionAttr, ActionArtifacts, ActionStart:
		// Progress, not results.
	default:
		st.counts.unknownActions++
	}
}

// Line prefixes that carry evidence, written by the testing package or by
// cmd/go. A test can print them too, which can only make a run look worse
// (not run, timed out, build failed), never pass.
const (
	noTestsToRunWarning = "testing: warning: no tests to run"
	noTestsToRunSuffix  = "[no tests to run]"
	okLinePrefix        = "ok  \t"
	timeoutPanicPrefix  = "panic: test timed out after "
	failLinePrefix      = "FAIL\t"
	buildFailedSuffix   = " [build failed]"
	setupFailedSuffix   = " [setup failed]"
)

// scanMarkers looks for evidence lines in one output event of the package.
// test2json splits lines longer than 1 KiB into several events, so only
// output that starts a line is looked at.
func (ps *packageState) scanMarkers(out string, packageLevel bool) {
	atLineStart := !ps.midLine
	ps.midLine = out != "" && !strings.HasSuffix(out, "\n")
	if !atLineStart {
		return
	}
	line := strings.TrimRight(out, "\r\n")
	switch {
	case strings.HasPrefix(line, noTestsToRunWarning):
		ps.pkg.NoTestsToRun = true
	case strings.HasPrefix(line, timeoutPanicPrefix):
		ps.pkg.TimedOut = true
	case packageLevel && strings.HasPrefix(line, okLinePrefix) && strings.HasSuffix(line, noTestsToRunSuffix):
		ps.pkg.NoTestsToRun = true
	case packageLevel && strings.HasPrefix(line, failLinePrefix) &&
		(strings.HasSuffix(line, buildFailedSuffix) || strings.HasSuffix(line, setupFailedSuffix)):
		ps.pkg.BuildFailedText = true
	}
}

// elapsed converts an event's Elapsed seconds; a negative or unrepresentable
// value is reported as absent rather than as a number nobody measured.
func elapsed(e event) (time.Duration, bool) {
	if !e.HasElapsed || e.Elapsed < 0 || e.Elapsed > math.MaxInt64/float64(time.Second) {
		return 0, false
	}
	return time.Duration(e.Elapsed * float64(time.Second)), true
}

// report freezes the state into a Report.
func (st *readState) report() *Report {
	r := &Report{
		Packages:       make(map[string]*Package, len(st.packages)),
		Builds:         make(map[string]*Build, len(st.builds)),
		PlainOutput:    st.plain.output(),
		Lines:          st.counts.lines,
		Events:         st.counts.events,
		PlainLines:     st.counts.plainLines,
		OverlongLines:  st.counts.overlongLines,
		UnknownActions: st.counts.unknownActions,
	}
	for path, bs := range st.builds {
		b := bs.build
		b.Output = bs.output.output()
		r.Builds[path] = &b
	}
	for path, ps := range st.packages {
		p := ps.pkg
		p.Output = ps.output.output()
		p.Tests = make(map[string]*Test, len(ps.tests))
		for name, ts := range ps.tests {
			t := ts.test
			t.Output = ts.output.output()
			p.Tests[name] = &t
			p.Counts.add(&t)
		}
		r.Packages[path] = &p
	}
	return r
}

func (c *Counts) add(t *Test) {
	c.Tests++
	if t.hasRunFinal() {
		c.Run++
	}
	switch t.Result() {
	case ResultNone:
		c.Unfinished++
	case ResultPass:
		c.Passed++
	case ResultFail:
		c.Failed++
	case ResultSkip:
		c.Skipped++
	case ResultBench:
		c.Benchmarks++
	default:
		c.Inconsistent++
	}
}

// hasRunFinal reports whether the test has a pass or fail final event.
func (t *Test) hasRunFinal() bool {
	for _, action := range t.Finals {
		if action == ActionPass || action == ActionFail {
			return true
		}
	}
	return false
}

// boundedText accumulates output up to a limit and counts the rest.
type boundedText struct {
	text    []byte
	dropped int64
}

// append keeps what fits of b within limit bytes in total and counts the
// rest as dropped.
func (bt *boundedText) append(b []byte, limit int) {
	room := limit - len(bt.text)
	if bt.dropped > 0 || room <= 0 {
		// Once something was dropped, nothing later is kept: the text
		// stays a prefix of the output, never a collage.
		bt.dropped += int64(len(b))
		return
	}
	if len(b) <= room {
		bt.text = append(bt.text, b...)
		return
	}
	cut := room
	// Do not split a UTF-8 sequence (it would become U+FFFD), but do not
	// back off further than a sequence is long either: invalid bytes are
	// not a sequence.
	for back := 0; back < utf8.UTFMax-1 && cut > 0 && !utf8.RuneStart(b[cut]); back++ {
		cut--
	}
	if !utf8.RuneStart(b[cut]) {
		cut = room
	}
	bt.text = append(bt.text, b[:cut]...)
	bt.dropped += int64(len(b) - cut)
}

func (bt *boundedText) output() Output {
	return Output{Text: strings.ToValidUTF8(string(bt.text), "\uFFFD"), DroppedBytes: bt.dropped}
}
