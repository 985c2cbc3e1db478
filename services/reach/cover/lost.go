package cover

import (
	"slices"
	"strings"
)

// KeptFile is a file the patch modifies, for Lost: its names in the
// baseline's and the patch's profiles, and where each baseline line went.
type KeptFile struct {
	Path string // repository-relative, on the patch side
	// BaseProfile and PatchProfile are the names profiles use for the
	// file on each side (its package's import path and base name).
	BaseProfile, PatchProfile string
	// Kept maps a baseline line the patch keeps unchanged to its line on
	// the patch side; false for a line it removes or changes.
	Kept func(baseLine int) (patchLine int, ok bool)
	// Src is the file's source on the patch side: only lines with code
	// beyond brackets and punctuation are judged (a block's closing brace
	// is in its span whatever ran).
	Src []byte
}

// Lost returns, sorted, the lines of files (patch side) that base ran,
// that the patch keeps unchanged, and that no block of patch runs: code
// the claims exercised before the patch and nothing exercises after it.
// Lines of a file whose package the patch profile does not instrument are
// not judged.
func Lost(files []KeptFile, base, patch *Profile) []Line {
	if base == nil || patch == nil {
		return nil
	}
	ran := func(p *Profile, name string) (lines map[int]bool, named bool) {
		lines = map[int]bool{}
		for _, b := range p.Blocks {
			if b.File != name {
				continue
			}
			named = true
			if b.Count == 0 {
				continue
			}
			for l := b.StartLine; l <= b.EndLine; l++ {
				lines[l] = true
			}
		}
		return lines, named
	}
	var out []Line
	for _, f := range files {
		before, _ := ran(base, f.BaseProfile)
		after, named := ran(patch, f.PatchProfile)
		if !named {
			continue
		}
		code, err := CodeLines(f.Src)
		if err != nil {
			continue
		}
		text := strings.Split(string(f.Src), "\n")
		for bl := range before {
			pl, kept := f.Kept(bl)
			if !kept || after[pl] || !code[pl] || pl > len(text) || punctuation(text[pl-1]) {
				continue
			}
			out = append(out, Line{Path: f.Path, Line: pl})
		}
	}
	slices.SortFunc(out, compareLines)
	return out
}

// punctuation reports a line whose code is only brackets and separators
// (a comment after them aside).
func punctuation(line string) bool {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return strings.Trim(line, " \t\r{}()[];,") == ""
}
