package mutation

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/patch"
)

// valueUnit is a leaf value of a package-level var or const declaration:
// the whole value, or, inside composite literals, each element that is not
// itself one (a row's limit, a map's entry). Its path names it the same
// way on both sides of the patch: the declared name, then the key or the
// position of each element it sits in — limits[#2][Timeout],
// roles["admin"]. Two units with the same path and the same tokens hold
// the same value (unless a name in them changed meaning, which is a
// changed line of its own).
type valueUnit struct {
	path       string
	root       string // the declared name
	start, end int    // byte range in its file
	toks       string // its tokens, comments and spacing aside
	calls      bool   // its value calls a function
	ambiguous  bool   // another unit of its side has the same path
}

// valueUnits returns the value units of a Go file's package-level
// declarations, in source order; ok is false when src does not parse.
// Function literals are code, judged by coverage and code mutants: they
// are no unit.
func valueUnits(src []byte) (units []valueUnit, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	tf := fset.File(f.Pos())
	text := func(n ast.Node) string {
		toks, _ := goTokens(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
		words := make([]string, len(toks))
		for i, t := range toks {
			words[i] = t.text()
		}
		return strings.Join(words, " ")
	}
	var walk func(root, path string, e ast.Expr)
	walk = func(root, path string, e ast.Expr) {
		inner := e
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			inner = u.X
		}
		switch v := ast.Unparen(inner).(type) {
		case *ast.CompositeLit:
			for i, el := range v.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					walk(root, path+"["+text(kv.Key)+"]", kv.Value)
					continue
				}
				walk(root, path+"[#"+strconv.Itoa(i)+"]", el)
			}
			return
		case *ast.FuncLit:
			return
		}
		start, end := tf.Offset(e.Pos()), tf.Offset(e.End())
		toks, _ := goTokens(src[start:end])
		keys := make([]string, len(toks))
		for i, t := range toks {
			keys[i] = t.key
		}
		calls := false
		ast.Inspect(e, func(n ast.Node) bool {
			_, isCall := n.(*ast.CallExpr)
			calls = calls || isCall
			return !calls
		})
		units = append(units, valueUnit{path: path, root: root, start: start, end: end, toks: strings.Join(keys, "\x00"), calls: calls})
	}
	blanks := 0
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || (gd.Tok != token.VAR && gd.Tok != token.CONST) {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			names := make([]string, len(vs.Names))
			for i, n := range vs.Names {
				names[i] = n.Name
				if n.Name == "_" {
					// Blank names are told apart by their order.
					blanks++
					names[i] = "_#" + strconv.Itoa(blanks)
				}
			}
			for i, v := range vs.Values {
				root := strings.Join(names, ",") + "#" + strconv.Itoa(i) // var a, b = f()
				if len(names) == len(vs.Values) {
					root = names[i]
				}
				walk(root, root, v)
			}
		}
	}
	seen := map[string]int{}
	for i, u := range units {
		if j, dup := seen[u.path]; dup {
			units[i].ambiguous, units[j].ambiguous = true, true
		}
		seen[u.path] = i
	}
	return units, true
}

// valueChanges is what a patch did to the package-level values of one Go
// file it modifies.
type valueChanges struct {
	// units are the patch side's value units.
	units []valueUnit
	// changed are the units of the patch side on its changed lines whose
	// tokens differ from those of the baseline's unit at the same path,
	// or that the baseline has no unit at: the values the patch wrote.
	changed []valueUnit
	// gone are the baseline's units whose path the patch side has no unit
	// at (a row or a keyed element deleted, a key renamed), with their
	// baseline text; a declaration removed whole is left out unless its
	// value calls a function (it compiles only unused, so only its
	// initializer's effects could matter).
	gone []string
}

// changedValues compares, per Go file the patch modifies (by its
// patch-side path), the value units of both sides (see valueUnit). src
// reads a file of the patch side, baseSrc one of the baseline. A file
// whose diff or either side cannot be read or parsed has no entry: its
// data lines are judged line by line.
func changedValues(diff []byte, src, baseSrc func(path string) ([]byte, bool)) map[string]*valueChanges {
	parsed, err := patch.Parse(diff)
	if err != nil {
		return nil
	}
	out := map[string]*valueChanges{}
	for _, f := range parsed.Files {
		if f.Binary || f.Op == patch.OpAdded || f.Op == patch.OpDeleted || !strings.HasSuffix(f.NewPath, ".go") || !strings.HasSuffix(f.OldPath, ".go") {
			continue
		}
		text, ok := src(f.NewPath)
		if !ok {
			continue
		}
		base, ok := baseSrc(f.OldPath)
		if !ok {
			continue
		}
		after, okA := valueUnits(text)
		before, okB := valueUnits(base)
		if !okA || !okB {
			continue
		}
		starts := lineStarts(text)
		var changedLines [][2]int // byte ranges of the patch side's added lines
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == patch.LineAdded && l.NewLine >= 1 && l.NewLine <= len(starts) {
					end := len(text)
					if l.NewLine < len(starts) {
						end = starts[l.NewLine]
					}
					changedLines = append(changedLines, [2]int{starts[l.NewLine-1], end})
				}
			}
		}
		was := map[string]valueUnit{}
		for _, u := range before {
			was[u.path] = u
		}
		is, roots := map[string]bool{}, map[string]bool{}
		vc := &valueChanges{units: after}
		for _, u := range after {
			is[u.path], roots[u.root] = true, true
			if !overlaps([2]int{u.start, u.end}, changedLines) {
				continue
			}
			if b, ok := was[u.path]; !ok || b.toks != u.toks || b.ambiguous || u.ambiguous {
				vc.changed = append(vc.changed, u)
			}
		}
		for _, u := range before {
			if !is[u.path] && (roots[u.root] || u.calls) {
				vc.gone = append(vc.gone, u.path+" = "+strings.Join(strings.Fields(string(base[u.start:u.end])), " "))
			}
		}
		out[f.NewPath] = vc
	}
	return out
}

// unitAt returns the changed unit of vc holding the byte range span, or
// false.
func (vc *valueChanges) unitAt(span [2]int) (valueUnit, bool) {
	for _, u := range vc.changed {
		if u.start <= span[0] && span[1] <= u.end {
			return u, true
		}
	}
	return valueUnit{}, false
}

// touches reports whether span shares a byte with a changed unit: its
// mutant changes a value the patch changed (its own, or the row holding
// it).
func (vc *valueChanges) touches(span [2]int) bool {
	for _, u := range vc.changed {
		if u.start < span[1] && span[0] < u.end {
			return true
		}
	}
	return false
}

// within reports whether span lies inside one value unit of the patch
// side.
func (vc *valueChanges) within(span [2]int) bool {
	for _, u := range vc.units {
		if u.start <= span[0] && span[1] <= u.end {
			return true
		}
	}
	return false
}
