package inspect

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Version is one file in the baseline and in the patch.
type Version struct {
	// Path is the file's path on the patch side (for a deleted file, on
	// the baseline side).
	Path string
	// Base and Patch are its contents; nil where the file does not exist
	// (or is not a regular file: a symlink is not source).
	Base, Patch []byte
	// Changed is set when the patch adds, changes or renames the file.
	Changed bool
}

// GoTestHarness judges the test files of one Go package directory: which
// of them carry code that runs before the package's tests and that the
// patch added or changed. tests are the directory's *_test.go files, every
// one of them (unchanged ones too: their code may call a changed one);
// sources are the patch versions of its other .go files, read for the
// package-level names in scope (a call is a conversion only when its name
// is a type in the scope of its own file's package: the internal test
// package is the non-test files and the in-package test files, the
// external test package its own files; a package-level function, variable
// or constant shadows a predeclared type).
//
// Code that runs before the tests is, in a test file: a TestMain or init
// function; a package-level variable whose initializer runs code (see
// RunsCode); a //go:linkname or //go:debug directive. A finding is made for such a
// declaration in a changed test file that the baseline version of the
// file does not hold byte for byte, and for every test-file function or
// method (by name) such a declaration in any test file of the directory
// reaches through calls and references, when the patch adds or changes
// that function. A changed test file that does not parse is a finding too:
// it cannot be shown harmless.
//
// A declaration of an in-package test file that changes what the
// package's non-test code does inside the test binary — a method on one of
// its types, a package-level name shadowing a predeclared one — is a
// finding of RuleHarnessReach (see semanticsFindings); the others are of
// RuleTestHarness. Either makes the file harness. Findings are sorted.
func GoTestHarness(tests []Version, sources [][]byte) []Finding {
	var patchFiles, baseFiles, srcFiles []*goFile
	var out []Finding
	for _, v := range tests {
		if v.Patch != nil {
			f, err := parseGo(v.Path, v.Patch)
			if err != nil {
				if v.Changed {
					out = append(out, Finding{Rule: RuleTestHarness, File: v.Path, What: "does not parse, so its package's test harness cannot be shown unchanged: " + oneLine(err.Error())})
				}
			} else {
				patchFiles = append(patchFiles, f)
				f.changed = v.Changed
			}
		}
		if v.Base != nil {
			if f, err := parseGo(v.Path, v.Base); err == nil {
				baseFiles = append(baseFiles, f)
			}
		}
	}
	for _, src := range sources {
		if f, err := parseGo("", src); err == nil {
			srcFiles = append(srcFiles, f)
		}
	}
	scopes := packageScopes(append(slices.Clone(srcFiles), patchFiles...))
	baseScopes := packageScopes(append(slices.Clone(srcFiles), baseFiles...))
	out = append(out, semanticsFindings(patchFiles, baseFiles, srcFiles)...)
	baseDecls := map[string][]string{}
	for _, f := range baseFiles {
		for k, texts := range f.funcTexts() {
			baseDecls[k] = append(baseDecls[k], texts...)
		}
	}
	// Roots new in a changed file.
	baseByFile := map[string]*goFile{}
	for _, f := range baseFiles {
		baseByFile[f.path] = f
	}
	var roots []root
	for _, f := range patchFiles {
		rs := f.roots(scopeOf(scopes, f))
		roots = append(roots, rs...)
		if !f.changed {
			continue
		}
		var had []string
		if b := baseByFile[f.path]; b != nil {
			for _, r := range b.roots(scopeOf(baseScopes, b)) {
				had = append(had, r.text)
			}
		}
		var baseRoots []root
		if b := baseByFile[f.path]; b != nil {
			baseRoots = b.roots(scopeOf(baseScopes, b))
		}
		for _, r := range rs {
			if i := slices.Index(had, r.text); i >= 0 {
				had = slices.Delete(had, i, i+1)
				continue
			}
			if f.onlyInertElementsAdded(r, baseRoots, scopeOf(scopes, f)) {
				continue
			}
			out = append(out, Finding{Rule: RuleTestHarness, File: f.path, Line: r.line, What: r.what})
		}
	}
	// Test-file functions the roots reach, changed by the patch.
	decls := map[string][]funcDecl{} // by name
	for _, f := range patchFiles {
		for _, d := range f.funcDecls() {
			decls[d.name] = append(decls[d.name], d)
		}
	}
	seen := map[*ast.FuncDecl]bool{}
	type item struct {
		node ast.Node
		from string
	}
	var queue []item
	for _, r := range roots {
		queue = append(queue, item{r.node, r.label})
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for _, name := range referencedNames(it.node) {
			for _, d := range decls[name] {
				if seen[d.decl] || d.isRoot() {
					continue
				}
				seen[d.decl] = true
				queue = append(queue, item{d.decl, it.from})
				if !d.file.changed || slices.Contains(baseDecls[d.key], d.text) {
					continue
				}
				out = append(out, Finding{Rule: RuleTestHarness, File: d.file.path, Line: d.line,
					What: fmt.Sprintf("%s, which %s runs before the tests, is new or changed", d.label(), it.from)})
			}
		}
	}
	return Sort(out)
}

