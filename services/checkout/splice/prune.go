package splice

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Prune returns the Go test files a patch adds to one package (path →
// content) with the other test entry points taken out — every Test,
// Benchmark, Fuzz and Example function but keep that no remaining
// declaration names: what runs of a new test when it is laid alone over
// the baseline's code. A new test file often also tests helpers the fix
// adds; those tests do not compile on the baseline, and whole they would
// hide that the claimed test — which only calls code the baseline has —
// fails there.
//
// Everything else stays — helpers, types with their methods, variables,
// constants, comments — and every kept line keeps its number and column
// (a removed function becomes blank lines; an import only removed code
// used becomes a blank import, so every package is still linked and
// initialized as with the whole file): a test that reads its own source
// position, or a method set through an alias, behaves as in the whole
// file. A kept declaration that reads os.Args or os.Executable may run
// the test binary again, where a removed test could be what answers: Prune
// refuses such files, as it refuses a keep no file declares and a file
// that does not parse (errors wrapping ErrConflict).
func Prune(files map[string][]byte, keep string) (map[string][]byte, error) {
	type decl struct {
		file string
		d    ast.Decl
	}
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	var decls []decl
	kept := []bool{}
	var work []int
	// The removable declarations, the other test entry points, by name.
	byName := map[string][]int{}
	found := false
	for _, p := range slices.Sorted(maps.Keys(files)) {
		f, err := parser.ParseFile(fset, p, files[p], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%w: %s does not parse: %v", ErrConflict, p, err)
		}
		parsed[p] = f
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			i := len(decls)
			decls = append(decls, decl{file: p, d: d})
			fd, ok := d.(*ast.FuncDecl)
			found = found || ok && fd.Recv == nil && fd.Name.Name == keep
			if ok && fd.Recv == nil && fd.Name.Name != keep && isEntryPoint(fd.Name.Name) {
				kept = append(kept, false)
				byName[fd.Name.Name] = append(byName[fd.Name.Name], i)
				continue
			}
			kept = append(kept, true)
			work = append(work, i)
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: no file declares func %s", ErrConflict, keep)
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		ast.Inspect(decls[i].d, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			for _, j := range byName[id.Name] {
				if !kept[j] {
					kept[j] = true
					work = append(work, j)
				}
			}
			return true
		})
	}
	for i, d := range decls {
		if kept[i] && readsOwnBinary(d.d) {
			return nil, fmt.Errorf("%w: %s reads os.Args or os.Executable: it may run the test binary again, whose other tests cannot be taken out", ErrConflict, d.file)
		}
	}
	out := make(map[string][]byte, len(files))
	for _, p := range slices.Sorted(maps.Keys(files)) {
		f, src := parsed[p], files[p]
		usedKept, usedGone := map[string]bool{}, map[string]bool{}
		// Each edit replaces src[from:to] with text: a removed
		// declaration by as many newlines, an import's name (or the
		// place before its path) by "_ ".
		type edit struct {
			from, to int
			text     []byte
		}
		var edits []edit
		for i, d := range decls {
			if d.file != p {
				continue
			}
			if kept[i] {
				selectorBases(d.d, usedKept)
				continue
			}
			selectorBases(d.d, usedGone)
			from, to := fset.Position(sourceStart(d.d)).Offset, fset.Position(d.d.End()).Offset
			edits = append(edits, edit{from, to, bytes.Repeat([]byte("\n"), bytes.Count(src[from:to], []byte("\n")))})
		}
		// Blank the imports only removed declarations used.
		for _, im := range f.Imports {
			if im.Name != nil && (im.Name.Name == "_" || im.Name.Name == ".") {
				continue
			}
			path, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				continue
			}
			names := candidateNames(path)
			if im.Name != nil {
				names = []string{im.Name.Name}
			}
			inKept := slices.ContainsFunc(names, func(n string) bool { return usedKept[n] })
			inGone := slices.ContainsFunc(names, func(n string) bool { return usedGone[n] })
			if inGone && !inKept {
				from := fset.Position(im.Pos()).Offset
				to := from
				if im.Name != nil {
					to = fset.Position(im.Name.End()).Offset
				}
				edits = append(edits, edit{from, to, []byte("_ ")})
			}
		}
		// From the end, so that earlier offsets hold.
		slices.SortFunc(edits, func(a, b edit) int { return b.from - a.from })
		b := slices.Clone(src)
		for _, e := range edits {
			b = slices.Concat(b[:e.from], e.text, b[e.to:])
		}
		if _, err := parser.ParseFile(token.NewFileSet(), p, b, parser.SkipObjectResolution); err != nil {
			return nil, fmt.Errorf("%w: %s pruned to %s does not parse: %v", ErrConflict, p, keep, err)
		}
		out[p] = b
	}
	return out, nil
}

// isEntryPoint reports whether a function's name makes it one the test
// binary finds by itself: a test, benchmark, fuzz test or example.
func isEntryPoint(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && (rest == "" || !unicode.IsLower(rune(rest[0]))) {
			return true
		}
	}
	return false
}

// readsOwnBinary reports whether n selects os.Args or os.Executable.
func readsOwnBinary(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" && (sel.Sel.Name == "Args" || sel.Sel.Name == "Executable") {
				found = true
			}
		}
		return !found
	})
	return found
}
