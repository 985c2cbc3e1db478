package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

const splitGo = `package calc

import "strings"

// splitToken splits a token into its three dot-separated parts.
func splitToken(s string) ([]string, bool) {
	parts := strings.Split(s, ".")
	return parts, len(parts) == 3
}
`

const splitTest = `package calc

import "testing"

func TestSplitToken(t *testing.T) {
	if _, ok := splitToken("a.b.c"); !ok {
		t.Fatal("a.b.c has three parts")
	}
	if _, ok := splitToken("a.b"); ok {
		t.Fatal("a.b has two")
	}
}
`

// TestVerifyPatchBreaksTestBuild: a patch that takes away what the
// package's unchanged tests use (a fix reverted: the function its test
// calls deleted) makes tests that pass on the baseline fail to build on
// the patch: BLOCK, naming the compiler's words — not an INCONCLUSIVE
// "unrunnable", which the gate's environment could also cause. Its
// honest twin renames the function and its test's call with it: the
// baseline's test file then cannot build on the patch either, but the
// patch changed it, so the oracle cannot judge: not BLOCK.
func TestVerifyPatchBreaksTestBuild(t *testing.T) {
	f := newFixture(t)
	base := f.commit(f.honest().Commit, map[string]string{"calc/split.go": splitGo, "calc/split_test.go": splitTest})
	deleted, err := f.repo.Commit(t.Context(), base, "split-deleted", "split deleted", map[string]string{"calc/other.go": "package calc\n\n// Other is a stand-in.\nfunc Other() int { return 1 }\n"}, "calc/split.go")
	if err != nil {
		t.Fatal(err)
	}
	code, a := f.verifyJSON(base, deleted, criteria.DefaultStrengthFloor, "go:./calc:TestSplitToken")
	if code == 0 || a["decision"] != "BLOCK" || !strings.Contains(fmt.Sprint(a["reasons"]), "undefined: splitToken") {
		t.Fatalf("a function the unchanged test uses deleted: exit %d, %v: %v", code, a["decision"], a["reasons"])
	}
	renamed := f.commit(base, map[string]string{
		"calc/split.go":      strings.ReplaceAll(splitGo, "splitToken", "splitParts"),
		"calc/split_test.go": strings.ReplaceAll(splitTest, "splitToken(", "splitParts("),
	})
	code, a = f.verifyJSON(base, renamed, criteria.DefaultStrengthFloor, "go:./calc:TestSplitToken")
	if a["decision"] == "BLOCK" || a["decision"] == "MERGE" {
		t.Fatalf("a function renamed with its test's calls: exit %d, %v: %v", code, a["decision"], a["reasons"])
	}
}
