package mutant

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFindDeadStores: the mutants of a store no code reads afterwards —
// its removal, its value zeroed, its operator, the arithmetic and
// constants of its value — are equivalent (a running width reset before
// it is read, a parameter set before a return, a case whose variable is
// set again after the switch). A store that a later iteration, a named
// result, a closure, a pointer or a pointer method may read, one followed
// by a read, a fallthrough or a break out of its loop, and one whose value
// has effects keep their mutants.
func TestFindDeadStores(t *testing.T) {
	src := `package p

type T struct{ n int }

func (t *T) bump() { t.n++ }

func wrap(s string, lim int) int {
	cur := 0
	for _, c := range s {
		if c == '\n' {
			if cur > lim {
				cur = 0
			} else {
				cur += lim + 1
			}
			println(c)
			cur = 0
		} else {
			cur++
		}
	}
	return cur
}

func last(dst, src int) int {
	if src > 0 {
		dst = src
		return 1
	}
	return dst
}

func named(a int) (r int) {
	r = a
	return
}

func captured(a int) func() int {
	x := 0
	f := func() int { return x }
	x = a
	return f
}

func addr(a int) *int {
	x := 0
	p := &x
	x = a
	return p
}

func method(a int) int {
	var t T
	t.n = a
	t.bump()
	return t.n
}

func read(a int) int {
	x := 0
	x = a * 2
	if a > 1 {
		return x
	}
	x = a / 3
	return 0
}

func sw(a int) int {
	x := 0
	switch a {
	case 1:
		x = 5
	case 2:
		x = 6
		fallthrough
	case 3:
		println(x)
	}
	x = 1
	return x
}

func effect(a int) int {
	x := 0
	x = g(a)
	x = 1
	return x
}

func g(a int) int { println(a); return a }

func brk(xs []int) int {
	x := 0
	for _, v := range xs {
		x = v
		if v > 2 {
			break
		}
		x = 0
	}
	return x
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if strings.HasPrefix(s.Equivalent, "a dead store") {
			got = append(got, fmt.Sprintf("%d %s %s", s.Line, s.Operator, s.Description))
		}
	}
	slices.Sort(got)
	want := []string{
		// cur = 0 and cur += lim + 1: reset at line 17 before any read.
		"12 int_constant 0 → -1",
		"12 int_constant 0 → 1",
		"12 statement_removal remove statement",
		"14 arithmetic + → *",
		"14 arithmetic + → -",
		"14 augmented_assignment += → -=",
		"14 augmented_assignment += → =",
		"14 int_constant 1 → -1",
		"14 int_constant 1 → 0",
		"14 int_constant 1 → 2",
		"14 statement_removal remove statement",
		// dst = src before a return.
		"27 assign_zero then dst = 0",
		"27 statement_removal remove statement",
		// x = a / 3 before a return: its operands would panic changed
		// (a divisor 0), so only the store's own mutants.
		"65 assign_zero then x = 0",
		"65 statement_removal remove statement",
		// x = 5 in a case, set again after the switch.
		"73 assign_zero then x = 0",
		"73 int_constant 5 → -5",
		"73 int_constant 5 → 0",
		"73 int_constant 5 → 10",
		"73 int_constant 5 → 4",
		"73 int_constant 5 → 6",
		"73 statement_removal remove statement",
	}
	if !slices.Equal(got, want) {
		t.Errorf("dead-store equivalents =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// Every site of the live stores runs.
	for _, line := range []int{19, 34, 41, 48, 54, 61, 75, 86, 96} {
		for _, s := range sites {
			if s.Line == line && strings.HasPrefix(s.Equivalent, "a dead store") {
				t.Errorf("line %d: %v is not a dead store", line, s)
			}
		}
	}
}
