package inspect

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// GoTestSupport is what the import graph of a tree's Go packages says
// about test support.
type GoTestSupport struct {
	// TestOnly are the package directories ("." for the root) only test
	// code uses: packages that are not production code. A package is
	// production when no file outside its directory imports it (a
	// command, an API, dead code), when it is a main package, when another
	// module can import it (not below an internal directory) and it has
	// tests of its own (an API whose users are elsewhere), or when a
	// non-test file of a production package imports it. So a package of
	// the module's own (internal) that test files of other packages
	// import — directly or through other such packages — and no
	// production package does is test-only, whether or not it has tests
	// of its own: its own tests do not make it code under test. Sorted.
	TestOnly []string
	// ImportsTesting are the non-test Go files that import "testing":
	// test support wherever they live. Sorted.
	ImportsTesting []string

	// graph is what the declaration analyses read (nil in a zero value).
	graph *goGraph
}

// goGraph is the parsed tree behind a GoTestSupport.
type goGraph struct {
	files    map[string][]byte
	modules  map[string]string // module root dir → module path
	srcs     []goSrc           // the files that build, sorted by path
	dirPath  map[string]string // dir → import path
	byImport map[string]string // import path → dir
	pkgName  map[string]string // dir → package name of its non-test files
	testOnly map[string]bool
}

// goSrc is one Go file that builds.
type goSrc struct {
	path, dir, pkg string
	test           bool
	imports        []goImport
}

// goImport is one import of a file: its path and its name ("" when the
// file gives none).
type goImport struct{ path, name string }

// GoImportGraph reads the Go packages of a tree — files maps every .go
// file and every go.mod of the tree (slash-separated paths) to its content
// — and says which packages only tests use (see GoTestSupport.TestOnly). A directory's import path is
// its module's path (from the nearest go.mod above it) joined with its
// path below the module root. Files the go command leaves out are left
// out: those in testdata, vendor and directories whose name starts with
// "." or "_", and those whose build constraints or name do not match this
// platform and the default build tags (go/build's rules), so a file that
// never compiles cannot make a package production code. A file that does
// not parse imports nothing; a go.mod that does not parse makes no module
// (its directories' imports resolve to no package of the tree).
func GoImportGraph(files map[string][]byte) GoTestSupport {
	g := &goGraph{files: files, modules: map[string]string{}, dirPath: map[string]string{}, byImport: map[string]string{}, pkgName: map[string]string{}, testOnly: map[string]bool{}}
	for p, src := range files {
		if path.Base(p) != "go.mod" {
			continue
		}
		if mp := modfile.ModulePath(src); mp != "" {
			g.modules[path.Dir(p)] = mp
		}
	}
	ctxt := buildContext(files)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(p, ".go") || !GoBuilds(p) {
			continue
		}
		dir := path.Dir(p)
		if ok, err := ctxt.MatchFile(dir, path.Base(p)); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, files[p], parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		s := goSrc{path: p, dir: dir, pkg: f.Name.Name, test: strings.HasSuffix(p, "_test.go")}
		for _, imp := range f.Imports {
			if ip, err := strconv.Unquote(imp.Path.Value); err == nil {
				gi := goImport{path: ip}
				if imp.Name != nil {
					gi.name = imp.Name.Name
				}
				s.imports = append(s.imports, gi)
			}
		}
		g.srcs = append(g.srcs, s)
		if !s.test {
			if _, done := g.pkgName[dir]; !done {
				g.pkgName[dir] = s.pkg
			}
		}
		if _, done := g.dirPath[dir]; !done {
			if ip := importPathOf(dir, g.modules); ip != "" {
				g.dirPath[dir] = ip
				g.byImport[ip] = dir
			}
		}
	}
	out := GoTestSupport{graph: g}
	imported := map[string]bool{}    // dirs a file of another dir imports
	imports := map[string][]string{} // dir → dirs its non-test files import
	hasTests := map[string]bool{}
	for _, s := range g.srcs {
		if s.test {
			hasTests[s.dir] = true
		}
		for _, imp := range s.imports {
			if imp.path == "testing" && !s.test {
				out.ImportsTesting = append(out.ImportsTesting, s.path)
			}
			if dir, ok := g.byImport[imp.path]; ok && dir != s.dir {
				imported[dir] = true
				if !s.test {
					imports[s.dir] = append(imports[s.dir], dir)
				}
			}
		}
	}
	dirs := slices.Sorted(maps.Keys(g.dirPath))
	prod := map[string]bool{}
	var queue []string
	for _, dir := range dirs {
		if !imported[dir] || g.pkgName[dir] == "main" || hasTests[dir] && importable(dir, g.dirPath[dir], g) {
			prod[dir] = true
			queue = append(queue, dir)
		}
	}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		for _, d := range imports[dir] {
			if !prod[d] {
				prod[d] = true
				queue = append(queue, d)
			}
		}
	}
	for _, dir := range dirs {
		if !prod[dir] {
			out.TestOnly = append(out.TestOnly, dir)
			g.testOnly[dir] = true
		}
	}
	slices.Sort(out.ImportsTesting)
	out.ImportsTesting = slices.Compact(out.ImportsTesting)
	return out
}

