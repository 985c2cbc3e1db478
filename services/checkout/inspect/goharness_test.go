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
		{"a go:debug directive", []Version{added("calc/zz_test.go", "//go:debug panicnil=1\npackage calc\n\nfunc TestPanicNil(t *testing.T) {}\n")}, []string{"calc/zz_test.go:1: has a //go:debug directive"}},
		{"a go:debug directive added to a test file", []Version{changed("calc/a_test.go", "package calc\n\nfunc TestA(t *testing.T) {}\n", "//go:debug panicnil=1\n\npackage calc\n\nfunc TestA(t *testing.T) {}\n")}, []string{"calc/a_test.go:1: has a //go:debug directive"}},
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
		{"a row that calls code respaced and changed", []Version{changed("calc/rows_test.go",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{ \"now\", time.Now().Unix()},\n}\n",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{\"now\", time.Now().UnixNano()},\n}\n")},
			[]string{"calc/rows_test.go:9: package-level var rows runs code before the package's tests"}},
		{"a row that calls code added to a table whose rows call code", []Version{changed("calc/rows_test.go",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{\"now\", time.Now().Unix()},\n}\n",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{\"now\", time.Now().Unix()},\n\t{\"reset\", reset()},\n}\n")},
			[]string{"calc/rows_test.go:9: package-level var rows runs code before the package's tests"}},
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
		{"a row of constants added to a table whose rows call code", []Version{changed("calc/rows_test.go",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{\"now\", time.Now().Unix()},\n}\n",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{\"now\", time.Now().Unix()},\n\t{\"epoch\", 0},\n}\n")}, nil},
		{"a row of constants added beside a row that calls code, respaced and commented", []Version{changed("calc/rows_test.go",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{ \"now\", time.Now().Unix()},\n}\n",
			"package calc\n\nimport \"time\"\n\nvar rows = []struct {\n\tname string\n\tat   int64\n}{\n\t{\"now\", /* clock */ time.Now().\n\t\tUnix()},\n\t{\"epoch\", 0},\n}\n")}, nil},
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

// moneySource is non-test code of package calc.
const moneySource = "package calc\n\nimport \"fmt\"\n\n// Cents is an amount of money.\ntype Cents int64\n\nfunc Price(c Cents) string { return fmt.Sprintf(\"$%v\", c) }\n"

// TestGoTestHarnessScopes: a call is a conversion only when its name is
// a type in the scope of its own file's package, where a package-level
// function shadows a predeclared type and the external test package's
// types are not the internal one's.
func TestGoTestHarnessScopes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tests []Version
		want  []string
	}{
		{"a function named float32", []Version{same("calc/median_test.go", baseTest), added("calc/pair_test.go",
			"package calc\n\nvar _ = float32(0)\n\nfunc float32(int) bool { cases = nil; return true }\n")}, []string{
			"calc/pair_test.go:5: declares func float32, which shadows the predeclared float32",
			"calc/pair_test.go:3: package-level var _ runs code before the package's tests: it calls float32",
			"calc/pair_test.go:5: func float32, which the initializer of var _ in calc/pair_test.go runs before the tests, is new or changed",
		}},
		{"a function named like the external test package's type", []Version{same("calc/median_test.go", baseTest),
			added("calc/pair_test.go", "package calc\n\nvar _ = settled(0)\n\nfunc settled(int) bool { cases = nil; return true }\n"),
			added("calc/settled_test.go", "package calc_test\n\ntype settled int\n")}, []string{
			"calc/pair_test.go:3: package-level var _ runs code before the package's tests: it calls settled",
			"calc/pair_test.go:5: func settled, which the initializer",
		}},
		{"a shadowed len", []Version{added("calc/pair_test.go", "package calc\n\nvar n = len(\"x\")\n\nvar len = func(string) int { cases = nil; return 0 }\n")}, []string{
			"calc/pair_test.go:5: declares var len, which shadows the predeclared len",
			"calc/pair_test.go:3: package-level var n runs code before the package's tests: it calls len",
			"calc/pair_test.go:5: package-level var len runs code before the package's tests: it is a func literal",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoTestHarness(tc.tests, [][]byte{[]byte(moneySource)}), tc.want...)
		})
	}
}

// TestGoTestHarnessSemantics: an in-package test file that changes what
// the package's non-test code does inside the test binary — a method on
// one of its types, a package-level name shadowing a predeclared one —
// is found; the same declarations on test-only types, in the external
// test package or already in the baseline's file are not.
func TestGoTestHarnessSemantics(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tests []Version
		want  []string
	}{
		{"a String method on a production type", []Version{added("calc/format_test.go",
			"package calc\n\nimport \"fmt\"\n\nfunc (c Cents) String() string { return fmt.Sprintf(\"%d.%02d\", c/100, c%100) }\n")}, []string{
			"calc/format_test.go:5: declares method String on Cents, a type of the package's non-test code",
		}},
		{"a method through an alias and a pointer", []Version{added("calc/format_test.go",
			"package calc\n\ntype money = Cents\n\ntype cash = money\n\nfunc (c *cash) Error() string { return \"\" }\n")}, []string{
			"calc/format_test.go:7: declares method Error on Cents",
		}},
		{"a shadowed max", []Version{added("calc/even_test.go",
			"package calc\n\n// max is the midpoint.\nfunc max(a, b float64) float64 { return (a + b) / 2 }\n")}, []string{
			"calc/even_test.go:4: declares func max, which shadows the predeclared max in every file of package calc, its non-test code's too",
		}},
		{"shadowed constants and types", []Version{added("calc/even_test.go",
			"package calc\n\nconst (\n\ttrue = false\n\tiota = 3\n)\n\ntype error = string\n")}, []string{
			"calc/even_test.go:4: declares const true",
			"calc/even_test.go:5: declares const iota",
			"calc/even_test.go:8: declares type error",
		}},
		{"an unexported method an interface of the package names", []Version{added("calc/rate_test.go",
			"package calc\n\nfunc (c Cents) rate() float64 { return 2 }\n")}, []string{
			"calc/rate_test.go:3: declares method rate on Cents",
		}},
		{"a method added to a changed test file", []Version{changed("calc/format_test.go",
			"package calc\n\nfunc (c Cents) String() string { return \"c\" }\n",
			"package calc\n\nfunc (c Cents) String() string { return \"c\" }\n\nfunc (c Cents) GoString() string { return \"g\" }\n")}, []string{
			"calc/format_test.go:5: declares method GoString on Cents",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GoTestHarness(tc.tests, [][]byte{[]byte(moneySource + "\ntype rater interface{ rate() float64 }\n")})
			for _, f := range got {
				if f.Rule != RuleHarnessReach {
					t.Fatalf("finding %q is of rule %s", f, f.Rule)
				}
			}
			wantFindings(t, got, tc.want...)
		})
	}

	for _, tc := range []struct {
		name  string
		tests []Version
	}{
		{"a method on a test-only type and an ordinary helper", []Version{added("calc/helper_test.go",
			"package calc\n\ntype fakeClock struct{ now int }\n\nfunc (f *fakeClock) String() string { return \"clock\" }\n\ntype wrapped Cents\n\nfunc (w wrapped) String() string { return \"w\" }\n\nfunc near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }\n")}},
		{"the external test package declares its own max and a method", []Version{added("calc/x_test.go",
			"package calc_test\n\nimport \"example.com/calc\"\n\ntype Cents struct{ calc.Cents }\n\nfunc (c Cents) String() string { return \"x\" }\n\nfunc max(a, b int) int { return a }\n")}},
		{"a method the baseline's file already declared", []Version{changed("calc/format_test.go",
			"package calc\n\nfunc (c Cents) String() string { return \"c\" }\n",
			"package calc\n\nfunc (c Cents) String() string { return \"c\" }\n\nfunc TestNew(t *testing.T) {}\n")}},
		{"an unchanged file", []Version{same("calc/format_test.go", "package calc\n\nfunc max(a, b int) int { return a }\n")}},
		{"an unexported helper method no interface of the package names", []Version{added("calc/keys_test.go",
			"package calc\n\nimport \"testing\"\n\nfunc (c Cents) wantPositive(t *testing.T) {\n\tif c <= 0 {\n\t\tt.Fatal(c)\n\t}\n}\n")}},
	} {
		t.Run("honest: "+tc.name, func(t *testing.T) {
			if got := GoTestHarness(tc.tests, [][]byte{[]byte(moneySource)}); len(got) != 0 {
				t.Fatalf("findings %q for an honest patch", got)
			}
		})
	}
}

// TestRunsCode: the expression rule on its own.
func TestRunsCode(t *testing.T) {
	imports := map[string]string{"errors": "errors", "os": "os", "big": "math/big", "pkg": "example.com/m/pkg", "flag": "flag"}
	types := builtinTypes()
	types["Level"] = true
	types["float32"] = false // the package declares func float32
	types["cap"] = false     // and var cap
	for src, want := range map[string]string{
		`float32(2)`:                       "it calls float32",
		`flag.Bool("update", false, "x")`:  "",
		`flag.Var(v, "update", "x")`:       "it calls flag.Var (package flag)",
		`flag.String(name(), "", "")`:      "it calls name",
		`cap(s)`:                           "it calls cap",
		`float64(2)`:                       "",
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
