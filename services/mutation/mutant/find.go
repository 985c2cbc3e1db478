package mutant

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// rewrite says how Schemata rewrites a candidate's range.
type rewrite int

const (
	// rewriteNode replaces the node, rendering its operands itself; the
	// candidates that rewrite one node are its alternatives.
	rewriteNode rewrite = iota
	// rewriteWrap wraps the already rendered text of the range.
	rewriteWrap
	// rewriteVariant is a data mutant: an edit of a package-level value,
	// selected at run time among the value's variants.
	rewriteVariant
	// rewriteDecl turns a constant declaration's spec into a variable
	// (added by Schemata for the constants it switches).
	rewriteDecl
	// rewriteEmbed is a data mutant of an embedded file: the variable is
	// initialized with the file's content, or the running mutant's
	// variant of it.
	rewriteEmbed
)

// candidate is a site together with what Schemata needs to rewrite it.
type candidate struct {
	site       Site
	file       string // the Go file rewritten (site.File, or the file embedding it)
	start, end int    // byte offsets of the rewritten range
	how        rewrite
	node       ast.Node
	from, to   token.Token
	form       form // how a node rewrite is written
	list       bool // statements: the statement is in a statement list
	stmts      bool // restore: a statement restore (Restore.Stmt)

	typ     types.Type     // formHelper, formLocal: the operands' type
	pos     token.Pos      // formLocal: where the type is named
	capture [2]bool        // formCapture: the operands evaluated into variables
	value   constant.Value // int constant: the new value, for → 0, → -c and → 2c (to SHL)
	drop    int            // logical: swap (0), dropLeft, dropRight
	str     [2]string      // string_literal: the string and what it becomes
	// string_literal: the string's type as written at the site, when not
	// string; comm_never: the channel's
	typeText string
	// string_literal: a typed constant of a type that cannot be named at
	// the site, sliced to "" (str[1] is "")
	strSlice bool
	zeros    []string // return_zero: the zero literals returned; return_nonnil: the values
	// assign_zero of an if's init statement: node is the if's condition,
	// in front of which the variable is zeroed (an init is no statement
	// of a list).
	inCond bool
	// assign_zero of a switch's or a for's init statement: node is the
	// value assigned to the variable, which a call of typeText passes on
	// or zeroes.
	inInit bool

	edit    edit   // rewriteVariant: the change within the value
	closure string // rewriteVariant: the value's type, as the function literal returns it

	convert            *ast.GenDecl // a constant's declaration, turned into variables
	spec               ast.Spec     // the constant's spec
	declStart, declEnd int          // the declaration's offsets

	embed   *embedVar   // rewriteEmbed: the variable holding the embedded file
	sources []LineClass // data lines of .go files the mutant also judges
}

// form selects among the ways to write an expression rewrite.
type form int

const (
	formPlain     form = iota // the operator's only form
	formHelper                // a call of a typed helper of the switch file
	formLocal                 // a typed function literal at the site
	formCapture               // a function literal capturing the operands with :=
	formDuplicate             // the operands are written once per branch
	formXor                   // an untyped boolean compared with the switch
)

// Logical operand removal.
const (
	dropLeft  = 1
	dropRight = 2
)

