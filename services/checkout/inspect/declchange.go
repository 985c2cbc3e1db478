package inspect

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Some changes to a package change what its unchanged code does without
// a statement of their own, so coverage never counts them and no mutant
// switches them — and the kills of the fix's own mutants would vouch for
// them:
//
//   - a build constraint: `//go:build go1.21` sets the file's language
//     version (loop variables shared again), a constraint lifted builds
//     another file's function in place of one deleted;
//   - a //go:embed directive re-pointed or removed: the variable holds
//     other bytes, or none;
//   - a declaration deleted whose name is still used: it now resolves to
//     something else — a predeclared function (a package's own max
//     deleted), a name a dot import brings; or an exported one, which
//     importers use;
//   - a predeclared name declared anew (type uint = uint8);
//   - a blank import removed or added (its package's init registers what
//     the code looks up) or a dot import changed;
//   - the order of init functions or of package variables whose
//     initializers call code (a file renamed reorders its init);
//   - a method Is or As added whose body never reads its receiver: it
//     answers alike for every value of its type (errors.Is(notFound,
//     ErrForbidden) now true);
//   - a method added that shadows one promoted from an embedded type, or
//     whose body holds nothing to judge (an empty Format makes fmt print
//     nothing), or to a type a struct of the package embeds, when the
//     standard library looks the name up at run time (a MarshalJSON on
//     the embedded Money makes json print an Invoice as its amount) or
//     another embedded type has it (the struct's method is now
//     ambiguous: gone).
//
// GoDeclChanges reports each as a finding of RuleForeignCode: code the
// gate cannot judge.

