package mutation

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

func TestStatementsOf(t *testing.T) {
	src := []byte(`package p

import "fmt"

func f(xs []int, name string) (int, error) {
	n := len(xs)
	if n > 3 &&
		name != "" {
		return 0, fmt.Errorf("too many %s",
			name)
	}
	for i := 0; i < n; i++ {
		xs[i] = func() int {
			return i * 2
		}()
	}
	switch name {
	case "a",
		"b":
		n++
	}
	var err error
	if n > 9 {
		return 0, nil
	}
	return n, err
}

var v = 1

func g(x any) {
	switch x.(type) {
	case int:
	default:
	}
}

func h(kind string, guest string) error {
	switch kind {
	case "user",
		guest: return nil
	}
	if kind == "x" ||
		kind == guest { return nil }
	return nil
}

func k(n int, x any) int {
	switch n := n - 1; {
	case n > 3:
		return 1
	}
	switch v := x.(type) {
	case int:
		return v
	}
	return 0
}

func m(n int) int {
	switch n {
	case 1:
	default: n++
	}
	switch n {
	default:
	}
	return n
}

func s(ch chan int, done chan struct{}) error {
	select {
	case v := <-ch:
		return fmt.Errorf("%d", v)
	case <-done: return nil
	}
	select {
	case <-done:
	default: ch <- 1
	}
	select {
	default:
	}
	select {
	case <-done:
	default:
		ch <- 2
	}
	return nil
}
`)
	lines := []int{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 22, 23, 24, 25, 26, 28, 3, 31, 32, 33, 40, 41, 43, 44, 45, 49, 50, 53, 63, 66, 72, 73, 75, 78, 79, 82, 86}
	// Every token of the lines written (a file the patch adds).
	got := units(t, src, lines, nil, nil, true)
	want := map[int][]string{
		6:  {"p.go:6"},
		7:  {"p.go:7-8"},
		8:  {"p.go:7-8"},
		9:  {"p.go:9-10"},
		10: {"p.go:9-10"},
		// A for's header and its init and post statements: three units.
		12: {"p.go:12", "p.go:12", "p.go:12"},
		13: {"p.go:13-15"},
		14: {"p.go:14"},
		15: {"p.go:13-15"},
		// An expression switch's tag; its case label's values, each on
		// its own, and the label (the case keyword, the colon).
		17: {"p.go:17"},
		18: {`p.go:18 (case value "a")`, "p.go:18-19"},
		19: {"p.go:18-19", `p.go:19 (case value "b")`},
		20: {"p.go:20"},
		23: {"p.go:23"},
		24: {"p.go:24"},
		26: {"p.go:26"},
		// A label's or a condition's last line holding a `return nil`
		// written there: the label's value, the condition, and the
		// return (not its function's end: it skips what follows).
		40: {`p.go:40 (case value "user")`, "p.go:40-41"},
		41: {"p.go:40-41", "p.go:41", "p.go:41 (case value guest)"},
		43: {"p.go:43-44"},
		44: {"p.go:43-44", "p.go:44"},
		// A switch without a tag: its init statement, its conditions.
		49: {"p.go:49"},
		50: {"p.go:50", "p.go:50 (case value n > 3)"},
		// A default with a body, and the statement on its line.
		63: {"p.go:63", "p.go:63"},
		// A select's case, by the receive or send it holds, one whose
		// line ends in a `return nil` too; a select's default
		// with a body; a send, its channel and its value each on its
		// own.
		73: {"p.go:73"},
		75: {"p.go:75", "p.go:75"},
		78: {"p.go:78"},
		79: {"p.go:79", "p.go:79", "p.go:79 (channel ch)", "p.go:79 (sent value 1)"},
		86: {"p.go:86"},
		// A select's empty default: it stops the select waiting.
		82: {"p.go:82"},
		// A case of types with an empty body: it takes its values from
		// the cases below it.
		33: {"p.go:33"},
	}
	for _, l := range lines {
		if !slices.Equal(got[l], want[l]) {
			t.Errorf("line %d: got %q, want %q", l, got[l], want[l])
		}
	}
	// An import, a brace, var v T, a return of nil only, a package-level
	// variable, a type switch's header (and its guard) and its case of
	// types with a body, a switch's empty default, a select's header: none (above,
	// no want).

	// Only what the patch wrote, or deleted before, is judged.
	at := func(s string) [2]int {
		i := bytes.Index(src, []byte(s))
		if i < 0 {
			t.Fatalf("%q not in src", s)
		}
		return [2]int{i, i + len(s)}
	}
	inside := func(s, sub string) [2]int { // sub where it is in s
		a := at(s)
		i := bytes.Index(src[a[0]:a[1]], []byte(sub))
		return [2]int{a[0] + i, a[0] + i + len(sub)}
	}
	written := [][2]int{at(`"b"`), inside("guest: return nil", "guest"), inside("default: n++", "n++"), inside("ch <- 1", "1"), at("i < n")}
	got = units(t, src, []int{7, 8, 12, 19, 41, 63, 79}, written, []int{at(`name != ""`)[0]}, false)
	want = map[int][]string{
		// Nothing written on line 7: it counts whole. A deletion before
		// the condition's second line.
		7:  {"p.go:7-8"},
		8:  {"p.go:7-8"},
		12: {"p.go:12"},
		19: {`p.go:19 (case value "b")`},
		41: {"p.go:41 (case value guest)"},
		63: {"p.go:63"},
		79: {"p.go:79 (sent value 1)"},
	}
	for l, w := range want {
		if !slices.Equal(got[l], w) {
			t.Errorf("written only: line %d: got %q, want %q", l, got[l], w)
		}
	}
	if indexStatements("p.go", []byte("package p\nfunc {"), nil) != nil {
		t.Error("a file that does not parse has statements")
	}
}

