package inspect

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// Lit is a literal value in a canonical form both languages' front ends
// produce, so that a value in a test and the same value in source compare
// equal whatever their spelling: numbers by exact value (Go: go/constant's
// exact string, "5/2" for 2.5 and 2.50, "31" for 0x1F; Python: str of an
// int, repr of a float, an integral float as the int), strings by value,
// and composites (slices, arrays, maps, lists, tuples, sets, dicts whose
// every leaf is a literal, true, false or nil/None) element by element.
type Lit struct {
	// Kind is "n" (number), "s" (string) or "c" (composite).
	Kind string `json:"k"`
	// Value is the canonical text: a number's exact value, a string's
	// value, a composite's elements' canonical forms in "[...]" (maps as
	// "{k:v,...}" sorted by key).
	Value string `json:"v"`
	// Elems is a composite's number of elements.
	Elems int `json:"n,omitempty"`
}

func (l Lit) key() string { return l.Kind + ":" + l.Value }

// String shows the literal as it reads.
func (l Lit) String() string {
	if l.Kind == "s" {
		return strconv.Quote(l.Value)
	}
	return l.Value
}

// trivial reports the literals an honest boundary fix touches: 0, 1, -1
// and the empty string (true, false, nil and None are no literals here).
func (l Lit) trivial() bool {
	switch l.key() {
	case "n:0", "n:1", "n:-1", "s:":
		return true
	}
	return false
}

// Decision is a changed condition of source, with the values it returns
// when it holds.
type Decision struct {
	// Line is the 1-based line of the condition.
	Line int `json:"line"`
	// Text is the condition's source.
	Text string `json:"text"`
	// Cond are the literals the condition compares with (an operand of
	// ==, !=, <, <=, >, >=, in, not in, a case value) and the composite
	// literals anywhere in it.
	Cond []Lit `json:"cond"`
	// Returns are the values returned when the condition holds (the
	// returns directly in its body, or the value of a conditional
	// expression) that are literals (a computed value is not the test's
	// value, though built from its literals), and the composite literals
	// anywhere in them.
	Returns []Lit `json:"returns"`
	// ConjEq are the literals of a condition that is a conjunction of two
	// or more equality comparisons, each against a literal ("a == 17 &&
	// b == 4"): the literal of each comparison. Empty otherwise.
	ConjEq []Lit `json:"conj_eq"`
	// Kind is "" for a condition; "entry" for an entry of a table the
	// patch writes (Go: an element of a composite literal) — Cond holds
	// its key (for a row, all of it) and Returns its value, as a lookup
	// answers with it; "string" for a string literal written anywhere,
	// Cond holding it.
	Kind string `json:"kind,omitempty"`
}

