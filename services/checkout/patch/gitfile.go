package patch

import (
	"fmt"
	"slices"
	"strings"
)

// Keywords of git's extended header lines (each is followed by a space and
// a value).
const (
	kwOldMode       = "old mode"
	kwNewMode       = "new mode"
	kwDeletedMode   = "deleted file mode"
	kwNewFileMode   = "new file mode"
	kwRenameFrom    = "rename from"
	kwRenameTo      = "rename to"
	kwCopyFrom      = "copy from"
	kwCopyTo        = "copy to"
	kwSimilarity    = "similarity index"
	kwDissimilarity = "dissimilarity index"
	kwIndex         = "index"
)

// Bounds of an object name on an index line.
const (
	minHashLen = 4  // git's shortest abbreviation (core.abbrev=4)
	maxHashLen = 64 // a full SHA-256 object name
)

// The parts of a GIT binary patch.
const (
	binaryLiteral  = "literal "
	binaryDelta    = "delta "
	base85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
)

// extended is what a diff --git section's extended header lines say.
type extended struct {
	seen                                   map[string]bool
	oldMode, newMode                       string
	deletedFileMode, newFileMode           string
	renameFrom, renameTo, copyFrom, copyTo string
	oldHash, newHash, indexMode            string
}

// headerKeyword splits an extended header line into keyword and value.
func headerKeyword(line string) (keyword, value string, ok bool) {
	for _, kw := range [...]string{
		kwOldMode, kwNewMode, kwDeletedMode, kwNewFileMode,
		kwRenameFrom, kwRenameTo, kwCopyFrom, kwCopyTo,
		kwSimilarity, kwDissimilarity, kwIndex,
	} {
		if v, found := strings.CutPrefix(line, kw+" "); found {
			return kw, v, true
		}
	}
	return "", "", false
}

// extendedHeaders reads the extended header lines after a diff --git line.
func (p *parser) extendedHeaders() (*extended, error) {
	x := &extended{seen: make(map[string]bool)}
	for !p.done() {
		at := p.pos
		kw, value, ok := headerKeyword(p.lines[at])
		if !ok {
			break
		}
		if x.seen[kw] {
			return nil, errorf(at, ErrConflict, "second %q line in one file section", kw)
		}
		x.seen[kw] = true
		var err error
		switch kw {
		case kwOldMode:
			x.oldMode, err = parseMode(value)
		case kwNewMode:
			x.newMode, err = parseMode(value)
		case kwDeletedMode:
			x.deletedFileMode, err = parseMode(value)
		case kwNewFileMode:
			x.newFileMode, err = parseMode(value)
		case kwRenameFrom:
			x.renameFrom, err = wholeName(value)
		case kwRenameTo:
			x.renameTo, err = wholeName(value)
		case kwCopyFrom:
			x.copyFrom, err = wholeName(value)
		case kwCopyTo:
			x.copyTo, err = wholeName(value)
		case kwSimilarity, kwDissimilarity:
			err = checkPercent(value)
		case kwIndex:
			x.oldHash, x.newHash, x.indexMode, err = parseIndex(value)
		}
		if err != nil {
			return nil, errorf(at, ErrHeader, "%s line: %v", kw, err)
		}
		p.pos++
	}
	return x, nil
}

// parseMode accepts git's six octal digits.
func parseMode(s string) (string, error) {
	if len(s) != 6 {
		return "", nameError(fmt.Sprintf("mode %s is not six octal digits", clip(s)))
	}
	for i := 0; i < len(s); i++ {
		if !isOctal(s[i]) {
			return "", nameError(fmt.Sprintf("mode %s is not six octal digits", clip(s)))
		}
	}
	return s, nil
}

// checkPercent accepts "N%" with 0 <= N <= 100.
func checkPercent(s string) error {
	digits, ok := strings.CutSuffix(s, "%")
	n, rest, err := parseNumber(digits)
	if !ok || err != nil || rest != "" || n > 100 {
		return nameError(fmt.Sprintf("%s is not a percentage", clip(s)))
	}
	return nil
}

