package inspect

import (
	"go/parser"
	"strings"
	"testing"
)

const baseTest = `package calc

import "testing"

var cases = []struct {
	in   []float64
	want float64
}{
	{[]float64{1, 2, 3, 4}, 2.5},
}

func TestMedian(t *testing.T) {
	for _, c := range cases {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
`

// added is a test file the patch adds.
func added(path, src string) Version {
	return Version{Path: path, Patch: []byte(src), Changed: true}
}

// same is a test file the patch leaves alone.
func same(path, src string) Version {
	return Version{Path: path, Base: []byte(src), Patch: []byte(src)}
}

func changed(path, base, patch string) Version {
	return Version{Path: path, Base: []byte(base), Patch: []byte(patch), Changed: true}
}

func wantFindings(t *testing.T, got []Finding, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("findings %q, want %d matching %q", got, len(want), want)
	}
	for i, w := range want {
		if !strings.Contains(got[i].String(), w) {
			t.Fatalf("finding %d is %q, want it to contain %q (all: %q)", i, got[i], w, got)
		}
	}
}

// TestGoTestHarnessAttacks: every way a test file runs code before the
// claims is found, in a file the patch adds or changes.
func TestGoTestHarnessAttacks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tests []Version
		want  []string
	}{
		{"a func literal called at init rewrites the table", []Version{same("calc/median_test.go", baseTest), added("calc/zz_test.go", `package calc

var _ = func() bool {
	cases[0].want = 2
	return true
}()
`)}, []string{"calc/zz_test.go:3: package-level var _ runs code before the package's tests: it calls a func literal"}},
		{"TestMain sets test.skip", []Version{added("other/main_test.go", `package other

import (
	"flag"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	flag.Set("test.skip", "TestClamp")
	os.Exit(m.Run())
}
`)}, []string{"other/main_test.go:9: declares TestMain"}},
		{"init in a test file", []Version{added("calc/init_test.go", "package calc\n\nfunc init() { cases = nil }\n")}, []string{"calc/init_test.go:3: declares init"}},
		{"a call of a test-file function", []Version{same("calc/median_test.go", baseTest), added("calc/zz_test.go", "package calc\n\nvar _ = rewrite()\n\nfunc rewrite() bool { cases = cases[:0]; return true }\n")},
			[]string{"calc/zz_test.go:3: package-level var _ runs code before the package's tests: it calls rewrite", "calc/zz_test.go:5: func rewrite, which the initializer of var _ in calc/zz_test.go runs"}},
		{"a call into flag", []Version{added("calc/zz_test.go", "package calc\n\nimport \"flag\"\n\nvar _ = flag.Set(\"test.run\", \"^$\")\n")},
			[]string{"it calls flag.Set (package flag)"}},
		{"a renamed import of os", []Version{added("calc/zz_test.go", "package calc\n\nimport sys \"os\"\n\nvar _ = sys.Setenv(\"X\", \"1\")\n")},
			[]string{"it calls sys.Setenv (package os)"}},
		{"a method call", []Version{added("calc/zz_test.go", "package calc\n\nvar _ = cases[0].reset()\n")}, []string{"it calls the method reset"}},
		{"append writes into the baseline's table", []Version{added("calc/zz_test.go", "package calc\n\nvar _ = append(cases[:0], cases[1:]...)\n")}, []string{"it calls the builtin append"}},
		{"a generic test helper", []Version{added("calc/zz_test.go", "package calc\n\nvar _ = drop[int]()\n")}, []string{"it calls drop"}},
		{"a call hidden in a pure call's arguments", []Version{added("calc/zz_test.go", "package calc\n\nimport \"fmt\"\n\nvar s = fmt.Sprint(rewrite())\n")}, []string{"it calls rewrite"}},
		{"a call hidden in a composite literal", []Version{added("calc/zz_test.go", "package calc\n\nvar s = []bool{true, rewrite()}\n")}, []string{"it calls rewrite"}},
		{"a func literal assigned at package level", []Version{added("calc/zz_test.go", "package calc\n\nvar hook = func() {}\n")}, []string{"it is a func literal"}},
		{"a channel receive", []Version{added("calc/zz_test.go", "package calc\n\nvar v = <-ready\n")}, []string{"it receives from a channel"}},
		{"a linkname directive", []Version{added("calc/zz_test.go", "package calc\n\nimport _ \"unsafe\"\n\n//go:linkname now time.now\nfunc now() (int64, int32, int64)\n")}, []string{"calc/zz_test.go:5: has a //go:linkname directive"}},
		{"a changed helper an unchanged init calls", []Version{
			same("calc/a_test.go", "package calc\n\nvar _ = setup()\n"),
			changed("calc/b_test.go", "package calc\n\nfunc setup() bool { return true }\n", "package calc\n\nfunc setup() bool { cases[0].want = 2; return true }\n"),
		}, []string{"calc/b_test.go:3: func setup, which the initializer of var _ in calc/a_test.go runs before the tests, is new or changed"}},
		{"a changed method TestMain reaches", []Version{
			same("calc/a_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { var h helper; h.prepare(); m.Run() }\n"),
			changed("calc/b_test.go", "package calc\n\ntype helper struct{}\n\nfunc (helper) prepare() {}\n", "package calc\n\ntype helper struct{}\n\nfunc (*helper) prepare() { cases = nil }\n"),
		}, []string{"calc/b_test.go:5: method helper.prepare, which TestMain in calc/a_test.go runs before the tests, is new or changed"}},
		{"a changed TestMain", []Version{changed("calc/main_test.go",
			"package calc\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { m.Run() }\n",
			"package calc\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { m.Run(); cases = nil }\n")}, []string{"calc/main_test.go:5: declares TestMain"}},
		{"a changed test file that does not parse", []Version{changed("calc/median_test.go", baseTest, baseTest+"\nfunc (")}, []string{"calc/median_test.go: does not parse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoTestHarness(tc.tests, nil), tc.want...)
		})
	}
}

