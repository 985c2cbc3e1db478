package mutant

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// group is the candidates that rewrite one byte range of a file, and the
// groups nested in it.
type group struct {
	start, end int
	nodes      []*candidate // the alternatives that rewrite the node itself
	wraps      []*candidate // applied in ID order around the rendered node
	variants   []*candidate // data mutants of a value, selected at run time
	decl       []*candidate // constants of the declaration that become variables
	embeds     []*candidate // data mutants of an embedded file
	children   []*group
	fixed      *string // an edit's replacement text, while a variant renders
}

// Limits on the size of a rewritten file: maxGrowth times the original plus
// maxExtra bytes.
const (
	maxGrowth = 32
	maxExtra  = 4 << 20
)

// renderer rewrites one file's source.
type renderer struct {
	a       *analysis
	src     []byte
	names   names
	helpers *helpers
	limit   int   // the largest text a rewrite may produce
	edit    *edit // the edit of the variant being rendered, if any
}

// edit replaces the bytes [start, end) of a file by text: one data
// mutant's change within a value.
type edit struct {
	start, end int
	text       string
}

func (r *renderer) file(cs []*candidate) (string, error) {
	byRange := make(map[[2]int]*group)
	var groups []*group
	for _, c := range cs {
		k := [2]int{c.start, c.end}
		g := byRange[k]
		if g == nil {
			g = &group{start: c.start, end: c.end}
			byRange[k] = g
			groups = append(groups, g)
		}
		switch c.how {
		case rewriteNode:
			if len(g.nodes) > 0 && g.nodes[0].node != c.node {
				return "", fmt.Errorf("sites %s and %s rewrite different nodes of one range", g.nodes[0].site, c.site)
			}
			g.nodes = append(g.nodes, c)
		case rewriteEmbed:
			g.embeds = append(g.embeds, c)
		case rewriteVariant:
			g.variants = append(g.variants, c)
		case rewriteDecl:
			g.decl = append(g.decl, c)
		default:
			g.wraps = append(g.wraps, c)
		}
	}
	byID := func(a, b *candidate) int { return cmp.Compare(a.site.ID, b.site.ID) }
	for _, g := range groups {
		slices.SortFunc(g.nodes, byID)
		slices.SortFunc(g.wraps, byID)
		slices.SortFunc(g.variants, byID)
		slices.SortFunc(g.embeds, byID)
	}
	// Nest the groups: outer ranges first.
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	var roots []*group
	var stack []*group
	for _, g := range groups {
		for len(stack) > 0 && stack[len(stack)-1].end <= g.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, g)
		} else {
			top := stack[len(stack)-1]
			if g.end > top.end {
				return "", fmt.Errorf("rewritten ranges overlap at offsets %d and %d", top.start, g.start)
			}
			top.children = append(top.children, g)
		}
		stack = append(stack, g)
	}
	return r.span(0, len(r.src), roots)
}

// span renders src[start:end], replacing the given groups, which lie within
// it and are sorted, and applying the current edit when it falls in the
// span outside every group.
func (r *renderer) span(start, end int, groups []*group) (string, error) {
	if e := r.edit; e != nil && start <= e.start && e.end <= end {
		inside := false
		for _, g := range groups {
			if g.start <= e.start && e.end <= g.end && (g.start != e.start || g.end != e.end) {
				inside = true
			}
		}
		if !inside {
			var kept []*group
			for _, g := range groups {
				if g.end <= e.start || g.start >= e.end {
					kept = append(kept, g)
				}
			}
			text := e.text
			kept = append(kept, &group{start: e.start, end: e.end, fixed: &text})
			slices.SortFunc(kept, func(a, b *group) int { return cmp.Compare(a.start, b.start) })
			groups = kept
		}
	}
	var b strings.Builder
	at := start
	for _, g := range groups {
		if g.start < at || g.end > end {
			return "", fmt.Errorf("rewritten range %d-%d is outside %d-%d", g.start, g.end, at, end)
		}
		b.Write(r.src[at:g.start])
		text, err := r.group(g)
		if err != nil {
			return "", err
		}
		// Keep a rewrite from gluing to a neighbouring token, as in
		// `return+x*2` → `return sealgateH1(...)`.
		if s := b.String(); s != "" && text != "" && isWordByte(s[len(s)-1]) && isWordByte(text[0]) {
			b.WriteByte(' ')
		}
		b.WriteString(text)
		if g.end < end && text != "" && isWordByte(text[len(text)-1]) && isWordByte(r.src[g.end]) {
			b.WriteByte(' ')
		}
		at = g.end
		if b.Len() > r.limit {
			return "", fmt.Errorf("the rewrite exceeds %d bytes: too many nested sites", r.limit)
		}
	}
	b.Write(r.src[at:end])
	return b.String(), nil
}

