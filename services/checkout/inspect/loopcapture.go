//lint:file-ignore SA1019 the parser's objects (ast.Object) resolve a function body's local names, all this file needs; composite-literal keys, which they cannot tell from names, are left out

package inspect

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/version"
	"maps"
	"path"
	"slices"

	"golang.org/x/mod/modfile"
)

// GoLoopCaptures reports each func literal the patch writes in a loop that
// captures a variable the loop shares across its iterations: a range's
// key or value assigned with =, a variable a for statement's post
// statement steps that the for did not declare, and — where the file's
// language version is below go1.22 (the module's go line, or none: go1.16;
// a //go:build go1.N line raises it, or lowers it from go1.21 on) — the variables the loop itself
// declares. A closure that outlives its iteration sees the last value
// (`out = append(out, func() int { return xs[i] })` gives the last element
// n times), and no statement of the capture is there to cover and no
// mutant switches it: RuleForeignCode. A literal called where it stands
// (not under go or defer) runs within its iteration and is left alone, as
// is a loop whose tokens the baseline's file already had.
//
// dir's non-test Go files on both sides (path → content); mods maps the
// tree's go.mod files (slash-separated paths) to their content.
func GoLoopCaptures(base, patched, mods map[string][]byte) []Finding {
	var out []Finding
	for _, file := range slices.Sorted(maps.Keys(patched)) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, patched[file], parser.ParseComments)
		if err != nil {
			continue // other analyses name it
		}
		perIteration := version.Compare(fileVersion(f, file, mods), "go1.22") >= 0
		had := map[string]bool{}
		if src, ok := base[file]; ok {
			if bf, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution); err == nil {
				ast.Inspect(bf, func(n ast.Node) bool {
					if isLoop(n) {
						had[sameTokens(string(src[n.Pos()-bf.FileStart:n.End()-bf.FileStart]))] = true
					}
					return true
				})
			}
		}
		src := patched[file]
		text := func(n ast.Node) string {
			return string(src[n.Pos()-f.FileStart : n.End()-f.FileStart])
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if !isLoop(n) || had[sameTokens(text(n))] {
				return true
			}
			shared, why := loopShared(n, perIteration)
			if len(shared) == 0 {
				return true
			}
			for _, c := range escapingCaptures(loopBody(n), shared) {
				out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: fset.Position(c.at).Line,
					What: fmt.Sprintf("a func literal in a loop captures %s, which %s: one variable for every iteration, so a closure that outlives its iteration sees the last value; no statement of the capture is there to cover and no mutant switches it", c.name, why[c.obj])})
			}
			return true
		})
	}
	return Sort(out)
}

// fileVersion is the language version of a file: the go line of the
// nearest go.mod above it (go1.16 without one), or the file's //go:build
// go version, where that is higher, or lower in a module at go1.21 or
// later (go/types: a constraint may lower a file's version only there; a
// new file with //go:build go1.21 in a go1.22 module shares its loop
// variables again).
func fileVersion(f *ast.File, file string, mods map[string][]byte) string {
	v := "go1.16"
	roots := map[string]string{} // module root → its go.mod
	for name := range mods {
		roots[path.Dir(name)] = name
	}
	if root, ok := moduleRootOf(path.Dir(file), roots); ok {
		if mf, err := modfile.ParseLax(roots[root], mods[roots[root]], nil); err == nil && mf.Go != nil {
			v = "go" + mf.Go.Version
		}
	}
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if expr, err := constraint.Parse(c.Text); err == nil {
				if gv := constraint.GoVersion(expr); gv != "" && (version.Compare(gv, v) > 0 || version.Compare(v, "go1.21") >= 0) {
					v = gv
				}
			}
		}
	}
	return v
}

func isLoop(n ast.Node) bool {
	switch n.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return true
	}
	return false
}

func loopBody(n ast.Node) *ast.BlockStmt {
	switch l := n.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// loopShared returns the objects of the variables loop n shares across
// its iterations, each with why.
func loopShared(n ast.Node, perIteration bool) ([]*ast.Object, map[*ast.Object]string) {
	why := map[*ast.Object]string{}
	var out []*ast.Object
	add := func(e ast.Expr, reason string) {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" || id.Obj == nil {
			return
		}
		if _, seen := why[id.Obj]; !seen {
			out = append(out, id.Obj)
			why[id.Obj] = reason
		}
	}
	switch l := n.(type) {
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{l.Key, l.Value} {
			switch {
			case e == nil:
			case l.Tok == token.ASSIGN:
				add(e, "the range assigns with =")
			case !perIteration:
				add(e, "the range declares below go1.22")
			}
		}
	case *ast.ForStmt:
		declared := map[*ast.Object]bool{}
		if as, ok := l.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, e := range as.Lhs {
				if id, ok := e.(*ast.Ident); ok && id.Obj != nil {
					declared[id.Obj] = true
					if !perIteration {
						add(e, "the for declares below go1.22")
					}
				}
			}
		}
		var stepped []ast.Expr
		switch p := l.Post.(type) {
		case *ast.IncDecStmt:
			stepped = append(stepped, p.X)
		case *ast.AssignStmt:
			stepped = append(stepped, p.Lhs...)
		}
		for _, e := range stepped {
			if id, ok := e.(*ast.Ident); ok && id.Obj != nil && !declared[id.Obj] {
				add(e, "the for steps, declared outside it")
			}
		}
	}
	return out, why
}

type capture struct {
	name string
	obj  *ast.Object
	at   token.Pos
}

// escapingCaptures returns, once per literal and variable, the uses of
// shared variables inside func literals of body that are not called where
// they stand (a call under go or defer runs later: it escapes too).
func escapingCaptures(body *ast.BlockStmt, shared []*ast.Object) []capture {
	if body == nil {
		return nil
	}
	var out []capture
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		lit, ok := n.(*ast.FuncLit)
		if !ok || calledInPlace(lit, stack) {
			return true
		}
		seen := map[*ast.Object]bool{}
		keys := map[*ast.Ident]bool{} // T{K: v}: K may be a field's name
		ast.Inspect(lit.Body, func(m ast.Node) bool {
			if kv, ok := m.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					keys[id] = true
				}
			}
			if id, ok := m.(*ast.Ident); ok && !keys[id] && id.Obj != nil && slices.Contains(shared, id.Obj) && !seen[id.Obj] {
				seen[id.Obj] = true
				out = append(out, capture{name: id.Name, obj: id.Obj, at: id.Pos()})
			}
			return true
		})
		return true
	})
	return out
}

// calledInPlace reports whether lit (the top of stack) is the function of
// a call that is not a go or defer statement's.
func calledInPlace(lit *ast.FuncLit, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != lit {
		return false
	}
	if len(stack) >= 3 {
		switch stack[len(stack)-3].(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		}
	}
	return true
}
