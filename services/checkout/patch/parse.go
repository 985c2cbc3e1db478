package patch

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Line prefixes that open a file section.
const (
	gitHeaderPrefix  = "diff --git "
	oldLabelPrefix   = "--- "
	newLabelPrefix   = "+++ "
	binaryLinePrefix = "Binary files "
	binaryLineSuffix = " differ"
	binaryNameSep    = " and "
	gitBinaryPatch   = "GIT binary patch"
	hunkPrefix       = "@@"
)

// maxNumberDigits bounds the numbers of a hunk header, so that no sum of them
// can overflow an int.
const maxNumberDigits = 9

// Parse parses a unified diff: `git diff` output (any of its extended
// headers, renames, copies, mode changes, binary changes, quoted names, with
// or without a/ b/ prefixes) or plain `diff -u` output (--- and +++ pairs,
// with or without timestamps). It refuses, with a *ParseError, anything it
// cannot read exactly; see the Reason constants.
func Parse(data []byte) (*Patch, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &ParseError{
			Line:   1 + bytes.Count(data[:i], []byte{'\n'}),
			Reason: ErrNUL,
			Detail: fmt.Sprintf("NUL byte at offset %d: a patch is text", i),
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ParseError{Reason: ErrEmpty, Detail: "the input holds no diff"}
	}
	p := &parser{lines: splitLines(string(data))}
	var files []*File
	var starts []int
	for !p.done() {
		start := p.pos
		f, err := p.file(len(files) == 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		starts = append(starts, start)
	}
	if err := checkDistinct(files, starts); err != nil {
		return nil, err
	}
	return &Patch{Files: files}, nil
}

// splitLines splits s at newlines. A last line without a newline is a line.
func splitLines(s string) []string {
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// parser reads lines front to back; it never backtracks past a line it has
// consumed.
type parser struct {
	lines []string
	pos   int // index of the next unread line
}

func (p *parser) done() bool { return p.pos >= len(p.lines) }

// peek returns the next line, "" at the end.
func (p *parser) peek() string {
	if p.done() {
		return ""
	}
	return p.lines[p.pos]
}

// lineAt returns line i, and whether there is one.
func (p *parser) lineAt(i int) (string, bool) {
	if i < 0 || i >= len(p.lines) {
		return "", false
	}
	return p.lines[i], true
}

// errorf builds the error for the line with index i.
func errorf(i int, reason Reason, format string, args ...any) *ParseError {
	return &ParseError{Line: i + 1, Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// startsPlainFile reports whether line i and the next are a --- +++ pair.
func (p *parser) startsPlainFile(i int) bool {
	line, _ := p.lineAt(i)
	next, ok := p.lineAt(i + 1)
	return strings.HasPrefix(line, oldLabelPrefix) && ok && strings.HasPrefix(next, newLabelPrefix)
}

// file parses the file section that starts at the next line.
func (p *parser) file(first bool) (*File, error) {
	line := p.peek()
	switch {
	case strings.HasPrefix(line, gitHeaderPrefix):
		return p.gitFile()
	case strings.HasPrefix(line, oldLabelPrefix):
		return p.plainFile()
	case strings.HasPrefix(line, binaryLinePrefix):
		return p.plainBinaryFile()
	case strings.HasPrefix(line, hunkPrefix):
		return nil, errorf(p.pos, ErrHunkWithoutFile, "hunk %s has no ---/+++ file header before it", clip(line))
	}
	if first && !p.fileAhead() {
		return nil, &ParseError{Reason: ErrNoFile, Detail: fmt.Sprintf("none of the %d lines starts a file section (diff --git, or --- followed by +++)", len(p.lines))}
	}
	if first {
		return nil, errorf(p.pos, ErrGarbage, "%s before the first file header", clip(line))
	}
	return nil, errorf(p.pos, ErrGarbage, "%s between file sections", clip(line))
}

// fileAhead reports whether any line from the next on opens a file section.
func (p *parser) fileAhead() bool {
	for i := p.pos; i < len(p.lines); i++ {
		if strings.HasPrefix(p.lines[i], gitHeaderPrefix) || p.startsPlainFile(i) || strings.HasPrefix(p.lines[i], hunkPrefix) {
			return true
		}
	}
	return false
}

// labels reads a --- +++ pair.
func (p *parser) labels(plain bool) (oldLabel, newLabel label, err error) {
	at := p.pos
	if !p.startsPlainFile(at) {
		if at+1 >= len(p.lines) {
			return label{}, label{}, errorf(at, ErrTruncated, "input ends after the --- line, before its +++ line")
		}
		return label{}, label{}, errorf(at+1, ErrHeader, "the --- line is followed by %s, not by a +++ line", clip(p.lines[at+1]))
	}
	oldLabel, err = parseLabel(p.lines[at][len(oldLabelPrefix):], plain)
	if err != nil {
		return label{}, label{}, errorf(at, ErrHeader, "--- line: %v", err)
	}
	newLabel, err = parseLabel(p.lines[at+1][len(newLabelPrefix):], plain)
	if err != nil {
		return label{}, label{}, errorf(at+1, ErrHeader, "+++ line: %v", err)
	}
	if oldLabel.name == devNull && newLabel.name == devNull {
		return label{}, label{}, errorf(at, ErrConflict, "both --- and +++ are /dev/null")
	}
	p.pos += 2
	return oldLabel, newLabel, nil
}

// plainFile parses a section of plain `diff -u` output: a --- +++ pair and
// its hunks.
func (p *parser) plainFile() (*File, error) {
	at := p.pos
	oldLabel, newLabel, err := p.labels(true)
	if err != nil {
		return nil, err
	}
	hunks, err := p.hunks()
	if err != nil {
		return nil, err
	}
	// GNU diff -N stands in for a missing file with an empty one dated at
	// the epoch, under whatever name it was given. A file that really
	// exists may carry that date, so only an all-added (all-removed) diff
	// is taken for a creation (deletion).
	oldName, newName := oldLabel.name, newLabel.name
	if len(hunks) == 1 && oldLabel.epoch != newLabel.epoch {
		h := hunks[0]
		switch {
		case oldLabel.epoch && h.OldStart == 0 && h.OldLines == 0:
			oldName = devNull
		case newLabel.epoch && h.NewStart == 0 && h.NewLines == 0:
			newName = devNull
		}
	}
	f, err := plainNames(at, oldName, newName)
	if err != nil {
		return nil, err
	}
	f.Hunks = hunks
	if err := checkFile(at, f); err != nil {
		return nil, err
	}
	return f, nil
}

// plainNames turns the two names of a diff without a diff --git line into a
// file. The a/ and b/ prefixes are removed only when both sides have them
// (/dev/null agrees with either). Different names are refused: without git's
// rename lines, nothing says the patch renames rather than patches one of
// two files.
func plainNames(at int, oldRaw, newRaw string) (*File, error) {
	oldNull, newNull := oldRaw == devNull, newRaw == devNull
	if (oldNull || strings.HasPrefix(oldRaw, oldPrefix)) && (newNull || strings.HasPrefix(newRaw, newPrefix)) {
		if !oldNull {
			oldRaw = oldRaw[len(oldPrefix):]
		}
		if !newNull {
			newRaw = newRaw[len(newPrefix):]
		}
	}
	switch {
	case oldNull && newNull:
		return nil, errorf(at, ErrConflict, "both names are /dev/null")
	case oldNull:
		return &File{Op: OpAdded, NewPath: newRaw}, nil
	case newNull:
		return &File{Op: OpDeleted, OldPath: oldRaw}, nil
	case oldRaw != newRaw:
		return nil, errorf(at, ErrConflict, "old name %s and new name %s differ; a rename or copy needs a diff --git header", clip(oldRaw), clip(newRaw))
	}
	return &File{Op: OpModified, OldPath: oldRaw, NewPath: newRaw}, nil
}

// plainBinaryFile parses a lone "Binary files X and Y differ" line, as diff
// writes for binary files.
func (p *parser) plainBinaryFile() (*File, error) {
	at := p.pos
	pairs, err := binaryNamePairs(p.lines[at])
	if err != nil {
		return nil, errorf(at, ErrHeader, "%v", err)
	}
	var found *File
	var firstErr error
	for _, pair := range pairs {
		f, err := plainNames(at, pair[0], pair[1])
		if err == nil {
			f.Binary = true
			err = checkFile(at, f)
		}
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		if found != nil && (found.Op != f.Op || found.OldPath != f.OldPath || found.NewPath != f.NewPath) {
			return nil, errorf(at, ErrHeader, "the names of %s can be split in more than one way", clip(p.lines[at]))
		}
		found = f
	}
	if found == nil {
		return nil, firstErr
	}
	p.pos++
	return found, nil
}

// binaryMiddle returns the X and Y of "Binary files X and Y differ".
func binaryMiddle(line string) (string, error) {
	middle, ok := strings.CutPrefix(line, binaryLinePrefix)
	if ok {
		middle, ok = strings.CutSuffix(middle, binaryLineSuffix)
	}
	if !ok {
		return "", nameError(fmt.Sprintf("%s is not \"Binary files X and Y differ\"", clip(line)))
	}
	return middle, nil
}

// binaryNamePairs reads "Binary files X and Y differ" as pairs of names.
// Names may hold " and ", so the line is split where a split can name one
// file: where X and Y have the same length (one file, a/ and b/), next to a
// /dev/null, or after each of the lengths in firstLens (the spellings of a
// known first name). Trying every " and " instead would take time quadratic
// in the line's length.
func binaryNamePairs(line string, firstLens ...int) ([][2]string, error) {
	middle, err := binaryMiddle(line)
	if err != nil {
		return nil, err
	}
	splits := slices.Concat(firstLens, []int{
		(len(middle) - len(binaryNameSep)) / 2,
		len(devNull),
		len(middle) - len(binaryNameSep) - len(devNull),
	})
	var pairs [][2]string
	for n, i := range splits {
		if i < 0 || slices.Contains(splits[:n], i) || !strings.HasPrefix(middle[min(i, len(middle)):], binaryNameSep) {
			continue
		}
		oldName, err := wholeName(middle[:i])
		if err != nil {
			continue
		}
		newName, err := wholeName(middle[i+len(binaryNameSep):])
		if err != nil {
			continue
		}
		pairs = append(pairs, [2]string{oldName, newName})
	}
	if len(pairs) == 0 {
		return nil, nameError(fmt.Sprintf("no two names of one file in %s", clip(line)))
	}
	return pairs, nil
}

// checkFile checks what every file must satisfy, however it was written:
// safe paths, hunks that fit the operation, and some change.
func checkFile(at int, f *File) error {
	// Only the missing side of an added or deleted file has no path.
	for _, side := range []struct {
		path   string
		exists bool
	}{{f.OldPath, f.Op != OpAdded}, {f.NewPath, f.Op != OpDeleted}} {
		if !side.exists {
			continue
		}
		if reason, detail := checkPath(side.path); reason != "" {
			return errorf(at, reason, "%s", detail)
		}
	}
	switch f.Op {
	case OpAdded:
		for _, h := range f.Hunks {
			if h.OldStart != 0 || h.OldLines != 0 {
				return errorf(at, ErrConflict, "%s is a new file but a hunk has old lines (@@ -%d,%d)", clip(f.NewPath), h.OldStart, h.OldLines)
			}
		}
	case OpDeleted:
		for _, h := range f.Hunks {
			if h.NewStart != 0 || h.NewLines != 0 {
				return errorf(at, ErrConflict, "%s is a deleted file but a hunk has new lines (+%d,%d)", clip(f.OldPath), h.NewStart, h.NewLines)
			}
		}
	case OpModified:
		if !f.Binary && len(f.Hunks) == 0 && f.OldMode == f.NewMode {
			return errorf(at, ErrNoChange, "the section of %s shows no hunk, mode change or binary change", clip(f.NewPath))
		}
	}
	return nil
}

// checkDistinct refuses a patch that changes one path in two file sections:
// the second section's line numbers would be relative to an unknown state.
// A path may be the source of any number of copies, and a deleted path may
// be created again.
func checkDistinct(files []*File, starts []int) error {
	created := make(map[string]int)  // new-side path → index of its file
	consumed := make(map[string]int) // old-side path whose content the patch replaces
	for i, f := range files {
		if f.Op != OpDeleted {
			if j, ok := created[f.NewPath]; ok {
				return errorf(starts[i], ErrConflict, "%s is written by two file sections (lines %d and %d)", clip(f.NewPath), starts[j]+1, starts[i]+1)
			}
			created[f.NewPath] = i
		}
		if f.Op == OpDeleted || f.Op == OpModified || f.Op == OpRenamed {
			if j, ok := consumed[f.OldPath]; ok {
				return errorf(starts[i], ErrConflict, "%s is changed by two file sections (lines %d and %d)", clip(f.OldPath), starts[j]+1, starts[i]+1)
			}
			consumed[f.OldPath] = i
		}
	}
	return nil
}

// hunks parses the hunks after a file's ---/+++ lines; at least one must
// follow.
func (p *parser) hunks() ([]Hunk, error) {
	if !strings.HasPrefix(p.peek(), hunkPrefix) {
		if p.done() {
			return nil, errorf(p.pos-1, ErrTruncated, "input ends after the +++ line, before any hunk")
		}
		return nil, errorf(p.pos, ErrHeader, "%s follows the +++ line where a hunk (@@) must", clip(p.peek()))
	}
	var hunks []Hunk
	shift := 0 // new line number minus old line number after the hunks so far
	ended := false
	for strings.HasPrefix(p.peek(), hunkPrefix) {
		at := p.pos
		if ended {
			return nil, errorf(at, ErrNoNewlineMarker, "hunk after one that reached the end of the file (\\ No newline at end of file)")
		}
		h, reachedEnd, err := p.hunk()
		if err != nil {
			return nil, err
		}
		ended = reachedEnd
		// Where the hunk's lines begin: a side with no lines names the line
		// before them.
		oldFirst, newFirst := h.OldStart, h.NewStart
		if h.OldLines == 0 {
			oldFirst++
		}
		if h.NewLines == 0 {
			newFirst++
		}
		if n := len(hunks); n > 0 {
			prev := hunks[n-1]
			prevOldEnd := prev.OldStart + prev.OldLines // first old line after prev
			if prev.OldLines == 0 {
				prevOldEnd++
			}
			if oldFirst < prevOldEnd {
				return nil, errorf(at, ErrLineNumbers, "hunk starts at old line %d, before the end of the previous hunk (old line %d)", oldFirst, prevOldEnd)
			}
		}
		if newFirst-oldFirst != shift {
			return nil, errorf(at, ErrLineNumbers, "hunk puts old line %d at new line %d, but the hunks before it move lines by %+d", oldFirst, newFirst, shift)
		}
		shift += h.NewLines - h.OldLines
		hunks = append(hunks, h)
	}
	return hunks, nil
}

// hunk parses one hunk: its header and exactly as many lines as the header
// counts. reachedEnd is set when a side ended without a newline, so no hunk
// may follow.
func (p *parser) hunk() (h Hunk, reachedEnd bool, err error) {
	at := p.pos
	header := p.lines[at]
	if h, err = parseHunkHeader(header); err != nil {
		return Hunk{}, false, errorf(at, ErrHunkHeader, "%s: %v", clip(header), err)
	}
	p.pos++
	oldLeft, newLeft := h.OldLines, h.NewLines
	oldNo, newNo := h.OldStart, h.NewStart
	var oldEnded, newEnded bool // a side's last line carried a no-newline marker
	for oldLeft > 0 || newLeft > 0 {
		if p.done() {
			return Hunk{}, false, errorf(p.pos-1, ErrTruncated, "input ends inside the hunk at line %d: %d old and %d new lines missing", at+1, oldLeft, newLeft)
		}
		line := p.lines[p.pos]
		if strings.HasPrefix(line, `\`) {
			if err := markNoNewline(p.pos, &h, &oldEnded, &newEnded); err != nil {
				return Hunk{}, false, err
			}
			p.pos++
			continue
		}
		var l Line
		switch {
		case line == "":
			// An empty line stands for an empty context line: editors
			// strip the lone space, and git apply reads it so too.
			l = Line{Kind: LineContext}
		case line[0] == ' ':
			l = Line{Kind: LineContext, Text: line[1:]}
		case line[0] == '+':
			l = Line{Kind: LineAdded, Text: line[1:]}
		case line[0] == '-':
			l = Line{Kind: LineRemoved, Text: line[1:]}
		default:
			return Hunk{}, false, errorf(p.pos, ErrCountMismatch, "%s ends the hunk at line %d early: its header counts %d more old and %d more new lines", clip(line), at+1, oldLeft, newLeft)
		}
		takesOld := l.Kind != LineAdded
		takesNew := l.Kind != LineRemoved
		if (takesOld && oldLeft == 0) || (takesNew && newLeft == 0) {
			return Hunk{}, false, errorf(p.pos, ErrCountMismatch, "the hunk at line %d has more %s lines than its header counts (%d old, %d new)", at+1, l.Kind, h.OldLines, h.NewLines)
		}
		if (takesOld && oldEnded) || (takesNew && newEnded) {
			return Hunk{}, false, errorf(p.pos, ErrNoNewlineMarker, "a line follows the last line of its side, marked \\ No newline at end of file")
		}
		if takesOld {
			l.OldLine = oldNo
			oldNo++
			oldLeft--
		}
		if takesNew {
			l.NewLine = newNo
			newNo++
			newLeft--
		}
		h.Lines = append(h.Lines, l)
		p.pos++
	}
	if strings.HasPrefix(p.peek(), `\`) {
		if err := markNoNewline(p.pos, &h, &oldEnded, &newEnded); err != nil {
			return Hunk{}, false, err
		}
		p.pos++
	}
	if next := p.peek(); strings.HasPrefix(next, `\`) {
		return Hunk{}, false, errorf(p.pos, ErrNoNewlineMarker, "no-newline marker that follows no hunk line")
	}
	if next := p.peek(); !p.done() && isHunkLine(next) && !p.startsPlainFile(p.pos) {
		return Hunk{}, false, errorf(p.pos, ErrCountMismatch, "%s follows the hunk at line %d, which its header ends after %d old and %d new lines", clip(next), at+1, h.OldLines, h.NewLines)
	}
	return h, oldEnded || newEnded, nil
}

// isHunkLine reports lines that can only be part of a hunk's body.
func isHunkLine(line string) bool {
	return line == "" || line[0] == ' ' || line[0] == '+' || line[0] == '-'
}

// markNoNewline applies a "\ No newline at end of file" line (any text after
// the backslash: GNU diff translates it) to the hunk line before it.
func markNoNewline(i int, h *Hunk, oldEnded, newEnded *bool) error {
	if len(h.Lines) == 0 {
		return errorf(i, ErrNoNewlineMarker, "no-newline marker before any line of the hunk")
	}
	last := &h.Lines[len(h.Lines)-1]
	if last.NoNewlineAtEOF {
		return errorf(i, ErrNoNewlineMarker, "second no-newline marker for one line")
	}
	last.NoNewlineAtEOF = true
	if last.Kind != LineAdded {
		*oldEnded = true
	}
	if last.Kind != LineRemoved {
		*newEnded = true
	}
	return nil
}

// parseHunkHeader parses "@@ -l[,s] +l[,s] @@[ section]"; an omitted count
// is 1.
func parseHunkHeader(line string) (Hunk, error) {
	var h Hunk
	rest, ok := strings.CutPrefix(line, "@@ -")
	if !ok {
		return h, nameError(`does not start with "@@ -"`)
	}
	var err error
	if h.OldStart, h.OldLines, rest, err = parseRange(rest); err != nil {
		return h, fmt.Errorf("old range: %w", err)
	}
	if rest, ok = strings.CutPrefix(rest, " +"); !ok {
		return h, nameError(`no " +" after the old range`)
	}
	if h.NewStart, h.NewLines, rest, err = parseRange(rest); err != nil {
		return h, fmt.Errorf("new range: %w", err)
	}
	if rest, ok = strings.CutPrefix(rest, " @@"); !ok {
		return h, nameError(`no " @@" after the new range`)
	}
	if rest != "" {
		if rest == "\r" {
			return h, nameError(`carriage return after the closing @@ (CRLF line endings?)`)
		}
		if rest[0] != ' ' {
			return h, nameError(`no space after the closing @@`)
		}
		h.Section = rest[1:]
	}
	return h, nil
}

// parseRange parses "start[,count]" at the front of s.
func parseRange(s string) (start, count int, rest string, err error) {
	if start, rest, err = parseNumber(s); err != nil {
		return 0, 0, "", err
	}
	count = 1
	if after, ok := strings.CutPrefix(rest, ","); ok {
		if count, rest, err = parseNumber(after); err != nil {
			return 0, 0, "", err
		}
	}
	if count > 0 && start == 0 {
		return 0, 0, "", nameError(fmt.Sprintf("starts at line 0 but counts %d lines", count))
	}
	return start, count, rest, nil
}

// parseNumber parses the decimal digits at the front of s.
func parseNumber(s string) (n int, rest string, err error) {
	end := 0
	for end < len(s) && '0' <= s[end] && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0, "", nameError("expected a number")
	}
	if end > maxNumberDigits {
		return 0, "", nameError(fmt.Sprintf("number with more than %d digits", maxNumberDigits))
	}
	n, err = strconv.Atoi(s[:end])
	if err != nil {
		return 0, "", err
	}
	return n, s[end:], nil
}
