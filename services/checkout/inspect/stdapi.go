package inspect

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/version"
	"maps"
	"slices"
	"strings"
)

// stdAPI lists, one per line as "goX.Y path.Name", the package-level
// functions, types, variables and constants the standard library added
// in Go 1.11 or later, each with the release that added it: the toolchain's
// api/go1.N.txt files, reduced (TestStdAPIIsTheToolchains writes and checks
// it). It is part of the binary, not read from the machine's toolchain, so
// every service that rebuilds a checkout finds the same.
//
//go:embed stdapi.txt
var stdAPI string

// parseStdAPI reads stdAPI's lines into a map: path.Name → goX.Y.
func parseStdAPI(text string) map[string]string {
	out := map[string]string{}
	for line := range strings.Lines(text) {
		v, sym, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok {
			out[sym] = v
		}
	}
	return out
}

// GoNewerAPI reports each use, in one package directory's non-test Go
// files the patch changed (base and patched: path → content), of a
// standard-library name added after the Go release the file's module
// declares (its go.mod among mods, or a //go:build goX.Y line of the
// file), where the baseline's files of the package did not use it
// already: the gate's newer toolchain compiles it, so every test passes,
// yet the module no longer builds for users on the releases it claims to
// support (strings.CutPrefix, Go 1.20, in a module declaring go 1.18). A
// finding of RuleForeignCode: no test on this toolchain can show it.
// Methods are not looked up (that needs types).
func GoNewerAPI(base, patched, mods map[string][]byte) []Finding {
	added := parseStdAPI(stdAPI)
	used := map[string]bool{}
	for _, g := range parseAll(base) {
		for _, u := range stdUses(g) {
			used[u.sym] = true
		}
	}
	var out []Finding
	patchedFiles := parseAll(patched)
	for _, file := range slices.Sorted(maps.Keys(patchedFiles)) {
		if string(base[file]) == string(patched[file]) {
			continue
		}
		g := patchedFiles[file]
		declared := fileVersion(g.f, file, mods)
		seen := map[string]bool{}
		for _, u := range stdUses(g) {
			v, ok := added[u.sym]
			if !ok || used[u.sym] || seen[u.sym] || version.Compare(v, declared) <= 0 {
				continue
			}
			seen[u.sym] = true
			out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: g.line(u.pos),
				What: fmt.Sprintf("uses %s, which the standard library added in %s, where the file's module declares %s: it does not build for users on the releases between, though the gate's newer toolchain compiles it and every test passes", u.sym, v, declared)})
		}
	}
	return Sort(out)
}

type stdUse struct {
	sym string
	pos token.Pos
}

// stdUses returns the qualified identifiers of g that name a standard
// library package's member (an import whose path has no dot in its first
// element), as path.Name.
func stdUses(g *goFile) []stdUse {
	var out []stdUse
	ast.Inspect(g.f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				if p, ok := g.imports[x.Name]; ok && !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
					out = append(out, stdUse{p + "." + sel.Sel.Name, sel.Pos()})
				}
			}
		}
		return true
	})
	return out
}
