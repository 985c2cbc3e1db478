package mutant

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// allLines requests every line of every file.
func allLines(files map[string][]byte) map[string][]int {
	lines := make(map[string][]int)
	for name, src := range files {
		n := strings.Count(string(src), "\n") + 1
		for l := 1; l <= n; l++ {
			lines[name] = append(lines[name], l)
		}
	}
	return lines
}

// brief formats the sites of the primary operators as "line operator
// (description)"; extras are left out.
func brief(sites []Site) []string {
	var out []string
	for _, s := range sites {
		if !s.Extra {
			out = append(out, fmt.Sprintf("%d %s (%s)", s.Line, s.Operator, s.Description))
		}
	}
	return out
}

// briefExtra formats the extra sites as brief does, with an equivalence
// mark.
func briefExtra(sites []Site) []string {
	var out []string
	for _, s := range sites {
		if s.Extra {
			eq := ""
			if s.Equivalent != "" {
				eq = " equivalent"
			}
			out = append(out, fmt.Sprintf("%d %s (%s)%s", s.Line, s.Operator, s.Description, eq))
		}
	}
	return out
}

func TestFind(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{{
		name: "relational and logical",
		src: `package p

func f(a, b int, c bool) bool {
	return a < b && c || a >= b
}
`,
		want: []string{
			"4 relational_boundary (< → <=)",
			"4 logical (&& → ||)",
			"4 logical (|| → &&)",
			"4 relational_boundary (>= → >)",
		},
	}, {
		name: "negation, not and bool literals",
		src: `package p

func f(a, b int, c bool) bool {
	if a == b {
		return !c
	}
	return a != b == true
}
`,
		want: []string{
			"4 branch_removal (if body never runs)",
			"4 relational_negation (== → !=)",
			"5 not_removal (!x → x)",
			"7 relational_negation (!= → ==)",
			"7 relational_negation (== → !=)",
			"7 bool_literal (true → false)",
		},
	}, {
		name: "a local true is not the predeclared constant",
		src: `package p

func f() bool {
	true := false
	return true
}
`,
		want: []string{"4 bool_literal (false → true)"},
	}, {
		name: "arithmetic needs numbers",
		src: `package p

func f(a, b int, s string, x float64) (int, string, float64) {
	return a + b*2, s + "x", x / 2.5
}
`,
		want: []string{
			"4 arithmetic (+ → -)",
			"4 arithmetic (* → /)",
			"4 int_constant (2 → 1)",
			"4 int_constant (2 → 3)",
			"4 arithmetic (/ → *)",
		},
	}, {
		name: "constant declarations and array lengths",
		src: `package p

const c = 1+2 < 3 && true

const n = 4

var arr [n * 2]int

var m = n + 1

func f(x int) int {
	return x + n*2 + len(arr)
}
`,
		want: []string{
			// var m = n + 1: a package-level value, data.
			"9 data_number (n → n×2)",
			"9 data_number (1 → 0)",
			"9 data_number (1 → 2)",
			// A constant expression that is not a literal doubles.
			"12 arithmetic (+ → -)",
			"12 constant_value (n*2 → n*2×2)",
			"12 arithmetic (+ → -)",
			"12 constant_value (len(arr) → len(arr)×2)",
		},
	}, {
		name: "statements",
		src: `package p

func f(xs []int, ch chan int) int {
	y := len(xs)
	y = y + 1
	y++
	g()
	<-ch
	_ = y
	_ = g2()
	var z int
	z, y = y, z
	defer g()
	if y > 0 {
		panic("x")
	}
	return y + z
}

func g() {}

func g2() int { return 1 }
`,
		want: []string{
			"5 statement_removal (remove statement)",
			"5 arithmetic (+ → -)",
			"5 int_constant (1 → 0)",
			"5 int_constant (1 → 2)",
			"6 statement_removal (remove statement)",
			"6 incdec (++ → --)",
			"7 statement_removal (remove statement)",
			"8 statement_removal (remove statement)",
			"10 statement_removal (remove statement)",
			"12 statement_removal (remove statement)",
			"14 branch_removal (if body never runs)",
			"14 relational_boundary (> → >=)",
			"14 int_constant (0 → -1)",
			"14 int_constant (0 → 1)",
			"17 arithmetic (+ → -)",
			"22 int_constant (1 → 0)",
			"22 int_constant (1 → 2)",
		},
	}, {
		name: "augmented assignment",
		src: `package p

func f(a int, s string, x float64) (int, string, float64) {
	a += 2
	a -= b
	a *= 0
	a /= 1
	s += "x"
	x *= 2
	a <<= 1
	return a, s, x
}

var b int
`,
		want: []string{
			"4 statement_removal (remove statement)",
			"4 augmented_assignment (+= → -=)",
			"4 int_constant (2 → 1)",
			"4 int_constant (2 → 3)",
			"5 statement_removal (remove statement)",
			"5 augmented_assignment (-= → +=)",
			"6 statement_removal (remove statement)",
			"6 int_constant (0 → -1)",
			"6 int_constant (0 → 1)",
			"7 statement_removal (remove statement)",
			"7 augmented_assignment (/= → *=)",
			"7 int_constant (1 → 2)",
			"8 statement_removal (remove statement)",
			"9 statement_removal (remove statement)",
			"9 augmented_assignment (*= → /=)",
			"10 statement_removal (remove statement)",
		},
	}, {
		name: "loop control",
		src: `package p

func f(xs []int) int {
	n := 0
	for _, x := range xs {
		if x == 9 {
			continue
		}
		switch x {
		case 1:
			break
		}
		select {
		default:
			break
		}
		if x > 9 {
			break
		}
	}
	for {
		if n < 3 {
			continue
		}
		return n
	}
}

func g(xs []int) {
outer:
	for i := range xs {
		for {
			if i > 0 {
				continue outer
			}
			break
		}
		for i < 5 {
			continue
		}
	}
}
`,
		want: []string{
			"4 int_constant (0 → -1)",
			"4 int_constant (0 → 1)",
			"6 branch_removal (if body never runs)",
			"6 relational_negation (== → !=)",
			"6 int_constant (9 → 10)",
			"6 int_constant (9 → 8)",
			"7 loop_control (continue → break)",
			"10 int_constant (1 → 0)",
			"10 int_constant (1 → 2)",
			"17 branch_removal (if body never runs)",
			"17 relational_boundary (> → >=)",
			"17 int_constant (9 → 10)",
			"17 int_constant (9 → 8)",
			"18 loop_control (break → continue)",
			"22 branch_removal (if body never runs)",
			"22 relational_boundary (< → <=)",
			"22 int_constant (3 → 2)",
			"22 int_constant (3 → 4)",
			"33 branch_removal (if body never runs)",
			"33 relational_boundary (> → >=)",
			"33 int_constant (0 → -1)",
			"33 int_constant (0 → 1)",
			"36 loop_control (break → continue)",
			"38 relational_boundary (< → <=)",
			"38 int_constant (5 → 4)",
			"38 int_constant (5 → 6)",
			"39 loop_control (continue → break)",
		},
	}, {
		name: "suppression comments are not honoured",
		src: `package p

func f(a, b int) bool {
	// sealgate:ignore
	//go-mutesting:disable
	return a < b //nolint // mutator:disable
}
`,
		want: []string{"6 relational_boundary (< → <=)"},
	}, {
		name: "integer constants where the compiler checks them",
		src: `package p

func f(xs []int, k uint, m map[int]int, a [3]int) int {
	xs = append(xs, 7)
	ys := make([]int, 0, 2)
	_ = a[2]
	_ = xs[1:2]
	switch k {
	case 1, 2:
	}
	_ = 1 << k
	_ = m[5]
	_ = -1 + len(ys)
	for range 3 {
	}
	g(1)
	_ = map[int]bool{4: true}
	return xs[0] / 1
}

func g[T any](T) {}
`,
		want: []string{
			"4 statement_removal (remove statement)",
			"4 int_constant (7 → 6)",
			"4 int_constant (7 → 8)",
			"5 int_constant (0 → 1)",
			"5 int_constant (2 → 1)",
			"5 int_constant (2 → 3)",
			"6 int_constant (2 → 1)",
			"7 int_constant (1 → 0)",
			"7 int_constant (1 → 2)",
			"7 int_constant (2 → 1)",
			"7 int_constant (2 → 3)",
			// A case label changes, but not to another label's value.
			"9 int_constant (1 → 0)",
			"9 int_constant (2 → 3)",
			"12 int_constant (5 → 4)",
			"12 int_constant (5 → 6)",
			"13 int_constant (-1 → -2)",
			"13 int_constant (-1 → 0)",
			"13 arithmetic (+ → -)",
			"16 statement_removal (remove statement)",
			"17 bool_literal (true → false)",
			"18 int_constant (0 → 1)",
			"18 arithmetic (/ → *)",
			"18 int_constant (1 → 2)",
		},
	}, {
		name: "if, else if and else",
		src: `package p

func f(x int) int {
	if x > 0 {
		return 1
	} else if x < 0 {
		return -1
	} else {
		return 0
	}
}
`,
		want: []string{
			"4 branch_removal (if body never runs)",
			"4 relational_boundary (> → >=)",
			"4 int_constant (0 → -1)",
			"4 int_constant (0 → 1)",
			"5 int_constant (1 → 0)",
			"5 int_constant (1 → 2)",
			"6 branch_removal (else branch never runs)",
			"6 branch_removal (if body never runs)",
			"6 relational_boundary (< → <=)",
			"6 int_constant (0 → -1)",
			"6 int_constant (0 → 1)",
			"7 int_constant (-1 → -2)",
			"7 int_constant (-1 → 0)",
			"8 branch_removal (else branch never runs)",
			"9 int_constant (0 → -1)",
			"9 int_constant (0 → 1)",
		},
	}, {
		// A statement holding the last use of a variable can go (the
		// program without it, the names kept, behaves as the schemata's
		// mutant does); a store read nowhere else stays.
		name: "the last use of a variable can go",
		src: `package p

func f(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	m, k := 1, 2
	println(m)
	println(k)
	k = 3
	return n
}
`,
		want: []string{
			"4 int_constant (0 → -1)",
			"4 int_constant (0 → 1)",
			"6 statement_removal (remove statement)",
			"6 augmented_assignment (+= → -=)",
			"8 int_constant (1 → 0)",
			"8 int_constant (1 → 2)",
			"8 int_constant (2 → 1)",
			"8 int_constant (2 → 3)",
			"9 statement_removal (remove statement)",
			"10 statement_removal (remove statement)",
			"11 statement_removal (remove statement)",
			"11 int_constant (3 → 2)",
			"11 int_constant (3 → 4)",
		},
	}, {
		name: "a store nothing reads stays",
		src: `package p

func lower(s string) string { return s }

func f(xs []string) {
	seen := 0
	for i, x := range xs {
		seen++
		seen += len(x)
		xs[i] = lower(x)
	}
}
`,
		want: []string{
			"6 int_constant (0 → -1)",
			"6 int_constant (0 → 1)",
			"8 incdec (++ → --)",
			"9 augmented_assignment (+= → -=)",
			"10 statement_removal (remove statement)",
		},
	}, {
		name: "uint8 bounds",
		src: `package p

func f(b uint8) uint8 {
	return b + 255 - 0
}
`,
		want: []string{
			"4 arithmetic (+ → -)",
			"4 int_constant (255 → 254)",
			"4 arithmetic (- → +)",
			"4 int_constant (0 → 1)",
		},
	}, {
		name: "named constants as an index and as a method's receiver",
		src: `package p

const tierFree, tierGold = 0, 2

type D int64

const hour D = 3600

func (d D) Trunc(m D) D { return d - d%m }

func f(rates []int) (int, D) {
	return rates[tierGold], (24 * hour).Trunc(hour)
}
`,
		want: []string{
			"9 arithmetic (- → +)",
			"12 constant_value (tierGold → tierGold×2)",
			"12 constant_value (24 * hour → 24 * hour×2)",
			"12 constant_value (hour → hour×2)",
		},
	}, {
		name: "members of an enumeration, and a bit flag",
		src: `package p

type kind uint8

const (
	plain kind = iota
	single
	quoted
)

type flag int

const (
	flagA flag = 1 << iota
	flagB
	flagC
)

func f(s string) (kind, flag, flag) {
	k := plain
	if s == "'" {
		k = single
	}
	if s == "\"" {
		k = quoted
	}
	return k, flagB, flagC
}
`,
		want: []string{
			"20 constant_value (plain → single)",
			"21 branch_removal (if body never runs)",
			"21 relational_negation (== → !=)",
			"22 statement_removal (remove statement)",
			"22 constant_value (single → plain)",
			"22 constant_value (single → quoted)",
			"24 branch_removal (if body never runs)",
			"24 relational_negation (== → !=)",
			"25 statement_removal (remove statement)",
			"25 constant_value (quoted → single)",
			"27 constant_value (flagB → flagA)",
			"27 constant_value (flagC → flagC×2)",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string][]byte{"p.go": []byte(tt.src)}
			sites, err := Find(Package{Files: files}, allLines(files))
			if err != nil {
				t.Fatal(err)
			}
			if got := brief(sites); !slices.Equal(got, tt.want) {
				t.Errorf("Find =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			for _, s := range sites {
				if s.ID != 0 || s.File != "p.go" {
					t.Errorf("site %v: want ID 0 and file p.go", s)
				}
			}
		})
	}
}

