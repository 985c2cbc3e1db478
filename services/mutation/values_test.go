package mutation

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// valueDiff is the diff of a one-file change of p.go from before to after,
// one hunk over the whole file.
func valueDiff(before, after string) string {
	b, a := strings.SplitAfter(before, "\n"), strings.SplitAfter(after, "\n")
	b, a = b[:len(b)-1], a[:len(a)-1] // both end in a newline
	diff := fmt.Sprintf("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1,%d +1,%d @@\n", len(b), len(a))
	// A common prefix and suffix as context, the rest replaced.
	i := 0
	for i < len(b) && i < len(a) && b[i] == a[i] {
		i++
	}
	j := 0
	for j < len(b)-i && j < len(a)-i && b[len(b)-1-j] == a[len(a)-1-j] {
		j++
	}
	for _, l := range b[:i] {
		diff += " " + l
	}
	for _, l := range b[i : len(b)-j] {
		diff += "-" + l
	}
	for _, l := range a[i : len(a)-j] {
		diff += "+" + l
	}
	for _, l := range b[len(b)-j:] {
		diff += " " + l
	}
	return diff
}

// changedOf runs changedValues on a change of p.go and returns the texts of
// its changed values and what is gone.
func changedOf(t *testing.T, before, after string) (changed, gone []string) {
	t.Helper()
	out := changedValues([]byte(valueDiff(before, after)),
		func(string) ([]byte, bool) { return []byte(after), true },
		func(string) ([]byte, bool) { return []byte(before), true })
	vc := out["p.go"]
	if vc == nil {
		t.Fatalf("no value comparison of p.go; diff:\n%s", valueDiff(before, after))
	}
	for _, u := range vc.changed {
		changed = append(changed, after[u.start:u.end])
	}
	return changed, vc.gone
}

// TestChangedValues: a value the patch rewrote is changed whatever it did
// to its tokens — swapped an operator, inserted a sign, deleted a factor
// and balanced it with tokens no mutant changes, dropped parentheses or
// moved a comma (an adversary's MERGEs, each, when only the tokens the
// patch wrote were judged) — and a value whose tokens are as they were is
// not, wherever its line moved. Deleted elements are gone.
func TestChangedValues(t *testing.T) {
	row := func(r string) string {
		return "package p\n\nimport \"time\"\n\nvar rows = []row{\n\t" + r + "\n\t{\"api\", 7, time.Second},\n}\n"
	}
	for _, tc := range []struct {
		name          string
		before, after string
		changed, gone []string
	}{
		{"operator swapped", row(`{"web", 5, 24 * time.Hour},`), row(`{"web", 10, 24 / time.Hour},`), []string{"10", "24 / time.Hour"}, nil},
		{"shift swapped", row(`{"web", 5, 1 << 3},`), row(`{"web", 10, 1 >> 3},`), []string{"10", "1 >> 3"}, nil},
		{"sign inserted", row(`{"web", 5, 3},`), row(`{"web", 10, -3},`), []string{"10", "-3"}, nil},
		{"deletion balanced", row(`{"web", 5, 24 * time.Hour},`), row(`{"web", 10, - -time.Hour},`), []string{"10", "- -time.Hour"}, nil},
		{"conversion for a factor", row(`{"web", 5, 24 * time.Hour},`), row(`{"web", 10, time.Duration(time.Hour)},`), []string{"10", "time.Duration(time.Hour)"}, nil},
		{"negation for a conversion", row(`{"web", 5, !false},`), row(`{"web", 10, bool(false)},`), []string{"10", "bool(false)"}, nil},
		{"parentheses dropped", row(`{"web", 5, (1 + 2) * 4},`), row(`{"web", 10, 1 + 2*4},`), []string{"10", "1 + 2*4"}, nil},
		{"comma moved", row(`{"web", 5, 1, -2},`), row(`{"web", 10, 1 - 2, 0},`), []string{"10", "1 - 2", "0"}, nil},
		{"honest: one value", row(`{"web", 5, time.Hour},`), row(`{"web", 10, time.Hour},`), []string{"10"}, nil},
		{"honest: a sign removed", row(`{"web", -10, time.Hour},`), row(`{"web", 10, time.Hour},`), []string{"10"}, nil},
		{"honest: a factor removed", row(`{"web", 5, 24 * time.Hour},`), row(`{"web", 5, time.Hour},`), []string{"time.Hour"}, nil},
		{"honest: comment and spacing", row(`{"web", 5, time.Hour},`), row(`{"web",   5, time.Hour}, // the web`), nil, nil},
		{"honest: a row added", row(`{"web", 5, time.Hour},`), row("{\"web\", 5, time.Hour},\n\t{\"cli\", 1, time.Minute},"), []string{`"cli"`, "1", "time.Minute"}, nil},
		{"keyed element dropped", row(`{name: "web", max: 5, mfa: true},`), row(`{name: "web", max: 10},`), []string{"10"}, []string{`rows[#0][mfa] = true`}},
		{"rows merged", row(`{mfa: true}, {audit: false},`), row(`{mfa: false},`), []string{"false"}, []string{`rows[#1][audit] = false`}},
		{"key renamed", "package p\n\nvar m = map[string]int{\n\t\"web\": 5,\n}\n", "package p\n\nvar m = map[string]int{\n\t\"api\": 5,\n}\n", []string{"5"}, []string{`m["web"] = 5`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changed, gone := changedOf(t, tc.before, tc.after)
			// Every gone element named (a merge also shifts the rows
			// after it), and none when none is.
			if !slices.Equal(changed, tc.changed) || len(gone) > 0 != (len(tc.gone) > 0) || slices.ContainsFunc(tc.gone, func(g string) bool { return !slices.Contains(gone, g) }) {
				t.Errorf("changed %q, gone %q; want %q, %q", changed, gone, tc.changed, tc.gone)
			}
		})
	}
}