// candidates finds the code candidates of every requested .go line.
func (a *analysis) candidates(lines map[string][]int) ([]*candidate, []Skip, error) {
	names := make([]string, 0, len(lines))
	for name := range lines {
		if !a.all[name] {
			return nil, nil, fmt.Errorf("mutant: file %q is not in the package", name)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	var out []*candidate
	var skipped []Skip
	for _, name := range names {
		f, ok := a.files[name]
		stmts := a.stmtRestoreSites(name, a.restores)
		if !ok || len(lines[name]) == 0 && len(stmts) == 0 {
			continue // excluded by the host build, or no lines
		}
		want := make(map[int]bool, len(lines[name]))
		for _, l := range lines[name] {
			want[l] = true
		}
		w := &walker{a: a, name: name, file: f, tf: a.fset.File(f.Pos()), want: want, restores: a.restoreSites(name, a.restores), stmtRestores: stmts}
		w.walk()
		out = append(out, w.out...)
		skipped = append(skipped, w.skipped...)
	}
	return out, skipped, nil
}

// walker collects the candidates of one file.
type walker struct {
	a       *analysis
	name    string
	file    *ast.File
	tf      *token.File
	want    map[int]bool
	stack   []ast.Node // ancestors of the node being visited
	out     []*candidate
	skipped []Skip
	// restores are the file's restores that give a site, by their
	// expression's byte range (see analysis.restoreSites).
	restores map[[2]int][]Restore
	// stmtRestores are its statement restores that give a site, by their
	// statement's range (see analysis.stmtRestoreSites).
	stmtRestores map[[2]int][]Restore
	// dead are the dead stores found so far (see deadStore).
	dead []deadRange
}

func (w *walker) walk() {
	ast.Inspect(w.file, func(n ast.Node) bool {
		if n == nil {
			w.stack = w.stack[:len(w.stack)-1]
			return false
		}
		w.visit(n)
		w.stack = append(w.stack, n)
		return true
	})
}

// at reports whether pos is on a requested line.
func (w *walker) at(pos token.Pos) bool {
	return pos.IsValid() && w.want[w.a.fset.PositionFor(pos, false).Line]
}

func (w *walker) off(pos token.Pos) int { return w.tf.Offset(pos) }

func (w *walker) add(c *candidate, pos token.Pos, operator, desc string) {
	p := w.a.fset.PositionFor(pos, false)
	c.site = Site{File: w.name, Line: p.Line, Col: p.Column, Operator: operator, Description: desc, Extra: c.site.Extra, Equivalent: c.site.Equivalent, Reach: c.site.Reach, Span: c.site.Span}
	for _, d := range w.dead {
		if c.site.Equivalent == "" && d.equivalent(c, pos, operator) {
			c.site.Equivalent = EquivalentDeadStore + d.why
		}
	}
	c.file = w.name
	if c.node != nil && c.start == 0 && c.end == 0 {
		c.start, c.end = w.off(c.node.Pos()), w.off(c.node.End())
	}
	w.out = append(w.out, c)
}

// parent returns the nearest ancestor that is not a parenthesis, and the
// child of it on the way to the visited node.
func (w *walker) parent(n ast.Node) (parent, child ast.Node) {
	child = n
	for i := len(w.stack) - 1; i >= 0; i-- {
		if _, ok := w.stack[i].(*ast.ParenExpr); ok {
			child = w.stack[i]
			continue
		}
		return w.stack[i], child
	}
	return nil, child
}

// inConstContext reports whether the visited node n is in a constant
// declaration or an array length, where only constant expressions are
// allowed.
func (w *walker) inConstContext(n ast.Node) bool {
	for i, a := range w.stack {
		switch a := a.(type) {
		case *ast.GenDecl:
			if a.Tok == token.CONST {
				return true
			}
		case *ast.ArrayType:
			next := n
			if i+1 < len(w.stack) {
				next = w.stack[i+1]
			}
			if a.Len != nil && next == a.Len {
				return true
			}
		}
	}
	return false
}

func (w *walker) visit(n ast.Node) {
	if e, ok := n.(ast.Expr); ok {
		w.constantValue(e)
		w.restore(e)
	}
	if st, ok := n.(ast.Stmt); ok {
		w.stmtRestore(st)
	}
	switch n := n.(type) {
	case *ast.BinaryExpr:
		w.binary(n)
	case *ast.UnaryExpr:
		if n.Op == token.NOT && w.at(n.OpPos) && !w.inConstContext(n) {
			w.not(n)
		}
		if n.Op == token.SUB || n.Op == token.ADD {
			if lit, ok := n.X.(*ast.BasicLit); ok && lit.Kind == token.INT && !w.inPackageValue() {
				w.intConstant(n)
			}
		}
	case *ast.Ident:
		if !w.inPackageValue() {
			w.boolLiteral(n)
			w.labelString(n)
		}
	case *ast.SelectorExpr:
		if !w.inPackageValue() {
			w.labelString(n)
		}
	case *ast.BasicLit:
		// A rune changes like an integer as a case label's value only
		// (case 'u': of a byte tag): elsewhere a rune is mostly a
		// separator or a format's, which this operator leaves alone.
		if (n.Kind == token.INT || n.Kind == token.CHAR && w.caseValue(n)) && !w.inPackageValue() {
			if p, _ := w.parent(n); !isSign(p) {
				w.intConstant(n)
			}
		}
		if n.Kind == token.STRING && !w.inPackageValue() {
			w.stringLiteral(n)
		}
	case *ast.ReturnStmt:
		w.returnZero(n)
		w.returnNonNil(n)
		w.returnRemoval(n)
	case *ast.IfStmt:
		w.ifStmt(n)
	case *ast.SwitchStmt:
		if n.Tag == nil {
			w.conditionCases(n)
		} else {
			w.switchTag(n)
		}
		w.defaultNever(n, n.Body)
	case *ast.TypeSwitchStmt:
		w.defaultNever(n, n.Body)
	case *ast.SelectStmt:
		w.defaultNever(n, n.Body)
	case *ast.CommClause:
		w.commNever(n)
	case *ast.IncDecStmt:
		w.incDec(n)
	case *ast.AssignStmt:
		w.assign(n)
	case *ast.ExprStmt:
		w.exprStmt(n)
	case *ast.BranchStmt:
		w.branch(n)
	case *ast.CallExpr:
		w.conversion(n)
	case *ast.DeclStmt:
		w.declZero(n)
	case *ast.DeferStmt, *ast.GoStmt, *ast.SendStmt:
		// Extra: the deferred call, the goroutine, the send never happen.
		if st := n.(ast.Stmt); w.at(st.Pos()) && w.stmtInList(st) {
			w.removeStmt(st, true)
		}
	case *ast.ForStmt:
		// A for without a condition may be a terminating statement; a
		// break would end that.
		if n.Cond != nil {
			w.loopNever(n, n.Body)
		}
	case *ast.RangeStmt:
		w.loopNever(n, n.Body)
	}
}

// wantedIn returns the first requested line from the line of from to that
// of to: 0 when there is none, -1 when it is the line of from.
func (w *walker) wantedIn(from, to token.Pos) int {
	first, last := w.a.fset.PositionFor(from, false).Line, w.a.fset.PositionFor(to, false).Line
	for l := first; l <= last; l++ {
		if w.want[l] {
			if l == first {
				return -1
			}
			return l
		}
	}
	return 0
}

// loopNever handles a loop (Extra): its body never runs, by a break
// before its first statement. Any line of the loop's header finds it.
func (w *walker) loopNever(n ast.Stmt, body *ast.BlockStmt) {
	reach := w.wantedIn(n.Pos(), body.Lbrace)
	if reach == 0 {
		return
	}
	c := &candidate{how: rewriteWrap, start: w.off(body.Lbrace), end: w.off(body.Lbrace) + 1}
	c.site.Extra, c.site.Reach = true, max(reach, 0)
	w.add(c, n.Pos(), OpLoopNever, descLoopNever)
}

// commNever handles a select's case (Extra): it never fires, its channel
// a nil one of its type, so the select takes another case or its default.
// Without it a changed case (case <-done: → case <-ctx.Done():) offers no
// mutant: its line holds no other operator's expression. Only where the
// channel's type can be named at the case (a [2]chan T picks the channel
// or nil), and only in a select with a default: without one the mutant
// may leave the select waiting for ever, and a test that hangs "kills" it
// whatever the test checks — any change to the case would pass as
// judged.
func (w *walker) commNever(cc *ast.CommClause) {
	p, _ := w.parent(cc)
	body, ok := p.(*ast.BlockStmt)
	if !ok || !slices.ContainsFunc(body.List, func(st ast.Stmt) bool {
		d, ok := st.(*ast.CommClause)
		return ok && d.Comm == nil
	}) {
		return
	}
	var ch ast.Expr
	switch c := cc.Comm.(type) {
	case *ast.SendStmt:
		ch = c.Chan
	case *ast.ExprStmt:
		ch = received(c.X)
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			ch = received(c.Rhs[0])
		}
	}
	if ch == nil || !w.a.typed() || !w.at(ch.Pos()) {
		return
	}
	tv, ok := w.a.info.Types[ch]
	if !ok || tv.IsNil() {
		return
	}
	if _, ok := tv.Type.Underlying().(*types.Chan); !ok {
		return
	}
	typ, ok := w.a.chanType(tv.Type, ch.Pos())
	text := string(w.a.src[w.name][w.off(ch.Pos()):w.off(ch.End())])
	if !ok || strings.Contains(text, "\n") {
		return
	}
	c := &candidate{how: rewriteWrap, node: ch, typeText: typ}
	c.site.Extra = true
	w.add(c, ch.Pos(), OpCommNever, text+" → ("+typ+")(nil)")
}

// received returns the channel e receives from, when e is a receive.
func received(e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// defaultNever handles the default clause of the switch or type switch sw
// (Extra): its body never runs — a break before its first statement, as if
// no value reached it. Without it a label changed to default (case 7: →
// default:) offers no mutant. Not offered for an empty body (the same
// program), nor where the break could end a terminating statement: sw
// last in its list, or labeled, in a function with results.
func (w *walker) defaultNever(sw ast.Stmt, body *ast.BlockStmt) {
	for _, st := range body.List {
		var at, colon token.Pos
		var stmts []ast.Stmt
		switch cc := st.(type) {
		case *ast.CaseClause:
			if cc.List == nil && len(cc.Body) > 0 {
				at, colon, stmts = cc.Case, cc.Colon, cc.Body
			}
		case *ast.CommClause:
			if cc.Comm == nil && len(cc.Body) > 0 {
				at, colon, stmts = cc.Case, cc.Colon, cc.Body
			}
		}
		if !at.IsValid() || !w.at(at) {
			continue
		}
		c := &candidate{how: rewriteWrap, start: w.off(colon), end: w.off(colon) + 1}
		c.site.Extra = true
		if w.mayTerminate(sw) {
			// A break would leave the function without a return: the
			// default returns its function's zero values instead
			// (default: panic("bad kind") → return 0, nil), when each
			// result has one written here.
			zeros, ok := w.zeroResults(at)
			if !ok {
				w.skip(at, OpDefaultNever, descDefaultNever, "the switch or select may be what ends its function: a break would leave it without a return, and its results have no zero value written here")
				return
			}
			c.zeros = zeros
			if w.returnsZeros(stmts[0], zeros) {
				// default: return 0 — the mutant is the code.
				c.site.Equivalent = "the default already returns the zero values"
			}
			w.add(c, at, OpDefaultNever, descDefaultNever+": return "+strings.Join(zeros, ", "))
			continue
		}
		w.add(c, at, OpDefaultNever, descDefaultNever)
	}
}

// returnsZeros reports whether st returns the values zeros (as
// zeroResults writes them): nil for nil, a constant equal to the zero
// literal, or the same text.
func (w *walker) returnsZeros(st ast.Stmt, zeros []string) bool {
	r, ok := st.(*ast.ReturnStmt)
	if !ok || len(r.Results) != len(zeros) {
		return false
	}
	for i, e := range r.Results {
		tv := w.a.info.Types[e]
		switch {
		case zeros[i] == "nil" && tv.IsNil():
		case tv.Value != nil && zeros[i] != "nil" && constant.Compare(tv.Value, token.EQL, zeroValue(zeros[i], tv.Value)):
		case w.tokens(e) == zeros[i]:
		default:
			return false
		}
	}
	return true
}

// zeroResults returns the zero values of the results of the function being
// visited, each written as valid at pos; ok is false when it has none or
// one has no zero value written there (a type parameter's).
func (w *walker) zeroResults(pos token.Pos) (zeros []string, ok bool) {
	if !w.a.typed() {
		return nil, false
	}
	sig := w.enclosingSignature()
	if sig == nil || sig.Results().Len() == 0 {
		return nil, false
	}
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		z := zeroLiteral(t)
		if z == "" {
			z = w.emptyLiteral(t, pos)
		}
		if z == "" {
			return nil, false
		}
		zeros = append(zeros, z)
	}
	return zeros, true
}

// mayTerminate reports whether the statement n being visited may decide
// that its function's body is a terminating statement list: the function
// has results, and n is the last statement of its list or is labeled.
func (w *walker) mayTerminate(n ast.Stmt) bool {
	var results *ast.FieldList
	for i := len(w.stack) - 1; i >= 0; i-- {
		if f, ok := w.stack[i].(*ast.FuncDecl); ok {
			results = f.Type.Results
			break
		}
		if f, ok := w.stack[i].(*ast.FuncLit); ok {
			results = f.Type.Results
			break
		}
	}
	if results == nil || len(results.List) == 0 {
		return false
	}
	var list []ast.Stmt
	switch p := w.stack[len(w.stack)-1].(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	default:
		return true
	}
	return len(list) == 0 || list[len(list)-1] == n
}

// declZero handles var v = x in a function like v := x (see assignZero).
func (w *walker) declZero(n *ast.DeclStmt) {
	d, ok := n.Decl.(*ast.GenDecl)
	if !ok || d.Tok != token.VAR || len(d.Specs) != 1 || !w.stmtInList(n) {
		return
	}
	vs, ok := d.Specs[0].(*ast.ValueSpec)
	if !ok || len(vs.Values) == 0 {
		return
	}
	lhs := make([]ast.Expr, len(vs.Names))
	for i, id := range vs.Names {
		lhs[i] = id
	}
	w.zeroAfter(n, lhs, vs.Values, nil)
}

// returnRemoval handles a return that ends the body of an if without an
// else (Extra): removed, the function goes on past the if. Such an if is
// never a terminating statement, so nothing else needs the return.
func (w *walker) returnRemoval(n *ast.ReturnStmt) {
	if !w.at(n.Return) || len(w.stack) < 2 {
		return
	}
	body, ok := w.stack[len(w.stack)-1].(*ast.BlockStmt)
	if !ok || len(body.List) == 0 || body.List[len(body.List)-1] != n {
		return
	}
	if is, ok := w.stack[len(w.stack)-2].(*ast.IfStmt); !ok || is.Body != body || is.Else != nil {
		return
	}
	w.removeStmt(n, true)
}

// inPackageValue reports whether the visited node is in the value of a
// package-level variable, outside function literals: there the data
// operators change literals (see data.go), not the int_constant and
// bool_literal operators.
func (w *walker) inPackageValue() bool {
	if len(w.stack) < 2 {
		return false
	}
	if d, ok := w.stack[1].(*ast.GenDecl); !ok || d.Tok != token.VAR {
		return false
	}
	for _, n := range w.stack[2:] {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
	}
	return true
}

func isSign(n ast.Node) bool {
	u, ok := n.(*ast.UnaryExpr)
	return ok && (u.Op == token.SUB || u.Op == token.ADD)
}

// skip records a site the schemata cannot write.
func (w *walker) skip(pos token.Pos, operator, desc, reason string) {
	p := w.a.fset.PositionFor(pos, false)
	w.skipped = append(w.skipped, Skip{Site: Site{File: w.name, Line: p.Line, Col: p.Column, Operator: operator, Description: desc}, Reason: reason})
}

// not handles !x → x. An untyped operand, or one of the predeclared type
// bool, stays right through a comparison with the switch; a named boolean
// type keeps its type through a typed helper.
func (w *walker) not(n *ast.UnaryExpr) {
	c := &candidate{how: rewriteNode, node: n, form: formXor}
	switch {
	case w.untypedBool(n.X):
	case !w.a.typed():
		w.skip(n.OpPos, OpNotRemoval, descNot, "without type information the type of the operand is unknown")
		return
	case types.Identical(w.a.info.TypeOf(n.X), types.Typ[types.Bool]):
	default:
		if !w.typedForm(c, w.a.info.TypeOf(n.X), n.Pos()) {
			w.skip(n.OpPos, OpNotRemoval, descNot, "the operand's type "+w.a.info.TypeOf(n.X).String()+" cannot be named in the file")
			return
		}
	}
	w.add(c, n.OpPos, OpNotRemoval, descNot)
}

// typedForm sets c's form to a typed helper of the switch file, or else a
// typed function literal at pos, for operands of type t; false when t can
// be named in neither place.
func (w *walker) typedForm(c *candidate, t types.Type, pos token.Pos) bool {
	c.typ, c.pos = t, pos
	if _, ok := w.a.pkgType(t, newImportSet(names{prefix: "x"})); ok {
		c.form = formHelper
		return true
	}
	if _, ok := w.a.siteType(t, pos); ok {
		c.form = formLocal
		return true
	}
	return false
}

// binary handles the relational, logical and arithmetic operators.
func (w *walker) binary(n *ast.BinaryExpr) {
	if !w.at(n.OpPos) || w.inConstContext(n) {
		return
	}
	switch n.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		for _, to := range orderings(n.Op) {
			w.ordering(n, to, to != boundary(n.Op))
		}
	case token.EQL, token.NEQ:
		to := token.NEQ
		if n.Op == token.NEQ {
			to = token.EQL
		}
		w.add(&candidate{how: rewriteNode, node: n, from: n.Op, to: to}, n.OpPos, OpRelationalNegation, arrow(n.Op, to))
		if w.a.typed() && w.ordered(n) {
			for _, to := range []token.Token{token.LSS, token.LEQ, token.GTR, token.GEQ} {
				w.ordering(n, to, true)
			}
		}
	case token.LAND, token.LOR:
		to := token.LOR
		if n.Op == token.LOR {
			to = token.LAND
		}
		w.add(&candidate{how: rewriteNode, node: n, from: n.Op, to: to}, n.OpPos, OpLogical, arrow(n.Op, to))
		// Dropping an operand that holds the last use of a variable or
		// an import would not compile by hand.
		if !w.lastUse(n.Y) {
			right := &candidate{how: rewriteNode, node: n, from: n.Op, drop: dropRight}
			right.site.Extra = true
			w.add(right, n.OpPos, OpLogical, "x "+n.Op.String()+" y → x")
		}
		if !w.lastUse(n.X) {
			left := &candidate{how: rewriteNode, node: n, from: n.Op, drop: dropLeft}
			left.site.Extra = true
			w.add(left, n.OpPos, OpLogical, "x "+n.Op.String()+" y → y")
		}
	case token.ADD, token.SUB, token.MUL, token.QUO:
		w.arithmetic(n)
	}
}

