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
		{"a struct made an alias", map[string]string{"calc/types.go": strings.ReplaceAll(baseTypes, "type strict struct{}", "type strict = base")},
			[]string{"calc/types.go:14: changes the declaration of type strict"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoTypeChanges(map[string][]byte{"calc/types.go": []byte(baseTypes)}, bytesOf(tc.patch)), tc.want...)
		})
	}
}

// TestGoTypeChangesHonest: a field added, a type added or removed, an
// interface's method added, comments and layout changed, a file that does
// not parse (other rules name it) are no finding.
func TestGoTypeChangesHonest(t *testing.T) {
	for name, patch := range map[string]map[string]string{
		"a field added":           {"calc/types.go": strings.ReplaceAll(baseTypes, "\tbase\n}", "\tbase\n\tcache map[string]int\n}")},
		"a type added":            {"calc/types.go": baseTypes + "\ntype Pair struct{ A, B float64 }\n"},
		"a type removed":          {"calc/types.go": strings.ReplaceAll(baseTypes, "type strict struct{}\n", "")},
		"an interface grown":      {"calc/types.go": strings.ReplaceAll(baseTypes, "Read() int }", "Read() int; Close() }")},
		"layout and comments":     {"calc/types.go": strings.ReplaceAll(baseTypes, "type Count int64", "type Count /* values */ int64")},
		"a file that won't parse": {"calc/types.go": baseTypes, "calc/bad.go": "package calc\n\ntype (\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := GoTypeChanges(map[string][]byte{"calc/types.go": []byte(baseTypes)}, bytesOf(patch)); len(got) != 0 {
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
