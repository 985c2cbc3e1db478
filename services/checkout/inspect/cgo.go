package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
)

// GoCgoPreamble returns a finding of RuleForeignCode for each cgo
// preamble of Go source src — the comment right before import "C", which
// cgo compiles as C — that holds one of the changed lines (sorted 1-based
// line numbers): the gate neither measures nor mutates C, so those lines
// are code nobody judged, never "comment, no statement". The preamble is
// the import's own comment, or the declaration's when "C" is its only
// import, as cgo reads it. Source that does not parse has none (the
// probe and harness rules name it).
func GoCgoPreamble(file string, src []byte, changed []int) []Finding {
	if len(changed) == 0 {
		return nil
	}
	var out []Finding
	for _, r := range CgoPreambles(src) {
		from, to := r[0], r[1]
		var lines []int
		for _, l := range changed {
			if l >= from && l <= to {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			continue
		}
		out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: lines[0],
			What: fmt.Sprintf("changes %s of the cgo preamble before import \"C\" (lines %d-%d): C code, which the gate neither measures nor mutates", lineList(lines), from, to)})
	}
	return Sort(out)
}

// CgoPreambles returns the first and last line of each cgo preamble of Go
// source src (see GoCgoPreamble), in order; none when src does not
// parse.
func CgoPreambles(src []byte) [][2]int {
	g, err := parseGo("", src)
	if err != nil {
		return nil
	}
	var out [][2]int
	for _, d := range g.f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			if p, err := strconv.Unquote(is.Path.Value); err != nil || p != "C" {
				continue
			}
			cg := is.Doc
			if cg == nil && len(gd.Specs) == 1 {
				cg = gd.Doc
			}
			if cg != nil {
				out = append(out, [2]int{g.line(cg.Pos()), g.line(cg.End())})
			}
		}
	}
	return out
}

// lineList says which lines: "line 4", "lines 4-6", "lines 4-6, 9".
func lineList(lines []int) string {
	lines = slices.Compact(slices.Sorted(slices.Values(lines)))
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(lines[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		}
		i = j + 1
	}
	word := "lines "
	if len(lines) == 1 {
		word = "line "
	}
	out := word
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}