// goFile is a parsed Go file.
type goFile struct {
	path    string
	src     []byte
	fset    *token.FileSet
	f       *ast.File
	imports map[string]string // local name → import path
	changed bool
}

func parseGo(p string, src []byte) (*goFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	g := &goFile{path: p, src: src, fset: fset, f: f, imports: map[string]string{}}
	for _, imp := range f.Imports {
		ip, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(ip)
		if imp.Name != nil {
			name = imp.Name.Name
		} else if v := path.Base(ip); strings.HasPrefix(v, "v") && isDigits(v[1:]) && path.Dir(ip) != "." {
			// example.com/m/v2 is package m by convention.
			name = path.Base(path.Dir(ip))
		}
		if name != "_" && name != "." {
			g.imports[name] = ip
		}
	}
	return g, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// text returns the source of a node, or "" when its span is not in src.
func (g *goFile) text(n ast.Node) string {
	start, end := g.fset.Position(n.Pos()).Offset, g.fset.Position(n.End()).Offset
	if start < 0 || end > len(g.src) || start > end {
		return ""
	}
	return string(g.src[start:end])
}

func (g *goFile) line(p token.Pos) int { return g.fset.Position(p).Line }

// packageScopes returns, for each package name among files, what its
// package-level names denote where conversions are concerned: true for a
// type name in scope (a predeclared type the package does not redeclare,
// or a type it declares), false for a name the package declares as a
// function, variable or constant (which shadows a predeclared type or
// function of that name in every file of the package). The internal test
// package is the package of its non-test files; the external one (name
// ending in _test) is a package of its own.
func packageScopes(files []*goFile) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, f := range files {
		pkg := f.f.Name.Name
		scope := out[pkg]
		if scope == nil {
			scope = builtinTypes()
			out[pkg] = scope
		}
		declared := map[string]bool{}
		for _, d := range f.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "init" && d.Name.Name != "_" {
					declared[d.Name.Name] = false
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if v, ok := declared[s.Name.Name]; !ok || v {
							declared[s.Name.Name] = true
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								declared[n.Name] = false
							}
						}
					}
				}
			}
		}
		for n, isType := range declared {
			// A name declared twice does not compile; as code, it is
			// judged the safe way.
			if prev, ok := scope[n]; ok && !prev {
				continue
			}
			scope[n] = isType
		}
	}
	return out
}

// scopeOf returns the scope of a file's package (see packageScopes), or
// the predeclared types alone when scopes has none for it.
func scopeOf(scopes map[string]map[string]bool, f *goFile) map[string]bool {
	if s, ok := scopes[f.f.Name.Name]; ok {
		return s
	}
	return builtinTypes()
}