// isWordByte reports whether c can continue an identifier, keyword or
// number.
func isWordByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// within returns the groups of gs that lie in [start, end).
func within(gs []*group, start, end int) []*group {
	var out []*group
	for _, g := range gs {
		if g.start >= start && g.end <= end {
			out = append(out, g)
		}
	}
	return out
}

func (r *renderer) group(g *group) (string, error) {
	if g.fixed != nil {
		return *g.fixed, nil
	}
	if len(g.decl) > 0 {
		return r.declaration(g)
	}
	if len(g.embeds) > 0 {
		return r.embedded(g), nil
	}
	text, err := r.plain(g)
	if err != nil {
		return "", err
	}
	if len(g.variants) > 0 {
		text, err = r.variants(g, text)
		if err != nil {
			return "", err
		}
	}
	if len(text) > r.limit {
		return "", fmt.Errorf("site %s: the rewrite exceeds %d bytes: too many nested sites", g.site(), r.limit)
	}
	return text, nil
}

// plain renders a group's node rewrite (or its text) and its wraps.
func (r *renderer) plain(g *group) (string, error) {
	var text string
	var err error
	if len(g.nodes) > 0 {
		text, err = r.node(g)
	} else {
		text, err = r.span(g.start, g.end, g.children)
	}
	if err != nil {
		return "", err
	}
	for _, c := range g.wraps {
		text = r.wrap(c, text)
	}
	return text, nil
}

// variants renders a value with data mutants: a function literal that
// returns the variant of the running mutant, or the value.
func (r *renderer) variants(g *group, original string) (string, error) {
	outer := r.edit
	defer func() { r.edit = outer }()
	if outer != nil {
		return "", fmt.Errorf("site %s: data mutants nested in a data mutant", g.site())
	}
	var ids []string
	var cases strings.Builder
	for _, c := range g.variants {
		ids = append(ids, fmt.Sprint(c.site.ID))
		e := c.edit
		r.edit = &e
		text, err := r.plain(g)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&cases, "case %d: return %s; ", c.site.ID, text)
	}
	r.edit = nil
	return fmt.Sprintf("func() %s { switch %s(%s) { %s}; return %s }()", g.variants[0].closure, r.names.id("Sel"), strings.Join(ids, ", "), cases.String(), original), nil
}

