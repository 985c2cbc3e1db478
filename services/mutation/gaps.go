package mutation

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// A change no statement holds is judged by nothing the statements offer:
// an else written between two ifs (superadmins now renew 9 times, not
// once), a label moved to the inner loop (continue outer now continues
// it), lines removed with none added in their place (a clamp deleted), a
// statement's tokens deleted across a line break. No expression holds
// them, so no restore of an expression puts them back, and the kills of
// the statements beside them say nothing of them.
//
// Each such change is a gap: a unit of its own (see stmtRange), judged
// only by a statement restore (mutant.Restore.Stmt) that puts the
// baseline's text back into the smallest statement or block holding the
// change — that change, and the other gaps inside the same statement (a
// label moved is a deletion and a write; neither compiles alone), and
// nothing else the patch changed there: a restore that also undid the fix
// would be killed by the fix's own test. When no restore can be written,
// the gap has no site, and a unit without a killed site leaves the run
// INCONCLUSIVE.

// maxGapChain bounds the statements tried per gap, innermost first.
const maxGapChain = 5

// gap is one change outside every statement (see above).
type gap struct {
	at     int    // where its site stands: the first byte changed, or the token after a deletion
	lo, hi int    // the patch's bytes a restoring statement must hold; lo == hi: a point between lines
	edit   [2]int // the patch's bytes the restore replaces
	text   string // with what stood there in the baseline
	// alt and altText, when set, are another place to put it back: a
	// deletion stood after the token before it or before the one after.
	alt     *[2]int
	altText string
	what    string // the change, for the unit's name
	// maybe marks a gap that may be no change at all (see
	// removal.Maybe): without a restore that compiles it is not judged.
	maybe bool
	// moved, for lines deleted, is the statement the patch wrote whole in
	// the same function with the same tokens: the lines moved there. The
	// restore puts them back and takes that copy out — the baseline's
	// order — rather than running them twice, which any test of what
	// they do "notices" (or none can, for a store run twice).
	moved *[2]int
}