// GoDeclChanges compares one package directory's non-test Go files on
// both sides (base and patched: file path → content) for the changes
// above. baseTests are the directory's test files on the baseline: a
// predeclared name declared anew changes what they mean by it too. A
// package with a file that does not parse is left out: other analyses
// name it.
func GoDeclChanges(base, patched, baseTests map[string][]byte) []Finding {
	b, p := parseAll(base), parseAll(patched)
	if len(b) != len(base) || len(p) != len(patched) {
		return nil // a file that does not parse: other analyses name it, and a comparison without it would mislead
	}
	var out []Finding
	add := func(file string, line int, what string) {
		out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: line, What: what})
	}
	const unjudged = "no statement to coverage and no mutant switches it"

	// Build constraints and embed directives, file by file.
	for _, file := range slices.Sorted(maps.Keys(p)) {
		pf, ok := b[file]
		if !ok {
			continue
		}
		nf := p[file]
		if was, now := buildConstraint(pf), buildConstraint(nf); was != now {
			add(file, 1, fmt.Sprintf("changes the file's build constraint from %q to %q: a constraint is %s, yet it decides whether the file is built and, with a go version, which language rules its code follows", was, now, unjudged))
		}
		if was, now := dotImports(pf), dotImports(nf); !slices.Equal(was, now) {
			add(file, 1, fmt.Sprintf("changes the file's dot imports from %v to %v: an import is %s, yet every unqualified name of the file may now resolve elsewhere", was, now, unjudged))
		}
	}
	bEmbeds, pEmbeds := embedDirectives(b), embedDirectives(p)
	bVars, pVars := packageNames(b, token.VAR), packageNames(p, token.VAR)
	for _, name := range slices.Sorted(maps.Keys(pVars)) {
		if _, ok := bVars[name]; !ok {
			continue
		}
		if was, now := bEmbeds[name], pEmbeds[name]; was != now {
			at := pVars[name]
			add(at.file, at.line, fmt.Sprintf("changes the //go:embed directive of %s from %q to %q: a directive is %s, yet the variable holds the bytes it names", name, was, now, unjudged))
		}
	}

	// Declarations deleted whose name is still used, and predeclared
	// names declared anew.
	bDecls, pDecls := packageNames(b, 0), packageNames(p, 0)
	used := unresolvedNames(p)
	for _, name := range slices.Sorted(maps.Keys(bDecls)) {
		if _, ok := pDecls[name]; ok {
			continue
		}
		if ast.IsExported(name) && !isMain(b) {
			at := bDecls[name]
			add(at.file, 0, fmt.Sprintf("deletes the exported %s: every importer that uses it stops building, and no test of the package can show that", name))
			continue
		}
		if at, ok := used[name]; ok {
			to := "a name another file, a dot import or a build constraint brings"
			if predeclared(name) {
				to = "the predeclared " + name
			}
			add(at.file, at.line, fmt.Sprintf("deletes the declaration of %s, yet the name is still used: it now resolves to %s, and the code that uses it did not change", name, to))
		}
	}
	// A predeclared name declared anew matters where code the patch did
	// not write used it: the baseline's files and its tests of the same
	// package. An old module's own min helper, where nothing used the
	// builtin (its go line may not even allow it), changes nothing that
	// was there.
	bUsed := unresolvedNames(b)
	for name, at := range unresolvedNames(samePackage(parseAll(baseTests), packageName(b))) {
		if _, ok := bUsed[name]; !ok {
			bUsed[name] = at
		}
	}
	for _, name := range slices.Sorted(maps.Keys(pDecls)) {
		if _, ok := bDecls[name]; ok || !predeclared(name) {
			continue
		}
		if was, ok := bUsed[name]; ok {
			at := pDecls[name]
			add(at.file, at.line, fmt.Sprintf("declares %s, a predeclared name the package's code already used (%s:%d): every such use now means the new declaration, though none of them changed", name, was.file, was.line))
		}
	}

	// Blank imports, for the package: each runs its package's init.
	if was, now := blankImports(b), blankImports(p); !slices.Equal(slices.Sorted(maps.Keys(was)), slices.Sorted(maps.Keys(now))) {
		for _, ip := range slices.Sorted(maps.Keys(was)) {
			if _, ok := now[ip]; !ok {
				add(was[ip].file, 0, fmt.Sprintf("removes the blank import of %q: an import is %s, yet the package's init no longer runs and what it registered is gone", ip, unjudged))
			}
		}
		for _, ip := range slices.Sorted(maps.Keys(now)) {
			if _, ok := was[ip]; !ok {
				add(now[ip].file, now[ip].line, fmt.Sprintf("adds a blank import of %q: an import is %s, yet its package's init now runs and may change what the code finds", ip, unjudged))
			}
		}
	}

	// The order of what runs at initialization.
	if at, ok := reordered(initBodies(b), initBodies(p)); ok {
		add(at.file, at.line, "changes the order in which the package's init functions run (files run in the order of their names): "+unjudged+", yet each init now sees what the others left")
	}
	if at, ok := reordered(callingInits(b), callingInits(p)); ok {
		add(at.file, at.line, "changes the order of package variables whose initializers call code: "+unjudged+", yet each call now runs before or after the others")
	}

	// Methods added.
	bMethods, pMethods := methodsOf(b), methodsOf(p)
	structs, bStructs := embeddedTypes(p), embeddedTypes(b)
	for _, key := range slices.Sorted(maps.Keys(pMethods)) {
		if _, ok := bMethods[key]; ok {
			continue
		}
		m := pMethods[key]
		typ, name, _ := strings.Cut(key, ".")
		for _, e := range structs[typ] {
			if _, ok := pMethods[e+"."+name]; ok {
				add(m.file, m.line, fmt.Sprintf("adds method %s, which shadows the method %s %s had through its embedded %s: every call of %s on a %s, and every interface holding one, now runs the new body", key, name, typ, e, name, typ))
			}
		}
		// Promoted into every struct that embeds typ, before and after.
		// A name no code of such a struct could call before is reached
		// only by a dynamic lookup: one the standard library makes (a
		// MarshalJSON on the embedded Money makes encoding/json print a
		// whole Invoice as the amount) — or the struct loses a method of
		// that name it had through another embedded type, the selector
		// now ambiguous.
		for _, s := range slices.Sorted(maps.Keys(structs)) {
			if s == typ || !slices.Contains(structs[s], typ) || !slices.Contains(bStructs[s], typ) {
				continue
			}
			if _, own := pMethods[s+"."+name]; own {
				continue
			}
			ambiguous := slices.IndexFunc(structs[s], func(other string) bool {
				_, ok := bMethods[other+"."+name]
				return ok && other != typ
			})
			if ambiguous >= 0 {
				other := structs[s][ambiguous]
				add(m.file, m.line, fmt.Sprintf("adds method %s, which makes %s ambiguous on %s, which embeds %s and %s: %s loses the method %s had through %s, though it did not change", key, name, s, typ, other, s, name, other))
			} else if lookedUp(name) {
				add(m.file, m.line, fmt.Sprintf("adds method %s, which %s has through its embedded %s: %s, yet code that looks %s up at run time (fmt, errors, encoding/…) now finds it on every %s, though %s did not change", key, s, typ, unjudged, name, s, s))
			}
		}
		if (name == "Is" || name == "As") && !m.readsReceiver && !m.empty {
			add(m.file, m.line, fmt.Sprintf("adds method %s, which errors.%s calls on every error of a chain holding a %s, yet whose body never reads its receiver: it answers alike for every %s whatever it holds, so errors.%s in code the patch did not touch may match errors it did not before; a test of one match cannot tell", key, name, typ, typ, name))
		}
		if m.empty {
			add(m.file, m.line, fmt.Sprintf("adds method %s, whose body holds nothing to judge: no test can be shown to notice it, yet it may change which interfaces %s satisfies or which method its callers reach", key, typ))
		}
	}
	return Sort(out)
}

