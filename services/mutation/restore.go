package mutation

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
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

// Putting back is not enough where the patch wrote a term beside the fix:
// renewals := max(5, len(kind)) in place of 3 has its restore (3) killed
// by any test of the fix, and len(kind) still judged by nothing. So the
// innermost expression holding what the patch wrote is also projected
// onto each operand whose siblings the patch wrote (see projections):
// max(5, len(kind)) → 5 survives unless a test notices len(kind), and
// → len(kind) unless one notices the 5.

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
	nodes := map[[2]int]ast.Expr{} // the outermost expression of each range
	ast.Inspect(f, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			k := [2]int{off(e.Pos()), off(e.End())}
			exprs = append(exprs, k)
			if _, ok := nodes[k]; !ok {
				nodes[k] = e
			}
		}
		return true
	})
	// What the patch wrote or deleted, by the unit judging it: the range
	// from its first byte to its last, in the unit's span.
	type touched struct {
		span   [2]int // the unit's
		lo, hi int
		offs   []int // every touched byte, in order of touching
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
		t.offs = append(t.offs, o)
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
		chain := exprsAround(exprs, t.lo, t.hi, t.span)
		added := 0
		put := map[string]bool{} // what the innermost expression's restore writes
		for _, e := range chain {
			if added == maxRestoreChain {
				break
			}
			for _, r := range runs {
				if text, ok := r.baselineOf(e[0], e[1]); ok {
					out = append(out, mutant.Restore{File: name, Start: e[0], End: e[1], Text: text, Group: next})
					if added == 0 && e == chain[0] {
						put[strings.Join(strings.Fields(text), " ")] = true
					}
					added++
					break
				}
			}
		}
		if added > 0 {
			next++
		}
		if len(chain) == 0 {
			continue
		}
		inner := chain[0]
		for _, k := range projections(nodes[inner], off, func(lo, hi int) bool { return allWritten(src, wrote, lo, hi) }) {
			text := string(src[k[0]:k[1]])
			if put[strings.Join(strings.Fields(text), " ")] {
				continue // the restore already writes it
			}
			out = append(out, mutant.Restore{File: name, Start: inner[0], End: inner[1], Text: text, Group: next})
			next++
		}
	}
	// A term deleted beside what the patch wrote in its place
	// (renewals := 3 + strings.Count(kind, "+") → renewals := 5): the
	// restore puts back both, and the fix's test kills it. So the written
	// expression is also given each operand of the deleted binary
	// expression beside it: 5 + strings.Count(kind, "+"), and 3 + 5 —
	// as statement restores of the statement holding it (a constant's
	// type cannot be named where it stands).
	// (The statement, then the blocks around it: a := statement
	// declares what a block around it alone would hide.)
	var stmts [][2]int
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.CaseClause, *ast.CommClause:
		case ast.Stmt:
			stmts = append(stmts, [2]int{off(n.Pos()), off(n.End())})
		}
		return true
	})
	slices.SortFunc(stmts, func(a, b [2]int) int { return cmp.Compare(a[1]-a[0], b[1]-b[0]) })
	for _, d := range dels {
		if d.Wrote == [2]int{} || d.Src == "" {
			continue
		}
		x, err := parser.ParseExpr(d.Src)
		if err != nil {
			continue
		}
		b, ok := ast.Unparen(x).(*ast.BinaryExpr)
		if !ok || !arithOrLogical(b.Op) {
			continue
		}
		if _, ok := nodes[d.Wrote]; !ok {
			continue
		}
		if _, _, judged := ix.judging(d.Wrote[0]); !judged {
			continue
		}
		around := stmtsAround(stmts, d.Wrote)
		w := string(src[d.Wrote[0]:d.Wrote[1]])
		left, right := d.Src[b.X.Pos()-1:b.X.End()-1], d.Src[b.Y.Pos()-1:b.Y.End()-1]
		for _, term := range []string{"(" + w + ") " + b.Op.String() + " " + right, left + " " + b.Op.String() + " (" + w + ")"} {
			// The term as one operand where the written expression
			// stood; where that does not compile, bare, read with the
			// precedence the baseline's text had: the span the patch
			// replaced may cross an operator of the expression around it
			// (v > 10 && flag → v > 5 replaces `10 && flag`: v > (5) &&
			// flag is the fix with the conjunct kept).
			for _, wrap := range [][2]string{{"(", ")"}, {"", ""}} {
				for _, st := range around {
					text := string(src[st[0]:d.Wrote[0]]) + wrap[0] + term + wrap[1] + string(src[d.Wrote[1]:st[1]])
					out = append(out, mutant.Restore{File: name, Start: st[0], End: st[1], Text: text, Group: next, Stmt: true, At: d.Wrote[0]})
				}
			}
			if len(around) > 0 {
				next++
			}
		}
	}
	// Edits apart in one unit (sort.SliceStable(ps, older(ps)) →
	// sort.Slice(ps, younger(ps)); t.UTC().Format(layout) →
	// t.Format(other)): the unit's restore puts back every one of them,
	// and the fix's test kills it by the one it checks, while the others
	// are judged by nothing. So each edit is also put back alone, the
	// others kept: by the innermost expressions holding it and no other
	// edit, as a group of its own (one that writes what another restore
	// writes is left out).
	seen := map[mutant.Restore]bool{}
	for _, r := range out {
		seen[mutant.Restore{File: r.File, Start: r.Start, End: r.End, Text: r.Text}] = true
	}
	for _, u := range order {
		t := byUnit[u]
		parts := editsApart(src, t.offs)
		if len(parts) < 2 {
			continue
		}
		for i, part := range parts {
			chain := exprsAround(exprs, part[0], part[1], t.span)
			added := 0
			var first [2]int
			var firstText string
			for _, e := range chain {
				if added >= maxRestoreChain || holdsOther(e, parts, i) {
					break
				}
				for _, r := range runs {
					text, ok := r.baselineOf(e[0], e[1])
					if !ok {
						continue
					}
					k := mutant.Restore{File: name, Start: e[0], End: e[1], Text: text}
					if seen[k] {
						break
					}
					seen[k] = true
					k.Group = next
					out = append(out, k)
					if added == 0 {
						first, firstText = e, text
					}
					added++
					break
				}
			}
			// The innermost also as statement restores, the statement and
			// the blocks around it: an expression whose type cannot be
			// named where it stands (a function value, sort.Slice) is
			// still in a statement that can be switched.
			if added == 0 {
				continue
			}
			for _, st := range stmtsAround(stmts, first) {
				out = append(out, mutant.Restore{File: name, Start: st[0], End: st[1],
					Text: string(src[st[0]:first[0]]) + firstText + string(src[first[1]:st[1]]), Group: next, Stmt: true, At: first[0]})
			}
			next++
		}
	}
	// A string literal the patch rewrote where no unit judges it (a
	// package-level value: regexp.MustCompile("^[a-zA-Z0-9]+")): the
	// baseline's literal, for the data mutants that undo each of the
	// patch's edits inside it alone (see mutant.Restore). No unit's
	// restore covers it.
	spans := map[[2]int]bool{}
	for _, r := range out {
		spans[[2]int{r.Start, r.End}] = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		k := [2]int{off(lit.Pos()), off(lit.End())}
		if spans[k] || !allWritten(src, wrote, k[0], k[1]) {
			return true
		}
		for _, r := range runs {
			if text, ok := r.baselineOf(k[0], k[1]); ok {
				if _, err := strconv.Unquote(text); err == nil {
					out = append(out, mutant.Restore{File: name, Start: k[0], End: k[1], Text: text, Group: next})
					next++
				}
				break
			}
		}
		return true
	})
	return out, next
}

