package checkout

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestTestFuncs(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"plain", `package p
import "testing"
func TestB(t *testing.T) {}
func TestA(t *testing.T) {}
func Test(t *testing.T) {}
func Test_under(t *testing.T) {}
func TestÄpfel(t *testing.T) {}
func Testable(t *testing.T) {}
func Testäpfel(t *testing.T) {}
func helper(t *testing.T) {}
func TestMain(m *testing.M) {}
func BenchmarkX(b *testing.B) {}
`, []string{"Test", "TestA", "TestB", "Test_under", "TestÄpfel"}},
		{"renamed import", `package p
import tt "testing"
func TestX(t *tt.T) {}
func TestY(t *testing.T) {}
`, []string{"TestX"}},
		{"dot import", `package p
import . "testing"
func TestX(t *T) {}
func TestY(t *testing.T) {}
`, []string{"TestX"}},
		{"blank import only", `package p
import _ "testing"
func TestX(t *testing.T) {}
`, nil},
		{"no import", `package p
func TestX(t *testing.T) {}
`, nil},
		{"signatures", `package p
import "testing"
func TestUnnamed(*testing.T) {}
func TestParen(t (*testing.T)) {}
func TestTwo(a, b *testing.T) {}
func TestTwoFields(a *testing.T, b int) {}
func TestNone() {}
func TestValue(t testing.T) {}
func TestResult(t *testing.T) error { return nil }
func TestGeneric[X any](t *testing.T) {}
type S struct{}
func (S) TestMethod(t *testing.T) {}
var TestVar = func(t *testing.T) {}
`, []string{"TestParen", "TestUnnamed"}},
		{"duplicates", `package p
import "testing"
func TestX(t *testing.T) {}
func TestX(t *testing.T) {}
`, []string{"TestX"}},
		{"build constrained", `//go:build ignore

package p
import "testing"
func TestIgnored(t *testing.T) {}
`, []string{"TestIgnored"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TestFuncs([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("TestFuncs = %q, want %q", got, tc.want)
			}
		})
	}
	for _, bad := range []string{"", "package", "package p\nfunc TestX(t *testing.T) {", "not go at all"} {
		if got, err := TestFuncs([]byte(bad)); err == nil {
			t.Errorf("TestFuncs(%q) = %q, want an error", bad, got)
		}
	}
}

func FuzzTestFuncs(f *testing.F) {
	for _, seed := range []string{
		"package p\nimport \"testing\"\nfunc TestA(t *testing.T) {}\n",
		"package p\nimport . \"testing\"\nfunc TestA(t *T) {}\nfunc TestB(t (*T)) {}\n",
		"package p\nimport tt \"testing\"\nfunc TestA[T any](t *tt.T) {}\nfunc (r R) TestB(t *tt.T) {}\n",
		"package p\nfunc init() {}\nfunc TestMain(m *testing.M) {}\n",
		"package p\nfunc TestX(t *testing.T",
		"",
		"\x00",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		a, errA := TestFuncs(src)
		b, errB := TestFuncs(src)
		if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
			t.Fatalf("not deterministic: %q %v, %q %v", a, errA, b, errB)
		}
		if errA != nil {
			if a != nil {
				t.Fatalf("names %q with error %v", a, errA)
			}
			return
		}
		if !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != len(a) {
			t.Fatalf("not sorted and unique: %q", a)
		}
		for _, name := range a {
			if !strings.HasPrefix(name, "Test") || !isTestName(name) {
				t.Fatalf("%q is not a test name", name)
			}
			if !strings.Contains(string(src), name) {
				t.Fatalf("%q is not in the source", name)
			}
		}
	})
}
