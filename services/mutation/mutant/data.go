package mutant

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Changed data has no statement for coverage to see: a package-level
// variable's or constant's initializer, a file the package embeds. The
// mutator classes every requested line (see Inspect) and gives data lines
// data mutants, run like any mutant behind the switch:
//
//	data_drop_element  an element of a composite literal removed (slices,
//	                   maps, arrays of explicit length, keyed struct fields);
//	                   in an embedded file, an element of the list
//	                   (comma-, semicolon-, bar- or, for words only,
//	                   space-separated) after a line's first = or :
//	data_string        "abc" → "sealgate", "sealgate" → "Sealgate" (another
//	                   non-empty string), and "abc" → "acc" (the letter or
//	                   digit nearest the middle changed: the same length
//	                   and shape); only a test that pins the value kills
//	                   both
//	data_number        a number literal ±1 (an integer also → 0, −n, 2n,
//	                   as extras); a member of an enumeration (a
//	                   constant of an integer type the package defines) →
//	                   the member beside it; any other named constant,
//	                   time.Hour or maxRetries, → its double (0 → 1), a
//	                   string constant → itself + "!"
//	data_bool          true ↔ false (the predeclared constants)
//	data_drop_line     a line of an embedded file removed
//
// plus the code operators that apply in initializers (arithmetic,
// comparisons, logical operators). The value of a package-level variable
// with data mutants becomes a function literal that returns the running
// mutant's variant (a copy of the value with one change), or the value; it
// still runs when the package initializes, in the same order. An unexported
// constant becomes such a variable when every use of it (in the package and
// its internal test files) compiles with a variable: not in a constant
// expression, an array length or another constant, and always at its own
// type. A string or []byte variable embedding a file with //go:embed
// becomes a variable initialized with the file's content (the directive
// turned into a plain comment), with the changes of its data mutants.
// Whatever cannot be switched this way is reported unjudgeable, with the
// reason; it is never "not data".

// LineKind says what a requested line is to the mutator.
type LineKind string

// Line kinds.
const (
	// LineNotData is not data: code (judged by coverage and code
	// mutants), a blank or comment line, a declaration without a value.
	LineNotData LineKind = "not_data"
	// LineData is changed data with at least one mutant on the line.
	LineData LineKind = "data"
	// LineUnjudgeable is changed data no mutant can judge; Reason says
	// why. It makes strength unverified.
	LineUnjudgeable LineKind = "unjudgeable"
	// LineTable is a changed element of a composite literal written in a
	// function ("mallory": true in a map a function returns), with at
	// least one code mutant on it: code to coverage and to the mutants,
	// and data to the witness rule — like a package-level table's line it
	// needs a killed mutant of its own, so one surviving row among the
	// fix's killed mutants is never accepted by the Wilson bound.
	LineTable LineKind = "table"
)

// LineClass is a requested line and its kind.
type LineClass struct {
	File   string
	Line   int
	Kind   LineKind
	Reason string
}

// Skip is a site the schemata cannot write in this package, and why.
type Skip struct {
	Site   Site
	Reason string
}

// Survey is what the mutator makes of the requested lines of a package.
type Survey struct {
	// Sites are the mutation sites of the requested lines, sorted as Find
	// sorts them: code sites, and the data sites of data lines.
	Sites []Site
	// Lines classes every requested line, sorted by file and line.
	Lines []LineClass
	// Skipped are the sites the schemata cannot write here (a type that
	// cannot be named in the file, an operand that cannot be captured),
	// sorted.
	Skipped []Skip
	// Judges lists, per line of data sites ("file:line", the file as the
	// sites name it), the data lines of .go files their mutants judge as
	// well: a mutant of an embedded file's content judges the lines of
	// the //go:embed variable that embeds it. Sorted, without repeats.
	Judges map[string][]LineClass
}

// Inspect finds the mutation sites of the requested lines of pkg (file →
// 1-based line numbers) and classes each line. Keys are the base names of
// the package's .go files, or paths relative to pkg.Dir (slash-separated)
// of other files, which are data when the package embeds them. Code sites
// are found on every requested line, so a caller keeps those of lines that
// tests execute; data sites are found on data lines, which coverage cannot
// see. A .go key not in pkg.Files or a test file is an error, as in Find.
func Inspect(pkg Package, lines map[string][]int) (Survey, error) {
	a, err := analyze(pkg)
	if err != nil {
		return Survey{}, err
	}
	r, err := a.survey(lines)
	if err != nil {
		return Survey{}, err
	}
	var s Survey
	for _, c := range r.cands {
		s.Sites = append(s.Sites, c.site)
	}
	slices.SortFunc(s.Sites, compareSites)
	s.Lines = r.lines
	s.Skipped = r.skipped
	for _, c := range r.cands {
		if len(c.sources) == 0 {
			continue
		}
		if s.Judges == nil {
			s.Judges = make(map[string][]LineClass)
		}
		at := fmt.Sprintf("%s:%d", c.site.File, c.site.Line)
		for _, src := range c.sources {
			s.Judges[at] = append(s.Judges[at], LineClass{File: src.File, Line: src.Line, Kind: LineData})
		}
	}
	for at, ls := range s.Judges {
		slices.SortFunc(ls, func(a, b LineClass) int { return cmp.Or(strings.Compare(a.File, b.File), a.Line-b.Line) })
		s.Judges[at] = slices.CompactFunc(ls, func(a, b LineClass) bool { return a.File == b.File && a.Line == b.Line })
	}
	slices.SortFunc(s.Skipped, func(a, b Skip) int { return cmp.Or(compareSites(a.Site, b.Site), strings.Compare(a.Reason, b.Reason)) })
	return s, nil
}

type surveyResult struct {
	cands   []*candidate
	lines   []LineClass
	skipped []Skip
}

