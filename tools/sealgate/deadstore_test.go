package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// TestVerifyDeadStoreJudged: a fix that writes a store no code reads
// (`cur++` in a branch that resets cur before anything reads it, as
// go-wordwrap v1.0.1 does) MERGEs: removing the store, or changing it, is
// the same program, so those mutants are equivalent and the store's
// statement is judged by nothing (it was INCONCLUSIVE: "no test notices a
// change to" it). Its twin stores a count that code after the loop reads
// (a cap no test reaches): not dead, its removal survives, INCONCLUSIVE.
func TestVerifyDeadStoreJudged(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	width := func(loop, newline, after string) string {
		return "package count\n\n// Width returns the length in runes of the longest line of s, -1 past 100 lines.\nfunc Width(s string) int {\n\twidth, cur, lines := 0, 0, 0\n" +
			loop + "\t\tif " + newline + " {\n" + after + "\t\t\tcur = 0\n\t\t\tcontinue\n\t\t}\n\t\tcur++\n\t\tif cur > width {\n\t\t\twidth = cur\n\t\t}\n\t}\n" +
			"\tif lines > 100 {\n\t\treturn -1\n\t}\n\treturn width\n}\n"
	}
	const test = "package count\n\nimport \"testing\"\n\nfunc TestWidth(t *testing.T) {\n\tfor s, want := range map[string]int{\"h\\u00e9llo\\nab\": 5, \"\": 0, \"ab\\nxyz\": 3, \"\\u00e9\": 1, \"a\\tb\": 3} {\n" +
		"\t\tif got := Width(s); got != want {\n\t\t\tt.Errorf(\"Width(%q) = %d, want %d\", s, got, want)\n\t\t}\n\t}\n}\n"
	bytes := width("\tfor i := 0; i < len(s); i++ {\n", "s[i] == '\\n'", "\t\t\tlines++\n")
	for _, c := range []struct {
		name, store string
		attack      bool
	}{
		{name: "a store reset before it is read", store: "\t\t\tlines++\n\t\t\tcur++\n"},
		{name: "a count read after the loop", store: "\t\t\tcur++\n\t\t\tlines += 2\n", attack: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := f.commit(f.honest().Commit, map[string]string{"count/count.go": bytes, "count/count_test.go": test})
			patch := f.commit(base, map[string]string{"count/count.go": width("\tfor _, c := range s {\n", "c == '\\n'", c.store)})
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestWidth")
			reasons := fmt.Sprint(a["reasons"])
			switch {
			case c.attack && a["decision"] == "MERGE":
				t.Fatalf("no test notices the line count: exit %d, MERGE %v", code, a["strength"])
			case c.attack && !strings.Contains(reasons, "no test notices a change to count/count.go"):
				t.Fatalf("the live store is not named: %s", reasons)
			case !c.attack && a["decision"] != "MERGE":
				t.Fatalf("the honest fix: exit %d, %v: %s %v", code, a["decision"], reasons, a["strength"])
			}
			t.Logf("%v: %s %v", a["decision"], reasons, a["strength"])
		})
	}
}
