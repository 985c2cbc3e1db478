package mutant

import (
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// restoreSites picks, for each group of the package's restores (see
// Restore), the first that can be written in the file named name, keyed
// by its expression's byte range (an expression may have several: what
// stood there, and its projections).
func (a *analysis) restoreSites(name string, rs []Restore) map[[2]int][]Restore {
	if !a.typed() {
		return nil
	}
	f, ok := a.files[name]
	if !ok {
		return nil
	}
	tf := a.fset.File(f.Pos())
	// Every expression of the file by its byte range, with its ancestors.
	type found struct {
		expr  ast.Expr
		stack []ast.Node
	}
	byRange := map[[2]int]found{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if e, ok := n.(ast.Expr); ok {
			k := [2]int{tf.Offset(e.Pos()), tf.Offset(e.End())}
			if _, dup := byRange[k]; !dup {
				byRange[k] = found{e, slices.Clone(stack)}
			}
		}
		stack = append(stack, n)
		return true
	})
	out := map[[2]int][]Restore{}
	done := map[int]bool{}
	for _, r := range rs {
		if r.File != name || r.Stmt || done[r.Group] {
			continue
		}
		fd, ok := byRange[[2]int{r.Start, r.End}]
		if !ok || !a.restorable(fd.expr, fd.stack, r.Text) {
			continue
		}
		done[r.Group] = true
		k := [2]int{r.Start, r.End}
		out[k] = append(out[k], r)
	}
	return out
}

// restorable reports whether the expression e (its ancestors stack) can
// become text at run time: a value of code, not constant, whose type can
// be named there, in no place that needs it addressable or constant, and
// text type-checks at e with a type e's accepts.
func (a *analysis) restorable(e ast.Expr, stack []ast.Node, text string) bool {
	tv, ok := a.info.Types[e]
	if !ok || !tv.IsValue() || tv.Value != nil || tv.Type == nil {
		return false
	}
	if _, tuple := tv.Type.(*types.Tuple); tuple {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 && b.Kind() != types.UntypedBool {
		return false // a comparison's untyped bool is bool's
	}
	inFunc := false
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			inFunc = true
		case *ast.GenDecl:
			if n.Tok == token.CONST {
				return false
			}
		case *ast.ArrayType:
			return false // a length, or a type
		}
	}
	if !inFunc || len(stack) == 0 {
		return false
	}
	// What must stay addressable, assignable, a receive, or a call
	// evaluated where it stands.
	for _, n := range stack {
		if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil && cc.Comm.Pos() <= e.Pos() && e.End() <= cc.Comm.End() {
			if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return false
			}
		}
	}
	child := ast.Node(e)
	var parent ast.Node
	for i := len(stack) - 1; i >= 0; i-- {
		if _, ok := stack[i].(*ast.ParenExpr); !ok {
			parent = stack[i]
			break
		}
		child = stack[i]
	}
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if slices.ContainsFunc(p.Lhs, func(x ast.Expr) bool { return x == child }) {
			return false
		}
	case *ast.RangeStmt:
		if p.Key == child || p.Value == child {
			return false
		}
	case *ast.IncDecStmt, *ast.GoStmt, *ast.DeferStmt, *ast.IndexListExpr:
		return false
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return false
		}
	case *ast.SelectorExpr:
		return false // a method's receiver or a field's struct
	case *ast.IndexExpr:
		if p.X == child {
			return false
		}
	case *ast.SliceExpr:
		if p.X == child {
			return false
		}
	case *ast.KeyValueExpr:
		if p.Key == child {
			return false
		}
	case *ast.CallExpr:
		if p.Fun == child {
			return false // a function, or a conversion's type
		}
	}
	x, err := parser.ParseExpr(text)
	if err != nil {
		return false
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if err := types.CheckExpr(a.fset, a.pkg, e.Pos(), x, info); err != nil {
		return false
	}
	want := tv.Type
	if b, ok := want.(*types.Basic); ok && b.Kind() == types.UntypedBool {
		want = types.Typ[types.Bool]
	}
	bt := info.Types[x]
	return bt.IsValue() && bt.Type != nil && types.AssignableTo(bt.Type, want)
}

