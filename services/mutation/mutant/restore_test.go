package mutant

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFindRestore: a restore gives a site where the baseline's text
// type-checks in the expression's place with a type the expression's own
// accepts, in code, at an expression no operand needs addressable; of a
// group, the first that can be written.
func TestFindRestore(t *testing.T) {
	src := `package p

func lower(s string) string { return s }

type counter struct{ n int }

func f(kind string, xs []int, c *counter) int {
	renewals := max(5, len(kind))
	if lower(kind) == "admin" {
		renewals = 1
	}
	if kind == "a" {
		renewals++
	}
	xs[0] = 3
	c.n = 4
	return renewals + len(xs)
}

var table = []int{len("abc")}
`
	at := func(expr string) (int, int) {
		i := strings.Index(src, expr)
		if i < 0 || strings.Count(src, expr) != 1 {
			t.Fatalf("%q is not once in the source", expr)
		}
		return i, i + len(expr)
	}
	var rs []Restore
	add := func(group int, expr, text string) {
		s, e := at(expr)
		rs = append(rs, Restore{File: "p.go", Start: s, End: e, Text: text, Group: group})
	}
	add(1, "max(5, len(kind))", "5")
	add(9, "max(5, len(kind))", "len(kind)") // a second restore of one expression: a projection
	add(10, "max(5, len(kind))", "kind")     // a string for an int
	add(2, "lower(kind)", "kind")
	add(3, `kind == "a"`, `kind == "a" || kind == "b"`)
	add(4, "xs[0]", "xs[1]")                // assigned to
	add(5, "c.n", "c.n")                    // assigned to
	add(6, "renewals + len(xs)", "len(ks)") // does not type-check
	add(7, "len(xs)", `"five"`)             // a string for an int
	add(7, "renewals + len(xs)", "renewals")
	add(8, `len("abc")`, "4") // a package-level value
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Files: files, Restores: rs}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Operator == OpRestore {
			if !s.Extra {
				t.Errorf("%v is not an extra", s)
			}
			got = append(got, fmt.Sprintf("%d:%d %s", s.Line, s.Col, s.Description))
		}
	}
	want := []string{
		"8:14 max(5, len(kind)) → 5",
		"8:14 max(5, len(kind)) → len(kind)",
		"9:5 lower(kind) → kind",
		`12:5 kind == "a" → kind == "a" || kind == "b"`,
		"17:9 renewals + len(xs) → renewals",
	}
	if !slices.Equal(got, want) {
		t.Errorf("restore sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
