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

// A testify suite whose type and test are in one file and whose methods,
// and the table one ranges over, are in another: the most common layout
// of a package's suite.
const (
	wrapRunner = `package calc

import (
	"testing"

	"github.com/stretchr/testify/suite"
)

type ClampSuite struct{ suite.Suite }

func TestClampSuite(t *testing.T) { suite.Run(t, new(ClampSuite)) }

func TestOther(t *testing.T) {}
`
	wrapMethods = `package calc

var clampCases = []struct{ v, want int }{{-3, 0}}

func (s *ClampSuite) TestTable() {
	for _, c := range clampCases {
		s.Equal(c.want, Clamp(c.v, 0, 10))
	}
}

func (s *ClampSuite) TestSign() { s.Equal(1, Clamp(1, 0, 10)) }
`
	// fakeSuite is as much of testify's suite package as the test
	// needs, so that the spliced files build and run offline: Run runs
	// every method named Test… as a subtest.
	fakeSuite = `package suite

import (
	"reflect"
	"strings"
	"testing"
)

type Suite struct{ t *testing.T }

func (s *Suite) SetT(t *testing.T) { s.t = t }

func (s *Suite) Equal(want, got int) {
	if want != got {
		s.t.Errorf("want %d, got %d", want, got)
	}
}

type setter interface{ SetT(*testing.T) }

func Run(t *testing.T, s setter) {
	v := reflect.ValueOf(s)
	for i := 0; i < v.NumMethod(); i++ {
		name := v.Type().Method(i).Name
		if !strings.HasPrefix(name, "Test") {
			continue
		}
		m := v.Method(i)
		t.Run(name, func(t *testing.T) { s.SetT(t); m.Call(nil) })
	}
}
`
)

