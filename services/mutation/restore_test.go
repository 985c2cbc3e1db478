package mutation

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRestoresOf: per statement the patch rewrote, the expressions
// holding all it wrote or deleted there, innermost first, each with the
// baseline's text standing in its place, as one group; none for a
// statement the patch added beside, or a line it did not touch.
func TestRestoresOf(t *testing.T) {
	const base = `package p

func f(kind string, n int) int {
	if kind == "admin" || kind == "root" {
		n = 1
	}
	if kind == "user" {
		n = 2
	}
	m := n + 3
	return m * 2
}

func g(v int, flag bool) bool {
	if v > 10 && flag {
		return true
	}
	return false
}
`
	for _, tc := range []struct {
		name  string
		line  int
		after string
		want  []string // "group: patch expression → baseline text"
	}{
		{"a disjunct deleted", 4, "\tif kind == \"admin\" {", []string{
			`0: "admin" → "admin" || kind == "root"`,
			`0: kind == "admin" → kind == "admin" || kind == "root"`}},
		{"a call wrapped around an operand", 7, "\tif strings.ToLower(kind) == \"user\" {", []string{
			"0: strings.ToLower(kind) → kind",
			`0: strings.ToLower(kind) == "user" → kind == "user"`}},
		{"a term added", 10, "\tm := n + 3 + len(kind)", []string{
			"0: n + 3 + len(kind) → n + 3"}},
		{"an operator replaced", 11, "\treturn m / 2", []string{
			"0: m / 2 → m * 2"}},
		{"a wrong term beside the fix", 10, "\tm := n + max(5, len(kind))", []string{
			"0: max(5, len(kind)) → 3",
			"0: n + max(5, len(kind)) → n + 3",
			"1: max(5, len(kind)) → 5",
			"2: max(5, len(kind)) → len(kind)"}},
		{"a condition added beside the baseline's", 7, "\tif kind == \"user\" && n > 0 {", []string{
			`0: kind == "user" && n > 0 → kind == "user"`}},
		{"a statement added beside", 10, "\tm := n + 3\n\tm++", nil},
		// Two edits apart: each is also put back alone, the other kept
		// (a second edit beside the fix is judged on its own).
		{"two edits apart", 4, "\tif kind != \"admin\" || kind == \"boot\" {", []string{
			`0: kind != "admin" || kind == "boot" → kind == "admin" || kind == "root"`,
			`1: kind != "admin" → kind == "admin"`,
			"1: if kind != \"admin\" || kind == \"boot\" {\n\t\tn = 1\n\t} → if kind == \"admin\" || kind == \"boot\" {\n\t\tn = 1\n\t}",
			"1: { … m := n + 3 … } → { … m := n + 3 … }",
			`2: "boot" → "root"`,
			`2: kind == "boot" → kind == "root"`,
			"2: if kind != \"admin\" || kind == \"boot\" {\n\t\tn = 1\n\t} → if kind != \"admin\" || kind == \"root\" {\n\t\tn = 1\n\t}",
			"2: { … m := n + 3 … } → { … m := n + 3 … }"}},
		{"a term deleted beside what the patch wrote", 10, "\tm := 7", []string{
			"0: m := 7 → m := ((7) + 3)",
			"0: { … m := 7 … } → { … m := ((7) + 3) … }",
			"0: m := 7 → m := (7) + 3",
			"0: { … m := 7 … } → { … m := (7) + 3 … }",
			"1: m := 7 → m := (n + (7))",
			"1: { … m := 7 … } → { … m := (n + (7)) … }",
			"1: m := 7 → m := n + (7)",
			"1: { … m := 7 … } → { … m := n + (7) … }"}},
		// The replaced span crosses the operator of the expression around
		// it (v > 10 && flag → v > 5 replaces `10 && flag`): the term
		// wrapped whole does not compile, bare it reads as the baseline
		// did, (v > 5) && flag.
		{"a conjunct deleted beside what the patch wrote", 15, "\tif v > 5 {", []string{
			"0: v > 5 → v > 10 && flag",
			"1: if v > 5 { … } → if v > ((5) && flag) { … }",
			"1: { … if v > 5 { … } → { … if v > ((5) && flag) { … }",
			"1: if v > 5 { … } → if v > (5) && flag { … }",
			"1: { … if v > 5 { … } → { … if v > (5) && flag { … }",
			"2: if v > 5 { … } → if v > (10 && (5)) { … }",
			"2: { … if v > 5 { … } → { … if v > (10 && (5)) { … }",
			"2: if v > 5 { … } → if v > 10 && (5) { … }",
			"2: { … if v > 5 { … } → { … if v > 10 && (5) { … }"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Split(base, "\n")
			patched := strings.Join(slices.Concat(lines[:tc.line-1], []string{tc.after}, lines[tc.line:]), "\n")
			added := strings.Split(tc.after, "\n")
			diff := fmt.Sprintf("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -%d +%d,%d @@\n-%s\n+%s\n", tc.line, tc.line, len(added), lines[tc.line-1], strings.Join(added, "\n+"))
			e := written([]byte(diff), func(string) ([]byte, bool) { return []byte(patched), true })
			rs, next := restoresOf("p.go", []byte(patched), indexStatements("p.go", []byte(patched), nil), e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], 0)
			var got []string
			// A block shows the line that differs.
			short := func(text string) string {
				if !strings.Contains(text, "\n") {
					return text
				}
				for _, l := range strings.Split(text, "\n") {
					switch {
					case !strings.Contains(l, "m :=") && !strings.Contains(l, "if v >"):
					case strings.HasPrefix(text, "{"):
						return "{ … " + strings.TrimSpace(l) + " … }"
					default:
						return strings.TrimSpace(l) + " … }"
					}
				}
				return text
			}
			for _, r := range rs {
				got = append(got, fmt.Sprintf("%d: %s → %s", r.Group, short(patched[r.Start:r.End]), short(r.Text)))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("restores:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			groups := map[string]bool{}
			for _, w := range tc.want {
				groups[w[:strings.Index(w, ":")]] = true
			}
			if want := len(groups); next != want {
				t.Errorf("next group %d, want %d", next, want)
			}
		})
	}
}
