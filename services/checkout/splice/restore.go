package splice

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Restore is the counterfactual's splice, the other way round from Go: it
// returns patched (a non-test Go file of the patch) with each of the
// package-level declarations named in names ("near", or "T.m" for a
// method) replaced by its baseline version, found in base (the baseline's
// versions of the package's non-test files, by path; a declaration may
// have moved between files). The rest of the file — the code under test
// beside a helper — stays the patch's.
//
// Imports follow: one a restored declaration uses that the file does not
// import is added as the baseline file declaring it imports it; one only
// the replaced declarations used becomes a blank import (its package is
// still initialized, as in the patch). A declaration patched lacks, or
// base lacks, one of a spec that declares other names too, a constant of
// a group that repeats or counts (iota), and a grouped variable with a
// //go:embed directive cannot be restored alone: ErrConflict.
func Restore(patched []byte, base map[string][]byte, names []string) ([]byte, error) {
	fset := token.NewFileSet()
	pf, err := parser.ParseFile(fset, "patch.go", patched, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%w: the patch's version does not parse: %v", ErrConflict, err)
	}
	type baseFile struct {
		f   *ast.File
		src []byte
	}
	var bases []baseFile
	for _, p := range slices.Sorted(maps.Keys(base)) {
		f, err := parser.ParseFile(fset, p, base[p], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%w: the baseline's %s does not parse: %v", ErrConflict, p, err)
		}
		if f.Name.Name != pf.Name.Name {
			continue
		}
		bases = append(bases, baseFile{f, base[p]})
	}
	type edit struct {
		start, end int
		text       []byte
	}
	var edits []edit
	var removed []ast.Node
	var restoredImports []string // import lines the restored text may need
	var restored [][]byte
	for _, name := range slices.Sorted(slices.Values(names)) {
		ps, err := findDecl(fset, pf, patched, name)
		if err != nil {
			return nil, fmt.Errorf("%w: the patch's version: %v", ErrConflict, err)
		}
		var bs *declSpan
		var bsrc []byte
		var bfile *ast.File
		for _, b := range bases {
			if s, err := findDecl(fset, b.f, b.src, name); err == nil {
				bs, bsrc, bfile = s, b.src, b.f
				break
			}
		}
		if bs == nil {
			return nil, fmt.Errorf("%w: the baseline declares no %s", ErrConflict, name)
		}
		if ps.whole != bs.whole {
			return nil, fmt.Errorf("%w: %s is grouped with other declarations on one side only", ErrConflict, name)
		}
		text := bsrc[bs.start:bs.end]
		edits = append(edits, edit{ps.start, ps.end, text})
		removed = append(removed, ps.node)
		restored = append(restored, text)
		for _, im := range bfile.Imports {
			restoredImports = append(restoredImports, importLine(im))
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	for i := 1; i < len(edits); i++ {
		if edits[i].start < edits[i-1].end {
			return nil, fmt.Errorf("%w: two restored declarations overlap", ErrConflict)
		}
	}
	// Selectors the replaced text used and the restored text uses.
	before, after := map[string]bool{}, map[string]bool{}
	for _, n := range removed {
		selectorBases(n, before)
	}
	for _, t := range restored {
		if f, err := parser.ParseFile(token.NewFileSet(), "", append([]byte("package p\n"), t...), parser.SkipObjectResolution); err == nil {
			selectorBases(f, after)
		} else if f, err := parser.ParseFile(token.NewFileSet(), "", append([]byte("package p\nvar "), t...), parser.SkipObjectResolution); err == nil {
			selectorBases(f, after)
		}
	}
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		b.Write(patched[at:e.start])
		b.Write(e.text)
		at = e.end
	}
	b.Write(patched[at:])
	out, err := fixImports(b.Bytes(), before, after, restoredImports)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// declSpan is where one declaration is in a file: the bytes [start, end)
// replace it; whole says they are a whole declaration (a function, or a
// var, const or type declaration of one spec, doc comment included)
// rather than one spec of a group.
type declSpan struct {
	start, end int
	whole      bool
	node       ast.Node
}

// findDecl finds the declaration name declares in f.
func findDecl(fset *token.FileSet, f *ast.File, src []byte, name string) (*declSpan, error) {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var found []*declSpan
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			n := d.Name.Name
			if d.Recv != nil {
				n = recvName(d.Recv) + "." + n
			}
			if n != name || n == "init" {
				continue
			}
			start := d.Pos()
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			found = append(found, &declSpan{start: off(start), end: off(d.End()), whole: true, node: d})
		case *ast.GenDecl:
			for _, s := range d.Specs {
				var names []string
				var embeds, counts bool
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = []string{s.Name.Name}
				case *ast.ValueSpec:
					for _, id := range s.Names {
						names = append(names, id.Name)
					}
					embeds = hasEmbed(d.Doc) || hasEmbed(s.Doc)
					counts = d.Tok == token.CONST && d.Lparen.IsValid() && (len(s.Values) == 0 || mentionsIota(d))
				}
				if !slices.Contains(names, name) {
					continue
				}
				if len(names) > 1 {
					return nil, fmt.Errorf("%s is declared in one spec with %s", name, strings.Join(names, ", "))
				}
				if !d.Lparen.IsValid() {
					start := d.Pos()
					if d.Doc != nil {
						start = d.Doc.Pos()
					}
					found = append(found, &declSpan{start: off(start), end: off(d.End()), whole: true, node: d})
					continue
				}
				switch {
				case counts:
					return nil, fmt.Errorf("constant %s belongs to a group that repeats or counts (iota)", name)
				case embeds:
					return nil, fmt.Errorf("variable %s has a //go:embed directive inside a group", name)
				}
				start := s.Pos()
				if vs, ok := s.(*ast.ValueSpec); ok && vs.Doc != nil {
					start = vs.Doc.Pos()
				}
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Doc != nil {
					start = ts.Doc.Pos()
				}
				found = append(found, &declSpan{start: off(start), end: off(s.End()), node: s})
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no declaration of %s", name)
	case 1:
		if found[0].start < 0 || found[0].end > len(src) || found[0].start > found[0].end {
			return nil, fmt.Errorf("the declaration of %s is outside its file", name)
		}
		return found[0], nil
	}
	return nil, fmt.Errorf("%s is declared %d times", name, len(found))
}

func hasEmbed(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//go:embed") {
			return true
		}
	}
	return false
}