// predeclared reports the identifiers of Go's universe block.
func predeclared(name string) bool {
	switch name {
	case "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64",
		"int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
		"true", "false", "iota", "nil",
		"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min", "new",
		"panic", "print", "println", "real", "recover":
		return true
	}
	return false
}

// semantic is a declaration of an in-package test file that changes what
// the package's non-test code does inside the test binary.
type semantic struct {
	text string // the declaration's source, compared with the baseline's
	line int
	what string
}

// semanticsFindings finds, in the in-package test files the patch adds or
// changes, the declarations that change what the package's non-test code
// does inside the test binary, and that the baseline version of the file
// does not hold byte for byte:
//
//   - a method whose receiver's type is declared in a non-test file of
//     the package (directly or through an alias a test file declares):
//     the type gains a method only in the test binary, so an interface it
//     satisfies there (fmt.Stringer, error, json.Marshaler…) changes what
//     the non-test code does;
//   - a package-level name that is a predeclared identifier (max, len,
//     float64, true…): a package-level declaration shadows it in every
//     file of the package, the non-test files too.
//
// Test files of the external test package (package p_test) can do
// neither to package p.
func semanticsFindings(patchFiles, baseFiles, srcFiles []*goFile) []Finding {
	pkgs := map[string]bool{} // the package names of the non-test files
	prodTypes := map[string]bool{}
	aliases := map[string]string{} // alias name → the type name it denotes
	for _, f := range srcFiles {
		pkgs[f.f.Name.Name] = true
		for _, d := range f.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					prodTypes[ts.Name.Name] = true
				}
			}
		}
	}
	inPackage := func(f *goFile) bool { return pkgs[f.f.Name.Name] }
	ifaceMethods := map[string]bool{} // method names of the interfaces the non-test files declare
	for _, f := range srcFiles {
		ast.Inspect(f.f, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					for _, id := range m.Names {
						ifaceMethods[id.Name] = true
					}
				}
			}
			return true
		})
	}
	for _, f := range patchFiles {
		if !inPackage(f) {
			continue
		}
		for _, d := range f.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Assign.IsValid() {
					if id, ok := baseTypeIdent(ts.Type); ok {
						aliases[ts.Name.Name] = id
					}
				}
			}
		}
	}
	production := func(name string) (string, bool) {
		for range 100 { // aliases of aliases, never a cycle
			if prodTypes[name] {
				return name, true
			}
			next, ok := aliases[name]
			if !ok {
				return "", false
			}
			name = next
		}
		return "", false
	}
	judge := func(f *goFile) []semantic {
		if !inPackage(f) {
			return nil
		}
		var out []semantic
		for _, d := range f.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) > 0 {
					id, ok := baseTypeIdent(d.Recv.List[0].Type)
					if !ok {
						continue
					}
					if typ, ok := production(id); ok {
						if !ast.IsExported(d.Name.Name) && !ifaceMethods[d.Name.Name] {
							// An unexported method satisfies only interfaces of
							// this package, and reflection does not list it.
							continue
						}
						out = append(out, semantic{text: f.text(d), line: f.line(d.Pos()),
							what: fmt.Sprintf("declares method %s on %s, a type of the package's non-test code: inside the test binary that code behaves otherwise (an interface it satisfies there, fmt.Stringer or error, changes what it does)", d.Name.Name, typ)})
					}
					continue
				}
				if predeclared(d.Name.Name) {
					out = append(out, semantic{text: f.text(d), line: f.line(d.Pos()),
						what: fmt.Sprintf("declares func %s, which shadows the predeclared %s in every file of package %s, its non-test code's too", d.Name.Name, d.Name.Name, f.f.Name.Name)})
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var names []*ast.Ident
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = []*ast.Ident{s.Name}
					case *ast.ValueSpec:
						names = s.Names
					}
					for _, n := range names {
						if predeclared(n.Name) {
							out = append(out, semantic{text: f.text(s), line: f.line(n.Pos()),
								what: fmt.Sprintf("declares %s %s, which shadows the predeclared %s in every file of package %s, its non-test code's too", d.Tok, n.Name, n.Name, f.f.Name.Name)})
						}
					}
				}
			}
		}
		return out
	}
	baseByFile := map[string]*goFile{}
	for _, f := range baseFiles {
		baseByFile[f.path] = f
	}
	var out []Finding
	for _, f := range patchFiles {
		if !f.changed {
			continue
		}
		var had []string
		if b := baseByFile[f.path]; b != nil {
			for _, s := range judge(b) {
				had = append(had, s.text)
			}
		}
		for _, s := range judge(f) {
			if i := slices.Index(had, s.text); i >= 0 {
				had = slices.Delete(had, i, i+1)
				continue
			}
			out = append(out, Finding{Rule: RuleHarnessReach, File: f.path, Line: s.line, What: s.what})
		}
	}
	return out
}