// orderings returns the operators an ordering operator becomes: its
// boundary first, then the others.
func orderings(op token.Token) []token.Token {
	out := []token.Token{boundary(op)}
	for _, to := range []token.Token{token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ} {
		if to != op && to != out[0] {
			out = append(out, to)
		}
	}
	return out
}

// ordered reports whether the operands of the comparison n have an ordered
// type.
func (w *walker) ordered(n *ast.BinaryExpr) bool {
	t := w.operandType(n)
	if t == nil {
		return false
	}
	return types.Satisfies(t, w.a.ordered)
}

// operandType returns the type both operands of n have after conversion:
// that of an operand that is not a constant, or nil.
func (w *walker) operandType(n *ast.BinaryExpr) types.Type {
	for _, e := range []ast.Expr{n.X, n.Y} {
		if tv, ok := w.a.info.Types[e]; ok && tv.Value == nil && !w.untypedOperand(e) {
			return tv.Type
		}
	}
	for _, e := range []ast.Expr{n.X, n.Y} {
		if tv, ok := w.a.info.Types[e]; ok {
			if b, isBasic := tv.Type.(*types.Basic); !isBasic || b.Info()&types.IsUntyped == 0 {
				return tv.Type
			}
		}
	}
	return nil
}

// ordering adds n's operator → to, a relational site. Both operands
// untyped: they are constants (or pure shifts of them), written once per
// branch. Typed: a typed helper evaluates each operand once, in order.
// Otherwise the operands with effects are captured with := in a function
// literal, which needs no type name.
func (w *walker) ordering(n *ast.BinaryExpr, to token.Token, extra bool) {
	c := &candidate{how: rewriteNode, node: n, from: n.Op, to: to}
	c.site.Extra = extra
	desc := arrow(n.Op, to)
	operator := OpRelationalBoundary
	if to != boundary(n.Op) || n.Op == token.EQL || n.Op == token.NEQ {
		operator = OpRelationalReplace
	} else {
		c.site.Equivalent = w.boundaryIdentity(n)
	}
	if c.site.Equivalent == "" {
		c.site.Equivalent = w.minimumIdentity(n, to)
	}
	switch {
	case w.untypedOperand(n.X) && w.untypedOperand(n.Y) && !w.effects(n.X) && !w.effects(n.Y):
		c.form = formDuplicate
	case w.a.typed() && w.typedForm(c, w.operandType(n), n.Pos()):
	case !w.a.typed() && !w.effects(n.X) && !w.effects(n.Y):
		c.form = formDuplicate
	default:
		c.form = formCapture
		for i, e := range []ast.Expr{n.X, n.Y} {
			if w.constant(e) || !w.effects(e) {
				continue
			}
			if w.untypedOperand(e) || w.callsRecover(e) {
				w.skip(n.OpPos, operator, desc, "an operand with effects cannot be captured without its type")
				return
			}
			c.capture[i] = true
		}
	}
	w.add(c, n.OpPos, operator, desc)
}

// boundaryIdentity says why moving the boundary of the comparison n (<
// ↔ <=, > ↔ >=) changes nothing, or "". That is so where n is an if's
// whole condition, the if's body is return of one operand and what runs
// when the condition is false is return of the other — min, max and
// clamps: `if b < a { return b }; return a`, `if x > hi { return hi };
// return x`. The boundary decides only where the operands are equal, and
// there both returns give the same value. Only for integers and strings,
// whose equal values are the same value (a float's -0 == +0 is not), and
// operands without effects, evaluated again by the return.
func (w *walker) boundaryIdentity(n *ast.BinaryExpr) string {
	if !w.a.typed() || w.effects(n.X) || w.effects(n.Y) {
		return ""
	}
	t := w.operandType(n)
	if t == nil {
		return ""
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&(types.IsInteger|types.IsString) == 0 {
		return ""
	}
	parent, child := w.parent(n)
	ifs, ok := parent.(*ast.IfStmt)
	// An if's own declarations may shadow what the return after it reads.
	if !ok || ifs.Cond != child || ifs.Init != nil {
		return ""
	}
	if why := w.assignIdentity(n, ifs); why != "" {
		return why
	}
	taken := loneReturn(ifs.Body.List)
	var other ast.Expr
	switch e := ifs.Else.(type) {
	case *ast.BlockStmt:
		other = loneReturn(e.List)
	case nil:
		// The statement after the if, in the block that holds it.
		at := len(w.stack) - 1
		for at >= 0 && w.stack[at] != ifs {
			at--
		}
		if at < 1 {
			return ""
		}
		if block, ok := w.stack[at-1].(*ast.BlockStmt); ok {
			for i, st := range block.List {
				if st == ifs && i+1 < len(block.List) {
					other = loneReturn(block.List[i+1 : i+2])
				}
			}
		}
	}
	if taken == nil || other == nil {
		return ""
	}
	// Returned as the same type: a constant returned as an interface
	// takes its default type, which the other operand may not have.
	tt, ok1 := w.a.info.Types[taken]
	ot, ok2 := w.a.info.Types[other]
	if !ok1 || !ok2 || !types.Identical(tt.Type, ot.Type) {
		return ""
	}
	// The operands' and the results' own tokens: types.ExprString
	// prints every composite literal as T{…}, so [3]int{10, 20, 30}[i]
	// and [3]int{99, 199, 299}[i] would read as one expression.
	x, y := w.tokens(ast.Unparen(n.X)), w.tokens(ast.Unparen(n.Y))
	a, b := w.tokens(ast.Unparen(taken)), w.tokens(ast.Unparen(other))
	if a == "" || b == "" || a == b || !(a == x && b == y || a == y && b == x) {
		return ""
	}
	return "the boundary decides only where the operands are equal, and there both returns give the same value"
}

// minimumIdentity says why turning the comparison n's operator into to
// changes nothing, or "": where one operand is the least value the other
// can take — "" for a string, 0 for an unsigned integer or a len or cap —
// the other is never below it, so `x == ""` is `x <= ""` and `x != ""` is
// `x > ""` (mirrored when the least value is on the left).
func (w *walker) minimumIdentity(n *ast.BinaryExpr, to token.Token) string {
	if !w.a.typed() {
		return ""
	}
	least := func(bound, other ast.Expr) bool {
		tv, ok := w.a.info.Types[bound]
		if !ok || tv.Value == nil || w.constant(other) {
			return false
		}
		if call, ok := ast.Unparen(other).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := w.a.info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
					return tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
				}
			}
		}
		ot, ok := w.a.info.Types[other]
		if !ok {
			return false
		}
		b, ok := ot.Type.Underlying().(*types.Basic)
		switch {
		case !ok:
			return false
		case b.Info()&types.IsString != 0:
			return tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
		case b.Info()&types.IsUnsigned != 0:
			return tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
		}
		return false
	}
	from, says := n.Op, n.Op.String()+" and "+to.String()
	switch {
	case least(n.Y, n.X):
	case least(n.X, n.Y):
		from, to = mirror(from), mirror(to)
	default:
		return ""
	}
	// With the least value on the right: == and <= hold exactly where
	// the operands are equal, != and > everywhere else.
	class := func(op token.Token) token.Token {
		switch op {
		case token.LEQ:
			return token.EQL
		case token.GTR:
			return token.NEQ
		}
		return op
	}
	if class(from) != class(to) {
		return ""
	}
	return "one operand is the least value the other can take, so " + says + " hold for the same values"
}

// mirror returns the operator that compares the operands swapped: a < b
// is b > a.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// assignIdentity is boundaryIdentity's reason for a running max or min
// kept in a variable: `if width < w { width = w }`, `if n > hi { n = hi
// }` — an if without an else whose body only assigns one operand to the
// other. Where the operands are equal the assignment leaves the variable
// as it was. The variable is a name or a field (an element of a map would
// gain its key), of the operands' type.
func (w *walker) assignIdentity(n *ast.BinaryExpr, ifs *ast.IfStmt) string {
	if ifs.Else != nil || len(ifs.Body.List) != 1 {
		return ""
	}
	as, ok := ifs.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return ""
	}
	for e := ast.Unparen(as.Lhs[0]); ; {
		if _, ok := e.(*ast.Ident); ok {
			break
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if v, ok := w.a.info.Uses[sel.Sel].(*types.Var); !ok || !v.IsField() {
			return "" // a field only: not another package's variable
		}
		e = ast.Unparen(sel.X)
	}
	lt, ok := w.a.info.Types[as.Lhs[0]]
	if !ok || !types.Identical(lt.Type, w.operandType(n)) || w.effects(as.Rhs[0]) {
		return ""
	}
	x, y := w.tokens(ast.Unparen(n.X)), w.tokens(ast.Unparen(n.Y))
	a, b := w.tokens(ast.Unparen(as.Lhs[0])), w.tokens(ast.Unparen(as.Rhs[0]))
	if a == "" || b == "" || a == b || !(a == x && b == y || a == y && b == x) {
		return ""
	}
	return "the boundary decides only where the operands are equal, and there the assignment leaves the variable as it was"
}

// tokens returns the tokens of e's source, one space apart, without its
// comments; "" when they cannot be read.
func (w *walker) tokens(e ast.Expr) string {
	src := w.a.src[w.name]
	lo, hi := w.off(e.Pos()), w.off(e.End())
	if lo < 0 || hi > len(src) || lo >= hi {
		return ""
	}
	fset := token.NewFileSet()
	text := src[lo:hi]
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(text)), text, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.ILLEGAL || sc.ErrorCount > 0 {
			return ""
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line break
		}
		if lit == "" {
			lit = tok.String()
		}
		b.WriteString(lit)
		b.WriteByte(' ')
	}
	return b.String()
}

// loneReturn returns the one result of list when list is a single return
// of one value, else nil.
func loneReturn(list []ast.Stmt) ast.Expr {
	if len(list) != 1 {
		return nil
	}
	if r, ok := list[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
		return r.Results[0]
	}
	return nil
}

// constant reports whether e is a constant expression, by types.
func (w *walker) constant(e ast.Expr) bool {
	if !w.a.typed() {
		return false
	}
	tv, ok := w.a.info.Types[e]
	return ok && tv.Value != nil
}