// TestFindPositions checks the column of each kind of token a site names.
// TestFindExtrasCompileByHand checks that no extra drops the last read of
// a variable: x && y → x without the only use of y's variable, x += 1 →
// x = 1 when nothing else reads x.
func TestFindExtrasCompileByHand(t *testing.T) {
	files := map[string][]byte{"p.go": []byte(`package p

func f(a int) bool {
	b := a > 1
	c := a > 2
	n := 0
	n += a
	m := 0
	m += a
	return b && c || m > 0
}
`)}
	for _, typed := range []bool{true, false} {
		pkg := Package{Files: files}
		if !typed {
			files["q.go"] = []byte("package p\n\nimport \"example.invalid/x\"\n\nvar _ = x.Y\n")
			pkg.Dir = t.TempDir()
		}
		sites, err := Find(pkg, map[string][]int{"p.go": allLines(files)["p.go"]})
		if err != nil {
			t.Fatal(err)
		}
		got := briefExtra(sites)
		for _, bad := range []string{"10 logical (x && y → x)", "10 logical (x && y → y)", "7 augmented_assignment (+= → =)"} {
			if slices.Contains(got, bad) {
				t.Errorf("typed %v: extra %q drops the last use of a variable", typed, bad)
			}
		}
		if !slices.Contains(got, "9 augmented_assignment (+= → =)") {
			t.Errorf("typed %v: no m += a → m = a in %q", typed, got)
		}
	}
}

