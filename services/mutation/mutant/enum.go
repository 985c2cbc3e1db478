package mutant

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// A row of a table selects a member of an enumeration for a struct field
// (cast's timeFormat{"2006-01-02 15:04:05 -0700", timeFormatNumericTimezone}).
// The member beside it is the mistake a row can make, and the mutant that
// makes it is worth running — unless the program cannot tell the two apart:
// every read of the field compares it with constants, and every comparison
// answers the same for both members (a range check that holds both). Such a
// mutant is equivalent, and is proven so only when nothing else can read
// the field: no value holding it leaves the package's own code (no
// interface, no fmt or reflect, no comparison of whole values, nothing an
// exported name or another package reaches).

// rowField is the struct field the row element at the end of stack sets
// with leaf, and the row's literal, or nil.
func (vw *valueWalk) rowField(leaf ast.Expr, stack []ast.Node) (*types.Var, *ast.CompositeLit) {
	if len(stack) == 0 {
		return nil, nil
	}
	info := vw.d.a.info
	switch p := stack[len(stack)-1].(type) {
	case *ast.CompositeLit:
		st, ok := info.Types[p].Type.Underlying().(*types.Struct)
		if !ok {
			return nil, nil
		}
		for i, e := range p.Elts {
			if e == leaf && i < st.NumFields() {
				return st.Field(i), p
			}
		}
	case *ast.KeyValueExpr:
		if p.Value != leaf || len(stack) < 2 {
			return nil, nil
		}
		cl, _ := stack[len(stack)-2].(*ast.CompositeLit)
		key, ok := p.Key.(*ast.Ident)
		if cl == nil || !ok {
			return nil, nil
		}
		if f, ok := info.Uses[key].(*types.Var); ok && f.IsField() {
			return f, cl
		}
	}
	return nil, nil
}

// enumEquivalent says why setting field, in the row literal row, to nv
// instead of old is the same program, or "" when that is not proven.
func (vw *valueWalk) enumEquivalent(field *types.Var, row *ast.CompositeLit, old, nv constant.Value) string {
	d := vw.d
	if field == nil || field.Exported() || field.Embedded() {
		return ""
	}
	// The package checked again with its internal tests: its objects are
	// not the ones of d.a.info, so the field is found by its position and
	// the row's type in this check.
	info, err := d.withTests()
	if err != nil {
		return ""
	}
	t := info.Types[row].Type
	if named, ok := types.Unalias(t).(*types.Named); !ok || named.TypeArgs().Len() > 0 {
		// An anonymous struct spelled again elsewhere is the identical
		// type with fields of its own, which reads by position would miss.
		return ""
	}
	files := make([]*ast.File, 0, len(d.a.names)+len(d.testFiles))
	for _, name := range d.a.names {
		files = append(files, d.a.files[name])
	}
	files = append(files, d.testFiles...)
	var pkg *types.Package
	for id, o := range info.Defs {
		if id.Pos() == field.Pos() && o != nil {
			pkg = o.Pkg()
		}
	}
	if pkg == nil {
		return ""
	}
	e := &enumCheck{info: info, t: t, fieldPos: field.Pos(), old: old, nv: nv, pkg: pkg}
	for _, f := range files {
		if !e.file(f) {
			return ""
		}
	}
	if e.reads == 0 {
		return ""
	}
	return fmt.Sprintf("each of the %d reads of field %s compares it with constants, and answers the same for both values", e.reads, field.Name())
}

// enumCheck walks the package's files (with its internal tests) and fails
// at the first read of the field, or flow of a value holding it, that it
// cannot prove blind to the change.
type enumCheck struct {
	info     *types.Info
	t        types.Type
	fieldPos token.Pos
	old, nv  constant.Value
	pkg      *types.Package // the package checked, with its internal tests
	reads    int
}