// declaration renders a constant declaration some of whose constants become
// variables, so that their data mutants can be switched at run time.
func (r *renderer) declaration(g *group) (string, error) {
	decl := g.decl[0].convert
	convert := make(map[ast.Spec]bool)
	for _, c := range g.decl {
		convert[c.spec] = true
	}
	base := decl.Pos()
	off := func(p token.Pos) int { return g.start + int(p-base) }
	specText := func(s ast.Spec) (string, error) {
		st, en := off(s.Pos()), off(s.End())
		return r.span(st, en, within(g.children, st, en))
	}
	var b strings.Builder
	if !decl.Lparen.IsValid() {
		text, err := specText(decl.Specs[0])
		if err != nil {
			return "", err
		}
		b.WriteString("var ")
		b.WriteString(text)
		return b.String(), nil
	}
	open := false
	at := off(decl.Lparen) + 1
	for _, s := range decl.Specs {
		gap := string(r.src[at:off(s.Pos())])
		text, err := specText(s)
		if err != nil {
			return "", err
		}
		switch {
		case convert[s] && open:
			b.WriteString("\n)\n" + gap + "var " + text + "\n")
			open = false
		case convert[s]:
			b.WriteString(gap + "var " + text + "\n")
		case !open:
			b.WriteString("const (" + gap + text)
			open = true
		default:
			b.WriteString(gap + text)
		}
		at = off(s.End())
	}
	rest := string(r.src[at:off(decl.Rparen)])
	if open {
		b.WriteString(rest + "\n)")
	} else {
		b.WriteString(strings.TrimRight(rest, " \t\n"))
	}
	return b.String(), nil
}

// site returns a site of g, for messages.
func (g *group) site() Site {
	switch {
	case len(g.nodes) > 0:
		return g.nodes[0].site
	case len(g.embeds) > 0:
		return g.embeds[0].site
	case len(g.wraps) > 0:
		return g.wraps[0].site
	case len(g.variants) > 0:
		return g.variants[0].site
	case len(g.decl) > 0:
		return g.decl[0].site
	}
	return Site{}
}

// pieces renders the given operand nodes of g's node, checking that every
// nested group falls in one of them.
func (r *renderer) pieces(g *group, nodes ...ast.Node) ([]string, error) {
	out := make([]string, len(nodes))
	used := 0
	for i, n := range nodes {
		s, e := r.offset(g, n)
		inner := within(g.children, s, e)
		used += len(inner)
		text, err := r.span(s, e, inner)
		if err != nil {
			return nil, err
		}
		out[i] = text
	}
	if used != len(g.children) {
		return nil, fmt.Errorf("site %s: a nested site is outside the operands", g.nodes[0].site)
	}
	return out, nil
}

// offset converts n's position to offsets, relative to g's node whose
// offsets are known.
func (r *renderer) offset(g *group, n ast.Node) (int, int) {
	base := g.nodes[0].node.Pos()
	return g.start + int(n.Pos()-base), g.start + int(n.End()-base)
}

// on and off are the conditions "mutant id runs" and "it does not": the
// comparison gives an untyped boolean and keeps vet from reading the
// conditions of nested sites as contradictions.
func (r *renderer) on(id int) string  { return fmt.Sprintf("%s(%d) == %d", r.names.id("M"), id, id) }
func (r *renderer) off(id int) string { return fmt.Sprintf("%s(%d) != %d", r.names.id("M"), id, id) }

// pick renders the call that selects among the alternatives cs: the code
// of the running one's operator, or 0.
func (r *renderer) pick(cs []*candidate) string {
	var args []string
	for _, c := range cs {
		code := int(c.to)
		if c.site.Operator == OpNotRemoval {
			code = 1
		}
		args = append(args, fmt.Sprint(c.site.ID), fmt.Sprint(code))
	}
	return fmt.Sprintf("%s(%s)", r.names.id("K"), strings.Join(args, ", "))
}

func tos(cs []*candidate) []token.Token {
	var out []token.Token
	for _, c := range cs {
		out = append(out, c.to)
	}
	return out
}

