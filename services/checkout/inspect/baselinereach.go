package inspect

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// RuleBaselineReach: test harness the patch adds or changes (see
// RuleTestHarness) uses what the baseline's test files declare — a test
// table, a helper, a flag: the patch ships tests that change what the
// baseline's tests judge by. The gate judges without that harness; what
// the patch would merge is not what it judged.
const RuleBaselineReach = "baseline-reach"

// RuleSupportWrite: non-test code the patch adds or changes, which
// production reaches, writes a package-level variable only tests read (a
// tolerance an assertion helper uses): the patch changes its tests' judge
// from production code, where the counterfactual oracle cannot put it
// back.
const RuleSupportWrite = "support-write"

// GoBaselineReach judges the test files of one Go package directory: tests
// are the patch's versions of every test file of the directory (Base set
// to the baseline's version where there is one, and Base alone for a test
// file the patch deletes), harness the paths of those with a
// RuleTestHarness finding. A finding is made for each package-level
// declaration of the baseline's test files (by name, in the same package:
// calc or calc_test) that the code of a harness file running before the
// tests uses — init, TestMain, the initializers of its package-level
// variables — directly or through the functions and methods of the
// directory's test files it calls. Names resolve as the compiler resolves
// them (go/types, the imports left unknown), so a local variable that
// shadows a baseline name is not that name. A harness file that does not
// parse is a finding too: it cannot be shown to keep away. Sorted.
func GoBaselineReach(tests []Version, harness []string) []Finding {
	var out []Finding
	groups := map[string][]Version{} // package name → files
	baseNames := map[string]map[string]bool{}
	for _, v := range tests {
		if v.Base != nil {
			if f, err := parser.ParseFile(token.NewFileSet(), v.Path, v.Base, parser.SkipObjectResolution); err == nil {
				names := baseNames[f.Name.Name]
				if names == nil {
					names = map[string]bool{}
					baseNames[f.Name.Name] = names
				}
				for _, d := range f.Decls {
					for _, n := range declaredNames(d) {
						names[n] = true
					}
				}
			}
		}
		if v.Patch == nil {
			continue
		}
		mode := parser.PackageClauseOnly
		if slices.Contains(harness, v.Path) {
			mode = parser.SkipObjectResolution
		}
		f, err := parser.ParseFile(token.NewFileSet(), v.Path, v.Patch, mode)
		if err != nil {
			if slices.Contains(harness, v.Path) {
				out = append(out, Finding{Rule: RuleBaselineReach, File: v.Path, What: "does not parse, so its harness cannot be shown to keep away from the baseline's tests"})
			}
			continue
		}
		groups[f.Name.Name] = append(groups[f.Name.Name], v)
	}
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, harnessReach(groups[name], harness, baseNames[name])...)
	}
	return Sort(out)
}

// declaredNames lists the package-level names a declaration declares:
// "f", or "T.m" for a method.
func declaredNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			return []string{funcKey(d)}
		}
		if d.Name.Name == "init" || d.Name.Name == "_" {
			return nil
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var out []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						out = append(out, n.Name)
					}
				}
			}
		}
		return out
	}
	return nil
}

// harnessReach judges one package (one package clause) of test files.
func harnessReach(files []Version, harness []string, baseNames map[string]bool) []Finding {
	fset := token.NewFileSet()
	var parsed []*ast.File
	var paths []string
	for _, v := range files {
		f, err := parser.ParseFile(fset, v.Path, v.Patch, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue // judged by GoBaselineReach when it is harness
		}
		parsed = append(parsed, f)
		paths = append(paths, v.Path)
	}
	if len(parsed) == 0 || len(baseNames) == 0 {
		return nil
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: fakeImporter{}, Error: func(error) {}, FakeImportC: true}
	pkg, _ := conf.Check(parsed[0].Name.Name, fset, parsed, info)
	if pkg == nil {
		return nil
	}
	// The declaration of each function and method, to follow calls.
	bodies := map[types.Object]ast.Node{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if o := info.Defs[fd.Name]; o != nil {
					bodies[o] = fd
				}
			}
		}
	}
	var out []Finding
	for i, f := range parsed {
		if !slices.Contains(harness, paths[i]) {
			continue
		}
		// at is where in the harness file the chain of calls that led
		// to node starts (NoPos: node is in the harness file).
		type item struct {
			node ast.Node
			from string
			at   token.Pos
		}
		var queue []item
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && (d.Name.Name == "init" || d.Name.Name == "TestMain") {
					queue = append(queue, item{d.Body, d.Name.Name, token.NoPos})
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					for _, v := range vs.Values {
						queue = append(queue, item{v, "the initializer of var " + vs.Names[0].Name, token.NoPos})
					}
				}
			}
		}
		seen := map[types.Object]bool{}
		reached := map[string]string{} // baseline name → from
		at := map[string]token.Pos{}
		for len(queue) > 0 {
			it := queue[0]
			queue = queue[1:]
			if it.node == nil {
				continue
			}
			ast.Inspect(it.node, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				o := info.Uses[id]
				if o == nil || o.Pkg() != pkg {
					return true
				}
				name := o.Name()
				if fn, ok := o.(*types.Func); ok {
					if recv := fn.Signature().Recv(); recv != nil {
						name = recvTypeName(recv.Type()) + "." + name
					}
				}
				where := it.at
				if where == token.NoPos {
					where = id.Pos()
				}
				if o.Parent() == pkg.Scope() || isMethod(o) {
					if baseNames[name] {
						if _, dup := reached[name]; !dup {
							reached[name], at[name] = it.from, where
						}
						return true
					}
					if body, ok := bodies[o]; ok && !seen[o] {
						seen[o] = true
						queue = append(queue, item{body, it.from + " through " + name, where})
					}
				}
				return true
			})
		}
		for _, name := range slices.Sorted(maps.Keys(reached)) {
			out = append(out, Finding{Rule: RuleBaselineReach, File: paths[i], Line: fset.Position(at[name]).Line,
				What: fmt.Sprintf("%s, which runs before the tests, uses %s, which the baseline's test files declare: the patch's harness changes what the baseline's tests judge by", reached[name], name)})
		}
	}
	return out
}

func isMethod(o types.Object) bool {
	fn, ok := o.(*types.Func)
	return ok && fn.Signature().Recv() != nil
}

// recvTypeName is the name of a method receiver's base type.
func recvTypeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return strings.TrimPrefix(t.String(), "*")
}