// effects reports whether evaluating e may call a function or receive:
// whether its place in the order of evaluation matters.
func (w *walker) effects(e ast.Expr) bool {
	if w.constant(e) {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = found || !w.isPureCall(n)
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// callsRecover reports whether e calls recover directly: moved into a
// function literal, the call would no longer stop a panic.
func (w *walker) callsRecover(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "recover" {
				found = true
			}
		}
		_, lit := n.(*ast.FuncLit)
		return !found && !lit
	})
	return found
}

func boundary(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.LEQ
	case token.LEQ:
		return token.LSS
	case token.GTR:
		return token.GEQ
	}
	return token.GTR
}

func arrow(from, to token.Token) string { return from.String() + " → " + to.String() }

// arithmetic handles + - * / on numbers, in non-constant expressions where
// at least one operand has a type of its own: the operator becomes its
// counterpart (+ ↔ -, * ↔ /), or, as extras, each other arithmetic
// operator (% on integers). No mutant divides by a constant zero. x*1 →
// x/1 and its converse, and on integers x+0 → x-0 and its converse, are
// equivalent mutants.
func (w *walker) arithmetic(n *ast.BinaryExpr) {
	if !w.a.typed() {
		return
	}
	tv, ok := w.a.info.Types[n]
	if !ok || tv.Value != nil || !types.Satisfies(tv.Type, w.a.numeric) {
		return
	}
	if w.untypedOperand(n.X) && w.untypedOperand(n.Y) {
		return
	}
	primary := map[token.Token]token.Token{token.ADD: token.SUB, token.SUB: token.ADD, token.MUL: token.QUO, token.QUO: token.MUL}[n.Op]
	targets := []token.Token{primary}
	for _, to := range []token.Token{token.ADD, token.SUB, token.MUL, token.QUO, token.REM} {
		if to != n.Op && to != primary {
			targets = append(targets, to)
		}
	}
	integer := types.Satisfies(tv.Type, w.a.integer)
	for _, to := range targets {
		if (to == token.QUO || to == token.REM) && w.isConstZero(n.Y) || to == token.REM && !integer {
			continue
		}
		c := &candidate{how: rewriteNode, node: n, from: n.Op, to: to}
		c.site.Extra = to != primary
		if !w.typedForm(c, tv.Type, n.Pos()) {
			w.skip(n.OpPos, OpArithmetic, arrow(n.Op, to), "the type "+tv.Type.String()+" cannot be named in the file")
			continue
		}
		c.site.Equivalent = w.arithmeticIdentity(n.Op, to, n.Y, integer, tv.Type)
		w.add(c, n.OpPos, OpArithmetic, arrow(n.Op, to))
	}
}

// arithmeticIdentity says why x op y and x to y are the same program, or
// "".
func (w *walker) arithmeticIdentity(op, to token.Token, y ast.Expr, integer bool, t types.Type) string {
	real := integer || types.Satisfies(t, w.a.float)
	switch {
	case real && (op == token.MUL && to == token.QUO || op == token.QUO && to == token.MUL) && w.isConst(y, 1):
		return "x*1 and x/1 are both x"
	case integer && (op == token.ADD && to == token.SUB || op == token.SUB && to == token.ADD) && w.isConst(y, 0):
		return "x+0 and x-0 are both x on integers"
	}
	return ""
}

// isConst reports whether e is the constant v.
func (w *walker) isConst(e ast.Expr, v int64) bool {
	tv, ok := w.a.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Compare(tv.Value, token.EQL, constant.MakeInt64(v))
	}
	return false
}

// untypedOperand reports whether e is, as far as can be told, an untyped
// numeric or string expression: a constant, or a shift or arithmetic of
// untyped operands. Without types, identifiers count as typed.
func (w *walker) untypedOperand(e ast.Expr) bool {
	if w.a.typed() {
		if tv, ok := w.a.info.Types[e]; ok && tv.Value != nil {
			return true
		}
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return w.untypedOperand(e.X)
	case *ast.UnaryExpr:
		return (e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR) && w.untypedOperand(e.X)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.SHL, token.SHR:
			return w.untypedOperand(e.X)
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return w.untypedOperand(e.X) && w.untypedOperand(e.Y)
		}
	}
	return false
}

// untypedBool reports whether e is an untyped boolean expression: a
// comparison, a boolean constant, or a logical operation on such.
func (w *walker) untypedBool(e ast.Expr) bool {
	if w.a.typed() {
		if tv, ok := w.a.info.Types[e]; ok && tv.Value != nil {
			return true
		}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return w.untypedBool(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.NOT && w.untypedBool(e.X)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return true
		case token.LAND, token.LOR:
			return w.untypedBool(e.X) && w.untypedBool(e.Y)
		}
	case *ast.Ident:
		return w.predeclared(e)
	}
	return false
}

// predeclared reports whether id denotes the predeclared true or false.
func (w *walker) predeclared(id *ast.Ident) bool {
	if id.Name != "true" && id.Name != "false" {
		return false
	}
	if w.a.typed() {
		return w.a.info.Uses[id] == types.Universe.Lookup(id.Name)
	}
	return !w.a.declared[id.Name]
}

func (w *walker) isConstZero(e ast.Expr) bool {
	tv, ok := w.a.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	case constant.Complex:
		return constant.Sign(constant.Real(tv.Value)) == 0 && constant.Sign(constant.Imag(tv.Value)) == 0
	}
	return false
}

// boolLiteral handles the predeclared true and false.
func (w *walker) boolLiteral(id *ast.Ident) {
	if !w.predeclared(id) || !w.at(id.Pos()) || w.inConstContext(id) {
		return
	}
	// Without types, a declared name true anywhere has already excluded
	// the literal; a selector's name is never the predeclared constant.
	if p, child := w.parent(id); isSelectorName(p, child) {
		return
	}
	to := "false"
	if id.Name == "false" {
		to = "true"
	}
	w.add(&candidate{how: rewriteNode, node: id}, id.Pos(), OpBoolLiteral, id.Name+" → "+to)
}

func isSelectorName(parent, child ast.Node) bool {
	sel, ok := parent.(*ast.SelectorExpr)
	return ok && sel.Sel == child
}

// intConstant handles an integer literal (or a signed one) that is a whole
// constant operand of a non-constant expression.
func (w *walker) intConstant(e ast.Expr) {
	if !w.a.typed() || !w.at(e.Pos()) || w.inConstContext(e) {
		return
	}
	tv, ok := w.a.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if _, param := types.Unalias(tv.Type).(*types.TypeParam); param || !ok || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUntyped != 0 {
		return
	}
	parent, child := w.parent(e)
	if pe, ok := parent.(ast.Expr); ok {
		if ptv, ok := w.a.info.Types[pe]; ok && ptv.Value != nil {
			return // part of a larger constant expression
		}
	}
	switch p := parent.(type) {
	case *ast.RangeStmt:
		return // range over a run-time int needs go 1.22
	case *ast.KeyValueExpr:
		if p.Key == child {
			return
		}
	case *ast.BinaryExpr:
		if p.Op == token.SHL || p.Op == token.SHR {
			return
		}
	case *ast.AssignStmt:
		if p.Tok == token.SHL_ASSIGN || p.Tok == token.SHR_ASSIGN {
			return
		}
	case *ast.CallExpr:
		if w.isGenericCall(p) {
			return
		}
	}
	lo, hi, ok := w.intRange(b)
	if !ok {
		return
	}
	text := string(w.a.src[w.name][w.off(e.Pos()):w.off(e.End())])
	one := constant.MakeInt64(1)
	seen := map[string]bool{tv.Value.ExactString(): true}
	fits := func(v constant.Value) bool {
		return !seen[v.ExactString()] && !constant.Compare(v, token.LSS, lo) && !constant.Compare(v, token.GTR, hi) && w.constantFits(parent, child, v)
	}
	lit, isLit := e.(*ast.BasicLit)
	isRune := isLit && lit.Kind == token.CHAR
	describe := func(v constant.Value) string {
		if r, ok := constant.Int64Val(v); ok && isRune && r <= utf8.MaxRune && utf8.ValidRune(rune(r)) {
			return text + " → " + strconv.QuoteRune(rune(r))
		}
		return text + " → " + v.ExactString()
	}
	for _, op := range []token.Token{token.ADD, token.SUB} {
		v := constant.BinaryOp(tv.Value, op, one)
		if fits(v) {
			seen[v.ExactString()] = true
			w.add(&candidate{how: rewriteWrap, node: e, to: op}, e.Pos(), OpIntConstant, describe(v))
		}
	}
	// Extras: the constant becomes 0, its negation, or its double (a
	// fifth distinct value, so that a lone constant a test pins offers
	// the five mutants the default floor needs).
	for i, v := range []constant.Value{constant.MakeInt64(0), constant.UnaryOp(token.SUB, tv.Value, 0), constant.Shift(tv.Value, token.SHL, 1)} {
		if fits(v) {
			seen[v.ExactString()] = true
			c := &candidate{how: rewriteWrap, node: e, value: v}
			if i == 2 {
				c.to = token.SHL // the double
			}
			c.site.Extra = true
			w.add(c, e.Pos(), OpIntConstant, describe(v))
		}
	}
}

