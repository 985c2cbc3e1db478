// Package splice lays what a patch adds to a Go test file over the file's
// baseline version.
//
// Most fixes add their test to an existing test file, and the patch's
// version of that file may change the file's other tests too. The gate
// judges those by the baseline's version, so a test the patch adds must
// run beside them, not beside the patch's versions of them: Go returns the
// baseline version of the file with the top-level declarations only the
// patch's version has — the new test functions, and the helpers, types
// and variables they bring — appended, and the imports those declarations
// use added. The same file runs the new test on the baseline code (does it
// fail there: is the fix proven?) and on the patched code.
package splice

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ErrConflict is wrapped by the errors of files that cannot be spliced: a
// declaration changed in part, an import name that means another package
// on the baseline, a file that does not parse.
var ErrConflict = errors.New("cannot splice")

// Go returns base with every top-level declaration that patched has and
// base does not (by name; for a blank or init declaration, by its text)
// appended in patched's order, and the imports they use added; added names
// the declarations appended, sorted. Comments of the appended declarations
// are kept. A base without additions is returned formatted, unchanged in
// meaning.
func Go(base, patched []byte) (out []byte, added []string, err error) {
	return GoReplacing(base, patched, nil)
}

// GoReplacing is Go that also replaces the functions named in replace
// (test functions both versions declare) with the patch's versions: a claim
// on a test the patch edits — a table-driven test it adds cases to — runs
// the patch's version of that one test beside the baseline's versions of
// the file's other tests.
func GoReplacing(base, patched []byte, replace []string) (out []byte, added []string, err error) {
	return lay(base, patched, replace, nil, nil, nil)
}

// BesideSuffix ends the name of the patch's version of a test laid beside
// the baseline's (GoBeside).
const BesideSuffix = "_sealgatePatch"

// GoBeside is Go that also lays the patch's versions of the tests named in
// beside (test functions both versions declare, which the patch edits)
// beside the baseline's, each renamed NAME+BesideSuffix: the baseline's
// test still runs, and so do the cases the patch adds to it — to measure
// what they reach and which mutants they kill.
func GoBeside(base, patched []byte, beside []string) (out []byte, added []string, err error) {
	return lay(base, patched, nil, beside, nil, nil)
}

// GoRegistering is GoBeside that also lays, for each gocheck suite type
// named in register (one the package registers, check.Suite(&S{})) whose
// methods the patch adds or edits in this file, the patch's methods of it
// on a wrapper registered beside it (suites.go): gocheck's one test
// function then runs the baseline's suite and the patch's version of it.
func GoRegistering(base, patched []byte, register, beside []string) (out []byte, added []string, err error) {
	return GoLaying(base, patched, Laying{Register: register, Beside: beside})
}

// Laying says what GoLaying lays over a file's baseline version besides
// the declarations the patch adds to it.
type Laying struct {
	// Replace names tests both versions declare whose patch's versions
	// replace the baseline's (GoReplacing).
	Replace []string
	// Beside names tests both versions declare whose patch's versions are
	// laid beside the baseline's, renamed (GoBeside).
	Beside []string
	// Register names gocheck suite types the package registers
	// (GoRegistering).
	Register []string
	// Wrap names testify suite types whose methods the patch edits in
	// some test file of the package, not only this one: the patch's
	// methods of each in this file are declared on its wrapper, and the
	// replaced or laid-beside tests of this file that run it run the
	// wrapper, which this file then declares (suites.go). Every file of
	// the package that holds methods the patch edits is laid with the
	// same Wrap, and the one holding the test that runs the suite
	// declares the wrapper.
	Wrap []string
}

// GoLaying lays what l names, and the declarations the patch adds, over
// the baseline version of a Go test file.
func GoLaying(base, patched []byte, l Laying) (out []byte, added []string, err error) {
	if len(l.Replace) > 0 && len(l.Beside) > 0 {
		return nil, nil, fmt.Errorf("%w: tests both replaced and laid beside", ErrConflict)
	}
	return lay(base, patched, l.Replace, l.Beside, l.Register, l.Wrap)
}

