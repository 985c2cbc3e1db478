package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strings"
)

// Some calls change what code the patch did not touch sees of a value,
// where no test of the change's own behaviour looks:
//
//   - a sentinel error a function mentioned (return 0, ErrNotFound)
//     that it no longer mentions: fmt.Errorf("user %q: not found", name)
//     reads the same to a test of the message, yet errors.Is(err,
//     ErrNotFound) in every caller stops matching;
//   - a value converted to one of html/template's trusted types
//     (template.HTML(title)): the template no longer escapes it, and a
//     test with a plain title cannot tell;
//   - a regexp replacement whose replacement text is not a constant
//     (re.ReplaceAllString(s, repl)): $1 and ${name} in it are expanded,
//     which a test with plain text cannot tell.
//
// GoErrorIdentity reports each, per function (T.M for methods), where the
// patch's version has more of them than the baseline's (for a sentinel:
// where it mentions one the baseline's mentioned no more), as
// RuleForeignCode: a human decides whether the change is meant. base and
// patched are one package directory's non-test Go files; a function that
// moved to another file is compared where it is; files that do not parse
// are left out.
func GoErrorIdentity(base, patched map[string][]byte) []Finding {
	was, is := riskyUses(base), riskyUses(patched)
	var out []Finding
	for _, key := range slices.Sorted(maps.Keys(is)) {
		now, ok := is[key]
		b, inBase := was[key]
		if !ok || !inBase {
			continue
		}
		for _, s := range slices.Sorted(maps.Keys(b.sentinels)) {
			if !now.sentinels[s] {
				out = append(out, Finding{Rule: RuleForeignCode, File: now.file, Line: now.line,
					What: fmt.Sprintf("%s no longer mentions the sentinel error %s the baseline's did: an error it returned as %s (or wrapped with %%w) is now another, so errors.Is(err, %s) in code the patch did not touch stops matching, though a message reads the same; no mutant restores an identity", key, s, s, s)})
			}
		}
		if now.trusted > b.trusted {
			out = append(out, Finding{Rule: RuleForeignCode, File: now.file, Line: now.line,
				What: fmt.Sprintf("%s converts %d computed values to html/template's trusted types where the baseline's converted %d: the template no longer escapes them, and a test with plain text cannot tell; no mutant makes the text hostile", key, now.trusted, b.trusted)})
		}
		if now.expands > b.expands {
			out = append(out, Finding{Rule: RuleForeignCode, File: now.file, Line: now.line,
				What: fmt.Sprintf("%s makes %d regexp replacements with a computed replacement text where the baseline's made %d: $1 and ${name} in that text are expanded (the Literal variants do not), and a test with plain text cannot tell", key, now.expands, b.expands)})
		}
	}
	return Sort(out)
}

type riskyUse struct {
	file      string
	line      int
	sentinels map[string]bool
	trusted   int
	expands   int
}

// riskyUses collects, per function of files, the sentinel errors it
// mentions (the package's own variables Err… or err…, another package's
// EOF, ErrUnexpectedEOF, Err…), its conversions of non-literal values to
// html/template's trusted types, and its regexp replacements whose
// replacement text is not a string literal.
func riskyUses(files map[string][]byte) map[string]riskyUse {
	parsed := parseAll(files)
	vars := map[string]bool{} // the package's own variables: a local errX is no sentinel
	for _, g := range parsed {
		for _, d := range g.f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					for _, n := range sp.(*ast.ValueSpec).Names {
						vars[n.Name] = true
					}
				}
			}
		}
	}
	out := map[string]riskyUse{}
	eachFunc(parsed, func(key string, g *goFile, fd *ast.FuncDecl) {
		importsRegexp := slices.Contains(slices.Collect(maps.Values(g.imports)), "regexp")
		u := riskyUse{file: g.path, line: g.line(fd.Pos()), sentinels: map[string]bool{}}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				x, ok := n.X.(*ast.Ident)
				if !ok {
					return true
				}
				if _, imported := g.imports[x.Name]; imported && sentinelName(n.Sel.Name) {
					u.sentinels[x.Name+"."+n.Sel.Name] = true
				}
				return false
			case *ast.Ident:
				if vars[n.Name] && (sentinelName(n.Name) || sentinelName("E"+strings.TrimPrefix(n.Name, "e"))) {
					u.sentinels[n.Name] = true
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && g.imports[x.Name] == "html/template" && trustedType(sel.Sel.Name) && len(n.Args) == 1 && !isStringLit(n.Args[0]) {
					u.trusted++
				}
				if importsRegexp && len(n.Args) == 2 && (sel.Sel.Name == "ReplaceAllString" || sel.Sel.Name == "ReplaceAll") && !isStringLit(n.Args[1]) && !isBytesOfLit(n.Args[1]) {
					u.expands++
				}
			}
			return true
		})
		out[key] = u
	})
	return out
}

// sentinelName reports whether name reads as a sentinel error variable's.
func sentinelName(name string) bool {
	switch name {
	case "EOF", "ErrUnexpectedEOF":
		return true
	}
	return len(name) > 3 && strings.HasPrefix(name, "Err") && name[3] >= 'A' && name[3] <= 'Z'
}

// trustedType reports whether name is one of html/template's types whose
// content the template trusts.
func trustedType(name string) bool {
	switch name {
	case "HTML", "HTMLAttr", "JS", "JSStr", "URL", "CSS", "Srcset":
		return true
	}
	return false
}

// isStringLit reports whether e is a string literal, or literals joined
// with +.
func isStringLit(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && isStringLit(e.X) && isStringLit(e.Y)
	}
	return false
}

// isBytesOfLit reports whether e is []byte("literal").
func isBytesOfLit(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	at, ok := c.Fun.(*ast.ArrayType)
	if !ok || at.Len != nil {
		return false
	}
	if id, ok := at.Elt.(*ast.Ident); !ok || id.Name != "byte" {
		return false
	}
	return isStringLit(c.Args[0])
}