// gapsOf returns the gaps of the Go source src (a patch-side file indexed
// by ix): its written tokens in no statement (braces aside: a block's
// statements carry it), its deletions that cross from one statement to
// another or out of every statement, and its removed lines, each inside
// a function's body. A gap whose restore would write back the tokens
// that stand there already (a comment removed) is none.
func gapsOf(src []byte, ix *stmtIndex, runs []alignment, wrote [][2]int, dels []deletion, removed []removal, restores []mutant.Restore) []gap {
	if ix == nil {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var bodies [][2]int
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				bodies = append(bodies, [2]int{off(n.Body.Lbrace), off(n.Body.End())})
			}
		case *ast.FuncLit:
			bodies = append(bodies, [2]int{off(n.Body.Lbrace), off(n.Body.End())})
		}
		return true
	})
	inBody := func(o int) bool {
		return slices.ContainsFunc(bodies, func(b [2]int) bool { return b[0] < o && o < b[1] })
	}
	// An else after a body that ends in a return, a branch or a panic
	// changes nothing written or taken out: by the else keyword's
	// offset, and by the offset of the if after an else deleted there.
	ends := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if is, ok := n.(*ast.IfStmt); ok && terminates(is.Body) {
			if is.Else != nil {
				for o := off(is.Body.End()); o < off(is.Else.Pos()); o++ {
					ends[o] = true
				}
			}
			ends[off(is.Body.End())-1] = true // its closing brace
		}
		return true
	})
	toks, _ := goTokens(src)
	// held reports whether an expression restore holds bytes lo..hi: a
	// deletion inside it is put back by it.
	held := func(lo, hi int) bool {
		return slices.ContainsFunc(restores, func(r mutant.Restore) bool { return !r.Stmt && r.Start <= lo && hi <= r.End })
	}
	var out []gap
	for _, w := range wrote {
		lo, hi := -1, -1
		for _, t := range toks {
			o := t.off
			if o < w[0] || o >= w[1] || strings.Contains(",;(){}", t.text()) || ix.innermost(o) >= 0 || !inBody(o) {
				continue
			}
			if t.text() == "else" && ends[o] {
				continue
			}
			if lo < 0 {
				lo = o
			}
			hi = t.end
		}
		if lo < 0 {
			continue
		}
		// What stood there, or nothing: a statement's end, so that an
		// else taken out leaves two statements. What stood there may
		// be no such token (the 0 of w = 0 where the patch wrote } else
		// {): then nothing, tried next.
		text := ";"
		for _, r := range runs {
			if t, ok := r.baselineOf(lo, hi); ok {
				text = t
				break
			}
		}
		g := gap{at: lo, lo: lo, hi: hi, edit: [2]int{lo, hi}, text: text, what: "written outside any statement: " + clipText(string(src[lo:hi]))}
		if text != ";" {
			g.alt, g.altText = &[2]int{lo, hi}, ";"
		}
		out = append(out, g)
	}
	for _, d := range dels {
		if d.Wrote != [2]int{} && !d.Cut && inBody(d.Wrote[0]) && crossesStatements(d.Src) && replacedDropsRead(src, max(d.Off, d.Wrote[1]), d.Src, runs) {
			// Tokens of more than one statement replaced by a few (`n
			// := v / 2; if !flag { n = 0 }` → `m := v + 0`): no
			// expression's restore puts them back, and what they did
			// went with a variable the function no longer has. Judged,
			// with a restore that does not parse: unjudged.
			out = append(out, gap{at: d.Wrote[0], lo: d.Wrote[0], hi: d.Wrote[1], edit: d.Wrote, text: d.Src,
				what: "deleted: " + clipText(d.Src) + ", replaced by " + clipText(string(src[d.Wrote[0]:d.Wrote[1]]))})
			continue
		}
		if d.Wrote != [2]int{} || d.Cut || d.Off < 0 || d.Off >= len(src) || !hasWords(d.Src) {
			continue
		}
		before := d.Before
		if before < 0 {
			// Deleted where the run begins (defer mu.Unlock() →
			// mu.Unlock()): the token before is the line before's.
			for _, t := range toks {
				if t.end <= d.Off {
					before = t.end - 1
				}
			}
		}
		if before < 0 || !inBody(before) {
			continue
		}
		if b, a := ix.innermost(before), ix.innermost(d.Off); b >= 0 && b == a && held(before, d.Off+1) {
			continue // inside one statement, whose restores put it back
		}
		if ends[before] && strings.HasPrefix(strings.TrimSpace(d.Src), "else") {
			continue // an else deleted after a body that does not go on
		}
		// Put back after the token before (} else), or before the token
		// after (defer mu.Unlock()): whichever parses.
		// Between kept tokens, judged where, put back, it compiles: in
		// a line rewritten whole, the alignment scatters deletions that
		// are none. Where the run begins, judged (defer dropped).
		out = append(out, gap{at: d.Off, lo: before, hi: d.Off + 1, edit: [2]int{before + 1, before + 1}, text: " " + d.Src + " ",
			alt: &[2]int{d.Off, d.Off}, altText: d.Src + " ", what: "deleted: " + clipText(d.Src), maybe: d.Before >= 0})
	}
	// The statement lists, to find what runs before a removal's place.
	type list struct {
		span  [2]int
		stmts []ast.Stmt
	}
	var lists []list
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			lists = append(lists, list{[2]int{off(n.Lbrace), off(n.End())}, n.List})
		case *ast.CaseClause:
			lists = append(lists, list{[2]int{off(n.Colon), off(n.End())}, n.Body})
		case *ast.CommClause:
			lists = append(lists, list{[2]int{off(n.Colon), off(n.End())}, n.Body})
		}
		return true
	})
	// unreachable reports whether lines put back at o would follow a
	// statement that never goes on to the next (a return, or an if
	// whose branches all return): put back there, they never run.
	unreachable := func(o int) bool {
		var in *list
		for i := range lists {
			if l := &lists[i]; l.span[0] < o && o < l.span[1] && (in == nil || l.span[1]-l.span[0] < in.span[1]-in.span[0]) {
				in = l
			}
		}
		if in == nil {
			return false
		}
		var last ast.Stmt
		for _, st := range in.stmts {
			if off(st.End()) <= o {
				last = st
			}
		}
		return last != nil && endsFlow(last)
	}
	// The statements the patch wrote whole, by function body: where
	// deleted lines may have moved.
	type written struct {
		span [2]int
		body [2]int
	}
	// innermost is the innermost function body holding o.
	innermost := func(o int) (body [2]int) {
		for _, b := range bodies {
			if b[0] < o && o < b[1] && (body == [2]int{} || b[1]-b[0] < body[1]-body[0]) {
				body = b
			}
		}
		return body
	}
	var wholes []written
	if len(removed) > 0 {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(ast.Stmt)
			if !ok {
				return true
			}
			sp := [2]int{off(st.Pos()), off(st.End())}
			// Written whole: each of its tokens is one the patch wrote.
			whole := true
			for _, t := range toks {
				if t.off >= sp[0] && t.end <= sp[1] && t.text() != ";" && !slices.ContainsFunc(wrote, func(w [2]int) bool { return w[0] <= t.off && t.end <= w[1] }) {
					whole = false
					break
				}
			}
			if whole {
				if b := innermost(sp[0]); b != [2]int{} {
					wholes = append(wholes, written{sp, b})
				}
			}
			return true
		})
	}
	// movedTo is the statement the patch wrote whole, in the innermost
	// function body holding at, with text's tokens.
	movedTo := func(at int, text string) *[2]int {
		body := innermost(at)
		for _, w := range wholes {
			if w.body == body && sameTokens(string(src[w.span[0]:w.span[1]]), text) {
				return &w.span
			}
		}
		return nil
	}
	for _, r := range removed {
		if r.At <= 0 || r.At >= len(src) || !inBody(r.At) || !hasTokens(r.Src) || unreachable(r.At) {
			continue
		}
		at := r.At
		for at < len(src) && strings.IndexByte(" \t\r\n", src[at]) >= 0 {
			at++
		}
		out = append(out, gap{at: at, lo: r.At, hi: r.At, edit: [2]int{r.At, r.At}, text: r.Src, what: linesDeleted + clipText(r.Src), maybe: r.Maybe,
			moved: movedTo(r.At, r.Src)})
	}
	slices.SortFunc(out, func(a, b gap) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.lo, b.lo)) })
	return out
}