// ReceiverType is the name of the type a method's receiver list fl names
// (through pointers, parentheses and type arguments), "" when fl is not one
// receiver of a named type.
func ReceiverType(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) != 1 {
		return ""
	}
	name, _ := baseTypeIdent(fl.List[0].Type)
	return name
}

// baseTypeIdent returns the name of the type a receiver or alias names,
// through pointers, parentheses and type arguments.
func baseTypeIdent(t ast.Expr) (string, bool) {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name, true
		default:
			return "", false
		}
	}
}

// root is a declaration of a test file that runs before the tests.
type root struct {
	node  ast.Node
	text  string
	line  int
	what  string // the finding's words
	label string // how a reached function names it
}

// roots lists the file's declarations that run before its package's tests.
func (g *goFile) roots(types map[string]bool) []root {
	var out []root
	for _, d := range g.f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil || (d.Name.Name != "init" && d.Name.Name != "TestMain") {
				continue
			}
			out = append(out, root{node: d, text: g.text(d), line: g.line(d.Pos()),
				what:  "declares " + d.Name.Name + ", which runs before the package's tests",
				label: d.Name.Name + " in " + g.path})
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				vs := s.(*ast.ValueSpec)
				var names []string
				for _, n := range vs.Names {
					names = append(names, n.Name)
				}
				for _, v := range vs.Values {
					why, at := RunsCode(v, g.imports, types)
					if why == "" {
						continue
					}
					name := strings.Join(names, ", ")
					out = append(out, root{node: vs, text: g.text(vs), line: g.line(at),
						what:  fmt.Sprintf("package-level var %s runs code before the package's tests: %s", name, why),
						label: "the initializer of var " + name + " in " + g.path})
					break
				}
			}
		}
	}
	for _, cg := range g.f.Comments {
		for _, c := range cg.List {
			switch {
			case strings.HasPrefix(c.Text, "//go:linkname"):
				out = append(out, root{node: c, text: c.Text, line: g.line(c.Pos()),
					what:  "has a //go:linkname directive, which can replace any function of the test binary",
					label: "a //go:linkname directive in " + g.path})
			case strings.HasPrefix(c.Text, "//go:debug"):
				// A test file's //go:debug sets GODEBUG for the whole
				// test binary (panicnil=1 makes panic(nil) recover as
				// nil): the code under test runs as no program built
				// from it does.
				out = append(out, root{node: c, text: c.Text, line: g.line(c.Pos()),
					what:  "has a //go:debug directive, which changes the runtime's behaviour for the whole test binary",
					label: "a //go:debug directive in " + g.path})
			}
		}
	}
	// GODEBUG set while the tests run (t.Setenv, os.Setenv: the runtime
	// reads it again) changes the runtime as //go:debug does. Named by
	// the declaration holding the string, so an unchanged one is not new.
	consts := g.stringConsts()
	for _, d := range g.f.Decls {
		found := false
		ast.Inspect(d, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && !found {
				if v, ok := constString(e, consts); ok && strings.Contains(v, "GODEBUG") {
					found = true
					out = append(out, root{node: d, text: g.text(d), line: g.line(e.Pos()),
						what:  "names GODEBUG, whose setting changes the runtime's behaviour for the rest of the test binary",
						label: "the GODEBUG setting in " + g.path})
				}
			}
			return !found
		})
	}
	return out
}

