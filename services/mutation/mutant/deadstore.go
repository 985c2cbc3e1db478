package mutant

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// A dead store is an assignment to a local variable that no code reads
// afterwards: `current += spaceBufLen` in a branch after which the loop
// body sets current = 0, `dst = src` right before a return. Removing it,
// zeroing what it stores, or changing its operator is the same program,
// a mutant no test can kill; such mutants are equivalent, so that an
// honest fix is not left INCONCLUSIVE by them.
//
// What counts, conservatively: a statement of a list, x = e, x op= e or
// x++ / x--, with e free of effects (see effects); x a variable of the
// function holding the statement, not a named result, never captured by
// a function literal, its address never taken (nor a pointer method
// called on it), in a function without labels or goto. Then, from the
// statement on, following the code as written: each later statement of
// its list, then of the lists around it (an if's branches, a switch's or
// select's case lead past the statement that holds them; a loop's body
// leads back to the loop, which ends the search: not dead), until one
// assigns x with = without reading it (dead), returns (dead), or ends the
// function (dead); one that mentions x otherwise, or may jump elsewhere
// (a labelled branch, a fallthrough, a break or continue out of it), ends
// the search: not dead.

// EquivalentDeadStore begins the Equivalent of a dead store's mutants.
const EquivalentDeadStore = "a dead store: "

// deadOp reports whether the mutants of operator op on a dead store are
// equivalent: each changes only the value stored or whether it is, and
// can neither panic nor have an effect.
func deadOp(op string) bool {
	switch op {
	case OpStatementRemoval, OpAssignZero, OpAugmentedAssignment, OpIncDec:
		return true
	}
	return false
}

// deadRange is a dead store's statement, by position, and why. top holds
// the arithmetic of its value reached from the value through arithmetic
// and parentheses alone, and leaves the operands there of an operator
// that cannot divide or shift (not an index, a call's argument, a slice's
// bound or a divisor, where a changed value could panic).
type deadRange struct {
	from, to  token.Pos
	why       string
	top, leaf map[ast.Node]bool
}

// newDeadRange returns the deadRange of the dead store n (see deadStore).
func newDeadRange(n ast.Stmt, why string) deadRange {
	d := deadRange{from: n.Pos(), to: n.End(), why: why, top: map[ast.Node]bool{}, leaf: map[ast.Node]bool{}}
	as, ok := n.(*ast.AssignStmt)
	if !ok {
		return d
	}
	var walk func(e ast.Expr, safe bool)
	walk = func(e ast.Expr, safe bool) {
		switch e := e.(type) {
		case *ast.ParenExpr:
			walk(e.X, safe)
		case *ast.BinaryExpr:
			switch e.Op {
			case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
				d.top[e] = true
				walk(e.X, true)
				walk(e.Y, true)
			}
		case *ast.BasicLit, *ast.Ident, *ast.SelectorExpr:
			if safe {
				d.leaf[e] = true
			}
		}
	}
	walk(as.Rhs[0], true)
	return d
}

// equivalent reports whether the mutant c of operator op at pos changes
// only what the dead store d stores, and cannot panic: see deadOp; one of
// its value's top arithmetic to an operator that does not divide; one of
// its leaves' constants.
func (d deadRange) equivalent(c *candidate, pos token.Pos, op string) bool {
	if pos < d.from || pos >= d.to {
		return false
	}
	switch op {
	case OpArithmetic:
		return d.top[c.node] && c.to != token.QUO && c.to != token.REM
	case OpIntConstant, OpConstantValue:
		return d.leaf[c.node]
	}
	return deadOp(op)
}

