package splice

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const base = `package calc

import "testing"

// TestMedian is the baseline's.
func TestMedian(t *testing.T) {
	if Median([]int{1, 2, 3}) != 2 {
		t.Fatal("median")
	}
}
`

// patched adds a test and a helper, and weakens the baseline's test: the
// weakening must not survive the splice.
const patched = `package calc

import (
	"strings"
	"testing"
)

// TestMedian is the baseline's, weakened by the patch.
func TestMedian(t *testing.T) {}

// TestMedianEven is new.
func TestMedianEven(t *testing.T) {
	if got := Median([]int{1, 2, 3, 4}); got != 2 {
		t.Fatal(describe(got))
	}
}

func describe(n int) string { return strings.Repeat("x", n) }

var _ = describe
`

func TestGoAddsOnlyNewDeclarations(t *testing.T) {
	out, added, err := Go([]byte(base), []byte(patched))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"func TestMedianEven", "func describe"}
	if !slices.Equal(added, want) {
		t.Fatalf("added %v, want %v", added, want)
	}
	s := string(out)
	for _, must := range []string{`t.Fatal("median")`, "func TestMedianEven", "func describe", `"strings"`, "var _ = describe"} {
		if !strings.Contains(s, must) {
			t.Errorf("spliced file lacks %q:\n%s", must, s)
		}
	}
	if strings.Contains(s, "func TestMedian(t *testing.T) {}") || strings.Count(s, "func TestMedian(") != 1 {
		t.Errorf("the patch's weakened TestMedian came through:\n%s", s)
	}
	again, _, err := Go(out, []byte(patched))
	if err != nil || strings.Count(string(again), "func TestMedianEven") != 1 {
		t.Fatalf("splicing twice adds twice: %v\n%s", err, again)
	}
}

func TestGoBuilds(t *testing.T) {
	// The spliced file compiles beside the package's code.
	goBin, err := exec.LookPath("go")
	if err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the go command")
	}
	out, _, err := Go([]byte(base), []byte(patched))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod":         "module example.com/calc\n\ngo 1.16\n",
		"calc.go":        "package calc\n\nfunc Median(xs []int) int { return xs[len(xs)/2] }\n",
		"median_test.go": string(out),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "vet", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the spliced file does not build: %v\n%s\n%s", err, b, out)
	}
}

func TestGoRefusesWhatItCannotSplice(t *testing.T) {
	for name, c := range map[string]struct{ base, patched string }{
		"package moved":  {base, strings.Replace(patched, "package calc", "package calc_test", 1)},
		"does not parse": {base, patched + "func {"},
		"mixed group":    {base + "\nvar a = 1\n", patched + "\nvar (\n\ta = 2\n\tb = 3\n)\n"},
		"import renamed": {strings.Replace(base, `import "testing"`, "import (\n\t\"testing\"\n\tx \"strings\"\n)\n\nvar _ = x.Repeat", 1),
			strings.Replace(patched, `"strings"`, `x "bytes"`, 1) + "\nfunc TestX(t *testing.T) { _ = x.Repeat }\n"},
	} {
		if _, _, err := Go([]byte(c.base), []byte(c.patched)); !errors.Is(err, ErrConflict) {
			t.Errorf("%s: %v, want ErrConflict", name, err)
		}
	}
}

func TestCandidateNames(t *testing.T) {
	for path, want := range map[string]string{
		"strings":                            "strings",
		"gopkg.in/yaml.v3":                   "yaml",
		"github.com/google/go-cmp":           "cmp",
		"example.com/x/v2":                   "x",
		"github.com/stretchr/testify/assert": "assert",
	} {
		if !slices.Contains(candidateNames(path), want) {
			t.Errorf("candidateNames(%q) = %v, want %q among them", path, candidateNames(path), want)
		}
	}
}