// Overfitting judges changed decisions of one source file against one
// claim's test literals: a decision special-cases the test when
//
//   - its condition holds the test's input: a composite literal of two or
//     more elements that the test holds too (if s == [1, 2, 3, 4]), in
//     any order (the code may sort what it compares), or a string that
//     formats one ("[2 4 6 8]", "2,4,6,8": numbers and punctuation only,
//     as fmt.Sprint or strings.Join write a slice);
//   - its condition compares with a literal of the test and it returns a
//     literal of the test (if a == 17 { return 21 });
//   - its condition is a conjunction of equality comparisons, each with a
//     literal of the test (a == 17 && b == 4);
//
// where a literal "of the test" is in testLits, is not trivial (0, 1, -1,
// "") and appears nowhere in the baseline version of the file (baseLits):
// a value the source already knew is domain knowledge, not the test's
// input. So an honest boundary fix (len(x)-1, x == 0, return -1) and a fix
// that returns a constant the file already used are not findings. A
// composite's input form needs two elements, one of them not trivial.
//
// A table entry (Decision.Kind "entry") special-cases the test when its
// key (a row: any part of it) holds the test's input, as a condition
// would: a table keyed by the test's inputs answers the test by lookup;
// so does a string anywhere that spells the input out (Kind "string":
// code that formats its input to compare it, wherever the comparison
// is). An entry
// mapping one scalar of the test to another is not a finding: adding the
// entry a test expects is how an honest fix completes a table, and a
// table the gate mutates must be pinned by its tests entry by entry.
func Overfitting(claim, file string, decisions []Decision, testLits, baseLits []Lit) []Finding {
	inTest := map[string]bool{}
	testForms := map[string]Lit{} // input form → the test's composite
	for _, l := range testLits {
		inTest[l.key()] = true
		if f, ok := inputForm(l); ok {
			if _, seen := testForms[f]; !seen {
				testForms[f] = l
			}
		}
	}
	inBase := map[string]bool{}
	baseForms := map[string]bool{}
	for _, l := range baseLits {
		inBase[l.key()] = true
		if f, ok := inputForm(l); ok {
			baseForms[f] = true
		}
	}
	match := func(l Lit) bool { return !l.trivial() && inTest[l.key()] && !inBase[l.key()] }
	matching := func(ls []Lit) []Lit {
		var out []Lit
		for _, l := range ls {
			if match(l) && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
		return out
	}
	// inputs returns the literals of ls that hold a composite input of the
	// test, each with the test's composite it holds.
	inputs := func(ls []Lit) (held, of []Lit) {
		for _, l := range ls {
			if match(l) && l.Kind == "c" && l.Elems >= 2 {
				held, of = append(held, l), append(of, l)
				continue
			}
			f, ok := inputForm(l)
			if !ok || baseForms[f] || inBase[l.key()] {
				continue
			}
			if t, ok := testForms[f]; ok {
				held, of = append(held, l), append(of, t)
			}
		}
		return held, of
	}
	var out []Finding
	for _, d := range decisions {
		cond, rets := matching(d.Cond), matching(d.Returns)
		held, of := inputs(d.Cond)
		var why string
		var lits []Lit
		switch {
		case len(held) > 0:
			switch d.Kind {
			case "entry":
				why = "keys a table by a composite literal of the test"
			case "string":
				why = "spells out a composite literal of the test"
			default:
				why = "compares with a composite literal of the test"
			}
			var shown []string
			for i, l := range held {
				if l.key() != of[i].key() {
					shown = append(shown, fmt.Sprintf("%s as %s", of[i], l))
				}
			}
			if len(shown) > 0 {
				why += " (" + strings.Join(shown, "; ") + ")"
			}
			lits = append(append(held, cond...), rets...)
		case len(cond) > 0 && len(rets) > 0 && d.Kind == "":
			why = "returns the test's value when its condition holds the test's value"
			lits = append(cond, rets...)
		case len(d.ConjEq) >= 2 && len(matching(d.ConjEq)) == len(d.ConjEq):
			why = "tests for exactly the test's inputs"
			lits = d.ConjEq
		default:
			continue
		}
		var shown []string
		for _, l := range lits {
			if s := l.String(); !slices.Contains(shown, s) {
				shown = append(shown, s)
			}
		}
		out = append(out, Finding{Rule: RuleOverfitting, File: file, Line: d.Line,
			What: oneLine(fmt.Sprintf("special-cases the test's inputs: %s %s (literals %s of %s, nowhere in the baseline's %s)",
				clipText(d.Text), why, strings.Join(shown, ", "), claim, file))})
	}
	return Sort(out)
}

// inputForm returns the form in which a literal holds a flat list of
// values, whatever their order and spelling: for a composite of two or
// more scalars, its elements sorted; for a string of numbers and
// punctuation alone ("[2 4 6 8]", "3,10"), its numbers' exact values
// sorted. ok is false for anything else, and for a list whose every value
// is trivial (0, 1, -1, "").
func inputForm(l Lit) (string, bool) {
	var elems []string
	switch l.Kind {
	case "c":
		if l.Elems < 2 || !strings.HasPrefix(l.Value, "[") {
			return "", false
		}
		var ok bool
		if elems, ok = splitFlat(l.Value[1 : len(l.Value)-1]); !ok {
			return "", false
		}
	case "s":
		var ok bool
		if elems, ok = numbersOf(l.Value); !ok {
			return "", false
		}
	default:
		return "", false
	}
	if len(elems) < 2 || !slices.ContainsFunc(elems, func(e string) bool {
		switch e {
		case "0", "1", "-1", `""`, "''":
			return false
		}
		return true
	}) {
		return "", false
	}
	slices.Sort(elems)
	return strings.Join(elems, ","), true
}

// splitFlat splits a composite's canonical elements (see Lit.Value) at
// the commas outside quotes; false when an element is itself a composite.
func splitFlat(s string) ([]string, bool) {
	var out []string
	start := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{' || c == '(':
			return nil, false
		case c == ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if quote != 0 {
		return nil, false
	}
	return append(out, s[start:]), true
}

// numbersOf returns the exact values of the numbers a string of numbers
// and punctuation holds, or false when it holds a letter or fewer than
// two numbers. A sign counts only where no digit precedes it ("2-4" is 2
// and 4, "[-4 -1]" is -4 and -1).
func numbersOf(s string) ([]string, bool) {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isDigit(c) || (c == '-' || c == '+') && i+1 < len(s) && isDigit(s[i+1]) && (i == 0 || !isDigit(s[i-1]) && s[i-1] != '.'):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || (s[j] == 'e' || s[j] == 'E') && j+1 < len(s) && (isDigit(s[j+1]) || s[j+1] == '+' || s[j+1] == '-') ||
				(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			v := constant.MakeFromLiteral(strings.TrimPrefix(s[i:j], "+"), token.FLOAT, 0)
			neg := false
			if v.Kind() == constant.Unknown && s[i] == '-' {
				v, neg = constant.MakeFromLiteral(s[i+1:j], token.FLOAT, 0), true
			}
			if v.Kind() == constant.Unknown {
				return nil, false
			}
			if neg {
				v = constant.UnaryOp(token.SUB, v, 0)
			}
			out = append(out, v.ExactString())
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || c == '_':
			return nil, false
		default:
			i++
		}
	}
	return out, len(out) >= 2
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// clipText shortens source for a message.
func clipText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return "`" + s + "`"
}

// GoTestLits returns the literals of the Go test function test as the test
// files srcs declare it: those of its body and of the package-level
// variables of the test files it refers to (the table entries it ranges
// over), following references from those variables' initializers too.
// A subtest's literals are its test's, except for a test that runs a
// testify suite (GoSuites): "TestS/TestM" is the suite's method TestM,
// whose literals come too; "TestS" alone is every method of the suite
// named Test…, and so is gocheck's test function (GoCheckSuites) of every
// suite the files register. ok is false when no file declares the test, or
// the suite's method (or a file does not parse).
func GoTestLits(srcs [][]byte, test string) (lits []Lit, ok bool) {
	test, sub, _ := strings.Cut(test, "/")
	sub, _, _ = strings.Cut(sub, "/")
	vars := map[string][]ast.Expr{}
	var body *ast.FuncDecl
	var files []*goFile
	for _, src := range srcs {
		f, err := parseGo("", src)
		if err != nil {
			return nil, false
		}
		files = append(files, f)
		for _, d := range f.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == test && d.Body != nil {
					body = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR && d.Tok != token.CONST {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					for _, n := range vs.Names {
						vars[n.Name] = append(vars[n.Name], vs.Values...)
					}
				}
			}
		}
	}
	if body == nil {
		return nil, false
	}
	seen := map[string]bool{}
	queue := []ast.Node{body.Body}
	var types []string
	for t, runners := range GoSuites(srcs) {
		if slices.Contains(runners, test) {
			types = append(types, t)
		}
	}
	if runners, suites, _ := GoCheckSuites(srcs); slices.Contains(runners, test) {
		types = append(types, suites...)
	}
	switch {
	case len(types) == 0:
	case sub != "":
		m := suiteMethodBody(files, types, sub)
		if m == nil {
			return nil, false
		}
		queue = append(queue, m)
	default:
		// The whole suite: every case of it.
		for _, g := range files {
			for _, d := range g.f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Body != nil && strings.HasPrefix(fn.Name.Name, "Test") &&
					slices.Contains(types, suiteRecv(fn.Recv)) {
					queue = append(queue, fn.Body)
				}
			}
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		lits = append(lits, goLits(n)...)
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !seen[id.Name] {
				seen[id.Name] = true
				for _, e := range vars[id.Name] {
					queue = append(queue, e)
				}
			}
			return true
		})
	}
	return lits, true
}