// exprsAround returns the spans of exprs that hold the bytes lo to hi
// (both included) and lie inside span, innermost first, each once.
func exprsAround(exprs [][2]int, lo, hi int, span [2]int) [][2]int {
	var chain [][2]int
	for _, e := range exprs {
		if e[0] <= lo && hi < e[1] && span[0] <= e[0] && e[1] <= span[1] {
			chain = append(chain, e)
		}
	}
	slices.SortFunc(chain, func(a, b [2]int) int { return cmp.Compare(a[1]-a[0], b[1]-b[0]) })
	return slices.Compact(chain)
}

// stmtsAround returns the first maxRestoreChain of stmts (sorted innermost
// first) that hold the span e.
func stmtsAround(stmts [][2]int, e [2]int) [][2]int {
	var around [][2]int
	for _, st := range stmts {
		if st[0] <= e[0] && e[1] <= st[1] && len(around) < maxRestoreChain {
			around = append(around, st)
		}
	}
	return around
}

// editsApart splits the touched bytes of one unit into edits: runs of
// them with no untouched token between (spacing and the punctuation , ; (
// ) aside). Each edit is its first and last byte.
func editsApart(src []byte, offs []int) [][2]int {
	offs = slices.Clone(offs)
	slices.Sort(offs)
	offs = slices.Compact(offs)
	var out [][2]int
	for i, o := range offs {
		if i > 0 {
			apart := false
			for p := offs[i-1] + 1; p < o && p < len(src); p++ {
				if strings.IndexByte(" \t\r\n,;()", src[p]) < 0 {
					apart = true
					break
				}
			}
			if !apart {
				out[len(out)-1][1] = o
				continue
			}
		}
		out = append(out, [2]int{o, o})
	}
	return out
}