// typed renders a call of the typed helper for the alternatives cs, whose
// type lead names: a function of the switch file when the type can be
// named there, else a function literal at the site.
func (r *renderer) typed(lead *candidate, cs []*candidate, kind helperKind, args ...string) (string, error) {
	args = append([]string{r.pick(cs)}, args...)
	if lead.form == formHelper {
		typ, ok := r.a.pkgType(lead.typ, r.helpers.imps)
		if !ok {
			return "", fmt.Errorf("site %s: the type %s cannot be named in the switch file", lead.site, lead.typ)
		}
		name := r.helpers.get(kind, lead.from, typ, tos(cs)...)
		return fmt.Sprintf("%s(%s)", name, strings.Join(args, ", ")), nil
	}
	typ, ok := r.a.siteType(lead.typ, lead.pos)
	if !ok {
		return "", fmt.Errorf("site %s: the type %s cannot be named at the site", lead.site, lead.typ)
	}
	n := r.names
	body := n.helperBody(kind, lead.from, tos(cs), n.id("op"), n.id("x"), n.id("y"))
	return fmt.Sprintf("func%s { %s }(%s)", n.helperSignature(kind, typ), body, strings.Join(args, ", ")), nil
}

// node renders the rewrite of the candidates that replace their node, one
// of which at most runs.
func (r *renderer) node(g *group) (string, error) {
	cs := g.nodes
	c := cs[0]
	single := func() error {
		if len(cs) > 1 {
			return fmt.Errorf("sites %s and %s rewrite the same node", cs[0].site, cs[1].site)
		}
		return nil
	}
	on, off := r.on(c.site.ID), r.off(c.site.ID)
	switch n := c.node.(type) {
	case *ast.BinaryExpr:
		p, err := r.pieces(g, n.X, n.Y)
		if err != nil {
			return "", err
		}
		x, y := p[0], p[1]
		switch c.site.Operator {
		case OpArithmetic:
			return r.typed(c, cs, helperArith, x, y)
		case OpLogical:
			return r.logical(cs, x, y), nil
		}
		lead := c
		for _, a := range cs {
			if a.form != formPlain {
				lead = a
				break
			}
		}
		switch lead.form {
		case formHelper, formLocal:
			call, err := r.typed(lead, cs, helperOrder, x, y)
			if err != nil {
				return "", err
			}
			return "(" + call + " != 0)", nil
		case formCapture:
			return r.capture(lead, cs, x, y), nil
		case formPlain:
			if err := single(); err != nil {
				return "", err
			}
			// (x == y) != on: the comparison, negated when the mutant runs.
			return fmt.Sprintf("(((%s) %s (%s)) != (%s))", x, c.from, y, on), nil
		}
		// The operands are written once per branch; one branch runs.
		var b strings.Builder
		b.WriteString("(")
		var offs []string
		for _, a := range cs {
			fmt.Fprintf(&b, "%s && ((%s) %s (%s)) || ", r.on(a.site.ID), x, a.to, y)
			offs = append(offs, r.off(a.site.ID))
		}
		fmt.Fprintf(&b, "%s && ((%s) %s (%s)))", strings.Join(offs, " && "), x, c.from, y)
		return b.String(), nil
	case *ast.UnaryExpr:
		if err := single(); err != nil {
			return "", err
		}
		p, err := r.pieces(g, n.X)
		if err != nil {
			return "", err
		}
		if c.form == formXor {
			// x != off: !x, or x when the mutant runs.
			return fmt.Sprintf("((%s) != (%s))", p[0], off), nil
		}
		return r.typed(c, cs, helperNot, p[0])
	case *ast.Ident:
		if err := single(); err != nil {
			return "", err
		}
		if _, err := r.pieces(g); err != nil {
			return "", err
		}
		if n.Name == "true" {
			return "(" + off + ")", nil
		}
		return "(" + on + ")", nil
	case *ast.IncDecStmt:
		if err := single(); err != nil {
			return "", err
		}
		p, err := r.pieces(g, n.X)
		if err != nil {
			return "", err
		}
		return r.stmt(c, fmt.Sprintf("if %s { %s%s } else { %s%s }", on, p[0], c.to, p[0], c.from)), nil
	case *ast.AssignStmt:
		p, err := r.pieces(g, n.Lhs[0], n.Rhs[0])
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for i, a := range cs {
			if i > 0 {
				b.WriteString(" else ")
			}
			fmt.Fprintf(&b, "if %s { %s %s %s }", r.on(a.site.ID), p[0], a.to, p[1])
		}
		fmt.Fprintf(&b, " else { %s %s %s }", p[0], c.from, p[1])
		return r.stmt(c, b.String()), nil
	case *ast.BranchStmt:
		if err := single(); err != nil {
			return "", err
		}
		if _, err := r.pieces(g); err != nil {
			return "", err
		}
		from := c.from.String()
		if br, _ := c.node.(*ast.BranchStmt); br != nil && br.Label != nil {
			from += " " + br.Label.Name // the label dropped, or kept with the token changed
		}
		return fmt.Sprintf("if %s { %s } else { %s }", on, c.to, from), nil
	}
	return "", fmt.Errorf("site %s: unexpected node %T", c.site, c.node)
}