// lookedUp reports whether the standard library looks a method of this
// name up on a value at run time, through an interface it asserts: fmt's,
// errors', the encodings', database/sql's, io's and net's.
func lookedUp(name string) bool {
	switch name {
	case "String", "GoString", "Format", "Error", "Unwrap", "Is", "As",
		"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText", "MarshalBinary", "UnmarshalBinary",
		"MarshalXML", "UnmarshalXML", "GobEncode", "GobDecode", "MarshalYAML", "UnmarshalYAML",
		"Scan", "Value", "WriteTo", "ReadFrom", "Timeout", "Temporary":
		return true
	}
	return false
}

// isMain reports whether the files are of package main, whose names no
// other package imports.
func isMain(files map[string]*goFile) bool {
	for _, g := range files {
		return g.f.Name.Name == "main"
	}
	return false
}

// at is where a declaration or use is.
type at struct {
	file string
	line int
}

func parseAll(files map[string][]byte) map[string]*goFile {
	out := map[string]*goFile{}
	for file, src := range files {
		if g, err := parseGo(file, src); err == nil {
			out[file] = g
		}
	}
	return out
}

// buildConstraint returns a file's //go:build and // +build lines, as
// written, one per line.
func buildConstraint(g *goFile) string {
	var lines []string
	for _, cg := range g.f.Comments {
		if cg.Pos() >= g.f.Package {
			break
		}
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) || constraint.IsPlusBuild(c.Text) {
				lines = append(lines, strings.TrimSpace(c.Text))
			}
		}
	}
	return strings.Join(lines, "\n")
}

func dotImports(g *goFile) []string {
	var out []string
	for _, imp := range g.f.Imports {
		if imp.Name != nil && imp.Name.Name == "." {
			out = append(out, imp.Path.Value)
		}
	}
	slices.Sort(out)
	return out
}

// blankImports returns the import paths the files import as _, but embed
// (which //go:embed needs, and whose init does nothing).
func blankImports(files map[string]*goFile) map[string]at {
	out := map[string]at{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		for _, imp := range g.f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil || imp.Name == nil || imp.Name.Name != "_" || ip == "embed" {
				continue
			}
			if _, ok := out[ip]; !ok {
				out[ip] = at{file, g.line(imp.Pos())}
			}
		}
	}
	return out
}

// embedDirectives returns the //go:embed lines of each package-level
// variable, by name.
func embedDirectives(files map[string]*goFile) map[string]string {
	out := map[string]string{}
	for _, g := range files {
		for _, d := range g.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				var lines []string
				if doc != nil {
					for _, c := range doc.List {
						if rest, ok := strings.CutPrefix(c.Text, "//go:embed"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
							lines = append(lines, strings.Join(strings.Fields(rest), " "))
						}
					}
				}
				for _, n := range vs.Names {
					if len(lines) > 0 {
						out[n.Name] = strings.Join(lines, "; ")
					}
				}
			}
		}
	}
	return out
}

// packageNames returns where the files declare each package-level name:
// of one kind (token.VAR, token.CONST, token.TYPE, token.FUNC) or, with
// 0, of any. Methods, init functions and blank names are left out.
func packageNames(files map[string]*goFile, kind token.Token) map[string]at {
	out := map[string]at{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		put := func(n *ast.Ident) {
			if n.Name == "_" || n.Name == "init" {
				return
			}
			if _, ok := out[n.Name]; !ok {
				out[n.Name] = at{file, g.line(n.Pos())}
			}
		}
		for _, d := range g.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && (kind == 0 || kind == token.FUNC) {
					put(d.Name)
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT || kind != 0 && d.Tok != kind {
					continue
				}
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						put(s.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							put(n)
						}
					}
				}
			}
		}
	}
	return out
}

// packageName is the package clause the files share, "" when there is
// none or they disagree.
func packageName(files map[string]*goFile) string {
	name := ""
	for _, g := range files {
		if name != "" && g.f.Name.Name != name {
			return ""
		}
		name = g.f.Name.Name
	}
	return name
}

// samePackage returns the files of package name: a test file of the
// external package (name_test) cannot see the package's own declarations.
func samePackage(files map[string]*goFile, name string) map[string]*goFile {
	out := map[string]*goFile{}
	for file, g := range files {
		if name != "" && g.f.Name.Name == name {
			out[file] = g
		}
	}
	return out
}

