package mutation

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// A changed line of code is judged through the statement that holds what
// the patch wrote on it: coverage says a test ran it, and a killed mutant
// of the statement says a test notices when it changes. A statement whose
// mutants all survive, or that offers none (v := a → v := b,
// strings.ToUpper → ToLower, a shift count, a call's argument), would
// otherwise ride on the kills of the other lines of the fix: the ratio
// counts mutants, not what they judge.
//
// What is judged is found by position, not by line: a case whose body
// shares the label's line (`case "admin", "root": renewals = 1`) holds
// two statements, and a kill of the body's mutant says nothing of the
// label. Some statements are judged expression by expression: each value
// of an expression switch's case label (a kill of one value's mutant says
// nothing of the value written beside it), and a send's channel and sent
// value (a kill of the value's mutant says nothing of where it goes).

// stmtRange is what one judged unit of a Go file is: a statement whole, a
// compound one's header (if, for, switch, select, case: up to its body's
// brace or its colon), or one expression of a statement judged alone.
type stmtRange struct {
	path        string
	first, last int
	// part, when not empty, names the expression of the statement judged
	// on its own (`case value "root"`, `channel route(kind)`, `sent
	// value n`); first and last are then its lines. off is the byte
	// offset where the unit starts: a for's header and its init statement
	// share their lines, not their judgement.
	part string
	off  int
}

func (s stmtRange) String() string {
	at := fmt.Sprintf("%s:%d", s.path, s.first)
	if s.first != s.last {
		at = fmt.Sprintf("%s:%d-%d", s.path, s.first, s.last)
	}
	if s.part != "" {
		return fmt.Sprintf("%s (%s)", at, s.part)
	}
	return at
}

// stmtUnit is a statement of the index: its range, its byte span
// [from, to), and the expressions judged on their own inside it.
type stmtUnit struct {
	stmtRange
	from, to       int
	exempt, header bool
	// chooser marks the header of a switch without a tag or of a select
	// (see rewrittenUnits).
	chooser bool
	// early marks a return of nils that is not its function's last
	// statement: written anew, it skips what follows, and is judged.
	early bool
	parts []stmtUnit
}

// stmtIndex finds the statement judging a byte of one Go file.
type stmtIndex struct {
	units []stmtUnit
}

