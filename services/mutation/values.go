package mutation

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// valueUnit is a leaf value of a package-level var or const declaration:
// the whole value, or, inside composite literals, each element that is not
// itself one (a row's limit, a map's entry). Its path names it: the
// declared name, then the key or the position of each element it sits in
// — limits[#2][Timeout], roles["admin"]. Function literals are code,
// judged by coverage and code mutants: they are no unit.
type valueUnit struct {
	path       string
	start, end int // byte range in its file
}

// valueDecl is a package-level value as declared in one file.
type valueDecl struct {
	file    string
	src     []byte
	tf      *token.File
	expr    ast.Expr
	calls   bool              // the value calls a function
	imports map[string]string // the file's imports: name (as written, or the path's last element) → path
	// root is the name it is keyed by, name the one it is declared
	// with (they differ for a blank name).
	root, name string
}

// valueDecls returns the package-level values of a Go file by declared
// name (a multi-value call named by its names and position); ok is false
// when src does not parse. A blank name is named by its declaration's
// tokens (and their count so far in seen): blank declarations have no
// order to pair them by, so one whose tokens changed is a new one, and the
// old one gone.
func valueDecls(file string, src []byte, seen map[string]int) (decls map[string]valueDecl, order []string, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, false
	}
	tf := fset.File(f.Pos())
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	decls = map[string]valueDecl{}
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
					toks, _ := goTokens(src[tf.Offset(vs.Pos()):tf.Offset(vs.End())])
					key := ""
					for _, t := range toks {
						key += t.text() + " "
					}
					key = fmt.Sprintf("_ %d: %s", i, strings.TrimSpace(key))
					seen[key]++
					names[i] = fmt.Sprintf("%s (%d)", key, seen[key])
				}
			}
			for i, v := range vs.Values {
				root := strings.Join(names, ",") + "#" + strconv.Itoa(i) // var a, b = f()
				if len(names) == len(vs.Values) {
					root = names[i]
				}
				calls := false
				ast.Inspect(v, func(n ast.Node) bool {
					switch n.(type) {
					case *ast.CallExpr:
						calls = true
					case *ast.FuncLit:
						return false // runs when called, not when initialized
					}
					return !calls
				})
				name := root
				if len(names) == len(vs.Values) && vs.Names[i].Name == "_" {
					name = "_"
				}
				decls[root] = valueDecl{file: file, src: src, tf: tf, expr: v, calls: calls, imports: imports, root: root, name: name}
				order = append(order, root)
			}
		}
	}
	return decls, order, true
}

// valueChanges is what a patch did to the package-level values of one Go
// file of the patch side.
type valueChanges struct {
	// units are the file's value units.
	units []valueUnit
	// changed are the units the patch wrote: new, or paired with a
	// baseline unit whose tokens differ.
	changed []valueUnit
}