// lay is GoLaying.
func lay(base, patched []byte, replace, beside, register, wrap []string) (out []byte, added []string, err error) {
	fset := token.NewFileSet()
	bf, err := parser.ParseFile(fset, "base.go", base, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the baseline version does not parse: %v", ErrConflict, err)
	}
	pf, err := parser.ParseFile(fset, "patch.go", patched, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the patch's version does not parse: %v", ErrConflict, err)
	}
	if bf.Name.Name != pf.Name.Name {
		return nil, nil, fmt.Errorf("%w: the patch moves the file from package %s to %s", ErrConflict, bf.Name.Name, pf.Name.Name)
	}
	have := declared(fset, bf, base)
	replaced := map[string]bool{}
	for _, name := range replace {
		k := "func " + name
		if !have[k] {
			return nil, nil, fmt.Errorf("%w: the baseline version declares no %s to replace", ErrConflict, name)
		}
		replaced[k] = true
		delete(have, k)
	}
	var texts [][]byte
	var adds []ast.Decl
	for _, d := range pf.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		keys := keysOf(fset, d, patched)
		var fresh, old int
		for _, k := range keys {
			if have[k] {
				old++
			} else {
				fresh++
			}
		}
		switch {
		case fresh == 0:
			continue
		case old > 0:
			return nil, nil, fmt.Errorf("%w: a declaration group of the patch mixes new names with the baseline's (%s)", ErrConflict, strings.Join(keys, ", "))
		}
		adds = append(adds, d)
		for _, k := range keys {
			if !strings.HasPrefix(k, "text:") {
				added = append(added, k)
			}
		}
	}
	if len(replace) == 0 && len(beside) == 0 && len(register) == 0 && len(wrap) == 0 && onlyAdds(fset, bf, pf, base, patched) {
		// The patch's file is the baseline's with declarations (and
		// imports) added and nothing else changed: it is the spliced
		// file, line for line as committed — a test that reads its own
		// source position runs where its author put it.
		slices.Sort(added)
		return slices.Clone(patched), added, nil
	}
	// The tests laid beside the baseline's, renamed.
	rename := map[string]string{}
	for _, name := range beside {
		var fn *ast.FuncDecl
		for _, d := range pf.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == name {
				fn = f
			}
		}
		if fn == nil || !have["func "+name] {
			return nil, nil, fmt.Errorf("%w: %s is not a function both versions declare", ErrConflict, name)
		}
		if rename[name] == "" {
			rename[name] = name + BesideSuffix
			adds = append(adds, fn)
			added = append(added, "func "+name+BesideSuffix)
		}
	}
	// A replaced or laid-beside test that runs a testify suite whose
	// methods the patch edits runs them on a wrapper (suites.go); the
	// methods the patch adds to that type come with the wrapper's.
	keep := map[string]bool{}
	for k := range replaced {
		keep[strings.TrimPrefix(k, "func ")] = true
	}
	wrappers, methods := suiteWrappers(fset, bf, pf, base, patched, slices.Concat(slices.Sorted(maps.Keys(keep)), beside), wrap, rename)
	if len(register) > 0 {
		w, m, err := checkWrappers(fset, bf, pf, base, patched, register, rename)
		if err != nil {
			return nil, nil, err
		}
		wrappers, methods = append(wrappers, w...), append(methods, m...)
	}
	adds = slices.DeleteFunc(adds, func(d ast.Decl) bool { return slices.Contains(methods, d) })
	// What the added and replaced declarations use of the declarations
	// the patch changes comes as the patch has it, renamed.
	brought, err := patchVersions(fset, bf, pf, base, patched, slices.Concat(adds, methods), keep, rename)
	if err != nil {
		return nil, nil, err
	}
	adds = slices.Concat(adds, methods)
	texts = append(texts, wrappers...)
	if len(beside) > 0 {
		// A renamed type is another type: where the file's other
		// declarations embed it or take it, the tests laid beside may
		// not build, and a coverage or mutant run that does not build
		// measures nothing. Those files measure the baseline's tests.
		for _, d := range brought {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				return nil, nil, fmt.Errorf("%w: the tests laid beside use a type the patch changes (%s)", ErrConflict, strings.Join(namesOf(fset, g, patched), ", "))
			}
		}
	}
	for _, d := range slices.Concat(adds, brought) {
		texts = append(texts, renamedSource(fset, d, patched, rename))
	}
	imports, err := neededImports(bf, pf, slices.Concat(adds, brought))
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	insert := fset.Position(bf.Name.End()).Offset
	if n := len(bf.Imports); n > 0 {
		// After the last import declaration.
		for _, d := range bf.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				insert = fset.Position(g.End()).Offset
			}
		}
	}
	// The baseline's versions of the replaced functions are cut out.
	var cuts [][2]int
	for _, d := range bf.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && replaced["func "+fn.Name.Name] {
			start := fn.Pos()
			if fn.Doc != nil {
				start = fn.Doc.Pos()
			}
			cuts = append(cuts, [2]int{fset.Position(start).Offset, fset.Position(fn.End()).Offset})
		}
	}
	if len(cuts) != len(replaced) {
		return nil, nil, fmt.Errorf("%w: a function to replace is declared twice", ErrConflict)
	}
	if len(cuts) > 0 {
		var kept []byte
		at := 0
		for _, c := range cuts {
			kept = append(kept, base[at:c[0]]...)
			at = c[1]
		}
		base = append(kept, base[at:]...)
		if insert > cuts[0][0] {
			return nil, nil, fmt.Errorf("%w: a replaced function comes before the imports", ErrConflict)
		}
	}
	for k := range replaced {
		if !slices.Contains(added, k) {
			return nil, nil, fmt.Errorf("%w: the patch's version declares no %s", ErrConflict, strings.TrimPrefix(k, "func "))
		}
	}
	b.Write(base[:insert])
	if len(imports) > 0 {
		b.WriteString("\n\n// Imports of the declarations the patch adds.\nimport (\n")
		for _, im := range imports {
			b.WriteString("\t" + im + "\n")
		}
		b.WriteString(")\n")
	}
	b.Write(base[insert:])
	if len(texts) > 0 {
		b.WriteString("\n\n// Declarations the patch adds to this file, laid over its baseline version.\n")
		for i, t := range texts {
			if i == len(wrappers)+len(adds) {
				b.WriteString("// The patch's versions of declarations it changes that those use, renamed.\n")
			}
			b.Write(t)
			b.WriteString("\n\n")
		}
	}
	out, err = format.Source(b.Bytes())
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the spliced file does not parse: %v", ErrConflict, err)
	}
	if len(replaced) > 0 {
		// An import only the baseline's versions of the replaced
		// functions used is unused now (the patch's version may do
		// without it): blank it, as the file must still build.
		used := map[string]bool{}
		for _, d := range bf.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && replaced["func "+fn.Name.Name] {
				selectorBases(fn, used)
			}
		}
		if out, err = fixImports(out, used, map[string]bool{}, nil); err != nil {
			return nil, nil, err
		}
	}
	slices.Sort(added)
	return out, added, nil
}