// file reports whether every use in f is blind to the change.
func (e *enumCheck) file(f *ast.File) bool {
	ok := true
	var stack []ast.Node
	var fn []*ast.FuncDecl
	ast.Inspect(f, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			if top := stack[len(stack)-1]; len(fn) > 0 && top == ast.Node(fn[len(fn)-1]) {
				fn = fn[:len(fn)-1]
			}
			stack = stack[:len(stack)-1]
			return false
		}
		if fd, isFn := n.(*ast.FuncDecl); isFn {
			fn = append(fn, fd)
		}
		var enclosing *ast.FuncDecl
		if len(fn) > 0 {
			enclosing = fn[len(fn)-1]
		}
		if id, isID := n.(*ast.Ident); isID {
			if o := e.info.Uses[id]; o != nil && o.Pos() == e.fieldPos {
				ok = e.read(id, stack)
				stack = append(stack, n)
				return ok
			}
		}
		if x, isExpr := n.(ast.Expr); isExpr {
			if tv, has := e.info.Types[x]; has && tv.Type != nil && e.escapes(tv.Type, map[types.Type]bool{}) {
				ok = false // a map keyed by it, or a generic holding it, whatever the expression
			} else if has && !tv.IsType() && e.holds(tv.Type, map[types.Type]bool{}) {
				ok = e.flows(x, stack, enclosing)
			}
		}
		stack = append(stack, n)
		return ok
	})
	return ok
}