// logical renders && ↔ || and the removal of an operand, writing the left
// operand once (chains of && and || nest to the left) and the right one at
// most three times; each is evaluated at most once, the dropped one not at
// all.
func (r *renderer) logical(cs []*candidate, x, y string) string {
	var sw, dr, dl *candidate
	for _, c := range cs {
		switch c.drop {
		case dropRight:
			dr = c
		case dropLeft:
			dl = c
		default:
			sw = c
		}
	}
	var first, second string
	if cs[0].from == token.LAND {
		// x && y; x || y when sw runs; x when dr runs: when x holds, true
		// if sw or dr runs, else y; when it does not, y if sw runs.
		var a []string
		if sw != nil {
			a = append(a, r.on(sw.site.ID))
		}
		if dr != nil {
			a = append(a, r.on(dr.site.ID))
		}
		first = fmt.Sprintf("(%s) && (%s)", x, y)
		if len(a) > 0 {
			first = fmt.Sprintf("(%s) && (%s || (%s))", x, strings.Join(a, " || "), y)
		}
		if sw != nil {
			second = fmt.Sprintf(" || %s && (%s)", r.on(sw.site.ID), y)
		}
	} else {
		// x || y; x && y when sw runs; x when dr runs: when x holds, y if
		// sw runs, else true; when it does not, y unless sw or dr runs.
		first = "(" + x + ")"
		var c []string
		if sw != nil {
			first = fmt.Sprintf("(%s) && (%s || (%s))", x, r.off(sw.site.ID), y)
			c = append(c, r.off(sw.site.ID))
		}
		if dr != nil {
			c = append(c, r.off(dr.site.ID))
		}
		if len(c) > 0 {
			second = fmt.Sprintf(" || %s && (%s)", strings.Join(c, " && "), y)
		} else {
			second = fmt.Sprintf(" || (%s)", y)
		}
	}
	text := "(" + first + second + ")"
	if dl != nil {
		// y alone when dl runs: x is not evaluated.
		text = fmt.Sprintf("(%s && (%s) || %s && %s)", r.on(dl.site.ID), y, r.off(dl.site.ID), text)
	}
	return text
}

// capture renders a comparison without naming its operands' type: a
// function literal evaluates the operands that are not constants into
// variables, in order, and compares them.
func (r *renderer) capture(lead *candidate, cs []*candidate, x, y string) string {
	vx, vy := x, y
	var names, values []string
	if lead.capture[0] {
		vx = r.names.id("x")
		names, values = append(names, vx), append(values, x)
	}
	if lead.capture[1] {
		vy = r.names.id("y")
		names, values = append(names, vy), append(values, y)
	}
	decl := ""
	if len(names) > 0 {
		decl = strings.Join(names, ", ") + " := " + strings.Join(values, ", ") + "; "
	}
	body := r.names.helperBody(helperOrder, lead.from, tos(cs), r.pick(cs), "("+vx+")", "("+vy+")")
	return fmt.Sprintf("(func() int { %s%s }() != 0)", decl, body)
}