func TestFindPositions(t *testing.T) {
	src := `package p

func f(x int, xs []int) int {
	if x > 0 {
		x++
	} else if x < 0 {
		x = -x
	}
	for range xs {
		break
	}
	return x
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"p.go:4:2 branch_removal (if body never runs)",
		"p.go:4:7 relational_boundary (> → >=)",
		"p.go:4:9 int_constant (0 → -1)",
		"p.go:4:9 int_constant (0 → 1)",
		"p.go:5:3 statement_removal (remove statement)",
		"p.go:5:4 incdec (++ → --)",
		"p.go:6:4 branch_removal (else branch never runs)",
		"p.go:6:9 branch_removal (if body never runs)",
		"p.go:6:14 relational_boundary (< → <=)",
		"p.go:6:16 int_constant (0 → -1)",
		"p.go:6:16 int_constant (0 → 1)",
		"p.go:7:3 statement_removal (remove statement)",
		"p.go:10:3 loop_control (break → continue)",
	}
	var got []string
	for _, s := range sites {
		if !s.Extra {
			got = append(got, s.String())
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Find =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}

	// Only the requested lines count, and a line of a multi-line
	// expression counts for the operator on it.
	sites, err = Find(Package{Files: files}, map[string][]int{"p.go": {6}})
	if err != nil {
		t.Fatal(err)
	}
	if got := brief(sites); len(got) != 5 || got[0] != "6 branch_removal (else branch never runs)" {
		t.Errorf("Find on line 6 = %q", got)
	}
}

// TestFindUntyped checks that a package that does not type-check still gets
// the operators that need no types, and only those.
func TestFindUntyped(t *testing.T) {
	src := `package p

import "example.invalid/nowhere"

func f(a, b int, s string) (int, bool) {
	a += 1
	a -= b
	a++
	ok := a < b && !nowhere.X
	return a * b, ok == true
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"6 statement_removal (remove statement)",
		"7 statement_removal (remove statement)",
		"7 augmented_assignment (-= → +=)",
		"8 statement_removal (remove statement)",
		"8 incdec (++ → --)",
		"9 relational_boundary (< → <=)",
		"9 logical (&& → ||)",
		// !nowhere.X: its type is unknown, so !x → x is skipped.
		"10 relational_negation (== → !=)",
		"10 bool_literal (true → false)",
	}
	if got := brief(sites); !slices.Equal(got, want) {
		t.Errorf("Find =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}

	// Without types, a true declared anywhere in the package rules out
	// every true literal.
	files["q.go"] = []byte("package p\n\nfunc g() bool {\n\ttrue := false\n\treturn true\n}\n")
	sites, err = Find(Package{Dir: t.TempDir(), Files: files}, map[string][]int{"p.go": {10}, "q.go": {4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"10 relational_negation (== → !=)", "4 bool_literal (false → true)"}
	if got := brief(sites); !slices.Equal(got, want) {
		t.Errorf("Find with a shadowing true = %q, want %q", got, want)
	}

	// Without types, the last use of a local variable or an import is
	// judged by name.
	files = map[string][]byte{"r.go": []byte(`package p

import "example.invalid/other"

func h(a int) {
	b := a
	other.Do(b)
	other.Do(a)
	a++
}
`)}
	sites, err = Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		"8 statement_removal (remove statement)",
		"9 statement_removal (remove statement)",
		"9 incdec (++ → --)",
	}
	if got := brief(sites); !slices.Equal(got, want) {
		t.Errorf("Find of last uses without types = %q, want %q", got, want)
	}
}

func TestFindBuildConstraints(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	files := map[string][]byte{
		"a.go":               []byte("package p\n\nfunc f(a, b int) int { return a + b }\n"),
		"b_" + other + ".go": []byte("package p\n\nfunc f(a, b int) int { return a - b }\n"),
		"c.go":               []byte("//go:build ignore\n\npackage main\n\nfunc main() { println(1 + 2 < 3) }\n"),
		"_d.go":              []byte("package p\n\nfunc f() {}\n"),
		"e.go":               []byte("//go:build sealgate_no_such_tag\n\npackage p\n\nfunc f() {}\n"),
	}
	pkg := Package{Files: files}
	excluded, err := Excluded(pkg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"_d.go", "b_" + other + ".go", "c.go", "e.go"}
	if !slices.Equal(excluded, want) {
		t.Errorf("Excluded = %q, want %q", excluded, want)
	}
	sites, err := Find(pkg, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	// The excluded files give no sites, and, left out of type checking,
	// they do not stop the typed operators in a.go.
	if got := brief(sites); !slices.Equal(got, []string{"3 arithmetic (+ → -)"}) {
		t.Errorf("Find = %q", got)
	}
}

func TestFindErrors(t *testing.T) {
	good := []byte("package p\n")
	tests := []struct {
		name  string
		files map[string][]byte
		lines map[string][]int
		want  string
	}{
		{"parse error", map[string][]byte{"p.go": []byte("package p\n\nfunc f( {\n")}, map[string][]int{"p.go": {3}}, "p.go:3"},
		{"unknown file", map[string][]byte{"p.go": good}, map[string][]int{"q.go": {1}}, `"q.go" is not in the package`},
		{"test file", map[string][]byte{"p_test.go": good}, nil, "is a test file"},
		{"path", map[string][]byte{"sub/p.go": good}, nil, "not the base name"},
		{"not go", map[string][]byte{"p.txt": good}, nil, "not the base name"},
		{"two packages", map[string][]byte{"p.go": good, "q.go": []byte("package q\n")}, nil, "package q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Find(Package{Files: tt.files}, tt.lines)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Find error = %v, want one containing %q", err, tt.want)
			}
			_, err = Schemata(Package{Files: tt.files}, nil, testSwitch(t, nil))
			if err == nil && tt.lines == nil {
				t.Errorf("Schemata succeeded on an invalid package")
			}
		})
	}
	if _, err := Find(Package{Files: map[string][]byte{"p.go": good}}, nil); err != nil {
		t.Errorf("Find with no lines: %v", err)
	}
	if sites, err := Find(Package{}, nil); err != nil || len(sites) != 0 {
		t.Errorf("Find on an empty package = %v, %v", sites, err)
	}
	if _, err := Schemata(Package{}, nil, testSwitch(t, nil)); err == nil {
		t.Errorf("Schemata of an empty package succeeded")
	}
}

// TestFindWiderOperators checks the extra operators that give a small
// change enough distinct mutants: a condition negated, a string literal
// emptied (or filled), a return of zero values — and where each is not
// offered. The site of a plain else is judged by the tests that reach the
// branch's first line.
// TestFindLabelDropped: a labelled break or continue whose label names
// another statement than the one it would leave or continue without it
// loses its label (Extra): `break loop` in a switch or select inside the
// loop is the Go pitfall a fix of that shape corrects.
func TestFindLabelDropped(t *testing.T) {
	src := `package p

func f(xs []int, ch chan int) int {
	n := 0
loop:
	for _, x := range xs {
		switch {
		case x > 3:
			break loop
		case x < 0:
			continue loop
		}
		select {
		case <-ch:
			break loop
		default:
		}
		for x > 0 {
			x--
			continue loop
		}
		n++
	}
outer:
	for n > 0 {
		n--
		break outer
	}
	return n
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Operator == OpLoopControl && strings.Contains(s.Description, " loop") || strings.Contains(s.Description, "outer") {
			if !s.Extra {
				t.Errorf("%v is not an extra", s)
			}
			got = append(got, fmt.Sprintf("%d:%d %s", s.Line, s.Col, s.Description))
		}
	}
	// continue loop in the switch (11) continues the loop it would
	// continue without the label; break outer (27) leaves the loop it
	// would leave.
	want := []string{"9:4 break loop → break", "15:4 break loop → break", "20:4 continue loop → continue"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFindWiderOperators(t *testing.T) {
	src := `package p

type name string

type pair struct{ a, b int }

func f(ok bool, x int) (string, error) {
	if ok {
		return "", nil
	} else {
		return "yes", errFor(x)
	}
}

func errFor(x int) error { return nil }

func g(n name, s string) (name, int, pair, bool) {
	const c = "const"
	if n == "x" || !ok(s) {
		return n, len(c + "y"), pair{}, true
	}
	_ = "50%" + s
	return "n", 0, pair{1, 2}, false
}

func ok(s string) bool {
	switch s {
	case "a":
		return true
	}
	return s != "" + "b"
}

func h[T any](v T) T { return v }

const bName, named = "b", name("n")

func k(s string, n name) int {
	switch s {
	case bName, "sealgate":
		return 1
	}
	switch n {
	case named:
		return 2
	}
	return 0
}

func m(xs []int, b bool, f float64) int {
	switch len(xs) + 1 {
	case 2:
		return 1
	}
	switch b {
	case true:
		return 2
	}
	switch len(xs) > 2 {
	case true:
		return 3
	}
	switch f {
	case 1.5:
		return 4
	}
	switch 3 {
	case 3:
		return 5
	}
	return 0
}

func d(n int, x any) int {
	v := 0
	switch n {
	case 1:
		v = 1
	default:
		v = 2
	}
	switch n {
	default:
	}
	switch x.(type) {
	case int:
	default: v++
	}
	switch n {
	case 1:
		return 1
	default:
		return v
	}
}

func e(n int) {
	switch n {
	default:
		println(n)
	}
}

func r(b byte, x name, s string) int {
	switch b {
	case 'u', 0:
		return 1
	case 't':
		return 2
	}
	switch x {
	case "admin", named:
		return 3
	}
	type local string
	switch local(s) {
	case "root":
		return 4
	}
	if s[0] == ':' {
		return 5
	}
	return 0
}

type ticks chan int

func sel(ch chan int, done <-chan struct{}, out chan<- string, tk ticks, cc chan chan int) int {
	select {
	case v := <-ch:
		return v
	case <-done:
		return 1
	case out <- "x":
	case v, ok := <-tk:
		_ = ok
		return v
	case c := <-cc:
		_ = c
	default:
	}
	return 0
}

func selDefault(ch chan int) (n int) {
	select {
	case n = <-ch:
	default:
		n = -1
	}
	return
}

func selLast(ch chan int) int {
	select {
	case v := <-ch:
		return v
	default:
		return -1
	}
}

func selWait(ch chan int, done chan struct{}) int {
	select {
	case v := <-ch:
		return v
	case <-done:
	}
	return 0
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		switch s.Operator {
		case OpConditionNegation, OpStringLiteral, OpReturnZero, OpSwitchTag, OpDefaultNever, OpCommNever:
			if !s.Extra {
				t.Errorf("%v is not an extra", s)
			}
			got = append(got, fmt.Sprintf("%d %s (%s)", s.Line, s.Operator, s.Description))
		case OpIntConstant:
			if strings.Contains(s.Description, "'") {
				got = append(got, fmt.Sprintf("%d %s (%s)", s.Line, s.Operator, s.Description))
			}
		case OpBranchRemoval:
			if s.Description == descElseBranch && s.ReachLine() != 11 {
				t.Errorf("%v is judged by line %d, want 11 (the branch's first line)", s, s.ReachLine())
			}
		}
	}
	want := []string{
		"8 condition_negation (condition negated)",
		// return "", nil: every result is zero already; "" is filled.
		`9 string_literal ("" → "sealgate")`,
		`11 return_zero (return "", nil)`,
		`11 string_literal ("yes" → "")`,
		`11 string_literal ("yes" → "sealgate")`,
		// errFor's return nil is zero already.
		// n == "x" || !ok(s): the condition as a whole is negated (a
		// comparison's and a negation's own operators negate their parts).
		"19 condition_negation (condition negated)",
		// Not offered on lines 20–23: "x" has the named type of n, "y" is
		// in a constant expression, "50%" may be a format; a pair has no
		// zero literal. Nor "" + "b".
		`27 switch_tag (s → "")`,
		`28 string_literal ("a" → "")`,
		`28 string_literal ("a" → "sealgate")`,
		"29 return_zero (return false)",
		"31 return_zero (return false)",
		// A named string constant as a label changes like a literal one
		// (not to another label's value: bName → "sealgate" is left out);
		// one of a named type too, picked from a [2]name.
		`39 switch_tag (s → "")`,
		`40 string_literal (bName → "")`,
		`40 string_literal ("sealgate" → "")`,
		`40 string_literal ("sealgate" → "Sealgate")`,
		"41 return_zero (return 0)",
		`44 string_literal (named → "")`,
		`44 string_literal (named → "sealgate")`,
		"45 return_zero (return 0)",
		// A switch's tag: an integer becomes 0, a string of the
		// predeclared type "" (not n, of a named type), a boolean its
		// negation (not a comparison, negated by its own operator); a
		// float and a constant offer nothing.
		"51 switch_tag (len(xs) + 1 → 0)",
		"53 return_zero (return 0)",
		"55 switch_tag (b → !(b))",
		"57 return_zero (return 0)",
		"61 return_zero (return 0)",
		"65 return_zero (return 0)",
		"69 return_zero (return 0)",
		// A default with a body never runs: not an empty one (83); one
		// whose switch may be what ends a function with results returns
		// the function's zero values instead (92); in a type switch too
		// (87), and where the function has no results (99).
		"76 switch_tag (n → 0)",
		"79 default_never (default body never runs)",
		"82 switch_tag (n → 0)",
		"87 default_never (default body never runs)",
		"89 switch_tag (n → 0)",
		"91 return_zero (return 0)",
		"92 default_never (default body never runs: return 0)",
		"93 return_zero (return 0)",
		"98 switch_tag (n → 0)",
		"99 default_never (default body never runs)",
		// A rune label changes like an int one, never to another label's
		// value ('u' ↔ 't', 0) nor out of its type (-'u'); a rune
		// elsewhere (120) does not.
		"105 switch_tag (b → 0)",
		"106 int_constant ('u' → 'v')",
		"106 int_constant ('u' → 'ê')",
		"107 return_zero (return 0)",
		"108 int_constant ('t' → 's')",
		"108 int_constant ('t' → 'è')",
		"109 return_zero (return 0)",
		// Labels of a named string type, literal or constant, the type
		// declared in the package or in the function.
		`112 string_literal ("admin" → "")`,
		`112 string_literal ("admin" → "sealgate")`,
		`112 string_literal (named → "")`,
		`112 string_literal (named → "sealgate")`,
		"113 return_zero (return 0)",
		`117 string_literal ("root" → "")`,
		`117 string_literal ("root" → "sealgate")`,
		"118 return_zero (return 0)",
		"121 return_zero (return 0)",
		// A select's case never fires: its channel a nil one of its type,
		// named at the case (not a channel of channels, 138).
		"130 comm_never (ch → (chan int)(nil))",
		"131 return_zero (return 0)",
		"132 comm_never (done → (<-chan struct{})(nil))",
		"133 return_zero (return 0)",
		"134 comm_never (out → (chan<- string)(nil))",
		`134 string_literal ("x" → "")`,
		`134 string_literal ("x" → "sealgate")`,
		"135 comm_never (tk → (ticks)(nil))",
		"137 return_zero (return 0)",
		// A select's default with a body never runs; where the select
		// may be what ends its function, it returns the zero values
		// (158).
		"147 comm_never (ch → (chan int)(nil))",
		"148 default_never (default body never runs)",
		"156 comm_never (ch → (chan int)(nil))",
		"157 return_zero (return 0)",
		"158 default_never (default body never runs: return 0)",
		"159 return_zero (return 0)",
		// Not in a select without a default (165, 167): the mutant
		// could leave it waiting for ever, a hang that "kills" it
		// whatever the test checks.
		"166 return_zero (return 0)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestConstantValueSchemata(t *testing.T) {
	// Every constant_value site compiles behind the switch: as an index,
	// a method's receiver, a divisor's operand, a conversion's argument.
	files := map[string][]byte{"p.go": []byte(`package p

const tierFree, tierGold = 0, 2

type D int64

const hour D = 3600

func (d D) Trunc(m D) D { return d - d%m }

func f(rates []int, d D) (int, D, D, int64) {
	return rates[tierGold], (24 * hour).Trunc(hour), d / (hour / 60), int64(hour - tierFree)
}

func g(pair [2]int, b uint8) (int, uint8) {
	return pair[tierGold-1], b + maxByte
}

const maxByte uint8 = 255
`)}
	pkg := Package{Files: files}
	sites, err := Find(pkg, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var values []Site
	for _, s := range sites {
		if s.Operator == OpConstantValue {
			values = append(values, s)
		}
	}
	if len(values) < 7 {
		t.Fatalf("constant_value sites = %v, want one of each constant operand", values)
	}
	// Where the double does not fit: the index at the end of its array
	// goes down, the type's largest value too.
	for _, want := range []string{"tierGold-1 → tierGold-1-1", "maxByte → maxByte-1"} {
		if !slices.ContainsFunc(values, func(s Site) bool { return s.Description == want }) {
			t.Errorf("no site %q among %v", want, values)
		}
	}
	chosen := Select(values, len(values), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata: %v", err)
	}
}

// TestAssignZero checks the variable an assignment sets zeroed after it:
// found on a later line of the statement too (judged by that line's
// tests), equivalent when the value is zero already, not offered without
// a zero literal or for a field; an if's init zeroes its first named
// variable in front of the condition (of a named boolean type too); all
// compile behind the switch.
func TestAssignZero(t *testing.T) {
	files := map[string][]byte{"p.go": []byte(`package p

type stamp struct{ sec int64 }

func upper(s string) string { return s + "!" }

type pair struct{ a, b int }

func f(kind string, m map[string]int) (string, int, error) {
	v := upper(kind)
	n, ok := m[kind]
	var err error
	err = nil
	_, err = g(kind,
		n)
	p := pair{}
	p.a = n
	if w := len(v); w > 3 {
		n = w
	}
	_ = ok
	if _, found := m[v]; found {
		n++
	}
	if b := flag(n); b {
		n--
	}
	return v, n + p.a, err
}

func g(s string, n int) (int, error) { return n, nil }

type yes bool

func flag(n int) yes { return n > 2 }

func inits(s string, xs []int, m map[string]int, err error) int {
	switch c := s[0]; c {
	case 'a':
		return 1
	}
	switch n := len(xs); {
	case n > 2:
		return n
	}
	for i := len(xs); i > 0; i-- {
		return i
	}
	for i := 0; i < 2; i++ {
		s += "!"
	}
	switch k, ok := m[s]; {
	case ok:
		return k
	}
	switch e := err; v := e.(type) {
	case interface{ Code() int }:
		return v.Code()
	}
	return 0
}

func structs(n int) (pair, [2]int, stamp, struct{ x int }) {
	p := pair{n, 1}
	arr := [2]int{n}
	t := stamp{int64(n)}
	anon := struct{ x int }{n}
	return p, arr, t, anon
}
`)}
	pkg := Package{Files: files}
	sites, err := Find(pkg, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var zeros []Site
	for _, s := range sites {
		if s.Operator == OpAssignZero {
			if !s.Extra {
				t.Errorf("%v is not an extra", s)
			}
			zeros = append(zeros, s)
			got = append(got, fmt.Sprintf("%d %s reach %d equivalent %q", s.Line, s.Description, s.ReachLine(), s.Equivalent))
		}
	}
	want := []string{
		"10 then v = \"\" reach 10 equivalent \"\"",
		"11 then n = 0 reach 11 equivalent \"\"",
		"13 then err = nil reach 13 equivalent \"it is assigned its zero value\"",
		"14 then err = nil reach 14 equivalent \"\"",
		// p := pair{}: its zero is its own empty literal, the value it
		// is given.
		"16 then p = pair{} reach 16 equivalent \"it is assigned its zero value\"",
		"18 then w = 0 reach 18 equivalent \"\"",
		"19 then n = 0 reach 19 equivalent \"\"",
		"22 then found = false reach 22 equivalent \"\"",
		"25 then b = false reach 25 equivalent \"\"",
		// Switch and for inits: the value passed through a call that
		// zeroes it; not a tuple (k, ok := m[s]).
		"38 then c = 0 reach 38 equivalent \"\"",
		"42 then n = 0 reach 42 equivalent \"\"",
		"46 then i = 0 reach 46 equivalent \"\"",
		"49 then i = 0 reach 49 equivalent \"it is assigned its zero value\"",
		"56 then e = nil reach 56 equivalent \"\"",
		// A struct or an array its empty literal, of the type named at
		// the statement; an anonymous struct none.
		"64 then p = pair{} reach 64 equivalent \"\"",
		"65 then arr = [2]int{} reach 65 equivalent \"\"",
		"66 then t = stamp{} reach 66 equivalent \"\"",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// Only the argument's line changed: the site is the statement's, judged
	// by the tests of that line.
	only, err := Find(pkg, map[string][]int{"p.go": {15}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(only, func(s Site) bool { return s.Operator == OpAssignZero && s.Line == 14 && s.ReachLine() == 15 }) {
		t.Errorf("line 15 alone: sites %v, want the assign_zero of line 14 judged by line 15", only)
	}
	var run []Site
	for _, s := range zeros {
		if s.Equivalent == "" {
			run = append(run, s)
		}
	}
	chosen := Select(run, len(run), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata: %v", err)
	}
}

// TestAssignZeroImported checks that a struct of another package gets its
// empty literal spelled with the name the file imports it by.
func TestAssignZeroImported(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("type-checks against GOROOT's sources, which the Bazel sandbox does not provide")
	}
	files := map[string][]byte{"p.go": []byte(`package p

import clock "time"

func at(n int) clock.Time {
	t := clock.Unix(int64(n), 0)
	return t
}
`)}
	sites, err := Find(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Operator == OpAssignZero {
			got = append(got, fmt.Sprintf("%d %s equivalent %q", s.Line, s.Description, s.Equivalent))
		}
	}
	want := []string{"6 then t = clock.Time{} equivalent \"\""}
	if !slices.Equal(got, want) {
		t.Errorf("sites = %q, want %q", got, want)
	}
}

// TestStatementOperators checks the wider set's sites that judge
// statements no other operator reaches: var v = x zeroed after it, a
// loop whose body never runs (found from any line of its header, not
// for a for without a condition), a defer, a go statement and a send
// removed, a return that ends an if without an else removed (not one an
// else or the function's end needs); all compile behind the switch.
func TestStatementOperators(t *testing.T) {
	files := map[string][]byte{"p.go": []byte(`package p

func f(xs []int, ch chan int, done func()) (int, error) {
	var total = 0
	var n = len(xs)
	defer done()
	go done()
	for _, x := range xs {
		total += x
	}
	for i := 0;
		i < n; i++ {
		ch <- i
	}
	for {
		if total > 0 {
			break
		}
		total++
	}
	if n == 0 {
		return 0, nil
	}
	if n > 9 {
		return n, nil
	} else {
		return 1, nil
	}
}
`)}
	pkg := Package{Files: files}
	sites, err := Find(pkg, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var run []Site
	for _, s := range sites {
		switch {
		case s.Operator == OpAssignZero, s.Operator == OpLoopNever, s.Operator == OpStatementRemoval && s.Extra:
			got = append(got, fmt.Sprintf("%d %s (%s) reach %d equivalent %q", s.Line, s.Operator, s.Description, s.ReachLine(), s.Equivalent))
			if s.Equivalent == "" {
				run = append(run, s)
			}
		}
	}
	want := []string{
		`4 assign_zero (then total = 0) reach 4 equivalent "it is assigned its zero value"`,
		`5 assign_zero (then n = 0) reach 5 equivalent ""`,
		`6 statement_removal (remove statement) reach 6 equivalent ""`,
		`7 statement_removal (remove statement) reach 7 equivalent ""`,
		`8 loop_never (loop body never runs) reach 8 equivalent ""`,
		`11 loop_never (loop body never runs) reach 11 equivalent ""`,
		// A for's init is zeroed too; here it sets the zero already.
		`11 assign_zero (then i = 0) reach 11 equivalent "it is assigned its zero value"`,
		`13 statement_removal (remove statement) reach 13 equivalent ""`,
		`22 statement_removal (remove statement) reach 22 equivalent ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// The header's second line alone finds the loop.
	only, err := Find(pkg, map[string][]int{"p.go": {12}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(only, func(s Site) bool { return s.Operator == OpLoopNever && s.Line == 11 && s.ReachLine() == 12 }) {
		t.Errorf("line 12 alone: sites %v, want the loop_never of line 11 judged by line 12", only)
	}
	chosen := Select(run, len(run), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata: %v", err)
	}
}

// TestFindReturnNonNil: a return of nils only (which no other operator
// changes) returns a value of each result's type that is not nil, when
// every result has one the site can write.
func TestFindReturnNonNil(t *testing.T) {
	src := `package p

type node struct{ next *node }

type list []int

type closer interface{ Close() error }

func a() error                 { return nil }
func b() []string              { return nil }
func c() (map[string]int, error) { return nil, nil }
func d() *node                 { return nil }
func e() chan<- int            { return nil }
func f() any                   { return nil }
func g() list                  { return nil }
func h() func()                { return nil }
func i() closer                { return nil }
func j() (*node, error)        { return &node{}, nil }
func k() (n []int)             { return }
func l() error {
	err := a()
	return err
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Operator == OpReturnNonNil {
			if !s.Extra {
				t.Errorf("%v is not an extra", s)
			}
			got = append(got, fmt.Sprintf("%d %s", s.Line, s.Description))
		}
	}
	want := []string{
		"9 return an error",
		"10 return []string{}",
		"11 return map[string]int{}, an error",
		"12 return new(node)",
		"13 return make(chan<- int)",
		"14 return an error",
		"15 return list{}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("return_nonnil sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFindBoundaryIdentity: where an if returns one operand of its
// comparison and what follows returns the other, moving the boundary
// changes nothing (min, max, clamps) for integers and strings; a float's
// -0 == +0, an operand with effects, an if's own declaration, returns of
// something else and two statements in the body keep the mutant. So does
// an if whose body only assigns one operand to the other (a running max).
func TestFindBoundaryIdentity(t *testing.T) {
	src := `package p

func min(a, b int) int {
	if b < a {
		return b
	}
	return a
}

func clamp(x int) int {
	if x > 100 {
		return 100
	} else {
		return x
	}
}

func last(a, b string) string {
	if (a >= b) {
		return (a)
	}
	return b
}

func fmin(a, b float64) float64 {
	if b < a {
		return b
	}
	return a
}

func next() int { return 1 }

func calls(a int) int {
	if next() < a {
		return next()
	}
	return a
}

func shadow(a, v int) int {
	if v := a * 2; a < v {
		return a
	}
	return v
}

func other(a, b int) int {
	if b < a {
		return a
	}
	return a
}

func two(a, b int) int {
	if b < a {
		b++
		return b
	}
	return a
}

func boxed(x int8) any {
	if x > 100 {
		return 100
	}
	return x
}

func tiers(n, tier int) int {
	if n > [3]int{10, 20, 30}[tier] {
		return [3]int{99, 199, 299}[tier]
	}
	return n
}

func table(n, tier int) int {
	if n > [3]int{10, 20, 30}[tier] {
		return [3]int{10, 20, /* the same */ 30}[tier]
	}
	return n
}

type acc struct{ width int; m map[string]int }

func running(ws []int, a *acc, f, g float64) (int, float64) {
	width := 0
	for _, w := range ws {
		if width < w {
			width = w
		}
		if a.width > w {
			a.width = w
		}
		if a.m["k"] < w {
			a.m["k"] = w
		}
		if width < w {
			width = w + 0
		}
		if w < width {
			width = w
		} else {
			width++
		}
	}
	if f < g {
		f = g
	}
	return width, f
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	equivalent := map[int]bool{}
	boundaries := map[int]bool{}
	for _, s := range sites {
		if s.Operator == OpRelationalBoundary {
			boundaries[s.Line] = true
			if s.Equivalent != "" {
				equivalent[s.Line] = true
			}
		}
	}
	// min, clamp, last and table (the same tokens, a comment apart):
	// equivalent. fmin, calls, shadow, other, two, boxed (100 returned as
	// any is an int, x an int8) and tiers (another table: types.ExprString
	// prints both as [3]int{…}[tier]): not.
	// A running max or min kept in a variable or a field: equivalent; in
	// a map's element (the key appears), with another value assigned, with
	// an else, of floats: not.
	for line, want := range map[int]bool{4: true, 11: true, 19: true, 26: false, 35: false, 42: false, 49: false, 56: false, 64: false, 71: false, 78: true,
		89: true, 92: true, 95: false, 98: false, 101: false, 107: false} {
		if !boundaries[line] {
			t.Errorf("line %d: no boundary mutant", line)
		}
		if equivalent[line] != want {
			t.Errorf("line %d: boundary mutant equivalent %v, want %v", line, equivalent[line], want)
		}
	}
}

// TestMinimumIdentity checks that a comparison with the least value its
// other operand can take ("" for strings, 0 for unsigned integers and for
// len and cap) marks the operator changes that hold for the same values
// equivalent, and only those: `s == ""` → `s <= ""` is the same program,
// `s == ""` → `s >= ""` (always true) and `n == 0` on an int are not.
func TestMinimumIdentity(t *testing.T) {
	files := map[string][]byte{"p.go": []byte(`package p

type name string

func f(s string, u uint8, xs []int, n int, nm name) int {
	if s == "" {
		return 1
	}
	if "" != s {
		return 2
	}
	if len(xs) > 0 {
		return 3
	}
	if u != 0 {
		return 4
	}
	if n == 0 {
		return 5
	}
	if nm <= "" {
		return 6
	}
	return 0
}
`)}
	sites, err := Find(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Equivalent != "" && strings.HasPrefix(s.Equivalent, "one operand is the least value") {
			got = append(got, fmt.Sprintf("%d %s", s.Line, s.Description))
		}
	}
	want := []string{"6 == → <=", "9 != → <", "12 > → !=", "15 != → >", "21 <= → =="}
	if !slices.Equal(got, want) {
		t.Errorf("equivalent by the least value: %q, want %q", got, want)
	}
}

func TestUndoEachEdit(t *testing.T) {
	for _, c := range []struct {
		was, now string
		want     []string
	}{
		{"^[a-z0-9]+$", "^[a-zA-Z0-9]+", []string{"^[a-z0-9]+", "^[a-zA-Z0-9]+$"}},
		{"^[a-z0-9]+$", "^[a-zA-Z0-9]+$", nil},
		{"abc", "abd", nil},
		{"a-b-c", "a_b_c", []string{"a-b_c", "a_b-c"}},
		{"", "x", nil},
	} {
		if got := undoEachEdit(c.was, c.now); !slices.Equal(got, c.want) {
			t.Errorf("undoEachEdit(%q, %q) = %q, want %q", c.was, c.now, got, c.want)
		}
	}
}
