package inspect

import (
	"fmt"
	"go/ast"
	"maps"
	"path"
	"slices"
	"strings"
)

// The platforms a declaration must keep: the three the Go project ships
// first-class ports of, where a package that builds on one is expected to
// build on the others. A file name's _GOOS or _GOARCH suffix is a build
// constraint as a //go:build line is, and moving a declaration into a file
// that one of them leaves out deletes it there: every importer on that
// platform stops building, and no run of the gate, on linux/amd64, can
// show it.
var keptPlatforms = [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}}

// GoPlatformLosses compares one package directory's non-test Go files on
// both sides (file path → content) for package-level declarations the
// baseline declares on one of keptPlatforms and the patch does not: a
// file renamed kv.go → kv_linux.go, a function moved to a new file under
// //go:build linux. A declaration split across files for each platform
// (f_unix.go, f_windows.go) keeps every platform, and is none. Each loss
// is a finding of RuleForeignCode.
func GoPlatformLosses(base, patched map[string][]byte) []Finding {
	b, p := parseAll(base), parseAll(patched)
	if len(b) != len(base) || len(p) != len(patched) {
		return nil // a file that does not parse: other analyses name it
	}
	was, now := declPlatforms(base, b), declPlatforms(patched, p)
	var out []Finding
	for _, name := range slices.Sorted(maps.Keys(was)) {
		at, ok := now[name]
		if !ok {
			continue // deleted outright: GoDeclChanges judges deletions
		}
		var lost []string
		for _, pl := range was[name].platforms {
			if !slices.Contains(at.platforms, pl) {
				lost = append(lost, pl)
			}
		}
		if len(lost) == 0 {
			continue
		}
		out = append(out, Finding{Rule: RuleForeignCode, File: at.file, Line: at.line,
			What: fmt.Sprintf("%s is no longer declared for %s, where the baseline declared it: the file's name or build constraint leaves it out there, so every importer on that platform stops building, and no test run here can show it", name, strings.Join(lost, ", "))})
	}
	return out
}

// declPlatform is where a package-level name is declared, and on which of
// keptPlatforms some file declaring it builds.
type declPlatform struct {
	file      string
	line      int
	platforms []string
}

func declPlatforms(src map[string][]byte, files map[string]*goFile) map[string]declPlatform {
	out := map[string]declPlatform{}
	ctxt := buildContext(src)
	ctxt.CgoEnabled = false
	for _, file := range slices.Sorted(maps.Keys(files)) {
		var on []string
		for _, pl := range keptPlatforms {
			ctxt.GOOS, ctxt.GOARCH = pl[0], pl[1]
			if ok, err := ctxt.MatchFile(path.Dir(file), path.Base(file)); err == nil && ok {
				on = append(on, pl[0]+"/"+pl[1])
			}
		}
		g := files[file]
		add := func(name string, at ast.Node) {
			d, seen := out[name]
			if !seen {
				d = declPlatform{file: file, line: g.fset.Position(at.Pos()).Line}
			}
			for _, pl := range on {
				if !slices.Contains(d.platforms, pl) {
					d.platforms = append(d.platforms, pl)
				}
			}
			out[name] = d
		}
		for _, decl := range g.f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if name == "init" || name == "_" {
					continue
				}
				if d.Recv != nil && len(d.Recv.List) == 1 {
					name = recvBase(d.Recv.List[0].Type) + "." + name
				}
				add(name, d.Name)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name, s.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								add(n.Name, n)
							}
						}
					}
				}
			}
		}
	}
	for name, d := range out {
		slices.Sort(d.platforms)
		out[name] = d
	}
	return out
}