// onlyAdds reports whether patched is base with declarations and imports
// added and nothing else of meaning changed: the same text before the
// package clause (build constraints), every import of base, every
// declaration of base with the same text and doc comment, and no //line
// directive base does not have (it would move what a test reads of its
// own position).
func onlyAdds(fset *token.FileSet, bf, pf *ast.File, base, patched []byte) bool {
	if !bytes.Equal(base[:fset.Position(bf.Package).Offset], patched[:fset.Position(pf.Package).Offset]) {
		return false
	}
	for _, dir := range []string{"//line ", "/*line "} {
		if bytes.Count(patched, []byte(dir)) != bytes.Count(base, []byte(dir)) {
			return false
		}
	}
	imports := map[string]bool{}
	for _, im := range pf.Imports {
		imports[importLine(im)] = true
	}
	for _, im := range bf.Imports {
		if !imports[importLine(im)] {
			return false
		}
	}
	texts := map[string]bool{}
	for _, d := range pf.Decls {
		texts[string(source(fset, d, patched))] = true
	}
	for _, d := range bf.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		if !texts[string(source(fset, d, base))] {
			return false
		}
	}
	return true
}

// declared is the set of keys of base's top-level declarations.
func declared(fset *token.FileSet, f *ast.File, src []byte) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		for _, k := range keysOf(fset, d, src) {
			out[k] = true
		}
	}
	return out
}