// restore handles an expression the patch replaced (Extra): the baseline's
// text in its place (see Restore).
func (w *walker) restore(e ast.Expr) {
	rs := w.restores[[2]int{w.off(e.Pos()), w.off(e.End())}]
	if len(rs) == 0 || !w.at(e.Pos()) {
		return
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	t := w.a.info.Types[e].Type
	if b, isBasic := t.(*types.Basic); isBasic && b.Kind() == types.UntypedBool {
		t = types.Typ[types.Bool]
	}
	typ, typed := w.a.siteType(t, e.Pos())
	for _, r := range rs {
		desc := flat(string(w.a.src[w.name][r.Start:r.End])) + " → " + flat(r.Text)
		if !typed {
			w.skip(e.Pos(), OpRestore, desc, "the expression's type cannot be named there")
			continue
		}
		c := &candidate{how: rewriteWrap, node: e, typeText: typ, str: [2]string{"", r.Text}}
		c.site.Extra = true
		w.add(c, e.Pos(), OpRestore, desc)
	}
}

// stmtRestoreSites picks, for each group of the file's statement restores
// (Restore.Stmt), the first whose statements can stand in place of the
// patch's (see stmtRestorable), keyed by its range, with the statements
// as they are written there.
func (a *analysis) stmtRestoreSites(name string, rs []Restore) map[[2]int][]Restore {
	if !a.typed() {
		return nil
	}
	f, ok := a.files[name]
	if !ok {
		return nil
	}
	tf := a.fset.File(f.Pos())
	byRange := map[[2]int]ast.Stmt{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if st, ok := n.(ast.Stmt); ok && replaceable(st, stack) {
			k := [2]int{tf.Offset(st.Pos()), tf.Offset(st.End())}
			if _, dup := byRange[k]; !dup {
				byRange[k] = st
			}
		}
		stack = append(stack, n)
		return true
	})
	out := map[[2]int][]Restore{}
	done := map[int]bool{}
	for _, r := range rs {
		if r.File != name || !r.Stmt || done[r.Group] {
			continue
		}
		k := [2]int{r.Start, r.End}
		if _, ok := byRange[k]; !ok {
			continue
		}
		text, ok := a.stmtRestorable(name, r, fmt.Sprintf("%d", r.Group))
		if !ok {
			continue
		}
		done[r.Group] = true
		r.Text = text
		out[k] = append(out[k], r)
	}
	return out
}

// replaceable reports whether the statement st (its ancestors stack) can
// become a block: a block itself, or a statement of a statement list, in
// a function's body.
func replaceable(st ast.Stmt, stack []ast.Node) bool {
	switch st.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return false
	}
	inFunc := false
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			inFunc = true
		}
	}
	if !inFunc || len(stack) == 0 {
		return false
	}
	switch stack[len(stack)-1].(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return false // a list of clauses
	}
	if _, ok := st.(*ast.BlockStmt); ok {
		return true
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
		return true
	case *ast.IfStmt:
		return p.Else == st
	}
	return false
}

// stmtRestorable returns the baseline's statements of r as they are
// written in place of the patch's: on one line, without comments (none
// can swallow the code after it), their labels renamed apart from the
// patch's (a label is declared once per function); ok is false when the
// package does not type-check with them there.
func (a *analysis) stmtRestorable(name string, r Restore, tag string) (string, bool) {
	text, ok := a.oneLine(r.Text, tag)
	if !ok {
		return "", false
	}
	src := a.src[name]
	if r.Start < 0 || r.End > len(src) || r.Start >= r.End {
		return "", false
	}
	var b strings.Builder
	b.Write(src[:r.Start])
	b.WriteString("{ if true { " + text + " } else { ")
	b.Write(src[r.Start:r.End])
	b.WriteString(" } }")
	b.Write(src[r.End:])
	f, err := parser.ParseFile(a.fset, a.path(name), b.String(), parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	files := make([]*ast.File, len(a.names))
	for i, n := range a.names {
		files[i] = a.files[n]
		if n == name {
			files[i] = f
		}
	}
	if _, err := a.newConfig().Check(a.pkgName, a.fset, files, nil); err != nil {
		return "", false
	}
	return text, true
}

// oneLine writes the statements text on one line: its tokens, the
// semicolons the line breaks stood for, a raw string holding a line break
// as an interpreted one; its labels renamed with tag (and a name no
// identifier of the package has). ok is false when text is no statement
// list.
func (a *analysis) oneLine(text, tag string) (string, bool) {
	const head = "package p; func _() {\n"
	f, err := parser.ParseFile(token.NewFileSet(), "", head+text+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	// The labels the text declares, by name.
	declared := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok {
			declared[l.Label.Name] = true
		}
		return true
	})
	renamed := map[int]string{} // offset in text → the label's new name
	ast.Inspect(f, func(n ast.Node) bool {
		var id *ast.Ident
		switch n := n.(type) {
		case *ast.LabeledStmt:
			id = n.Label
		case *ast.BranchStmt:
			id = n.Label
		}
		if id != nil && declared[id.Name] {
			fresh := id.Name + "Restored" + tag
			for a.idents[fresh] {
				fresh += "_"
			}
			renamed[int(id.Pos())-1-len(head)] = fresh
		}
		return true
	})
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	broken := false
	s.Init(file, []byte(text), func(token.Position, string) { broken = true }, 0)
	var out []string
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		switch {
		case tok == token.SEMICOLON:
			out = append(out, ";")
		case tok == token.IDENT && renamed[off] != "":
			out = append(out, renamed[off])
		case tok == token.STRING && strings.HasPrefix(lit, "`") && strings.ContainsAny(lit, "\r\n"):
			v, err := strconv.Unquote(strings.ReplaceAll(lit, "\r", ""))
			if err != nil {
				return "", false
			}
			out = append(out, strconv.Quote(v))
		case lit != "":
			out = append(out, lit)
		default:
			out = append(out, tok.String())
		}
	}
	if broken {
		return "", false
	}
	var b strings.Builder
	for i, tok := range out {
		if i > 0 && !tight(out[i-1], tok) {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
	}
	return b.String(), true
}

