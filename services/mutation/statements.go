package mutation

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// A changed line of code is judged through the statement that holds it:
// coverage says a test ran it, and a killed mutant of the statement says
// a test notices when it changes. A statement whose mutants all survive,
// or that offers none (v := a → v := b, strings.ToUpper → ToLower, a
// shift count, a call's argument), would otherwise ride on
// the kills of the other lines of the fix: the ratio counts mutants, not
// what they judge.

// stmtRange is the lines of one statement of a Go file: a simple
// statement whole, a compound one's header (if, for, switch, select,
// case: up to its body's brace or its colon).
type stmtRange struct {
	path        string
	first, last int
}

func (s stmtRange) String() string {
	if s.first == s.last {
		return fmt.Sprintf("%s:%d", s.path, s.first)
	}
	return fmt.Sprintf("%s:%d-%d", s.path, s.first, s.last)
}

// statementsOf maps each of lines (1-based, of the Go source src at path)
// to the innermost statement holding it. A line no statement holds (a
// declaration outside a function, a brace) has no entry; src that does
// not parse gives none.
func statementsOf(path string, src []byte, lines []int) map[int]stmtRange {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	type judged struct {
		stmtRange
		exempt, header bool
	}
	var ranges []judged
	put := func(from, to token.Pos, exempt, header bool) {
		if !from.IsValid() || !to.IsValid() {
			return
		}
		ranges = append(ranges, judged{stmtRange{path, fset.Position(from).Line, fset.Position(to).Line}, exempt, header})
	}
	add := func(from, to token.Pos, exempt bool) { put(from, to, exempt, false) }
	// header adds a compound statement's header: if, for, a case label.
	header := func(from, to token.Pos, exempt bool) { put(from, to, exempt, true) }
	// Exempt, though they hold lines: what carries no behaviour of its
	// own (var v T declares a zero value, return nil returns nils: no
	// operator can change either, and their uses and callers judge
	// them; a return of 0, "" or false has mutants); the headers of
	// switches without a tag and of selects, whose cases and bodies hold
	// what they choose between; a type switch's header and its case of
	// types, which no operator changes; a switch's empty default. A select's
	// case is judged through the send or receive it holds (a statement of
	// its own): coverage counts it as run whenever the select runs, and
	// comm_never makes it never fire; its default with a body like a
	// switch's.
	// An expression switch's tag is judged (switch_tag changes it), and so
	// are its case label — `case 4:` → `case 5:` moves behaviour to other
	// values, and its values have mutants — and a default with a body
	// (default_never); coverage counts a label as run whenever its switch
	// runs.
	typeCases := map[*ast.CaseClause]bool{}
	typeGuards := map[ast.Stmt]bool{} // x := y.(type): the header's own
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			header(n.If, n.Body.Lbrace, false)
		case *ast.ForStmt:
			header(n.For, n.Body.Lbrace, false)
		case *ast.RangeStmt:
			header(n.For, n.Body.Lbrace, false)
		case *ast.SwitchStmt:
			// A tag is a value the cases choose by: switch kind →
			// switch strings.ToLower(kind) moves every value.
			header(n.Switch, n.Body.Lbrace, n.Tag == nil)
		case *ast.TypeSwitchStmt:
			add(n.Switch, n.Body.Lbrace, true)
			typeGuards[n.Assign] = true
			for _, st := range n.Body.List {
				if cc, ok := st.(*ast.CaseClause); ok {
					typeCases[cc] = true
				}
			}
		case *ast.SelectStmt:
			add(n.Select, n.Body.Lbrace, true)
		case *ast.CaseClause:
			// A default with a body is judged (default_never changes
			// it: case 7: → default: moves behaviour to every other
			// value); an empty one does nothing.
			header(n.Case, n.Colon, len(n.List) == 0 && len(n.Body) == 0 || len(n.List) > 0 && typeCases[n])
		case *ast.CommClause:
			// A case is judged by the receive or send it holds; a
			// default with a body as a switch's is (default_never). An
			// empty default is judged too, unlike a switch's: it makes
			// a waiting select return at once, and no mutant can take
			// that away, so one the patch writes is unjudged.
			header(n.Case, n.Colon, n.Comm != nil)
		case *ast.BlockStmt, *ast.LabeledStmt, *ast.EmptyStmt:
		case *ast.DeclStmt:
			d, _ := n.Decl.(*ast.GenDecl)
			zero := d != nil && d.Tok == token.VAR
			for _, sp := range d.Specs {
				if vs, ok := sp.(*ast.ValueSpec); !ok || len(vs.Values) > 0 {
					zero = false
				}
			}
			add(n.Pos(), n.End()-1, zero)
		case *ast.ReturnStmt:
			add(n.Pos(), n.End()-1, zeroResults(n))
		case ast.Stmt:
			add(n.Pos(), n.End()-1, typeGuards[n])
		}
		return true
	})
	// A line is judged by the innermost statement holding it; where that
	// one is exempt, by the innermost judged header holding the line: a
	// case label's last value before `: return nil`, or a condition's last
	// line before `{ return nil }`, is still the header's behaviour.
	innermost := func(l int, ok func(judged) bool) (judged, bool) {
		best, found := judged{}, false
		for _, r := range ranges {
			same := r.last-r.first == best.last-best.first && r.first == best.first
			if ok(r) && r.first <= l && l <= r.last && (!found || r.last-r.first < best.last-best.first ||
				r.last-r.first == best.last-best.first && r.first > best.first ||
				// Of two statements on the same lines, the judged one:
				// switch n := n - 1; { is its init statement's.
				same && best.exempt && !r.exempt) {
				best, found = r, true
			}
		}
		return best, found
	}
	out := map[int]stmtRange{}
	for _, l := range lines {
		best, found := innermost(l, func(judged) bool { return true })
		if found && best.exempt {
			best, found = innermost(l, func(r judged) bool { return r.header && !r.exempt })
		}
		if found {
			out[l] = best.stmtRange
		}
	}
	return out
}