// keysOf names what a declaration declares: "func F", "method T.M",
// "type T", "var V", "const C"; a blank or init declaration, which can be
// repeated, by its text ("text:…").
func keysOf(fset *token.FileSet, d ast.Decl, src []byte) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			if d.Name.Name == "init" {
				return []string{"text:" + string(source(fset, d, src))}
			}
			return []string{"func " + d.Name.Name}
		}
		return []string{"method " + recvName(d.Recv) + "." + d.Name.Name}
	case *ast.GenDecl:
		var keys []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				keys = append(keys, "type "+s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name == "_" {
						keys = append(keys, "text:"+string(source(fset, d, src)))
						continue
					}
					keys = append(keys, d.Tok.String()+" "+n.Name)
				}
			}
		}
		return keys
	}
	return nil
}

// recvName is a method receiver's base type name.
func recvName(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return "?"
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// source is a declaration's text with its doc comment.
func source(fset *token.FileSet, d ast.Decl, src []byte) []byte {
	return src[fset.Position(sourceStart(d)).Offset:fset.Position(d.End()).Offset]
}

// sourceStart is where a declaration's text begins: its doc comment, if
// it has one.
func sourceStart(d ast.Decl) token.Pos {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			return d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			return d.Doc.Pos()
		}
	}
	return d.Pos()
}

// neededImports returns the import lines of patched, as patched writes
// them, that the added declarations use and base does not import. An
// import without a name is matched by the names a package at its path is
// commonly called (its last element, without a major-version element,
// without a ".v3" or "go-" decoration); a mismatch leaves the spliced file
// unbuildable, which the caller reports. Blank and dot imports are never
// added.
func neededImports(base, patched *ast.File, adds []ast.Decl) ([]string, error) {
	baseByPath := map[string]bool{}
	baseByName := map[string]string{}
	for _, im := range base.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		baseByPath[p] = true
		if im.Name != nil {
			baseByName[im.Name.Name] = p
		}
	}
	used := map[string]bool{}
	for _, d := range adds {
		ast.Inspect(d, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					used[id.Name] = true
				}
			}
			return true
		})
	}
	var out []string
	for _, im := range patched.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || baseByPath[p] {
			continue
		}
		names := candidateNames(p)
		if im.Name != nil {
			if im.Name.Name == "_" || im.Name.Name == "." {
				continue
			}
			names = []string{im.Name.Name}
		}
		if !slices.ContainsFunc(names, func(n string) bool { return used[n] }) {
			continue
		}
		line := strconv.Quote(p)
		if im.Name != nil {
			if bp, ok := baseByName[im.Name.Name]; ok && bp != p {
				return nil, fmt.Errorf("%w: %s means %q on the baseline and %q in the patch", ErrConflict, im.Name.Name, bp, p)
			}
			line = im.Name.Name + " " + line
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// candidateNames are the names a package imported without a name at path
// is commonly called.
func candidateNames(path string) []string {
	parts := strings.Split(path, "/")
	e := parts[len(parts)-1]
	if len(parts) > 1 && len(e) >= 2 && e[0] == 'v' && strings.Trim(e[1:], "0123456789") == "" {
		e = parts[len(parts)-2]
	}
	out := []string{e}
	if i := strings.IndexByte(e, '.'); i > 0 {
		out = append(out, e[:i])
	}
	if r, ok := strings.CutPrefix(e, "go-"); ok {
		out = append(out, r)
	}
	if i := strings.LastIndexByte(e, '-'); i > 0 {
		out = append(out, e[i+1:], e[:i])
	}
	return out
}

// Edited lists the functions both versions declare (not methods) whose
// text, doc comment included, the patch changes, or that use, directly or
// through other declarations of the file, a declaration the patch changes
// (the table of cases a test ranges over), or that run a testify suite
// whose methods in this file the patch edits (suiteEdited), sorted.
func Edited(base, patched []byte) ([]string, error) {
	fset := token.NewFileSet()
	bf, err := parser.ParseFile(fset, "base.go", base, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%w: the baseline version does not parse: %v", ErrConflict, err)
	}
	pf, err := parser.ParseFile(fset, "patch.go", patched, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%w: the patch's version does not parse: %v", ErrConflict, err)
	}
	texts := func(f *ast.File, src []byte) map[string]string {
		out := map[string]string{}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name != "init" {
				out[fn.Name.Name] = string(source(fset, fn, src))
			}
		}
		return out
	}
	b, p := texts(bf, base), texts(pf, patched)
	out := editedByUse(fset, bf, pf, base, patched)
	for name, t := range b {
		if pt, ok := p[name]; ok && (pt != t || len(suitesEdited(fset, bf, pf, base, patched, name)) > 0) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
