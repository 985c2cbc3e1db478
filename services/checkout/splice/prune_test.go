package splice

import (
	"errors"
	"strings"
	"testing"
)

func TestPrune(t *testing.T) {
	files := map[string][]byte{
		"rune_test.go": []byte(`//go:build !race

package dmp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAlign tests a helper the fix adds: it does not build on the baseline.
func TestAlign(t *testing.T) {
	if alignRuneStart("x", 0) != 0 {
		t.Fatal(strings.Repeat("x", 2))
	}
}

// TestApply is the claimed test: it calls only code the baseline has.
func TestApply(t *testing.T) {
	if !utf8.ValidString(apply(sample)) {
		t.Fatal("invalid")
	}
	_ = fixture{}.name()
}

func BenchmarkAlign(b *testing.B) { alignRuneStart("", 0) }

func ExampleAlign() {}

func Testify() {} // not an entry point: kept

var sample = "é"

type fixture struct{ n string }

type alias = fixture

func (f alias) name() string { return f.n }
`),
		"helpers_test.go": []byte(`package dmp

import "bytes"

func apply(s string) string { return s }

func TestOther(t *testing.T) { var b bytes.Buffer; _ = b.String() }
`),
	}
	got, err := Prune(files, "TestApply")
	if err != nil {
		t.Fatal(err)
	}
	r := string(got["rune_test.go"])
	for _, want := range []string{"//go:build !race", "func TestApply(", "var sample", "type fixture", "type alias = fixture", "func (f alias) name()", "func Testify()", `"unicode/utf8"`, `_ "strings"`} {
		if !strings.Contains(r, want) {
			t.Errorf("rune_test.go lost %q:\n%s", want, r)
		}
	}
	for _, gone := range []string{"TestAlign", "alignRuneStart", "BenchmarkAlign", "ExampleAlign", "a helper the fix adds"} {
		if strings.Contains(r, gone) {
			t.Errorf("rune_test.go kept %q:\n%s", gone, r)
		}
	}
	// Every kept line keeps its number and column.
	before, after := strings.Split(string(files["rune_test.go"]), "\n"), strings.Split(r, "\n")
	if len(before) != len(after) {
		t.Fatalf("%d lines became %d", len(before), len(after))
	}
	for i, l := range after {
		if l != "" && l != before[i] && !strings.Contains(l, "_ ") {
			t.Errorf("line %d: %q was %q", i+1, l, before[i])
		}
	}
	h := string(got["helpers_test.go"])
	if !strings.Contains(h, "func apply(") || strings.Contains(h, "func TestOther(") || !strings.Contains(h, `_ "bytes"`) {
		t.Errorf("helpers_test.go:\n%s", h)
	}

	if _, err := Prune(files, "TestMissing"); !errors.Is(err, ErrConflict) {
		t.Errorf("a test no file declares: %v", err)
	}
	if _, err := Prune(map[string][]byte{"a_test.go": []byte("package x\nfunc")}, "TestA"); !errors.Is(err, ErrConflict) {
		t.Errorf("a file that does not parse: %v", err)
	}
	// A test that runs its own binary again may be answered by a test
	// Prune would take out.
	selfExec := map[string][]byte{"a_test.go": []byte("package x\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) { exec.Command(os.Args[0]) }\n\nfunc TestHelperProcess(t *testing.T) {}\n")}
	if _, err := Prune(selfExec, "TestA"); !errors.Is(err, ErrConflict) {
		t.Errorf("a test that runs os.Args[0]: %v", err)
	}
}

// FuzzPrune: whatever the file, Prune returns an error or files that
// parse, never panics.
func FuzzPrune(f *testing.F) {
	f.Add("package x\n\nimport \"fmt\"\n\nfunc TestA(t *T) { fmt.Println(h()) }\nfunc h() int { return 1 }\nfunc TestB() { fmt.Print() }\n")
	f.Add("package x\nimport y \"a/b\"\nvar v, w = y.F(), 2\nfunc TestA() { _ = v }\n")
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Prune(map[string][]byte{"a_test.go": []byte(src)}, "TestA")
		if err != nil {
			return
		}
		if _, err := Prune(out, "TestA"); err != nil {
			t.Fatalf("the pruned file does not prune again: %v\n%s", err, out["a_test.go"])
		}
	})
}