// TestChangedValuesDeletions: a row deleted alone leaves no patch-side
// line, and is gone all the same (the last position, for a slice); a
// declaration removed whole is not, unless its value calls a function.
func TestChangedValuesDeletions(t *testing.T) {
	before := "package p\n\nvar unused = 4\n\nvar _ = register(5)\n\nvar rows = []int{\n\t1,\n\t2,\n\t3,\n}\n"
	after := "package p\n\nvar rows = []int{\n\t1,\n\t3,\n}\n"
	changed, gone := changedOf(t, before, after)
	if len(changed) != 0 || !slices.Equal(gone, []string{"_#1 = register(5)", "rows[#2] = 3"}) {
		t.Errorf("changed %q, gone %q", changed, gone)
	}
}

// TestValueUnits: units are the leaves of composite literals (through &
// and parentheses), named by declaration and key or position; function
// literals are no unit, and two units of one path are ambiguous.
func TestValueUnits(t *testing.T) {
	src := "package p\n\nvar a, b = 1, &T{X: []int{2, 3}, Y: func() {}}\n\nconst c = 4 * d\n\nvar m = map[K]int{k: 1, k: 2}\n\nvar x, y = f()\n"
	units, ok := valueUnits([]byte(src))
	if !ok {
		t.Fatal("does not parse")
	}
	var got []string
	for _, u := range units {
		got = append(got, fmt.Sprintf("%s=%s%s", u.path, src[u.start:u.end], map[bool]string{true: "?"}[u.ambiguous]))
	}
	want := []string{"a=1", "b[X][#0]=2", "b[X][#1]=3", "c=4 * d", "m[k]=1?", "m[k]=2?", "x,y#0=f()"}
	if !slices.Equal(got, want) {
		t.Errorf("units %q, want %q", got, want)
	}
	if _, ok := valueUnits([]byte("package p\nvar = {")); ok {
		t.Error("a file that does not parse has units")
	}
}

// FuzzChangedValues: any diff and sources give units inside the patch
// side, without a panic.
func FuzzChangedValues(f *testing.F) {
	f.Add([]byte(valueDiff("package p\nvar a = []int{1}\n", "package p\nvar a = []int{2}\n")), []byte("package p\nvar a = []int{1}\n"), []byte("package p\nvar a = []int{2}\n"))
	f.Add([]byte("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1 +1 @@\n-x\n+y\n"), []byte("x"), []byte("y"))
	f.Fuzz(func(t *testing.T, diff, before, after []byte) {
		out := changedValues(diff, func(string) ([]byte, bool) { return after, true }, func(string) ([]byte, bool) { return before, true })
		for p, vc := range out {
			for _, u := range append(vc.changed, vc.units...) {
				if u.start < 0 || u.end > len(after) || u.start > u.end {
					t.Fatalf("%s: unit %+v outside the %d-byte source", p, u, len(after))
				}
			}
		}
	})
}
