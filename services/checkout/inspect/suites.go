package inspect

import (
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strings"
)

// testifySuite is the import path of testify's suite runner. suite.Run(t,
// s) runs, as subtests of the calling test, every method of s's type whose
// name begins with "Test": a fix whose test is such a method adds no test
// function, only a method to a type an existing test runs.
const testifySuite = "github.com/stretchr/testify/suite"

// GoSuites maps each suite type the Go test files srcs (one package's)
// run with testify's suite.Run to the test functions that run it, sorted.
// A suite is recognized by its form in the test function's body:
// suite.Run(t, new(S)), suite.Run(t, &S{…}), or either through a local
// variable the function sets to one of those. Anything else (a suite built
// by a helper, a package-level variable) is not recognized, and its
// methods stay what they were: methods, not tests. A file that does not
// parse is skipped.
func GoSuites(srcs [][]byte) map[string][]string {
	out := map[string][]string{}
	for _, src := range srcs {
		g, err := parseGo("", src)
		if err != nil {
			continue
		}
		var names []string
		for name, ip := range g.imports {
			if ip == testifySuite {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			continue
		}
		for _, d := range g.f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			for _, s := range suitesRun(fn.Body, names) {
				out[s] = append(out[s], fn.Name.Name)
			}
		}
	}
	for s, fns := range out {
		slices.Sort(fns)
		out[s] = slices.Compact(fns)
	}
	return out
}

// suitesRun lists the suite types body passes to NAME.Run (NAME one of
// names) in the forms GoSuites recognizes.
func suitesRun(body *ast.BlockStmt, names []string) []string {
	// A local set to new(S) or &S{…}: its type, by name.
	locals := map[string]string{}
	set := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(lhs) != len(rhs) {
			return
		}
		for i, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				if s := suiteType(rhs[i]); s != "" {
					locals[id.Name] = s
				}
			}
		}
	}
	var out []string
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			set(x.Lhs, x.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(x.Names))
			for i, id := range x.Names {
				lhs[i] = id
			}
			set(lhs, x.Values)
		case *ast.CallExpr:
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Run" || len(x.Args) != 2 {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || !slices.Contains(names, id.Name) {
				return true
			}
			s := suiteType(x.Args[1])
			if id, ok := x.Args[1].(*ast.Ident); ok && s == "" {
				s = locals[id.Name]
			}
			if s != "" {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// suiteType is S for new(S), &S{…} and (&S{…}), "" for anything else.
func suiteType(e ast.Expr) string {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 {
			if t, ok := x.Args[0].(*ast.Ident); ok {
				return t.Name
			}
		}
	case *ast.UnaryExpr:
		if x.Op != token.AND {
			return ""
		}
		if c, ok := x.X.(*ast.CompositeLit); ok {
			if t, ok := c.Type.(*ast.Ident); ok {
				return t.Name
			}
		}
	}
	return ""
}

// GoSuiteMethods maps each type of the Go source src to the methods it
// declares that testify runs as tests: named "Test…", without parameters
// or results, sorted. Source that does not parse is an error.
func GoSuiteMethods(src []byte) (map[string][]string, error) {
	g, err := parseGo("", src)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, d := range g.f.Decls {
		if t, m := suiteMethod(d); t != "" {
			out[t] = append(out[t], m)
		}
	}
	for _, t := range slices.Collect(maps.Keys(out)) {
		slices.Sort(out[t])
		out[t] = slices.Compact(out[t])
	}
	return out, nil
}

// suiteMethod is the receiver type and the name of d when d is a method
// testify runs as a test, "" otherwise.
func suiteMethod(d ast.Decl) (typ, name string) {
	fn, ok := d.(*ast.FuncDecl)
	if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
		return "", ""
	}
	if len(fn.Type.Params.List) != 0 || (fn.Type.Results != nil && len(fn.Type.Results.List) != 0) {
		return "", ""
	}
	if t := suiteRecv(fn.Recv); t != "" {
		return t, fn.Name.Name
	}
	return "", ""
}

// suiteRecv is the name of a method receiver's type, with or without
// a pointer; "" for a generic type or anything else.
func suiteRecv(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) != 1 {
		return ""
	}
	t := fl.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// suiteMethodBody is the body of method name of one of types, as the Go
// files declare it, or nil.
func suiteMethodBody(files []*goFile, types []string, name string) *ast.BlockStmt {
	for _, g := range files {
		for _, d := range g.f.Decls {
			if t, m := suiteMethod(d); t != "" && m == name && slices.Contains(types, t) {
				return d.(*ast.FuncDecl).Body
			}
		}
	}
	return nil
}