// buildContext is go/build's default context reading files from the map.
func buildContext(files map[string][]byte) build.Context {
	ctxt := build.Default
	ctxt.GOPATH, ctxt.Dir = "", ""
	ctxt.JoinPath = path.Join
	ctxt.IsAbsPath = path.IsAbs
	ctxt.OpenFile = func(p string) (io.ReadCloser, error) {
		src, ok := files[p]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(src)), nil
	}
	return ctxt
}

// GoBuilds reports whether the go command builds files in p's directory:
// not under testdata or vendor, nor under a directory whose name starts
// with "." or "_".
func GoBuilds(p string) bool {
	for _, c := range strings.Split(path.Dir(p), "/") {
		if c == "testdata" || c == "vendor" || strings.HasPrefix(c, ".") && c != "." || strings.HasPrefix(c, "_") {
			return false
		}
	}
	return true
}

// importPathOf returns the import path of dir: the path of the module whose
// root is the nearest enclosing directory holding a go.mod, joined with
// dir below it; "" when no module encloses dir.
func importPathOf(dir string, modules map[string]string) string {
	for d := dir; ; d = path.Dir(d) {
		if mp, ok := modules[d]; ok {
			if d == dir {
				return mp
			}
			rel := strings.TrimPrefix(dir, d+"/")
			if d == "." {
				rel = dir
			}
			return mp + "/" + rel
		}
		if d == "." {
			return ""
		}
	}
}

// moduleRootOf returns the root directory of the module enclosing dir, or
// "" when none does.
func moduleRootOf(dir string, modules map[string]string) (string, bool) {
	for d := dir; ; d = path.Dir(d) {
		if _, ok := modules[d]; ok {
			return d, true
		}
		if d == "." {
			return "", false
		}
	}
}

// TestSupportFindings turns the graph into findings for the changed
// non-test Go files (changed: their paths, patch side): a file of a
// test-only package, or one that imports testing.
func (g GoTestSupport) TestSupportFindings(changed []string) []Finding {
	var out []Finding
	for _, p := range changed {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			continue
		}
		if _, ok := slices.BinarySearch(g.TestOnly, path.Dir(p)); ok {
			out = append(out, Finding{Rule: RuleTestSupport, File: p, What: fmt.Sprintf("package %s is imported only by test files (directly or through packages only tests import; its own tests do not make it code under test): it is test support", dirLabel(path.Dir(p)))})
		}
		if _, ok := slices.BinarySearch(g.ImportsTesting, p); ok {
			out = append(out, Finding{Rule: RuleTestSupport, File: p, What: "a non-test file that imports testing: it is test support"})
		}
	}
	return Sort(out)
}

func dirLabel(dir string) string {
	if dir == "." {
		return "."
	}
	return "./" + dir
}

// Decl is a package-level declaration of a non-test Go file.
type Decl struct {
	// File is the file's path; Line and EndLine the declaration's first
	// and last lines.
	File          string
	Line, EndLine int
	// Name is what it declares: "near", or "T.m" for a method.
	Name string
	// Kind is "func", "method", "var", "const" or "type".
	Kind string
}