// tight reports whether the token next follows prev without a space
// (x.f, f(x), a[i], x, y; outer:): only around punctuation no token
// merges with.
func tight(prev, next string) bool {
	switch next {
	case ".", ",", ")", "]", ";", ":":
		return true
	case "(", "[":
		return prev != "" && (isIdentByte(prev[len(prev)-1]) || strings.Contains("()[]", prev))
	}
	switch prev {
	case ".", "(", "[":
		return true
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
}

// stmtRestore handles a statement or block the patch changed outside any
// expression (see Restore.Stmt): the baseline's statements in its place.
// Its site stands at the change it judges, on whatever line.
func (w *walker) stmtRestore(st ast.Stmt) {
	rs := w.stmtRestores[[2]int{w.off(st.Pos()), w.off(st.End())}]
	for _, r := range rs {
		// The texts clipped may read alike; the digest tells them apart.
		sum := sha256.Sum256([]byte(r.Text))
		desc := fmt.Sprintf("statements: %s → %s (%x)", clip(string(w.a.src[w.name][r.Start:r.End])), clip(r.Text), sum[:4])
		c := &candidate{how: rewriteWrap, node: st, list: true, stmts: true, str: [2]string{"", r.Text}}
		c.site.Extra = true
		c.site.Equivalent = idleCopies(string(w.a.src[w.name][r.Start:r.End]), r.Text)
		if c.site.Equivalent == "" {
			c.site.Equivalent = w.sameConstants(st, r.Text)
		}
		w.add(c, w.tf.Pos(r.At), OpRestore, desc)
	}
}

// idleCopies says why putting back was in place of now changes nothing,
// or is "": when was is now with copies of variables added (i := i, which
// loops kept for the closures of Go before 1.22) that nothing in now
// captures, takes the address of, selects from or assigns — the copy and
// the variable it copies are then read alike.
func idleCopies(now, was string) string {
	nowList, ok1 := stmtList(now)
	wasList, ok2 := stmtList(was)
	if !ok1 || !ok2 || len(wasList) <= len(nowList) {
		return ""
	}
	var names []string
	var kept []ast.Stmt
	for _, st := range wasList {
		if a, ok := st.(*ast.AssignStmt); ok && a.Tok == token.DEFINE && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
			l, lok := a.Lhs[0].(*ast.Ident)
			r, rok := a.Rhs[0].(*ast.Ident)
			if lok && rok && l.Name == r.Name && l.Name != "_" {
				names = append(names, l.Name)
				continue
			}
		}
		kept = append(kept, st)
	}
	if len(names) == 0 || len(kept) != len(nowList) {
		return ""
	}
	for i := range kept {
		if stmtText(kept[i]) != stmtText(nowList[i]) {
			return ""
		}
	}
	for _, st := range nowList {
		if touches(st, names) {
			return ""
		}
	}
	return fmt.Sprintf("%s%s := %s, a copy nothing captures, addresses, selects from or assigns", EquivalentIdleCopy, names[0], names[0])
}

// EquivalentIdleCopy begins the Equivalent of a restore that only puts
// back copies of variables (see idleCopies).
const EquivalentIdleCopy = "it only adds "

