package checkout

import (
	"slices"
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
