package mutant

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// wider names, for each predeclared numeric type that has one, the widest
// type of its kind: what conversion_widening converts to instead.
func wider(k types.BasicKind) string {
	switch k {
	case types.Float32:
		return "float64"
	case types.Complex64:
		return "complex128"
	case types.Int8, types.Int16, types.Int32:
		return "int64"
	case types.Uint8, types.Uint16, types.Uint32:
		return "uint64"
	}
	return ""
}

// conversion handles conversion_widening. A conversion to a narrow
// predeclared numeric type (float32, complex64, the integers under 64
// bits), written on a requested line, loses what the narrow type cannot
// hold; where the narrow value is only computed to be converted again
// (int64(float32(s) / float32(n))), the mutant computes it in the widest
// type of the kind instead (int64(float64(s) / float64(n))): every
// conversion to the narrow type on the way from the outer conversion's
// operand, through parentheses and arithmetic, is widened. The site is
// the outer conversion n, rewritten like a restore (the widened text when
// the mutant runs), and only where that text type-checks in its place. It
// is equivalent when the operand is one conversion whose operand's values
// the narrow type holds exactly (int64(float32(i16))). The narrow value
// may also reach n through a variable or a helper's result (see
// narrowSource); the site is then still the narrow conversion on its
// requested line, and the rewrite is at n.
func (w *walker) conversion(n *ast.CallExpr) {
	if !w.a.typed() || len(n.Args) != 1 || n.Ellipsis.IsValid() || w.inConstContext(n) {
		return
	}
	tv, ok := w.a.info.Types[n]
	if !ok || !tv.IsValue() || tv.Value != nil {
		return
	}
	if ft, ok := w.a.info.Types[n.Fun]; !ok || !ft.IsType() {
		return
	}
	arg := n.Args[0]
	at, ok := w.a.info.Types[arg]
	if !ok || at.Value != nil {
		return
	}
	narrow, ok := types.Unalias(at.Type).(*types.Basic)
	if !ok || wider(narrow.Kind()) == "" || types.Identical(tv.Type, narrow) {
		return
	}
	outer, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || outer.Info()&types.IsNumeric == 0 {
		return // string(rune(x)) and the like: no number
	}
	to := wider(narrow.Kind())
	scope := w.a.pkg.Scope().Innermost(n.Pos())
	if scope == nil {
		return
	}
	if _, obj := scope.LookupParent(to, n.Pos()); obj != types.Universe.Lookup(to) {
		return // the wide type's name means something else here
	}
	// The narrow value is computed in arg itself, or held by a variable
	// or returned by a function whose definition computes it (see
	// narrowSource); the widened text recomputes it at n.
	var convs []*ast.CallExpr
	w.narrowConversions(arg, narrow, &convs)
	def, via := arg, ""
	var wrap func(widened string) string
	if len(convs) == 0 {
		def, via, wrap = w.narrowSource(n, arg, narrow, to)
		if def == nil {
			return
		}
		w.narrowConversions(def, narrow, &convs)
	}
	first := slices.IndexFunc(convs, func(c *ast.CallExpr) bool { return w.at(c.Pos()) })
	if first < 0 {
		return
	}
	src := w.a.src[w.name]
	var text strings.Builder
	at0 := w.off(def.Pos())
	for _, c := range convs {
		text.Write(src[at0:w.off(c.Fun.Pos())])
		text.WriteString(to)
		at0 = w.off(c.Fun.End())
	}
	text.Write(src[at0:w.off(def.End())])
	widened := text.String()
	if wrap != nil {
		widened = wrap(widened)
	}
	alt := string(src[w.off(n.Pos()):w.off(arg.Pos())]) + widened + string(src[w.off(arg.End()):w.off(n.End())])
	stack := slices.Clone(w.stack)
	if !w.a.restorable(n, stack, alt) {
		return
	}
	typ, typed := w.a.siteType(tv.Type, n.Pos())
	desc := narrow.Name() + " → " + to
	pos := convs[first].Pos()
	use := w.a.fset.PositionFor(n.Pos(), false)
	if via != "" {
		desc += fmt.Sprintf(" (%s at %d:%d)", via, use.Line, use.Column)
	}
	if !typed {
		w.skip(pos, OpConversionWidening, desc, "the conversion's type cannot be named there")
		return
	}
	c := &candidate{how: rewriteWrap, node: n, typeText: typ, str: [2]string{"", alt}}
	if l := w.a.fset.PositionFor(pos, false).Line; via != "" && l != use.Line {
		// The tests that reach the wider use judge it: only there does
		// the mutant compute anything else.
		c.site.Reach = use.Line
	}
	if len(convs) == 1 && ast.Unparen(def) == convs[0] {
		switch {
		case w.exact(convs[0], narrow):
			c.site.Equivalent = "the narrow type holds every value of the converted operand"
		case w.truncates(outer, narrow, convs[0]):
			c.site.Equivalent = "the outer conversion keeps no more bits than the narrow one"
		}
	}
	w.add(c, pos, OpConversionWidening, desc)
}