// valueComparison compares the package-level values of a package's two
// sides. base holds the baseline versions of the package's changed Go
// files, patch the patch-side versions of all its Go files, both by path
// (test files left out); changed names the patch-side files the patch
// changed or added. Declarations pair by name across the package's files
// (a table moved to a new file is the same table). Within a composite
// literal, keyed elements pair by key; positional ones by the longest
// common subsequence of their tokens, the rest of each gap in order — so a
// row deleted from the middle of a table is a deletion even though a row
// appended after it keeps the positions filled. It returns, per patch-side
// file, its units and those the patch wrote; and the baseline's units
// the patch side has no pair for (a row or a keyed element deleted, a key
// renamed), described. A declaration removed whole from the package is
// left out unless its value calls a function (it compiles only unused, so
// only its initializer's effects could matter). ok is false when a file
// does not parse: its package's data is then judged line by line.
func valueComparison(base, patch map[string][]byte, changed map[string]bool) (byFile map[string]*valueChanges, gone []string, ok bool) {
	before := map[string]valueDecl{}
	var after []valueDecl // of the changed files, in file and source order
	baseBlanks, patchBlanks := map[string]int{}, map[string]int{}
	for _, p := range slices.Sorted(maps.Keys(base)) {
		d, _, ok := valueDecls(p, base[p], baseBlanks)
		if !ok {
			return nil, nil, false
		}
		for r, v := range d {
			before[r] = v
		}
	}
	byFile = map[string]*valueChanges{}
	for _, p := range slices.Sorted(maps.Keys(patch)) {
		if !changed[p] {
			continue // its declarations are as they were
		}
		d, o, ok := valueDecls(p, patch[p], patchBlanks)
		if !ok {
			return nil, nil, false
		}
		byFile[p] = &valueChanges{}
		for _, r := range o {
			after = append(after, d[r])
		}
	}
	// Names the changed files still declare with no value: a value taken
	// away from them (var bonus = time.Minute → var bonus time.Duration)
	// is gone, calls or not.
	bare := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(patch)) {
		if changed[p] {
			for _, n := range bareVars(patch[p]) {
				bare[n] = true
			}
		}
	}
	c := &comparer{byFile: byFile}
	seen := map[string]bool{}
	for _, a := range after {
		seen[a.root] = true
		b := before[a.root]
		c.pair(b, b.expr, a, a.expr, a.root)
	}
	for _, r := range slices.Sorted(maps.Keys(before)) {
		if !seen[r] && (before[r].calls || bare[r]) {
			c.gone(before[r], before[r].expr, r)
		}
	}
	// Functions that run without a call naming them: an init, and a
	// method (through an interface: String, Error, ServeHTTP). One the
	// patch deletes takes behaviour away that no mutant can put back.
	// A plain function deleted compiles only unused.
	baseFns, patchFns := map[string]int{}, map[string]int{}
	for _, p := range slices.Sorted(maps.Keys(base)) {
		for _, k := range implicitFuncs(base[p]) {
			baseFns[k]++
		}
	}
	for _, p := range slices.Sorted(maps.Keys(patch)) {
		for _, k := range implicitFuncs(patch[p]) {
			patchFns[k]++
		}
	}
	for _, k := range slices.Sorted(maps.Keys(baseFns)) {
		if baseFns[k] > patchFns[k] {
			c.goneList = append(c.goneList, k)
		}
	}
	for _, vc := range byFile {
		slices.SortFunc(vc.units, func(a, b valueUnit) int { return a.start - b.start })
		slices.SortFunc(vc.changed, func(a, b valueUnit) int { return a.start - b.start })
	}
	return byFile, c.goneList, true
}

// comparer pairs the values of two sides.
type comparer struct {
	byFile   map[string]*valueChanges
	goneList []string
	force    int // above 0, every patch unit paired is changed (see pair)
}

// pair compares baseline expression b (nil when the patch's value is new)
// of declaration bd with patch expression p of declaration pd, at path.
func (c *comparer) pair(bd valueDecl, b ast.Expr, pd valueDecl, p ast.Expr, path string) {
	vc := c.byFile[pd.file]
	if vc == nil {
		return // a declaration of a file the patch left as it was
	}
	bl, bok := literal(b)
	pl, pok := literal(p)
	switch {
	case b != nil && bok && pok:
		// Another type (&T{…} for T{…} included) gives every element
		// another meaning: {"a.com", 60, 100, 3} in a type whose last
		// two fields are swapped. Its elements still pair, for what is
		// gone, and all are judged.
		retyped := literalTypeOf(bd, b) != literalTypeOf(pd, p) || usesChangedImport(bd, pd, pl.Type)
		if retyped {
			c.force++
		}
		c.pairLiterals(bd, bl, pd, pl, path)
		if retyped {
			c.force--
		}
	case pok || b != nil && bok:
		// A literal on one side only: the other's units are new or gone.
		if b != nil {
			c.gone(bd, b, path)
		}
		c.units(pd, p, path, true)
	default:
		if _, fn := ast.Unparen(p).(*ast.FuncLit); fn {
			return
		}
		u := valueUnit{path: path, start: pd.tf.Offset(p.Pos()), end: pd.tf.Offset(p.End())}
		vc.units = append(vc.units, u)
		if b == nil || c.force > 0 || tokensOf(bd, b) != tokensOf(pd, p) || usesChangedImport(bd, pd, p) {
			vc.changed = append(vc.changed, u)
		}
	}
}

