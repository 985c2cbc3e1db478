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
`),
	}
	got := editedTests(base, patched)
	want := []string{"TestDeleted", "TestDirect", "TestRunsHelper", "TestViaDeep", "TestViaHelper"}
	if !slices.Equal(got, want) {
		t.Fatalf("editedTests = %v, want %v", got, want)
	}
	// A patch that only adds a test edits nothing.
	added := map[string][]byte{"a_test.go": append(slices.Clone(base["a_test.go"]), "\nfunc TestMore(t *testing.T) {}\n"...)}
	if got := editedTests(base, added); len(got) != 0 {
		t.Fatalf("adding a test: %v", got)
	}
}