// survey finds the candidates of the requested lines and classes them.
func (a *analysis) survey(lines map[string][]int) (*surveyResult, error) {
	goLines := make(map[string][]int)
	other := make(map[string][]int)
	for name, ls := range lines {
		if strings.HasSuffix(name, ".go") && !strings.Contains(name, "/") {
			goLines[name] = ls
		} else {
			if name == "" || path.IsAbs(name) || path.Clean(name) != name || strings.HasPrefix(name, "../") || name == ".." || strings.Contains(name, `\`) {
				return nil, fmt.Errorf("mutant: %q is not a clean path relative to the package directory", name)
			}
			other[name] = ls
		}
	}
	cands, skipped, err := a.candidates(goLines)
	if err != nil {
		return nil, err
	}
	d := &dataFinder{a: a, class: make(map[string]map[int]*LineClass), requested: lines}
	for name, ls := range lines {
		d.class[name] = make(map[int]*LineClass)
		for _, l := range ls {
			d.class[name][l] = &LineClass{File: name, Line: l, Kind: LineNotData}
		}
	}
	// Every file: a variable of any file may embed a requested file.
	for _, name := range a.names {
		d.file(name, a.files[name])
	}
	d.embedded(other)
	// A data line is judged by the data sites on it, and by the code sites
	// of the package-level value it belongs to.
	for _, c := range cands {
		if cl := d.class[c.site.File][c.site.Line]; cl != nil && cl.Kind != LineNotData && d.inValue(c) {
			cl.Kind, cl.Reason = LineData, ""
		}
	}
	for _, c := range d.out {
		if cl := d.class[c.site.File][c.site.Line]; cl != nil {
			cl.Kind, cl.Reason = LineData, ""
		}
		for _, src := range c.sources {
			if cl := d.class[src.File][src.Line]; cl != nil {
				cl.Kind, cl.Reason = LineData, ""
			}
		}
	}
	a.tableLines(cands, d.class)
	r := &surveyResult{cands: append(cands, d.out...), skipped: append(skipped, d.skipped...)}
	for _, name := range slices.Sorted(mapKeysOf(d.class)) {
		for _, l := range slices.Sorted(mapKeysOf(d.class[name])) {
			cl := *d.class[name][l]
			if cl.Kind == lineDataPending {
				cl.Kind = LineUnjudgeable
				if cl.Reason == "" {
					cl.Reason = "a package-level initializer whose change no data mutant expresses (a name or a call)"
				}
			}
			r.lines = append(r.lines, cl)
		}
	}
	return r, nil
}

// lineDataPending marks a data line until its sites are known.
const lineDataPending LineKind = "pending"

func mapKeysOf[K cmp.Ordered, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// dataFinder collects the data candidates of a package.
type dataFinder struct {
	a         *analysis
	requested map[string][]int
	class     map[string]map[int]*LineClass
	values    [][2]int // start, end of the values with data lines
	valueFile []string
	embeds    []embedUse
	out       []*candidate
	// embedSites are the embedded files' sites, which both a changed
	// embedding declaration and the file's changed lines can ask for.
	embedSites map[siteKey]*candidate
	skipped    []Skip

	testInfo  *types.Info // the package with its internal test files, once checked
	testFiles []*ast.File
	testErr   error
	testDone  bool
}

// pending marks line l of file as data, with why it would be unjudgeable
// if it gets no site.
func (d *dataFinder) pending(file string, l int, reason string) {
	cl := d.class[file][l]
	if cl == nil {
		return
	}
	if cl.Kind == LineNotData {
		cl.Kind = lineDataPending
	}
	if cl.Kind == lineDataPending && (cl.Reason == "" || reason != "" && strings.HasPrefix(cl.Reason, "a package-level initializer")) {
		cl.Reason = reason
	}
}

// inValue reports whether code candidate c lies in a package-level value
// that has data lines.
func (d *dataFinder) inValue(c *candidate) bool {
	for i, v := range d.values {
		if d.valueFile[i] == c.file && v[0] <= c.start && c.end <= v[1] {
			return true
		}
	}
	return false
}

func (d *dataFinder) line(pos token.Pos) int { return d.a.fset.PositionFor(pos, false).Line }

func (d *dataFinder) wanted(file string, pos token.Pos) bool {
	cl := d.class[file][d.line(pos)]
	return cl != nil
}

// file finds the data of one .go file's package-level declarations.
func (d *dataFinder) file(name string, f *ast.File) {
	tf := d.a.fset.File(f.Pos())
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR && gd.Tok != token.CONST {
			continue
		}
		for i, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if gd.Tok == token.VAR && len(vs.Values) == 0 {
				d.embedDecl(name, tf, gd, vs)
				continue
			}
			if gd.Tok == token.VAR && blankOnly(vs) && !d.anyEffects(vs.Values) {
				continue // var _ T = x: checked by the compiler, never run
			}
			leafLines := d.leafLines(vs)
			var wanted []int
			for _, l := range leafLines {
				if d.class[name][l] != nil {
					wanted = append(wanted, l)
				}
			}
			if len(wanted) == 0 {
				continue
			}
			var next *ast.ValueSpec
			if i+1 < len(gd.Specs) {
				next = gd.Specs[i+1].(*ast.ValueSpec)
			}
			d.spec(name, tf, gd, vs, next, wanted)
		}
	}
}

func blankOnly(vs *ast.ValueSpec) bool {
	for _, n := range vs.Names {
		if n.Name != "_" {
			return false
		}
	}
	return true
}

func (d *dataFinder) anyEffects(es []ast.Expr) bool {
	w := &walker{a: d.a}
	for _, e := range es {
		if w.effects(e) {
			return true
		}
	}
	return false
}

// leafLines returns the lines of a spec's value leaves: literals, names
// and selectors in value positions, outside function literals and types.
func (d *dataFinder) leafLines(vs *ast.ValueSpec) []int {
	var out []int
	for _, v := range vs.Values {
		d.leaves(v, func(n ast.Node, _ []ast.Node) { out = append(out, d.line(n.Pos())) })
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// leaves calls f for every leaf of value v (a literal, a name, a
// selector), with its ancestors within v, skipping types, called
// functions and function literals.
func (d *dataFinder) leaves(v ast.Expr, f func(n ast.Node, stack []ast.Node)) {
	var stack []ast.Node
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		if n == nil {
			return
		}
		push := func(children ...ast.Node) {
			stack = append(stack, n)
			for _, c := range children {
				visit(c)
			}
			stack = stack[:len(stack)-1]
		}
		switch n := n.(type) {
		case *ast.BasicLit, *ast.Ident, *ast.SelectorExpr:
			f(n, stack)
		case *ast.CompositeLit:
			var kids []ast.Node
			for _, e := range n.Elts {
				kids = append(kids, e)
			}
			push(kids...)
		case *ast.KeyValueExpr:
			push(n.Key, n.Value)
		case *ast.CallExpr:
			var kids []ast.Node
			for _, e := range n.Args {
				kids = append(kids, e)
			}
			push(kids...)
		case *ast.ParenExpr:
			push(n.X)
		case *ast.UnaryExpr:
			push(n.X)
		case *ast.StarExpr:
			push(n.X)
		case *ast.BinaryExpr:
			push(n.X, n.Y)
		case *ast.IndexExpr:
			if d.a.typed() && d.a.info.Types[n.Index].IsType() {
				push(n.X)
			} else {
				push(n.X, n.Index)
			}
		case *ast.SliceExpr:
			push(n.X, n.Low, n.High, n.Max)
		case *ast.TypeAssertExpr:
			push(n.X)
		}
	}
	visit(v)
}

// spec finds the data mutants of a package-level spec with values, whose
// leaves are on the wanted lines.
func (d *dataFinder) spec(name string, tf *token.File, gd *ast.GenDecl, vs, next *ast.ValueSpec, wanted []int) {
	for _, l := range wanted {
		d.pending(name, l, "")
	}
	isConst := gd.Tok == token.CONST
	var usedAs []types.Type
	if isConst {
		reason, as := d.convertible(gd, vs, next)
		if reason != "" {
			for _, l := range wanted {
				d.pending(name, l, "constant "+vs.Names[0].Name+" cannot be switched at run time: "+reason)
			}
			return
		}
		usedAs = as
	}
	if len(vs.Values) != len(vs.Names) {
		for _, l := range wanted {
			d.pending(name, l, "a value of several results (call) has no data mutant")
		}
		return
	}
	for i, v := range vs.Values {
		var as types.Type
		if i < len(usedAs) {
			as = usedAs[i]
		}
		typ, reason := d.closureType(vs, i, isConst, as)
		if reason != "" {
			d.leaves(v, func(n ast.Node, _ []ast.Node) { d.pending(name, d.line(n.Pos()), reason) })
			continue
		}
		d.values = append(d.values, [2]int{tf.Offset(v.Pos()), tf.Offset(v.End())})
		d.valueFile = append(d.valueFile, name)
		vw := &valueWalk{d: d, name: name, tf: tf, value: v, typ: typ, as: as}
		if isConst {
			vw.convert, vw.spec = gd, vs
			vw.declStart, vw.declEnd = tf.Offset(gd.Pos()), tf.Offset(gd.End())
		}
		vw.walk()
	}
}

// closureType is the type the function literal of value i of vs returns:
// the declared type, the type every use of an untyped constant has (as,
// see usesAllowVar), the type a composite literal spells, or a type
// named with go/types; a reason when none can be written.
func (d *dataFinder) closureType(vs *ast.ValueSpec, i int, isConst bool, as types.Type) (string, string) {
	src := d.src(vs)
	if vs.Type != nil {
		return src(vs.Type), ""
	}
	if as != nil {
		if s, ok := d.a.siteType(as, vs.Pos()); ok {
			return s, ""
		}
		return "", "its uses' type " + as.String() + " cannot be named in the file"
	}
	v := ast.Unparen(vs.Values[i])
	amp := ""
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v, amp = ast.Unparen(u.X), "*"
	}
	if cl, ok := v.(*ast.CompositeLit); ok && cl.Type != nil {
		if at, ok := cl.Type.(*ast.ArrayType); !ok || at.Len == nil || !isEllipsis(at.Len) {
			return amp + src(cl.Type), ""
		}
	}
	if !d.a.typed() {
		return "", "without type information the value's type cannot be named"
	}
	var t types.Type
	if isConst {
		t = types.Default(d.a.info.Defs[vs.Names[i]].Type())
	} else {
		t = types.Default(d.a.info.TypeOf(vs.Values[i]))
	}
	if s, ok := d.a.siteType(t, vs.Pos()); ok {
		return s, ""
	}
	return "", "its type " + t.String() + " cannot be named in the file"
}

func isEllipsis(e ast.Expr) bool { _, ok := e.(*ast.Ellipsis); return ok }

// src returns a function giving the source text of a node of the file of n.
func (d *dataFinder) src(n ast.Node) func(ast.Node) string {
	tf := d.a.fset.File(n.Pos())
	name := filepath.Base(tf.Name())
	b := d.a.src[name]
	return func(m ast.Node) string { return string(b[tf.Offset(m.Pos()):tf.Offset(m.End())]) }
}

// convertible says why the constant spec vs cannot become a variable, or
// "" and, per name, the type its variable must have where that is not the
// constant's default type (nil: the default; see usesAllowVar).
func (d *dataFinder) convertible(gd *ast.GenDecl, vs, next *ast.ValueSpec) (string, []types.Type) {
	switch {
	case !d.a.typed():
		return "without type information its uses cannot be checked", nil
	case len(vs.Values) == 0:
		return "it repeats the previous expression list (iota)", nil
	case next != nil && len(next.Values) == 0:
		return "the next constant repeats its expression list", nil
	case d.a.tests == nil:
		return "the package's test files were not given, and they may use it as a constant", nil
	}
	usesIota := false
	for _, v := range vs.Values {
		ast.Inspect(v, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "iota" && d.a.info.Uses[id] == types.Universe.Lookup("iota") {
				usesIota = true
			}
			return !usesIota
		})
	}
	if usesIota {
		return "it uses iota", nil
	}
	for _, n := range vs.Names {
		if n.IsExported() {
			return "it is exported, and other packages may use it where only a constant compiles", nil
		}
	}
	info, err := d.withTests()
	if err != nil {
		return "the package and its internal test files do not type-check here: " + err.Error(), nil
	}
	as := make([]types.Type, len(vs.Names))
	for i, n := range vs.Names {
		if n.Name == "_" {
			continue
		}
		reason, t := d.usesAllowVar(info, n)
		if reason != "" {
			return reason, nil
		}
		as[i] = t
	}
	return "", as
}

// withTests type-checks the package with its internal test files.
func (d *dataFinder) withTests() (*types.Info, error) {
	if d.testDone {
		return d.testInfo, d.testErr
	}
	d.testDone = true
	files := make([]*ast.File, 0, len(d.a.names)+len(d.a.tests))
	for _, name := range d.a.names {
		files = append(files, d.a.files[name])
	}
	for _, name := range slices.Sorted(mapKeysOf(d.a.tests)) {
		f, err := parser.ParseFile(d.a.fset, d.a.path(name), d.a.tests[name], parser.SkipObjectResolution)
		if err != nil {
			d.testErr = err
			return nil, err
		}
		if f.Name.Name == d.a.pkgName {
			files = append(files, f)
			d.testFiles = append(d.testFiles, f)
		}
	}
	info := &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue),
		Defs:  make(map[*ast.Ident]types.Object),
		Uses:  make(map[*ast.Ident]types.Object),
	}
	if _, err := d.a.newConfig().Check(d.a.pkgName, d.a.fset, files, info); err != nil {
		d.testErr = err
		return nil, err
	}
	d.testInfo = info
	return info, nil
}

// usesAllowVar says why a use of constant name (in info) would not compile,
// or would change, with a variable of the constant's type; "" when none.
// A use must have that type; when it is part of a larger constant
// expression, the constant must be a string or a boolean (numeric constant
// arithmetic is exact, a variable's is not); and that expression must not
// be where only a constant compiles: a constant declaration, an array
// length, the key of an array or slice literal.
//
// An untyped constant all of whose uses have one other type of the same
// kind (const nanoPerMilli = 1000000, used only as int64) becomes a
// variable of that type: as is that type, nil when the constant's own
// default type serves.
func (d *dataFinder) usesAllowVar(info *types.Info, name *ast.Ident) (reason string, as types.Type) {
	var obj types.Object
	for id, o := range info.Defs {
		if id.Pos() == name.Pos() {
			obj = o
		}
	}
	if obj == nil {
		return "its declaration is not found", nil
	}
	var uses []*ast.Ident
	for id, o := range info.Uses {
		if o == obj {
			uses = append(uses, id)
		}
	}
	slices.SortFunc(uses, func(a, b *ast.Ident) int { return cmp.Compare(a.Pos(), b.Pos()) })
	check := func(vt types.Type) (string, types.Type) {
		exact := true
		if b, ok := vt.Underlying().(*types.Basic); ok && b.Info()&(types.IsString|types.IsBoolean) != 0 {
			exact = false
		}
		for _, id := range uses {
			where := d.a.fset.PositionFor(id.Pos(), false)
			at := fmt.Sprintf("%s:%d", filepath.Base(where.Filename), where.Line)
			if ctx, other := d.constContext(info, id, vt, exact); ctx != "" {
				return fmt.Sprintf("it is used %s at %s", ctx, at), other
			}
		}
		return "", nil
	}
	vt := types.Default(obj.Type())
	reason, other := check(vt)
	if reason == "" || other == nil || !sameKind(obj.Type(), other) {
		return reason, nil
	}
	if again, _ := check(other); again != "" {
		return reason, nil
	}
	return "", other
}

// sameKind reports whether the untyped constant type u and the typed basic
// type t are of one kind: integer, float, complex, string or boolean (an
// untyped rune is an integer).
func sameKind(u, t types.Type) bool {
	ub, ok := u.(*types.Basic)
	if !ok || ub.Info()&types.IsUntyped == 0 {
		return false
	}
	tb, ok := t.Underlying().(*types.Basic)
	if !ok || tb.Info()&types.IsUntyped != 0 {
		return false
	}
	const kinds = types.IsInteger | types.IsFloat | types.IsComplex | types.IsString | types.IsBoolean
	return ub.Info()&kinds == tb.Info()&kinds
}

// constContext says why the use id of a constant of type vt needs a
// constant there, or would change type with a variable, or "": see
// usesAllowVar. other is the type the use has where that is why.
func (d *dataFinder) constContext(info *types.Info, id *ast.Ident, vt types.Type, exact bool) (why string, other types.Type) {
	var stack []ast.Node
	for _, f := range d.fileOf(id.Pos()) {
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || stack != nil && stack[len(stack)-1] == ast.Node(id) {
				return false
			}
			if n.Pos() <= id.Pos() && id.Pos() < n.End() {
				stack = append(stack, n)
				return n != ast.Node(id)
			}
			return false
		})
	}
	if len(stack) == 0 || stack[len(stack)-1] != ast.Node(id) {
		return "where the mutator cannot find it", nil
	}
	// The largest constant expression holding the use.
	m := ast.Node(id)
	i := len(stack) - 2
	for ; i >= 0; i-- {
		pe, ok := stack[i].(ast.Expr)
		if !ok {
			break
		}
		if _, paren := pe.(*ast.ParenExpr); !paren {
			if tv, ok := info.Types[pe]; !ok || tv.Value == nil {
				break
			}
		}
		m = pe
	}
	if m != ast.Node(id) && exact {
		return "in a constant expression, whose arithmetic is exact", nil
	}
	// The expression keeps its type with a variable: the constant's own
	// type, or a comparison's boolean.
	if be, ok := ast.Unparen(m.(ast.Expr)).(*ast.BinaryExpr); !ok || m == ast.Node(id) || !isComparison(be.Op) {
		if tm := info.Types[m.(ast.Expr)].Type; tm == nil || !types.Identical(types.Default(tm), vt) {
			return fmt.Sprintf("as %s", tm), tm
		}
	}
	for j := i; j >= 0; j-- {
		if gd, ok := stack[j].(*ast.GenDecl); ok && gd.Tok == token.CONST {
			return "in a constant declaration", nil
		}
	}
	if i < 0 {
		return "", nil
	}
	switch p := stack[i].(type) {
	case *ast.ArrayType:
		if p.Len == m {
			return "as an array length", nil
		}
	case *ast.KeyValueExpr:
		if p.Key == m && i > 0 {
			if cl, ok := stack[i-1].(*ast.CompositeLit); ok {
				switch info.Types[cl].Type.Underlying().(type) {
				case *types.Array, *types.Slice:
					return "as an index key of a composite literal", nil
				}
			}
		}
	}
	return "", nil
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// fileOf returns the parsed file (package or internal test) holding pos.
func (d *dataFinder) fileOf(pos token.Pos) []*ast.File {
	for _, name := range d.a.names {
		if f := d.a.files[name]; f.FileStart <= pos && pos <= f.FileEnd {
			return []*ast.File{f}
		}
	}
	for _, f := range d.testFiles {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return []*ast.File{f}
		}
	}
	return nil
}

// valueWalk finds the data mutants of one value.
type valueWalk struct {
	d     *dataFinder
	name  string
	tf    *token.File
	value ast.Expr
	typ   string
	// as is the type of the variable a constant becomes where it is not
	// the constant's default type (see usesAllowVar): every change must
	// fit it.
	as types.Type

	convert            *ast.GenDecl
	spec               *ast.ValueSpec
	declStart, declEnd int
}

func (vw *valueWalk) off(p token.Pos) int { return vw.tf.Offset(p) }

func (vw *valueWalk) walk() {
	vw.d.leaves(vw.value, func(n ast.Node, stack []ast.Node) {
		if !vw.d.wanted(vw.name, n.Pos()) {
			return
		}
		switch n := n.(type) {
		case *ast.BasicLit:
			vw.literal(n, stack)
		case *ast.Ident:
			vw.boolean(n, stack)
			if !vw.namedInt(n, n, stack) {
				vw.otherConst(n, n, stack)
			}
		case *ast.SelectorExpr:
			if !vw.namedInt(n, n.Sel, stack) {
				vw.otherConst(n, n.Sel, stack)
			}
		}
	})
	// Element removal, for the composite literals of the value.
	var stack []ast.Node
	ast.Inspect(vw.value, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if cl, ok := n.(*ast.CompositeLit); ok {
			vw.elements(cl)
		}
		stack = append(stack, n)
		return true
	})
}

// add records a data mutant of the value.
func (vw *valueWalk) add(pos token.Pos, operator, desc string, e edit) {
	p := vw.d.a.fset.PositionFor(pos, false)
	c := &candidate{
		site: Site{File: vw.name, Line: p.Line, Col: p.Column, Operator: operator, Description: desc, Span: [2]int{e.start, e.end}},
		file: vw.name, how: rewriteVariant, start: vw.off(vw.value.Pos()), end: vw.off(vw.value.End()),
		edit: e, closure: vw.typ,
	}
	if vw.convert != nil {
		c.convert, c.spec, c.declStart, c.declEnd = vw.convert, vw.spec, vw.declStart, vw.declEnd
	}
	vw.d.out = append(vw.d.out, c)
}

// Data operators of Go values.
const (
	OpDataDropElement = "data_drop_element"
	OpDataString      = "data_string"
)

// literal handles a string or number literal.
func (vw *valueWalk) literal(lit *ast.BasicLit, stack []ast.Node) {
	start, end := vw.off(lit.Pos()), vw.off(lit.End())
	switch lit.Kind {
	case token.STRING:
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return
		}
		// Replaced by another non-empty string, which only a test that
		// pins the value kills: emptied, it would die to any test that
		// the string is merely set, and witness a row it does not judge.
		text := strconv.Quote(otherString(s))
		if !vw.constChangeFits(lit, stack, text) {
			vw.d.pending(vw.name, vw.d.line(lit.Pos()), "changing the string would not compile here")
			return
		}
		vw.add(lit.Pos(), OpDataString, clip(lit.Value)+" → "+text, edit{start, end, text})
		// And the value with one character changed, of the same kind:
		// a test of a property of the string (a prefix, a suffix, its
		// length, that it parses as a host) does not kill that one.
		if alt, ok := alteredString(s); ok {
			if text := strconv.Quote(alt); vw.constChangeFits(lit, stack, text) {
				vw.add(lit.Pos(), OpDataString, clip(lit.Value)+" → "+clip(text), edit{start, end, text})
			}
		}
		// A string the patch rewrote with more than one edit: each
		// undone alone (see walker.partialRestores).
		for _, r := range vw.d.a.restores {
			if r.Stmt || r.File != vw.name || r.Start != start || r.End != end {
				continue
			}
			if was, err := strconv.Unquote(r.Text); err == nil {
				for _, to := range undoEachEdit(was, s) {
					if text := strconv.Quote(to); vw.constChangeFits(lit, stack, text) {
						vw.add(lit.Pos(), OpDataString, clip(lit.Value)+" → "+clip(text)+" (one edit undone)", edit{start, end, text})
					}
				}
			}
			break
		}
	case token.INT, token.FLOAT, token.CHAR:
		v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
		if v.Kind() == constant.Unknown {
			return
		}
		added := false
		seen := map[string]bool{v.ExactString(): true}
		for _, op := range []token.Token{token.ADD, token.SUB} {
			text := "(" + lit.Value + " " + op.String() + " 1)"
			nv := constant.BinaryOp(v, op, constant.MakeInt64(1))
			seen[nv.ExactString()] = true
			if !vw.constChangeFits(lit, stack, text) {
				continue
			}
			vw.add(lit.Pos(), OpDataNumber, lit.Value+" → "+nv.ExactString(), edit{start, end, text})
			added = true
		}
		if !added {
			vw.d.pending(vw.name, vw.d.line(lit.Pos()), "changing the number by one would not compile here")
			return
		}
		// Extras, as for a constant in code: the number becomes 0, its
		// negation, or its double.
		if lit.Kind != token.INT {
			return
		}
		for _, nv := range []constant.Value{constant.MakeInt64(0), constant.UnaryOp(token.SUB, v, 0), constant.Shift(v, token.SHL, 1)} {
			if seen[nv.ExactString()] {
				continue
			}
			seen[nv.ExactString()] = true
			text := "(" + nv.ExactString() + ")"
			if !vw.constChangeFits(lit, stack, text) {
				continue
			}
			vw.add(lit.Pos(), OpDataNumber, lit.Value+" → "+nv.ExactString(), edit{start, end, text})
			vw.d.out[len(vw.d.out)-1].site.Extra = true
		}
	}
}

// otherString is a non-empty string other than s.
func otherString(s string) string {
	if s == "sealgate" {
		return "Sealgate"
	}
	return "sealgate"
}

// alteredString is s with the ASCII letter or digit nearest its middle
// changed to the one after it (z, Z and 9 to the one before), false when
// s has none: the same length, the same kinds of characters, a different
// value.
func alteredString(s string) (string, bool) {
	rs := []rune(s)
	at := -1
	for i, r := range rs {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) && (at < 0 || abs(2*i+1-len(rs)) < abs(2*at+1-len(rs))) {
			at = i
		}
	}
	if at < 0 {
		return "", false
	}
	switch r := rs[at]; r {
	case 'z', 'Z', '9':
		rs[at] = r - 1
	default:
		rs[at] = r + 1
	}
	return string(rs), true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// namedInt handles the name of a member of an enumeration (an integer
// constant of a type the package defines), as a table row selects one: it
// becomes the member declared beside it (its value ±1) — the wrong choice a
// row can make. Other named constants (time.Second, a bit flag) are left
// alone: ±1 there is a change no honest test could notice.
//
// It reports whether the constant is such a member, mutated or not.
func (vw *valueWalk) namedInt(n ast.Expr, id *ast.Ident, stack []ast.Node) bool {
	a := vw.d.a
	if !a.typed() {
		return false
	}
	c, ok := a.info.Uses[id].(*types.Const)
	if !ok || c.Pkg() != a.pkg || c.Val().Kind() != constant.Int {
		return false
	}
	named, ok := types.Unalias(c.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != a.pkg {
		return false
	}
	if b, ok := named.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return false
	}
	start, end := vw.off(n.Pos()), vw.off(n.End())
	name := string(vw.d.a.src[vw.name][start:end])
	for _, op := range []token.Token{token.ADD, token.SUB} {
		nv := constant.BinaryOp(c.Val(), op, constant.MakeInt64(1))
		member := memberOf(a.pkg, named, nv)
		if member == "" {
			continue
		}
		text := "(" + name + " " + op.String() + " 1)"
		if !vw.constChangeFits(n, stack, text) {
			continue
		}
		vw.add(n.Pos(), OpDataNumber, name+" → "+member, edit{start, end, text})
		if field, row := vw.rowField(n, stack); field != nil {
			vw.d.out[len(vw.d.out)-1].site.Equivalent = vw.enumEquivalent(field, row, c.Val(), nv)
		}
	}
	return true
}

// otherConst handles a named constant that is no member of an enumeration
// the package defines — time.Hour, http.MethodGet, maxRetries — as a table
// row spells it: a number becomes its double (0 becomes 1), a string
// gains a "!". Without it, a row's constant was a change no mutant
// expressed: a patch could turn time.Hour into time.Nanosecond on a row
// whose other values the tests pin, and the row counted as judged.
func (vw *valueWalk) otherConst(n ast.Expr, id *ast.Ident, stack []ast.Node) {
	a := vw.d.a
	if !a.typed() {
		return
	}
	c, ok := a.info.Uses[id].(*types.Const)
	if !ok || c.Pkg() == nil { // iota, and true and false (see boolean)
		return
	}
	start, end := vw.off(n.Pos()), vw.off(n.End())
	name := string(vw.d.a.src[vw.name][start:end])
	var text, to string
	switch v := c.Val(); v.Kind() {
	case constant.Int, constant.Float:
		text, to = "("+name+" * 2)", name+"×2"
		if constant.Sign(v) == 0 {
			text, to = "("+name+" + 1)", "1"
		}
	case constant.String:
		text, to = "("+name+` + "!")`, name+`+"!"`
	default:
		return
	}
	if !vw.constChangeFits(n, stack, text) {
		vw.d.pending(vw.name, vw.d.line(n.Pos()), "changing the constant "+name+" would not compile here")
		return
	}
	vw.add(n.Pos(), OpDataNumber, name+" → "+to, edit{start, end, text})
	if c.Val().Kind() == constant.String {
		vw.d.out[len(vw.d.out)-1].site.Operator = OpDataString
	}
}

// memberOf names the package-level constant of type t whose value is v, or
// "" when there is none.
func memberOf(pkg *types.Package, t *types.Named, v constant.Value) string {
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted: the first member of that value
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), t) && constant.Compare(c.Val(), token.EQL, v) {
			return name
		}
	}
	return ""
}

// boolean handles the predeclared true and false.
func (vw *valueWalk) boolean(id *ast.Ident, stack []ast.Node) {
	if id.Name != "true" && id.Name != "false" {
		return
	}
	w := &walker{a: vw.d.a}
	if !w.predeclared(id) || vw.isKey(id, stack) {
		return
	}
	to := "false"
	if id.Name == "false" {
		to = "true"
	}
	vw.add(id.Pos(), OpDataBool, id.Name+" → "+to, edit{vw.off(id.Pos()), vw.off(id.End()), "!" + id.Name})
}

// isKey reports whether n is (in) the key of a composite literal element:
// a changed key could repeat another.
func (vw *valueWalk) isKey(n ast.Node, stack []ast.Node) bool {
	child := n
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.KeyValueExpr:
			return p.Key == child
		case *ast.CompositeLit:
			return false
		}
		child = stack[i]
	}
	return false
}

// constChangeFits reports whether replacing leaf (a literal, or the name of
// a constant) by text keeps the value compiling: the largest constant
// expression holding leaf keeps a value its type can represent, no divisor
// becomes zero, no index, bound or size leaves its range, and no key of a
// map or array literal repeats another. Without types, only literal
// changes that cannot leave any type's range and are not keys, indices or
// divisors are accepted.
func (vw *valueWalk) constChangeFits(leaf ast.Expr, stack []ast.Node, text string) bool {
	a := vw.d.a
	if !a.typed() {
		lit, ok := leaf.(*ast.BasicLit)
		if !ok {
			return false
		}
		if vw.isKey(lit, stack) || len(stack) > 0 && isIndexOrDivisor(stack[len(stack)-1], lit) {
			return false
		}
		if lit.Kind == token.INT {
			v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
			n, ok := constant.Int64Val(v)
			return ok && n >= 1 && n <= 126
		}
		return true
	}
	// The largest constant expression around the leaf, and what holds it.
	m := leaf
	var parent ast.Node
	i := len(stack) - 1
	for ; i >= 0; i-- {
		pe, ok := stack[i].(ast.Expr)
		if !ok {
			break
		}
		if tv, ok := a.info.Types[pe]; !ok || tv.Value == nil {
			break
		}
		m = pe
	}
	if i >= 0 {
		parent = stack[i]
	}
	mtv := a.info.Types[m]
	if mtv.Value == nil {
		return false
	}
	src := vw.d.src(m)
	mText := src(m)
	rel := vw.off(leaf.Pos()) - vw.off(m.Pos())
	changed := mText[:rel] + text + mText[rel+vw.off(leaf.End())-vw.off(leaf.Pos()):]
	tv, err := types.Eval(a.fset, a.pkg, m.Pos(), changed)
	if err != nil || tv.Value == nil {
		return false
	}
	nv := tv.Value
	if !representable(nv, mtv.Type, a.sizes) || vw.as != nil && !representable(nv, vw.as, a.sizes) {
		return false
	}
	if parent != nil {
		w := &walker{a: a, name: vw.name, tf: vw.tf, file: nil}
		if !w.constantFits(parent, m, nv) {
			return false
		}
	}
	// A key must not repeat another key of its literal, nor an array
	// index leave its range.
	if kv, ok := parent.(*ast.KeyValueExpr); ok && kv.Key == m {
		var cl *ast.CompositeLit
		for j := i - 1; j >= 0; j-- {
			if c, ok := stack[j].(*ast.CompositeLit); ok {
				cl = c
				break
			}
		}
		if cl == nil {
			return false
		}
		for _, e := range cl.Elts {
			okv, ok := e.(*ast.KeyValueExpr)
			if !ok || okv == kv {
				continue
			}
			if otv := a.info.Types[okv.Key]; otv.Value == nil || constant.Compare(otv.Value, token.EQL, nv) {
				return false
			}
		}
		if arr, ok := a.info.Types[cl].Type.Underlying().(*types.Array); ok {
			if nv.Kind() != constant.Int || constant.Sign(nv) < 0 || constant.Compare(nv, token.GEQ, constant.MakeInt64(arr.Len())) {
				return false
			}
		}
		if _, ok := a.info.Types[cl].Type.Underlying().(*types.Slice); ok && (nv.Kind() != constant.Int || constant.Sign(nv) < 0) {
			return false
		}
	}
	return true
}

func isIndexOrDivisor(parent ast.Node, child ast.Node) bool {
	switch p := parent.(type) {
	case *ast.IndexExpr:
		return p.Index == child
	case *ast.SliceExpr:
		return true
	case *ast.BinaryExpr:
		return (p.Op == token.QUO || p.Op == token.REM) && p.Y == child
	}
	return false
}

// representable reports whether constant v fits type t (after the
// conversion an assignment makes).
func representable(v constant.Value, t types.Type, sizes types.Sizes) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return true // an interface: the default type, checked by Eval
	}
	info := b.Info()
	switch {
	case info&types.IsUntyped != 0:
		return true
	case info&types.IsInteger != 0:
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			return false
		}
		w := &walker{a: &analysis{sizes: sizes}}
		lo, hi, ok := w.intRange(b)
		return ok && !constant.Compare(iv, token.LSS, lo) && !constant.Compare(iv, token.GTR, hi)
	case info&types.IsFloat != 0:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		if b.Kind() == types.Float32 {
			return !math.IsInf(f, 0) && math.Abs(f) <= math.MaxFloat32
		}
		return !math.IsInf(f, 0)
	case info&types.IsString != 0:
		return v.Kind() == constant.String
	case info&types.IsBoolean != 0:
		return v.Kind() == constant.Bool
	}
	return true
}

// elements handles the removal of a composite literal's elements.
func (vw *valueWalk) elements(cl *ast.CompositeLit) {
	n := len(cl.Elts)
	for k, e := range cl.Elts {
		if !vw.d.wanted(vw.name, e.Pos()) {
			continue
		}
		if !vw.droppable(cl, e) {
			continue
		}
		var ed edit
		switch {
		case n == 1:
			ed = edit{vw.off(cl.Lbrace) + 1, vw.off(cl.Rbrace), ""}
		case k < n-1:
			ed = edit{vw.off(e.Pos()), vw.off(cl.Elts[k+1].Pos()), ""}
		default:
			ed = edit{vw.off(cl.Elts[k-1].End()), vw.off(e.End()), ""}
		}
		vw.add(e.Pos(), OpDataDropElement, "drop element "+clip(vw.d.src(e)(e)), ed)
	}
}

// droppable reports whether element e can leave literal cl and the program
// still compile: an element of a slice, a map or an array of explicit
// length, or a keyed field of a struct, that holds no last use of an
// import.
func (vw *valueWalk) droppable(cl *ast.CompositeLit, e ast.Expr) bool {
	a := vw.d.a
	_, keyed := e.(*ast.KeyValueExpr)
	ok := false
	if at, isArr := cl.Type.(*ast.ArrayType); isArr && at.Len != nil && isEllipsis(at.Len) {
		return false
	}
	if a.typed() {
		switch a.info.Types[cl].Type.Underlying().(type) {
		case *types.Slice, *types.Map, *types.Array:
			ok = true
		case *types.Struct:
			ok = keyed
		}
	} else {
		switch t := cl.Type.(type) {
		case *ast.ArrayType, *ast.MapType:
			ok = true
		default:
			_ = t
			ok = keyed && allKeyed(cl)
		}
	}
	if !ok {
		return false
	}
	return !vw.holdsLastImportUse(e)
}

func allKeyed(cl *ast.CompositeLit) bool {
	for _, e := range cl.Elts {
		if _, ok := e.(*ast.KeyValueExpr); !ok {
			return false
		}
	}
	return true
}

// holdsLastImportUse reports whether every use of some import of the file
// lies in e.
func (vw *valueWalk) holdsLastImportUse(e ast.Expr) bool {
	a := vw.d.a
	f := a.files[vw.name]
	if a.typed() {
		uses := a.readUses()
		last := false
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || last {
				return !last
			}
			pn, ok := a.info.Uses[id].(*types.PkgName)
			if !ok {
				return true
			}
			last = true
			for _, p := range uses[pn] {
				if !contains(e, p) {
					last = false
				}
			}
			return !last
		})
		return last
	}
	imports := make(map[string]bool)
	for _, spec := range f.Imports {
		imports[importName(spec)] = true
	}
	last := false
	ast.Inspect(e, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || last {
			return !last
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || !imports[id.Name] {
			return true
		}
		outside := 0
		ast.Inspect(f, func(m ast.Node) bool {
			if mid, ok := m.(*ast.Ident); ok && mid.Name == id.Name && !contains(e, mid.Pos()) {
				outside++
			}
			return true
		})
		last = outside <= 1 // the import's own name, if any
		return !last
	})
	return last
}

// embedVar is a string or []byte variable holding an embedded file.
type embedVar struct {
	goFile     string
	spec       *ast.ValueSpec
	path       string // the embedded file, relative to the package directory
	content    []byte
	typ        string // the variable's declared type
	start, end int    // offsets of the rewritten range: first directive to spec end
	directives []int  // offsets of each "//go:embed" in the range
}

// maxEmbed is the largest embedded file the schemata copies into source.
const maxEmbed = 1 << 20

// embedVar handles a package-level variable without a value: data when it
// embeds a file. Its changed lines (the directive, the declaration) make
// every line of the embedded content a data line.
func (d *dataFinder) embedDecl(name string, tf *token.File, gd *ast.GenDecl, vs *ast.ValueSpec) {
	doc := vs.Doc
	if doc == nil && !gd.Lparen.IsValid() {
		doc = gd.Doc
	}
	var patterns []string
	var directives []*ast.Comment
	if doc != nil {
		for _, c := range doc.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:embed"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				ps, err := embedPatterns(rest)
				if err != nil {
					ps = []string{"\x00"}
				}
				patterns = append(patterns, ps...)
				directives = append(directives, c)
			}
		}
	}
	if len(directives) == 0 {
		return
	}
	goLines := []int{}
	for _, c := range directives {
		goLines = append(goLines, d.line(c.Pos()))
	}
	for l := d.line(vs.Pos()); l <= d.line(vs.End()); l++ {
		goLines = append(goLines, l)
	}
	kind := d.embedKind(vs)
	files, err := d.embedFiles(patterns, kind != "FS")
	ev := &embedVar{goFile: name, spec: vs, typ: "", start: tf.Offset(directives[0].Pos()), end: tf.Offset(vs.End())}
	if vs.Type != nil {
		ev.typ = d.src(vs)(vs.Type)
	}
	for _, c := range directives {
		ev.directives = append(ev.directives, tf.Offset(c.Pos()))
	}
	reason := ""
	switch {
	case kind == "FS":
		reason = "embedded into an embed.FS, whose files no data mutant switches"
	case kind == "":
		reason = "an embedding variable of a type the mutator does not know"
	case err != nil:
		reason = "the embedded file cannot be read: " + err.Error()
	case len(files) != 1:
		reason = "the embed patterns do not name exactly one file"
	}
	if reason == "" {
		ev.path = files[0]
		ev.content, err = os.ReadFile(filepath.Join(d.a.dir, filepath.FromSlash(ev.path)))
		switch {
		case err != nil:
			reason = "the embedded file cannot be read: " + err.Error()
		case len(ev.content) > maxEmbed:
			reason = fmt.Sprintf("the embedded file is larger than %d bytes", maxEmbed)
		}
	}
	d.embeds = append(d.embeds, embedUse{ev: ev, files: files, fs: kind == "FS", reason: reason})
	// The directive or the declaration changed: the whole content is new
	// data.
	changed := false
	for _, l := range goLines {
		if d.class[name][l] != nil {
			changed = true
			d.pending(name, l, reason)
		}
	}
	if changed && reason == "" {
		d.embedMutants(ev, nil, goLines)
	}
}

// embedKind is "string", "bytes", "FS", or "" for another type.
func (d *dataFinder) embedKind(vs *ast.ValueSpec) string {
	if d.a.typed() && len(vs.Names) == 1 {
		t := types.Unalias(d.a.info.TypeOf(vs.Names[0]))
		switch {
		case types.Identical(t, types.Typ[types.String]):
			return "string"
		case types.Identical(t, types.NewSlice(types.Typ[types.Byte])):
			return "bytes"
		}
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS" {
			return "FS"
		}
		return ""
	}
	switch t := vs.Type.(type) {
	case *ast.Ident:
		if t.Name == "string" {
			return "string"
		}
	case *ast.ArrayType:
		if id, ok := t.Elt.(*ast.Ident); ok && t.Len == nil && id.Name == "byte" {
			return "bytes"
		}
	case *ast.SelectorExpr:
		if t.Sel.Name == "FS" {
			return "FS"
		}
	}
	return ""
}

// embedPatterns splits a //go:embed directive's arguments: space-separated,
// Go-quoted or back-quoted.
func embedPatterns(s string) ([]string, error) {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		switch s[0] {
		case '"', '`':
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, err
			}
			p, err := strconv.Unquote(q)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
			s = s[len(q):]
		default:
			i := strings.IndexAny(s, " \t")
			if i < 0 {
				i = len(s)
			}
			out = append(out, s[:i])
			s = s[i:]
		}
		s = strings.TrimLeft(s, " \t")
	}
	return out, nil
}