// units returns what judges each of lines of src (see statementsOf), as
// strings.
func units(t *testing.T, src []byte, lines []int, written [][2]int, deleted []int, all bool) map[int][]string {
	t.Helper()
	got := map[int][]string{}
	for u, ls := range indexStatements("p.go", src, nil).statementsOf(src, lines, written, deleted, all) {
		for _, l := range ls {
			got[l] = append(got[l], u.String())
		}
	}
	for l := range got {
		slices.Sort(got[l])
	}
	return got
}

func TestUnkilledStatements(t *testing.T) {
	at := func(path string, line, off int, part string) stmtRange {
		return stmtRange{path: path, first: line, last: line, off: off, part: part}
	}
	site := func(path string, line, col int) mutant.Site {
		return mutant.Site{File: path, Line: line, Col: col, Operator: mutant.OpArithmetic}
	}
	label, body := at("a/p.go", 6, 40, ""), at("a/p.go", 6, 60, "")
	value := at("a/p.go", 6, 45, `case value "root"`)
	twoLines := stmtRange{path: "a/p.go", first: 9, last: 10, off: 90}
	sts := statementList(map[stmtRange][]int{
		label: {6}, value: {6}, body: {6}, twoLines: {10},
		at("a/p.go", 12, 120, ""): {12},
		at("b/q.go", 3, 30, ""):   {3},
	}, map[stmtRange][]mutant.Site{
		label:                     {site("a/p.go", 6, 8)},
		value:                     {site("a/p.go", 6, 8)},
		body:                      {site("a/p.go", 6, 30)},
		twoLines:                  {site("a/p.go", 9, 2), site("a/p.go", 10, 4)},
		at("a/p.go", 12, 120, ""): {site("a/p.go", 12, 3)},
		at("b/q.go", 3, 30, ""):   {site("b/q.go", 3, 3)},
	})
	outcomes := map[string]string{
		siteKey(site("a/p.go", 6, 30)): jobs.OutcomeKilled, // the case's body, on the label's line
		siteKey(site("a/p.go", 9, 2)):  jobs.OutcomeKilled, // a line of the statement the patch left as it was
		siteKey(site("a/p.go", 12, 3)): jobs.OutcomeSurvived,
		siteKey(site("b/q.go", 3, 3)):  jobs.OutcomeStillborn,
	}
	var got []string
	for _, st := range unkilledStatements(sts, outcomes) {
		got = append(got, st.at.String())
	}
	want := []string{"a/p.go:6", `a/p.go:6 (case value "root")`, "a/p.go:9-10", "a/p.go:12", "b/q.go:3"}
	if !slices.Equal(got, want) {
		t.Errorf("unkilled: got %q, want %q", got, want)
	}
	outcomes[siteKey(site("a/p.go", 6, 8))] = jobs.OutcomeKilled
	outcomes[siteKey(site("a/p.go", 10, 4))] = jobs.OutcomeKilled
	got = nil
	for _, st := range unkilledStatements(sts, outcomes) {
		got = append(got, st.at.String())
	}
	if want := []string{"a/p.go:12", "b/q.go:3"}; !slices.Equal(got, want) {
		t.Errorf("unkilled once the label's value and the changed line are killed: got %q, want %q", got, want)
	}
}