// narrowConversions collects, in source order, the conversions to the
// predeclared type narrow that make up e's value: e itself, or reached
// through parentheses, unary and binary arithmetic of that type (not a
// shift's count).
func (w *walker) narrowConversions(e ast.Expr, narrow *types.Basic, out *[]*ast.CallExpr) {
	if t := w.a.info.TypeOf(e); t == nil || !types.Identical(t, narrow) {
		return
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		w.narrowConversions(e.X, narrow, out)
	case *ast.UnaryExpr:
		if e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR {
			w.narrowConversions(e.X, narrow, out)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			w.narrowConversions(e.X, narrow, out)
			w.narrowConversions(e.Y, narrow, out)
		case token.SHL, token.SHR:
			w.narrowConversions(e.X, narrow, out)
		}
	case *ast.CallExpr:
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok || len(e.Args) != 1 || w.a.info.Uses[id] != types.Universe.Lookup(id.Name) {
			return
		}
		if tn, ok := w.a.info.Uses[id].(*types.TypeName); ok && types.Identical(tn.Type(), narrow) {
			*out = append(*out, e)
		}
	}
}

// truncates reports whether converting the integer operand of c to the
// integer type outer gives the same value through narrow as through the
// widest type: outer is no wider than narrow, so only the low bits both
// keep reach it.
func (w *walker) truncates(outer, narrow *types.Basic, c *ast.CallExpr) bool {
	from, ok := types.Unalias(w.a.info.TypeOf(c.Args[0])).(*types.Basic)
	if !ok {
		return false
	}
	integer := func(b *types.Basic) bool { return b.Info()&types.IsInteger != 0 }
	return integer(outer) && integer(narrow) && integer(from) && w.a.sizes.Sizeof(outer) <= w.a.sizes.Sizeof(narrow)
}

// exact reports whether the conversion c to narrow keeps every value of
// its operand's type: a narrower or equal type of the same kind, an
// unsigned integer to a wider signed one, or an integer whose bits fit
// a float's mantissa.
func (w *walker) exact(c *ast.CallExpr, narrow *types.Basic) bool {
	from, ok := types.Unalias(w.a.info.TypeOf(c.Args[0])).(*types.Basic)
	if !ok {
		return false
	}
	fi, ni := from.Info(), narrow.Info()
	fs, ns := w.a.sizes.Sizeof(from), w.a.sizes.Sizeof(narrow)
	switch {
	case fi&types.IsInteger != 0 && ni&types.IsInteger != 0:
		fu, nu := fi&types.IsUnsigned != 0, ni&types.IsUnsigned != 0
		return fu == nu && fs <= ns || fu && !nu && fs < ns
	case fi&types.IsInteger != 0 && ni&types.IsFloat != 0:
		bits := fs * 8
		if fi&types.IsUnsigned == 0 {
			bits--
		}
		mantissa := int64(24)
		if ns == 8 {
			mantissa = 53
		}
		return bits <= mantissa
	case fi&types.IsFloat != 0 && ni&types.IsFloat != 0, fi&types.IsComplex != 0 && ni&types.IsComplex != 0:
		return fs <= ns
	}
	return false
}