// Key is the declaration as splice names it: "func near", "method T.m".
func (d Decl) Key() string { return d.Kind + " " + d.Name }

// TestOnlyDecls returns the package-level declarations of the non-test
// files of the package in dir that no production code reaches: test
// support living beside the code under test (an assertion helper only
// tests call), sorted by file and line. The package is read with
// go/types, without its imports (what they declare is unknown, which
// only ever makes less reachable), so a local variable that shadows a
// helper's name is told from the helper.
//
// Production reaches: init functions; a main package's main; everything
// the initializers of package-level variables use (they run whenever the
// package is loaded) and blank declarations; declarations with //export
// or //go:linkname directives; the exported declarations of a package
// another module can import (not a main package, not below an internal
// directory of its module); the exported declarations of other packages
// (internal, main) that a non-test file of a production package of the
// module names; the exported methods of a type production reaches, and
// its unexported ones that an interface of the package names; and,
// transitively, what any declaration production reaches uses.
//
// ok is false for a package whose files cannot be read (none builds, or
// one does not parse): nothing can be said of it. A test-only package
// (TestOnly) holds only test support; it is not judged here.
func (g GoTestSupport) TestOnlyDecls(dir string) (decls []Decl, ok bool) {
	pa, ok := g.analyse(dir)
	if !ok {
		return nil, false
	}
	for _, n := range pa.nodes {
		if !pa.prod[n] && n.decl.Name != "" && n.decl.Name != "_" && n.decl.Name != "init" {
			decls = append(decls, n.decl)
		}
	}
	slices.SortFunc(decls, func(a, b Decl) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Name, b.Name)
	})
	return decls, true
}

// declNode is one package-level declaration: a function, a method, or
// one spec of a var, const or type declaration.
type declNode struct {
	decl Decl
	// uses are the objects of the package the declaration uses (reads:
	// an assignment to a variable does not use its value); roots those it
	// uses whatever reaches it (a variable's initializer).
	uses, roots []types.Object
	// writes are the package-level variables it assigns, increments or
	// takes the address of, at the lines given.
	writes []write
	root   bool
	// typeName is the receiver's type name of a method.
	recv string
}

// pkgAnalysis is the reachability of one package's declarations.
type pkgAnalysis struct {
	nodes []*declNode
	prod  map[*declNode]bool
	byObj map[types.Object]*declNode
	// literals are the string literals and //go:embed patterns of each
	// declaration, for the data rule.
	refs map[*declNode]SourceRefs
}