// parseIndex parses "old..new[ mode]".
func parseIndex(s string) (oldHash, newHash, mode string, err error) {
	hashes, mode, hasMode := strings.Cut(s, " ")
	oldHash, newHash, ok := strings.Cut(hashes, "..")
	if !ok || !isHash(oldHash) || !isHash(newHash) {
		return "", "", "", nameError(fmt.Sprintf("%s is not two object names joined by \"..\"", clip(hashes)))
	}
	if hasMode {
		if mode, err = parseMode(mode); err != nil {
			return "", "", "", err
		}
	}
	return oldHash, newHash, mode, nil
}

// isHash reports a lower-case hexadecimal object name, abbreviated or full.
func isHash(s string) bool {
	if len(s) < minHashLen || len(s) > maxHashLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isZeroHash(s string) bool { return strings.Trim(s, "0") == "" }

// gitBody is what follows a diff --git section's extended headers.
type gitBody struct {
	hasLabels          bool
	oldLabel, newLabel string
	labelsAt           int
	binaryLine         string // a "Binary files … differ" line, "" if none
	binaryAt           int
	binaryPatch        bool
	hunks              []Hunk
}

// gitFile parses a section that starts with a diff --git line.
func (p *parser) gitFile() (*File, error) {
	at := p.pos
	names := p.lines[at][len(gitHeaderPrefix):]
	split, err := splitGitNames(names)
	if err != nil {
		return nil, errorf(at, ErrHeader, "diff --git line: %v", err)
	}
	p.pos++
	x, err := p.extendedHeaders()
	if err != nil {
		return nil, err
	}
	var b gitBody
	switch line := p.peek(); {
	case p.done():
	case strings.HasPrefix(line, oldLabelPrefix):
		b.labelsAt = p.pos
		oldLabel, newLabel, err := p.labels(false)
		if err != nil {
			return nil, err
		}
		b.hasLabels, b.oldLabel, b.newLabel = true, oldLabel.name, newLabel.name
		if b.hunks, err = p.hunks(); err != nil {
			return nil, err
		}
	case strings.HasPrefix(line, binaryLinePrefix):
		b.binaryLine, b.binaryAt = line, p.pos
		p.pos++
	case line == gitBinaryPatch:
		if err := p.gitBinaryPatch(); err != nil {
			return nil, err
		}
		b.binaryPatch = true
	case strings.HasPrefix(line, hunkPrefix):
		return nil, errorf(p.pos, ErrHunkWithoutFile, "hunk %s has no ---/+++ lines before it", clip(line))
	case !strings.HasPrefix(line, gitHeaderPrefix) && !p.startsPlainFile(p.pos):
		return nil, errorf(p.pos, ErrGarbage, "%s in the header of a diff --git section", clip(line))
	}
	f, err := resolveGitFile(at, names, split, x, &b)
	if err != nil {
		return nil, err
	}
	if err := checkFile(at, f); err != nil {
		return nil, err
	}
	return f, nil
}

// gitBinaryPatch checks the shape of a GIT binary patch: a forward block and
// an optional reverse block, each "literal N" or "delta N", base85 lines, and
// a blank line. The data is not decoded: the gate never judges binary
// content, but a damaged block must not pass for one.
func (p *parser) gitBinaryPatch() error {
	at := p.pos
	p.pos++
	for block := 0; block < 2; block++ {
		line := p.peek()
		size, ok := strings.CutPrefix(line, binaryLiteral)
		if !ok {
			size, ok = strings.CutPrefix(line, binaryDelta)
		}
		if !ok {
			if block > 0 {
				return nil // no reverse block
			}
			if p.done() {
				return errorf(at, ErrTruncated, "input ends after %q", gitBinaryPatch)
			}
			return errorf(p.pos, ErrBinaryPatch, "%s where \"literal N\" or \"delta N\" must be", clip(line))
		}
		if _, rest, err := parseNumber(size); err != nil || rest != "" {
			return errorf(p.pos, ErrBinaryPatch, "%s: the size is not a number", clip(line))
		}
		p.pos++
		data := 0
		for !p.done() && p.peek() != "" {
			if err := checkBase85Line(p.peek()); err != nil {
				return errorf(p.pos, ErrBinaryPatch, "%v", err)
			}
			data++
			p.pos++
		}
		if data == 0 {
			return errorf(p.pos-1, ErrBinaryPatch, "binary block without data")
		}
		if !p.done() {
			p.pos++ // the blank line that ends the block
		}
	}
	return nil
}

// checkBase85Line checks one data line of a GIT binary patch: a length
// letter (A-Z for 1-26 bytes, a-z for 27-52) and 5 base85 characters per 4
// bytes.
func checkBase85Line(line string) error {
	var n int
	switch c := line[0]; {
	case 'A' <= c && c <= 'Z':
		n = int(c-'A') + 1
	case 'a' <= c && c <= 'z':
		n = int(c-'a') + 27
	default:
		return nameError(fmt.Sprintf("binary data line %s has no length letter", clip(line)))
	}
	if want := (n + 3) / 4 * 5; len(line)-1 != want {
		return nameError(fmt.Sprintf("binary data line %s: %d bytes need %d characters, not %d", clip(line), n, want, len(line)-1))
	}
	for i := 1; i < len(line); i++ {
		if strings.IndexByte(base85Alphabet, line[i]) < 0 {
			return nameError(fmt.Sprintf("binary data line %s holds a character outside base85", clip(line)))
		}
	}
	return nil
}

// gitNames are the two names of a diff --git line, still with any a/ b/
// prefix. resolved is false when the line alone does not say where the first
// name ends.
type gitNames struct {
	left, right string
	resolved    bool
}

// splitGitNames splits the names of a diff --git line when the line alone
// says where they split: when a name is quoted, when there is one space, or
// when the two halves name the same file (with or without a/ b/), which is
// how git itself reads the line. Otherwise the rename or ---/+++ lines must
// tell.
func splitGitNames(names string) (gitNames, error) {
	if strings.HasPrefix(names, `"`) {
		left, rest, err := unquotePrefix(names)
		if err != nil {
			return gitNames{}, err
		}
		rest, ok := strings.CutPrefix(rest, " ")
		if !ok {
			return gitNames{}, nameError("no space after the first name")
		}
		right, err := wholeName(rest)
		if err != nil {
			return gitNames{}, err
		}
		return gitNames{left, right, true}, nil
	}
	if i := strings.IndexByte(names, '"'); i >= 0 {
		// A bare name never holds a quote (git would have quoted it), so
		// the first quote opens the second name.
		if i == 0 || names[i-1] != ' ' {
			return gitNames{}, nameError("quote inside an unquoted name")
		}
		left := names[:i-1]
		if err := checkBare(left); err != nil {
			return gitNames{}, err
		}
		right, err := wholeName(names[i:])
		if err != nil {
			return gitNames{}, err
		}
		return gitNames{left, right, true}, nil
	}
	if err := checkBare(names); err != nil {
		return gitNames{}, err
	}
	switch strings.Count(names, " ") {
	case 0:
		return gitNames{}, nameError("one name where two must be")
	case 1:
		left, right, _ := strings.Cut(names, " ")
		return gitNames{left, right, true}, nil
	}
	if len(names)%2 == 1 && names[len(names)/2] == ' ' {
		left, right := names[:len(names)/2], names[len(names)/2+1:]
		if left == right || strings.HasPrefix(left, oldPrefix) && strings.HasPrefix(right, newPrefix) &&
			left[len(oldPrefix):] == right[len(newPrefix):] {
			return gitNames{left, right, true}, nil
		}
	}
	return gitNames{}, nil
}

// resolveGitFile decides a diff --git section's operation and paths from all
// its lines, and refuses lines that contradict each other.
func resolveGitFile(at int, names string, split gitNames, x *extended, b *gitBody) (*File, error) {
	renamed := x.seen[kwRenameFrom] || x.seen[kwRenameTo]
	copied := x.seen[kwCopyFrom] || x.seen[kwCopyTo]
	switch {
	case x.seen[kwRenameFrom] != x.seen[kwRenameTo]:
		return nil, errorf(at, ErrHeader, "rename from and rename to must come together")
	case x.seen[kwCopyFrom] != x.seen[kwCopyTo]:
		return nil, errorf(at, ErrHeader, "copy from and copy to must come together")
	case x.seen[kwOldMode] != x.seen[kwNewMode]:
		return nil, errorf(at, ErrHeader, "old mode and new mode must come together")
	case x.seen[kwOldMode] && x.oldMode == x.newMode:
		return nil, errorf(at, ErrConflict, "old mode and new mode are both %s", x.oldMode)
	case renamed && copied:
		return nil, errorf(at, ErrConflict, "both rename and copy lines")
	case x.seen[kwNewFileMode] && x.seen[kwDeletedMode]:
		return nil, errorf(at, ErrConflict, "both new file mode and deleted file mode")
	case (x.seen[kwNewFileMode] || x.seen[kwDeletedMode]) && (renamed || copied):
		return nil, errorf(at, ErrConflict, "a new or deleted file cannot be renamed or copied")
	case (x.seen[kwNewFileMode] || x.seen[kwDeletedMode]) && x.seen[kwOldMode]:
		return nil, errorf(at, ErrConflict, "a new or deleted file cannot change mode")
	case x.indexMode != "" && (x.seen[kwOldMode] || x.seen[kwNewFileMode] || x.seen[kwDeletedMode]):
		return nil, errorf(at, ErrConflict, "the index line gives an unchanged mode, but other lines change it")
	case x.seen[kwSimilarity] && !renamed && !copied:
		return nil, errorf(at, ErrConflict, "similarity index without rename or copy lines")
	case b.binaryPatch && !x.seen[kwIndex]:
		// git writes full object names before a binary patch; without them
		// it is not a git binary patch.
		return nil, errorf(at, ErrBinaryPatch, "GIT binary patch without an index line")
	}

	f := &File{Op: OpModified, Binary: b.binaryLine != "" || b.binaryPatch, Hunks: b.hunks}
	switch {
	case x.seen[kwNewFileMode]:
		f.Op = OpAdded
	case x.seen[kwDeletedMode]:
		f.Op = OpDeleted
	case renamed:
		f.Op = OpRenamed
	case copied:
		f.Op = OpCopied
	}

	// /dev/null on the ---/+++ lines also makes a file new or deleted; it
	// must agree with the mode lines when there are some.
	oldNull := b.hasLabels && b.oldLabel == devNull
	newNull := b.hasLabels && b.newLabel == devNull

	left, right, resolved := split.left, split.right, split.resolved
	if !resolved {
		// Names with spaces that differ: only the other lines can say where
		// the first ends.
		var candidates [][2]string
		if renamed {
			candidates = append(candidates, [2]string{oldPrefix + x.renameFrom, newPrefix + x.renameTo}, [2]string{x.renameFrom, x.renameTo})
		}
		if copied {
			candidates = append(candidates, [2]string{oldPrefix + x.copyFrom, newPrefix + x.copyTo}, [2]string{x.copyFrom, x.copyTo})
		}
		if b.hasLabels && !oldNull && !newNull {
			candidates = append(candidates, [2]string{b.oldLabel, b.newLabel})
		}
		for _, c := range candidates {
			if names == c[0]+" "+c[1] {
				left, right, resolved = c[0], c[1], true
				break
			}
		}
		if !resolved {
			return nil, errorf(at, ErrHeader, "cannot tell where the first name ends in diff --git %s", clip(names))
		}
	}
	if left == devNull || right == devNull {
		return nil, errorf(at, ErrHeader, "/dev/null on the diff --git line")
	}

	// The names on the diff --git line carry a/ and b/ when both have them
	// and the file's other lines agree; else they are the paths themselves.
	wantOld, wantNew, pinned := "", "", false
	switch {
	case renamed:
		wantOld, wantNew, pinned = x.renameFrom, x.renameTo, true
	case copied:
		wantOld, wantNew, pinned = x.copyFrom, x.copyTo, true
	}
	var oldPath, newPath string
	found := false
	if strings.HasPrefix(left, oldPrefix) && strings.HasPrefix(right, newPrefix) {
		oldPath, newPath = left[len(oldPrefix):], right[len(newPrefix):]
		found = pinned && oldPath == wantOld && newPath == wantNew || !pinned && oldPath == newPath
	}
	if !found {
		oldPath, newPath = left, right
		found = pinned && oldPath == wantOld && newPath == wantNew || !pinned && oldPath == newPath
	}
	switch {
	case !found && pinned:
		return nil, errorf(at, ErrConflict, "diff --git names %s and %s do not match the %s lines (%s, %s)", clip(left), clip(right), f.Op, clip(wantOld), clip(wantNew))
	case !found:
		return nil, errorf(at, ErrConflict, "diff --git names two files, %s and %s, without rename or copy lines", clip(left), clip(right))
	case pinned && oldPath == newPath:
		return nil, errorf(at, ErrConflict, "%s from %s to itself", f.Op, clip(oldPath))
	}

	if b.binaryLine != "" {
		// The Binary files line names the two sides like ---/+++ would.
		// Names may hold " and ", but each reading below fixes where the
		// line splits, and only one can match.
		pairs, err := binaryNamePairs(b.binaryLine, len(left), len(quoteName(left)))
		if err != nil {
			return nil, errorf(b.binaryAt, ErrHeader, "%v", err)
		}
		switch {
		case slices.Contains(pairs, [2]string{left, right}):
		case slices.Contains(pairs, [2]string{devNull, right}):
			oldNull = true
		case slices.Contains(pairs, [2]string{left, devNull}):
			newNull = true
		default:
			return nil, errorf(b.binaryAt, ErrConflict, "%s does not name %s and %s of the diff --git line (or /dev/null)", clip(b.binaryLine), clip(left), clip(right))
		}
	}
	switch {
	case oldNull && f.Op == OpModified:
		f.Op = OpAdded
	case newNull && f.Op == OpModified:
		f.Op = OpDeleted
	}
	if b.hasLabels || b.binaryLine != "" {
		switch {
		case oldNull && f.Op != OpAdded:
			return nil, errorf(at, ErrConflict, "the old side is /dev/null but the file is %s, not added", f.Op)
		case newNull && f.Op != OpDeleted:
			return nil, errorf(at, ErrConflict, "the new side is /dev/null but the file is %s, not deleted", f.Op)
		case f.Op == OpAdded && !oldNull:
			return nil, errorf(at, ErrConflict, "the file is new but its old side is not /dev/null")
		case f.Op == OpDeleted && !newNull:
			return nil, errorf(at, ErrConflict, "the file is deleted but its new side is not /dev/null")
		}
	}
	if b.hasLabels {
		if !oldNull && b.oldLabel != left {
			return nil, errorf(b.labelsAt, ErrConflict, "--- names %s, the diff --git line %s", clip(b.oldLabel), clip(left))
		}
		if !newNull && b.newLabel != right {
			return nil, errorf(b.labelsAt+1, ErrConflict, "+++ names %s, the diff --git line %s", clip(b.newLabel), clip(right))
		}
	}

	f.OldPath, f.NewPath = oldPath, newPath
	f.OldHash, f.NewHash = x.oldHash, x.newHash
	if x.indexMode != "" && (f.Op == OpAdded || f.Op == OpDeleted) {
		return nil, errorf(at, ErrConflict, "the index line gives an unchanged mode to a file that is %s", f.Op)
	}
	switch f.Op {
	case OpAdded:
		f.OldPath, f.NewMode = "", x.newFileMode
		if f.OldHash != "" && !isZeroHash(f.OldHash) {
			return nil, errorf(at, ErrConflict, "a new file's old object name must be zeros, not %s", f.OldHash)
		}
	case OpDeleted:
		f.NewPath, f.OldMode = "", x.deletedFileMode
		if f.NewHash != "" && !isZeroHash(f.NewHash) {
			return nil, errorf(at, ErrConflict, "a deleted file's new object name must be zeros, not %s", f.NewHash)
		}
	default:
		f.OldMode, f.NewMode = x.oldMode, x.newMode
		if x.indexMode != "" {
			f.OldMode, f.NewMode = x.indexMode, x.indexMode
		}
	}
	return f, nil
}
