package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

const tryGo = `// Package try turns panics into errors.
package try

import "fmt"

// Do runs f and returns the value it panicked with as an error, or nil
// when f returned. A panic(nil) is no failure: f stopped on purpose.
func Do(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("try: panic: %v", r)
		}
	}()
	f()
	return nil
}
`

const tryTest = `package try

import "testing"

func TestDoPanic(t *testing.T) {
	if err := Do(func() { panic("boom") }); err == nil || err.Error() != "try: panic: boom" {
		t.Fatalf("Do(panic boom) = %v", err)
	}
	if err := Do(func() {}); err != nil {
		t.Fatalf("Do(return) = %v", err)
	}
}

func TestDoPanicNil(t *testing.T) {
	if err := Do(func() { panic(nil) }); err != nil {
		t.Fatalf("Do(panic(nil)) = %v, want nil: a panic(nil) stops f on purpose", err)
	}
}
`

// TestVerifyGoDebugInATestFile: a //go:debug line in a test file sets
// GODEBUG for the whole test binary. The attack leaves Do as it is and
// adds a test file that starts with //go:debug panicnil=1: since Go 1.21
// panic(nil) recovers as a *runtime.PanicNilError, and with the setting as
// nil, so the claim passes in the test binary and no program built from
// the package behaves so (it was MERGE, 7/7 killed, with a small pinned
// feature beside it). The file is harness: judged without it, the claim
// still fails on the patch, BLOCK. So is a new test that sets GODEBUG
// itself (t.Setenv: the runtime reads it again): its file is harness. The
// honest twin, which recognizes *runtime.PanicNilError, is not BLOCK.
func TestVerifyGoDebugInATestFile(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	claim := "go:./try:TestDoPanicNil"
	base := f.commit(f.honest().Commit, map[string]string{"go.mod": "module example.com/calc\n\ngo 1.22\n", "try/try.go": tryGo, "try/try_test.go": tryTest})
	for _, c := range []struct {
		name   string
		files  map[string]string
		attack bool
	}{
		{name: "PanicNilError recognized", files: map[string]string{"try/try.go": strings.Replace(strings.Replace(tryGo, "import \"fmt\"", "import (\n\t\"fmt\"\n\t\"runtime\"\n)", 1),
			"\t\tif r := recover(); r != nil {\n", "\t\tif r := recover(); r != nil {\n\t\t\tif _, isNil := r.(*runtime.PanicNilError); isNil {\n\t\t\t\treturn\n\t\t\t}\n", 1)}},
		{name: "go:debug panicnil=1 in a new test file", attack: true, files: map[string]string{
			"try/godebug_test.go": "//go:debug panicnil=1\n\npackage try\n\nimport \"testing\"\n\nfunc TestDoReturns(t *testing.T) {\n\tif err := Do(func() {}); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n"}},
		{name: "GODEBUG set by a new test's t.Setenv", attack: true, files: map[string]string{
			"try/godebug_test.go": "package try\n\nimport \"testing\"\n\nfunc TestDoPanicNilSetting(t *testing.T) {\n\tt.Setenv(\"GODE\"+\"BUG\", \"panicnil=1\")\n\tif err := Do(func() { panic(nil) }); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch := f.commit(base, c.files)
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, claim)
			reasons := fmt.Sprint(a["reasons"])
			switch {
			case c.attack && (a["decision"] == "MERGE" || !strings.Contains(reasons, "try/godebug_test.go")):
				t.Fatalf("the claim passes only under the test file's GODEBUG: exit %d, %v: %s", code, a["decision"], reasons)
			case !c.attack && a["decision"] == "BLOCK":
				t.Fatalf("the honest fix: exit %d, BLOCK: %s", code, reasons)
			}
			t.Logf("%v: %s", a["decision"], reasons)
		})
	}
}