func TestStatementFirst(t *testing.T) {
	primary := mutant.Site{File: "p.go", Line: 5, Col: 3, Operator: mutant.OpArithmetic}
	equivalent := mutant.Site{File: "p.go", Line: 8, Col: 3, Operator: mutant.OpArithmetic, Equivalent: "x*1"}
	extra := mutant.Site{File: "p.go", Line: 8, Col: 3, Operator: mutant.OpReturnZero, Extra: true}
	boundary := mutant.Site{File: "p.go", Line: 9, Col: 5, Operator: mutant.OpRelationalBoundary}
	flip := mutant.Site{File: "p.go", Line: 9, Col: 5, Operator: mutant.OpRelationalReplace, Extra: true}
	st := func(first, last int, sites ...mutant.Site) judgedStatement {
		j := judgedStatement{at: stmtRange{path: "p.go", first: first, last: last}}
		for _, s := range sites {
			j.sites = append(j.sites, siteKey(s))
			j.lines = append(j.lines, s.Line)
		}
		return j
	}
	sts := []judgedStatement{st(5, 5, primary), st(7, 8, equivalent, extra), st(9, 9)}
	got := statementFirst(sts, []mutant.Site{primary, equivalent}, []mutant.Site{primary, equivalent, extra})
	if len(got) != 2 || got[0] != primary || got[1] != extra {
		t.Errorf("got %v, want the primary site of line 5 and the extra of line 8 (line 9 offers none)", got)
	}
	// A boundary is picked last: an extra that changes more comes first.
	sts = []judgedStatement{st(9, 9, boundary, flip)}
	got = statementFirst(sts, []mutant.Site{boundary}, []mutant.Site{boundary, flip})
	if len(got) != 1 || got[0] != flip {
		t.Errorf("got %v, want the extra replacement before the boundary", got)
	}
	got = statementFirst(sts, []mutant.Site{boundary}, []mutant.Site{boundary})
	if len(got) != 1 || got[0] != boundary {
		t.Errorf("got %v, want the boundary when it is all the statement offers", got)
	}
	// A site on the statement's line but not inside it judges it not.
	got = statementFirst([]judgedStatement{st(9, 9)}, []mutant.Site{boundary}, []mutant.Site{boundary, flip})
	if len(got) != 0 {
		t.Errorf("got %v, want no site for a statement none lies in", got)
	}
}