// constantValue handles a constant expression of an integer type in code
// that is not a literal: a named constant (time.Hour, maxRetries) or one
// computed from constants (24 * time.Hour, 1 << 10). No other operator
// changes it as a whole — the operators of a constant expression would not
// compile as run-time switches — so a value the patch wrote there (24 /
// time.Hour, time.Nanosecond) would ride on the other lines' kills. It
// becomes its double (0 becomes 1; where the double does not fit, the
// value beside it, or 0), like a named constant in data; the
// caller judges such a site whole when the patch wrote inside it.
func (w *walker) constantValue(e ast.Expr) {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return // the expression inside has it
	case *ast.BasicLit:
		return // int_constant's
	case *ast.UnaryExpr:
		if _, ok := x.X.(*ast.BasicLit); ok && (x.Op == token.SUB || x.Op == token.ADD) {
			return
		}
	}
	if !w.a.typed() || !w.at(e.Pos()) || w.inConstContext(e) || w.inPackageValue() {
		return
	}
	tv, ok := w.a.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || !tv.IsValue() {
		return
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if _, param := types.Unalias(tv.Type).(*types.TypeParam); param || !ok || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUntyped != 0 {
		return
	}
	parent, child := w.parent(e)
	if pe, ok := parent.(ast.Expr); ok {
		if ptv, ok := w.a.info.Types[pe]; ok && ptv.Value != nil {
			return // part of a larger constant expression
		}
	}
	switch p := parent.(type) {
	case *ast.RangeStmt:
		return // range over a run-time int needs go 1.22
	case *ast.KeyValueExpr:
		if p.Key == child {
			return
		}
	case *ast.BinaryExpr:
		if p.Op == token.SHL || p.Op == token.SHR {
			return
		}
	case *ast.AssignStmt:
		if p.Tok == token.SHL_ASSIGN || p.Tok == token.SHR_ASSIGN {
			return
		}
	case *ast.CallExpr:
		if w.isGenericCall(p) {
			return
		}
	case *ast.IndexExpr:
		if p.Index != child {
			return
		}
	case *ast.IndexListExpr, *ast.StarExpr:
		return // a type's name, or part of one
	}
	lo, hi, ok := w.intRange(b)
	if !ok {
		return
	}
	text := strings.Join(strings.Fields(string(w.a.src[w.name][w.off(e.Pos()):w.off(e.End())])), " ")
	one := constant.MakeInt64(1)
	// A member of an enumeration the package defines (got = argQuoted)
	// becomes each member declared beside it, as a table row's does (see
	// namedInt): the wrong choice a line can make. Its double is a value
	// no member has, which code comparing it with the members cannot tell
	// from the member itself: a mutant no test could kill.
	// Where no member beside it fits there (a case label between the
	// switch's other cases), it changes as any other constant does.
	added := false
	for _, m := range w.enumNeighbours(e, tv) {
		if !w.constantFits(parent, child, m.value) {
			continue
		}
		c := &candidate{how: rewriteWrap, node: e, value: m.value, str: [2]string{"", m.suffix}}
		c.site.Span = [2]int{w.off(e.Pos()), w.off(e.End())}
		w.add(c, e.Pos(), OpConstantValue, text+" → "+m.name)
		added = true
	}
	if added {
		return
	}
	// The double, or where it does not fit (an index at the end of its
	// array, the type's limit) the value beside it, or 0.
	for _, to := range []struct {
		v      constant.Value
		suffix string
	}{
		{constant.Shift(tv.Value, token.SHL, 1), "×2"},
		{constant.BinaryOp(tv.Value, token.ADD, one), "+1"},
		{constant.BinaryOp(tv.Value, token.SUB, one), "-1"},
		{constant.MakeInt64(0), "×0"},
	} {
		if constant.Compare(to.v, token.EQL, tv.Value) || constant.Compare(to.v, token.LSS, lo) || constant.Compare(to.v, token.GTR, hi) || !w.constantFits(parent, child, to.v) {
			continue
		}
		c := &candidate{how: rewriteWrap, node: e, value: to.v, str: [2]string{"", to.suffix}}
		c.site.Span = [2]int{w.off(e.Pos()), w.off(e.End())}
		w.add(c, e.Pos(), OpConstantValue, text+" → "+text+to.suffix)
		return
	}
}

// enumMember is a member of an enumeration beside another: its name, its
// value, and the constant_value suffix that renders the step to it.
type enumMember struct {
	name   string
	value  constant.Value
	suffix string
}

// enumNeighbours returns the members declared beside the constant e names,
// when e is the bare name of an integer constant of a type the package
// defines and a package-level constant of that type has its value ±1 (see
// memberOf); none otherwise (a bit flag's value ±1 is seldom a member: the
// flag is doubled, the next flag, as any other constant).
func (w *walker) enumNeighbours(e ast.Expr, tv types.TypeAndValue) []enumMember {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	c, ok := w.a.info.Uses[id].(*types.Const)
	if !ok || c.Pkg() != w.a.pkg || c.Parent() != w.a.pkg.Scope() {
		return nil
	}
	named, ok := types.Unalias(tv.Type).(*types.Named)
	if !ok || named.Obj().Pkg() != w.a.pkg || named.TypeArgs().Len() > 0 || !types.Identical(c.Type(), named) {
		return nil
	}
	var out []enumMember
	for _, step := range []struct {
		op     token.Token
		suffix string
	}{{token.ADD, "+1"}, {token.SUB, "-1"}} {
		v := constant.BinaryOp(tv.Value, step.op, constant.MakeInt64(1))
		if name := memberOf(w.a.pkg, named, v); name != "" {
			out = append(out, enumMember{name: name, value: v, suffix: step.suffix})
		}
	}
	return out
}

// constantFits reports whether replacing child, an operand of parent, by the
// constant v still passes the compiler's checks of constant operands: no
// division by zero, no negative or out-of-range constant index, slice bound
// or make size, and constant slice bounds and make sizes in order. The
// schemata would compile either way, but the hand-written mutant would not.
func (w *walker) constantFits(parent, child ast.Node, v constant.Value) bool {
	zero := constant.MakeInt64(0)
	negative := constant.Compare(v, token.LSS, zero)
	switch p := parent.(type) {
	case *ast.CaseClause:
		return !w.otherCase(p, child, v)
	case *ast.BinaryExpr:
		if (p.Op == token.QUO || p.Op == token.REM) && p.Y == child {
			return constant.Sign(v) != 0
		}
	case *ast.AssignStmt:
		if p.Tok == token.QUO_ASSIGN || p.Tok == token.REM_ASSIGN {
			return constant.Sign(v) != 0
		}
	case *ast.IndexExpr:
		if p.Index != child {
			return true
		}
		if negative {
			return false
		}
		if n, ok := w.constLen(p.X); ok {
			return constant.Compare(v, token.LSS, n)
		}
	case *ast.SliceExpr:
		if negative {
			return false
		}
		bounds := []ast.Expr{p.Low, p.High, p.Max}
		vals := make([]constant.Value, len(bounds))
		if p.Low == nil {
			vals[0] = zero
		}
		if n, ok := w.constLen(p.X); ok && p.High == nil {
			vals[1] = n
		}
		for i, bnd := range bounds {
			if bnd == nil {
				continue
			}
			if bnd == child {
				vals[i] = v
			} else if tv := w.a.info.Types[bnd]; tv.Value != nil {
				vals[i] = tv.Value
			}
		}
		if n, ok := w.constLen(p.X); ok {
			for _, x := range vals {
				if x != nil && constant.Compare(x, token.GTR, n) {
					return false
				}
			}
		}
		for i := range vals {
			for j := i + 1; j < len(vals); j++ {
				if vals[i] != nil && vals[j] != nil && constant.Compare(vals[i], token.GTR, vals[j]) {
					return false
				}
			}
		}
	case *ast.CallExpr:
		id, ok := ast.Unparen(p.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		if _, builtin := w.a.info.Uses[id].(*types.Builtin); !builtin || id.Name != "make" || len(p.Args) < 2 {
			return true
		}
		if negative {
			return false
		}
		if len(p.Args) == 3 {
			sizes := make([]constant.Value, 2)
			for i, arg := range p.Args[1:] {
				if arg == child {
					sizes[i] = v
				} else if tv := w.a.info.Types[arg]; tv.Value != nil {
					sizes[i] = tv.Value
				}
			}
			if sizes[0] != nil && sizes[1] != nil && constant.Compare(sizes[0], token.GTR, sizes[1]) {
				return false
			}
		}
	}
	return true
}

// constLen returns the length of x when the compiler knows it: an array, a
// pointer to an array, or a constant string.
func (w *walker) constLen(x ast.Expr) (constant.Value, bool) {
	tv, ok := w.a.info.Types[x]
	if !ok {
		return nil, false
	}
	if tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.MakeInt64(int64(len(constant.StringVal(tv.Value)))), true
	}
	t := tv.Type.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	if arr, ok := t.(*types.Array); ok {
		return constant.MakeInt64(arr.Len()), true
	}
	return nil, false
}

func (w *walker) isGenericCall(call *ast.CallExpr) bool {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	id := nameOf(fun)
	if id == nil {
		return true // a function value: keep it simple and skip
	}
	_, ok := w.a.info.Instances[id]
	return ok
}

// intRange returns the bounds of an integer type.
func (w *walker) intRange(b *types.Basic) (lo, hi constant.Value, ok bool) {
	size := w.a.sizes.Sizeof(b)
	if size <= 0 || size > 8 {
		return nil, nil, false
	}
	bits := uint(8 * size)
	one := constant.MakeInt64(1)
	if b.Info()&types.IsUnsigned != 0 {
		hi = constant.BinaryOp(constant.Shift(one, token.SHL, bits), token.SUB, one)
		return constant.MakeInt64(0), hi, true
	}
	hi = constant.BinaryOp(constant.Shift(one, token.SHL, bits-1), token.SUB, one)
	lo = constant.UnaryOp(token.SUB, constant.Shift(one, token.SHL, bits-1), 0)
	return lo, hi, true
}

// ifStmt handles branch removal.
func (w *walker) ifStmt(n *ast.IfStmt) {
	if w.at(n.If) {
		w.add(&candidate{how: rewriteWrap, node: n.Cond, to: token.IF}, n.If, OpBranchRemoval, descIfBody)
		if n.Else == nil {
			// Without an else, the condition becoming true is another
			// behaviour (with one, it is "else branch never runs").
			c := &candidate{how: rewriteWrap, node: n.Cond, to: token.ELSE}
			c.site.Extra = true
			w.add(c, n.If, OpBranchRemoval, descIfAlways)
		}
		// Negated: the branches swap. A comparison has its own negation,
		// !x its removal.
		if !negated(n.Cond) {
			c := &candidate{how: rewriteWrap, node: n.Cond, to: token.NOT}
			c.site.Extra = true
			w.add(c, n.If, OpConditionNegation, descNegate)
		}
	}
	if n.Else != nil {
		if pos := w.elsePos(n); w.at(pos) {
			c := &candidate{how: rewriteWrap, node: n.Cond, to: token.ELSE}
			if b, ok := n.Else.(*ast.BlockStmt); ok && len(b.List) > 0 {
				// `} else {` holds no statement: the tests that take the
				// branch, which reach its first line, judge it.
				c.site.Reach = w.a.fset.PositionFor(b.List[0].Pos(), false).Line
			}
			w.add(c, pos, OpBranchRemoval, descElseBranch)
		}
	}
}

// conditionCases handles the labels of a switch without a tag, each a
// condition like an if's: the case never matches (a condition a patch
// writes there, `case isAdmin(u):`, offers no other mutant), and (Extra)
// its condition is negated unless a comparison's or a negation's own
// operator negates it.
func (w *walker) conditionCases(n *ast.SwitchStmt) {
	for _, st := range n.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok {
			continue
		}
		for _, e := range cc.List {
			if !w.at(e.Pos()) {
				continue
			}
			w.add(&candidate{how: rewriteWrap, node: e, to: token.IF}, e.Pos(), OpBranchRemoval, descCaseNever)
			if !negated(e) {
				c := &candidate{how: rewriteWrap, node: e, to: token.NOT}
				c.site.Extra = true
				w.add(c, e.Pos(), OpConditionNegation, descNegate)
			}
		}
	}
}