// embedded renders a variable that embedded a file: the directive becomes
// a plain comment and the variable is initialized with the content, or the
// running mutant's variant of it.
func (r *renderer) embedded(g *group) string {
	ev := g.embeds[0].embed
	text := []byte(string(r.src[g.start:g.end]))
	var out []byte
	at := 0
	for _, d := range ev.directives {
		rel := d - g.start
		out = append(out, text[at:rel]...)
		out = append(out, "// go:embed"...)
		at = rel + len("//go:embed")
	}
	out = append(out, text[at:]...)
	s := r.names.id("s")
	var ids []string
	var cases strings.Builder
	for _, c := range g.embeds {
		ids = append(ids, fmt.Sprint(c.site.ID))
		fmt.Fprintf(&cases, "case %d: return %s(%s[:%d] + %s + %s[%d:]); ", c.site.ID, ev.typ, s, c.edit.start, strconv.Quote(c.edit.text), s, c.edit.end)
	}
	return fmt.Sprintf("%s = func() %s { %s := %s; switch %s(%s) { %s}; return %s(%s) }()", out, ev.typ, s, strconv.Quote(string(ev.content)),
		r.names.id("Sel"), strings.Join(ids, ", "), cases.String(), ev.typ, s)
}

// stmt places an if statement where the original statement was: as is in a
// statement list, as a called function literal elsewhere (a for loop's post
// statement, an if or switch init statement).
func (r *renderer) stmt(c *candidate, ifStmt string) string {
	if c.list {
		return ifStmt
	}
	return "func() { " + ifStmt + " }()"
}