// holds reports whether values of t hold a value of e.t.
func (e *enumCheck) holds(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if types.Identical(t, e.t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return e.holds(u.Elem(), seen)
	case *types.Slice:
		return e.holds(u.Elem(), seen)
	case *types.Array:
		return e.holds(u.Elem(), seen)
	case *types.Map:
		return e.holds(u.Key(), seen) || e.holds(u.Elem(), seen)
	case *types.Chan:
		return e.holds(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if e.holds(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// escapes reports whether t holds the struct where the package's code is
// not what reads it: as a map key (a map compares whole keys) or as a type
// argument (generic code sees it as its type parameter).
func (e *enumCheck) escapes(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok {
		for i := range n.TypeArgs().Len() {
			if e.holds(n.TypeArgs().At(i), map[types.Type]bool{}) {
				return true
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return e.escapes(u.Elem(), seen)
	case *types.Slice:
		return e.escapes(u.Elem(), seen)
	case *types.Array:
		return e.escapes(u.Elem(), seen)
	case *types.Chan:
		return e.escapes(u.Elem(), seen)
	case *types.Map:
		return e.holds(u.Key(), map[types.Type]bool{}) || e.escapes(u.Key(), seen) || e.escapes(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if e.escapes(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Signature:
		return e.escapes(u.Params(), seen) || e.escapes(u.Results(), seen)
	case *types.Tuple:
		for i := range u.Len() {
			if e.escapes(u.At(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// read judges a use of the field: a key of a literal (a write), or an
// operand of a comparison with a constant that answers the same for both
// values. The selector around the use is the operand.
func (e *enumCheck) read(id *ast.Ident, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	if kv, isKey := stack[len(stack)-1].(*ast.KeyValueExpr); isKey && kv.Key == id {
		return true // timeFormat{typ: …}: a row that sets it
	}
	sel, isSel := stack[len(stack)-1].(*ast.SelectorExpr)
	if !isSel || sel.Sel != id || len(stack) < 2 {
		return false
	}
	var operand ast.Expr = sel
	i := len(stack) - 2
	for ; i >= 0; i-- {
		p, isParen := stack[i].(*ast.ParenExpr)
		if !isParen {
			break
		}
		operand = p
	}
	if i < 0 {
		return false
	}
	b, isBin := stack[i].(*ast.BinaryExpr)
	if !isBin || !isComparison(b.Op) {
		return false
	}
	other, left := b.Y, true
	if b.Y == operand {
		other, left = b.X, false
	}
	k := e.info.Types[other].Value
	if k == nil || k.Kind() != constant.Int {
		return false
	}
	answer := func(v constant.Value) bool {
		if left {
			return constant.Compare(v, b.Op, k)
		}
		return constant.Compare(k, b.Op, v)
	}
	e.reads++
	return answer(e.old) == answer(e.nv)
}

// flows judges an expression whose value holds the struct: it may only be
// read from (a field, an element, a range), or move whole into the
// package's own unexported code with its exact type. Anything else (an
// interface, a comparison, a conversion, an exported name, a call to
// another package) could read the field.
func (e *enumCheck) flows(x ast.Expr, stack []ast.Node, fn *ast.FuncDecl) bool {
	var child ast.Node = x
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr, *ast.StarExpr:
			child = p
			continue
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				child = p
				continue
			}
			return false
		case *ast.SelectorExpr:
			return p.X == child
		case *ast.IndexExpr:
			return p.X == child
		case *ast.SliceExpr:
			return p.X == child
		case *ast.RangeStmt:
			return p.X == child
		case *ast.CompositeLit, *ast.KeyValueExpr:
			// An element of a bigger value: that value is judged as it
			// flows on.
			return e.holds(e.info.Types[outerLit(stack[:i+1])].Type, map[types.Type]bool{})
		case *ast.CallExpr:
			return e.argument(p, child)
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == child {
					return true // written to: what is written is judged as it flows
				}
			}
			for j, r := range p.Rhs {
				if r == child && len(p.Lhs) == len(p.Rhs) {
					return e.local(p.Lhs[j], e.info.Types[x].Type)
				}
			}
			return false
		case *ast.ValueSpec:
			for j, v := range p.Values {
				if v == child && j < len(p.Names) {
					return e.local(p.Names[j], e.info.Types[x].Type)
				}
			}
			return false
		case *ast.ReturnStmt:
			for _, q := range stack[:i] {
				if _, lit := q.(*ast.FuncLit); lit {
					return false // a closure's result: where it goes is not followed
				}
			}
			return fn != nil && !fn.Name.IsExported() && fn.Recv == nil
		default:
			return false
		}
	}
	return false
}

// outerLit is the innermost composite literal on stack.
func outerLit(stack []ast.Node) ast.Expr {
	for i := len(stack) - 1; i >= 0; i-- {
		if cl, ok := stack[i].(*ast.CompositeLit); ok {
			return cl
		}
	}
	return nil
}

// local reports whether lhs is a blank, a local variable or an unexported
// package-level one, of type t exactly.
func (e *enumCheck) local(lhs ast.Expr, t types.Type) bool {
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	o := e.info.Defs[id]
	if o == nil {
		o = e.info.Uses[id]
	}
	v, ok := o.(*types.Var)
	return ok && !v.Exported() && types.Identical(v.Type(), t)
}

// argument reports whether arg is passed to an unexported function of the
// package whose parameter has the argument's type exactly (or is the
// receiver of a method call, judged as a selector).
func (e *enumCheck) argument(call *ast.CallExpr, arg ast.Node) bool {
	if call.Ellipsis.IsValid() {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if b, isBuiltin := e.info.Uses[id].(*types.Builtin); isBuiltin {
		switch b.Name() {
		case "len", "cap":
			return true
		case "append":
			// Into the result, judged as it flows — if the result holds
			// it as itself ([]any does not).
			return e.holds(e.info.Types[call].Type, map[types.Type]bool{})
		}
		return false
	}
	f, ok := e.info.Uses[id].(*types.Func)
	if !ok || f.Exported() || f.Pkg() != e.pkg {
		return false
	}
	sig := f.Type().(*types.Signature)
	if sig.TypeParams().Len() > 0 {
		return false
	}
	for i, a := range call.Args {
		if ast.Node(a) == arg && i < sig.Params().Len() && !(sig.Variadic() && i >= sig.Params().Len()-1) {
			return types.Identical(sig.Params().At(i).Type(), e.info.Types[a].Type)
		}
	}
	return false
}