// gapRestores returns the statement restores of the gaps of the Go source
// src, a patch-side file with base name name: per gap, the statements and
// blocks holding it, innermost first, each with its text and every gap's
// edit inside it applied, as one group numbered from next; and the gaps
// to judge. A gap whose innermost restore writes the tokens standing
// there already changed nothing a test could notice, and is neither
// restored nor judged; one that no statement holds is judged and has no
// restore.
func gapRestores(name string, src []byte, gaps []gap, next int) ([]mutant.Restore, []gap, int) {
	if len(gaps) == 0 {
		return nil, nil, next
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, gaps, next // judged, and none restored
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var stmts [][2]int
	clauses := map[ast.Node]bool{} // the bodies of switches and selects: lists of clauses
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			clauses[n.Body] = true
		case *ast.TypeSwitchStmt:
			clauses[n.Body] = true
		case *ast.SelectStmt:
			clauses[n.Body] = true
		}
		switch n.(type) {
		case *ast.CaseClause, *ast.CommClause:
		case ast.Stmt:
			if !clauses[n] {
				stmts = append(stmts, [2]int{off(n.Pos()), off(n.End())})
			}
		}
		return true
	})
	slices.SortFunc(stmts, func(a, b [2]int) int { return cmp.Compare(a[1]-a[0], b[1]-b[0]) })
	stmts = slices.Compact(stmts)
	holds := func(s [2]int, lo, hi int) bool {
		if lo == hi {
			return s[0] < lo && lo < s[1]
		}
		return s[0] <= lo && hi <= s[1]
	}
	var out []mutant.Restore
	var kept []gap
	for _, g := range gaps {
		// The gap alone reverted first; then with the other gaps inside
		// the statement (a label moved compiles only whole). A restore
		// that reverts another gap too is tried last: that gap may be
		// the fix, whose test kills it.
		tried, noop := 0, false
		seen := map[[2]int]string{}
		// The other gaps it may be reverted with: those of the innermost
		// statement holding it, tokens deleted anywhere and a label's
		// line (a label moved compiles only whole), not other lines
		// deleted elsewhere. Such lines may be the fix, and a restore
		// that puts the fix back dies to the fix's own test whatever the
		// tests notice of this gap (an else written beside the deleted
		// line the fix was).
		near := gaps
		for _, s := range stmts {
			if holds(s, g.lo, g.hi) {
				near = slices.DeleteFunc(slices.Clone(gaps), func(x gap) bool {
					return !holds(s, x.lo, x.hi) && strings.HasPrefix(x.what, linesDeleted) && !labelOnly(x.text)
				})
				break
			}
		}
		variants := [][]gap{{g}, near}
		if g.moved != nil {
			// Moved: back where they stood, and out of where they went.
			variants = [][]gap{{g, {at: g.moved[0], lo: g.moved[0], hi: g.moved[1], edit: *g.moved}}}
		}
		if g.alt != nil {
			a := g
			a.edit, a.text, a.alt = *g.alt, g.altText, nil
			others := slices.DeleteFunc(slices.Clone(near), func(x gap) bool { return x.at == g.at && x.lo == g.lo })
			variants = [][]gap{{g}, {a}, near, append(others, a)}
		}
		for _, with := range variants {
			n := 0
			for _, s := range stmts {
				if n == maxGapChain || noop {
					break
				}
				if !holds(s, g.lo, g.hi) || g.moved != nil && !(s[0] <= g.moved[0] && g.moved[1] <= s[1]) {
					continue
				}
				text, ok := applyGaps(src, s, with)
				if !ok {
					continue
				}
				if tried == 0 && sameTokens(text, string(src[s[0]:s[1]])) {
					noop = true
					break // nothing a test could notice
				}
				n++
				if t, dup := seen[s]; dup && t == text {
					continue
				}
				seen[s] = text
				out = append(out, mutant.Restore{File: name, Start: s[0], End: s[1], Text: text, Group: next, Stmt: true, At: g.at})
				tried++
			}
		}
		if tried > 0 {
			next++
		}
		if !noop {
			kept = append(kept, g)
		}
	}
	return out, kept, next
}

