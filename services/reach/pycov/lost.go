package pycov

import (
	"slices"

	"github.com/sealgate/sealgate/services/reach/cover"
)

// KeptFile is a Python file the patch modifies, for Lost: its path on
// each side and where each baseline line went.
type KeptFile struct {
	// Path is the repository-relative path on the patch side, BasePath on
	// the baseline side.
	Path, BasePath string
	// Kept maps a baseline line the patch keeps unchanged to its line on
	// the patch side; false for a line it removes or changes.
	Kept func(baseLine int) (patchLine int, ok bool)
}

// Lost returns, sorted, the lines of files (patch side) that the baseline
// report executed, that the patch keeps unchanged, and that the patch
// report lists as executable and never executed — in any context, at
// import included: code the baseline's claims ran that nothing runs after
// the patch (code routed around, or behind a probe the sandbox answers).
// A file a report does not name is not judged: coverage.py did not
// measure it, which Measure reports on its own.
func Lost(files []KeptFile, base, patch *Report) []cover.Line {
	if base == nil || patch == nil {
		return nil
	}
	var out []cover.Line
	for _, f := range files {
		bf, pf := base.Files[f.BasePath], patch.Files[f.Path]
		if bf == nil || pf == nil || f.Kept == nil {
			continue
		}
		for _, bl := range bf.Executed {
			pl, kept := f.Kept(bl)
			if !kept || contains(pf.Executed, pl) || !contains(pf.Missing, pl) {
				continue
			}
			out = append(out, cover.Line{Path: f.Path, Line: pl})
		}
	}
	slices.SortFunc(out, compareLines)
	return slices.Compact(out)
}