// switchTag handles the tag of an expression switch (Extra): an integer
// becomes 0, a string of the predeclared type "", a boolean its negation
// (unless a comparison's or a negation's own operator negates it). Without
// it a tag the patch writes (switch strings.ToLower(kind)) offers no
// mutant: its tests could not show they notice it. A constant tag is left
// to its labels; a tag of another type (a float, a pointer, an interface,
// a named string type, which the sliced [2]string would not fit) offers
// none.
func (w *walker) switchTag(n *ast.SwitchStmt) {
	if !w.a.typed() || !w.at(n.Tag.Pos()) {
		return
	}
	tv, ok := w.a.info.Types[n.Tag]
	if !ok || tv.Value != nil || tv.Type == nil {
		return
	}
	text := clip(string(w.a.src[w.name][w.off(n.Tag.Pos()):w.off(n.Tag.End())]))
	c := &candidate{how: rewriteWrap, node: n.Tag}
	c.site.Extra = true
	b, ok := tv.Type.Underlying().(*types.Basic)
	switch {
	case !ok:
		return
	case b.Info()&types.IsBoolean != 0:
		if negated(n.Tag) {
			return
		}
		c.to = token.NOT
		w.add(c, n.Tag.Pos(), OpSwitchTag, text+" → !("+text+")")
	case b.Info()&types.IsInteger != 0:
		c.to = token.INT
		w.add(c, n.Tag.Pos(), OpSwitchTag, text+" → 0")
	case b.Kind() == types.String && types.Unalias(tv.Type) == types.Typ[types.String]:
		c.to = token.STRING
		w.add(c, n.Tag.Pos(), OpSwitchTag, text+` → ""`)
	}
}

// negated reports whether cond is a comparison or a negation: its negation
// is another operator's mutant already.
func negated(cond ast.Expr) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		return isComparison(e.Op)
	case *ast.UnaryExpr:
		return e.Op == token.NOT
	}
	return false
}

// stringLiteral handles a string literal in code (Extra): "" becomes
// "sealgate", any other string "" and "sealgate". Only a literal of the
// predeclared string type (or untyped) is changed — the changed value is
// picked from a [2]string, which a named string type would not accept; a
// case label's of a named type goes to namedLabel — and not a format
// string (holding %), nor one in a constant expression or a tag. In a
// case label, never to another label's value.
func (w *walker) stringLiteral(lit *ast.BasicLit) {
	if !w.a.typed() || !w.at(lit.Pos()) || w.inConstContext(lit) {
		return
	}
	tv, ok := w.a.info.Types[lit]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	if b, ok := types.Unalias(tv.Type).(*types.Basic); !ok || b.Kind() != types.String && b.Kind() != types.UntypedString {
		w.namedLabel(lit, tv, clip(lit.Value))
		return
	}
	switch p, _ := w.parent(lit); p := p.(type) {
	case *ast.ImportSpec, *ast.Field:
		return
	case ast.Expr:
		if ptv, ok := w.a.info.Types[p]; ok && ptv.Value != nil {
			return // part of a larger constant expression
		}
	}
	from := constant.StringVal(tv.Value)
	w.partialRestores(lit, from)
	if strings.Contains(from, "%") {
		w.panicFormat(lit, from)
		return
	}
	w.otherStrings(lit, from, clip(lit.Value), "")
}

// panicFormat handles a format string (holding %) of a panic's message,
// panic(fmt.Sprintf("bad field type %s", k)) (Extra): the message keeps
// its directives and loses its text ("%s"), so the same arguments format
// the same way and go vet reads the format as it did. A default case that
// ends its function with such a panic offers no other mutant (it cannot
// be skipped: the function would not return), yet the fix's test may pin
// the message (testify's PanicsWithValue, gocheck's PanicMatches).
func (w *walker) panicFormat(lit *ast.BasicLit, from string) {
	if !w.inPanic() {
		return
	}
	to, ok := formatDirectives(from)
	if !ok {
		return
	}
	c := &candidate{how: rewriteWrap, node: lit, str: [2]string{from, to}}
	c.site.Extra = true
	c.site.Span = [2]int{w.off(lit.Pos()), w.off(lit.End())}
	w.add(c, lit.Pos(), OpStringLiteral, clip(lit.Value)+" → "+strconv.Quote(to)+" (the panic's message without its text)")
}

// inPanic reports whether the visited node is an argument of a call to
// the builtin panic, directly or through calls (fmt.Sprintf, fmt.Errorf)
// whose arguments it is.
func (w *walker) inPanic() bool {
	for i := len(w.stack) - 1; i >= 0; i-- {
		switch n := w.stack[i].(type) {
		case *ast.ParenExpr:
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "panic" {
				_, builtin := w.a.info.Uses[id].(*types.Builtin)
				return builtin
			}
		default:
			return false
		}
	}
	return false
}

// formatDirectives returns the directives of the format string s as fmt
// reads them (%d, %-8.3f, %[2]q, %*d: flags, width, precision and argument
// index kept), joined without the text around them; ok is false when s
// has no directive, is nothing but directives, or ends in a lone %.
func formatDirectives(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(s) && strings.IndexByte("+-# 0123456789.*[]", s[j]) >= 0 {
			j++
		}
		if j >= len(s) {
			return "", false
		}
		if s[j] == '%' && j == i+1 {
			i = j // %%: text
			continue
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		b.WriteString(s[i : j+size])
		i = j + size - 1
	}
	out := b.String()
	return out, out != "" && out != s
}

// partialRestores handles a string literal the patch rewrote in place
// with more than one edit (`^[a-z0-9]+$` → `^[a-zA-Z0-9]+`: A-Z added, the
// $ anchor dropped): the restore of the whole literal is the bug, killed by
// any test of the fix, and the other edit would ride along. Each edit is
// undone alone, the others kept: a test must notice every one.
func (w *walker) partialRestores(lit *ast.BasicLit, now string) {
	span := [2]int{w.off(lit.Pos()), w.off(lit.End())}
	for _, r := range w.a.restores {
		if r.Stmt || r.File != w.name || r.Start != span[0] || r.End != span[1] {
			continue
		}
		was, err := strconv.Unquote(r.Text)
		if err != nil || was == now {
			return
		}
		for _, to := range undoEachEdit(was, now) {
			c := &candidate{how: rewriteWrap, node: lit, str: [2]string{now, to}}
			c.site.Span = span
			w.add(c, lit.Pos(), OpStringLiteral, clip(lit.Value)+" → "+strconv.Quote(to)+" (one edit undone)")
		}
		return
	}
}

// maxEditText bounds the strings undoEachEdit compares (their product).
const maxEditText = 1 << 16

