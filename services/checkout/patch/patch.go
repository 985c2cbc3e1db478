// Package patch parses the unified diffs the checkout service is given:
// `git diff` output and plain `diff -u` output, as coding agents emit them.
//
// The parser fails closed. The gate measures a patch by the lines it changes
// (diff coverage, mutation), so a diff it cannot read exactly must never turn
// into "no lines changed": every defect is a *ParseError naming the line and
// the Reason, and nothing is guessed. Hunk line counts must match their
// headers, hunk line numbers must agree with one another, paths must be
// relative and canonical, and header lines must not contradict each other.
// Binary changes are recorded as binary, for callers to treat as
// unjudgeable.
//
// The package is pure: it reads the bytes it is given and nothing else.
package patch

import (
	"slices"
)

// Op is what a patch does to one file.
type Op int

// The zero Op is not a valid operation: Parse always sets one.
const (
	// OpModified: the file exists on both sides under the same path.
	OpModified Op = iota + 1
	// OpAdded: the file exists only after the patch.
	OpAdded
	// OpDeleted: the file exists only before the patch.
	OpDeleted
	// OpRenamed: the file moves from OldPath to NewPath, possibly changed.
	OpRenamed
	// OpCopied: NewPath is created from a copy of OldPath, possibly
	// changed; OldPath stays.
	OpCopied
)

func (o Op) String() string {
	switch o {
	case OpModified:
		return "modified"
	case OpAdded:
		return "added"
	case OpDeleted:
		return "deleted"
	case OpRenamed:
		return "renamed"
	case OpCopied:
		return "copied"
	}
	return "unknown"
}

// LineKind says which side or sides of the diff a hunk line belongs to.
type LineKind int

// The zero LineKind is not valid: Parse always sets one.
const (
	// LineContext: unchanged, on both sides.
	LineContext LineKind = iota + 1
	// LineAdded: only on the new side.
	LineAdded
	// LineRemoved: only on the old side.
	LineRemoved
)

func (k LineKind) String() string {
	switch k {
	case LineContext:
		return "context"
	case LineAdded:
		return "added"
	case LineRemoved:
		return "removed"
	}
	return "unknown"
}

// Patch is a parsed unified diff: one File per file section, in input order.
type Patch struct {
	Files []*File
}

// File is the change to one file.
type File struct {
	// OldPath is the path before the patch, "" for an added file. NewPath
	// is the path after it, "" for a deleted file. Both are relative,
	// slash-separated and canonical, with any a/ and b/ prefix removed.
	OldPath, NewPath string
	Op               Op
	// Binary is set for a binary change ("Binary files … differ" or a GIT
	// binary patch). The gate cannot judge its lines: a binary file has no
	// hunks, and that never means no lines changed.
	Binary bool
	// OldMode and NewMode are git's six-digit octal modes ("100644",
	// "100755", "120000" for a symbolic link, "160000" for a submodule), ""
	// when the diff does not say. They are equal when only the index line
	// gives the mode (the mode did not change).
	OldMode, NewMode string
	// OldHash and NewHash are the abbreviated object names of the index
	// line, "" when the diff has none.
	OldHash, NewHash string
	// Hunks are in file order; they never overlap.
	Hunks []Hunk
}

// Hunk is one @@ section of a file's diff.
type Hunk struct {
	// OldStart and NewStart are the first line of the hunk on each side;
	// for a side with no lines in the hunk (a count of 0) they name the line
	// before the hunk, as diff does (0 for the start of the file).
	OldStart, OldLines, NewStart, NewLines int
	// Section is the text after the closing @@ (usually the enclosing
	// function), without the separating space.
	Section string
	Lines   []Line
}

// Line is one line of a hunk.
type Line struct {
	Kind LineKind
	// Text is the line without its leading ' ', '+' or '-' and without its
	// newline. A carriage return of a CRLF file stays part of the text.
	Text string
	// OldLine and NewLine are the line's number on each side, 0 on the side
	// it is not on.
	OldLine, NewLine int
	// NoNewlineAtEOF is set when the line is the last of its file and has no
	// newline ("\ No newline at end of file" followed it). On a context line
	// it holds for both sides.
	NoNewlineAtEOF bool
}

// Path is the file's path after the patch, or before it for a deleted file.
func (f *File) Path() string {
	if f.Op == OpDeleted {
		return f.OldPath
	}
	return f.NewPath
}

// AddedLines returns the new-side line numbers of the added lines, ascending:
// the lines diff coverage and mutation measure.
func (f *File) AddedLines() []int {
	var lines []int
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == LineAdded {
				lines = append(lines, l.NewLine)
			}
		}
	}
	return lines
}

// RemovedLines returns the old-side line numbers of the removed lines,
// ascending.
func (f *File) RemovedLines() []int {
	var lines []int
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == LineRemoved {
				lines = append(lines, l.OldLine)
			}
		}
	}
	return lines
}

// Paths returns every path the patch names, old and new sides, sorted and
// without duplicates. A copy's source is included: the patch reads it.
func (p *Patch) Paths() []string {
	var paths []string
	for _, f := range p.Files {
		if f.OldPath != "" {
			paths = append(paths, f.OldPath)
		}
		if f.NewPath != "" {
			paths = append(paths, f.NewPath)
		}
	}
	slices.Sort(paths)
	return slices.Compact(paths)
}

// Kept maps a line of the file's old side to its line on the new side
// when the patch keeps it unchanged (a context line, or a line outside
// every hunk); false for a line the patch removes.
func (f *File) Kept(old int) (int, bool) {
	if old <= 0 {
		return 0, false
	}
	delta := 0
	for _, h := range f.Hunks {
		// A side with no lines in the hunk names the line before it.
		oldFirst, oldAfter := h.OldStart, h.OldStart+h.OldLines
		if h.OldLines == 0 {
			oldFirst, oldAfter = h.OldStart+1, h.OldStart+1
		}
		newAfter := h.NewStart + h.NewLines
		if h.NewLines == 0 {
			newAfter = h.NewStart + 1
		}
		if old < oldFirst {
			break
		}
		if old < oldAfter {
			for _, l := range h.Lines {
				if l.OldLine == old {
					return l.NewLine, l.Kind == LineContext
				}
			}
			return 0, false
		}
		delta = newAfter - oldAfter
	}
	return old + delta, true
}