// analyse reads the non-test files of dir and marks what production
// reaches.
func (g GoTestSupport) analyse(dir string) (*pkgAnalysis, bool) {
	gr := g.graph
	if gr == nil {
		return nil, false
	}
	ip, known := gr.dirPath[dir]
	if !known {
		return nil, false
	}
	fset := token.NewFileSet()
	var files []*ast.File
	var paths []string
	for _, s := range gr.srcs {
		if s.dir != dir || s.test {
			continue
		}
		f, err := parser.ParseFile(fset, s.path, gr.files[s.path], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false
		}
		files = append(files, f)
		paths = append(paths, s.path)
	}
	if len(files) == 0 {
		return nil, false
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: fakeImporter{names: gr.pkgNameByImport()}, Error: func(error) {}, FakeImportC: true}
	pkg, _ := conf.Check(ip, fset, files, info)
	if pkg == nil {
		return nil, false
	}
	pa := &pkgAnalysis{prod: map[*declNode]bool{}, refs: map[*declNode]SourceRefs{}}
	byObj := map[types.Object]*declNode{}
	ours := func(o types.Object) bool { return o != nil && o.Pkg() == pkg }
	// written are the identifiers that receive a value (the root variable
	// of an assignment's left side, of x++ and x += 1, of &x): a write is
	// not a use of the value, even one that reads it to write it back.
	written := map[*ast.Ident]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE {
					for _, l := range x.Lhs {
						if id := rootIdent(l); id != nil {
							written[id] = true
						}
					}
				}
			case *ast.IncDecStmt:
				if id := rootIdent(x.X); id != nil {
					written[id] = true
				}
			case *ast.UnaryExpr:
				if x.Op == token.AND {
					if id := rootIdent(x.X); id != nil {
						written[id] = true
					}
				}
			case *ast.RangeStmt:
				if x.Tok == token.ASSIGN {
					for _, e := range []ast.Expr{x.Key, x.Value} {
						if id := rootIdent(e); id != nil {
							written[id] = true
						}
					}
				}
			}
			return true
		})
	}
	usesIn := func(n ast.Node) []types.Object {
		var out []types.Object
		if n == nil {
			return nil
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := info.Uses[id]; ours(o) {
					if _, isVar := o.(*types.Var); !isVar || !written[id] {
						out = append(out, o)
					}
				}
			}
			return true
		})
		return out
	}
	writesIn := func(n ast.Node) []write {
		var out []write
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && written[id] {
				if v, ok := info.Uses[id].(*types.Var); ok && ours(v) && v.Parent() == pkg.Scope() {
					out = append(out, write{obj: v, line: fset.Position(id.Pos()).Line})
				}
			}
			return true
		})
		return out
	}
	ifaceMethods := map[string]bool{}
	exportedRoot := importable(dir, ip, gr)
	var external map[string]bool
	if !exportedRoot {
		var all bool
		if external, all = gr.exportedUses(dir); all {
			exportedRoot = true
		}
	}
	for i, f := range files {
		file := paths[i]
		ast.Inspect(f, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					for _, name := range m.Names {
						ifaceMethods[name.Name] = true
					}
				}
			}
			return true
		})
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				n := &declNode{decl: Decl{File: file, Line: fset.Position(d.Pos()).Line, Name: d.Name.Name, Kind: "func"}}
				if d.Recv != nil {
					n.recv = strings.TrimSuffix(funcKey(d), "."+d.Name.Name)
					n.decl.Kind, n.decl.Name = "method", n.recv+"."+d.Name.Name
				} else {
					switch {
					case d.Name.Name == "init", d.Name.Name == "main" && pkg.Name() == "main":
						n.root = true
					case ast.IsExported(d.Name.Name) && (exportedRoot || external[d.Name.Name]):
						n.root = true
					}
				}
				if directive(d.Doc) {
					n.root = true
				}
				n.uses, n.writes = usesIn(d), writesIn(d)
				n.decl.EndLine = fset.Position(d.End()).Line
				pa.refs[n] = declRefs(file, d, d.Doc)
				if o := info.Defs[d.Name]; o != nil {
					byObj[o] = n
				}
				pa.nodes = append(pa.nodes, n)
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				for _, spec := range d.Specs {
					n := &declNode{decl: Decl{File: file, Line: fset.Position(spec.Pos()).Line, Kind: d.Tok.String()}}
					var names []*ast.Ident
					doc := d.Doc
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names = []*ast.Ident{s.Name}
						if s.Doc != nil {
							doc = s.Doc
						}
					case *ast.ValueSpec:
						names = s.Names
						if s.Doc != nil {
							doc = s.Doc
						}
						if d.Tok == token.VAR {
							for _, v := range s.Values {
								n.roots = append(n.roots, usesIn(v)...)
							}
						}
					}
					if len(names) > 0 {
						n.decl.Name = names[0].Name
					}
					for _, id := range names {
						if id.Name == "_" {
							n.root = true
						}
						if ast.IsExported(id.Name) && (exportedRoot || external[id.Name]) {
							n.root = true
						}
						if o := info.Defs[id]; o != nil {
							byObj[o] = n
						}
					}
					if directive(doc) {
						n.root = true
					}
					n.uses, n.writes = usesIn(spec), writesIn(spec)
					n.decl.EndLine = fset.Position(spec.End()).Line
					pa.refs[n] = declRefs(file, spec, doc)
					pa.nodes = append(pa.nodes, n)
				}
			}
		}
	}
	methods := map[string][]*declNode{} // receiver type name → its methods
	for _, n := range pa.nodes {
		if n.decl.Kind == "method" {
			methods[n.recv] = append(methods[n.recv], n)
		}
	}
	pa.byObj = byObj
	var queue []*declNode
	mark := func(n *declNode) {
		if n != nil && !pa.prod[n] {
			pa.prod[n] = true
			queue = append(queue, n)
		}
	}
	for _, n := range pa.nodes {
		if n.root {
			mark(n)
		}
		for _, o := range n.roots {
			mark(byObj[o])
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, o := range n.uses {
			mark(byObj[o])
		}
		if n.decl.Kind == "type" {
			for _, m := range methods[n.decl.Name] {
				name := m.decl.Name[len(n.decl.Name)+1:]
				if ast.IsExported(name) || ifaceMethods[name] {
					mark(m)
				}
			}
		}
	}
	return pa, true
}