// funcDecl is a function or method a test file declares.
type funcDecl struct {
	file *goFile
	decl *ast.FuncDecl
	name string // the function's or method's name
	key  string // "name" or "Recv.name"
	text string
	line int
}

func (d funcDecl) isRoot() bool {
	return d.decl.Recv == nil && (d.name == "init" || d.name == "TestMain")
}

func (d funcDecl) label() string {
	if d.decl.Recv != nil {
		return "method " + d.key
	}
	return "func " + d.name
}

func (g *goFile) funcDecls() []funcDecl {
	var out []funcDecl
	for _, d := range g.f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		out = append(out, funcDecl{file: g, decl: fn, name: fn.Name.Name, key: funcKey(fn), text: g.text(fn), line: g.line(fn.Pos())})
	}
	return out
}

// funcTexts returns the source of every function and method by key.
func (g *goFile) funcTexts() map[string][]string {
	out := map[string][]string{}
	for _, d := range g.funcDecls() {
		out[d.key] = append(out[d.key], d.text)
	}
	return out
}

// funcKey names a function "name" and a method "Recv.name".
func funcKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return "?." + fn.Name.Name
	}
}

// referencedNames lists the identifiers and selected names a node uses, in
// order: the names a call graph by name follows.
func referencedNames(n ast.Node) []string {
	var out []string
	seen := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		var name string
		switch x := n.(type) {
		case *ast.Ident:
			name = x.Name
		case *ast.SelectorExpr:
			name = x.Sel.Name
		}
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
		return true
	})
	return out
}

// builtinTypes returns the predeclared type names.
func builtinTypes() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"bool", "byte", "complex64", "complex128", "error", "float32", "float64",
		"int", "int8", "int16", "int32", "int64", "rune", "string",
		"uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "any"} {
		m[n] = true
	}
	return m
}

// pureBuiltin reports the predeclared functions that compute a value without
// running user code or writing anything.
func pureBuiltin(name string) bool {
	switch name {
	case "len", "cap", "make", "new", "complex", "real", "imag", "min", "max":
		return true
	}
	return false
}

// pureCall reports the standard-library functions (import path "." name) that
// only construct a value from their arguments, and those that declare a
// flag of the test's own: calling them at package init runs no code of
// the patch and changes nothing the tests are judged by.
func pureCall(name string) bool {
	switch name {
	case "errors.New", "errors.Join", "fmt.Errorf", "fmt.Sprintf", "fmt.Sprint", "fmt.Sprintln",
		"regexp.MustCompile", "regexp.MustCompilePOSIX", "regexp.QuoteMeta", "time.Date", "time.Unix",
		"time.UnixMilli", "time.UnixMicro", "time.FixedZone", "time.Duration", "time.Month", "time.Weekday",
		"strings.Repeat", "strings.Join", "strings.ToUpper", "strings.ToLower", "strings.TrimSpace",
		"strings.Split", "strings.Fields", "strings.NewReader", "strings.NewReplacer", "bytes.Repeat",
		"bytes.NewReader", "bytes.NewBufferString", "bytes.NewBuffer", "math.Inf", "math.NaN", "math.Sqrt",
		"math.Pow", "math.Abs", "math.Float64frombits", "math.Float32frombits", "math.Nextafter",
		"math/big.NewInt", "math/big.NewFloat", "math/big.NewRat", "net.ParseIP", "net.IPv4", "net.IPv4Mask",
		"net.CIDRMask", "net/netip.MustParseAddr", "net/netip.MustParsePrefix",
		"net/netip.MustParseAddrPort", "net/netip.AddrFrom4", "path.Join", "path/filepath.Join",
		"path/filepath.FromSlash", "path/filepath.ToSlash", "strconv.Itoa", "strconv.Quote",
		"strconv.FormatInt", "strconv.FormatUint", "encoding/json.RawMessage", "io/fs.FileMode",
		"html/template.HTML", "unicode/utf8.RuneLen", "context.Background", "context.TODO",
		// A test's own flag (-update): declaring one adds it to the
		// command line the test binary parses and changes no other; a
		// name the testing package declares panics at start. (Var,
		// TextVar and Func run code of their argument's.)
		"flag.Bool", "flag.Int", "flag.Int64", "flag.Uint", "flag.Uint64", "flag.String", "flag.Float64", "flag.Duration":
		return true
	}
	return false
}