// SuitesRun lists the suite types the test function fn of the parsed Go
// file f runs with testify's suite.Run, in the forms GoSuites recognizes.
func SuitesRun(f *ast.File, fn *ast.FuncDecl) []string {
	if fn.Body == nil {
		return nil
	}
	var names []string
	for _, imp := range f.Imports {
		if imp.Path.Value != `"`+testifySuite+`"` {
			continue
		}
		switch {
		case imp.Name == nil:
			names = append(names, "suite")
		case imp.Name.Name != "_" && imp.Name.Name != ".":
			names = append(names, imp.Name.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	out := suitesRun(fn.Body, names)
	// Only a suite fn makes with its zero value: a wrapper of it starts
	// from the zero value too, and &S{db: x} would be a literal of the
	// wrapper's with fields it does not have.
	out = slices.DeleteFunc(out, func(typ string) bool { return !zeroValuedOnly(fn.Body, typ) })
	slices.Sort(out)
	return slices.Compact(out)
}

// zeroValuedOnly reports whether every composite literal of the type typ
// under n is empty (S{}), as new(S) is.
func zeroValuedOnly(n ast.Node, typ string) bool {
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if c, is := n.(*ast.CompositeLit); is && len(c.Elts) > 0 {
			if id, is := c.Type.(*ast.Ident); is && id.Name == typ {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// gocheckPaths are the import paths of gocheck, whose one test function
// (func Test(t *testing.T) { check.TestingT(t) }) runs every suite the
// package registers (var _ = check.Suite(&S{})): each method of S named
// Test… and taking a *check.C is a case, with no subtest of its own.
var gocheckPaths = []string{"gopkg.in/check.v1", "github.com/go-check/check", "launchpad.net/gocheck"}

// GoCheckSuites reads the Go test files srcs of one package as gocheck
// runs them: runners are the test functions that call TestingT (qualified
// by gocheck's import name, or not for a dot import) and suites the types
// the files register with Suite(&S{…}) or Suite(new(S)) in a package-level
// initializer or an init function, all sorted; zero are those of suites
// registered only with their zero value (&S{}, new(S)), which a wrapper
// registered beside them can start from too. A file that does not parse
// is skipped.
func GoCheckSuites(srcs [][]byte) (runners, suites, zero []string) {
	withFields := map[string]bool{}
	for _, src := range srcs {
		g, err := parseGo("", src)
		if err != nil {
			continue
		}
		names, dot := gocheckNames(g.f)
		if len(names) == 0 && !dot {
			continue
		}
		// call reports whether e calls gocheck's fn.
		call := func(e ast.Expr, fn string) (*ast.CallExpr, bool) {
			c, ok := e.(*ast.CallExpr)
			if !ok {
				return nil, false
			}
			switch f := c.Fun.(type) {
			case *ast.Ident:
				return c, dot && f.Name == fn
			case *ast.SelectorExpr:
				x, ok := f.X.(*ast.Ident)
				return c, ok && f.Sel.Name == fn && slices.Contains(names, x.Name)
			}
			return nil, false
		}
		register := func(n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if c, ok := n.(ast.Expr); ok {
					if c, ok := call(c, "Suite"); ok && len(c.Args) == 1 {
						if s := suiteType(c.Args[0]); s != "" {
							suites = append(suites, s)
							if !zeroValuedOnly(c.Args[0], s) {
								withFields[s] = true
							}
						}
					}
				}
				return true
			})
		}
		for _, d := range g.f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					register(d)
				}
			case *ast.FuncDecl:
				if d.Recv != nil || d.Body == nil {
					continue
				}
				if d.Name.Name == "init" {
					register(d.Body)
					continue
				}
				if !strings.HasPrefix(d.Name.Name, "Test") {
					continue
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if e, ok := n.(ast.Expr); ok {
						if _, ok := call(e, "TestingT"); ok {
							runners = append(runners, d.Name.Name)
						}
					}
					return true
				})
			}
		}
	}
	slices.Sort(runners)
	slices.Sort(suites)
	suites = slices.Compact(suites)
	for _, s := range suites {
		if !withFields[s] {
			zero = append(zero, s)
		}
	}
	return slices.Compact(runners), suites, zero
}

// gocheckNames returns the names the parsed file imports gocheck as, and
// whether it dot-imports it.
func gocheckNames(f *ast.File) (names []string, dot bool) {
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, "`\"")
		if !slices.Contains(gocheckPaths, p) {
			continue
		}
		switch {
		case imp.Name == nil:
			names = append(names, "check")
		case imp.Name.Name == ".":
			dot = true
		case imp.Name.Name != "_":
			names = append(names, imp.Name.Name)
		}
	}
	return names, dot
}

// GoCheckName is how the parsed Go file f can call gocheck's functions:
// "check." (its import name and a dot), "" for a dot import; ok is false
// when f does not import gocheck.
func GoCheckName(f *ast.File) (qualifier string, ok bool) {
	names, dot := gocheckNames(f)
	switch {
	case dot:
		return "", true
	case len(names) > 0:
		return names[0] + ".", true
	}
	return "", false
}

// GoZeroSuiteRunners maps each testify suite type that the Go test files
// files (one package's, by name) run with its zero value (SuitesRun) to
// the tests that run it, as "file#Test", sorted. A file that does not
// parse runs nothing.
func GoZeroSuiteRunners(files map[string][]byte) map[string][]string {
	out := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		g, err := parseGo(name, files[name])
		if err != nil {
			continue
		}
		for _, d := range g.f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			for _, typ := range SuitesRun(g.f, fn) {
				out[typ] = append(out[typ], name+"#"+fn.Name.Name)
			}
		}
	}
	for typ := range out {
		slices.Sort(out[typ])
		out[typ] = slices.Compact(out[typ])
	}
	return out
}