// applyGaps returns the text of src's range s with the edit of every gap
// inside it applied; ok is false when two of them overlap.
func applyGaps(src []byte, s [2]int, gaps []gap) (string, bool) {
	var in []gap
	for _, g := range gaps {
		inside := s[0] <= g.edit[0] && g.edit[1] <= s[1]
		if g.edit[0] == g.edit[1] {
			inside = s[0] < g.edit[0] && g.edit[0] < s[1]
		}
		if inside {
			in = append(in, g)
		}
	}
	slices.SortFunc(in, func(a, b gap) int { return cmp.Compare(a.edit[0], b.edit[0]) })
	var b strings.Builder
	at := s[0]
	for _, g := range in {
		if g.edit[0] < at {
			return "", false
		}
		b.Write(src[at:g.edit[0]])
		b.WriteString(g.text)
		at = g.edit[1]
	}
	b.Write(src[at:s[1]])
	return b.String(), true
}

// hasTokens reports whether the Go text holds a token (a comment is
// none).
func hasTokens(text string) bool {
	ts, ok := goTokens([]byte(text))
	return !ok || len(ts) > 0
}

// hasWords reports whether the Go text holds a token other than
// brackets and separators: a lone ] the alignment left over when a line
// was rewritten into several deletes nothing.
func hasWords(text string) bool {
	ts, ok := goTokens([]byte(text))
	return !ok || slices.ContainsFunc(ts, func(t tok) bool { return !strings.Contains("()[]{},;:.", t.text()) })
}

