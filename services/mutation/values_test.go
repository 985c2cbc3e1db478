package mutation

import (
	"maps"
	"slices"
	"testing"
)

// changedOf compares one file, p.go, before and after a patch, and
// returns the texts of the values the patch wrote and what is gone.
func changedOf(t *testing.T, before, after string) (changed, gone []string) {
	t.Helper()
	return changedIn(t, map[string][]byte{"p.go": []byte(before)}, map[string][]byte{"p.go": []byte(after)})
}

// changedIn compares a package's changed files (every patch-side file
// changed) and returns the texts of the values the patch wrote, in file
// order, and what is gone.
func changedIn(t *testing.T, before, after map[string][]byte) (changed, gone []string) {
	t.Helper()
	all := map[string]bool{}
	for p := range after {
		all[p] = true
	}
	byFile, gone, ok := valueComparison(before, after, all)
	if !ok {
		t.Fatal("a side does not parse")
	}
	for _, p := range slices.Sorted(maps.Keys(byFile)) {
		for _, u := range byFile[p].changed {
			changed = append(changed, string(after[p][u.start:u.end]))
		}
	}
	return changed, gone
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
		{"rows merged", row(`{mfa: true}, {audit: false},`), row(`{mfa: false},`), []string{"false"}, []string{`rows[#1] = {audit: false}`}},
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
// line, and is gone all the same; so is a row deleted from the middle
// while one is appended (the positions stay filled), and one dropped while
// its table moves to another file. A declaration removed whole is not,
// unless its value calls a function.
func TestChangedValuesDeletions(t *testing.T) {
	before := "package p\n\nvar unused = 4\n\nvar _ = register(5)\n\nvar lazy = func() int { return compute() }\n\nvar rows = []int{\n\t1,\n\t2,\n\t3,\n}\n"
	after := "package p\n\nvar rows = []int{\n\t1,\n\t3,\n}\n"
	changed, gone := changedOf(t, before, after)
	if len(changed) != 0 || !slices.Equal(gone, []string{"rows[#1] = 2", "_ = register(5)"}) {
		t.Errorf("a row deleted: changed %q, gone %q", changed, gone)
	}
	limits := func(rows string) string {
		return "package p\n\nvar limits = []limit{\n" + rows + "}\n"
	}
	changed, gone = changedOf(t, limits("\t{\"a.com\", 60},\n\t{\"b.com\", 0},\n\t{\"c.com\", 30},\n"), limits("\t{\"a.com\", 60},\n\t{\"c.com\", 30},\n\t{\"d.com\", 10},\n"))
	if !slices.Equal(changed, []string{`"d.com"`, "10"}) || !slices.Equal(gone, []string{`limits[#1] = {"b.com", 0}`}) {
		t.Errorf("a middle row deleted, one appended: changed %q, gone %q", changed, gone)
	}
	changed, gone = changedIn(t, map[string][]byte{"p.go": []byte(limits("\t{\"a.com\", 60},\n\t{\"b.com\", 0},\n"))},
		map[string][]byte{"p.go": []byte("package p\n"), "q.go": []byte(limits("\t{\"a.com\", 60},\n"))})
	if len(changed) != 0 || !slices.Equal(gone, []string{`limits[#1] = {"b.com", 0}`}) {
		t.Errorf("a row dropped as its table moved: changed %q, gone %q", changed, gone)
	}
}

// TestChangedValuesTakenAway: what runs without a call naming it, taken
// away, is gone (an adversary's MERGEs): a variable's value deleted while
// the variable stays (its uses see zero), an init deleted, a method
// deleted (String, through fmt). An init edited, a method moved to
// another file and a plain function deleted (it compiles only unused)
// are not.
func TestChangedValuesTakenAway(t *testing.T) {
	const head = "package p\n\nimport \"time\"\n\ntype grade int\n\n"
	for _, tc := range []struct {
		name          string
		before, after map[string][]byte
		want          []string
	}{
		{"a value deleted, the variable kept", map[string][]byte{"p.go": []byte(head + "var bonus = time.Minute\n")}, map[string][]byte{"p.go": []byte(head + "var bonus time.Duration\n")}, []string{"bonus = time.Minute"}},
		{"an init deleted", map[string][]byte{"p.go": []byte(head + "var bonus time.Duration\n\nfunc init() { bonus = time.Minute }\n")}, map[string][]byte{"p.go": []byte(head + "var bonus time.Duration\n")}, []string{"func init()"}},
		{"a method deleted", map[string][]byte{"p.go": []byte(head + "func (g grade) String() string { return \"g\" }\n")}, map[string][]byte{"p.go": []byte(head)}, []string{"func (grade) String"}},
		{"an init edited", map[string][]byte{"p.go": []byte(head + "var bonus time.Duration\n\nfunc init() { bonus = time.Minute }\n")}, map[string][]byte{"p.go": []byte(head + "var bonus time.Duration\n\nfunc init() { bonus = time.Hour }\n")}, nil},
		{"a method moved", map[string][]byte{"p.go": []byte(head + "func (g *grade) String() string { return \"g\" }\n")}, map[string][]byte{"p.go": []byte(head), "q.go": []byte("package p\n\nfunc (g *grade) String() string { return \"g\" }\n")}, nil},
		{"a function deleted", map[string][]byte{"p.go": []byte(head + "func unused() int { return 1 }\n")}, map[string][]byte{"p.go": []byte(head)}, nil},
	} {
		_, gone := changedIn(t, tc.before, tc.after)
		if !slices.Equal(gone, tc.want) {
			t.Errorf("%s: gone %q, want %q", tc.name, gone, tc.want)
		}
	}
}

// TestChangedValuesUnderThem: values whose tokens stay as they were but
// whose meaning moves are changed (a fourth adversary's MERGEs): a row
// type swapped for one with another field order, an import re-pointed
// under the same name, index keys among positional elements; and blank
// declarations pair by their tokens wherever they are, so one dropped is
// gone even when another file's blank takes its place.
func TestChangedValuesUnderThem(t *testing.T) {
	hosts := func(typ string) string {
		return "package p\n\nvar hosts = []" + typ + "{{\"a.com\", 60, 100, 3}}\n"
	}
	changed, gone := changedOf(t, hosts("hostLimit"), hosts("legacyLimit"))
	if !slices.Equal(changed, []string{`"a.com"`, "60", "100", "3"}) || len(gone) != 0 {
		t.Errorf("row type swapped: changed %q, gone %q", changed, gone)
	}
	timeouts := func(imp string) string {
		return "package p\n\nimport " + imp + "\n\nvar timeouts = map[string]int{\n\t\"a.com\": 60,\n\t\"b.com\": 5 * unit.Minute,\n}\n"
	}
	changed, gone = changedOf(t, timeouts(`"example.com/unit"`), timeouts(`unit "example.com/unitms"`))
	if !slices.Equal(changed, []string{"5 * unit.Minute"}) || len(gone) != 0 {
		t.Errorf("import re-pointed: changed %q, gone %q", changed, gone)
	}
	errs := func(rows string) string { return "package p\n\nvar errText = []string{" + rows + "}\n" }
	changed, gone = changedOf(t, errs(`"ok", "not found", "denied"`), errs(`"ok", codeInternal: "internal", "busy", "not found", "denied"`))
	if len(changed) != 5 || len(gone) == 0 {
		t.Errorf("index key among positional elements: changed %q, gone %q", changed, gone)
	}
	changed, gone = changedIn(t,
		map[string][]byte{"a.go": []byte("package p\n\nvar _ = block(\"b.com\")\n"), "b.go": []byte("package p\n\nvar _ = block(\"z.com\")\n")},
		map[string][]byte{"a.go": []byte("package p\n"), "b.go": []byte("package p\n\n// See Limit.\nvar _ = block(\"z.com\")\n")})
	if len(changed) != 0 || !slices.Equal(gone, []string{`_ = block("b.com")`}) {
		t.Errorf("a blank registration dropped: changed %q, gone %q", changed, gone)
	}
	// The honest twins: the same type, import, index keys and blank
	// registrations, whatever moved around them.
	for _, same := range [][2]string{
		{hosts("hostLimit"), hosts("hostLimit")},
		{timeouts(`"example.com/unit"`), timeouts(`unit "example.com/unit"`)},
		{errs(`"ok", codeInternal: "internal"`), errs(`"ok", codeInternal: "internal" /* 9 */`)},
		{"package p\n\nvar _ = block(\"b.com\")\n\nvar _ = block(\"z.com\")\n", "package p\n\n// Blocked.\nvar _ = block(\"z.com\")\n\nvar _ = block(\"b.com\")\n"},
	} {
		if changed, gone := changedOf(t, same[0], same[1]); len(changed) != 0 || len(gone) != 0 {
			t.Errorf("nothing changed: changed %q, gone %q", changed, gone)
		}
	}
}

// TestValueUnits: units are the leaves of composite literals (through &
// and parentheses), named by declaration and key or position; function
// literals are no unit; a new declaration is all changed.
func TestValueUnits(t *testing.T) {
	after := "package p\n\nvar a, b = 1, &T{X: []int{2, 3}, Y: func() {}}\n\nconst c = 4 * d\n\nvar x, y = f()\n"
	byFile, _, ok := valueComparison(map[string][]byte{"p.go": []byte("package p\n")}, map[string][]byte{"p.go": []byte(after)}, map[string]bool{"p.go": true})
	if !ok {
		t.Fatal("does not parse")
	}
	var got []string
	for _, u := range byFile["p.go"].changed {
		got = append(got, u.path+"="+after[u.start:u.end])
	}
	want := []string{"a=1", "b[X][#0]=2", "b[X][#1]=3", "c=4 * d", "x,y#0=f()"}
	if !slices.Equal(got, want) || len(byFile["p.go"].units) != len(want) {
		t.Errorf("units %q, want %q", got, want)
	}
	if _, _, ok := valueComparison(nil, map[string][]byte{"p.go": []byte("package p\nvar = {")}, map[string]bool{"p.go": true}); ok {
		t.Error("a file that does not parse is compared")
	}
}

// FuzzValueComparison: any two sources give units inside the patch side,
// without a panic.
func FuzzValueComparison(f *testing.F) {
	f.Add([]byte("package p\nvar a = []int{1, 2}\n"), []byte("package p\nvar a = []int{2, 3}\n"))
	f.Add([]byte("package p\nvar m = map[K]int{k: 1, k: 2}\n"), []byte("package p\nvar m = map[K]int{k: 1}\nvar _ = f()\n"))
	f.Fuzz(func(t *testing.T, before, after []byte) {
		byFile, _, _ := valueComparison(map[string][]byte{"p.go": before}, map[string][]byte{"p.go": after}, map[string]bool{"p.go": true})
		for p, vc := range byFile {
			for _, u := range append(vc.changed, vc.units...) {
				if u.start < 0 || u.end > len(after) || u.start > u.end {
					t.Fatalf("%s: unit %+v outside the %d-byte source", p, u, len(after))
				}
			}
		}
	})
}
