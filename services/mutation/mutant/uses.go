package mutant

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Statement removal may remove the last use of a local variable or of an
// import: deleted by hand, the statement takes the names only it used with
// it (`for i, n := range names` → `for range names`, the import dropped or
// kept blank for its init), and that program behaves as the schemata's
// mutant does — `names[i] = strings.ToLower(n)`, the whole of a fix that
// writes through a loop, is judged by its removal like any other
// statement. What removal must not take is a store nothing reads: a
// statement that sets a local variable read nowhere but in the statement
// itself (n += x with n never read after) is the same program without it,
// a mutant no test can kill. Without types, names alone cannot tell a read
// from a store, and the last use of anything stays.

// removal adds a statement-removal candidate for n unless removing it
// leaves the same program.
func (w *walker) removal(n ast.Stmt) {
	w.removeStmt(n, false)
}

// removeStmt is removal, the site marked Extra when extra is set.
func (w *walker) removeStmt(n ast.Stmt, extra bool) {
	if w.a.typed() && w.storesUnread(n) || !w.a.typed() && w.lastUse(n) {
		return
	}
	c := &candidate{how: rewriteWrap, node: n, list: true}
	c.site.Equivalent = w.removalIdentity(n)
	c.site.Extra = extra
	w.add(c, n.Pos(), OpStatementRemoval, descRemoveStmt)
}

// readUses maps each local variable (not a parameter) and each imported
// package name to the positions where the compiler counts it as used: every
// use but as the whole left-hand side of = (or of a := that redeclares it).
// It also notes in a.updates the uses that only update the variable: the
// whole operand of op= or of ++ and --.
func (a *analysis) readUses() map[types.Object][]token.Pos {
	if a.uses != nil {
		return a.uses
	}
	params := make(map[types.Object]bool)
	uses := make(map[types.Object][]token.Pos)
	a.updates = make(map[token.Pos]bool)
	update := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			a.updates[id.Pos()] = true
		}
	}
	for _, name := range a.names {
		assigned := make(map[*ast.Ident]bool)
		ast.Inspect(a.files[name], func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IncDecStmt:
				update(n.X)
			case *ast.FuncType:
				for _, fl := range []*ast.FieldList{n.TypeParams, n.Params, n.Results} {
					markParams(fl, a.info, params)
				}
			case *ast.FuncDecl:
				markParams(n.Recv, a.info, params)
			case *ast.AssignStmt:
				if n.Tok == token.ASSIGN || n.Tok == token.DEFINE {
					for _, e := range n.Lhs {
						if id, ok := ast.Unparen(e).(*ast.Ident); ok {
							assigned[id] = true
						}
					}
				} else if len(n.Lhs) == 1 {
					update(n.Lhs[0])
				}
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := ast.Unparen(e).(*ast.Ident); ok {
							assigned[id] = true
						}
					}
				}
			case *ast.Ident:
				obj := a.info.Uses[n]
				if obj == nil || assigned[n] {
					return true
				}
				switch obj := obj.(type) {
				case *types.PkgName:
					uses[obj] = append(uses[obj], n.Pos())
				case *types.Var:
					if !obj.IsField() && obj.Parent() != nil && obj.Parent() != a.pkg.Scope() {
						uses[obj] = append(uses[obj], n.Pos())
					}
				}
			}
			return true
		})
	}
	for obj := range params {
		delete(uses, obj)
	}
	a.uses = uses
	return uses
}

func markParams(fl *ast.FieldList, info *types.Info, params map[types.Object]bool) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, id := range f.Names {
			if obj := info.Defs[id]; obj != nil {
				params[obj] = true
			}
		}
	}
}

// storesUnread reports whether statement n sets a local variable (the
// whole left-hand side of = or op=, the operand of ++ or --) that nothing
// outside n reads but to update it (n += x, n++ elsewhere read n only to
// set it again): removing n then leaves the same program.
func (w *walker) storesUnread(n ast.Stmt) bool {
	var set []ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.DEFINE {
			set = n.Lhs
		}
	case *ast.IncDecStmt:
		set = []ast.Expr{n.X}
	}
	uses := w.a.readUses()
	for _, e := range set {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			continue
		}
		all, tracked := uses[w.a.info.Uses[id]]
		if !tracked {
			continue
		}
		unread := true
		for _, p := range all {
			if !contains(n, p) && !w.a.updates[p] {
				unread = false
				break
			}
		}
		if unread {
			return true
		}
	}
	return false
}

// lastUse reports whether n (a statement, or an operand a mutant drops)
// holds every use of a local variable or an import it refers to.
func (w *walker) lastUse(n ast.Node) bool {
	if w.a.typed() {
		uses := w.a.readUses()
		last := false
		ast.Inspect(n, func(m ast.Node) bool {
			id, ok := m.(*ast.Ident)
			if !ok || last {
				return !last
			}
			obj := w.a.info.Uses[id]
			all, tracked := uses[obj]
			if !tracked || contains(n, obj.Pos()) {
				return true
			}
			last = true
			for _, p := range all {
				if !contains(n, p) {
					last = false
					break
				}
			}
			return !last
		})
		return last
	}
	return w.lastUseByName(n)
}

func contains(n ast.Node, p token.Pos) bool { return n.Pos() <= p && p < n.End() }

// lastUseByName approximates lastUse without types: an identifier of n that
// names an import must occur outside n in the file, and one that names a
// variable declared in the body of the enclosing function must occur outside
// n at least twice there (its declaration and a use).
func (w *walker) lastUseByName(n ast.Node) bool {
	var fn *ast.FuncDecl
	for _, a := range w.stack {
		if fd, ok := a.(*ast.FuncDecl); ok {
			fn = fd
			break
		}
	}
	imports := make(map[string]bool)
	for _, spec := range w.file.Imports {
		imports[importName(spec)] = true
	}
	locals := make(map[string]bool)
	if fn != nil && fn.Body != nil {
		collectNames(fn.Body, make(map[string]bool), locals)
	}
	count := func(root ast.Node, name string) int {
		c := 0
		ast.Inspect(root, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok && id.Name == name && !contains(n, id.Pos()) {
				c++
			}
			return true
		})
		return c
	}
	last := false
	ast.Inspect(n, func(m ast.Node) bool {
		if last {
			return false
		}
		if sel, ok := m.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, func(x ast.Node) bool {
				if id, ok := x.(*ast.Ident); ok && !last {
					last = w.lastName(id, imports, locals, fn, count)
				}
				return !last
			})
			return false // the selected name is a field or method
		}
		if id, ok := m.(*ast.Ident); ok {
			last = w.lastName(id, imports, locals, fn, count)
		}
		return !last
	})
	return last
}

func (w *walker) lastName(id *ast.Ident, imports, locals map[string]bool, fn *ast.FuncDecl, count func(ast.Node, string) int) bool {
	switch {
	case locals[id.Name]:
		return count(fn, id.Name) < 2
	case imports[id.Name]:
		return count(w.file, id.Name) < 1
	}
	return false
}

// importName is the name an import declares, guessed from its path when the
// import does not name it.
func importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	path := spec.Path.Value
	if len(path) >= 2 {
		path = path[1 : len(path)-1]
	}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}