// sameTokens reports whether the Go texts a and b hold the same tokens.
func sameTokens(a, b string) bool {
	ta, okA := goTokens([]byte(a))
	tb, okB := goTokens([]byte(b))
	return okA && okB && slices.EqualFunc(ta, tb, func(x, y tok) bool { return x.key == y.key })
}

// clipText is text on one line, at most 40 bytes of it.
func clipText(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	if len(s) > 40 {
		i := 37
		for i > 0 && s[i]&0xC0 == 0x80 {
			i--
		}
		s = s[:i] + "..."
	}
	return s
}

// terminates reports whether a block's last statement leaves it for good
// (see endsFlow).
func terminates(b *ast.BlockStmt) bool {
	return b != nil && len(b.List) > 0 && endsFlow(b.List[len(b.List)-1])
}

// endsFlow reports whether control never passes from the statement st to
// the next: a return, a break, continue or goto, a call of panic, a block
// ending in one, an if whose branches all end in one.
func endsFlow(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BlockStmt:
		return terminates(st)
	case *ast.LabeledStmt:
		return endsFlow(st.Stmt)
	case *ast.IfStmt:
		return st.Else != nil && terminates(st.Body) && endsFlow(st.Else)
	}
	return false
}

// labelOnly reports whether the Go text is a label and nothing else.
func labelOnly(text string) bool {
	toks := scanGo([]byte(text))
	for len(toks) > 0 && toks[len(toks)-1].tok == token.SEMICOLON {
		toks = toks[:len(toks)-1]
	}
	return len(toks) == 2 && toks[0].tok == token.IDENT && toks[1].tok == token.COLON
}

// linesDeleted begins the description of a gap of whole lines removed.
const linesDeleted = "lines deleted: "

// losesName reports whether removed, lines the patch removed at patch-side
// offset at of the Go source src that may have been rewritten rather than
// deleted (gap.maybe), reads a local name that is not in scope there any
// more, or a name the function around at no longer spells at all: the
// guard `if !flag { n = 0 }` dropped with n (`n := v / 2 … if n > 5` → `if
// v > 5`), the check `if err != nil { return -1 }` dropped with err (`n,
// err :=` → `n, _ :=`), even where a later `y, err :=` spells err again.
// Put back alone such lines do not compile, yet what they read is gone
// from that place, not rewritten into it: they were deleted, and are
// judged like any deletion. A name the lines only assign (n of `n = 0`,
// `n := v / 2`), a field or method after a dot, a key or label before a
// colon, and the predeclared names count for nothing; a package-level
// name the function still spells (a call inlined where a variable held
// its value) keeps the lines a rewrite, and so does a guard folded into a
// condition (`if flag && v > 5` still reads flag).
//
// Lines that only assign a variable the function no longer has (the
// guard `if !flag { n = 0 }` of n, renamed m and halved no more) are a
// rewrite only if what they read went somewhere: a name they read that
// the patch's runs (runs) over that variable's lines spell fewer times
// than the lines they replaced did was read there and is read nowhere
// now — the guard dropped, though flag is still read further down.
// Folded into a condition (`if flag && m > 5`), it is spelled as often as
// before.
func losesName(src []byte, at int, removed string, runs []alignment) bool {
	c, ok := removedAt(src, at, removed)
	if !ok {
		return c.failed
	}
	for _, name := range c.read {
		switch {
		case c.inScope[name]:
		case c.local[name] || !c.spelled[name]:
			return true
		}
	}
	return c.dropsRead(runs)
}

// removedCode is Go code the patch removed, read against the function of
// the patch-side source where it stood.
type removedCode struct {
	text           string
	read           []string        // the names it reads (readNames)
	fn             ast.Node        // the innermost function around it
	inScope, local map[string]bool // see scopeAt
	spelled        map[string]bool // the identifiers fn spells
	failed         bool            // the source did not parse
}