func FuzzGo(f *testing.F) {
	f.Add([]byte(base), []byte(patched))
	f.Add([]byte("package p\n"), []byte("package p\nfunc init() {}\nvar _ = 1\n"))
	f.Add([]byte(suiteBase), []byte(strings.Replace(suiteBase, "{{-3, 0}}", "{{-3, 0}, {15, 10}}", 1)))
	f.Fuzz(func(t *testing.T, b, p []byte) {
		// Whatever Edited names lays, beside or instead, or fails as a
		// conflict; it never panics.
		if edited, err := Edited(b, p); err == nil && len(edited) > 0 {
			for _, lay := range []func(b, p []byte, names []string) ([]byte, []string, error){GoReplacing, GoBeside} {
				if _, _, err := lay(b, p, edited); err != nil && !errors.Is(err, ErrConflict) {
					t.Fatalf("laying %v: %v", edited, err)
				}
			}
		}
		out, added, err := Go(b, p)
		if err != nil {
			return
		}
		// Whatever splices splices again to the same declarations, and
		// the result keeps every declaration of the baseline.
		if _, again, err := Go(out, p); err != nil || len(again) != 0 && !slices.Equal(again, added) && len(again) > len(added) {
			t.Fatalf("splicing the result again: %v %v (first %v)", err, again, added)
		}
	})
}