// deadStore says why the statement n (being visited: w.stack holds its
// ancestors) stores a value no code reads, or "".
func (w *walker) deadStore(n ast.Stmt) string {
	if !w.a.typed() || !w.stmtInList(n) {
		return ""
	}
	var target ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE || len(n.Lhs) != 1 || len(n.Rhs) != 1 || !w.panicFree(n.Rhs[0]) {
			return ""
		}
		target = n.Lhs[0]
	case *ast.IncDecStmt:
		target = n.X
	default:
		return ""
	}
	id, ok := ast.Unparen(target).(*ast.Ident)
	if !ok || id.Name == "_" {
		return ""
	}
	v, ok := w.a.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() != w.a.pkg || v.Parent() == w.a.pkg.Scope() {
		return ""
	}
	// The function holding the statement, which must declare the
	// variable.
	fn := -1
	for i := len(w.stack) - 1; i >= 0 && fn < 0; i-- {
		switch w.stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			fn = i
		}
	}
	if fn < 0 {
		return ""
	}
	f := w.stack[fn]
	if v.Pos() < f.Pos() || v.Pos() >= f.End() || !w.privateVar(f, v) {
		return ""
	}
	// From the statement outwards.
	cur := ast.Node(n)
	for i := len(w.stack) - 1; i >= fn; i-- {
		var list []ast.Stmt
		switch p := w.stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return "the function ends without reading the variable it stores"
		case *ast.BlockStmt:
			if i > 0 {
				switch w.stack[i-1].(type) {
				case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
					cur = p // a list of clauses: past the statement
					continue
				}
			}
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		case *ast.IfStmt:
			if cur != p.Body && cur != p.Else {
				return ""
			}
			cur = p
			continue
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if body := bodyOf(p); cur != body {
				return ""
			}
			cur = p
			continue
		default:
			return "" // a loop, a label, an init
		}
		at := -1
		for k, st := range list {
			if ast.Node(st) == cur {
				at = k
			}
		}
		if at < 0 {
			return ""
		}
		for _, st := range list[at+1:] {
			switch w.fate(st, v) {
			case storeKilled:
				return "the variable it stores is set again before any code reads it"
			case storeEnds:
				return "the function returns without reading the variable it stores"
			case storeRead, storeUnknown:
				return ""
			}
		}
		cur = w.stack[i]
	}
	return ""
}

// panicFree reports whether evaluating e can neither have an effect nor
// panic: names, constants (another package's too), literals of basic
// values, and operators that cannot shift or dereference, nor divide but
// by a constant other than zero, nor compare interfaces (which panics on
// uncomparable values) but with nil.
func (w *walker) panicFree(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		_, isVar := w.a.info.Uses[e].(*types.Var)
		_, isConst := w.a.info.Uses[e].(*types.Const)
		return isVar || isConst || e.Name == "nil" || e.Name == "true" || e.Name == "false"
	case *ast.SelectorExpr:
		_, isConst := w.a.info.Uses[e.Sel].(*types.Const)
		return isConst
	case *ast.ParenExpr:
		return w.panicFree(e.X)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.NOT, token.XOR:
			return w.panicFree(e.X)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ:
			// Interfaces holding the same uncomparable type panic
			// compared; a comparison with nil does not.
			if !w.isNil(e.X) && !w.isNil(e.Y) && (!strictlyComparable(w.a.info.TypeOf(e.X)) || !strictlyComparable(w.a.info.TypeOf(e.Y))) {
				return false
			}
		case token.QUO, token.REM:
			// By a constant other than zero.
			if tv := w.a.info.Types[e.Y]; tv.Value == nil || constant.Sign(tv.Value) == 0 {
				return false
			}
		case token.SHL, token.SHR:
			return false
		}
		return w.panicFree(e.X) && w.panicFree(e.Y)
	}
	return false
}

// isNil reports whether e is the predeclared nil.
func (w *walker) isNil(e ast.Expr) bool {
	tv, ok := w.a.info.Types[ast.Unparen(e)]
	return ok && tv.IsNil()
}