// narrowSource finds where the narrow value arg, the operand of the
// conversion n to a wider type, is computed when arg is no conversion
// itself, so that the mutant can compute it in the wide type to instead:
//
//   - a local variable defined once (m := float32(s) / float32(k)) and
//     never written again: the definition's expression, recomputed at n,
//     which is the value a variable of the wide type would hold there as
//     long as nothing the expression reads changed in between (see
//     stableExpr);
//   - a call of a function of the file whose body is one return of the
//     narrow value (func ratio(a, b int64) float32 { return float32(a) /
//     float32(b) }): that expression, in a function literal of the same
//     parameters and the wide result, called with the call's arguments.
//
// It returns the expression (nil when there is none), a name for the
// description (the variable's or the function's) and, for a call, how to
// wrap the widened expression into the literal's call.
func (w *walker) narrowSource(n *ast.CallExpr, arg ast.Expr, narrow *types.Basic, to string) (ast.Expr, string, func(string) string) {
	fn := w.enclosingFunc()
	if fn == nil {
		return nil, "", nil
	}
	switch x := ast.Unparen(arg).(type) {
	case *ast.Ident:
		v, ok := w.a.info.Uses[x].(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == w.a.pkg.Scope() {
			return nil, "", nil
		}
		def, stmt := w.definition(fn, v)
		if def == nil || !w.stableVar(fn, v, stmt.Pos(), x.Pos()) || !w.stableExpr(def, n.Pos(), func(id *ast.Ident, obj types.Object) bool {
			lv, ok := obj.(*types.Var)
			return ok && w.means(id, n.Pos()) && w.localValue(fn, lv) && w.stableVar(fn, lv, stmt.Pos(), n.Pos())
		}) {
			return nil, "", nil
		}
		return def, x.Name, func(s string) string { return "(" + s + ")" }
	case *ast.CallExpr:
		id, ok := ast.Unparen(x.Fun).(*ast.Ident)
		if !ok || x.Ellipsis.IsValid() {
			return nil, "", nil
		}
		f, ok := w.a.info.Uses[id].(*types.Func)
		if !ok {
			return nil, "", nil
		}
		decl := w.funcDecl(f)
		if decl == nil || decl.Recv != nil || decl.Type.TypeParams != nil || decl.Body == nil || len(decl.Body.List) != 1 {
			return nil, "", nil
		}
		ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
		sig := f.Type().(*types.Signature)
		if !ok || len(ret.Results) != 1 || sig.Variadic() || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), narrow) {
			return nil, "", nil
		}
		params := map[types.Object]bool{}
		var list []string
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			typ, ok := w.a.siteType(p.Type(), n.Pos())
			if !ok {
				return nil, "", nil
			}
			name := p.Name()
			if name == "" {
				name = "_"
			}
			params[p] = true
			list = append(list, name+" "+typ)
		}
		def := ret.Results[0]
		if !w.stableExpr(def, n.Pos(), func(_ *ast.Ident, obj types.Object) bool { return params[obj] }) {
			return nil, "", nil
		}
		src := w.a.src[w.name]
		args := string(src[w.off(x.Lparen)+1 : w.off(x.Rparen)])
		return def, id.Name, func(s string) string {
			return fmt.Sprintf("func(%s) %s { return %s }(%s)", strings.Join(list, ", "), to, s, args)
		}
	}
	return nil, "", nil
}

// enclosingFunc returns the innermost function (declaration or literal)
// around the visited node, nil outside any.
func (w *walker) enclosingFunc() ast.Node {
	for i := len(w.stack) - 1; i >= 0; i-- {
		switch f := w.stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return f
		}
	}
	return nil
}

// funcBody returns the body of a function node, nil when it has none.
func funcBody(fn ast.Node) *ast.BlockStmt {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// funcDecl returns the declaration of f in the walked file, nil when it is
// declared elsewhere: the site is reported in the file it rewrites.
func (w *walker) funcDecl(f *types.Func) *ast.FuncDecl {
	for _, d := range w.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && w.a.info.Defs[fd.Name] == f {
			return fd
		}
	}
	return nil
}

// definition returns the expression that defines the local variable v in
// the body of fn (v := e, var v = e, var v T = e, one value per name) and
// the statement, or nil when v is declared otherwise (a parameter, a
// range variable, a multi-value assignment) or in another function.
func (w *walker) definition(fn ast.Node, v *types.Var) (ast.Expr, ast.Stmt) {
	var def ast.Expr
	var stmt ast.Stmt
	ast.Inspect(funcBody(fn), func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // v must be defined in fn itself
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && w.a.info.Defs[id] == v {
						def, stmt = x.Rhs[i], x
					}
				}
			}
		case *ast.DeclStmt:
			gd, ok := x.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				return false
			}
			for _, sp := range gd.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok || len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, id := range vs.Names {
					if w.a.info.Defs[id] == v {
						def, stmt = vs.Values[i], x
					}
				}
			}
		}
		return def == nil
	})
	return def, stmt
}