// indexStatements indexes the statements of the Go source src at path;
// src that does not parse gives nil.
//
// outer names what other files of the package declare at package level
// (packageNamesOf): a var statement declaring one of them shadows it.
func indexStatements(path string, src []byte, outer map[string]bool) *stmtIndex {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	ix := &stmtIndex{}
	// put adds the statement from..to (to: its last token's position).
	put := func(from, to token.Pos, exempt, header bool, parts []stmtUnit) {
		if !from.IsValid() || !to.IsValid() {
			return
		}
		ix.units = append(ix.units, stmtUnit{stmtRange: stmtRange{path: path, first: line(from), last: line(to), off: off(from)},
			from: off(from), to: off(to) + 1, exempt: exempt, header: header, parts: parts})
	}
	add := func(from, to token.Pos, exempt bool) { put(from, to, exempt, false, nil) }
	// header adds a compound statement's header: if, for, a case label.
	header := func(from, to token.Pos, exempt bool) { put(from, to, exempt, true, nil) }
	part := func(what string, e ast.Expr) stmtUnit {
		text := string(src[off(e.Pos()):off(e.End())])
		if len(text) > 40 || strings.Contains(text, "\n") {
			text = strings.Join(strings.Fields(text), " ")
			if len(text) > 40 {
				text = text[:37] + "..."
			}
		}
		return stmtUnit{stmtRange: stmtRange{path: path, first: line(e.Pos()), last: line(e.End()), part: what + " " + text, off: off(e.Pos())},
			from: off(e.Pos()), to: off(e.End())}
	}
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
	// are its case label's values, each on its own — `case 4:` → `case 5:`
	// moves behaviour to other values, and its values have mutants — and
	// a default with a body (default_never); coverage counts a label as
	// run whenever its switch runs.
	// The last statement of each function's body: a return of nils
	// there ends what would end anyway.
	finals := map[ast.Stmt]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		if body != nil && len(body.List) > 0 {
			finals[body.List[len(body.List)-1]] = true
		}
		return true
	})
	typeCases := map[*ast.CaseClause]bool{}
	typeGuards := map[ast.Stmt]bool{} // x := y.(type): the header's own
	shadowing := shadowingVars(f, outer)
	counters := accumulated(f)
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
			k := len(ix.units)
			header(n.Switch, n.Body.Lbrace, n.Tag == nil)
			if len(ix.units) > k {
				ix.units[k].chooser = n.Tag == nil
			}
		case *ast.TypeSwitchStmt:
			add(n.Switch, n.Body.Lbrace, true)
			typeGuards[n.Assign] = true
			for _, st := range n.Body.List {
				if cc, ok := st.(*ast.CaseClause); ok {
					typeCases[cc] = true
				}
			}
		case *ast.SelectStmt:
			k := len(ix.units)
			add(n.Select, n.Body.Lbrace, true)
			if len(ix.units) > k {
				ix.units[k].chooser = true
			}
		case *ast.CaseClause:
			// A default with a body is judged (default_never changes
			// it: case 7: → default: moves behaviour to every other
			// value); an empty one does nothing. A label's values are
			// judged each on its own.
			var parts []stmtUnit
			if !typeCases[n] {
				for _, e := range n.List {
					parts = append(parts, part("case value", e))
				}
			}
			// A case of types with an empty body is judged: written
			// anew, it takes the values of its types from the cases
			// below it, and does nothing with them.
			put(n.Case, n.Colon, len(n.List) == 0 && len(n.Body) == 0 || len(n.List) > 0 && typeCases[n] && len(n.Body) > 0, true, parts)
		case *ast.CommClause:
			// A case is judged by the receive or send it holds; a
			// default with a body as a switch's is (default_never). An
			// empty default is judged too, unlike a switch's: it makes
			// a waiting select return at once, and no mutant can take
			// that away, so one the patch writes is unjudged.
			header(n.Case, n.Colon, n.Comm != nil)
		case *ast.SendStmt:
			put(n.Pos(), n.End()-1, false, false, []stmtUnit{part("channel", n.Chan), part("sent value", n.Value)})
		case *ast.BlockStmt, *ast.LabeledStmt, *ast.EmptyStmt:
		case *ast.DeclStmt:
			// var v T is exempt unless it shadows a name of an enclosing
			// scope: then the unchanged code after it reads and writes the
			// new variable, not the outer one, and nothing judges that.
			// So is var n uint8 for a variable the code adds to (n++,
			// n += k): a counter in a narrow type wraps, and no operator
			// changes a type.
			d, _ := n.Decl.(*ast.GenDecl)
			zero := d != nil && d.Tok == token.VAR && !shadowing[n]
			for _, sp := range d.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok || len(vs.Values) > 0 || narrowCounter(vs, counters) {
					zero = false
				}
			}
			add(n.Pos(), n.End()-1, zero)
		case *ast.ReturnStmt:
			add(n.Pos(), n.End()-1, zeroResults(n))
			if zeroResults(n) && !finals[n] {
				ix.units[len(ix.units)-1].early = true
			}
		case ast.Stmt:
			add(n.Pos(), n.End()-1, typeGuards[n])
		}
		return true
	})
	return ix
}

