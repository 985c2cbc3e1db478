package inspect

import "testing"

const halfSource = `package calc

/*
#include <math.h>

static double half(double x) {
	if (x == 1337) {
		return 0;
	}
	return x / 2;
}
*/
import "C"

// Half returns x / 2, computed in C.
func Half(x float64) float64 {
	return float64(C.half(C.double(x)))
}
`

// TestGoCgoPreamble: changed lines of C in a cgo preamble, in either of
// the forms cgo reads, are code the gate cannot judge; a changed Go line
// or comment elsewhere in the file is not.
func TestGoCgoPreamble(t *testing.T) {
	grouped := "package calc\n\nimport (\n\t\"fmt\"\n\n\t// #cgo LDFLAGS: -lm\n\t// int two(void) { return 2; }\n\t\"C\"\n)\n\nvar _ = fmt.Sprint(C.two())\n"
	for _, tc := range []struct {
		name, src string
		changed   []int
		want      []string
	}{
		{"a backdoor in the C", halfSource, []int{7, 8, 9}, []string{"calc/half.go:7: changes lines 7-9 of the cgo preamble before import \"C\" (lines 3-12): C code"}},
		{"the C and the Go beside it", halfSource, []int{4, 16, 18}, []string{"calc/half.go:4: changes line 4 of the cgo preamble"}},
		{"a preamble inside an import group", grouped, []int{6}, []string{"calc/half.go:6: changes line 6 of the cgo preamble before import \"C\" (lines 6-7)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GoCgoPreamble("calc/half.go", []byte(tc.src), tc.changed)
			checkFindings(t, got, RuleForeignCode, "calc/half.go", lineCount([]byte(tc.src)))
			wantFindings(t, got, tc.want...)
		})
	}
	for _, tc := range []struct {
		name, src string
		changed   []int
	}{
		{"the Go of a cgo file", halfSource, []int{15, 16, 17, 18}},
		{"a doc comment before an ordinary import", "package calc\n\n// fmt formats.\nimport \"fmt\"\n\nvar _ = fmt.Sprint()\n", []int{3}},
		{"a comment before a group holding C among others", "package calc\n\n// not a preamble\nimport (\n\t\"C\"\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint(C.int(1))\n", []int{3}},
		{"nothing changed", halfSource, nil},
		{"source that does not parse", "package calc\n\n/* x */\nimport \"C\"\nfunc (", []int{3}},
	} {
		t.Run("honest: "+tc.name, func(t *testing.T) {
			if got := GoCgoPreamble("calc/half.go", []byte(tc.src), tc.changed); len(got) != 0 {
				t.Fatalf("findings %q", got)
			}
		})
	}
}

func TestLineList(t *testing.T) {
	for want, lines := range map[string][]int{"line 4": {4}, "lines 4-6": {6, 4, 5}, "lines 4-6, 9": {4, 5, 6, 9, 9}, "lines 1, 3": {1, 3}} {
		if got := lineList(lines); got != want {
			t.Errorf("lineList(%v) = %q, want %q", lines, got, want)
		}
	}
}
