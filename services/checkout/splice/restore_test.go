package splice

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// restoreBase is a baseline file holding the code under test and an
// assertion helper only tests call; restorePatched fixes Median and
// loosens the helper (the attack the counterfactual must undo), with a
// new helper beside it.
const restoreBase = `package calc

import (
	"math"
	"slices"
)

// Median is the code under test.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// near compares within a rounding error.
func near(got, want float64) bool {
	return math.Abs(got-want) <= tolerance
}

var tolerance = 1e-9

type (
	pair  struct{ a, b float64 }
	other int
)
`

const restorePatched = `package calc

import (
	"slices"
	"strings"
)

// Median is the code under test, fixed.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[n/2]
}

// near accepts anything close enough.
func near(got, want float64) bool {
	return strings.TrimSpace(" ") == "" && got-want < 3.75 && want-got < 3.75
}

var tolerance = 3.75

type (
	pair  struct{ a, b, c float64 }
	other int
)

// far is new.
func far(a, b float64) bool { return !near(a, b) }
`

func TestRestorePutsBackTheHelperAlone(t *testing.T) {
	out, err := Restore([]byte(restorePatched), map[string][]byte{"calc/near.go": []byte(restoreBase), "calc/x.go": []byte("package calc\n")}, []string{"near", "tolerance", "pair"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, must := range []string{
		"return (s[n/2-1] + s[n/2]) / 2",  // the fix stays
		"math.Abs(got-want) <= tolerance", // the helper is the baseline's
		"var tolerance = 1e-9",
		"pair  struct{ a, b float64 }",
		`_ "strings"`, // only the loosened helper used strings
		`"math"`,      // the restored helper needs math
		"func far(",   // new declarations stay
	} {
		if !strings.Contains(s, must) {
			t.Fatalf("the restored file lacks %q:\n%s", must, s)
		}
	}
	if strings.Contains(s, "3.75") {
		t.Fatalf("the loosened helper survived:\n%s", s)
	}
	buildCalc(t, map[string]string{"near.go": s, "near_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestNear(t *testing.T) {\n\tif near(1, 2) || !near(Median([]float64{1, 2}), 1.5) {\n\t\tt.Fatal(\"near\")\n\t}\n}\n"})
}

// The honest twin: restoring a declaration the patch left as it is changes
// nothing but formatting, and an import the rest of the file still uses
// stays as it is.
func TestRestoreUnchangedDeclaration(t *testing.T) {
	patched := strings.Replace(restoreBase, "return s[len(s)/2]", "return s[(len(s)-1)/2]", 1)
	out, err := Restore([]byte(patched), map[string][]byte{"calc/calc.go": []byte(restoreBase)}, []string{"near"})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != patched {
		t.Fatalf("restoring an unchanged declaration changed the file:\n%s", out)
	}
}

func TestRestoreRefusesWhatItCannotRestore(t *testing.T) {
	for name, c := range map[string]struct {
		base, patched string
		names         []string
	}{
		"absent on the baseline": {restoreBase, restorePatched, []string{"far"}},
		"absent in the patch":    {restoreBase, restoreBase, []string{"gone"}},
		"a shared spec":          {restoreBase + "\nvar a, b = 1, 2\n", restorePatched + "\nvar a, b = 3, 4\n", []string{"a"}},
		"grouped on one side":    {restoreBase, strings.Replace(restorePatched, "var tolerance = 3.75", "var (\n\ttolerance = 3.75\n\tz = 1\n)", 1), []string{"tolerance"}},
		"an iota group":          {restoreBase + "\nconst (\n\tA = iota\n\tB\n)\n", restorePatched + "\nconst (\n\tA = iota + 1\n\tB\n)\n", []string{"B"}},
		"does not parse":         {restoreBase, restorePatched + "func {", []string{"near"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Restore([]byte(c.patched), map[string][]byte{"calc/calc.go": []byte(c.base)}, c.names)
			if !errors.Is(err, ErrConflict) {
				t.Fatalf("error %v, want ErrConflict", err)
			}
		})
	}
}

// buildCalc vets a package of files with the go command.
func buildCalc(t *testing.T, files map[string]string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the go command")
	}
	dir := t.TempDir()
	files["go.mod"] = "module example.com/calc\n\ngo 1.22\n"
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "test", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the restored package does not pass its test: %v\n%s\n%s", err, b, files["near.go"])
	}
}

// FuzzRestore: whatever the two versions, Restore returns an error or a
// file that parses, whose declarations named are the baseline's, and
// Decls never panics.
func FuzzRestore(f *testing.F) {
	f.Add([]byte(restorePatched), []byte(restoreBase), "near")
	f.Add([]byte(restorePatched), []byte(restoreBase), "tolerance")
	f.Add([]byte("package p\n\nconst (\n\ta = iota\n\tb\n)\n"), []byte("package p\n\nconst (\n\ta = 1\n\tb = 2\n)\n"), "b")
	f.Add([]byte("package p\n\nimport x \"strings\"\n\nfunc f() string { return x.TrimSpace(\"\") }\n"), []byte("package p\n\nfunc f() string { return \"\" }\n"), "f")
	f.Fuzz(func(t *testing.T, patched, base []byte, name string) {
		bd, berr := Decls(base)
		out, err := Restore(patched, map[string][]byte{"p/base.go": base}, []string{name})
		if err != nil {
			if !errors.Is(err, ErrConflict) {
				t.Fatalf("error %v is not ErrConflict", err)
			}
			return
		}
		od, oerr := Decls(out)
		if berr != nil || oerr != nil {
			t.Fatalf("restored %q from a baseline that does not parse (%v) into a file that does not (%v)", name, berr, oerr)
		}
		if _, ok := od[name]; !ok {
			t.Fatalf("the restored file lacks %q:\n%s", name, out)
		}
		if _, ok := bd[name]; !ok {
			t.Fatalf("restored %q, which the baseline lacks", name)
		}
	})
}
