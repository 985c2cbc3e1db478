package inspect

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strings"
)

// buildConfig is one configuration a package is built in: a platform of
// keptPlatforms, cgo on or off (CGO_ENABLED=0 is the go command's default
// where no C compiler is found, and the usual setting of static builds),
// with or without the race detector (its build tag).
type buildConfig struct {
	goos, goarch      string
	cgo, race, purego bool
}

func (c buildConfig) String() string {
	s := c.goos + "/" + c.goarch
	if !c.cgo {
		s += " CGO_ENABLED=0"
	}
	if c.race {
		s += " -race"
	}
	if c.purego {
		s += " -tags purego"
	}
	return s
}

// tags are the build tags c sets beyond the platform's.
func (c buildConfig) tags() []string {
	var t []string
	if c.race {
		t = append(t, "race")
	}
	if c.purego {
		t = append(t, "purego")
	}
	return t
}

func buildConfigs() []buildConfig {
	var out []buildConfig
	for _, pl := range append(slices.Clone(keptPlatforms), [2]string{"linux", "386"}) {
		for _, cgo := range []bool{true, false} {
			for _, race := range []bool{false, true} {
				for _, purego := range []bool{false, true} {
					out = append(out, buildConfig{pl[0], pl[1], cgo, race, purego})
				}
			}
		}
	}
	return out
}

// configGap is a package-level name a file uses in configurations where no
// file declaring it builds.
type configGap struct {
	file    string
	line    int
	missing []string
}

// GoConfigGaps compares one package directory's non-test Go files on both
// sides (file path → content) for package-level names (and methods and
// fields, by name) that a file uses in a build configuration (a platform of
// keptPlatforms or linux/386, cgo on or off, the race detector's tag and
// purego on or off) where no file declaring the name builds, and
// that the baseline's files did not already use so: a helper the fix
// calls, declared only in a new file under //go:build cgo (or !race, or
// linux), builds in the gate's configuration and breaks every other. No
// run of the gate can show it. Each is a finding of RuleForeignCode.
func GoConfigGaps(base, patched map[string][]byte) []Finding {
	b, p := parseAll(base), parseAll(patched)
	if len(b) != len(base) || len(p) != len(patched) {
		return nil // a file that does not parse: other analyses name it
	}
	had := configGaps(base, b)
	now := configGaps(patched, p)
	var out []Finding
	for _, name := range slices.Sorted(maps.Keys(now)) {
		if _, ok := had[name]; ok {
			continue
		}
		g := now[name]
		missing := g.missing
		if len(missing) > 3 {
			missing = append(slices.Clone(missing[:3]), fmt.Sprintf("%d more", len(g.missing)-3))
		}
		out = append(out, Finding{Rule: RuleForeignCode, File: g.file, Line: g.line,
			What: fmt.Sprintf("uses %s, which no file declares when built for %s: the package stops building there, and no test run here can show it", name, strings.Join(missing, ", "))})
	}
	return Sort(out)
}

// configGaps returns, by name, the first file (in path order) that uses a
// package-level name in configurations where it is not declared.
func configGaps(src map[string][]byte, files map[string]*goFile) map[string]configGap {
	configs := buildConfigs()
	ctxt := buildContext(src)
	on := map[string][]bool{} // file → builds in configs[i]
	for file := range files {
		builds := make([]bool, len(configs))
		for i, c := range configs {
			ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = c.goos, c.goarch, c.cgo
			ctxt.BuildTags = c.tags()
			ok, err := ctxt.MatchFile(path.Dir(file), path.Base(file))
			builds[i] = err == nil && ok
		}
		on[file] = builds
	}
	declared := map[string][]bool{} // package-level name, or "."+method or field name → declared in configs[i]
	for file, g := range files {
		for _, name := range slices.Concat(fileLevelNames(g.f), memberNames(g.f)) {
			d := declared[name]
			if d == nil {
				d = make([]bool, len(configs))
				declared[name] = d
			}
			for i, b := range on[file] {
				d[i] = d[i] || b
			}
		}
	}
	out := map[string]configGap{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		// Parsed again with its local names resolved: a parameter, a
		// local variable or a label named like a package-level name is
		// not a use of it.
		f, err := parser.ParseFile(token.NewFileSet(), file, src[file], 0)
		if err != nil {
			continue
		}
		use := func(key string, id *ast.Ident, label string) {
			d, ok := declared[key]
			if !ok {
				return
			}
			if _, seen := out[label]; seen {
				return
			}
			var missing []string
			for i, b := range on[file] {
				if b && !d[i] {
					missing = append(missing, configs[i].String())
				}
			}
			if len(missing) > 0 {
				out[label] = configGap{file: file, line: g.fset.Position(g.f.FileStart + (id.Pos() - f.FileStart)).Line, missing: missing}
			}
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Obj == nil && g.imports[id.Name] != "" {
					return false // a package's name: another package
				}
				ast.Inspect(x.X, visit)
				use("."+x.Sel.Name, x.Sel, "the method or field "+x.Sel.Name)
				return false
			case *ast.KeyValueExpr:
				if _, ok := x.Key.(*ast.Ident); !ok {
					ast.Inspect(x.Key, visit)
				}
				ast.Inspect(x.Value, visit)
				return false
			case *ast.Field:
				ast.Inspect(x.Type, visit) // its names are declared here
				return false
			case *ast.FuncDecl:
				if x.Recv != nil {
					ast.Inspect(x.Recv, visit)
				}
				ast.Inspect(x.Type, visit)
				if x.Body != nil {
					ast.Inspect(x.Body, visit)
				}
				return false
			case *ast.BranchStmt, *ast.ImportSpec:
				return false
			case *ast.LabeledStmt:
				ast.Inspect(x.Stmt, visit)
				return false
			case *ast.Ident:
				if x.Obj == nil {
					use(x.Name, x, x.Name)
				}
			}
			return true
		}
		ast.Inspect(f, visit)
	}
	return out
}

// memberNames lists, each as "."+name, the methods and struct fields a
// file declares: a selector x.name may reach any of them.
func memberNames(f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Recv != nil {
				out = append(out, "."+x.Name.Name)
			}
		case *ast.StructType:
			for _, fl := range x.Fields.List {
				for _, nm := range fl.Names {
					out = append(out, "."+nm.Name)
				}
				if len(fl.Names) == 0 {
					// An embedded field's name is its type's.
					t := fl.Type
					if st, ok := t.(*ast.StarExpr); ok {
						t = st.X
					}
					switch tt := t.(type) {
					case *ast.Ident:
						out = append(out, "."+tt.Name)
					case *ast.SelectorExpr:
						out = append(out, "."+tt.Sel.Name)
					}
				}
			}
		case *ast.InterfaceType:
			for _, fl := range x.Methods.List {
				for _, nm := range fl.Names {
					out = append(out, "."+nm.Name)
				}
			}
		}
		return true
	})
	return out
}

// fileLevelNames lists the package-level functions, types, variables and
// constants a file declares (declaredNames; methods, "T.m", are reached
// through their type and listed by memberNames).
func fileLevelNames(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		for _, name := range declaredNames(d) {
			if !strings.Contains(name, ".") {
				out = append(out, name)
			}
		}
	}
	return out
}