// undoEachEdit returns, when now differs from was by two edits or more
// (runs of bytes inserted, deleted or replaced, by a longest common
// subsequence of bytes), now with each edit undone alone; nil otherwise.
func undoEachEdit(was, now string) []string {
	if len(was)*len(now) > maxEditText {
		return nil
	}
	// lcs[i][j]: the longest common subsequence of was[i:] and now[j:].
	lcs := make([][]int, len(was)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(now)+1)
	}
	for i := len(was) - 1; i >= 0; i-- {
		for j := len(now) - 1; j >= 0; j-- {
			if was[i] == now[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	// The edits: [wasFrom, wasTo) replaced by [nowFrom, nowTo).
	type edit struct{ wf, wt, nf, nt int }
	var edits []edit
	i, j := 0, 0
	for i < len(was) || j < len(now) {
		if i < len(was) && j < len(now) && was[i] == now[j] {
			i, j = i+1, j+1
			continue
		}
		e := edit{wf: i, nf: j}
		for i < len(was) || j < len(now) {
			if i < len(was) && j < len(now) && was[i] == now[j] && lcs[i][j] == lcs[i+1][j+1]+1 {
				break
			}
			if j < len(now) && (i == len(was) || lcs[i][j+1] >= lcs[i+1][j]) {
				j++
			} else {
				i++
			}
		}
		e.wt, e.nt = i, j
		edits = append(edits, e)
	}
	if len(edits) < 2 {
		return nil
	}
	var out []string
	for _, e := range edits {
		to := now[:e.nf] + was[e.wf:e.wt] + now[e.nt:]
		if to != was && to != now && !slices.Contains(out, to) {
			out = append(out, to)
		}
	}
	return out
}

// otherStrings adds the string_literal sites of e, whose value is from
// (text names it): "" and "sealgate" (or "Sealgate"), never a value
// another label of e's switch holds. typ is e's type as written at e, when
// it is not string.
func (w *walker) otherStrings(e ast.Expr, from, text, typ string) {
	tos := []string{"", otherString(from)}
	if from == "" {
		tos = tos[1:]
	}
	if p, child := w.parent(e); p != nil {
		if cc, ok := p.(*ast.CaseClause); ok {
			tos = slices.DeleteFunc(tos, func(to string) bool { return w.otherCase(cc, child, constant.MakeString(to)) })
		}
	}
	for _, to := range tos {
		c := &candidate{how: rewriteWrap, node: e, str: [2]string{from, to}, typeText: typ}
		c.site.Extra = true
		c.site.Span = [2]int{w.off(e.Pos()), w.off(e.End())}
		w.add(c, e.Pos(), OpStringLiteral, text+" → "+strconv.Quote(to))
	}
}

// labelString handles a named string constant (userKind, http.MethodGet)
// that is a value of an expression switch's case label (Extra): it becomes
// "" and "sealgate", as a literal label does. Without it `case userKind:
// → case rootKind:` offers no mutant, and an honest fix of it cannot show
// that a test notices. A constant of a named string type goes to
// namedLabel.
func (w *walker) labelString(e ast.Expr) {
	if !w.a.typed() || !w.at(e.Pos()) || !w.caseValue(e) {
		return
	}
	tv, ok := w.a.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	text := string(w.a.src[w.name][w.off(e.Pos()):w.off(e.End())])
	if b, ok := types.Unalias(tv.Type).(*types.Basic); !ok || b.Kind() != types.String && b.Kind() != types.UntypedString {
		w.namedLabel(e, tv, text)
		return
	}
	w.otherStrings(e, constant.StringVal(tv.Value), text, "")
}

// namedLabel handles a case label's string value of a named string type
// (type role string; case "admin": or case adminRole:), which a [2]string
// would not match: the value is picked from a [2]role instead, where the
// type can be named at the label. Where it cannot (another package's
// unexported type), a typed constant is sliced to "" — the slice keeps
// its type — and an untyped one offers nothing.
func (w *walker) namedLabel(e ast.Expr, tv types.TypeAndValue, text string) {
	if !w.a.typed() || !w.at(e.Pos()) || !w.caseValue(e) || tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return
	}
	from := constant.StringVal(tv.Value)
	if typ, ok := w.a.siteType(tv.Type, e.Pos()); ok {
		w.otherStrings(e, from, text, typ)
		return
	}
	p, child := w.parent(e)
	if from == "" || !w.typedConstant(e) || w.otherCase(p.(*ast.CaseClause), child, constant.MakeString("")) {
		return
	}
	c := &candidate{how: rewriteWrap, node: e, str: [2]string{from, ""}, strSlice: true}
	c.site.Extra = true
	c.site.Span = [2]int{w.off(e.Pos()), w.off(e.End())}
	w.add(c, e.Pos(), OpStringLiteral, text+` → ""`)
}

// nameOf returns the name e is (x) or selects (pkg.x, v.x), else nil.
func nameOf(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// typedConstant reports whether e names a constant of its own type
// (adminRole, pkg.Admin), not an untyped one.
func (w *walker) typedConstant(e ast.Expr) bool {
	id := nameOf(e)
	if id == nil {
		return false
	}
	c, ok := w.a.info.Uses[id].(*types.Const)
	if !ok {
		return false
	}
	b, ok := c.Type().(*types.Basic)
	return !ok || b.Info()&types.IsUntyped == 0
}

// caseValue reports whether e is one of the values of an expression
// switch's case label.
func (w *walker) caseValue(e ast.Expr) bool {
	p, _ := w.parent(e)
	cc, ok := p.(*ast.CaseClause)
	return ok && slices.Contains(cc.List, e)
}

// returnZero handles a return of values (Extra): every result becomes its
// type's zero value, when each has a literal one (0, "", false, nil) and
// not every result is that already.
func (w *walker) returnZero(n *ast.ReturnStmt) {
	if !w.a.typed() || !w.at(n.Return) || len(n.Results) == 0 {
		return
	}
	sig := w.returnSignature(n)
	if sig == nil {
		return
	}
	zeros := make([]string, len(n.Results))
	already := true
	for i, r := range n.Results {
		z := zeroLiteral(sig.Results().At(i).Type())
		if z == "" {
			return
		}
		zeros[i] = z
		tv := w.a.info.Types[r]
		switch {
		case tv.IsNil():
		case tv.Value != nil && z != "nil" && constant.Compare(tv.Value, token.EQL, zeroValue(z, tv.Value)):
		default:
			already = false
		}
	}
	if already {
		return
	}
	c := &candidate{how: rewriteWrap, node: n, list: true, zeros: zeros}
	c.site.Extra = true
	w.add(c, n.Return, OpReturnZero, "return "+strings.Join(zeros, ", "))
}

// returnSignature is the signature of the function a return of values
// returns from, nil when it is not found or the return's values are one
// call's several.
func (w *walker) returnSignature(n *ast.ReturnStmt) *types.Signature {
	sig := w.enclosingSignature()
	if sig == nil || sig.Results().Len() != len(n.Results) {
		return nil
	}
	return sig
}

// enclosingSignature is the signature of the innermost function (literal
// or declared) the visited node is in, nil when it is not known.
func (w *walker) enclosingSignature() *types.Signature {
	for i := len(w.stack) - 1; i >= 0; i-- {
		switch f := w.stack[i].(type) {
		case *ast.FuncLit:
			sig, _ := w.a.info.Types[f].Type.(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if o := w.a.info.Defs[f.Name]; o != nil {
				sig, _ := o.Type().(*types.Signature)
				return sig
			}
			return nil
		}
	}
	return nil
}

// nonNilError stands, in a return_nonnil site's values, for a value of the
// switch file's error type (its name is chosen with the schemata's).
const nonNilError = "\x00error"

// returnNonNil handles a return of nils only (Extra): each becomes a
// value of its type that is not nil — an empty slice or map, a new zero
// value for a pointer, an unbuffered channel, the switch file's error for
// an interface it satisfies — when each has one. return nil carries no
// operator of its own; one the patch rewrote (return err → return nil,
// return []string{} → return nil) is judged by this one.
func (w *walker) returnNonNil(n *ast.ReturnStmt) {
	if !w.a.typed() || !w.at(n.Return) || len(n.Results) == 0 {
		return
	}
	for _, r := range n.Results {
		if !w.a.info.Types[r].IsNil() {
			return
		}
	}
	sig := w.returnSignature(n)
	if sig == nil {
		return
	}
	vals := make([]string, len(n.Results))
	shown := make([]string, len(n.Results))
	for i := range n.Results {
		v, ok := w.a.nonNil(sig.Results().At(i).Type(), n.Pos())
		if !ok {
			return
		}
		vals[i], shown[i] = v, v
		if v == nonNilError {
			shown[i] = "an error"
		}
	}
	c := &candidate{how: rewriteWrap, node: n, list: true, zeros: vals}
	c.site.Extra = true
	w.add(c, n.Return, OpReturnNonNil, "return "+strings.Join(shown, ", "))
}

// nonNil is a value of t that is not nil, written at pos (see
// returnNonNil); false when t has none the site can write.
func (a *analysis) nonNil(t types.Type, pos token.Pos) (string, bool) {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if e, ok := a.siteType(u.Elem(), pos); ok {
			return "new(" + e + ")", true
		}
	case *types.Slice, *types.Map:
		if typ, ok := a.siteType(t, pos); ok {
			return typ + "{}", true
		}
	case *types.Chan:
		if typ, ok := a.chanType(t, pos); ok {
			return "make(" + typ + ")", true
		}
	case *types.Interface:
		// The switch file's error satisfies an interface whose methods
		// are at most Error() string.
		for i := range u.NumMethods() {
			m := u.Method(i)
			sig := m.Type().(*types.Signature)
			if m.Name() != "Error" || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
				return "", false
			}
		}
		if u.IsMethodSet() {
			return nonNilError, true
		}
	}
	return "", false
}

// zeroLiteral is the literal of t's zero value, or "" when it has none that
// converts to t (a struct, an array, a type parameter).
func zeroLiteral(t types.Type) string {
	if _, param := types.Unalias(t).(*types.TypeParam); param {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Kind() == types.UnsafePointer:
			return "nil"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	}
	return ""
}

// emptyLiteral is the zero value of a struct or array type t written as an
// empty composite literal valid at pos (reflect.Value{}, [4]byte{}), or ""
// when t is neither or cannot be named there.
func (w *walker) emptyLiteral(t types.Type, pos token.Pos) string {
	if _, param := types.Unalias(t).(*types.TypeParam); param {
		return ""
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
	default:
		return ""
	}
	typ, ok := w.a.siteType(t, pos)
	if !ok || typ == "" {
		return ""
	}
	if _, named := types.Unalias(t).(*types.Named); !named && strings.HasPrefix(typ, "struct") {
		return "" // an anonymous struct: its literal would spell every field
	}
	return typ + "{}"
}

// zeroValue is the constant of zero literal z, of v's kind.
func zeroValue(z string, v constant.Value) constant.Value {
	switch z {
	case `""`:
		if v.Kind() == constant.String {
			return constant.MakeString("")
		}
	case "false":
		if v.Kind() == constant.Bool {
			return constant.MakeBool(false)
		}
	case "0":
		if v.Kind() == constant.Int || v.Kind() == constant.Float || v.Kind() == constant.Complex {
			return constant.MakeInt64(0)
		}
	}
	return constant.MakeUnknown()
}

// elsePos finds the else keyword between the if body and the else branch.
func (w *walker) elsePos(n *ast.IfStmt) token.Pos {
	src := w.a.src[w.name]
	i, end := w.off(n.Body.End()), w.off(n.Else.Pos())
	for i < end {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case i+1 < end && src[i] == '/' && src[i+1] == '/':
			for i < end && src[i] != '\n' {
				i++
			}
		case i+1 < end && src[i] == '/' && src[i+1] == '*':
			j := i + 2
			for j+1 < end && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			i = j + 2
		default:
			return w.tf.Pos(i)
		}
	}
	return n.Else.Pos()
}

// otherCase reports whether another label of the expression switch that
// holds clause has the constant value v: a case label changed to it would
// be a duplicate case in source form, a mutant no one could write. The
// label being changed is child.
func (w *walker) otherCase(clause *ast.CaseClause, child ast.Node, v constant.Value) bool {
	var sw *ast.SwitchStmt
	for i := len(w.stack) - 1; i >= 0 && sw == nil; i-- {
		sw, _ = w.stack[i].(*ast.SwitchStmt)
	}
	if sw == nil {
		return false
	}
	for _, st := range sw.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok {
			continue
		}
		for _, e := range cc.List {
			if e == child {
				continue
			}
			if tv, ok := w.a.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == v.Kind() && constant.Compare(tv.Value, token.EQL, v) {
				return true
			}
		}
	}
	return false
}

// stmtInList reports whether the visited statement n sits in a statement
// list, where it can be replaced by an if statement.
func (w *walker) stmtInList(n ast.Stmt) bool {
	if len(w.stack) == 0 {
		return false
	}
	switch p := w.stack[len(w.stack)-1].(type) {
	case *ast.BlockStmt:
		return true
	case *ast.CaseClause:
		return slices.Contains(p.Body, n)
	case *ast.CommClause:
		return slices.Contains(p.Body, n)
	case *ast.LabeledStmt:
		return true
	}
	return false
}

func (w *walker) incDec(n *ast.IncDecStmt) {
	if why := w.deadStore(n); why != "" {
		w.dead = append(w.dead, newDeadRange(n, why))
	}
	list := w.stmtInList(n)
	if w.at(n.TokPos) {
		to := token.DEC
		if n.Tok == token.DEC {
			to = token.INC
		}
		w.add(&candidate{how: rewriteNode, node: n, from: n.Tok, to: to, list: list}, n.TokPos, OpIncDec, arrow(n.Tok, to))
	}
	if list && w.at(n.Pos()) {
		w.removal(n)
	}
}

func (w *walker) assign(n *ast.AssignStmt) {
	if why := w.deadStore(n); why != "" {
		w.dead = append(w.dead, newDeadRange(n, why))
	}
	w.assignZero(n)
	if n.Tok == token.DEFINE {
		return
	}
	list := w.stmtInList(n)
	if w.at(n.TokPos) && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
		var to token.Token
		switch n.Tok {
		case token.SUB_ASSIGN:
			to = token.ADD_ASSIGN
		case token.QUO_ASSIGN:
			to = token.MUL_ASSIGN
		case token.ADD_ASSIGN:
			if w.a.typed() && types.Satisfies(w.a.info.TypeOf(n.Lhs[0]), w.a.numeric) {
				to = token.SUB_ASSIGN
			}
		case token.MUL_ASSIGN:
			if w.a.typed() && !w.isConstZero(n.Rhs[0]) {
				to = token.QUO_ASSIGN
			}
		}
		if to != token.ILLEGAL {
			c := &candidate{how: rewriteNode, node: n, from: n.Tok, to: to, list: list}
			c.site.Equivalent = w.augmentedIdentity(n, to)
			w.add(c, n.TokPos, OpAugmentedAssignment, arrow(n.Tok, to))
		}
		switch {
		case w.lastUse(n.Lhs[0]):
			// x op= y reads x; x = y does not: when nothing else reads
			// x, the mutant would not compile by hand.
		case n.Tok == token.ADD_ASSIGN, n.Tok == token.SUB_ASSIGN, n.Tok == token.MUL_ASSIGN, n.Tok == token.QUO_ASSIGN, n.Tok == token.REM_ASSIGN:
			// Extra: x op= y → x = y.
			c := &candidate{how: rewriteNode, node: n, from: n.Tok, to: token.ASSIGN, list: list}
			c.site.Extra = true
			w.add(c, n.TokPos, OpAugmentedAssignment, arrow(n.Tok, token.ASSIGN))
		}
	}
	if list && w.at(n.Pos()) && !w.blankOnly(n) {
		w.removal(n)
	}
}

