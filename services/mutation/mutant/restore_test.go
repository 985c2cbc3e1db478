package mutant

import (
	"fmt"
	"path/filepath"
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

// TestStmtRestore: a statement restore puts the baseline's statements in
// place of the patch's statement or block (an else the patch wrote, a
// label it moved, a statement it deleted), written on one line with the
// baseline's labels renamed; of a group, the first whose statements
// type-check there. Built and run, each mutant behaves as the baseline.
func TestStmtRestore(t *testing.T) {
	skipInRaceStep(t)
	goBin := goTool(t)
	// The patch's p.go, and the baseline's text of three ranges of it.
	src := `package p

import "strings"

// Renew: the patch made the second if an else (superadmins renew 9).
func Renew(kind string) int {
	n := 3
	if strings.HasPrefix(kind, "super") {
		n = 9
	} else if strings.HasSuffix(kind, "admin") {
		n = 1
	}
	return n
}

// Count: the patch moved the label to the inner loop.
func Count(kind string) int {
	n := 0
	for i := range 3 {
	outer:
		for range kind {
			n += i
			continue outer
		}
	}
	return n
}

// Clamp: the patch deleted the clamp.
func Clamp(n int) int {
	m := n * 2
	return m
}
`
	elseIf := "if strings.HasPrefix(kind, \"super\") {\n\t\tn = 9\n\t} else if strings.HasSuffix(kind, \"admin\") {\n\t\tn = 1\n\t}"
	count := src[strings.Index(src, "func Count(kind string) int ")+len("func Count(kind string) int ") : strings.Index(src, "\n\n// Clamp")]
	clamp := src[strings.Index(src, "func Clamp(n int) int ")+len("func Clamp(n int) int ") : len(src)-1]
	at := func(s string) int {
		i := strings.Index(src, s)
		if i < 0 || strings.Count(src, s) != 1 {
			t.Fatalf("%q is not once in the source", s)
		}
		return i
	}
	rs := []Restore{
		{File: "p.go", Start: at(elseIf), End: at(elseIf) + len(elseIf), Stmt: true, Group: 1, At: at("else if"),
			Text: "if strings.HasPrefix(kind, \"super\") {\n\t\tn = 9\n\t}\n\tif strings.HasSuffix(kind, \"admin\") {\n\t\tn = 1\n\t}"},
		// The loop alone does not compile: its continue names a label
		// the patch moved away; the body does, its label renamed.
		{File: "p.go", Start: at("for i := range 3"), End: at(count[:len(count)-len("\n\treturn n\n}")]) + len(count) - len("\n\treturn n\n}") - 1, Stmt: true, Group: 2, At: at("outer:"),
			Text: "for i := range 3 {\n\t\tfor range kind {\n\t\t\tn += i\n\t\t\tcontinue outer\n\t\t}\n\t}"},
		{File: "p.go", Start: at(count), End: at(count) + len(count), Stmt: true, Group: 2, At: at("outer:"),
			Text: "{\n\tn := 0\nouter:\n\tfor i := range 3 {\n\t\tfor range kind {\n\t\t\tn += i\n\t\t\tcontinue outer // the baseline's\n\t\t}\n\t}\n\treturn n\n}"},
		{File: "p.go", Start: at(clamp), End: at(clamp) + len(clamp), Stmt: true, Group: 3, At: at("return m"),
			Text: "{\n\tm := n * 2\n\tif m > 10 && `a\nb` != \"\" {\n\t\tm = 10\n\t}\n\treturn m\n}"},
		// Not a statement of the file.
		{File: "p.go", Start: at("n * 2"), End: at("n * 2") + 5, Stmt: true, Group: 4, At: at("n * 2"), Text: "n"},
	}
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Files: files, Restores: rs}, map[string][]int{"p.go": nil})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Operator != OpRestore || !s.Extra {
			t.Errorf("%v: not a restore of the extras", s)
		}
		got = append(got, fmt.Sprintf("%d:%d %s", s.Line, s.Col, s.Description))
	}
	want := []string{
		`10:4 statements: if strings.HasPrefix(kind, "super") {... → if strings.HasPrefix(kind, "super") {... (5d10fcbb)`,
		`20:2 statements: { n := 0 for i := range 3 { outer: fo... → { n := 0; outerRestored2: for i := ra... (402eb5fc)`,
		`32:2 statements: { m := n * 2 return m } → { m := n * 2; if m > 10 && "a\nb" != ... (22d814e6)`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("restore sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Built and run: each restore behaves as the baseline there.
	sites = Select(sites, len(sites), []byte("baseline\x00patch"))
	sw := testSwitch(t, sites)
	out, err := Schemata(Package{Files: files, Restores: rs}, sites, sw)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{
		"go.mod": []byte("module example.com/p\n\ngo 1.22\n"),
		"p_test.go": []byte(`package p

import (
	"fmt"
	"testing"
)

func TestReport(t *testing.T) {
	fmt.Printf("<<<REPORT\n%d %d %d\nREPORT>>>\n", Renew("superadmin"), Count("ab"), Clamp(7))
}
`),
	})
	for name, b := range out {
		writeFiles(t, dir, map[string][]byte{name: b})
	}
	run(t, dir, nil, goBin, "vet", "./...")
	run(t, dir, nil, goBin, "test", "-c", "-o", "p.test", ".")
	report := func(id int) string {
		marker := filepath.Join(dir, fmt.Sprintf("marker-%d", id))
		env, err := sw.Env(id, marker)
		if id == 0 {
			env, err = noneEnv(t, sw, marker), nil
		}
		if err != nil {
			t.Fatal(err)
		}
		stdout := run(t, dir, []string{env}, filepath.Join(dir, "p.test"), "-test.run=^TestReport$", "-test.count=1")
		_, after, _ := strings.Cut(stdout, "<<<REPORT\n")
		body, _, _ := strings.Cut(after, "\nREPORT>>>")
		return body
	}
	// The patch: 9 6 14; the baseline of each: 1, 3, 10.
	wantOut := map[int]string{0: "9 6 14"}
	for _, s := range sites {
		switch s.Line {
		case 10:
			wantOut[s.ID] = "1 6 14"
		case 20:
			wantOut[s.ID] = "9 3 14"
		case 32:
			wantOut[s.ID] = "9 6 10"
		}
	}
	for id, w := range wantOut {
		if got := report(id); got != w {
			t.Errorf("mutant %d: %q, want %q", id, got, w)
		}
	}
}