func TestGoReplacingAnEditedTest(t *testing.T) {
	// The patch adds a row to a table-driven test: the claim on that test
	// runs the patch's version of it, beside the baseline's others.
	b := base + "\nfunc TestOther(t *testing.T) { t.Log(\"baseline\") }\n"
	p := strings.Replace(patched, "func TestMedian(t *testing.T) {}", "func TestMedian(t *testing.T) {\n\tif Median([]int{5}) != 5 {\n\t\tt.Fatal(\"one\")\n\t}\n}", 1) +
		"\nfunc TestOther(t *testing.T) { t.Log(\"weakened\") }\n"
	edited, err := Edited([]byte(b), []byte(p))
	if err != nil || !slices.Equal(edited, []string{"TestMedian", "TestOther"}) {
		t.Fatalf("Edited = %v, %v", edited, err)
	}
	out, added, err := GoReplacing([]byte(b), []byte(p), []string{"TestMedian"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Count(s, "func TestMedian(") != 1 || !strings.Contains(s, `t.Fatal("one")`) || strings.Contains(s, `t.Fatal("median")`) {
		t.Fatalf("TestMedian is not the patch's version:\n%s", s)
	}
	if !strings.Contains(s, `t.Log("baseline")`) || strings.Contains(s, `t.Log("weakened")`) {
		t.Fatalf("TestOther is not the baseline's version:\n%s", s)
	}
	if !slices.Contains(added, "func TestMedian") {
		t.Fatalf("added %v", added)
	}
	if _, _, err := GoReplacing([]byte(b), []byte(p), []string{"TestNowhere"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("replacing a test the baseline lacks: %v", err)
	}
}

// An edited test that no longer uses an import the baseline's version
// used (go-chi/chi v5.2.2's TestRedirectSlashes dropped strings): the
// import is blanked, and the spliced file still builds.
func TestGoReplacingBlanksAnImportOnlyTheOldVersionUsed(t *testing.T) {
	const b = "package x\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tif !strings.HasPrefix(\"ab\", \"a\") {\n\t\tt.Fatal()\n\t}\n}\n\nfunc TestB(t *testing.T) {}\n"
	const p = "package x\n\nimport (\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tif \"ab\"[:1] != \"a\" {\n\t\tt.Fatal()\n\t}\n}\n\nfunc TestB(t *testing.T) {}\n"
	out, _, err := GoReplacing([]byte(b), []byte(p), []string{"TestA"})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); !strings.Contains(s, `_ "strings"`) || !strings.Contains(s, `"ab"[:1]`) {
		t.Fatalf("spliced:\n%s", s)
	}
	// Still used elsewhere in the file: kept as it is.
	b2 := strings.Replace(b, "func TestB(t *testing.T) {}", "func TestB(t *testing.T) { _ = strings.ToUpper }", 1)
	p2 := strings.Replace(p, "func TestB(t *testing.T) {}", "func TestB(t *testing.T) { _ = strings.ToUpper }", 1)
	out, _, err = GoReplacing([]byte(b2), []byte(p2), []string{"TestA"})
	if err != nil || strings.Contains(string(out), `_ "strings"`) {
		t.Fatalf("spliced: %v\n%s", err, out)
	}
}

// tableBase is a test file whose tests range over a table and decode into
// a type of the file; tablePatched is the fix's version: a row added to
// the table, a field added to the type and checked by TestDecode, a local
// that shadows the table's name in a test it does not touch.
const tableBase = `package calc

import "testing"

type row struct{ in, want int }

var cases = []row{{1, 1}}

type Basic struct {
	Vint int
}

func (b Basic) String() string { return "basic" }

func isOne(b Basic) bool { return b.Vint == 1 }

var name = "baseline"

func check(t *testing.T, rs []row) {
	for _, r := range rs {
		if got := Double(r.in) / 2; got != r.want {
			t.Errorf("%d: %d", r.in, got)
		}
	}
}

func TestTable(t *testing.T) { check(t, cases) }

func TestAlsoTable(t *testing.T) {
	if len(cases) != 1 {
		t.Fatal("the baseline's table has one row")
	}
}

func TestDecode(t *testing.T) {
	b := Basic{Vint: 1}
	if b.String() != "basic" || !isOne(b) || name != "baseline" {
		t.Fatal(b)
	}
}

func TestShadow(t *testing.T) {
	cases := 3
	_ = cases
}
`

var tablePatched = strings.NewReplacer(
	"var cases = []row{{1, 1}}", "var cases = []row{{1, 1}, {3, 3}}",
	"\tVint int\n", "\tVint int\n\tVnew int\n",
	"\tb := Basic{Vint: 1}\n", "\tb := Basic{Vint: 1, Vnew: Double(2)}\n\tif b.Vnew != 4 {\n\t\tt.Fatal(\"new\")\n\t}\n",
	`var name = "baseline"`, `var name = "patched"`,
	`name != "baseline"`, `name != "patched"`,
).Replace(tableBase)

func TestEditedByUse(t *testing.T) {
	edited, err := Edited([]byte(tableBase), []byte(tablePatched))
	if err != nil {
		t.Fatal(err)
	}
	// TestShadow's local cases is not the table, but its name is: counted
	// too, which only runs the patch's version of an unchanged test.
	if want := []string{"TestAlsoTable", "TestDecode", "TestShadow", "TestTable"}; !slices.Equal(edited, want) {
		t.Fatalf("Edited = %v, want %v", edited, want)
	}
}

func TestGoReplacingBringsThePatchsDeclarations(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the go command")
	}
	out, _, err := GoReplacing([]byte(tableBase), []byte(tablePatched), []string{"TestTable", "TestDecode"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, must := range []string{
		"var cases = []row{{1, 1}}\n", "var sealgatePatch_cases = []row{{1, 1}, {3, 3}}",
		"func TestTable(t *testing.T) { check(t, sealgatePatch_cases) }",
		"type sealgatePatch_Basic struct", "func (b sealgatePatch_Basic) String() string",
		"b := sealgatePatch_Basic{Vint: 1, Vnew: Double(2)}", `sealgatePatch_name != "patched"`,
		`if len(cases) != 1 {`, "func sealgatePatch_isOne(b sealgatePatch_Basic) bool", "!sealgatePatch_isOne(b)",
	} {
		if !strings.Contains(s, must) {
			t.Errorf("spliced file lacks %q", must)
		}
	}
	if t.Failed() {
		t.Fatalf("spliced:\n%s", s)
	}
	// The spliced file builds; on code that gets 3 wrong, the patch's row
	// fails TestTable while the baseline's tests still pass; on fixed code
	// every test passes.
	for code, want := range map[string]string{
		"func Double(x int) int {\n\tif x == 3 {\n\t\treturn 0\n\t}\n\treturn 2 * x\n}\n": "FAIL: TestTable",
		"func Double(x int) int { return 2 * x }\n":                                       "",
	} {
		dir := t.TempDir()
		for name, body := range map[string]string{
			"go.mod":       "module example.com/calc\n\ngo 1.16\n",
			"calc.go":      "package calc\n\n" + code,
			"calc_test.go": s,
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(goBin, "test", "-count=1", "-v", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		b, err := cmd.CombinedOutput()
		switch {
		case want == "" && err != nil:
			t.Errorf("on the fixed code: %v\n%s", err, b)
		case want != "" && !strings.Contains(string(b), "--- "+want):
			t.Errorf("on the broken code: want %q:\n%s", want, b)
		case want != "" && (strings.Contains(string(b), "--- FAIL: TestAlsoTable") || strings.Contains(string(b), "--- FAIL: TestDecode")):
			t.Errorf("a baseline test failed:\n%s", b)
		}
	}
}

func TestGoBeside(t *testing.T) {
	out, added, err := GoBeside([]byte(tableBase), []byte(tablePatched), []string{"TestTable"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	// The baseline's tests stay as they are; the patch's versions run
	// beside them, under new names, with the patch's declarations.
	for _, must := range []string{
		"func TestTable(t *testing.T) { check(t, cases) }",
		"func TestTable_sealgatePatch(t *testing.T) { check(t, sealgatePatch_cases) }",
		"b := Basic{Vint: 1}",
	} {
		if !strings.Contains(s, must) {
			t.Errorf("spliced file lacks %q", must)
		}
	}
	// A test that uses a type the patch changes is not laid beside: the
	// renamed type is another type, which the file's other declarations
	// may embed or take.
	if _, _, err := GoBeside([]byte(tableBase), []byte(tablePatched), []string{"TestTable", "TestDecode"}); !errors.Is(err, ErrConflict) {
		t.Errorf("a test using a changed type laid beside: %v", err)
	}
	if want := []string{"func TestTable_sealgatePatch"}; !slices.Equal(added, want) {
		t.Errorf("added %v, want %v", added, want)
	}
	if t.Failed() {
		t.Fatalf("spliced:\n%s", s)
	}
	if _, _, err := GoBeside([]byte(tableBase), []byte(tablePatched), []string{"TestNowhere"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a test the baseline lacks: %v", err)
	}
}

// A patch that only adds to a test file: the spliced file is the patch's,
// line for line, so a test that reads its own position (runtime.Caller)
// runs where its author put it. Anything else of meaning changed — a
// baseline declaration, the build constraint, a //line directive — and the
// baseline's file is laid over as before.
func TestGoKeepsAFileThatOnlyAdds(t *testing.T) {
	const b = "//go:build !race\n\npackage x\n\nimport \"testing\"\n\n// TestOld pins something.\nfunc TestOld(t *testing.T) {}\n"
	p := strings.Replace(b, "import \"testing\"", "import (\n\t\"runtime\"\n\t\"testing\"\n)", 1) +
		"\n// a comment between declarations\n\nfunc TestLine(t *testing.T) {\n\tif _, _, line, _ := runtime.Caller(0); line != 16 {\n\t\tt.Fatal(line)\n\t}\n}\n"
	out, added, err := Go([]byte(b), []byte(p))
	if err != nil || string(out) != p || !slices.Equal(added, []string{"func TestLine"}) {
		t.Fatalf("Go = %v, %v\n%s", added, err, out)
	}
	for name, other := range map[string]string{
		"a baseline test changed": strings.Replace(p, "func TestOld(t *testing.T) {}", "func TestOld(t *testing.T) { t.Skip() }", 1),
		"the build constraint":    strings.Replace(p, "!race", "race", 1),
		"a //line directive":      strings.Replace(p, "// a comment between declarations", "//line x.go:1", 1),
		"a baseline doc comment":  strings.Replace(p, "// TestOld pins something.", "// TestOld pins.", 1),
	} {
		out, _, err := Go([]byte(b), []byte(other))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(out) == other || !strings.Contains(string(out), "Declarations the patch adds") && name != "a baseline test changed" {
			t.Errorf("%s: the patch's file taken as it is:\n%s", name, out)
		}
	}
}

// suiteBase runs a testify suite whose methods are the cases; the type's
// other methods may live in other files of the package.
const suiteBase = `package calc

import (
	"testing"

	"github.com/stretchr/testify/suite"
)

type ClampSuite struct{ suite.Suite }

var clampCases = []struct{ v, want int }{{-3, 0}}

func (s *ClampSuite) TestTable() {
	for _, c := range clampCases {
		s.Equal(c.want, Clamp(c.v, 0, 10))
	}
}

func (s *ClampSuite) TestSign() { s.Equal(1, Sign(7)) }

func TestClampSuite(t *testing.T) { suite.Run(t, new(ClampSuite)) }

func TestOther(t *testing.T) {}
`

// A patch that adds a row to the table a suite's method ranges over, edits
// another method and adds a third edits the test that runs the suite: its
// version runs the patch's methods on a wrapper of the suite's type, beside
// or instead of the baseline's, which the file's other tests keep.
func TestSuiteMethodsEdited(t *testing.T) {
	p := strings.NewReplacer(
		"{{-3, 0}}", "{{-3, 0}, {15, 10}}",
		"s.Equal(1, Sign(7))", "s.Equal(1, Sign(8))",
		"func TestOther(t *testing.T) {}", "func TestOther(t *testing.T) {}\n\nfunc (s *ClampSuite) TestAbove() { s.Equal(10, Clamp(11, 0, 10)) }",
	).Replace(suiteBase)
	edited, err := Edited([]byte(suiteBase), []byte(p))
	if err != nil || !slices.Equal(edited, []string{"TestClampSuite"}) {
		t.Fatalf("Edited = %v, %v", edited, err)
	}
	for _, tc := range []struct {
		name string
		lay  func(b, p []byte, names []string) ([]byte, []string, error)
		test string
	}{
		{"replacing", GoReplacing, "TestClampSuite"},
		{"beside", GoBeside, "TestClampSuite" + BesideSuffix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, added, err := tc.lay([]byte(suiteBase), []byte(p), edited)
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			for _, want := range []string{
				"type sealgatePatch_ClampSuite struct{ ClampSuite }",
				"func " + tc.test + "(t *testing.T) { suite.Run(t, new(sealgatePatch_ClampSuite)) }",
				"func (s *sealgatePatch_ClampSuite) TestTable() {\n\tfor _, c := range sealgatePatch_clampCases {",
				"func (s *sealgatePatch_ClampSuite) TestSign() { s.Equal(1, Sign(8)) }",
				"func (s *sealgatePatch_ClampSuite) TestAbove()",
				"var sealgatePatch_clampCases = []struct{ v, want int }{{-3, 0}, {15, 10}}",
				// The baseline's, for the file's other tests.
				"func (s *ClampSuite) TestSign() { s.Equal(1, Sign(7)) }",
				"var clampCases = []struct{ v, want int }{{-3, 0}}",
			} {
				if !strings.Contains(s, want) {
					t.Errorf("no %q in\n%s", want, s)
				}
			}
			// The added method comes on the wrapper only: declared twice
			// on it, the file would not build.
			if n := strings.Count(s, ") TestAbove()"); n != 1 {
				t.Errorf("TestAbove declared %d times:\n%s", n, s)
			}
			if !slices.Contains(added, "func "+tc.test) {
				t.Errorf("added %v", added)
			}
		})
	}

	// Methods only added edit nothing: they are new tests (the file's
	// splice appends them to the baseline's type).
	added := strings.Replace(suiteBase, "func TestOther(t *testing.T) {}", "func TestOther(t *testing.T) {}\n\nfunc (s *ClampSuite) TestAbove() {}", 1)
	if edited, err := Edited([]byte(suiteBase), []byte(added)); err != nil || len(edited) != 0 {
		t.Fatalf("Edited = %v, %v", edited, err)
	}
	out, names, err := Go([]byte(suiteBase), []byte(added))
	if err != nil || !slices.Equal(names, []string{"method ClampSuite.TestAbove"}) || !strings.Contains(string(out), "func (s *ClampSuite) TestAbove() {}") {
		t.Fatalf("Go = %v, %v:\n%s", names, err, out)
	}
	// A suite the test makes with fields set: a wrapper starts from the
	// zero value, so the test is not laid on one (it edits nothing here).
	fields := strings.Replace(suiteBase, "suite.Run(t, new(ClampSuite))", "suite.Run(t, &ClampSuite{n: 1})", 1)
	if edited, err := Edited([]byte(fields), []byte(strings.Replace(p, "suite.Run(t, new(ClampSuite))", "suite.Run(t, &ClampSuite{n: 1})", 1))); err != nil || len(edited) != 0 {
		t.Fatalf("Edited with a suite made with fields = %v, %v", edited, err)
	}
	// A suite type the patch changes (a field added) is a renamed copy's
	// matter, not a wrapper's.
	field := strings.Replace(p, "type ClampSuite struct{ suite.Suite }", "type ClampSuite struct {\n\tsuite.Suite\n\tn int\n}", 1)
	if out, _, err := GoReplacing([]byte(suiteBase), []byte(field), []string{"TestClampSuite"}); err == nil && strings.Contains(string(out), "struct{ ClampSuite }") {
		t.Fatalf("a wrapper of a changed type:\n%s", out)
	}
}

// checkBase is a gocheck suite's cases in a file without the test
// function that runs them (gocheck's Test and the registration are
// elsewhere in the package).
const checkBase = `package calc

import . "gopkg.in/check.v1"

var boundCases = []struct{ v, want int }{{-3, 0}}

func (s *S) TestBound(c *C) {
	for _, b := range boundCases {
		c.Check(Bound(b.v, 0, 12), Equals, b.want)
	}
}

func (s *S) TestSign(c *C) { c.Check(Sign(7), Equals, 1) }
`

// A patch that adds a row to a table a gocheck method ranges over, or a
// method, changes the registered suite: GoRegistering lays the patch's
// methods on a wrapper registered beside the baseline's suite, whose
// methods stay for the baseline's run of the suite.
func TestGoRegistering(t *testing.T) {
	row := strings.Replace(checkBase, "{{-3, 0}}", "{{-3, 0}, {17, 12}}", 1)
	method := checkBase + "\nfunc (s *S) TestAbove(c *C) { c.Check(Bound(17, 0, 12), Equals, 12) }\n"
	for _, tc := range []struct {
		name, patched string
		want          []string
	}{
		{"a row", row, []string{"for _, b := range sealgatePatch_boundCases {", "var sealgatePatch_boundCases = []struct{ v, want int }{{-3, 0}, {17, 12}}"}},
		{"a method", method, []string{"func (s *sealgatePatch_S) TestAbove(c *C)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CheckChanged([]byte(checkBase), []byte(tc.patched), []string{"S"}); !slices.Equal(got, []string{"S"}) {
				t.Fatalf("CheckChanged: %v", got)
			}
			out, _, err := GoRegistering([]byte(checkBase), []byte(tc.patched), []string{"S"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			for _, want := range append(tc.want,
				"type sealgatePatch_S struct{ S }",
				"var _ = Suite(&sealgatePatch_S{})",
				"func (s *sealgatePatch_S) TestSign(c *C)",
				"func (s *S) TestBound(c *C) {\n\tfor _, b := range boundCases {",
			) {
				if !strings.Contains(s, want) {
					t.Errorf("no %q in\n%s", want, s)
				}
			}
			if strings.Contains(s, "func (s *S) TestAbove") {
				t.Errorf("the added method on the baseline's suite too:\n%s", s)
			}
		})
	}
	// A type no one registers, a file the patch does not change there: no
	// wrapper.
	if len(CheckChanged([]byte(checkBase), []byte(row), []string{"T"})) > 0 || len(CheckChanged([]byte(checkBase), []byte(checkBase), []string{"S"})) > 0 {
		t.Fatal("CheckChanged: a suite changed")
	}
	// Without gocheck imported, the wrapper cannot be registered.
	bare := strings.Replace(row, "import . \"gopkg.in/check.v1\"\n", "", 1)
	if _, _, err := GoRegistering([]byte(strings.Replace(checkBase, "import . \"gopkg.in/check.v1\"\n", "", 1)), []byte(bare), []string{"S"}, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("no gocheck import: %v", err)
	}
}