// removedAt reads removed, code the patch removed at patch-side offset at
// of the Go source src. ok is false when there is nothing to judge it by:
// it reads no name, no function holds at, or src does not parse (failed
// set: judge it, fail-closed).
func removedAt(src []byte, at int, removed string) (c removedCode, ok bool) {
	c.text, c.read = removed, readNames(removed)
	if len(c.read) == 0 {
		return c, false
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		c.failed = true
		return c, false
	}
	if c.fn = funcAround(f, at); c.fn == nil {
		return c, false
	}
	c.inScope, c.local = scopeAt(c.fn, at)
	c.spelled = spelledIn(src, c.fn)
	return c, true
}

// dropsRead reports whether the removed code assigns a variable its
// function no longer spells and reads a name in scope where it stood that
// the patch's runs inside the function that replaced that variable's
// lines — its definition, its uses, the removed code itself — spell fewer
// times than the baseline's lines there did (see losesName). A name
// spelled anew in another statement (`if flag {` rewritten `if flag &&
// flag {`) says nothing of where the removed code's value went.
func (c removedCode) dropsRead(runs []alignment) bool {
	var gone []string
	for _, name := range assignedNames(c.text) {
		if !c.inScope[name] && !c.spelled[name] {
			gone = append(gone, token.IDENT.String()+" "+name)
		}
	}
	if len(gone) == 0 {
		return false
	}
	// How often those runs spell each name, on the patch's side less
	// the baseline's.
	net := map[string]int{}
	lo, hi := int(c.fn.Pos())-1, int(c.fn.End())-1
	for _, r := range runs {
		if r.end <= lo || r.begin >= hi || !slices.ContainsFunc(r.old, func(t tok) bool { return slices.Contains(gone, t.key) }) {
			continue
		}
		for _, t := range r.added {
			net[t.key]++
		}
		for _, t := range r.old {
			net[t.key]--
		}
	}
	return slices.ContainsFunc(c.read, func(name string) bool { return c.inScope[name] && net[token.IDENT.String()+" "+name] < 0 })
}

// replacedDropsRead reports whether removed, tokens of the Go source src
// that the patch replaced by others, standing before patch-side offset
// at, drop a read with the variable they assigned (see dropsRead). A
// name they read that the function no longer spells says nothing here:
// the written tokens may be its inlined value.
func replacedDropsRead(src []byte, at int, removed string, runs []alignment) bool {
	c, ok := removedAt(src, at, removed)
	if !ok {
		return c.failed
	}
	return c.dropsRead(runs)
}

// funcAround returns the innermost function declaration or literal of f
// whose body holds byte offset at, or nil.
func funcAround(f *ast.File, at int) ast.Node {
	var fn ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && int(n.Body.Lbrace)-1 <= at && at <= int(n.Body.Rbrace) {
				fn = n
			}
		case *ast.FuncLit:
			if int(n.Body.Lbrace)-1 <= at && at <= int(n.Body.Rbrace) {
				fn = n
			}
		}
		return true
	})
	return fn
}

// spelledIn returns the identifiers the source of fn, a node of a file
// parsed from src without a base offset, spells.
func spelledIn(src []byte, fn ast.Node) map[string]bool {
	spelled := map[string]bool{}
	for _, t := range scanGo(src[fn.Pos()-1 : fn.End()-1]) {
		if t.tok == token.IDENT {
			spelled[t.lit] = true
		}
	}
	return spelled
}

// crossesStatements reports whether the Go source text holds the end of
// one statement and more: a line break that ends a statement, a
// semicolon or a brace.
func crossesStatements(text string) bool {
	toks := scanGo([]byte(strings.TrimSpace(text)))
	return slices.ContainsFunc(toks, func(t scanned) bool {
		return t.tok == token.SEMICOLON || t.tok == token.LBRACE || t.tok == token.RBRACE
	})
}