// accumulated returns the names of f that ++, --, += or -= updates.
func accumulated(f *ast.File) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				out[id.Name] = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN {
				for _, e := range n.Lhs {
					if id, ok := ast.Unparen(e).(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// narrowCounter reports var v T with T an integer type narrower than int
// (int8 to int32, uint8 to uint32, byte) declaring a name the file adds to.
func narrowCounter(vs *ast.ValueSpec, counters map[string]bool) bool {
	id, ok := vs.Type.(*ast.Ident)
	if !ok {
		return false
	}
	switch id.Name {
	case "int8", "int16", "int32", "uint8", "uint16", "uint32", "byte":
	default:
		return false
	}
	for _, n := range vs.Names {
		if counters[n.Name] {
			return true
		}
	}
	return false
}

// at returns what judges byte off: the innermost statement holding it
// (of two with the same span, the judged one: a type switch's guard is
// its header's), or the expression of it judged alone that holds it. A
// byte of an exempt statement, or of none, is judged by nothing — but
// the return keyword of a return of nils before its function's end: one
// the patch writes there skips what follows (its removal judges it). whole
// is the statement itself where unit is one of its expressions.
func (ix *stmtIndex) at(off int) (unit, whole stmtRange, ok bool) {
	best := ix.innermost(off)
	if best < 0 || ix.units[best].exempt && !(ix.units[best].early && off == ix.units[best].from) {
		return stmtRange{}, stmtRange{}, false
	}
	s := ix.units[best]
	for _, p := range s.parts {
		if p.from <= off && off < p.to {
			return p.stmtRange, s.stmtRange, true
		}
	}
	return s.stmtRange, s.stmtRange, true
}

// rewrittenUnits returns the exempt statements of the Go source src
// (indexed by ix) that the patch rewrote in place, each with the lines
// where it did: one holding a byte of replaced (tokens written where the
// run removed others: return err → return nil, var n int → var n int8, a
// type switch's operand or a type case's type), or holding both ends of
// a deletion that wrote nothing. A zero return or a zero var the patch
// writes anew is judged by its uses and by what leads to it; one it
// rewrites changes behaviour where no mutant can reach, so it is judged,
// and nothing can kill it. (Signatures and declared types, which are in
// no statement, are compared declaration by declaration at checkout.)
// A tag or a condition deleted from the header of what is now a switch
// without a tag or a select (switch flag { → switch v := v * 2; {, if
// flag { → switch { case v > 5:) is such a rewrite even where the patch
// wrote something in its place or beside it: the cases stop being
// compared with it, and no mutant puts it back (see tagGone).
func (ix *stmtIndex) rewrittenUnits(src []byte, replaced, wrote [][2]int, cuts []deletion, runs []alignment) map[stmtRange][]int {
	if ix == nil {
		return nil
	}
	starts := lineStarts(src)
	lineOf := func(off int) int {
		i, _ := slices.BinarySearch(starts, off+1)
		return i
	}
	out := map[stmtRange][]int{}
	add := func(i, off int) {
		u := ix.rewrittenUnit(i)
		if l := lineOf(off); !slices.Contains(out[u], l) {
			out[u] = append(out[u], l)
		}
	}
	for _, sp := range replaced {
		for o := max(sp[0], 0); o < min(sp[1], len(src)); o++ {
			if strings.IndexByte(" \t\r\n,;()", src[o]) >= 0 {
				continue
			}
			if i := ix.innermost(o); i >= 0 && ix.units[i].exempt {
				add(i, o)
			}
		}
	}
	// Written in the header of a switch without a tag that lost one —
	// in place of tokens or beside them, a semicolon too: switch kind(v)
	// { → switch kind(v); { turns the tag into an init whose value is
	// dropped, and writes nothing else.
	for _, sp := range wrote {
		for o := max(sp[0], 0); o < min(sp[1], len(src)); o++ {
			if strings.IndexByte(" \t\r\n", src[o]) >= 0 {
				continue
			}
			for i, u := range ix.units {
				if u.chooser && u.from <= o && o < u.to && tagGone(runs, u.from, u.to) {
					add(i, o)
				}
			}
		}
	}
	for _, d := range cuts {
		if i := ix.innermost(d.Before); d.Before >= 0 && i >= 0 && ix.units[i].chooser && hasWords(d.Src) && tagGone(runs, ix.units[i].from, ix.units[i].to) {
			add(i, d.Before)
			continue
		}
		if d.Before < 0 || d.Wrote != [2]int{} {
			continue
		}
		if i := ix.innermost(d.Before); i >= 0 && ix.units[i].exempt && i == ix.innermost(d.Off) {
			add(i, d.Before)
		}
	}
	return out
}

// tagGone reports whether the header of a switch without a tag or of a
// select, whose keyword is at patch-side offset at, lost a tag or a
// condition the baseline had: its keyword is no baseline token (it took
// an if's place), or the baseline's header under the same keyword has
// tokens between its last top-level semicolon (or the keyword) and its
// brace. A keyword outside every compared run is the baseline's, and so
// is the header unless a run begins inside it (before end, its brace): the
// baseline's tokens there are not read, and count as a tag, fail-closed
// (switch kind(⏎v,⏎) { → switch kind(⏎v,⏎); {). A composite literal in the
// baseline's init reads as a tag: true, fail-closed.
func tagGone(runs []alignment, at, end int) bool {
	for _, a := range runs {
		if at < a.begin || at >= a.end {
			continue
		}
		ti := slices.IndexFunc(a.added, func(t tok) bool { return a.begin+t.off == at })
		if ti < 0 {
			return true
		}
		oj := -1
		for _, p := range a.pairs {
			if p[0] == ti {
				oj = p[1]
			}
		}
		if oj < 0 || a.old[oj].text() != a.added[ti].text() {
			return true
		}
		depth, last := 0, oj
		for j := oj + 1; j < len(a.old); j++ {
			switch a.old[j].text() {
			case "(", "[":
				depth++
			case ")", "]", "}":
				depth--
			case ";":
				if depth == 0 {
					last = j
				}
			case "{":
				if depth == 0 {
					return j > last+1
				}
				depth++
			}
		}
		return true
	}
	for _, a := range runs {
		if a.begin < end && at < a.end {
			return true
		}
	}
	return false
}

// judging is at's unit with its byte span: the expression judged alone
// holding off, else the statement.
func (ix *stmtIndex) judging(off int) (stmtRange, [2]int, bool) {
	i := ix.innermost(off)
	if i < 0 || ix.units[i].exempt {
		return stmtRange{}, [2]int{}, false
	}
	s := ix.units[i]
	for _, p := range s.parts {
		if p.from <= off && off < p.to {
			return p.stmtRange, [2]int{p.from, p.to}, true
		}
	}
	return s.stmtRange, [2]int{s.from, s.to}, true
}

// rewrittenAt returns the unit rewrittenUnits gives for the exempt
// statement holding byte off (innermost), if one does.
func (ix *stmtIndex) rewrittenAt(off int) (stmtRange, bool) {
	i := ix.innermost(off)
	if i < 0 || !ix.units[i].exempt {
		return stmtRange{}, false
	}
	return ix.rewrittenUnit(i), true
}

// rewrittenUnit is exempt unit i as rewrittenUnits names it.
func (ix *stmtIndex) rewrittenUnit(i int) stmtRange {
	u := ix.units[i].stmtRange
	u.part = "rewritten in place"
	return u
}

// innermost returns the index of the smallest unit holding byte off (of
// two with the same span, the judged one), -1 for none.
func (ix *stmtIndex) innermost(off int) int {
	best := -1
	for i, u := range ix.units {
		if u.from > off || off >= u.to {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		if b := ix.units[best]; u.to-u.from < b.to-b.from || u.to-u.from == b.to-b.from && b.exempt && !u.exempt {
			best = i
		}
	}
	return best
}

// statementsOf returns the units of the Go source src (indexed by ix)
// that judge what the patch wrote on lines, each with the lines where it
// wrote them. written holds the byte ranges of src the patch wrote,
// deleted the offsets of the tokens after those it deleted; all says
// every token of lines counts as written (a file the patch adds). A line
// the patch changed without a token written or deleted on it (see
// written) counts whole. Spacing and punctuation written (commas,
// semicolons, parentheses) judge nothing.
func (ix *stmtIndex) statementsOf(src []byte, lines []int, written [][2]int, deleted []int, all bool) map[stmtRange][]int {
	if ix == nil {
		return nil
	}
	starts := lineStarts(src)
	out := map[stmtRange][]int{}
	for _, l := range lines {
		if l < 1 || l > len(starts) {
			continue
		}
		from, to := starts[l-1], len(src)
		if l < len(starts) {
			to = starts[l]
		}
		var spans [][2]int
		var offs []int
		if !all {
			for _, w := range written {
				if w[0] < to && from < w[1] {
					spans = append(spans, [2]int{max(w[0], from), min(w[1], to)})
				}
			}
			for _, d := range deleted {
				if from <= d && d < to {
					offs = append(offs, d)
				}
			}
		}
		if len(spans) == 0 && len(offs) == 0 {
			spans = [][2]int{{from, to}}
		}
		for _, sp := range spans {
			for o := sp[0]; o < sp[1]; o++ {
				if strings.IndexByte(" \t\r\n,;()", src[o]) < 0 {
					offs = append(offs, o)
				}
			}
		}
		seen := map[stmtRange]bool{}
		for _, o := range offs {
			if u, _, ok := ix.at(o); ok && !seen[u] {
				seen[u] = true
				out[u] = append(out[u], l)
			}
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

// judgedStatement is a changed, covered unit of code (see stmtRange): a
// mutant inside it, on one of its changed lines, must be killed.
type judgedStatement struct {
	at    stmtRange
	lines []int    // its changed, covered lines
	sites []string // the keys (see siteKey) of the sites that judge it
	// restores are those of its sites that put back what the patch
	// replaced (mutant.OpRestore): each must be killed.
	restores []string
}

// statementList turns lines by unit into units ordered by path and
// position, their lines sorted, each with the sites of by (sites inside
// it: see stmtIndex.at) on one of its lines.
func statementList(by map[stmtRange][]int, sites map[stmtRange][]mutant.Site) []judgedStatement {
	out := make([]judgedStatement, 0, len(by))
	for at, lines := range by {
		ls := slices.Clone(lines)
		slices.Sort(ls)
		st := judgedStatement{at: at, lines: slices.Compact(ls)}
		for _, s := range sites[at] {
			if slices.Contains(st.lines, s.Line) {
				st.sites = append(st.sites, siteKey(s))
				if s.Operator == mutant.OpRestore {
					st.restores = append(st.restores, siteKey(s))
				}
			}
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b judgedStatement) int {
		return cmp.Or(strings.Compare(a.at.path, b.at.path), a.at.first-b.at.first, a.at.last-b.at.last, a.at.off-b.at.off, strings.Compare(a.at.part, b.at.part))
	})
	return out
}

// unkilledStatements returns the units none of whose sites was killed
// (outcomes: siteKey → the outcome of its mutant's job), in order: their
// mutants survived, were stillborn or unjudged, none was selected, or
// they offer none; and those with a restore site (what the patch
// replaced, put back) that was not killed.
func unkilledStatements(sts []judgedStatement, outcomes map[string]string) []judgedStatement {
	var out []judgedStatement
	killed := func(k string) bool { return outcomes[k] == jobs.OutcomeKilled }
	for _, st := range sts {
		if !slices.ContainsFunc(st.sites, killed) || !every(st.restores, killed) {
			out = append(out, st)
		}
	}
	return out
}

func every[T any](xs []T, f func(T) bool) bool {
	return !slices.ContainsFunc(xs, func(x T) bool { return !f(x) })
}

// statementFirst picks a mutant of every statement to run before the
// others: of the sites judging it, an offered one that changes
// more than a boundary, else one of the wider set's that does (a
// boundary, < → <=, is the mutant tests most often cannot tell apart:
// time.Since(start) > ttl), else a boundary. Equivalent sites are never
// picked.
func statementFirst(sts []judgedStatement, offered, all []mutant.Site) []mutant.Site {
	var out []mutant.Site
	for _, st := range sts {
		// Every restore of it runs: each must be killed.
		for _, s := range all {
			if s.Equivalent == "" && slices.Contains(st.restores, siteKey(s)) {
				out = append(out, s)
			}
		}
		on := func(s mutant.Site) bool {
			return s.Equivalent == "" && slices.Contains(st.sites, siteKey(s))
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

// shadowingVars returns the var statements of f that declare a name an
// enclosing scope of their function already declares (a parameter, a
// variable of an outer block declared before them), the package declares
// (in f or another of its files: outer), or the universe does (true, nil,
// len, error).
func shadowingVars(f *ast.File, outer map[string]bool) map[*ast.DeclStmt]bool {
	pkg := maps.Clone(outer)
	if pkg == nil {
		pkg = map[string]bool{}
	}
	maps.Copy(pkg, packageNames(f))
	type decl struct {
		pos   token.Pos
		scope ast.Node
	}
	decls := map[string][]decl{}
	type varStmt struct {
		stmt  *ast.DeclStmt
		names []string
		scope ast.Node
	}
	var vars []varStmt
	var stack []ast.Node
	innermost := func() ast.Node {
		for i := len(stack) - 1; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt,
				*ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncDecl, *ast.FuncLit:
				return stack[i]
			}
		}
		return nil
	}
	declare := func(scope ast.Node, ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil && id.Name != "_" {
				decls[id.Name] = append(decls[id.Name], decl{id.Pos(), scope})
			}
		}
	}
	fields := func(scope ast.Node, fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, fd := range fl.List {
			declare(scope, fd.Names...)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			fields(n, n.Recv)
			fields(n, n.Type.Params)
			fields(n, n.Type.Results)
		case *ast.FuncLit:
			fields(n, n.Type.Params)
			fields(n, n.Type.Results)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						declare(innermost(), id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				k, _ := n.Key.(*ast.Ident)
				v, _ := n.Value.(*ast.Ident)
				declare(n, k, v)
			}
		case *ast.DeclStmt:
			if gd, ok := n.Decl.(*ast.GenDecl); ok {
				var names []string
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						declare(innermost(), vs.Names...)
						for _, id := range vs.Names {
							names = append(names, id.Name)
						}
					}
				}
				if gd.Tok == token.VAR {
					vars = append(vars, varStmt{n, names, innermost()})
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	out := map[*ast.DeclStmt]bool{}
	for _, v := range vars {
		for _, name := range v.names {
			if pkg[name] || pkg[dotImport] || types.Universe.Lookup(name) != nil {
				out[v.stmt] = true
			}
			for _, d := range decls[name] {
				if v.scope != nil && d.scope != nil && d.scope != v.scope && d.pos < v.stmt.Pos() &&
					d.scope.Pos() <= v.scope.Pos() && v.scope.End() <= d.scope.End() {
					out[v.stmt] = true
				}
			}
		}
	}
	return out
}

// packageNames returns the names f declares at package level: its
// constants, variables, types and functions (not methods), and the names
// its imports bind.
func packageNames(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						out[n.Name] = true
					}
				case *ast.TypeSpec:
					out[sp.Name.Name] = true
				case *ast.ImportSpec:
					switch {
					case sp.Name != nil && sp.Name.Name == ".":
						// Every exported name of the package is in
						// scope, and which they are is not known here.
						out[dotImport] = true
					case sp.Name != nil:
						out[sp.Name.Name] = true
					default:
						if ip, err := strconv.Unquote(sp.Path.Value); err == nil {
							for _, n := range importNames(ip) {
								out[n] = true
							}
						}
					}
				}
			}
		}
	}
	delete(out, "_")
	return out
}

// dotImport stands, in a set of package-level names, for a dot import:
// every name may be the package's.
const dotImport = "."

// importNames returns the names an import of path may bind without a
// name of its own: the package's name is its clause's, which is usually
// the path's last element — but math/rand/v2 binds rand, gopkg.in/yaml.v3
// yaml, github.com/x/go-foo foo (or go-foo's spelling as written).
func importNames(ip string) []string {
	elems := strings.Split(ip, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && isMajor(last) {
		last = elems[len(elems)-2]
	}
	out := []string{last}
	if i := strings.LastIndex(last, ".v"); i > 0 && isMajor(last[i+1:]) {
		last = last[:i]
		out = append(out, last)
	}
	return append(out, strings.TrimPrefix(last, "go-"), strings.TrimSuffix(last, "-go"), strings.ReplaceAll(last, "-", ""), strings.ReplaceAll(last, "-", "_"))
}

// isMajor reports whether s is a major version element: v2, v10.
func isMajor(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// packageNamesOf returns the names the Go files (name → source) declare at
// package level (see packageNames); files that do not parse add none.
func packageNamesOf(files map[string][]byte) map[string]bool {
	out := map[string]bool{}
	for name, src := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		maps.Copy(out, packageNames(f))
	}
	return out
}
