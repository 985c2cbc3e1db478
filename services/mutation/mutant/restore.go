package mutant

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// restoreSites picks, for each group of the package's restores (see
// Restore), the first that can be written in the file named name, keyed
// by its expression's byte range (an expression may have several: what
// stood there, and its projections).
func (a *analysis) restoreSites(name string, rs []Restore) map[[2]int][]Restore {
	if !a.typed() {
		return nil
	}
	f, ok := a.files[name]
	if !ok {
		return nil
	}
	tf := a.fset.File(f.Pos())
	// Every expression of the file by its byte range, with its ancestors.
	type found struct {
		expr  ast.Expr
		stack []ast.Node
	}
	byRange := map[[2]int]found{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if e, ok := n.(ast.Expr); ok {
			k := [2]int{tf.Offset(e.Pos()), tf.Offset(e.End())}
			if _, dup := byRange[k]; !dup {
				byRange[k] = found{e, slices.Clone(stack)}
			}
		}
		stack = append(stack, n)
		return true
	})
	out := map[[2]int][]Restore{}
	done := map[int]bool{}
	for _, r := range rs {
		if r.File != name || done[r.Group] {
			continue
		}
		fd, ok := byRange[[2]int{r.Start, r.End}]
		if !ok || !a.restorable(fd.expr, fd.stack, r.Text) {
			continue
		}
		done[r.Group] = true
		k := [2]int{r.Start, r.End}
		out[k] = append(out[k], r)
	}
	return out
}

// restorable reports whether the expression e (its ancestors stack) can
// become text at run time: a value of code, not constant, whose type can
// be named there, in no place that needs it addressable or constant, and
// text type-checks at e with a type e's accepts.
func (a *analysis) restorable(e ast.Expr, stack []ast.Node, text string) bool {
	tv, ok := a.info.Types[e]
	if !ok || !tv.IsValue() || tv.Value != nil || tv.Type == nil {
		return false
	}
	if _, tuple := tv.Type.(*types.Tuple); tuple {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 && b.Kind() != types.UntypedBool {
		return false // a comparison's untyped bool is bool's
	}
	inFunc := false
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			inFunc = true
		case *ast.GenDecl:
			if n.Tok == token.CONST {
				return false
			}
		case *ast.ArrayType:
			return false // a length, or a type
		}
	}
	if !inFunc || len(stack) == 0 {
		return false
	}
	// What must stay addressable, assignable, a receive, or a call
	// evaluated where it stands.
	for _, n := range stack {
		if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil && cc.Comm.Pos() <= e.Pos() && e.End() <= cc.Comm.End() {
			if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return false
			}
		}
	}
	child := ast.Node(e)
	var parent ast.Node
	for i := len(stack) - 1; i >= 0; i-- {
		if _, ok := stack[i].(*ast.ParenExpr); !ok {
			parent = stack[i]
			break
		}
		child = stack[i]
	}
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if slices.ContainsFunc(p.Lhs, func(x ast.Expr) bool { return x == child }) {
			return false
		}
	case *ast.RangeStmt:
		if p.Key == child || p.Value == child {
			return false
		}
	case *ast.IncDecStmt, *ast.GoStmt, *ast.DeferStmt, *ast.IndexListExpr:
		return false
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return false
		}
	case *ast.SelectorExpr:
		return false // a method's receiver or a field's struct
	case *ast.IndexExpr:
		if p.X == child {
			return false
		}
	case *ast.SliceExpr:
		if p.X == child {
			return false
		}
	case *ast.KeyValueExpr:
		if p.Key == child {
			return false
		}
	case *ast.CallExpr:
		if p.Fun == child {
			return false // a function, or a conversion's type
		}
	}
	x, err := parser.ParseExpr(text)
	if err != nil {
		return false
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if err := types.CheckExpr(a.fset, a.pkg, e.Pos(), x, info); err != nil {
		return false
	}
	want := tv.Type
	if b, ok := want.(*types.Basic); ok && b.Kind() == types.UntypedBool {
		want = types.Typ[types.Bool]
	}
	bt := info.Types[x]
	return bt.IsValue() && bt.Type != nil && types.AssignableTo(bt.Type, want)
}

// restore handles an expression the patch replaced (Extra): the baseline's
// text in its place (see Restore).
func (w *walker) restore(e ast.Expr) {
	rs := w.restores[[2]int{w.off(e.Pos()), w.off(e.End())}]
	if len(rs) == 0 || !w.at(e.Pos()) {
		return
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	t := w.a.info.Types[e].Type
	if b, isBasic := t.(*types.Basic); isBasic && b.Kind() == types.UntypedBool {
		t = types.Typ[types.Bool]
	}
	typ, typed := w.a.siteType(t, e.Pos())
	for _, r := range rs {
		desc := flat(string(w.a.src[w.name][r.Start:r.End])) + " → " + flat(r.Text)
		if !typed {
			w.skip(e.Pos(), OpRestore, desc, "the expression's type cannot be named there")
			continue
		}
		c := &candidate{how: rewriteWrap, node: e, typeText: typ, str: [2]string{"", r.Text}}
		c.site.Extra = true
		w.add(c, e.Pos(), OpRestore, desc)
	}
}