// labelSpans returns the byte ranges of the values of the expression
// switches' case labels in the Go source src (a tagless switch's
// conditions among them), in source order; src that does not parse gives
// none.
func labelSpans(src []byte) [][2]int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var out [][2]int
	ast.Inspect(f, func(n ast.Node) bool {
		if sw, ok := n.(*ast.SwitchStmt); ok {
			for _, st := range sw.Body.List {
				if cc, ok := st.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						out = append(out, [2]int{off(e.Pos()), off(e.End())})
					}
				}
			}
		}
		return true
	})
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	return out
}

// zeroResults reports whether a return returns nothing or only nil (0,
// "" and false have mutants of their own).
func zeroResults(n *ast.ReturnStmt) bool {
	for _, r := range n.Results {
		if id, ok := ast.Unparen(r).(*ast.Ident); !ok || id.Name != "nil" {
			return false
		}
	}
	return true
}

// judgedStatement is a changed, covered statement of code: a mutant on
// one of its changed lines must be killed.
type judgedStatement struct {
	at    stmtRange
	lines []int // its changed, covered lines
}

// statementList turns lines by statement into statements ordered by path
// and first line, their lines sorted.
func statementList(by map[stmtRange][]int) []judgedStatement {
	out := make([]judgedStatement, 0, len(by))
	for at, lines := range by {
		ls := slices.Clone(lines)
		slices.Sort(ls)
		out = append(out, judgedStatement{at: at, lines: slices.Compact(ls)})
	}
	slices.SortFunc(out, func(a, b judgedStatement) int {
		return cmp.Or(strings.Compare(a.at.path, b.at.path), a.at.first-b.at.first, a.at.last-b.at.last)
	})
	return out
}

// unkilledStatements returns the statements of which no mutant on one of
// their changed lines was killed, in order: their mutants survived, were
// stillborn or unjudged, none was selected, or they offer none.
func unkilledStatements(sts []judgedStatement, mutants []*pb.Mutant) []judgedStatement {
	killed := map[lineRef]bool{}
	for _, mu := range mutants {
		if mu.At != nil && mu.Status == "killed" {
			killed[lineRef{mu.At.Path, int(mu.At.Line)}] = true
		}
	}
	var out []judgedStatement
	for _, st := range sts {
		if !slices.ContainsFunc(st.lines, func(l int) bool { return killed[lineRef{st.at.path, l}] }) {
			out = append(out, st)
		}
	}
	return out
}

// statementFirst picks a mutant of every statement to run before the
// others: of the sites on its changed lines, an offered one that changes
// more than a boundary, else one of the wider set's that does (a
// boundary, < → <=, is the mutant tests most often cannot tell apart:
// time.Since(start) > ttl), else a boundary. Equivalent sites are never
// picked.
func statementFirst(sts []judgedStatement, offered, all []mutant.Site) []mutant.Site {
	var out []mutant.Site
	for _, st := range sts {
		on := func(s mutant.Site) bool {
			return s.Equivalent == "" && s.File == st.at.path && slices.Contains(st.lines, s.Line)
		}
		strong := func(s mutant.Site) bool { return on(s) && s.Operator != mutant.OpRelationalBoundary }
		for _, pick := range []struct {
			from []mutant.Site
			ok   func(mutant.Site) bool
		}{{offered, strong}, {all, strong}, {offered, on}, {all, on}} {
			if i := slices.IndexFunc(pick.from, pick.ok); i >= 0 {
				out = append(out, pick.from[i])
				break
			}
		}
	}
	return out
}
