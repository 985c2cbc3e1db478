package inspect

import (
	"strings"
	"testing"
)

const baseTypes = `package calc

// Count is a number of values.
type Count int64

type Tally struct {
	n    Count
	Name string ` + "`json:\"name\"`" + `
	base
}

type base struct{}

type strict struct{}

type Set[T comparable] map[T]bool

type Reader interface{ Read() int }
`

// TestGoTypeChangesAttacks: a changed definition of a type existing code
// uses is found wherever the patch writes it, the file it moved to
// included.
func TestGoTypeChangesAttacks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch map[string]string
		want  []string
	}{
		{"an integer narrowed", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "type Count int64", "type Count int8")},
			[]string{"calc/types.go:4: changes type Count from int64 to int8"}},
		{"a field's type", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "n    Count", "n    int8")},
			[]string{"calc/types.go:7: changes field Tally.n from Count to int8"}},
		{"a tag", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "json:\"name\"", "json:\"-\"")},
			[]string{`calc/types.go:8: changes the tag of field Tally.Name from "json:\"name\"" to "json:\"-\""`}},
		{"an embedded type swapped", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "\tbase\n}", "\tstrict\n}")},
			[]string{"calc/types.go:6: no longer embeds base in type Tally", "calc/types.go:9: embeds strict in type Tally"}},
		{"type parameters", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "Set[T comparable]", "Set[T ~string]")},
			[]string{"calc/types.go:16: changes the declaration of type Set"}},
		{"a type moved to a new file and narrowed", map[string]string{
			"calc/types.go": strings.ReplaceAll(baseTypes, "// Count is a number of values.\ntype Count int64\n", ""),
			"calc/count.go": "package calc\n\ntype Count int8\n"},
			[]string{"calc/count.go:3: changes type Count from int64 to int8"}},
		{"fields swapped", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "\tn    Count\n\tName string `json:\"name\"`\n", "\tName string `json:\"name\"`\n\tn    Count\n")},
			[]string{"calc/types.go:6: reorders the fields of type Tally from n, Name to Name, n"}},
		{"a struct made an alias", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "type strict struct{}", "type strict = base")},
			[]string{"calc/types.go:14: changes the declaration of type strict"}},
		{"an interface grown: a type assertion to it stops matching", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "Read() int }", "Read() int; Close() }")},
			[]string{"calc/types.go:18: changes type Reader from interface{Read() int} to interface{Close(); Read() int}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoTypeChanges(map[string][]byte{"calc/types.go": []byte(baseTypes)}, bytesOf(tc.patch)), tc.want...)
		})
	}
}

// TestGoTypeChangesHonest: a field added, a type added or removed, an
// interface's methods reordered, comments and layout changed, a file that does
// not parse (other rules name it) are no finding.
func TestGoTypeChangesHonest(t *testing.T) {
	for name, patch := range map[string]map[string]string{
		"a field added":                    {"calc/types.go": strings.ReplaceAll(baseTypes, "\tbase\n}", "\tbase\n\tcache map[string]int\n}")},
		"a field inserted":                 {"calc/types.go": strings.ReplaceAll(baseTypes, "\tbase\n}", "\tcache map[string]int\n\tbase\n}")},
		"a type added":                     {"calc/types.go": baseTypes + "\ntype Pair struct{ A, B float64 }\n"},
		"a type removed":                   {"calc/types.go": strings.ReplaceAll(baseTypes, "type strict struct{}\n", "")},
		"an interface's methods reordered": {"calc/types.go": strings.ReplaceAll(baseTypes, "Read() int }", "Read() int; Close() }")},
		"layout and comments":              {"calc/types.go": strings.ReplaceAll(baseTypes, "type Count int64", "type Count /* values */ int64")},
		"a file that won't parse":          {"calc/types.go": baseTypes, "calc/bad.go": "package calc\n\ntype (\n"},
	} {
		t.Run(name, func(t *testing.T) {
			base := baseTypes
			if strings.Contains(name, "reordered") {
				base = strings.ReplaceAll(baseTypes, "Read() int }", "Close(); Read() int }")
			}
			if got := GoTypeChanges(map[string][]byte{"calc/types.go": []byte(base)}, bytesOf(patch)); len(got) != 0 {
				t.Fatalf("findings %q for an honest change", got)
			}
		})
	}
}