// write is an assignment to a package-level variable.
type write struct {
	obj  *types.Var
	line int
}

// rootIdent is the variable an assignable expression writes into: x in x,
// x.f, x[i], *x, (x); nil for anything else.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// SupportWrite is production code writing test support: a declaration
// production reaches that assigns a package-level variable only tests
// read.
type SupportWrite struct {
	// Writer is the declaration that writes; Line the line of the write.
	Writer Decl
	Line   int
	// Var is the variable written.
	Var string
}

// SupportWrites returns, for the package in dir, the writes of
// declarations production reaches into package-level variables no
// production code reads (see TestOnlyDecls) or named in alsoTestOnly (what
// only tests read elsewhere: on the baseline) and that tests do read (a
// test-only declaration uses it, or a test file of the directory names
// it), sorted by file and line: production code that changes what only
// tests judge by. (A variable production only writes — or only reaches
// through its address, as atomic.AddUint32(&counter, 1) does — is no
// test support when no test reads it.) ok is false as for TestOnlyDecls.
func (g GoTestSupport) SupportWrites(dir string, alsoTestOnly map[string]bool) (out []SupportWrite, ok bool) {
	pa, ok := g.analyse(dir)
	if !ok {
		return nil, false
	}
	testNames := g.testFileNames(dir)
	readByTests := func(v *types.Var) bool {
		if testNames[v.Name()] {
			return true
		}
		for _, n := range pa.nodes {
			if !pa.prod[n] && slices.Contains(n.uses, types.Object(v)) {
				return true
			}
		}
		return false
	}
	for _, n := range pa.nodes {
		if !pa.prod[n] {
			continue
		}
		for _, w := range n.writes {
			if v := pa.byObj[w.obj]; v != nil && (!pa.prod[v] || alsoTestOnly[w.obj.Name()]) && readByTests(w.obj) {
				out = append(out, SupportWrite{Writer: n.decl, Line: w.line, Var: w.obj.Name()})
			}
		}
	}
	slices.SortFunc(out, func(a, b SupportWrite) int {
		if c := strings.Compare(a.Writer.File, b.Writer.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Var, b.Var)
	})
	return out, true
}

// testFileNames returns every identifier the test files of dir name (a
// file that does not parse names none).
func (g GoTestSupport) testFileNames(dir string) map[string]bool {
	out := map[string]bool{}
	gr := g.graph
	if gr == nil {
		return out
	}
	for _, s := range gr.srcs {
		if s.dir != dir || !s.test {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), s.path, gr.files[s.path], parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				out[id.Name] = true
			}
			return true
		})
	}
	return out
}

// directive reports whether a doc comment holds a directive that makes
// its declaration reachable from outside Go code: //export (cgo) or
// //go:linkname.
func directive(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//export ") || strings.HasPrefix(c.Text, "//go:linkname") {
			return true
		}
	}
	return false
}

// declRefs lists the string literals and //go:embed patterns of one
// declaration (its doc comment holds the directives).
func declRefs(file string, n ast.Node, doc *ast.CommentGroup) SourceRefs {
	r := SourceRefs{File: file}
	if doc != nil {
		for _, c := range doc.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:embed"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				r.Embeds = append(r.Embeds, embedPatterns(rest)...)
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if v, err := strconv.Unquote(bl.Value); err == nil {
				r.Strings = append(r.Strings, v)
			} else {
				r.Strings = append(r.Strings, bl.Value)
			}
		}
		return true
	})
	return r
}

