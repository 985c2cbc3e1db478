package checkout

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// The oracle puts back every baseline test file the patch changes, so a
// baseline test always judges the patch. When a fix legitimately changes
// behaviour that a test pinned, the fix edits that test (or a helper it
// calls) too, and the baseline's version then fails on the patch: evidence
// that behaviour changed, not that it broke — only a human can tell which.
// findEditedTests lists, by the key the suites use ("<import path>.<Test>"),
// the baseline Go tests the patch edits or whose test-file helpers
// (functions, tables and constants of the package's test files,
// used directly or through other helpers) it edits or deletes.
func (c *Checkout) findEditedTests(ctx context.Context) error {
	dirs := map[string]bool{}
	for _, p := range c.OracleRestored {
		if isGoTestFile(p) {
			dirs[path.Dir(p)] = true
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	var out []string
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		base, err := goTestFilesOf(ctx, c.Baseline, dir)
		if err != nil {
			return err
		}
		patched, err := goTestFilesOf(ctx, c.Patch, dir)
		if err != nil {
			return err
		}
		tests := editedTests(base, patched)
		if len(tests) == 0 {
			continue
		}
		ip, ok := importPath(ctx, c.Baseline, dir)
		if !ok {
			continue
		}
		for _, t := range tests {
			out = append(out, ip+"."+t)
		}
	}
	slices.Sort(out)
	c.EditedTests = slices.Compact(out)
	return nil
}

// goTestFilesOf reads the Go test files of dir in t.
func goTestFilesOf(ctx context.Context, t *tree.Tree, dir string) (map[string][]byte, error) {
	var files []string
	for _, e := range t.Entries() {
		if path.Dir(e.Path) == dir && isGoTestFile(e.Path) && e.Mode != tree.ModeSymlink {
			files = append(files, e.Path)
		}
	}
	if len(files) == 0 {
		return map[string][]byte{}, nil
	}
	return t.ReadFiles(ctx, files)
}

// editedTests returns the tests of the baseline's test files (one package
// directory) that the patch edits or deletes, or that use, directly or
// through other functions and declarations of the test files, a function,
// variable or constant of the test files it edits or deletes. Files that do not parse contribute nothing: their tests are
// judged as they are.
func editedTests(base, patched map[string][]byte) []string {
	type fn struct {
		text  string
		calls []string
		test  bool
	}
	read := func(files map[string][]byte) map[string]fn {
		out := map[string]fn{}
		for _, name := range slices.Sorted(maps.Keys(files)) {
			src := files[name]
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok != token.IMPORT {
					// A table of cases, a constant: a test that uses one
					// the patch changes is edited too.
					for _, sp := range g.Specs {
						text := string(src[fset.Position(sp.Pos()).Offset:fset.Position(sp.End()).Offset])
						if g.Tok == token.CONST {
							// Its values may repeat the ones before it.
							text = string(src[fset.Position(g.Pos()).Offset:fset.Position(g.End()).Offset]) + "\x00" + text
						}
						var uses []string
						ast.Inspect(sp, func(n ast.Node) bool {
							if id, ok := n.(*ast.Ident); ok {
								uses = append(uses, id.Name)
							}
							return true
						})
						// A type the patch changes (a field added) changes
						// no test that uses it by itself.
						sp, ok := sp.(*ast.ValueSpec)
						if !ok {
							continue
						}
						names := sp.Names
						for _, n := range names {
							if n.Name != "_" {
								out[n.Name] = fn{text: text, calls: uses}
							}
						}
					}
					continue
				}
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Name.Name == "init" {
					continue
				}
				key := fd.Name.Name
				if fd.Recv != nil {
					// A method, by "Type.Method": a suite's test runs
					// them all (below).
					typ := inspect.ReceiverType(fd.Recv)
					if typ == "" {
						continue
					}
					key = typ + "." + key
				}
				start := fd.Pos()
				if fd.Doc != nil {
					start = fd.Doc.Pos()
				}
				var calls []string
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.CallExpr:
						if id, ok := x.Fun.(*ast.Ident); ok {
							calls = append(calls, id.Name)
						}
					case *ast.Ident:
						// A function value passed on (t.Run(name, helper)).
						calls = append(calls, x.Name)
					}
					return true
				})
				out[key] = fn{text: string(src[fset.Position(start).Offset:fset.Position(fd.End()).Offset]), calls: calls,
					test: fd.Recv == nil && isTestName(fd.Name.Name)}
			}
		}
		// A test that runs a testify suite runs every method of its type
		// (inspect.GoSuites), and so does gocheck's: an edited method
		// edits the test.
		var srcs [][]byte
		for _, name := range slices.Sorted(maps.Keys(files)) {
			srcs = append(srcs, files[name])
		}
		suites := inspect.GoSuites(srcs)
		// gocheck's test function runs every suite the package
		// registers.
		checkRunners, checkSuites, _ := inspect.GoCheckSuites(srcs)
		for _, typ := range checkSuites {
			suites[typ] = append(suites[typ], checkRunners...)
		}
		for typ, runners := range suites {
			for _, r := range runners {
				f, ok := out[r]
				if !ok {
					continue
				}
				for key := range out {
					if strings.HasPrefix(key, typ+".") {
						f.calls = append(f.calls, key)
					}
				}
				out[r] = f
			}
		}
		return out
	}
	b, p := read(base), read(patched)
	changed := map[string]bool{}
	for name, f := range b {
		if pf, ok := p[name]; !ok || pf.text != f.text {
			changed[name] = true
		}
	}
	if len(changed) == 0 {
		return nil
	}
	// affected: a function changed, or one calling an affected one.
	affected := maps.Clone(changed)
	for grew := true; grew; {
		grew = false
		for name, f := range b {
			if affected[name] {
				continue
			}
			if slices.ContainsFunc(f.calls, func(c string) bool { return affected[c] && c != name }) {
				affected[name] = true
				grew = true
			}
		}
	}
	var out []string
	for name := range affected {
		if f, ok := b[name]; ok && f.test {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// importPath is the import path of the package in dir, from the nearest
// go.mod above it in t.
func importPath(ctx context.Context, t *tree.Tree, dir string) (string, bool) {
	for d := dir; ; d = path.Dir(d) {
		gomod := path.Join(d, "go.mod")
		if _, ok := t.Lookup(gomod); ok {
			b, err := t.ReadFiles(ctx, []string{gomod})
			if err != nil {
				return "", false
			}
			mp := modfile.ModulePath(b[gomod])
			if mp == "" {
				return "", false
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				rel = dir
			}
			if rel == "" || rel == "." {
				return mp, true
			}
			return mp + "/" + rel, true
		}
		if d == "." || d == "/" {
			return "", false
		}
	}
}