// localValue reports whether v is a variable declared in fn (a parameter
// or a local, whose every write is then in fn's body) whose type is a
// predeclared basic type, an unnamed slice or an array: nothing but an
// assignment to v or its address changes its value or its length.
func (w *walker) localValue(fn ast.Node, v *types.Var) bool {
	if v.IsField() || v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
		return false
	}
	switch types.Unalias(v.Type()).(type) {
	case *types.Basic, *types.Slice, *types.Array:
		return true
	}
	return false
}

// means reports whether the name id stands for, at the position at, the
// object it stands for where it is written.
func (w *walker) means(id *ast.Ident, at token.Pos) bool {
	scope := w.a.pkg.Scope().Innermost(at)
	if scope == nil {
		return false
	}
	obj := w.a.info.Uses[id]
	_, found := scope.LookupParent(id.Name, at)
	return obj != nil && found == obj
}

// stableVar reports whether the local variable v of fn keeps the value it
// has at from until use: no statement of fn after from writes it, no
// function literal in fn writes it, and its address is never taken (so
// no one else can). Positions order the statements soundly here: a loop
// that would run an earlier write again between from and use holds from
// too, or the write is after from.
func (w *walker) stableVar(fn ast.Node, v *types.Var, from, use token.Pos) bool {
	if use < from {
		return false
	}
	stable := true
	var lits int
	var visit func(x ast.Node) bool
	written := func(e ast.Expr, at token.Pos) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || w.a.info.ObjectOf(id) != v {
			return
		}
		if w.a.info.Defs[id] == v {
			return // the declaration itself
		}
		if at > from || lits > 0 {
			stable = false
		}
	}
	visit = func(x ast.Node) bool {
		if !stable {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			lits++
			ast.Inspect(x.Body, visit)
			lits--
			return false
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				written(l, x.Pos())
			}
		case *ast.IncDecStmt:
			written(x.X, x.Pos())
		case *ast.RangeStmt:
			if x.Tok == token.ASSIGN {
				if x.Key != nil {
					written(x.Key, x.Pos())
				}
				if x.Value != nil {
					written(x.Value, x.Pos())
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND && w.a.info.ObjectOf(id) == v {
				stable = false
			}
		}
		return true
	}
	ast.Inspect(funcBody(fn), visit)
	return stable
}

// stableExpr reports whether e, moved to the position at, computes there
// what it computes where it stands: it is built only of parentheses,
// arithmetic, literals, conversions to predeclared types, len and cap of
// a variable, constants, and variables ok accepts, and every name in it
// means the same object at at (a variable only where ok says so).
func (w *walker) stableExpr(e ast.Expr, at token.Pos, ok func(*ast.Ident, types.Object) bool) bool {
	same := func(id *ast.Ident) bool { return w.means(id, at) }
	var stable func(e ast.Expr) bool
	stable = func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.ParenExpr:
			return stable(e.X)
		case *ast.BasicLit:
			return true
		case *ast.UnaryExpr:
			return (e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR) && stable(e.X)
		case *ast.BinaryExpr:
			return stable(e.X) && stable(e.Y)
		case *ast.Ident:
			switch obj := w.a.info.Uses[e].(type) {
			case *types.Const, *types.Nil:
				return same(e)
			case *types.Var:
				return ok(e, obj)
			}
			return false
		case *ast.CallExpr:
			id, isIdent := ast.Unparen(e.Fun).(*ast.Ident)
			if !isIdent || len(e.Args) != 1 || e.Ellipsis.IsValid() || !same(id) {
				return false
			}
			switch obj := w.a.info.Uses[id].(type) {
			case *types.TypeName:
				if _, basic := obj.Type().(*types.Basic); !basic || obj.Parent() != types.Universe {
					return false
				}
				return stable(e.Args[0])
			case *types.Builtin:
				arg, isVar := ast.Unparen(e.Args[0]).(*ast.Ident)
				return (obj.Name() == "len" || obj.Name() == "cap") && isVar && stable(arg)
			}
		}
		return false
	}
	return stable(e)
}