// assignZero handles v := x and v = x (Extra): the first variable the
// statement sets becomes its type's zero value after it. It is what
// judges a statement no other operator reaches (v := a → v := b, a call
// swapped for another): a test that notices nothing when v is zeroed
// notices no change to what it was set to. The statement's first
// requested line, when it is not the first line (a call's argument on
// the next), is the line whose tests judge it.
//
// An if's init (`if n, err := strconv.Atoi(s); err == nil {`, `if _, ok
// := r.(T); ok {`) is no statement of a list: there the variable is zeroed
// in front of the condition, which runs right after the init and sees its
// variables. A switch's or a for's init (`switch c := s[i]; c {`, `for n
// := start(k); n > 0; n--`) has no such place (a switch may have no tag,
// a for's condition runs again every iteration): there the value the
// variable is set to passes through a call that zeroes it, once.
func (w *walker) assignZero(n *ast.AssignStmt) {
	if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
		return
	}
	if w.stmtInList(n) {
		w.zeroAfter(n, n.Lhs, n.Rhs, nil)
		return
	}
	parent, _ := w.parent(n)
	switch p := parent.(type) {
	case *ast.IfStmt:
		if p.Init == n {
			w.zeroAfter(n, n.Lhs, n.Rhs, p.Cond)
		}
	case *ast.SwitchStmt:
		if p.Init == n {
			w.zeroAfter(n, n.Lhs, n.Rhs, nil)
		}
	case *ast.TypeSwitchStmt:
		if p.Init == n {
			w.zeroAfter(n, n.Lhs, n.Rhs, nil)
		}
	case *ast.ForStmt:
		if p.Init == n {
			w.zeroAfter(n, n.Lhs, n.Rhs, nil)
		}
	}
}

// zeroAfter adds the assign_zero site of statement n, which sets lhs to
// rhs: after n in its list, for an if's init in front of the if's
// condition cond, for another init (n in no list, cond nil) around the
// value it sets the variable to.
func (w *walker) zeroAfter(n ast.Stmt, lhs, rhs []ast.Expr, cond ast.Expr) {
	reach := w.wantedIn(n.Pos(), n.End())
	if !w.a.typed() || reach == 0 {
		return
	}
	for i, e := range lhs {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		obj := w.a.info.Defs[id]
		if obj == nil {
			obj = w.a.info.Uses[id]
		}
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() {
			return
		}
		z := zeroLiteral(v.Type())
		if z == "" {
			// A struct or an array (sf := reflect.Indirect(s).FieldByName(f.Name))
			// is zeroed by an empty composite literal of its type, where
			// the type can be named at the statement.
			z = w.emptyLiteral(v.Type(), n.Pos())
		}
		if z == "" {
			return
		}
		c := &candidate{how: rewriteWrap, node: n, list: true, zeros: []string{z}, str: [2]string{id.Name}}
		switch {
		case cond != nil:
			c.node, c.list, c.inCond = cond, false, true
		case !w.stmtInList(n):
			if len(lhs) != len(rhs) {
				return // a tuple: no one value to pass on
			}
			typ, ok := w.a.siteType(v.Type(), n.Pos())
			if !ok {
				return
			}
			c.node, c.list, c.inInit, c.typeText = rhs[i], false, true, typ
		}
		c.site.Extra, c.site.Reach = true, max(reach, 0)
		if len(lhs) == len(rhs) {
			tv := w.a.info.Types[rhs[i]]
			lit, _ := ast.Unparen(rhs[i]).(*ast.CompositeLit)
			if tv.IsNil() || tv.Value != nil && z != "nil" && constant.Compare(tv.Value, token.EQL, zeroValue(z, tv.Value)) || lit != nil && len(lit.Elts) == 0 && strings.HasSuffix(z, "{}") {
				c.site.Equivalent = "it is assigned its zero value"
			}
		}
		w.add(c, n.Pos(), OpAssignZero, fmt.Sprintf("then %s = %s", id.Name, z))
		return
	}
}

// augmentedIdentity says why x op= y and x to= y are the same program, or
// "": x /= 1 and x *= 1 on integers and floats, x -= 0 and x += 0 on
// integers.
func (w *walker) augmentedIdentity(n *ast.AssignStmt, to token.Token) string {
	if !w.a.typed() {
		return ""
	}
	t := w.a.info.TypeOf(n.Lhs[0])
	if t == nil {
		return ""
	}
	integer := types.Satisfies(t, w.a.integer)
	switch {
	case (integer || types.Satisfies(t, w.a.float)) && (n.Tok == token.QUO_ASSIGN && to == token.MUL_ASSIGN || n.Tok == token.MUL_ASSIGN && to == token.QUO_ASSIGN) && w.isConst(n.Rhs[0], 1):
		return "x /= 1 and x *= 1 leave x as it is"
	case integer && (n.Tok == token.SUB_ASSIGN && to == token.ADD_ASSIGN || n.Tok == token.ADD_ASSIGN && to == token.SUB_ASSIGN) && w.isConst(n.Rhs[0], 0):
		return "x -= 0 and x += 0 leave an integer as it is"
	}
	return ""
}

// removalIdentity says why removing n is the same program, or "": n is
// x += 0, x -= 0 (integers), x *= 1 or x /= 1 (integers, floats) of a
// variable named by an identifier.
func (w *walker) removalIdentity(n ast.Stmt) string {
	as, ok := n.(*ast.AssignStmt)
	if !ok || !w.a.typed() || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return ""
	}
	if _, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); !ok {
		return ""
	}
	t := w.a.info.TypeOf(as.Lhs[0])
	if t == nil {
		return ""
	}
	integer := types.Satisfies(t, w.a.integer)
	switch {
	case integer && (as.Tok == token.ADD_ASSIGN || as.Tok == token.SUB_ASSIGN) && w.isConst(as.Rhs[0], 0):
		return "x += 0 and x -= 0 leave an integer as it is"
	case (integer || types.Satisfies(t, w.a.float)) && (as.Tok == token.MUL_ASSIGN || as.Tok == token.QUO_ASSIGN) && w.isConst(as.Rhs[0], 1):
		return "x *= 1 and x /= 1 leave x as it is"
	}
	return ""
}

// blankOnly reports whether n assigns only to _ and has no effect on its
// right (no receive, and no call other than a conversion or a pure builtin
// when types tell them apart): removing it would be the same program.
func (w *walker) blankOnly(n *ast.AssignStmt) bool {
	for _, e := range n.Lhs {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	effect := false
	for _, e := range n.Rhs {
		ast.Inspect(e, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.CallExpr:
				effect = effect || !w.isPureCall(m)
			case *ast.UnaryExpr:
				effect = effect || m.Op == token.ARROW
			case *ast.FuncLit:
				return false
			}
			return !effect
		})
	}
	return !effect
}

// isPureCall reports whether call is a conversion or a call of a builtin
// without effects.
func (w *walker) isPureCall(call *ast.CallExpr) bool {
	if !w.a.typed() {
		return false
	}
	tv := w.a.info.Types[call.Fun]
	if tv.IsType() {
		return true
	}
	if !tv.IsBuiltin() {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	switch id.Name {
	case "len", "cap", "min", "max", "complex", "real", "imag", "new", "make":
		return true
	}
	return false
}

func (w *walker) exprStmt(n *ast.ExprStmt) {
	if !w.at(n.Pos()) || !w.stmtInList(n) {
		return
	}
	switch x := ast.Unparen(n.X).(type) {
	case *ast.CallExpr:
		// A panic call can be a terminating statement; wrapping it could
		// leave a function without a return.
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "panic" {
			return
		}
	case *ast.UnaryExpr:
		if x.Op != token.ARROW {
			return
		}
	default:
		return
	}
	w.removal(n)
}

// branch handles break ↔ continue.
func (w *walker) branch(n *ast.BranchStmt) {
	if n.Tok != token.BREAK && n.Tok != token.CONTINUE || !w.at(n.TokPos) {
		return
	}
	if n.Label != nil {
		w.labelDropped(n)
		return
	}
	loop := w.innermostBreakable()
	if loop == nil {
		return
	}
	to := token.CONTINUE
	switch l := loop.(type) {
	case *ast.ForStmt:
		if n.Tok == token.CONTINUE {
			to = token.BREAK
			if l.Cond == nil && !w.hasBreak(l) {
				return
			}
		}
	case *ast.RangeStmt:
		if n.Tok == token.CONTINUE {
			to = token.BREAK
		}
	default:
		return
	}
	w.add(&candidate{how: rewriteNode, node: n, from: n.Tok, to: to, list: true}, n.TokPos, OpLoopControl, arrow(n.Tok, to))
}

// labelDropped handles a labelled break or continue (Extra): its label is
// dropped, so that it leaves or continues the innermost statement it
// would without one (break loop → break in a select inside the loop: the
// Go pitfall a fix of that shape corrects). Not offered where that is the
// labelled statement itself (the same program).
func (w *walker) labelDropped(n *ast.BranchStmt) {
	var target ast.Stmt
	for i := len(w.stack) - 1; i >= 0 && target == nil; i-- {
		switch m := w.stack[i].(type) {
		case *ast.LabeledStmt:
			if m.Label.Name == n.Label.Name {
				target = m.Stmt
			}
		case *ast.FuncLit, *ast.FuncDecl:
			return
		}
	}
	inner := w.innermostBreakable()
	if n.Tok == token.CONTINUE {
		inner = w.innermostLoop()
	}
	if target == nil || inner == nil || inner == ast.Node(target) {
		return
	}
	c := &candidate{how: rewriteNode, node: n, from: n.Tok, to: n.Tok, list: true}
	c.site.Extra = true
	w.add(c, n.TokPos, OpLoopControl, n.Tok.String()+" "+n.Label.Name+" → "+n.Tok.String())
}

// innermostLoop returns the innermost for or range statement around the
// visited node within its function, or nil.
func (w *walker) innermostLoop() ast.Node {
	for i := len(w.stack) - 1; i >= 0; i-- {
		switch n := w.stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return n
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// innermostBreakable returns the innermost for, range, switch or select
// statement around the visited node within its function, or nil.
func (w *walker) innermostBreakable() ast.Node {
	for i := len(w.stack) - 1; i >= 0; i-- {
		switch n := w.stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return n
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// hasBreak reports whether loop already contains a break that leaves it.
func (w *walker) hasBreak(loop *ast.ForStmt) bool {
	var label string
	for i := len(w.stack) - 1; i >= 1; i-- {
		if w.stack[i] == loop {
			if l, ok := w.stack[i-1].(*ast.LabeledStmt); ok {
				label = l.Label.Name
			}
			break
		}
	}
	found := false
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && ((m.Label == nil && depth == 0) || (m.Label != nil && m.Label.Name == label)) {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, depth+1)
					return false
				}
			}
			return true
		})
	}
	walk(loop.Body, 0)
	return found
}