// wrap renders a candidate that wraps the rendered text of its range.
func (r *renderer) wrap(c *candidate, text string) string {
	id := c.site.ID
	switch c.site.Operator {
	case OpIntConstant:
		off := fmt.Sprintf("(1 >> %s(%d))", r.names.id("Off"), id)
		switch {
		case c.to == token.ADD || c.to == token.SUB:
			return fmt.Sprintf("(%s %s %s)", text, c.to, off)
		case c.value == nil:
			return text
		case c.to == token.SHL:
			// c * (1 + on): 2c when the mutant runs, c written once.
			return fmt.Sprintf("(%s * (1 + %s))", text, off)
		case c.value.String() == "0":
			// c - c*on: 0 when the mutant runs.
			return fmt.Sprintf("(%s - %s*%s)", text, text, off)
		}
		// c - c*on - c*on: -c when the mutant runs, without a constant
		// that could overflow the type.
		return fmt.Sprintf("(%s - %s*%s - %s*%s)", text, text, off, text, off)
	case OpConstantValue:
		off := fmt.Sprintf("(1 >> %s(%d))", r.names.id("Off"), id)
		switch c.str[1] {
		case "+1":
			return fmt.Sprintf("((%s) + %s)", text, off)
		case "-1":
			return fmt.Sprintf("((%s) - %s)", text, off)
		case "×0":
			// c * (1 - on): 0 when the mutant runs.
			return fmt.Sprintf("((%s) * (1 - %s))", text, off)
		}
		// c * (1 + on): 2c when the mutant runs.
		return fmt.Sprintf("((%s) * (1 + %s))", text, off)
	case OpConditionNegation:
		// on != cond: cond, or its negation when the mutant runs (on is
		// an untyped boolean, so a named boolean type stays right).
		return fmt.Sprintf("((%s) != (%s))", r.on(id), text)
	case OpStringLiteral:
		// The string, or the other one when the mutant runs: chosen by
		// index, so that the text (another site's wrap of the same
		// literal, whatever its length then) is evaluated once.
		one := fmt.Sprintf("(1 >> %s(%d))", r.names.id("Off"), id)
		if c.strSlice {
			// A typed constant (the only text such a site has): sliced
			// to "" when the mutant runs, of its own type.
			return fmt.Sprintf("%s[:len(%s)*(1-%s)]", text, text, one)
		}
		return fmt.Sprintf("[2]%s{%s, %s}[%s]", cmp.Or(c.typeText, "string"), text, strconv.Quote(c.str[1]), one)
	case OpCommNever:
		// The channel, or a nil one of its type when the mutant runs:
		// still a receive or a send, as a select's case must be.
		one := fmt.Sprintf("(1 >> %s(%d))", r.names.id("Off"), id)
		return fmt.Sprintf("[2]%s{%s, nil}[%s]", c.typeText, text, one)
	case OpReturnZero:
		return fmt.Sprintf("if %s { return %s } else { %s }", r.on(id), strings.Join(c.zeros, ", "), text)
	case OpConversionWidening:
		// The conversion computed in the wide type when the mutant runs,
		// else as written, each evaluated only when chosen.
		return fmt.Sprintf("func() %s { if %s { return (%s) }; return %s }()", c.typeText, r.on(id), c.str[1], text)
	case OpRestore:
		if c.stmts {
			// The baseline's statements when the mutant runs, else the
			// patch's: one block, whatever the range was.
			return fmt.Sprintf("{ if %s { %s } else { %s } }", r.on(id), c.str[1], text)
		}
		// The baseline's expression when the mutant runs, else the
		// patch's, each evaluated only when chosen.
		return fmt.Sprintf("func() %s { if %s { return (%s) }; return %s }()", c.typeText, r.on(id), c.str[1], text)
	case OpReturnNonNil:
		vals := slices.Clone(c.zeros)
		for i, v := range vals {
			if v == nonNilError {
				vals[i] = r.names.id("Err") + "{}"
			}
		}
		return fmt.Sprintf("if %s { return %s } else { %s }", r.on(id), strings.Join(vals, ", "), text)
	case OpBranchRemoval:
		if c.to == token.ELSE {
			return fmt.Sprintf("(%s || (%s))", r.on(id), text)
		}
		return fmt.Sprintf("(%s && (%s))", r.off(id), text)
	case OpStatementRemoval:
		return fmt.Sprintf("if %s { %s }", r.off(id), text)
	case OpLoopNever, OpDefaultNever:
		// The body's brace or the default's colon, then a break when the
		// mutant runs; a default that may end its function returns its
		// zero values instead.
		if len(c.zeros) > 0 {
			return fmt.Sprintf("%s if %s { return %s };", text, r.on(id), strings.Join(c.zeros, ", "))
		}
		return fmt.Sprintf("%s if %s { break };", text, r.on(id))
	case OpSwitchTag:
		switch c.to {
		case token.NOT:
			return fmt.Sprintf("((%s) != (%s))", r.on(id), text)
		case token.STRING:
			one := fmt.Sprintf("(1 >> %s(%d))", r.names.id("Off"), id)
			return fmt.Sprintf("[2]string{%s, \"\"}[%s]", text, one)
		}
		// tag * (1 - on): 0 when the mutant runs, the tag evaluated once
		// and of its own type.
		return fmt.Sprintf("((%s) * (1 - (1 >> %s(%d))))", text, r.names.id("Off"), id)
	case OpAssignZero:
		if c.inCond {
			// An if's condition, its init's variable zeroed first when
			// the mutant runs; == true keeps the result an untyped
			// boolean, so a named boolean type stays right.
			return fmt.Sprintf("(func() bool { if %s { %s = %s }; return true }() == true && (%s))", r.on(id), c.str[0], c.zeros[0], text)
		}
		if c.inInit {
			// A switch's or a for's init: the value, evaluated as
			// before, then zeroed when the mutant runs.
			v := r.names.id("v")
			return fmt.Sprintf("func(%s %s) %s { if %s { return %s }; return %s }(%s)", v, c.typeText, c.typeText, r.on(id), c.zeros[0], v, text)
		}
		// The statement, then its variable zeroed when the mutant runs.
		return fmt.Sprintf("%s; if %s { %s = %s }", text, r.on(id), c.str[0], c.zeros[0])
	}
	return text
}