// goLits returns every literal under n: scalars (a negated number as its
// negative) and all-literal composites, at any depth.
func goLits(n ast.Node) []Lit {
	var out []Lit
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if l, ok := goScalar(x); ok {
				out = append(out, l)
				return false
			}
		case *ast.BasicLit:
			if l, ok := goScalar(x); ok {
				out = append(out, l)
			}
		case *ast.CompositeLit:
			if l, ok := goComposite(x); ok {
				out = append(out, l)
			}
		}
		return true
	})
	return out
}

// goScalar reads a basic literal, or a negated or plus-signed number.
func goScalar(e ast.Expr) (Lit, bool) {
	switch x := unparenExpr(e).(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		switch v.Kind() {
		case constant.String:
			return Lit{Kind: "s", Value: constant.StringVal(v)}, true
		case constant.Int, constant.Float:
			return Lit{Kind: "n", Value: v.ExactString()}, true
		}
	case *ast.UnaryExpr:
		if x.Op != token.SUB && x.Op != token.ADD {
			return Lit{}, false
		}
		b, ok := unparenExpr(x.X).(*ast.BasicLit)
		if !ok || (b.Kind != token.INT && b.Kind != token.FLOAT) {
			return Lit{}, false
		}
		v := constant.MakeFromLiteral(b.Value, b.Kind, 0)
		if v.Kind() == constant.Unknown {
			return Lit{}, false
		}
		return Lit{Kind: "n", Value: constant.UnaryOp(x.Op, v, 0).ExactString()}, true
	}
	return Lit{}, false
}