func bytesOf(m map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

const baseValues = `package calc

type Level int

const (
	LevelLow Level = iota
	LevelMid
	LevelHigh
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
)

const Limit = 100

var offers = []struct {
	Tier    string ` + "`json:\"tier\"`" + `
	Percent int    ` + "`json:\"percent\"`" + `
}{
	{"gold", 10},
}
`

// TestGoValueChanges: what changes values without a line that spells them
// out — a member of an iota group moved or inserted before others, the
// expression a group repeats — and the tags of a struct type a
// package-level variable spells out (found by an adversary: each rode
// along with a data-only fix to a MERGE). Their honest twins are no
// finding: a member appended, a constant spelled out changed (its line is
// data, which mutants judge), a field added, a row changed.
func TestGoValueChanges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string
		want  []string
	}{
		{"iota members swapped", strings.Replace(baseValues, "\tLevelMid\n\tLevelHigh\n", "\tLevelHigh\n\tLevelMid\n", 1), []string{
			"calc/types.go:7: changes the value of constant LevelHigh, whose place in its iota group moves from 2 to 1",
			"calc/types.go:8: changes the value of constant LevelMid, whose place in its iota group moves from 1 to 2"}},
		{"a member inserted before others", strings.Replace(baseValues, "\tLevelMid\n", "\tLevelLowest\n\tLevelMid\n", 1), []string{
			"calc/types.go:8: changes the value of constant LevelMid, whose place in its iota group moves from 1 to 2",
			"calc/types.go:9: changes the value of constant LevelHigh, whose place in its iota group moves from 2 to 3"}},
		{"the repeated expression changed", strings.Replace(baseValues, "1 << (10 * (iota + 1))", "1 << (10 * iota)", 1), []string{
			"calc/types.go:12: changes the value of constant KB, which repeats 1 << (10 * iota) instead of 1 << (10 * (iota + 1))",
			"calc/types.go:13: changes the value of constant MB, which repeats 1 << (10 * iota) instead of 1 << (10 * (iota + 1))"}},
		{"a tag of a table's row type", strings.Replace(baseValues, "json:\"percent\"", "json:\"-\"", 1), []string{
			`calc/types.go:20: changes the tag of field Percent of the struct type of var offers from "json:\"percent\"" to "json:\"-\""`}},
		{"a field of a table's row type", strings.Replace(baseValues, "Percent int ", "Percent int8", 1), []string{
			"calc/types.go:20: changes field Percent of the struct type of var offers from int to int8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoTypeChanges(map[string][]byte{"calc/types.go": []byte(baseValues)}, bytesOf(map[string]string{"calc/types.go": tc.patch})), tc.want...)
		})
	}
	for name, patch := range map[string]string{
		"a member appended":           strings.Replace(baseValues, "\tLevelHigh\n", "\tLevelHigh\n\tLevelMax\n", 1),
		"a constant spelled out":      strings.Replace(baseValues, "Limit = 100", "Limit = 200", 1),
		"a field added to a row type": strings.Replace(baseValues, "}{\n", "\tNote    string\n}{\n", 1),
		"a row changed":               strings.Replace(baseValues, `{"gold", 10}`, `{"gold", 15}`, 1),
		"a new group":                 baseValues + "\nconst (\n\tA = iota\n\tB\n)\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got := GoTypeChanges(map[string][]byte{"calc/types.go": []byte(baseValues)}, bytesOf(map[string]string{"calc/types.go": patch})); len(got) != 0 {
				t.Fatalf("findings %q for an honest change", got)
			}
		})
	}
}