// pairLiterals pairs the elements of two composite literals.
func (c *comparer) pairLiterals(bd valueDecl, b *ast.CompositeLit, pd valueDecl, p *ast.CompositeLit, path string) {
	keyed := func(d valueDecl, l *ast.CompositeLit) (keys map[string]ast.Expr, korder []string, pos []ast.Expr, dup bool) {
		keys = map[string]ast.Expr{}
		for _, e := range l.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				pos = append(pos, e)
				continue
			}
			k := textOf(d, kv.Key)
			if _, twice := keys[k]; twice {
				dup = true
			}
			keys[k] = kv.Value
			korder = append(korder, k)
		}
		return keys, korder, pos, dup
	}
	bk, bkOrder, bp, bdup := keyed(bd, b)
	pk, pkOrder, pp, pdup := keyed(pd, p)
	mixed := func(keys map[string]ast.Expr, pos []ast.Expr) bool { return len(keys) > 0 && len(pos) > 0 }
	if bdup || pdup || (mixed(bk, bp) || mixed(pk, pp)) && tokensOf(bd, b) != tokensOf(pd, p) {
		// Two elements with one key, or index keys among positional
		// elements (each of which then follows the one before it, so
		// a key moves them all): pair nothing, judge everything.
		c.gone(bd, b, path)
		c.units(pd, p, path, true)
		return
	}
	for _, k := range pkOrder {
		c.pair(bd, bk[k], pd, pk[k], path+"["+k+"]")
	}
	for _, k := range bkOrder {
		if _, ok := pk[k]; !ok {
			c.gone(bd, bk[k], path+"["+k+"]")
		}
	}
	// Positional elements: the longest common subsequence of their
	// tokens, then each gap paired in order.
	bt, pt := make([]string, len(bp)), make([]string, len(pp))
	for i, e := range bp {
		bt[i] = tokensOf(bd, e)
	}
	for i, e := range pp {
		pt[i] = tokensOf(pd, e)
	}
	pairs := pairElements(bt, pt)
	at := func(i int) string { return path + "[#" + strconv.Itoa(i) + "]" }
	bi, pi := 0, 0
	for k := 0; k <= len(pairs); k++ {
		nb, np := len(bp), len(pp)
		if k < len(pairs) {
			nb, np = pairs[k][0], pairs[k][1]
		}
		// The gap bp[bi:nb], pp[pi:np]: rewritten in order, the rest
		// new or gone.
		for bi < nb || pi < np {
			switch {
			case bi < nb && pi < np:
				c.pair(bd, bp[bi], pd, pp[pi], at(pi))
				bi, pi = bi+1, pi+1
			case pi < np:
				c.pair(bd, nil, pd, pp[pi], at(pi))
				pi++
			default:
				c.gone(bd, bp[bi], at(bi))
				bi++
			}
		}
		if k < len(pairs) {
			// Equal tokens: the same value, its units unchanged.
			c.units(pd, pp[np], at(np), false)
			bi, pi = nb+1, np+1
		}
	}
}

// units records the units of patch value p, all changed when changed.
func (c *comparer) units(pd valueDecl, p ast.Expr, path string, changed bool) {
	vc := c.byFile[pd.file]
	if vc == nil {
		return
	}
	leaves(pd, p, path, func(e ast.Expr, path string) {
		u := valueUnit{path: path, start: pd.tf.Offset(e.Pos()), end: pd.tf.Offset(e.End())}
		vc.units = append(vc.units, u)
		if changed || c.force > 0 {
			vc.changed = append(vc.changed, u)
		}
	})
}

// gone describes baseline value b, at path, as deleted.
func (c *comparer) gone(bd valueDecl, b ast.Expr, path string) {
	if rest, ok := strings.CutPrefix(path, bd.root); ok {
		path = bd.name + rest
	}
	text := strings.Join(strings.Fields(string(bd.src[bd.tf.Offset(b.Pos()):bd.tf.Offset(b.End())])), " ")
	if r := []rune(text); len(r) > 60 {
		text = string(r[:59]) + "…"
	}
	c.goneList = append(c.goneList, path+" = "+text)
}

// leaves calls f on each unit of e, a value of d, with its path.
func leaves(d valueDecl, e ast.Expr, path string, f func(ast.Expr, string)) {
	if l, ok := literal(e); ok {
		pos := 0
		for _, el := range l.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				leaves(d, kv.Value, path+"["+textOf(d, kv.Key)+"]", f)
				continue
			}
			leaves(d, el, path+"[#"+strconv.Itoa(pos)+"]", f)
			pos++
		}
		return
	}
	if _, fn := ast.Unparen(e).(*ast.FuncLit); fn {
		return
	}
	f(e, path)
}