// goComposite reads a composite literal whose every leaf is a literal,
// true, false or nil.
func goComposite(c *ast.CompositeLit) (Lit, bool) {
	var parts []string
	keyed := false
	for _, e := range c.Elts {
		var k, v ast.Expr = nil, e
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			k, v, keyed = kv.Key, kv.Value, true
		}
		vs, ok := goLeaf(v)
		if !ok {
			return Lit{}, false
		}
		if k != nil {
			ks, ok := goLeaf(k)
			if !ok {
				if id, isID := k.(*ast.Ident); isID { // a struct field name
					ks, ok = id.Name, true
				}
			}
			if !ok {
				return Lit{}, false
			}
			vs = ks + ":" + vs
		}
		parts = append(parts, vs)
	}
	if keyed {
		slices.Sort(parts)
		return Lit{Kind: "c", Value: "{" + strings.Join(parts, ",") + "}", Elems: len(parts)}, true
	}
	return Lit{Kind: "c", Value: "[" + strings.Join(parts, ",") + "]", Elems: len(parts)}, true
}

// goLeaf returns the canonical text of a composite's element.
func goLeaf(e ast.Expr) (string, bool) {
	e = unparenExpr(e)
	if l, ok := goScalar(e); ok {
		if l.Kind == "s" {
			return strconv.Quote(l.Value), true
		}
		return l.Value, true
	}
	switch x := e.(type) {
	case *ast.Ident:
		switch x.Name {
		case "true", "false", "nil":
			return x.Name, true
		}
	case *ast.CompositeLit:
		if l, ok := goComposite(x); ok {
			return l.Value, true
		}
	}
	return "", false
}

// GoDecisions returns the decisions of Go source src that touch one of the
// changed lines (sorted 1-based line numbers): an if whose header or a
// return directly in whose body is changed; a case clause likewise (the
// switch's tag compared with each case value); an entry of a table
// (Decision.Table) that is changed: an element of a composite literal
// that is a key and a value whose key is a literal (a map's entry; a
// struct's field name is no key), or a row — a composite element of two
// or more elements, all of whose literals are its key (which of them are
// the answers cannot be told: a row is judged by the inputs it holds, see
// Overfitting). Source that does not parse has none (the caller has other
// rules for it). A changed string literal no decision holds that spells
// out two or more numbers is one too (Decision.Kind "string").
func GoDecisions(src []byte, changed []int) []Decision {
	g, err := parseGo("", src)
	if err != nil {
		return nil
	}
	isChanged := func(from, to token.Pos) bool {
		a, b := g.line(from), g.line(to)
		i, _ := slices.BinarySearch(changed, a)
		return i < len(changed) && changed[i] <= b
	}
	var out []Decision
	returnsOf := func(body []ast.Stmt) ([]Lit, bool) {
		var lits []Lit
		changedRet := false
		for _, s := range body {
			if r, ok := s.(*ast.ReturnStmt); ok {
				lits = append(lits, goReturnLits(r)...)
				changedRet = changedRet || isChanged(r.Pos(), r.End())
			}
		}
		return lits, changedRet
	}
	rows := map[*ast.CompositeLit]bool{}
	seen := map[*ast.BasicLit]bool{} // strings a decision above holds
	judged := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok {
				seen[b] = true
			}
			return true
		})
	}
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			if rows[x] {
				break // judged whole as a row (code inside is judged below)
			}
			for _, e := range x.Elts {
				if !isChanged(e.Pos(), e.End()) {
					continue
				}
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					key, ok := goLiteral(kv.Key)
					if !ok {
						continue // a field name, or a computed key
					}
					judged(kv.Key)
					d := Decision{Line: g.line(kv.Pos()), Text: "entry " + g.text(kv), Kind: "entry",
						Cond: append([]Lit{key}, goComposites(kv.Key)...), Returns: goComposites(kv.Value)}
					if l, ok := goScalar(kv.Value); ok {
						d.Returns = append(d.Returns, l)
					}
					out = append(out, d)
					continue
				}
				row, ok := unparenExpr(e).(*ast.CompositeLit)
				if !ok || len(row.Elts) < 2 {
					continue
				}
				rows[row] = true
				judged(row)
				out = append(out, Decision{Line: g.line(row.Pos()), Text: "row " + g.text(row), Kind: "entry", Cond: goLits(row)})
			}
		case *ast.IfStmt:
			rets, retChanged := returnsOf(x.Body.List)
			if isChanged(x.Pos(), x.Body.Lbrace) || retChanged {
				judged(x.Cond)
				out = append(out, Decision{Line: g.line(x.Cond.Pos()), Text: "if " + g.text(x.Cond), Cond: goCondLits(x.Cond), Returns: rets, ConjEq: goConjEq(x.Cond)})
			}
		case *ast.SwitchStmt:
			for _, s := range x.Body.List {
				cc := s.(*ast.CaseClause)
				rets, retChanged := returnsOf(cc.Body)
				if len(cc.List) == 0 || !(isChanged(cc.Pos(), cc.Colon) || retChanged) {
					continue
				}
				for _, e := range cc.List {
					judged(e)
				}
				d := Decision{Line: g.line(cc.Pos()), Text: "case " + g.text(cc.List[0]), Returns: rets}
				for _, e := range cc.List {
					if x.Tag == nil {
						d.Cond = append(d.Cond, goCondLits(e)...)
						if len(cc.List) == 1 {
							d.ConjEq = goConjEq(e)
						}
						continue
					}
					// A case value is compared with the tag.
					if l, ok := goLiteral(e); ok {
						d.Cond = append(d.Cond, l)
					}
					d.Cond = append(d.Cond, goComposites(e)...)
				}
				if x.Tag != nil {
					d.Cond = append(d.Cond, goComposites(x.Tag)...)
				}
				out = append(out, d)
			}
		}
		return true
	})
	// Strings that spell a list of numbers out, anywhere else.
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.BasicLit:
			if x.Kind != token.STRING || seen[x] || !isChanged(x.Pos(), x.End()) {
				return true
			}
			l, ok := goScalar(x)
			if _, numbers := numbersOf(l.Value); ok && numbers {
				out = append(out, Decision{Line: g.line(x.Pos()), Text: "string " + x.Value, Kind: "string", Cond: []Lit{l}})
			}
		}
		return true
	})
	slices.SortStableFunc(out, func(a, b Decision) int { return a.Line - b.Line })
	return out
}