// TestStmtRestoreOfAConstantsValue: a restore of one edit of several that
// only writes the value of a constant the patch names (got == argNo, the
// iota 0, against got == 0) is the patch itself: equivalent, never run.
// One that writes another value is not.
func TestStmtRestoreOfAConstantsValue(t *testing.T) {
	src := "package p\n\nconst (\n\targNo = iota\n\targOne\n)\n\n// First reports whether got is the first argument.\nfunc First(got int) bool {\n\tok := false\nloop:\n\tfor {\n\t\tif got == argNo && got >= 0 {\n\t\t\tok = true\n\t\t\tbreak loop\n\t\t}\n\t\tbreak\n\t}\n\treturn ok\n}\n"
	stmt := "if got == argNo && got >= 0 {\n\t\t\tok = true\n\t\t\tbreak loop\n\t\t}"
	start := strings.Index(src, stmt)
	for _, c := range []struct {
		was, equivalent string
	}{
		{"if got == 0 && got >= 0 {\n\t\t\tok = true\n\t\t\tbreak loop\n\t\t}", "argNo is 0"},
		{"if got == 1 && got >= 0 {\n\t\t\tok = true\n\t\t\tbreak loop\n\t\t}", ""},
	} {
		rs := []Restore{{File: "p.go", Start: start, End: start + len(stmt), Stmt: true, Group: 1, At: start, Text: c.was}}
		sites, err := Find(Package{Files: map[string][]byte{"p.go": []byte(src)}, Restores: rs}, map[string][]int{"p.go": nil})
		if err != nil {
			t.Fatal(err)
		}
		var restores []Site
		for _, s := range sites {
			if s.Operator == OpRestore {
				restores = append(restores, s)
			}
		}
		if len(restores) != 1 || !strings.Contains(restores[0].Equivalent, c.equivalent) || (c.equivalent == "") != (restores[0].Equivalent == "") {
			t.Fatalf("restore of %q: sites %+v, want one equivalent by %q", c.was, restores, c.equivalent)
		}
	}
}