func TestLabelSpans(t *testing.T) {
	src := []byte(`package p

func f(kind string, n int) int {
	switch kind {
	case "root", "admin":
		return 1
	}
	switch {
	case n > 3:
		return 2
	}
	switch any(n).(type) {
	case int:
	}
	return 0
}
`)
	var got []string
	for _, s := range labelSpans(src) {
		got = append(got, string(src[s[0]:s[1]]))
	}
	if want := []string{`"root"`, `"admin"`, "n > 3"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q (a type switch's types are no values)", got, want)
	}
	if labelSpans([]byte("package p\nfunc {")) != nil {
		t.Error("a file that does not parse has labels")
	}
}

// TestRewrittenUnits: a statement no operator changes — a zero return or
// var, a type switch's header or type case — is judged when the patch
// rewrites its tokens in place (an eighth adversary's MERGEs: an error
// swallowed, an empty slice returned as nil, a counter narrowed, a type
// switch's operand swapped), and not when the patch writes beside it (a
// statement added before a return of nil, a type added to a case) or
// rewrites a statement whose mutants judge it.
func TestRewrittenUnits(t *testing.T) {
	const base = `package p

type counter struct{ n int }

var limit int

func (c *counter) bump(by, step int) (n int) {
	var m int
	c.n += by * step
	if c.n > limit {
		return
	}
	m = c.n
	return m
}

func check(err error) error {
	if err != nil {
		return err
	}
	return nil
}

func list(xs []int) []int {
	if len(xs) == 0 {
		return []int{}
	}
	return xs
}

func kind(x, y any) string {
	switch v := y.(type) {
	case int:
		return fmt.Sprint(v)
	}
	return ""
}

func size(v int, flag bool) string {
	switch flag {
	case v > 10:
		return "big"
	}
	return "small"
}

func count(xs []int) string {
	switch n := len(xs); {
	case n > 2:
		return "many"
	}
	return "few"
}
`
	for _, tc := range []struct {
		name  string
		line  int
		after string // line's text on the patch side (may hold several lines)
		want  []string
	}{
		{"an error swallowed", 19, "\t\treturn nil", []string{"p.go:19 (rewritten in place)"}},
		{"an empty slice returned as nil", 26, "\t\treturn nil", []string{"p.go:26 (rewritten in place)"}},
		{"an error swallowed beside a new call", 19, "\t\tprintln(err)\n\t\treturn nil", []string{"p.go:20 (rewritten in place)"}},
		{"a zero var narrowed", 8, "\tvar m int8", []string{"p.go:8 (rewritten in place)"}},
		{"a type switch's operand swapped", 32, "\tswitch v := x.(type) {", []string{"p.go:32 (rewritten in place)"}},
		{"a type case's type changed", 33, "\tcase int8:", []string{"p.go:33 (rewritten in place)"}},
		// Not statements: compared at checkout (inspect.GoSignatureChanges).
		{"a pointer receiver made a value one", 7, "func (c counter) bump(by, step int) (n int) {", nil},
		{"a struct field narrowed", 3, "type counter struct{ n int8 }", nil},
		// Written beside: nothing rewritten in place.
		{"a type case gaining a type", 33, "\tcase int, int8:", nil},
		{"a statement added before a return of nil", 21, "\tprintln(err)\n\treturn nil", nil},
		{"a struct field added", 3, "type counter struct{ n, max int }", nil},
		// Judged by their mutants, not here.
		{"an assignment rewritten", 9, "\tc.n -= by * step", nil},
		{"a return's value rewritten", 14, "\treturn m + 1", nil},
		// A condition or a tag gone from what is now a switch without a
		// tag: the cases no longer depend on it, and nothing puts it back.
		{"an if rewritten into a switch without a tag", 10, "\tswitch {\n\tcase c.n > limit:", []string{"p.go:10 (rewritten in place)"}},
		{"a tag dropped for an init", 40, "\tswitch v := v * 2; {", []string{"p.go:40 (rewritten in place)"}},
		{"an init added beside a tag", 40, "\tswitch v := v * 2; flag {", nil},
		// A switch without a tag that had none: its init is judged.
		{"a tagless switch's init rewritten", 49, "\tswitch n := len(xs) + 1; {", nil},
		{"a tagless switch's init dropped", 49, "\tswitch {", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Split(base, "\n")
			patched := strings.Join(slices.Concat(lines[:tc.line-1], []string{tc.after}, lines[tc.line:]), "\n")
			added := strings.Split(tc.after, "\n")
			diff := fmt.Sprintf("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -%d +%d,%d @@\n-%s\n+%s\n", tc.line, tc.line, len(added), lines[tc.line-1], strings.Join(added, "\n+"))
			e := written([]byte(diff), func(string) ([]byte, bool) { return []byte(patched), true })
			dels, replaced := e.dels, e.replaced
			var got []string
			for u, ls := range indexStatements("p.go", []byte(patched), nil).rewrittenUnits([]byte(patched), replaced["p.go"], e.wrote["p.go"], dels["p.go"], e.runs["p.go"]) {
				got = append(got, u.String())
				if len(ls) != 1 || ls[0] != u.first {
					t.Errorf("%s: lines %v", u, ls)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("rewritten units %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShadowingVars: var v T that declares a name an enclosing scope
// holds (a parameter, an outer variable declared before it, a
// package-level name of this file or another file of the package, a
// predeclared name) shadows it; one in a sibling block, one declared
// after, or a new name does not.
func TestShadowingVars(t *testing.T) {
	src := `package p

var total int

func f(kind string, n int) int {
	ttl := 3
	if n > 1 {
		var ttl int
		ttl = n
	}
	if n > 2 {
		var kind string
		_ = kind
	}
	for i := 0; i < n; i++ {
		var total int
		total += i
	}
	{
		var fresh int
		fresh++
	}
	{
		var later int
		_ = later
	}
	later := 1
	_ = later
	{
		var true bool
		_ = true
	}
	{
		var grace int
		_ = grace
	}
	{
		var helper func()
		_ = helper
	}
	return ttl
}

func helper() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for st := range shadowingVars(f, map[string]bool{"grace": true}) { // grace: another file's
		got = append(got, fmt.Sprintf("%d", fset.Position(st.Pos()).Line))
	}
	slices.Sort(got)
	if want := []string{"12", "16", "30", "34", "38", "8"}; !slices.Equal(got, want) {
		t.Fatalf("shadowing var statements at lines %q, want %q", got, want)
	}
}

// TestPackageNamesOfImports: an import binds its package's name, which the
// path's last element does not always spell: math/rand/v2 binds rand,
// gopkg.in/yaml.v3 yaml, go-foo foo; a dot import may bind any name.
func TestPackageNamesOfImports(t *testing.T) {
	src := `package p

import (
	"math/rand/v2"
	"gopkg.in/yaml.v3"
	"github.com/x/go-colorful"
	str "strings"
	"net/http"
)
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := packageNames(f)
	for _, n := range []string{"rand", "yaml", "colorful", "str", "http"} {
		if !names[n] {
			t.Errorf("%s not bound: %v", n, names)
		}
	}
	if names[dotImport] {
		t.Errorf("no dot import, yet %v", names)
	}
	dot, err := parser.ParseFile(token.NewFileSet(), "p.go", "package p\n\nimport . \"math\"\n\nfunc f() float64 {\n\tvar Pi float64\n\treturn Pi\n}\n", parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	if len(shadowingVars(dot, nil)) != 1 {
		t.Errorf("var Pi under import . \"math\" does not shadow")
	}
}

// TestNarrowCounterJudged: var v T is exempt (no operator changes it, its
// uses judge it), except a counter in an integer type narrower than int:
// n++ on a uint8 wraps at 256, and nothing else would judge the type.
func TestNarrowCounterJudged(t *testing.T) {
	src := []byte(`package p

func f(s string) (int, int, byte) {
	var n uint8
	var m int
	var b byte
	var k int32
	for range s {
		n++
		m++
		k += 2
	}
	b = s[0]
	return int(n) + m + int(k), 0, b
}
`)
	ix := indexStatements("p.go", src, nil)
	exempt := map[string]bool{}
	for _, u := range ix.units {
		text := string(src[u.from:u.to])
		if strings.HasPrefix(text, "var ") {
			exempt[text] = u.exempt
		}
	}
	want := map[string]bool{"var n uint8": false, "var m int": true, "var b byte": true, "var k int32": false}
	if !maps.Equal(exempt, want) {
		t.Errorf("exempt var statements = %v, want %v", exempt, want)
	}
}
