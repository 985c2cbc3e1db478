package splice

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// A declaration the splice lays over the baseline may use a declaration
// both versions of the file have and the patch changes: the table of cases
// a table-driven test ranges over, the type of its rows, a field the patch
// adds to a struct the test decodes into, a helper. The baseline's other
// tests keep the baseline's versions; the spliced declarations get the
// patch's, laid beside them under new names (patchPrefix and the name),
// which no test runner takes for a test.
const patchPrefix = "sealgatePatch_"

// topDecl is the declaration of one top-level name.
type topDecl struct {
	decl ast.Decl // the function, or the whole declaration group
	text string   // the name's own declaration: the function, or its spec
}

// topLevel maps the names f declares at top level — functions (not
// methods or init), types, variables and constants, not blank names — to
// their declarations.
func topLevel(fset *token.FileSet, f *ast.File, src []byte) map[string]topDecl {
	out := map[string]topDecl{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				out[d.Name.Name] = topDecl{d, string(source(fset, d, src))}
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for i, s := range d.Specs {
				text := string(src[fset.Position(s.Pos()).Offset:fset.Position(s.End()).Offset])
				if d.Tok == token.CONST {
					// A constant without values repeats the ones before
					// it: its meaning is the group's.
					text = fmt.Sprintf("%d\x00%s", i, source(fset, d, src))
				}
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = topDecl{d, text}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							out[n.Name] = topDecl{d, text}
						}
					}
				}
			}
		}
	}
	return out
}

// namesOf lists the top-level names d declares: those keysOf names by a
// kind and a name (none for a method, init or a blank name).
func namesOf(fset *token.FileSet, d ast.Decl, src []byte) []string {
	var out []string
	for _, k := range keysOf(fset, d, src) {
		switch kind, name, _ := strings.Cut(k, " "); kind {
		case "func", "type", "var", "const":
			out = append(out, name)
		}
	}
	return out
}

// uses lists the identifiers in n that may name a top-level declaration:
// every identifier but a selected field or method, the field and method
// names of struct and interface types, the keys of a literal that is not
// syntactically a map, slice or array (a struct's field names), labels and
// a method's own name. A local that shadows a top-level name is listed
// too: renaming it with every use keeps the meaning.
func uses(n ast.Node) []*ast.Ident {
	skip := map[*ast.Ident]bool{}
	fieldNames := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				skip[id] = true
			}
		}
	}
	var out []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			skip[x.Sel] = true
		case *ast.StructType:
			fieldNames(x.Fields)
		case *ast.InterfaceType:
			fieldNames(x.Methods)
		case *ast.CompositeLit:
			switch x.Type.(type) {
			case *ast.MapType, *ast.ArrayType:
			default:
				for _, e := range x.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							skip[id] = true
						}
					}
				}
			}
		case *ast.LabeledStmt:
			skip[x.Label] = true
		case *ast.BranchStmt:
			if x.Label != nil {
				skip[x.Label] = true
			}
		case *ast.FuncDecl:
			if x.Recv != nil {
				skip[x.Name] = true
			}
		case *ast.Ident:
			if !skip[x] {
				out = append(out, x)
			}
		}
		return true
	})
	return out
}

