package checkout

import (
	"slices"
	"strings"
	"testing"
)

func TestEditedTests(t *testing.T) {
	base := map[string][]byte{
		"a_test.go": []byte(`package a

import "testing"

func helper() int { return 1 }

func deep() int { return helper() }

func TestDirect(t *testing.T) { _ = 1 }
func TestViaHelper(t *testing.T) { _ = helper() }
func TestViaDeep(t *testing.T) { _ = deep() }
func TestUntouched(t *testing.T) {}
func TestRunsHelper(t *testing.T) { t.Run("x", func(t *testing.T) { _ = deep }) }
func TestDeleted(t *testing.T) {}

type row struct{ in, want int }

var cases = []row{{1, 1}}

var rows = []row{{2, 2}}

func TestTable(t *testing.T) { _ = cases }
func TestRows(t *testing.T) { _ = rows }
`),
		"b_test.go": []byte(`package a

import "testing"

type pair struct{ a, b int }

func TestPair(t *testing.T) { _ = pair{} }
`),
	}
	patched := map[string][]byte{
		"a_test.go": []byte(`package a

import "testing"

func helper() int { return 2 }

func deep() int { return helper() }

func TestDirect(t *testing.T) { _ = 2 }
func TestViaHelper(t *testing.T) { _ = helper() }
func TestViaDeep(t *testing.T) { _ = deep() }
func TestUntouched(t *testing.T) {}
func TestRunsHelper(t *testing.T) { t.Run("x", func(t *testing.T) { _ = deep }) }
func TestNew(t *testing.T) {}

type row struct{ in, want int }

var cases = []row{{1, 1}, {3, 3}}

var rows = []row{{2, 2}}

func TestTable(t *testing.T) { _ = cases }
func TestRows(t *testing.T) { _ = rows }
`),
		"b_test.go": []byte(`package a

import "testing"

type pair struct{ a, b, c int }

func TestPair(t *testing.T) { _ = pair{} }
`),
	}
	got := editedTests(base, patched)
	// A type the patch changes (TestPair's) edits no test by itself.
	want := []string{"TestDeleted", "TestDirect", "TestRunsHelper", "TestTable", "TestViaDeep", "TestViaHelper"}
	if !slices.Equal(got, want) {
		t.Fatalf("editedTests = %v, want %v", got, want)
	}
	// A patch that only adds a test edits nothing.
	added := map[string][]byte{"a_test.go": append(slices.Clone(base["a_test.go"]), "\nfunc TestMore(t *testing.T) {}\n"...), "b_test.go": base["b_test.go"]}
	if got := editedTests(base, added); len(got) != 0 {
		t.Fatalf("adding a test: %v", got)
	}
}

// TestEditedSuiteTests: a test that runs a testify suite is edited when
// the patch edits one of the suite's methods, in any test file of the
// package, or a helper or table a method uses; a method only added edits
// nothing, and neither does a method of a type no test runs.
func TestEditedSuiteTests(t *testing.T) {
	const runner = "package a\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype S struct{ suite.Suite }\n\nfunc TestS(t *testing.T) { suite.Run(t, new(S)) }\n\nfunc TestOther(t *testing.T) {}\n"
	const methods = "package a\n\nvar rows = []int{1}\n\nfunc (s *S) TestA() { s.Equal(1, 1) }\n\nfunc (s *S) TestRows() { _ = rows }\n\nfunc (h *helper) TestLike() {}\n"
	base := map[string][]byte{"a_test.go": []byte(runner), "m_test.go": []byte(methods)}
	for _, tc := range []struct {
		name, from, to string
		want           []string
	}{
		{"a method edited", "s.Equal(1, 1)", "s.Equal(1, 2)", []string{"TestS"}},
		{"a method deleted", "func (s *S) TestA() { s.Equal(1, 1) }", "", []string{"TestS"}},
		{"a table a method uses", "[]int{1}", "[]int{1, 2}", []string{"TestS"}},
		{"a method added", "func (h *helper)", "func (s *S) TestB() {}\n\nfunc (h *helper)", nil},
		{"a method of a type no test runs", "func (h *helper) TestLike() {}", "func (h *helper) TestLike() { _ = 1 }", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patched := map[string][]byte{"a_test.go": []byte(runner), "m_test.go": []byte(strings.Replace(methods, tc.from, tc.to, 1))}
			if got := editedTests(base, patched); !slices.Equal(got, tc.want) {
				t.Fatalf("editedTests = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEditedCheckSuites: gocheck's test function runs every suite the
// package registers, wherever its methods are: an edited method edits it.
func TestEditedCheckSuites(t *testing.T) {
	const runner = "package a\n\nimport (\n\t\"testing\"\n\n\t. \"gopkg.in/check.v1\"\n)\n\nfunc Test(t *testing.T) { TestingT(t) }\n\ntype S struct{}\n\nvar _ = Suite(&S{})\n"
	const methods = "package a\n\nimport . \"gopkg.in/check.v1\"\n\nvar rows = []int{1}\n\nfunc (s *S) TestRows(c *C) { _ = rows }\n"
	base := map[string][]byte{"a_test.go": []byte(runner), "m_test.go": []byte(methods)}
	patched := map[string][]byte{"a_test.go": []byte(runner), "m_test.go": []byte(strings.Replace(methods, "[]int{1}", "[]int{1, 2}", 1))}
	if got := editedTests(base, patched); !slices.Equal(got, []string{"Test"}) {
		t.Fatalf("editedTests = %v, want [Test]", got)
	}
}