// dangerousPackage reports the packages through which code reaches the process, the test
// binary or the runtime; a call into them is named as such.
func dangerousPackage(name string) bool {
	switch name {
	case "flag", "os", "testing", "reflect", "unsafe", "runtime", "runtime/debug", "syscall", "os/exec",
		"os/signal", "golang.org/x/sys/unix":
		return true
	}
	return false
}

// RunsCode reports whether evaluating e at package initialization runs
// code: it returns why (and where) for the first such thing found, or "".
// imports maps the file's import names to paths; types holds the
// package-level names in scope of the file's package (see packageScopes):
// true for a type name, which makes a call a conversion; false for a name
// the package declares as a function, variable or constant, which makes
// a call of it code even when the name is predeclared (a package may
// declare its own float32 or len).
//
// Code is: a func literal that is the whole initializer (assigned at
// package level) or that is called; a call of anything but a conversion,
// a pure predeclared function (len, cap, make, new, complex, real, imag,
// min, max) or a pure standard-library constructor (errors.New,
// fmt.Errorf, regexp.MustCompile, time.Date, … see pureCall) — so calls
// of functions and methods declared in test files, calls into flag, os,
// testing, reflect, unsafe, runtime, syscall, and calls of any other
// function or method are code; a receive from a channel. Composite
// literals, constants, conversions and references are not (a func literal
// inside a composite literal only runs when a test calls it). The
// arguments of pure calls are judged too.
func RunsCode(e ast.Expr, imports map[string]string, types map[string]bool) (string, token.Pos) {
	if fl, ok := unparenExpr(e).(*ast.FuncLit); ok {
		return "it is a func literal", fl.Pos()
	}
	var why string
	var at token.Pos
	ast.Inspect(e, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false // not called (calls are judged at the CallExpr)
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				why, at = "it receives from a channel", x.Pos()
				return false
			}
		case *ast.CallExpr:
			if w := callCode(x, imports, types); w != "" {
				why, at = w, x.Pos()
				return false
			}
			// A conversion or a pure call: judge its arguments (the
			// callee of a conversion is a type, with nothing to run).
			for _, a := range x.Args {
				if w, p := RunsCode(a, imports, types); w != "" && !isFuncLit(a) {
					why, at = w, p
					return false
				}
			}
			return false
		}
		return true
	})
	return why, at
}

func isFuncLit(e ast.Expr) bool {
	_, ok := unparenExpr(e).(*ast.FuncLit)
	return ok
}

