package patch

import (
	"fmt"
	"strconv"
)

// Reason is the kind of defect that made Parse refuse a patch. Reasons are
// constants with stable text so that callers can turn a refusal into a stable
// reason code; test for one with errors.Is.
type Reason string

func (r Reason) Error() string { return string(r) }

// Reasons Parse refuses a patch for. Every refusal is a *ParseError that
// wraps exactly one of them.
const (
	// ErrEmpty: the input is empty or only white space. An empty patch is a
	// usage error, never "nothing changed".
	ErrEmpty Reason = "empty patch"
	// ErrNoFile: the input has text but no file header anywhere.
	ErrNoFile Reason = "no file header"
	// ErrNUL: a NUL byte in the input or in a decoded path.
	ErrNUL Reason = "NUL byte"
	// ErrHunkWithoutFile: a hunk with no ---/+++ header before it. Hunks with
	// no header are a usage error, never zero lines.
	ErrHunkWithoutFile Reason = "hunk without a file header"
	// ErrHunkHeader: an @@ line that is not a well-formed hunk header.
	ErrHunkHeader Reason = "malformed hunk header"
	// ErrCountMismatch: a hunk has more or fewer lines than its header says.
	ErrCountMismatch Reason = "hunk line count disagrees with its header"
	// ErrTruncated: the input ends inside a file section.
	ErrTruncated Reason = "truncated patch"
	// ErrLineNumbers: a hunk's line numbers overlap the previous hunk or do
	// not follow from the hunks before it.
	ErrLineNumbers Reason = "inconsistent hunk line numbers"
	// ErrNoNewlineMarker: a "\ No newline at end of file" line that does not
	// follow the last line of a side.
	ErrNoNewlineMarker Reason = "misplaced no-newline marker"
	// ErrGarbage: a line that belongs to no file section.
	ErrGarbage Reason = "unexpected line"
	// ErrHeader: a file header line that does not parse.
	ErrHeader Reason = "malformed file header"
	// ErrConflict: header lines of one file (or two file sections) that
	// contradict each other.
	ErrConflict Reason = "conflicting file headers"
	// ErrNoChange: a file section that shows no change at all, as `git diff
	// -w` prints for a file whose changes it hides.
	ErrNoChange Reason = "file section without a change"
	// ErrBinaryPatch: a GIT binary patch whose data does not have git's form.
	ErrBinaryPatch Reason = "malformed binary patch"
	// ErrPath: a path that is empty, absolute, not in canonical form, or has
	// a ".." or ".git" component.
	ErrPath Reason = "unsafe path"
)

// ParseError is the error Parse returns: what was wrong and on which line.
// Its message is always a single line.
type ParseError struct {
	// Line is the 1-based input line the defect was found on; 0 when it
	// concerns the input as a whole.
	Line int
	// Reason is the kind of defect.
	Reason Reason
	// Detail says exactly what was wrong.
	Detail string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("patch: line %d: %s: %s", e.Line, e.Reason, e.Detail)
	}
	return fmt.Sprintf("patch: %s: %s", e.Reason, e.Detail)
}

// Unwrap returns the Reason, so that errors.Is(err, ErrTruncated) works.
func (e *ParseError) Unwrap() error { return e.Reason }

// maxQuoted bounds how much of an offending line an error message repeats.
const maxQuoted = 60

// clip quotes input text for an error message: escaped, so the message stays
// on one line whatever the input holds, and shortened.
func clip(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}
