package mutant

import (
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
// the narrow type holds exactly (int64(float32(i16))).
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
	var convs []*ast.CallExpr
	w.narrowConversions(arg, narrow, &convs)
	first := slices.IndexFunc(convs, func(c *ast.CallExpr) bool { return w.at(c.Pos()) })
	if first < 0 {
		return
	}
	scope := w.a.pkg.Scope().Innermost(n.Pos())
	if scope == nil {
		return
	}
	if _, obj := scope.LookupParent(to, n.Pos()); obj != types.Universe.Lookup(to) {
		return // the wide type's name means something else here
	}
	src := w.a.src[w.name]
	start, end := w.off(n.Pos()), w.off(n.End())
	var text strings.Builder
	at0 := start
	for _, c := range convs {
		text.Write(src[at0:w.off(c.Fun.Pos())])
		text.WriteString(to)
		at0 = w.off(c.Fun.End())
	}
	text.Write(src[at0:end])
	alt := text.String()
	stack := slices.Clone(w.stack)
	if !w.a.restorable(n, stack, alt) {
		return
	}
	typ, typed := w.a.siteType(tv.Type, n.Pos())
	desc := narrow.Name() + " → " + to
	pos := convs[first].Pos()
	if !typed {
		w.skip(pos, OpConversionWidening, desc, "the conversion's type cannot be named there")
		return
	}
	c := &candidate{how: rewriteWrap, node: n, typeText: typ, str: [2]string{"", alt}}
	if len(convs) == 1 && ast.Unparen(arg) == convs[0] {
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