// assignedNames returns the names the Go statements text assigns or
// defines at the top level of a statement: n of `n = 0` and `n, err :=`.
func assignedNames(text string) []string {
	toks := scanGo([]byte(text))
	var out []string
	start := 0
	for i, t := range toks {
		switch t.tok {
		case token.SEMICOLON, token.LBRACE, token.RBRACE:
			start = i + 1
			continue
		case token.ASSIGN, token.DEFINE, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN,
			token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN, token.AND_NOT_ASSIGN:
		default:
			continue
		}
		for j := start; j < i; j++ {
			if toks[j].tok == token.IDENT && toks[j].lit != "_" && (j == start || toks[j-1].tok == token.COMMA) && (j+1 == i || toks[j+1].tok == token.COMMA) && !slices.Contains(out, toks[j].lit) {
				out = append(out, toks[j].lit)
			}
		}
	}
	return out
}

// scopeAt returns the names declared in the function fn (a *ast.FuncDecl or
// *ast.FuncLit) that are in scope at byte offset at — its receiver,
// parameters and results, and what the statements before at in each
// block around it declare, with the inits of the statements around it —
// and every name fn declares anywhere.
func scopeAt(fn ast.Node, at int) (inScope, local map[string]bool) {
	inScope, local = map[string]bool{}, map[string]bool{}
	declare := func(into map[string]bool, ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil && id.Name != "_" {
				into[id.Name] = true
			}
		}
	}
	fields := func(into map[string]bool, fls ...*ast.FieldList) {
		for _, fl := range fls {
			if fl == nil {
				continue
			}
			for _, f := range fl.List {
				declare(into, f.Names...)
			}
		}
	}
	// What one statement declares in the scope it stands in.
	declares := func(st ast.Stmt) []*ast.Ident {
		var out []*ast.Ident
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						out = append(out, id)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						out = append(out, sp.Names...)
					case *ast.TypeSpec:
						out = append(out, sp.Name)
					}
				}
			}
		case *ast.LabeledStmt:
			return nil
		}
		return out
	}
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		fields(inScope, fn.Recv, fn.Type.Params, fn.Type.Results)
		fields(local, fn.Recv, fn.Type.Params, fn.Type.Results)
		body = fn.Body
	case *ast.FuncLit:
		fields(inScope, fn.Type.Params, fn.Type.Results)
		fields(local, fn.Type.Params, fn.Type.Results)
		body = fn.Body
	}
	holds := func(n ast.Node) bool { return n != nil && int(n.Pos())-1 <= at && at <= int(n.End())-1 }
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its names are its own
		case ast.Stmt:
			declare(local, declares(n)...)
			switch n := n.(type) {
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					k, _ := n.Key.(*ast.Ident)
					v, _ := n.Value.(*ast.Ident)
					declare(local, k, v)
					if holds(n.Body) {
						declare(inScope, k, v)
					}
				}
			case *ast.IfStmt:
				if n.Init != nil && (holds(n.Body) || holds(n.Else)) {
					declare(inScope, declares(n.Init)...)
				}
			case *ast.ForStmt:
				if n.Init != nil && holds(n.Body) {
					declare(inScope, declares(n.Init)...)
				}
			case *ast.SwitchStmt:
				if n.Init != nil && holds(n.Body) {
					declare(inScope, declares(n.Init)...)
				}
			case *ast.TypeSwitchStmt:
				if holds(n.Body) {
					if n.Init != nil {
						declare(inScope, declares(n.Init)...)
					}
					declare(inScope, declares(n.Assign)...)
				}
			}
		}
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
			if n.Comm != nil && holds(n) {
				declare(inScope, declares(n.Comm)...)
			}
		}
		if list != nil && holds(n) {
			for _, st := range list {
				if int(st.End())-1 <= at {
					declare(inScope, declares(st)...)
				}
			}
		}
		return true
	})
	return inScope, local
}