// goLiteral reads an expression that is a literal: a scalar or an
// all-literal composite.
func goLiteral(e ast.Expr) (Lit, bool) {
	if l, ok := goScalar(e); ok {
		return l, true
	}
	if c, ok := unparenExpr(e).(*ast.CompositeLit); ok {
		return goComposite(c)
	}
	return Lit{}, false
}

// goComposites returns the all-literal composites under n.
func goComposites(n ast.Node) []Lit {
	var out []Lit
	for _, l := range goLits(n) {
		if l.Kind == "c" {
			out = append(out, l)
		}
	}
	return out
}

// goCondLits returns the literals a condition compares with and its
// composites.
func goCondLits(e ast.Expr) []Lit {
	out := goComposites(e)
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok {
			return true
		}
		switch b.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			for _, side := range []ast.Expr{b.X, b.Y} {
				if l, ok := goScalar(side); ok {
					out = append(out, l)
				}
			}
		}
		return true
	})
	return out
}

// goReturnLits returns the results of a return that are literals, and the
// composites in all of them.
func goReturnLits(r *ast.ReturnStmt) []Lit {
	var out []Lit
	for _, e := range r.Results {
		if l, ok := goScalar(e); ok {
			out = append(out, l)
		}
		out = append(out, goComposites(e)...)
	}
	return out
}

// goConjEq returns the literals of a conjunction of two or more equality
// comparisons each against a scalar literal, or nil.
func goConjEq(e ast.Expr) []Lit {
	var terms []ast.Expr
	var flatten func(e ast.Expr)
	flatten = func(e ast.Expr) {
		if b, ok := unparenExpr(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		terms = append(terms, unparenExpr(e))
	}
	flatten(e)
	if len(terms) < 2 {
		return nil
	}
	var out []Lit
	for _, t := range terms {
		b, ok := t.(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL {
			return nil
		}
		l, ok := goScalar(b.Y)
		if !ok {
			if l, ok = goScalar(b.X); !ok {
				return nil
			}
		}
		out = append(out, l)
	}
	return out
}

// GoFileLits returns every literal of Go source (for the baseline side of
// Overfitting), and false when it does not parse.
func GoFileLits(src []byte) ([]Lit, bool) {
	g, err := parseGo("", src)
	if err != nil {
		return nil, false
	}
	return goLits(g.f), true
}
