package mutant

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFindDeadStoreAliases: stores the dead-store analysis must not call
// dead, because code after them reads the variable through an alias the
// analysis does not see (the address of a field or element, a slice of an
// array, a pointer method called on a field), or because the stored value
// can panic (comparing interfaces that hold uncomparable values).
func TestFindDeadStoreAliases(t *testing.T) {
	src := `package p

type R struct{ Lo, Hi int }

type C struct{ n int }

func (c *C) ptr() *int { return &c.n }

type S struct{ c C }

var U = R{Lo: -1000, Hi: 1000}

func field(v int, r R) int {
	cur := r
	lo := &cur.Lo
	cur = U
	return *lo
}

func elem(in [2]int, z [2]int) int {
	a := in
	p := &a[0]
	a = z
	return *p
}

func slice(in [2]int, z [2]int) int {
	a := in
	s := a[:]
	a = z
	return s[0]
}

func method(in S, z S) int {
	s := in
	p := s.c.ptr()
	s = z
	return *p
}

func last(dst, src int) int {
	if src > 0 {
		dst = src
		return 1
	}
	return dst
}

func cmp(x, y any) int {
	eq := x != nil
	if eq {
		println()
	}
	eq = x == y
	return 1
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	control := false
	for _, s := range sites {
		if !strings.HasPrefix(s.Equivalent, "a dead store") {
			continue
		}
		if s.Line == 43 { // last: dst = src before a return, truly dead
			control = true
			continue
		}
		got = append(got, fmt.Sprintf("%d %s %s", s.Line, s.Operator, s.Description))
	}
	slices.Sort(got)
	if !control {
		t.Fatal("the control store (dst = src before a return) is not found dead: the probe does not type-check")
	}
	if len(got) > 0 {
		t.Errorf("stores read through an alias, or that may panic, called dead:\n\t%s", strings.Join(got, "\n\t"))
	}
}
