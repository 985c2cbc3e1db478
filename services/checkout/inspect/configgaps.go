package inspect

import (
	"fmt"
	"go/ast"
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
	goos, goarch string
	cgo, race    bool
}

func (c buildConfig) String() string {
	s := c.goos + "/" + c.goarch
	if !c.cgo {
		s += " CGO_ENABLED=0"
	}
	if c.race {
		s += " -race"
	}
	return s
}

func buildConfigs() []buildConfig {
	var out []buildConfig
	for _, pl := range keptPlatforms {
		for _, cgo := range []bool{true, false} {
			for _, race := range []bool{false, true} {
				out = append(out, buildConfig{pl[0], pl[1], cgo, race})
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
// sides (file path → content) for package-level names that a file uses in
// a build configuration (a platform of keptPlatforms, cgo on or off, the
// race detector on or off) where no file declaring the name builds, and
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
			ctxt.BuildTags = nil
			if c.race {
				ctxt.BuildTags = []string{"race"}
			}
			ok, err := ctxt.MatchFile(path.Dir(file), path.Base(file))
			builds[i] = err == nil && ok
		}
		on[file] = builds
	}
	declared := map[string][]bool{} // package-level name → declared in configs[i]
	for file, g := range files {
		for _, name := range fileLevelNames(g.f) {
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
		ast.Inspect(g.f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(x.X, func(m ast.Node) bool { return visitUse(m, file, g, on, declared, configs, out) })
				return false
			default:
				return visitUse(n, file, g, on, declared, configs, out)
			}
		})
	}
	return out
}

// visitUse records the gap of an identifier n of file, if it names a
// package-level name not declared everywhere file builds.
func visitUse(n ast.Node, file string, g *goFile, on, declared map[string][]bool, configs []buildConfig, out map[string]configGap) bool {
	id, ok := n.(*ast.Ident)
	if !ok {
		return true
	}
	d, ok := declared[id.Name]
	if !ok {
		return true
	}
	if _, seen := out[id.Name]; seen {
		return true
	}
	var missing []string
	for i, b := range on[file] {
		if b && !d[i] {
			missing = append(missing, configs[i].String())
		}
	}
	if len(missing) > 0 {
		out[id.Name] = configGap{file: file, line: g.fset.Position(id.Pos()).Line, missing: missing}
	}
	return true
}

// fileLevelNames lists the package-level functions, types, variables and
// constants a file declares (methods are reached through their type).
func fileLevelNames(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" && d.Name.Name != "_" {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
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
		}
	}
	return out
}