// embedFiles resolves embed patterns to the files they match, relative to
// the package directory, sorted; directories stand for their contents
// (returned with a trailing slash).
func (d *dataFinder) embedFiles(patterns []string, single bool) ([]string, error) {
	if d.a.dir == "" {
		return nil, fmt.Errorf("the package directory is unknown")
	}
	var out []string
	for _, p := range patterns {
		p = strings.TrimPrefix(p, "all:")
		if p == "\x00" || p == "" || path.IsAbs(p) || path.Clean(p) != p || strings.HasPrefix(p, "../") || p == ".." {
			return nil, fmt.Errorf("the embed pattern %q is not valid", p)
		}
		matches, err := filepath.Glob(filepath.Join(d.a.dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			rel, err := filepath.Rel(d.a.dir, m)
			if err != nil {
				return nil, err
			}
			rel = filepath.ToSlash(rel)
			fi, err := os.Stat(m)
			if err != nil {
				return nil, err
			}
			if fi.IsDir() {
				rel += "/"
			}
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// embedUse is an embedding variable and what it embeds.
type embedUse struct {
	ev     *embedVar
	files  []string
	fs     bool
	reason string // why its data cannot be mutated, or ""
}

// embedMutants adds the data mutants of an embedded file's content: of
// the given content lines, or of every line when lines is nil. sources
// are the .go lines whose change they judge.
func (d *dataFinder) embedMutants(ev *embedVar, lines map[int]bool, goLines []int) {
	for _, ms := range lineMutants(ev.content) {
		for _, m := range ms {
			if lines != nil && !lines[m.Line] {
				continue
			}
			c := &candidate{
				site: Site{File: ev.path, Line: m.Line, Col: m.Col, Operator: m.Operator, Description: m.Description},
				file: ev.goFile, how: rewriteEmbed, start: ev.start, end: ev.end,
				edit: edit{m.Start, m.End, string(m.Replacement)}, embed: ev,
			}
			for _, l := range goLines {
				c.sources = append(c.sources, LineClass{File: ev.goFile, Line: l})
			}
			if prev := d.embedSites[keyOf(c.site)]; prev != nil {
				prev.sources = append(prev.sources, c.sources...)
				continue
			}
			if d.embedSites == nil {
				d.embedSites = make(map[siteKey]*candidate)
			}
			d.embedSites[keyOf(c.site)] = c
			d.out = append(d.out, c)
		}
	}
}

// embedded classes the requested lines of files other than .go files: the
// data of a string or []byte variable that embeds them, unjudgeable when
// an embed.FS holds them, not data otherwise.
func (d *dataFinder) embedded(other map[string][]int) {
	for _, p := range slices.Sorted(mapKeysOf(other)) {
		for _, u := range d.embeds {
			matched := false
			for _, f := range u.files {
				if f == p || strings.HasSuffix(f, "/") && strings.HasPrefix(p, f) {
					matched = true
				}
			}
			if !matched {
				continue
			}
			content := u.ev.content
			blank := func(l int) bool { return false }
			if content != nil {
				lines := strings.Split(string(content), "\n")
				blank = func(l int) bool { return l > len(lines) || strings.TrimSpace(lines[l-1]) == "" }
			}
			want := make(map[int]bool)
			for _, l := range other[p] {
				if blank(l) && !u.fs {
					continue // a blank line of an embedded file is no data
				}
				d.pending(p, l, u.reason)
				want[l] = true
			}
			if u.reason == "" && !u.fs {
				d.embedMutants(u.ev, want, nil)
				for l := range want {
					if d.class[p][l].Kind == lineDataPending && d.class[p][l].Reason == "" {
						d.class[p][l].Reason = "a line of an embedded file without a data mutant"
					}
				}
			}
		}
	}
}

// tableLines classes as LineTable the requested lines still not data that
// hold a code candidate inside an element of a map, slice or array
// literal written in a function body (see tableType) that is a row of
// data (see literalRow), outside any function literal within the
// element: a row of a table in code. A struct's value (Point{X: x + 1,
// Y: 0}) is code as before.
func (a *analysis) tableLines(cands []*candidate, class map[string]map[int]*LineClass) {
	for _, name := range a.names {
		f := a.files[name]
		tf := a.fset.File(f.Pos())
		var spans [][2]int // element spans, less the function literals in them
		var holes [][2]int
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				cl, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				if !a.tableType(cl) {
					return true // a struct's value, or a row judged with its table
				}
				for _, e := range cl.Elts {
					if !literalRow(e) {
						continue
					}
					spans = append(spans, [2]int{tf.Offset(e.Pos()), tf.Offset(e.End())})
					ast.Inspect(e, func(m ast.Node) bool {
						if fl, ok := m.(*ast.FuncLit); ok {
							holes = append(holes, [2]int{tf.Offset(fl.Pos()), tf.Offset(fl.End())})
							return false
						}
						return true
					})
				}
				return true
			})
		}
		if len(spans) == 0 {
			continue
		}
		within := func(c *candidate, s [2]int) bool { return s[0] <= c.start && c.end <= s[1] }
		for _, c := range cands {
			if c.file != name || c.site.File != name {
				continue
			}
			cl := class[name][c.site.Line]
			if cl == nil || cl.Kind != LineNotData {
				continue
			}
			if !slices.ContainsFunc(spans, func(s [2]int) bool { return within(c, s) }) ||
				slices.ContainsFunc(holes, func(s [2]int) bool { return within(c, s) }) {
				continue
			}
			cl.Kind = LineTable
			if c.site.Operator == OpStringLiteral && c.str[1] != "" {
				// A string of a row is data, as data_string is for a
				// table at package level: its mutant to another string
				// is a primary one (emptying it stays an Extra: any test
				// that the string is set kills that, and it would witness
				// a row no test pins).
				c.site.Extra = false
			}
		}
		// A line that is nothing but rows ("mallory",) and has no mutant
		// is data no mutant expresses: unjudgeable, as a package-level
		// value no data mutant switches is.
		src := a.src[name]
		allowed := func(off int) bool {
			for _, s := range spans {
				if s[0] <= off && off < s[1] {
					return true
				}
			}
			for _, cg := range f.Comments {
				if tf.Offset(cg.Pos()) <= off && off < tf.Offset(cg.End()) {
					return true
				}
			}
			switch src[off] {
			case ' ', '\t', '\r', ',':
				return true
			}
			return false
		}
		for l, cl := range class[name] {
			if cl.Kind != LineNotData || l < 1 || l > tf.LineCount() {
				continue
			}
			start, end := tf.Offset(tf.LineStart(l)), len(src)
			if l < tf.LineCount() {
				end = tf.Offset(tf.LineStart(l+1)) - 1
			}
			inRow, rowOnly := false, true
			for off := start; off < end && off < len(src); off++ {
				if !allowed(off) {
					rowOnly = false
					break
				}
				inRow = inRow || slices.ContainsFunc(spans, func(s [2]int) bool { return s[0] <= off && off < s[1] })
			}
			if inRow && rowOnly {
				cl.Kind, cl.Reason = LineUnjudgeable, "a row of a table a function builds, which no mutant expresses: a table at package level gets data mutants"
			}
		}
	}
}

// literalRow reports an element of a composite literal made of data only:
// literals, names and selectors (true, time.Second), signs, and keys and
// composite literals of them ("mallory": true, {3, 10}: 6.5). An element
// computing something (n + 1, f(x)) is code, judged as code.
func literalRow(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.BasicLit, *ast.Ident, *ast.SelectorExpr:
		return true
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.NOT) && literalRow(x.X)
	case *ast.KeyValueExpr:
		return literalRow(x.Key) && literalRow(x.Value)
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if !literalRow(el) {
				return false
			}
		}
		return true
	}
	return false
}

// tableType reports a composite literal that spells a map, slice or array
// type: map[…]…, […]…, or a named type whose underlying type is one (when
// the package type-checks). An elided type (a row inside its table) is
// judged with its table.
func (a *analysis) tableType(cl *ast.CompositeLit) bool {
	switch cl.Type.(type) {
	case *ast.MapType, *ast.ArrayType:
		return true
	case nil:
		return false
	}
	if !a.typed() {
		return false
	}
	tv, ok := a.info.Types[cl]
	if !ok || tv.Type == nil {
		return false
	}
	switch tv.Type.Underlying().(type) {
	case *types.Map, *types.Slice, *types.Array:
		return true
	}
	return false
}
