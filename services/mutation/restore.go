package mutation

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// A unit's kill says a test notices some change to it, not that a test
// notices the change the patch made in it: renewals := max(5, len(kind))
// has the fix's 5 killed and len(kind) judged by nothing; if
// strings.ToLower(kind) == "admin" has its == killed; a disjunct deleted
// from an if leaves its other operators killed. So the tests must also
// notice what the patch replaced put back: a restore mutant of the
// smallest expression holding what the patch wrote or deleted in the
// unit (or, where that one cannot be written, of the next larger one).

// maxRestoreChain bounds the expressions tried per unit, innermost first.
const maxRestoreChain = 4

// restoresOf returns the restores (see mutant.Restore) of the Go source
// src, a patch-side file at path p with base name name, indexed by ix:
// per unit in which the patch wrote or deleted tokens of runs (see
// written), the expressions inside the unit holding all of them,
// innermost first, each with the baseline's text standing there, as one
// group. Groups are numbered from next; the next free number is
// returned.
func restoresOf(name string, src []byte, ix *stmtIndex, runs []alignment, wrote [][2]int, dels []deletion, next int) ([]mutant.Restore, int) {
	if ix == nil || len(runs) == 0 {
		return nil, next
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, next
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var exprs [][2]int
	ast.Inspect(f, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			exprs = append(exprs, [2]int{off(e.Pos()), off(e.End())})
		}
		return true
	})
	// What the patch wrote or deleted, by the unit judging it: the range
	// from its first byte to its last, in the unit's span.
	type touched struct {
		span   [2]int // the unit's
		lo, hi int
	}
	byUnit := map[stmtRange]*touched{}
	var order []stmtRange
	touch := func(o int) {
		u, span, ok := ix.judging(o)
		if !ok {
			return
		}
		t := byUnit[u]
		if t == nil {
			t = &touched{span: span, lo: o, hi: o}
			byUnit[u] = t
			order = append(order, u)
		}
		t.lo, t.hi = min(t.lo, o), max(t.hi, o)
	}
	for _, w := range wrote {
		for o := max(w[0], 0); o < min(w[1], len(src)); o++ {
			if strings.IndexByte(" \t\r\n,;()", src[o]) < 0 {
				touch(o)
			}
		}
	}
	for _, d := range dels {
		if d.Before >= 0 && d.Before < len(src) {
			touch(d.Before)
		}
	}
	slices.SortFunc(order, func(a, b stmtRange) int { return cmp.Compare(byUnit[a].lo, byUnit[b].lo) })
	var out []mutant.Restore
	for _, u := range order {
		t := byUnit[u]
		var chain [][2]int
		for _, e := range exprs {
			if e[0] <= t.lo && t.hi < e[1] && t.span[0] <= e[0] && e[1] <= t.span[1] {
				chain = append(chain, e)
			}
		}
		slices.SortFunc(chain, func(a, b [2]int) int { return cmp.Compare(a[1]-a[0], b[1]-b[0]) })
		chain = slices.Compact(chain)
		added := 0
		for _, e := range chain {
			if added == maxRestoreChain {
				break
			}
			for _, r := range runs {
				if text, ok := r.baselineOf(e[0], e[1]); ok {
					out = append(out, mutant.Restore{File: name, Start: e[0], End: e[1], Text: text, Group: next})
					added++
					break
				}
			}
		}
		if added > 0 {
			next++
		}
	}
	return out, next
}