// readNames returns the names the Go statements text reads: identifiers
// that are not only the targets of an assignment or a definition, not a
// selector's field or method, not a key or label before a colon, and not
// predeclared.
func readNames(text string) []string {
	toks := scanGo([]byte(text))
	var out []string
	start := 0 // the current statement's first token
	for i, t := range toks {
		switch t.tok {
		case token.SEMICOLON, token.LBRACE, token.RBRACE:
			start = i + 1
			continue
		case token.IDENT:
		default:
			continue
		}
		if i > 0 && toks[i-1].tok == token.PERIOD || i+1 < len(toks) && (toks[i+1].tok == token.COLON || toks[i+1].tok == token.INC || toks[i+1].tok == token.DEC) {
			continue // a field, a key or label, or a counter only stepped (i++)
		}
		if types.Universe.Lookup(t.lit) != nil || t.lit == "_" {
			continue
		}
		// A target: before the statement's assignment, at its top level.
		target := false
		depth := 0
		for j := start; j < len(toks); j++ {
			k := toks[j].tok
			if k == token.LPAREN || k == token.LBRACK {
				depth++
			} else if k == token.RPAREN || k == token.RBRACK {
				depth--
			}
			if k == token.SEMICOLON || k == token.LBRACE || k == token.RBRACE {
				break
			}
			if depth == 0 && (k == token.ASSIGN || k == token.DEFINE) {
				target = j > i && (i+1 == j || toks[i+1].tok == token.COMMA)
				break
			}
		}
		if !target && !slices.Contains(out, t.lit) {
			out = append(out, t.lit)
		}
	}
	return out
}

// scanned is one token of Go source text.
type scanned struct {
	tok token.Token
	lit string
}

// scanGo scans src as Go, the semicolons at line ends included,
// comments and errors ignored.
func scanGo(src []byte) []scanned {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var out []scanned
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		out = append(out, scanned{tok, lit})
	}
}

// droppedInput is a parameter, receiver or named result of a function
// that the code the patch removed from it read and that its body no
// longer spells, at the patch-side offset where that code stood.
type droppedInput struct {
	at   int
	name string
}

// droppedInputs finds the inputs of the functions of the Go source src
// that the deletions and removed lines of the patch stop reading: a guard
// dropped with the variable it set (`n := v / 2; if !flag { n = 0 }; if
// n > 5` → `m := v; if m > 5`) reads flag no more. Put back, such code
// does not compile (its variable is gone), so no restore judges the
// deletion, and what the tests see of the rest can never notice it. A
// local variable gone is no input: a rename leaves its uses spelled
// another way.
func droppedInputs(src []byte, dels []deletion, removed []removal) []droppedInput {
	type removedAt struct {
		at   int
		text string
	}
	var all []removedAt
	for _, d := range dels {
		all = append(all, removedAt{d.Off, d.Src})
	}
	for _, r := range removed {
		all = append(all, removedAt{r.At, r.Src})
	}
	if len(all) == 0 {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []droppedInput
	seen := map[string]bool{}
	for _, r := range all {
		read := readNames(r.text)
		if len(read) == 0 {
			continue
		}
		var ft *ast.FuncType
		var recv *ast.FieldList
		var body *ast.BlockStmt
		switch fn := funcAround(f, r.at).(type) {
		case *ast.FuncDecl:
			ft, recv, body = fn.Type, fn.Recv, fn.Body
		case *ast.FuncLit:
			ft, body = fn.Type, fn.Body
		default:
			continue
		}
		inputs := map[string]bool{}
		for _, fl := range []*ast.FieldList{recv, ft.Params, ft.Results} {
			if fl == nil {
				continue
			}
			for _, fd := range fl.List {
				for _, id := range fd.Names {
					inputs[id.Name] = true
				}
			}
		}
		spelled := map[string]bool{}
		for _, t := range scanGo(src[body.Lbrace-1 : body.Rbrace]) {
			if t.tok == token.IDENT {
				spelled[t.lit] = true
			}
		}
		for _, name := range read {
			key := fmt.Sprintf("%d:%s", body.Lbrace, name)
			if inputs[name] && !spelled[name] && !seen[key] {
				seen[key] = true
				out = append(out, droppedInput{at: r.at, name: name})
			}
		}
	}
	return out
}
