package cover

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// DeletedFile is the baseline side of a Go file the patch modifies, with
// the lines it deletes outright.
type DeletedFile struct {
	Path        string // repository-relative, on the baseline side
	BaseProfile string // the name the baseline profile gives the file
	Src         []byte // the baseline's source
	// Deleted are the baseline lines the patch removes with no line added
	// in their place (a run of removed lines between kept ones).
	Deleted []int
}

// Deleted returns, sorted, the baseline lines of code in function bodies
// that files delete outright and that base (the claims' baseline
// profile) never ran: behaviour the patch removes that nothing judges —
// no patch-side line carries it to coverage or to a mutant, and the claims
// never exercised it. A guard deleted from a function the claims do not
// call is the shape. The lines of a function or method deleted whole
// (other than init) are left out: whatever called it changed too, which
// is measured, or nothing did. Lines of a file base does not name, or
// whose baseline does not parse, are not judged.
func Deleted(files []DeletedFile, base *Profile) []Line {
	if base == nil {
		return nil
	}
	var out []Line
	for _, f := range files {
		if len(f.Deleted) == 0 {
			continue
		}
		ran, named := map[int]bool{}, false
		for _, b := range base.Blocks {
			if b.File != f.BaseProfile {
				continue
			}
			named = true
			if b.Count == 0 {
				continue
			}
			for l := b.StartLine; l <= b.EndLine; l++ {
				ran[l] = true
			}
		}
		if !named {
			continue
		}
		code, err := CodeLines(f.Src)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Path, f.Src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		deleted := map[int]bool{}
		for _, l := range f.Deleted {
			deleted[l] = true
		}
		line := func(p token.Pos) int { return fset.PositionFor(p, false).Line }
		// Function bodies, less the functions deleted whole.
		var bodies [][2]int
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			whole := fd.Name.Name != "init" || fd.Recv != nil
			for l := line(fd.Pos()); l <= line(fd.End()) && whole; l++ {
				if code[l] && !deleted[l] {
					whole = false
				}
			}
			if whole {
				continue
			}
			bodies = append(bodies, [2]int{line(fd.Body.Lbrace), line(fd.Body.Rbrace)})
		}
		text := strings.Split(string(f.Src), "\n")
		for _, l := range f.Deleted {
			inBody := slices.ContainsFunc(bodies, func(b [2]int) bool { return b[0] < l && l < b[1] })
			if !inBody || !code[l] || ran[l] || l > len(text) || punctuation(text[l-1]) {
				continue
			}
			out = append(out, Line{Path: f.Path, Line: l})
		}
	}
	slices.SortFunc(out, compareLines)
	return slices.Compact(out)
}