// A patch that adds a row to the table a suite's method ranges over, in
// another file than the suite's test: SuiteEdited says so of that file
// only, and the files laid with the suite wrapped (Laying.Wrap) run the
// patch's methods through the patch's version of the test, which the
// runner's file declares with the wrapper, while the baseline's test runs
// the baseline's methods. The spliced package builds; on code that gets
// the new row wrong, the patch's version of the test fails and the
// baseline's passes.
func TestSuiteWrappedAcrossFiles(t *testing.T) {
	patchedMethods := strings.Replace(wrapMethods, "{{-3, 0}}", "{{-3, 0}, {15, 10}}", 1)
	if !SuiteEdited([]byte(wrapMethods), []byte(patchedMethods), "ClampSuite") {
		t.Fatal("SuiteEdited: the row added to the method's table edits nothing")
	}
	for name, c := range map[string][2]string{
		"the runner's file, unchanged":  {wrapRunner, wrapRunner},
		"another type's method edited":  {wrapMethods + "\nfunc (s *OtherSuite) TestX() {}\n", wrapMethods + "\nfunc (s *OtherSuite) TestX() { s.Fail() }\n"},
		"a method only added":           {wrapMethods, wrapMethods + "\nfunc (s *ClampSuite) TestAbove() {}\n"},
		"the type itself changed":       {wrapRunner, strings.Replace(wrapRunner, "struct{ suite.Suite }", "struct {\n\tsuite.Suite\n\tn int\n}", 1)},
		"a version that does not parse": {wrapMethods, patchedMethods + "func ("},
	} {
		if SuiteEdited([]byte(c[0]), []byte(c[1]), "ClampSuite") {
			t.Errorf("SuiteEdited: %s edits the suite", name)
		}
	}
	methods, _, err := GoLaying([]byte(wrapMethods), []byte(patchedMethods), Laying{Wrap: []string{"ClampSuite"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"func (s *sealgatePatch_ClampSuite) TestTable() {\n\tfor _, c := range sealgatePatch_clampCases {",
		"func (s *sealgatePatch_ClampSuite) TestSign()",
		"var sealgatePatch_clampCases = []struct{ v, want int }{{-3, 0}, {15, 10}}",
		// The baseline's, for the baseline's test.
		"func (s *ClampSuite) TestTable() {\n\tfor _, c := range clampCases {",
	} {
		if !strings.Contains(string(methods), want) {
			t.Errorf("the methods' file lacks %q:\n%s", want, methods)
		}
	}
	if strings.Contains(string(methods), "type sealgatePatch_ClampSuite") {
		t.Errorf("the methods' file declares the wrapper:\n%s", methods)
	}
	if _, _, err := GoLaying([]byte(wrapRunner), []byte(wrapRunner), Laying{Replace: []string{"TestClampSuite"}, Beside: []string{"TestClampSuite"}}); !errors.Is(err, ErrConflict) {
		t.Errorf("a test both replaced and laid beside: %v", err)
	}
	for _, tc := range []struct {
		name string
		l    Laying
		test string // the patch's version of the suite's test
	}{
		{"replaced", Laying{Replace: []string{"TestClampSuite"}, Wrap: []string{"ClampSuite"}}, "TestClampSuite"},
		{"beside", Laying{Beside: []string{"TestClampSuite"}, Wrap: []string{"ClampSuite"}}, "TestClampSuite" + BesideSuffix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runner, _, err := GoLaying([]byte(wrapRunner), []byte(wrapRunner), tc.l)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				"type sealgatePatch_ClampSuite struct{ ClampSuite }",
				"func " + tc.test + "(t *testing.T) { suite.Run(t, new(sealgatePatch_ClampSuite)) }",
			} {
				if !strings.Contains(string(runner), want) {
					t.Errorf("the runner's file lacks %q:\n%s", want, runner)
				}
			}
			goBin, err := exec.LookPath("go")
			if err != nil || os.Getenv("TEST_SRCDIR") != "" {
				t.Skip("needs the go command")
			}
			// On code that clamps above hi to lo, the patch's row fails
			// the patch's version of the test only; on fixed code every
			// test passes.
			for code, want := range map[string]string{
				"func Clamp(v, lo, hi int) int {\n\tif v < lo || v > hi {\n\t\treturn lo\n\t}\n\treturn v\n}\n":                          "--- FAIL: " + tc.test + "/TestTable",
				"func Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n": "",
			} {
				dir := t.TempDir()
				for name, body := range map[string]string{
					"go.mod":                 "module example.com/calc\n\ngo 1.22\n\nrequire github.com/stretchr/testify v1.0.0\n\nreplace github.com/stretchr/testify => ./testify\n",
					"testify/go.mod":         "module github.com/stretchr/testify\n\ngo 1.22\n",
					"testify/suite/suite.go": fakeSuite,
					"calc.go":                "package calc\n\n" + code,
					"suite_test.go":          string(runner),
					"clamp_test.go":          string(methods),
				} {
					if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				cmd := exec.Command(goBin, "test", "-count=1", "-v", ".")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
				b, err := cmd.CombinedOutput()
				switch {
				case want == "" && err != nil:
					t.Errorf("on the fixed code: %v\n%s", err, b)
				case want != "" && !strings.Contains(string(b), want):
					t.Errorf("on the broken code: want %q:\n%s", want, b)
				case want != "" && tc.test != "TestClampSuite" && strings.Contains(string(b), "--- FAIL: TestClampSuite/"):
					t.Errorf("the baseline's test failed:\n%s", b)
				}
			}
		})
	}
}

// TestReceiversAndTypeChanged: the types a file declares methods on, and
// whether two versions declare a type differently.
func TestReceiversAndTypeChanged(t *testing.T) {
	if got := Receivers([]byte(wrapMethods + "\nfunc (o Other) M() {}\n\nfunc F() {}\n")); !slices.Equal(got, []string{"ClampSuite", "Other"}) {
		t.Errorf("Receivers = %v", got)
	}
	if got := Receivers([]byte("package p\n\nfunc (")); got != nil {
		t.Errorf("Receivers of a file that does not parse = %v", got)
	}
	field := strings.Replace(wrapRunner, "struct{ suite.Suite }", "struct {\n\tsuite.Suite\n\tn int\n}", 1)
	for name, c := range map[string]struct {
		base, patched string
		want          bool
	}{
		"unchanged":          {wrapRunner, wrapRunner, false},
		"a field added":      {wrapRunner, field, true},
		"declared elsewhere": {wrapMethods, wrapMethods, false},
		"moved out":          {wrapRunner, strings.Replace(wrapRunner, "type ClampSuite struct{ suite.Suite }", "", 1), true},
		"does not parse":     {wrapRunner, wrapRunner + "func (", true},
	} {
		if got := TypeChanged([]byte(c.base), []byte(c.patched), "ClampSuite"); got != c.want {
			t.Errorf("%s: TypeChanged = %v, want %v", name, got, c.want)
		}
	}
}