func mentionsIota(d *ast.GenDecl) bool {
	iota := false
	ast.Inspect(d, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			iota = true
		}
		return !iota
	})
	return iota
}

// selectorBases adds the identifiers selected from (x in x.Y) in n.
func selectorBases(n ast.Node, into map[string]bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				into[id.Name] = true
			}
		}
		return true
	})
}

// importLine is an import spec as source: `name "path"` or `"path"`.
func importLine(im *ast.ImportSpec) string {
	if im.Name != nil {
		return im.Name.Name + " " + im.Path.Value
	}
	return im.Path.Value
}

// fixImports adds the baseline imports the restored declarations need and
// blanks the imports only the replaced ones used, then formats src.
func fixImports(src []byte, before, after map[string]bool, baseImports []string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "restored.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%w: the restored file does not parse: %v", ErrConflict, err)
	}
	used := map[string]bool{}
	selectorBases(f, used)
	names := func(im *ast.ImportSpec) []string {
		if im.Name != nil {
			return []string{im.Name.Name}
		}
		p, _ := strconv.Unquote(im.Path.Value)
		return candidateNames(p)
	}
	has := map[string]bool{}
	var blank []*ast.ImportSpec
	for _, im := range f.Imports {
		ns := names(im)
		for _, n := range ns {
			has[n] = true
		}
		if im.Name != nil && (im.Name.Name == "_" || im.Name.Name == ".") {
			continue
		}
		if slices.ContainsFunc(ns, func(n string) bool { return before[n] }) && !slices.ContainsFunc(ns, func(n string) bool { return used[n] }) {
			blank = append(blank, im)
		}
	}
	var add []string
	for _, line := range slices.Sorted(slices.Values(baseImports)) {
		var im ast.ImportSpec
		name, quoted, named := strings.Cut(line, " ")
		if named {
			im.Name = &ast.Ident{Name: name}
		} else {
			quoted = name
		}
		im.Path = &ast.BasicLit{Kind: token.STRING, Value: quoted}
		ns := names(&im)
		if slices.ContainsFunc(ns, func(n string) bool { return after[n] && !has[n] }) && !slices.Contains(add, line) {
			add = append(add, line)
		}
	}
	var edits []struct {
		at   int
		text string
	}
	for _, im := range blank {
		at := fset.Position(im.Pos()).Offset
		if im.Name != nil {
			end := fset.Position(im.Name.End()).Offset
			src = slices.Concat(src[:at], []byte("_"), src[end:])
			// Offsets after this one shift; recompute by reparsing.
			return fixImports(src, before, after, baseImports)
		}
		edits = append(edits, struct {
			at   int
			text string
		}{at, "_ "})
	}
	if len(add) > 0 {
		at := fset.Position(f.Name.End()).Offset
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				at = fset.Position(g.End()).Offset
			}
		}
		edits = append(edits, struct {
			at   int
			text string
		}{at, "\n\n// Imports of the baseline declarations the counterfactual restores.\nimport (\n\t" + strings.Join(add, "\n\t") + "\n)\n"})
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	for _, e := range edits {
		src = slices.Concat(src[:e.at], []byte(e.text), src[e.at:])
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("%w: the restored file does not parse: %v", ErrConflict, err)
	}
	return out, nil
}

// Decls returns the source of every package-level declaration of a Go
// file by name ("near", or "T.m" for a method), doc comment included; a
// name declared in a spec with others maps to the whole spec. Blank and
// init declarations are left out.
func Decls(src []byte) (map[string]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "decls.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, err)
	}
	text := func(start, end token.Pos) string {
		return string(src[fset.Position(start).Offset:fset.Position(end).Offset])
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				name = recvName(d.Recv) + "." + name
			} else if name == "init" || name == "_" {
				continue
			}
			start := d.Pos()
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			out[name] = text(start, d.End())
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, s := range d.Specs {
				start, end := s.Pos(), s.End()
				if !d.Lparen.IsValid() {
					start, end = d.Pos(), d.End()
					if d.Doc != nil {
						start = d.Doc.Pos()
					}
				}
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = text(start, end)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.Name != "_" {
							out[id.Name] = text(start, end)
						}
					}
				}
			}
		}
	}
	return out, nil
}
