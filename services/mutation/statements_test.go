package mutation

import (
	"slices"
	"testing"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
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
	got := statementsOf("p.go", src, []int{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 22, 23, 24, 25, 26, 28, 3, 31, 32, 33, 40, 41, 43, 44, 45, 49, 50, 53, 63, 66, 72, 73, 75, 78, 79, 82, 86})
	want := map[int]string{
		6:  "p.go:6",
		7:  "p.go:7-8",
		8:  "p.go:7-8",
		9:  "p.go:9-10",
		10: "p.go:9-10",
		12: "p.go:12",
		13: "p.go:13-15",
		14: "p.go:14",
		15: "p.go:13-15",
		18: "p.go:18-19", // an expression switch's case label
		19: "p.go:18-19",
		20: "p.go:20",
		23: "p.go:23",
		24: "p.go:24",
		26: "p.go:26",
		// A label's or a condition's last line holding an exempt
		// `return nil` is judged by the label or the condition.
		40: "p.go:40-41",
		41: "p.go:40-41",
		43: "p.go:43-44",
		44: "p.go:43-44",
		// An expression switch's tag; a switch without one, its init
		// statement.
		17: "p.go:17",
		49: "p.go:49",
		50: "p.go:50",
		// A default with a body.
		63: "p.go:63",
		// A select's case, by the receive or send it holds; one whose
		// line ends in an exempt `return nil`, by the case; a select's
		// default with a body.
		73: "p.go:73",
		75: "p.go:75",
		78: "p.go:78",
		79: "p.go:79",
		86: "p.go:86",
		// A select's empty default: it stops the select waiting.
		82: "p.go:82",
	}
	for l, w := range want {
		if g, ok := got[l]; !ok || g.String() != w {
			t.Errorf("line %d: got %v (%v), want %s", l, g, ok, w)
		}
	}
	// An import, a brace, var v T, a return of nil only, a package-level
	// variable, a type switch's header (and its guard) and its case of
	// types, a switch's empty default, a select's header: none.
	for _, l := range []int{3, 11, 22, 25, 28, 31, 32, 33, 45, 53, 66, 72} {
		if g, ok := got[l]; ok {
			t.Errorf("line %d: got %v, want no statement", l, g)
		}
	}
	if statementsOf("p.go", []byte("package p\nfunc {"), []int{2}) != nil {
		t.Error("a file that does not parse has statements")
	}
}

func TestUnkilledStatements(t *testing.T) {
	sts := statementList(map[stmtRange][]int{
		{"a/p.go", 6, 6}:   {6},
		{"a/p.go", 9, 10}:  {10, 9},
		{"a/p.go", 12, 12}: {12},
		{"b/q.go", 3, 3}:   {3},
	})
	muts := []*pb.Mutant{
		{At: &pb.LineRef{Path: "a/p.go", Line: 6}, Status: "killed"},
		{At: &pb.LineRef{Path: "a/p.go", Line: 10}, Status: "killed"}, // the statement's second line
		{At: &pb.LineRef{Path: "a/p.go", Line: 12}, Status: "survived"},
		{At: &pb.LineRef{Path: "b/q.go", Line: 3}, Status: "stillborn"},
		{At: &pb.LineRef{Path: "b/q.go", Line: 4}, Status: "killed"}, // another statement
	}
	var got []string
	for _, st := range unkilledStatements(sts, muts) {
		got = append(got, st.at.String())
	}
	if want := []string{"a/p.go:12", "b/q.go:3"}; !slices.Equal(got, want) {
		t.Errorf("unkilled: got %v, want %v", got, want)
	}
}

func TestStatementFirst(t *testing.T) {
	sts := []judgedStatement{{at: stmtRange{"p.go", 5, 5}, lines: []int{5}}, {at: stmtRange{"p.go", 7, 8}, lines: []int{7, 8}}, {at: stmtRange{"p.go", 9, 9}, lines: []int{9}}}
	primary := mutant.Site{File: "p.go", Line: 5, Operator: mutant.OpArithmetic}
	equivalent := mutant.Site{File: "p.go", Line: 8, Operator: mutant.OpArithmetic, Equivalent: "x*1"}
	extra := mutant.Site{File: "p.go", Line: 8, Operator: mutant.OpReturnZero, Extra: true}
	got := statementFirst(sts, []mutant.Site{primary, equivalent}, []mutant.Site{primary, equivalent, extra})
	if len(got) != 2 || got[0] != primary || got[1] != extra {
		t.Errorf("got %v, want the primary site of line 5 and the extra of line 8 (line 9 offers none)", got)
	}
	// A boundary is picked last: an extra that changes more comes first.
	boundary := mutant.Site{File: "p.go", Line: 9, Operator: mutant.OpRelationalBoundary}
	flip := mutant.Site{File: "p.go", Line: 9, Operator: mutant.OpRelationalReplace, Extra: true}
	got = statementFirst(sts[2:], []mutant.Site{boundary}, []mutant.Site{boundary, flip})
	if len(got) != 1 || got[0] != flip {
		t.Errorf("got %v, want the extra replacement before the boundary", got)
	}
	got = statementFirst(sts[2:], []mutant.Site{boundary}, []mutant.Site{boundary})
	if len(got) != 1 || got[0] != boundary {
		t.Errorf("got %v, want the boundary when it is all the statement offers", got)
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