// sameConstants says why putting back was in place of the statement st
// changes nothing, or is "": the two read alike token by token but where
// the patch names a constant and the baseline writes its value (got ==
// argNo, argNo the iota 0, against got == 0: a restore of one edit of
// several that is the patch itself).
func (w *walker) sameConstants(st ast.Stmt, was string) string {
	src := w.a.src[w.name]
	start, end := w.off(st.Pos()), w.off(st.End())
	if start < 0 || end > len(src) || start >= end {
		return ""
	}
	now, then := goTokens(src[start:end]), goTokens([]byte(was))
	if len(now) != len(then) || len(now) == 0 {
		return ""
	}
	idents := map[token.Pos]*ast.Ident{}
	ast.Inspect(st, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			idents[id.Pos()] = id
		}
		return true
	})
	var named []string
	for i := range now {
		n, t := now[i], then[i]
		if n.tok == t.tok && n.lit == t.lit {
			continue
		}
		if n.tok == token.IDENT && t.tok == token.IDENT && i > 0 && (now[i-1].tok == token.BREAK || now[i-1].tok == token.CONTINUE || now[i-1].tok == token.GOTO) {
			continue // a label, renamed apart in the restore (oneLine)
		}
		if n.tok == token.IDENT && t.tok == token.IDENT && i+1 < len(now) && now[i+1].tok == token.COLON && then[i+1].tok == token.COLON && (i == 0 || now[i-1].tok == token.LBRACE || now[i-1].tok == token.SEMICOLON || now[i-1].tok == token.RBRACE) {
			continue // a label's declaration, renamed apart
		}
		switch t.tok {
		case token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING:
		default:
			return ""
		}
		id := idents[st.Pos()+token.Pos(n.off)]
		if n.tok != token.IDENT || id == nil {
			return ""
		}
		c, ok := w.a.info.Uses[id].(*types.Const)
		if !ok {
			return ""
		}
		v := constant.MakeFromLiteral(t.lit, t.tok, 0)
		cv := c.Val()
		numeric := func(k constant.Kind) bool { return k == constant.Int || k == constant.Float || k == constant.Complex }
		if v.Kind() == constant.Unknown || !(numeric(v.Kind()) && numeric(cv.Kind()) || v.Kind() == cv.Kind()) || !constant.Compare(cv, token.EQL, v) {
			return ""
		}
		named = append(named, id.Name+" is "+t.lit)
	}
	if len(named) == 0 {
		return ""
	}
	return "it only writes the value of a constant the patch names: " + strings.Join(named, ", ")
}

// goToken is a token of Go source, at its offset.
type goToken struct {
	off int
	tok token.Token
	lit string
}

// goTokens scans src's tokens, without comments and semicolons (a line
// break stands for one, and the one-line form writes it).
func goTokens(src []byte) []goToken {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, 0)
	var out []goToken
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF || tok == token.ILLEGAL {
			break
		}
		if tok == token.SEMICOLON {
			continue // line breaks or written: the one-line form has them
		}
		if lit == "" {
			lit = tok.String()
		}
		out = append(out, goToken{f.Offset(pos), tok, lit})
	}
	return out
}

// stmtList parses text as a statement list; a single block stands for the
// statements it holds.
func stmtList(text string) ([]ast.Stmt, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func _() {\n"+text+"\n}", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil, false
	}
	list := f.Decls[0].(*ast.FuncDecl).Body.List
	if len(list) == 1 {
		if b, ok := list[0].(*ast.BlockStmt); ok {
			list = b.List
		}
	}
	return list, true
}

// stmtText prints a statement without positions or comments: two
// statements that read alike print alike.
func stmtText(st ast.Stmt) string {
	var b strings.Builder
	if err := format.Node(&b, token.NewFileSet(), st); err != nil {
		return fmt.Sprintf("%p", st)
	}
	return b.String()
}

// touches reports whether st uses one of names other than by reading its
// value: in a function literal, under &, as a selector's operand (a
// method may take its address), assigned, incremented or in a go or defer
// statement.
func touches(st ast.Stmt, names []string) bool {
	named := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && slices.Contains(names, id.Name)
	}
	mentions := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok && slices.Contains(names, id.Name) {
				found = true
			}
			return !found
		})
		return found
	}
	hit := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			hit = hit || mentions(x)
		case *ast.UnaryExpr:
			hit = hit || x.Op == token.AND && named(x.X)
		case *ast.SelectorExpr:
			hit = hit || named(x.X)
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				hit = hit || named(l)
			}
		case *ast.IncDecStmt:
			hit = hit || named(x.X)
		case *ast.RangeStmt:
			hit = hit || x.Key != nil && named(x.Key) || x.Value != nil && named(x.Value)
		}
		return !hit
	})
	return hit
}
