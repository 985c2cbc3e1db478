package mutant

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFind feeds arbitrary sources to Find and, when it succeeds, every
// site to Schemata: neither may panic, and when Find accepts a source
// Schemata must rewrite all of its sites into sources that parse (and, for a
// package that type-checks, type-check: Schemata verifies that itself).
func FuzzFind(f *testing.F) {
	skipInRaceStep(f)
	for _, name := range []string{"ops.go", "more.go"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "calc", name)); err == nil {
			f.Add(b, uint16(0))
		}
	}
	for _, src := range []string{
		"package p\n\nfunc f(a, b int) bool { return a < b && !(a == b) || true }\n",
		"package p\n\nfunc f(x int) int {\n\tfor i := 0; i < x; i++ {\n\t\tif i > 3 {\n\t\t\tbreak\n\t\t} else {\n\t\t\tx -= 2\n\t\t}\n\t}\n\treturn x * 2\n}\n",
		"package p\n\nvar x = [3]int{1, 2, 3}\n\nfunc f() int { x[1]++; return x[2] / 1 }\n",
		"package p\n\nfunc f(ch chan int) { <-ch; ch <- 1 + 2; go f(ch) }\n",
		"package p\n\nconst c = 1 << 3\n\nfunc f(s []byte) []byte { return s[1:c-1] }\n",
		"package p\n\nfunc f() {\n\tx := 1\n\t//line other.go:10\n\tx++\n\t_ = x\n}\n",
		"package p\n\nfunc f(x bool) bool { true := x; return true == false }\n",
		"package p\n\nfunc f(x any) bool { switch y := x.(type) { case int: return y > 0 }; return false }\n",
		"package p\n\nfunc f(n int, s string, b bool) int {\n\tswitch n + 1 {\n\tcase 2:\n\tdefault:\n\t\tn++\n\t}\n\tswitch s {\n\tdefault:\n\t\treturn 1\n\t}\n\tswitch b {\n\tcase true:\n\t\treturn 2\n\tdefault:\n\t\treturn n\n\t}\n}\n",
		// Rune labels, labels of a named string type, a select's cases
		// and its default.
		"package p\n\ntype r string\n\nfunc f(b byte, s r, ch chan int, d <-chan struct{}) int {\n\tswitch b {\n\tcase 'a', 'b':\n\t\treturn 1\n\t}\n\tswitch s {\n\tcase \"x\":\n\t\treturn 2\n\t}\n\tselect {\n\tcase v := <-ch:\n\t\treturn v\n\tcase <-d:\n\tdefault:\n\t\tch <- 1\n\t}\n\treturn 0\n}\n",
		"package p\n",
		"not go at all",
		// Named booleans keep their type through logical and not rewrites.
		`package p

type B bool

func f(a, b B, x, y int) B {
	c := a && !b
	var i any = !a
	_ = i
	d := x < y && a
	return c || d == true || !(x == y)
}
`,
		// Type parameters: arithmetic only when every type is a number.
		`package p

type Number interface{ ~int | ~float64 }

func Sum[T Number](xs []T) (s T) {
	for _, x := range xs {
		s = s + x*2
		if s > 100 {
			break
		}
		s += x
	}
	return
}

func Max[T int | string](a, b T) T {
	if a < b {
		return b
	}
	return a + b
}
`,
		// Closures, defer, go, select, maps, package initialization.
		`package p

import "io"

var limit = compute() * 2

func compute() int { return 3 }

func init() { limit++ }

func g(ch chan int, m map[string]int, e error) bool {
	defer func() { m["x"]++ }()
	go func() { ch <- len(m) + 1 }()
	for k, v := range m {
		if v > 0 {
			delete(m, k)
		}
	}
	select {
	case v := <-ch:
		m["y"] = v * 2
	default:
	}
	m["a"] += 2
	return e == io.EOF || e != nil && limit >= 1<<3
}
`,
		// Constants, untyped operands, strings, complex numbers, uintptr.
		`package p

const big = 1 << 40

const k int8 = 3

func h(v int8, s string, c complex128, p uintptr, f float64, n int) (bool, int8, complex128, uintptr, float64) {
	ok := big < 1<<41 && s < "b" && s+"x" != "" && 2.5 > 1
	return ok, v * k, c * 2i / (c + 1), p + 8, float64(n)/2 + f*2
}
`,
		// Package-level data: maps, slices, structs, constants, strings.
		`package p

import "errors"

type T struct {
	A int
	B string
}

var m = map[string]bool{"a": true, "b": false}

var s = []T{{A: 1, B: "x"}, {2, "y"}}

var arr = [2]uint8{255, 0}

var e = errors.New("no")

const c = "k"

const (
	d = 4
	f = 1.5
)

var g = [...]int{1, 2}

var h = map[int]int{1: 2, 3: 4}

func use() (string, int, float64) { return c + "!", d, f * 2 }
`,
		// Labels, goto, init statements, range over a function, comments
		// inside expressions.
		`package p

func seq(yield func(int) bool) {
	for i := 0; i < 3; i++ {
		if !yield(i) {
			return
		}
	}
}

func r(a, b int, c bool) (n int) {
	x := a
L:
	x++
	if x < b {
		goto L
	}
	if x++; x > 0 {
	}
	switch y := x * 2; {
	case y > 1:
		n--
	}
	for v := range seq {
		if v > 1 {
			break
		}
		n += v
	}
	if a < /* c */ b && // why
		c {
		n = -n
	}
	return n
}
`,
	} {
		f.Add([]byte(src), uint16(0))
	}
	f.Fuzz(func(t *testing.T, src []byte, skip uint16) {
		files := map[string][]byte{"p.go": src}
		// Every line, but every (skip%5+1)-th is left out, so that
		// partially requested multi-line constructs are covered too.
		lines := map[string][]int{}
		n := min(strings.Count(string(src), "\n")+1, 2000)
		for l := 1; l <= n; l++ {
			if skip%5 == 0 || l%int(skip%5+1) != 0 {
				lines["p.go"] = append(lines["p.go"], l)
			}
		}
		// Without a directory, imports resolve in GOROOT only, without
		// the go command: fast enough to fuzz.
		pkg := Package{Files: files, Tests: map[string][]byte{}}
		// Statement restores of the first blocks, each its own text put
		// back: the labels renamed and the one-line form are what runs.
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution); err == nil {
			ast.Inspect(f, func(n ast.Node) bool {
				if b, ok := n.(*ast.BlockStmt); ok && len(pkg.Restores) < 3 {
					start, end := fset.Position(b.Pos()).Offset, fset.Position(b.End()).Offset
					pkg.Restores = append(pkg.Restores, Restore{File: "p.go", Start: start, End: end, Text: string(src[start:end]), Group: len(pkg.Restores), Stmt: true, At: start})
				}
				return true
			})
		}
		sites, err := Find(pkg, lines)
		if err != nil {
			return
		}
		chosen := Select(sites, len(sites), src)
		out, err := Schemata(pkg, chosen, testSwitch(t, chosen))
		if err != nil {
			t.Fatalf("Find accepted the source but Schemata failed: %v\nsource:\n%s", err, src)
		}
		for name, b := range out {
			if _, err := parser.ParseFile(token.NewFileSet(), name, b, 0); err != nil {
				t.Fatalf("%s does not parse: %v\n%s", name, err, b)
			}
		}
	})
}

// FuzzDataFileMutants feeds arbitrary file content to DataFileMutants:
// it may not panic, every mutant lies within the content and changes it,
// and every line it names exists.
func FuzzDataFileMutants(f *testing.F) {
	for _, s := range []string{
		"enabled: true\nlimit: 10\n\nratio=-0.5 v1.2.3 x86 3rd\nTRUE,False\n",
		"mfa=off\n  \"host\": \"example.com\",\n},\n",
		"- name: zed\n\t\"ü\": \"€9\"\r\n",
		"",
		"a\x00true",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		lines := strings.Count(string(content), "\n") + 1
		for _, m := range DataFileMutants(content, 1000) {
			if m.Start < 0 || m.End < m.Start || m.End > len(content) || m.Line < 1 || m.Line > lines {
				t.Fatalf("mutant %+v out of the content (%d bytes, %d lines)", m, len(content), lines)
			}
			if string(m.Apply(content)) == string(content) {
				t.Fatalf("mutant %+v changes nothing", m)
			}
		}
	})
}