// holdsOther reports whether the span e holds a byte of an edit of parts
// other than the i-th.
func holdsOther(e [2]int, parts [][2]int, i int) bool {
	for j, p := range parts {
		if j != i && p[0] < e[1] && e[0] <= p[1] {
			return true
		}
	}
	return false
}

// arithOrLogical reports whether op is a binary arithmetic or logical
// operator: one whose operand, dropped, leaves a value of the same kind.
func arithOrLogical(op token.Token) bool {
	switch op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.AND_NOT, token.LAND, token.LOR:
		return true
	}
	return false
}

// projections returns the byte ranges of the operands of e (a call's
// arguments, a binary arithmetic or logical expression's operands) that e
// may be replaced by to drop what the patch wrote beside them: those
// whose sibling operands the patch wrote whole (and, for a call's only
// argument, its function). A kept operand is never what is dropped: an
// honest fix adding a condition beside the baseline's need not prove the
// baseline's. Whether a projection can be written (its type) is the
// mutant package's to check.
func projections(e ast.Expr, off func(token.Pos) int, written func(lo, hi int) bool) [][2]int {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	span := func(x ast.Node) [2]int { return [2]int{off(x.Pos()), off(x.End())} }
	var kids []ast.Expr
	var others func(i int) []ast.Node
	switch e := e.(type) {
	case *ast.CallExpr:
		if e.Ellipsis.IsValid() {
			return nil
		}
		kids = e.Args
		others = func(i int) []ast.Node {
			var o []ast.Node
			for j, a := range e.Args {
				if j != i {
					o = append(o, a)
				}
			}
			if len(o) == 0 {
				o = append(o, e.Fun)
			}
			return o
		}
	case *ast.BinaryExpr:
		if !arithOrLogical(e.Op) {
			return nil
		}
		kids = []ast.Expr{e.X, e.Y}
		others = func(i int) []ast.Node { return []ast.Node{kids[1-i]} }
	default:
		return nil
	}
	var out [][2]int
	for i, k := range kids {
		if slices.ContainsFunc(others(i), func(n ast.Node) bool { s := span(n); return !written(s[0], s[1]) }) {
			continue
		}
		out = append(out, span(k))
	}
	return out
}

// allWritten reports whether every byte of src[lo:hi] but blanks and
// punctuation lies in a span of wrote.
func allWritten(src []byte, wrote [][2]int, lo, hi int) bool {
	for o := max(lo, 0); o < min(hi, len(src)); o++ {
		if strings.IndexByte(" \t\r\n,;()", src[o]) >= 0 {
			continue
		}
		if !slices.ContainsFunc(wrote, func(w [2]int) bool { return w[0] <= o && o < w[1] }) {
			return false
		}
	}
	return true
}
