package checkout

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TestFuncs returns the names of the test functions the Go source src
// declares, sorted and without duplicates: top-level functions (no
// receiver, no type parameters, no results) named Test, or Test followed by
// a rune that is not lower case, taking exactly one parameter of type
// *testing.T, whatever name "testing" is imported as (a dot import makes it
// *T). Build constraints are not evaluated: a file that declares a test
// under any constraint lists it. Source that does not parse is an error.
func TestFuncs(src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("checkout: parse test file: %w", err)
	}
	names, dot := testingImports(f)
	var tests []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !isTestName(fn.Name.Name) {
			continue
		}
		if fn.Type.TypeParams != nil || (fn.Type.Results != nil && len(fn.Type.Results.List) > 0) {
			continue
		}
		params := fn.Type.Params.List
		if len(params) != 1 || len(params[0].Names) > 1 {
			continue
		}
		if isTestingT(params[0].Type, names, dot) {
			tests = append(tests, fn.Name.Name)
		}
	}
	slices.Sort(tests)
	return slices.Compact(tests), nil
}

// isTestName reports whether go test runs a function of this name as a
// test: "Test", or "Test" followed by a rune that is not lower case.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// testingImports returns the names the file imports "testing" as, and
// whether it dot-imports it.
func testingImports(f *ast.File) (map[string]bool, bool) {
	names := map[string]bool{}
	dot := false
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != "testing" {
			continue
		}
		switch {
		case imp.Name == nil:
			names["testing"] = true
		case imp.Name.Name == ".":
			dot = true
		case imp.Name.Name != "_":
			names[imp.Name.Name] = true
		}
	}
	return names, dot
}

// isTestingT reports whether expr is *testing.T under the file's imports.
func isTestingT(expr ast.Expr, names map[string]bool, dot bool) bool {
	expr = unparen(expr)
	star, ok := expr.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := unparen(star.X).(type) {
	case *ast.SelectorExpr:
		pkg, ok := x.X.(*ast.Ident)
		return ok && names[pkg.Name] && x.Sel.Name == "T"
	case *ast.Ident:
		return dot && x.Name == "T"
	}
	return false
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
