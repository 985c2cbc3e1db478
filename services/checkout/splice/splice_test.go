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
	f.Fuzz(func(t *testing.T, b, p []byte) {
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