// unresolvedNames returns the identifiers the files use that no
// declaration of their own file holds (the go/parser's unresolved
// identifiers: package-level names of other files, predeclared ones,
// those a dot import brings), by name, first use. A name the package no
// longer declares anywhere is unresolved wherever it is still used.
func unresolvedNames(files map[string]*goFile) map[string]at {
	out := map[string]at{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, g.src, 0)
		if err != nil {
			continue
		}
		for _, id := range f.Unresolved {
			if _, ok := out[id.Name]; !ok {
				out[id.Name] = at{file, fset.Position(id.Pos()).Line}
			}
		}
	}
	return out
}

// initBodies returns the bodies of the package's init functions in the
// order they run: files by name, then as declared.
func initBodies(files map[string]*goFile) []keyed {
	var out []keyed
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		for _, d := range g.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && fd.Body != nil {
				out = append(out, keyed{strings.Join(strings.Fields(g.text(fd.Body)), " "), at{file, g.line(fd.Pos())}})
			}
		}
	}
	return out
}

// callingInits returns the package-level variable specs whose
// initializers call code, in declaration order (files by name).
func callingInits(files map[string]*goFile) []keyed {
	var out []keyed
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		for _, d := range g.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				calls := false
				for _, v := range vs.Values {
					ast.Inspect(v, func(n ast.Node) bool {
						switch n.(type) {
						case *ast.FuncLit:
							return false
						case *ast.CallExpr:
							calls = true
						}
						return !calls
					})
				}
				if calls {
					out = append(out, keyed{strings.Join(strings.Fields(g.text(vs)), " "), at{file, g.line(vs.Pos())}})
				}
			}
		}
	}
	return out
}

// keyed is a declaration's text and where it is.
type keyed struct {
	text string
	at   at
}

// reordered reports whether what both sequences hold comes in another
// order on the patch side, and where the first moved entry is.
func reordered(base, patched []keyed) (at, bool) {
	count := func(xs []keyed) map[string]int {
		m := map[string]int{}
		for _, x := range xs {
			m[x.text]++
		}
		return m
	}
	inBase, inPatch := count(base), count(patched)
	common := func(xs []keyed, other map[string]int) []keyed {
		seen := map[string]int{}
		var out []keyed
		for _, x := range xs {
			if seen[x.text] < other[x.text] {
				seen[x.text]++
				out = append(out, x)
			}
		}
		return out
	}
	b, p := common(base, inPatch), common(patched, inBase)
	for i := range p {
		if i < len(b) && b[i].text != p[i].text {
			return p[i].at, true
		}
	}
	return at{}, false
}

// method is a method a package declares.
type method struct {
	file  string
	line  int
	empty bool // its body holds no statement, or only a bare return or a return of nils
	// readsReceiver: its body mentions its receiver.
	readsReceiver bool
}

// methodsOf returns the methods the files declare, by receiver base type
// and name (T.M).
func methodsOf(files map[string]*goFile) map[string]method {
	out := map[string]method{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		for _, d := range g.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
				continue
			}
			empty := len(fd.Body.List) == 0
			if len(fd.Body.List) == 1 {
				if r, ok := fd.Body.List[0].(*ast.ReturnStmt); ok && zeroResults(r) {
					empty = true
				}
			}
			out[recvBase(fd.Recv.List[0].Type)+"."+fd.Name.Name] = method{file, g.line(fd.Pos()), empty, readsReceiver(fd)}
		}
	}
	return out
}

// readsReceiver reports whether a method's body mentions its receiver.
func readsReceiver(fd *ast.FuncDecl) bool {
	names := fd.Recv.List[0].Names
	if len(names) == 0 || names[0].Name == "_" {
		return false
	}
	name, found := names[0].Name, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// zeroResults reports whether a return statement returns nothing or only
// nils.
func zeroResults(r *ast.ReturnStmt) bool {
	for _, e := range r.Results {
		if id, ok := ast.Unparen(e).(*ast.Ident); !ok || id.Name != "nil" {
			return false
		}
	}
	return true
}

// embeddedTypes returns, for each struct type the files declare, the
// names of the types it embeds (a pointer's element), in order.
func embeddedTypes(files map[string]*goFile) map[string][]string {
	out := map[string][]string{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		for _, d := range files[file].f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, f := range st.Fields.List {
					if len(f.Names) == 0 {
						out[ts.Name.Name] = append(out[ts.Name.Name], recvBase(f.Type))
					}
				}
			}
		}
	}
	return out
}