// TestGoTestHarnessHonest: ordinary test files run no code before the
// tests, and harness the patch does not touch is not the patch's.
func TestGoTestHarnessHonest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tests   []Version
		sources []string
	}{
		{"a new test file with a table and a sentinel error", []Version{same("calc/median_test.go", baseTest), added("calc/clamp_test.go", `package calc

import (
	"errors"
	"regexp"
	"testing"
	"time"
)

var clampCases = []struct {
	name        string
	x, lo, hi   float64
	want        float64
	check       func(t *testing.T, got float64)
}{
	{"below", -1, 0, 10, 0, func(t *testing.T, got float64) { helper(t) }},
	{"inside", 5, 0, 10, 5, nil},
}

var errBoom = errors.New("boom")

var (
	word    = regexp.MustCompile("[a-z]+")
	timeout = time.Duration(3) * time.Second
	limits  = map[string]int{"a": len("xx"), "b": max(1, 2)}
	first   = &clampCases[0]
	level   = Level(2)
	raw     = []byte("x")
	zero    float64
)

const big = 1 << 20

func helper(t *testing.T) { t.Helper() }

func TestClamp(t *testing.T) {
	for _, c := range clampCases {
		if got := Clamp(c.x, c.lo, c.hi); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
	_ = errBoom
}
`)}, []string{"package calc\n\ntype Level int\n"}},
		{"a test added to a file whose TestMain the patch leaves alone", []Version{changed("calc/main_test.go",
			"package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n",
			"package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n\nfunc TestNew(t *testing.T) {}\n")}, nil},
		{"a changed helper no init reaches", []Version{
			same("calc/a_test.go", "package calc\n\nvar _ = setup()\n\nfunc setup() bool { return true }\n"),
			changed("calc/b_test.go", "package calc\n\nfunc check() bool { return true }\n", "package calc\n\nfunc check() bool { return false }\n"),
		}, nil},
		{"a helper moved between files unchanged", []Version{
			same("calc/a_test.go", "package calc\n\nvar _ = setup()\n"),
			changed("calc/b_test.go", "package calc\n\nfunc setup() bool { return true }\n", "package calc\n\nfunc other() {}\n"),
			added("calc/c_test.go", "package calc\n\nfunc setup() bool { return true }\n"),
		}, nil},
		{"an unchanged test file that does not parse", []Version{same("calc/old_test.go", "package calc\n\nfunc (")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srcs [][]byte
			for _, s := range tc.sources {
				srcs = append(srcs, []byte(s))
			}
			if got := GoTestHarness(tc.tests, srcs); len(got) != 0 {
				t.Fatalf("findings %q for an honest patch", got)
			}
		})
	}
}

// TestRunsCode: the expression rule on its own.
func TestRunsCode(t *testing.T) {
	imports := map[string]string{"errors": "errors", "os": "os", "big": "math/big", "pkg": "example.com/m/pkg"}
	types := builtinTypes()
	types["Level"] = true
	for src, want := range map[string]string{
		`errors.New("x")`:                  "",
		`big.NewInt(3)`:                    "",
		`[]int{1, 2, 3}`:                   "",
		`Level(3) + 1`:                     "",
		`[]byte("x")`:                      "",
		`(*int)(nil)`:                      "",
		`struct{ f func() }{func() {}}`:    "",
		`map[string]func(){"a": func(){}}`: "",
		`len("abc") * 2`:                   "",
		`os.Getenv("X")`:                   "it calls os.Getenv (package os)",
		`pkg.New()`:                        "it calls pkg.New",
		`errors.New(os.Args[0])`:           "",
		`errors.New(os.Getenv("X"))`:       "it calls os.Getenv (package os)",
		`func() int { return 1 }()`:        "it calls a func literal",
		`(func() {})`:                      "it is a func literal",
		`x.y.z()`:                          "it calls the method z",
		`fns[0]()`:                         "it calls fns",
		`(<-ch)()`:                         "it calls a function value",
		`copy(a, b)`:                       "it calls the builtin copy",
		`<-ch`:                             "it receives from a channel",
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got, _ := RunsCode(e, imports, types); got != want {
			t.Errorf("RunsCode(%s) = %q, want %q", src, got, want)
		}
	}
}