// patchVersions finds what the declarations roots (of patched) use of the
// file's other declarations, directly or through one another, that the
// patch changes — or that use, in turn, one that comes so (a helper whose
// parameter is a type the patch changes) — and returns the patch's
// versions of them, with the patch's methods of a type among them, adding
// the new name of each name they declare to rename (which may hold names
// already). A declaration group comes whole, every name in it renamed. The
// roots then see the patch's versions of everything they use that differs,
// consistently, and the baseline's other declarations stay as they are.
func patchVersions(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, roots []ast.Decl, keep map[string]bool, rename map[string]string) (brought []ast.Decl, err error) {
	bTop, pTop := topLevel(fset, bf, base), topLevel(fset, pf, patched)
	isRoot := map[ast.Decl]bool{}
	for _, d := range roots {
		isRoot[d] = true
	}
	eligible := func(name string) bool {
		_, inBase := bTop[name]
		p, inPatch := pTop[name]
		return inBase && inPatch && !keep[name] && rename[name] == "" && !isRoot[p.decl]
	}
	// What the roots and the methods brought so far use, through the
	// patch's versions of the file's declarations.
	var methods []ast.Decl
	used := func() map[string]bool {
		seen := map[string]bool{}
		queue := slices.Concat(roots, methods)
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			for _, id := range uses(d) {
				if !eligible(id.Name) || seen[id.Name] {
					continue
				}
				seen[id.Name] = true
				queue = append(queue, pTop[id.Name].decl)
			}
		}
		return seen
	}
	var tainted map[string]bool
	for {
		reached := used()
		tainted = map[string]bool{}
		for n := range reached {
			if bTop[n].text != pTop[n].text {
				tainted[n] = true
			}
		}
		for grew := true; grew; {
			grew = false
			for n := range reached {
				if tainted[n] {
					continue
				}
				if slices.ContainsFunc(uses(pTop[n].decl), func(id *ast.Ident) bool { return tainted[id.Name] && id.Name != n }) {
					tainted[n], grew = true, true
				}
			}
		}
		// A declaration group comes whole.
		for n := range reached {
			if tainted[n] {
				for _, m := range namesOf(fset, pTop[n].decl, patched) {
					if eligible(m) {
						tainted[m] = true
					}
				}
			}
		}
		more := false
		for _, m := range pf.Decls {
			if fn, ok := m.(*ast.FuncDecl); ok && fn.Recv != nil && tainted[recvName(fn.Recv)] && !slices.Contains(methods, m) {
				methods, more = append(methods, m), true
			}
		}
		if !more {
			break
		}
	}
	queued := map[ast.Decl]bool{}
	for _, d := range pf.Decls {
		names := namesOf(fset, d, patched)
		if !slices.ContainsFunc(names, func(n string) bool { return tainted[n] }) || queued[d] {
			continue
		}
		queued[d] = true
		brought = append(brought, d)
		for _, n := range names {
			rename[n] = patchPrefix + n
		}
	}
	for _, d := range pf.Decls {
		if slices.Contains(methods, d) {
			brought = append(brought, d)
		}
	}
	for _, n := range rename {
		if _, ok := bTop[n]; ok {
			return nil, fmt.Errorf("%w: the baseline declares %s already", ErrConflict, n)
		}
		if _, ok := pTop[n]; ok {
			return nil, fmt.Errorf("%w: the patch declares %s already", ErrConflict, n)
		}
	}
	return brought, nil
}

// renamedSource is d's text with its doc comment, every identifier uses
// lists renamed as rename says.
func renamedSource(fset *token.FileSet, d ast.Decl, src []byte, rename map[string]string) []byte {
	text := source(fset, d, src)
	if len(rename) == 0 {
		return text
	}
	start := fset.Position(sourceStart(d)).Offset
	var b strings.Builder
	at := 0
	for _, id := range uses(d) {
		to, ok := rename[id.Name]
		if !ok {
			continue
		}
		off := fset.Position(id.Pos()).Offset - start
		b.Write(text[at:off])
		b.WriteString(to)
		at = off + len(id.Name)
	}
	b.Write(text[at:])
	return []byte(b.String())
}

// editedByUse lists the functions of patched, not methods, that both
// versions declare with the same text and that use, directly or through
// other declarations of the file, one the patch changes (not a type).
func editedByUse(fset *token.FileSet, bf, pf *ast.File, base, patched []byte) []string {
	bTop, pTop := topLevel(fset, bf, base), topLevel(fset, pf, patched)
	changed, usesChanged := changedUses(fset, bf, pf, base, patched)
	var out []string
	for name, p := range pTop {
		if fn, ok := p.decl.(*ast.FuncDecl); ok && !changed(name) && bTop[name].decl != nil && usesChanged(fn) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// changedUses returns whether the patch changes the top-level name (a
// function, variable or constant both versions declare, not a type), and
// whether a declaration of patched uses, directly or through other
// declarations of the file, one it changes.
func changedUses(fset *token.FileSet, bf, pf *ast.File, base, patched []byte) (changed func(string) bool, usesChanged func(ast.Decl) bool) {
	bTop, pTop := topLevel(fset, bf, base), topLevel(fset, pf, patched)
	// A type the patch changes (a field added) changes no test that
	// uses it by itself: the tables, values and functions do.
	changed = func(name string) bool {
		b, ok1 := bTop[name]
		p, ok2 := pTop[name]
		if g, ok := p.decl.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			return false
		}
		return ok1 && ok2 && b.text != p.text
	}
	usesChanged = func(fn ast.Decl) bool {
		seen := map[ast.Decl]bool{fn: true}
		for queue := []ast.Decl{fn}; len(queue) > 0; queue = queue[1:] {
			for _, id := range uses(queue[0]) {
				if changed(id.Name) {
					return true
				}
				if q, ok := pTop[id.Name]; ok && !seen[q.decl] {
					seen[q.decl] = true
					queue = append(queue, q.decl)
				}
			}
		}
		return false
	}
	return changed, usesChanged
}