// literalTypeOf is the tokens of the type of composite literal e, with
// an & before them when e takes its address; "" when it has no type
// written (an element of a table) or e is no literal.
func literalTypeOf(d valueDecl, e ast.Expr) string {
	l, ok := literal(e)
	if !ok {
		return ""
	}
	typ := ""
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		typ = "&"
	}
	if l.Type != nil {
		typ += tokensOf(d, l.Type)
	}
	return typ
}

// usesChangedImport reports whether e (nil: no) names a package whose
// import is another on the other side (an import re-pointed under the
// same name changes 5 * unit.Minute without a token of it changing).
func usesChangedImport(bd, pd valueDecl, e ast.Expr) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && bd.imports[id.Name] != pd.imports[id.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// literal returns the composite literal e is, through & and parentheses.
func literal(e ast.Expr) (*ast.CompositeLit, bool) {
	if e == nil {
		return nil, false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	l, ok := e.(*ast.CompositeLit)
	return l, ok
}

// tokensOf is e's tokens, comments and spacing aside, as one string.
func tokensOf(d valueDecl, e ast.Expr) string {
	toks, _ := goTokens(d.src[d.tf.Offset(e.Pos()):d.tf.Offset(e.End())])
	keys := make([]string, len(toks))
	for i, t := range toks {
		keys[i] = t.key
	}
	return strings.Join(keys, "\x00")
}

// textOf is e's tokens as written, space-separated.
func textOf(d valueDecl, e ast.Expr) string {
	toks, _ := goTokens(d.src[d.tf.Offset(e.Pos()):d.tf.Offset(e.End())])
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.text()
	}
	return strings.Join(words, " ")
}

// pairElements returns the index pairs of a longest common subsequence of
// the elements' tokens bt and pt: the common prefix and suffix, and the
// subsequence of the rest when it is small enough to compare (see
// maxCompare), else none of it — its elements are then paired in order,
// which judges more, never less.
func pairElements(bt, pt []string) [][2]int {
	pre := 0
	for pre < len(bt) && pre < len(pt) && bt[pre] == pt[pre] {
		pre++
	}
	suf := 0
	for suf < len(bt)-pre && suf < len(pt)-pre && bt[len(bt)-1-suf] == pt[len(pt)-1-suf] {
		suf++
	}
	var pairs [][2]int
	for i := range pre {
		pairs = append(pairs, [2]int{i, i})
	}
	mb, mp := bt[pre:len(bt)-suf], pt[pre:len(pt)-suf]
	if len(mb)*len(mp) <= maxCompare {
		for _, p := range lcsIndex(len(mb), len(mp), func(i, j int) bool { return mb[i] == mp[j] }) {
			pairs = append(pairs, [2]int{pre + p[0], pre + p[1]})
		}
	}
	for i := range suf {
		pairs = append(pairs, [2]int{len(bt) - suf + i, len(pt) - suf + i})
	}
	return pairs
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

// bareVars returns the package-level variables the Go source src declares
// with no value; none when it does not parse.
func bareVars(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				if vs := spec.(*ast.ValueSpec); len(vs.Values) == 0 {
					for _, n := range vs.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

// implicitFuncs returns the functions of the Go source src that run
// without a call naming them: each init, as "func init()" (a package may
// have several), and each method, as "func (T) Name"; none when it does
// not parse.
func implicitFuncs(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		switch {
		case fd.Recv == nil && fd.Name.Name == "init":
			out = append(out, "func init()") // one per init: an init edited is judged by its lines
		case fd.Recv != nil && len(fd.Recv.List) == 1:
			t := fd.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if ix, ok := t.(*ast.IndexExpr); ok {
				t = ix.X
			}
			if ix, ok := t.(*ast.IndexListExpr); ok {
				t = ix.X
			}
			if id, ok := t.(*ast.Ident); ok {
				out = append(out, "func ("+id.Name+") "+fd.Name.Name)
			}
		}
	}
	return out
}