// importable reports whether another module can import the package in
// dir (import path ip): not a main package, and no "internal" element
// in its path below its module's root.
func importable(dir, ip string, gr *goGraph) bool {
	if gr.pkgName[dir] == "main" {
		return false
	}
	root, ok := moduleRootOf(dir, gr.modules)
	if !ok {
		return true
	}
	mp := gr.modules[root]
	rel := strings.TrimPrefix(strings.TrimPrefix(ip, mp), "/")
	return !slices.Contains(strings.Split(rel, "/"), "internal")
}

// exportedUses returns the exported names of the package in dir that
// non-test files of production packages of the tree use (pkg.Name); all
// is set when one imports it with a dot or cannot be read: then every
// name may be used.
func (gr *goGraph) exportedUses(dir string) (names map[string]bool, all bool) {
	ip := gr.dirPath[dir]
	out := map[string]bool{}
	for _, s := range gr.srcs {
		if s.test || s.dir == dir || gr.testOnly[s.dir] {
			continue
		}
		for _, imp := range s.imports {
			if imp.path != ip {
				continue
			}
			local := imp.name
			if local == "" {
				local = gr.pkgName[dir]
			}
			switch local {
			case "_":
				continue
			case ".":
				return nil, true
			}
			f, err := parser.ParseFile(token.NewFileSet(), s.path, gr.files[s.path], parser.SkipObjectResolution)
			if err != nil {
				return nil, true
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
						out[sel.Sel.Name] = true
					}
				}
				return true
			})
		}
	}
	return out, false
}

// pkgNameByImport maps the import paths of the tree's packages to their
// package names.
func (gr *goGraph) pkgNameByImport() map[string]string {
	out := map[string]string{}
	for dir, ip := range gr.dirPath {
		if n := gr.pkgName[dir]; n != "" {
			out[ip] = n
		}
	}
	return out
}

// fakeImporter gives every import an empty package: what it declares is
// unknown, and uses of it are type errors the analysis ignores.
type fakeImporter struct{ names map[string]string }

func (f fakeImporter) Import(p string) (*types.Package, error) {
	name := f.names[p]
	if name == "" {
		name = guessName(p)
	}
	pkg := types.NewPackage(p, name)
	pkg.MarkComplete()
	return pkg, nil
}

// guessName is the name a package at an import path is commonly called.
func guessName(p string) string {
	e := path.Base(p)
	if strings.HasPrefix(e, "v") && isDigits(e[1:]) && path.Dir(p) != "." {
		e = path.Base(path.Dir(p))
	}
	e = strings.TrimPrefix(e, "go-")
	if i := strings.IndexAny(e, ".-"); i > 0 {
		e = e[:i]
	}
	return e
}

// ProductionData returns, of the changed data files data, those a
// declaration production reaches (see TestOnlyDecls) embeds with
// //go:embed or names in a string literal, each with how: production
// data, judged as code is, not test support. A package that cannot be
// read counts every reference of its files.
func (g GoTestSupport) ProductionData(data []string) map[string]string {
	out := map[string]string{}
	gr := g.graph
	if gr == nil || len(data) == 0 {
		return out
	}
	dirs := map[string]bool{}
	for _, s := range gr.srcs {
		if !s.test && !gr.testOnly[s.dir] {
			dirs[s.dir] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		// Cheap first: only a package whose files mention a data file is
		// analysed.
		var files []SourceRefs
		for _, s := range gr.srcs {
			if s.dir == dir && !s.test {
				files = append(files, GoRefs(s.path, gr.files[s.path]))
			}
		}
		var hit []string
		for _, p := range data {
			if _, done := out[p]; done {
				continue
			}
			for _, r := range files {
				if refersTo(r, p) != "" {
					hit = append(hit, p)
					break
				}
			}
		}
		if len(hit) == 0 {
			continue
		}
		pa, ok := g.analyse(dir)
		for _, p := range hit {
			if !ok {
				for _, r := range files {
					if how := refersTo(r, p); how != "" {
						out[p] = how + " (its package cannot be read, so every use counts)"
						break
					}
				}
				continue
			}
			for _, n := range pa.nodes {
				if !pa.prod[n] {
					continue
				}
				if how := refersTo(pa.refs[n], p); how != "" {
					out[p] = how + " in " + n.decl.Key() + ", which production code reaches"
					break
				}
			}
		}
	}
	return out
}
