package cover

import (
	"slices"
	"strings"
	"testing"
)

// deletedSrc is a baseline file: Bound's guard (lines 5-7) and Scale's
// early return (lines 12-14) in functions, a helper (lines 18-20), a
// table row (line 23) and an init (lines 28-30).
const deletedSrc = `package p

// Bound clamps p.
func Bound(p int) int {
	if p > 100 {
		return 100
	}
	return p
}

func Scale(x int) int {
	if x == 0 {
		return 1
	}
	return x * 2
}

func unused() int {
	return 7
}

var table = []int{
	1,
	2,
	3,
}

func init() {
	table[0] = 4
}
`

// TestDeleted: code a patch deletes outright and the claims never ran on
// the baseline is a deletion nothing judges. Its honest twins: deleted
// code the claims ran (the bug the fix removes), a function deleted whole
// (whatever called it changed too), lines outside function bodies (data:
// not judged here).
func TestDeleted(t *testing.T) {
	// The claims called Scale(0) on the baseline: its early return ran;
	// Bound ran with p <= 100: the guard's condition ran, its body not.
	base, err := ParseProfile(strings.NewReader("mode: set\n" +
		"m/p/f.go:4.22,5.12 1 1\nm/p/f.go:5.12,7.3 1 0\nm/p/f.go:8.2,8.10 1 1\n" +
		"m/p/f.go:11.23,12.12 1 1\nm/p/f.go:12.12,14.3 1 1\nm/p/f.go:15.2,15.14 1 0\n" +
		"m/p/f.go:18.20,20.2 1 0\nm/p/f.go:28.13,30.2 1 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	file := func(deleted ...int) []DeletedFile {
		return []DeletedFile{{Path: "p/f.go", BaseProfile: "m/p/f.go", Src: []byte(deletedSrc), Deleted: deleted}}
	}
	for _, tc := range []struct {
		name    string
		deleted []int
		want    []Line
	}{
		{"a guard the claims never took", []int{5, 6, 7}, []Line{{"p/f.go", 6}}},
		{"an early return the claims ran", []int{12, 13, 14}, nil},
		{"a function deleted whole", []int{17, 18, 19, 20}, nil},
		{"a function's body deleted", []int{19}, []Line{{"p/f.go", 19}}},
		{"a table row", []int{23}, nil},
		{"a statement of init the claims ran", []int{29}, nil},
		{"init deleted whole, which the claims ran", []int{28, 29, 30}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Deleted(file(tc.deleted...), base); !slices.Equal(got, tc.want) {
				t.Fatalf("Deleted = %v, want %v", got, tc.want)
			}
		})
	}
	// init deleted whole when the claims' profile never ran it: judged
	// (nothing calls an init, so no caller changes with it).
	notRun, _ := ParseProfile(strings.NewReader("mode: set\nm/p/f.go:4.22,5.12 1 1\nm/p/f.go:28.13,30.2 1 0\n"))
	if got := Deleted(file(28, 29, 30), notRun); !slices.Equal(got, []Line{{"p/f.go", 29}}) {
		t.Fatalf("init deleted whole, never run: Deleted = %v", got)
	}
	// A file the profile does not name is not judged.
	if got := Deleted([]DeletedFile{{Path: "p/g.go", BaseProfile: "m/p/g.go", Src: []byte(deletedSrc), Deleted: []int{6}}}, base); len(got) != 0 {
		t.Fatalf("a file the profile does not name: Deleted = %v", got)
	}
}
