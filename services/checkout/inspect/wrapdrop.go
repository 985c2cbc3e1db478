package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// GoWrapDrops reports each function (or method) of dir's non-test Go files
// (base and patched: path → content) whose string literals spell the
// verb %w fewer times on the patch than on the baseline: an error it
// wrapped (fmt.Errorf("load: %w", err)) now carries only its text, so
// errors.Is and errors.As in code the patch did not touch stop finding the
// cause — while the message, which a test pins, reads the same with %v.
// No mutant switches a verb back, and coverage sees the line run either
// way: RuleForeignCode. A function that moved to another file is compared
// where it is.
func GoWrapDrops(base, patched map[string][]byte) []Finding {
	was, is := wrapCounts(base), wrapCounts(patched)
	var out []Finding
	for _, key := range slices.Sorted(maps.Keys(is)) {
		now := is[key]
		if b, ok := was[key]; ok && now.n < b.n {
			out = append(out, Finding{Rule: RuleForeignCode, File: now.file, Line: now.line,
				What: fmt.Sprintf("%s wraps errors with %%w %d times where the baseline's did %d times: an error it returns no longer carries its cause for errors.Is and errors.As in code the patch did not touch, though its message reads the same; no mutant switches a verb", key, now.n, b.n)})
		}
	}
	return Sort(out)
}

type wrapCount struct {
	file string
	line int
	n    int
}

// wrapCounts counts %w in the string literals of each function of files,
// by name (T.M for methods). Files that do not parse are left out.
func wrapCounts(files map[string][]byte) map[string]wrapCount {
	out := map[string]wrapCount{}
	eachFunc(parseAll(files), func(key string, g *goFile, fd *ast.FuncDecl) {
		n := 0
		ast.Inspect(fd.Body, func(m ast.Node) bool {
			if lit, ok := m.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					n += strings.Count(strings.ReplaceAll(s, "%%", ""), "%w")
				}
			}
			return true
		})
		out[key] = wrapCount{file: g.path, line: g.line(fd.Pos()), n: n}
	})
	return out
}

// eachFunc calls fn for each function with a body of files, file by file
// in the order of their names, with its name (T.M for a method).
func eachFunc(files map[string]*goFile, fn func(key string, g *goFile, fd *ast.FuncDecl)) {
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g := files[file]
		for _, d := range g.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				key = recvBase(fd.Recv.List[0].Type) + "." + key
			}
			fn(key, g, fd)
		}
	}
}