func unparenExpr(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// callCode says why a call runs code, or "" for a conversion or a pure
// call.
func callCode(c *ast.CallExpr, imports map[string]string, types map[string]bool) string {
	fun := unparenExpr(c.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // F[T](...)
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	switch f := fun.(type) {
	case *ast.FuncLit:
		return "it calls a func literal"
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType, *ast.StarExpr:
		return "" // a conversion
	case *ast.Ident:
		isType, declared := types[f.Name]
		switch {
		case declared && isType:
			return ""
		case declared:
			return "it calls " + f.Name
		case pureBuiltin(f.Name):
			return ""
		case f.Name == "append" || f.Name == "copy" || f.Name == "clear" || f.Name == "delete" || f.Name == "panic" ||
			f.Name == "print" || f.Name == "println" || f.Name == "recover" || f.Name == "close":
			return "it calls the builtin " + f.Name
		}
		return "it calls " + f.Name
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok {
			if ip, ok := imports[pkg.Name]; ok {
				name := ip + "." + f.Sel.Name
				switch {
				case pureCall(name):
					return ""
				case dangerousPackage(ip):
					return fmt.Sprintf("it calls %s.%s (package %s)", pkg.Name, f.Sel.Name, ip)
				}
				return fmt.Sprintf("it calls %s.%s", pkg.Name, f.Sel.Name)
			}
		}
		return "it calls the method " + f.Sel.Name
	}
	return "it calls a function value"
}

// onlyInertElementsAdded reports whether root r, a package-level var of
// the patch's version of a test file, is a baseline root of the same
// names whose single composite-literal value the patch changed only by
// adding elements that run no code (rows of constants added to a table):
// every element of the patch's literal that runs code is, token for token,
// one of the baseline literal's elements (spacing, line breaks and
// comments aside: a row gofmt reformatted runs what it ran).
func (g *goFile) onlyInertElementsAdded(r root, base []root, types map[string]bool) bool {
	vs, ok := r.node.(*ast.ValueSpec)
	if !ok || len(vs.Values) != 1 {
		return false
	}
	lit, ok := unparenExpr(vs.Values[0]).(*ast.CompositeLit)
	if !ok {
		return false
	}
	names := func(v *ast.ValueSpec) string {
		var n []string
		for _, id := range v.Names {
			n = append(n, id.Name)
		}
		return strings.Join(n, ",")
	}
	for _, b := range base {
		bvs, ok := b.node.(*ast.ValueSpec)
		if !ok || names(bvs) != names(vs) || len(bvs.Values) != 1 {
			continue
		}
		blit, ok := unparenExpr(bvs.Values[0]).(*ast.CompositeLit)
		if !ok {
			return false
		}
		// The literal's type must be the same tokens.
		if (lit.Type == nil) != (blit.Type == nil) || lit.Type != nil && sameTokens(g.text(lit.Type)) != sameTokens(baseText(b, blit.Type)) {
			return false
		}
		var had []string
		for _, e := range blit.Elts {
			had = append(had, sameTokens(baseText(b, e)))
		}
		for _, e := range lit.Elts {
			t := sameTokens(g.text(e))
			if i := slices.Index(had, t); i >= 0 {
				had = slices.Delete(had, i, i+1)
				continue
			}
			if why, _ := RunsCode(e, g.imports, types); why != "" {
				return false
			}
		}
		return true
	}
	return false
}

// sameTokens returns Go source text as its tokens, without comments or
// the semicolons a line break inserts, so that two spellings of one
// expression compare equal; text that does not scan is returned as it is.
func sameTokens(text string) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	failed := false
	sc.Init(fset.AddFile("", -1, len(text)), []byte(text), func(token.Position, string) { failed = true }, 0)
	var b strings.Builder
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		b.WriteString(tok.String())
		b.WriteByte(' ')
		b.WriteString(lit)
		b.WriteByte(0)
	}
	if failed {
		return text
	}
	return b.String()
}

// baseText returns the source of node n inside root b's text.
func baseText(b root, n ast.Node) string {
	off := int(n.Pos() - b.node.Pos())
	end := int(n.End() - b.node.Pos())
	if off < 0 || end > len(b.text) || off > end {
		return ""
	}
	return b.text[off:end]
}