// strictlyComparable reports whether values of type t compare without a
// run-time panic: no interface (nor type parameter) in it.
func strictlyComparable(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Chan:
		return true
	case *types.Array:
		return strictlyComparable(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !strictlyComparable(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

func bodyOf(s ast.Node) *ast.BlockStmt {
	switch s := s.(type) {
	case *ast.SwitchStmt:
		return s.Body
	case *ast.TypeSwitchStmt:
		return s.Body
	case *ast.SelectStmt:
		return s.Body
	}
	return nil
}

// privateVar reports whether v, a variable of the function f, is reached
// only by name in f's own code: not a named result, not used inside a
// function literal of f (unless f is that literal), its address never
// taken nor that of a part of it (&x, &x.f, &x[i], an array's x[:]), no
// pointer method called on it or a part of it; and f has no label (no
// goto can lead back into it).
func (w *walker) privateVar(f ast.Node, v *types.Var) bool {
	var ft *ast.FuncType
	var body *ast.BlockStmt
	switch f := f.(type) {
	case *ast.FuncDecl:
		ft, body = f.Type, f.Body
	case *ast.FuncLit:
		ft, body = f.Type, f.Body
	}
	if body == nil {
		return false
	}
	if ft.Results != nil {
		for _, field := range ft.Results.List {
			for _, name := range field.Names {
				if w.a.info.Defs[name] == v {
					return false
				}
			}
		}
	}
	private := true
	// is reports whether e is v or a part of it (a field, an element, a
	// slice of it: x.f[i]), whose address is v's memory.
	var is func(e ast.Expr) bool
	is = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return w.a.info.Uses[e] == v
		case *ast.SelectorExpr:
			return is(e.X)
		case *ast.IndexExpr:
			return is(e.X)
		case *ast.SliceExpr:
			return is(e.X)
		case *ast.StarExpr:
			return is(e.X)
		}
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && w.a.info.Uses[id] == v {
					private = false
				}
				return private
			})
			return false
		case *ast.LabeledStmt:
			private = false
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				private = false // &x, &x.f, &x[i]
			}
		case *ast.SliceExpr:
			if t := w.a.info.TypeOf(n.X); t != nil && is(n.X) {
				if _, array := t.Underlying().(*types.Array); array {
					private = false // x[:] of an array: its address
				}
			}
		case *ast.SelectorExpr:
			if fn, ok := w.a.info.Uses[n.Sel].(*types.Func); ok && is(n.X) {
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						private = false
					}
				}
			}
		}
		return private
	})
	return private
}

// storeFate is what a statement after a store does to it.
type storeFate int

const (
	storePasses  storeFate = iota // neither reads nor sets the variable, and goes on to the next
	storeKilled                   // sets it without reading it first
	storeEnds                     // returns without reading it
	storeRead                     // mentions it otherwise
	storeUnknown                  // may jump elsewhere
)

// fate says what the statement st does to a store in v before it.
func (w *walker) fate(st ast.Stmt, v *types.Var) storeFate {
	mentions := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok && w.a.info.Uses[id] == v {
				found = true
			}
			return !found
		})
		return found
	}
	if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
		set := false
		for _, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && w.a.info.Uses[id] == v {
				set = true
			} else if mentions(l) {
				return storeRead
			}
		}
		for _, r := range as.Rhs {
			if mentions(r) {
				return storeRead
			}
		}
		if set {
			return storeKilled
		}
	}
	if mentions(st) {
		return storeRead
	}
	if _, ok := st.(*ast.ReturnStmt); ok {
		return storeEnds
	}
	if escapes(st) {
		return storeUnknown
	}
	return storePasses
}

// escapes reports whether a branch statement inside st may lead out of it
// to somewhere other than its end or a return: a labelled branch, a goto,
// a fallthrough, a break or continue whose loop (or, for break, switch or
// select) lies outside st.
func escapes(st ast.Stmt) bool {
	out := false
	var walk func(n ast.Node, loop, breakable bool)
	walk = func(n ast.Node, loop, breakable bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if out || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, true, true)
					return false
				}
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, loop, true)
					return false
				}
			case *ast.BranchStmt:
				switch {
				case m.Label != nil, m.Tok == token.GOTO, m.Tok == token.FALLTHROUGH:
					out = true
				case m.Tok == token.BREAK && !breakable, m.Tok == token.CONTINUE && !loop:
					out = true
				}
			}
			return true
		})
	}
	switch st.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		walk(st, true, true)
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		walk(st, false, true)
	default:
		walk(st, false, false)
	}
	return out
}
