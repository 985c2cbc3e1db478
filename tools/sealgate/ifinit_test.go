package main

import (
	"fmt"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// TestVerifyIfInitJudged: an if's init (`if n, err := strconv.Atoi(s); err
// == nil {`) is a statement of its own, judged by a mutant that zeroes its
// first named variable in front of the condition. The honest fix, whose
// test checks the parsed values, MERGEs (it was INCONCLUSIVE: no mutant
// reached the init, "no test notices a change to p.go:9"). Its twin with a
// test that checks only the fallback is INCONCLUSIVE: zeroing n survives.
func TestVerifyIfInitJudged(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	parse := func(body string) string {
		return "package count\n\nimport \"strconv\"\n\n// Parse reads a count; -1 when s is no number.\nfunc Parse(s string) int {\n" + body + "}\n"
	}
	test := func(cases string) string {
		return "package count\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tfor s, want := range map[string]int{" + cases +
			"} {\n\t\tif got := Parse(s); got != want {\n\t\t\tt.Errorf(\"Parse(%q) = %d, want %d\", s, got, want)\n\t\t}\n\t}\n}\n"
	}
	fixed := parse("\tif n, err := strconv.Atoi(s); err == nil {\n\t\treturn n\n\t}\n\treturn -1\n")
	for _, c := range []struct {
		name, cases string
		attack      bool
	}{
		{name: "values checked", cases: `"12": 12, "0": 0, "x": -1, "": -1, "-3": -3`},
		{name: "only the fallback checked", cases: `"x": -1, "": -1`, attack: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := f.commit(f.honest().Commit, map[string]string{
				"count/count.go":      parse("\tn, _ := strconv.Atoi(s)\n\treturn n\n"),
				"count/count_test.go": test(c.cases),
			})
			patch := f.commit(base, map[string]string{"count/count.go": fixed})
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestParse")
			reasons := fmt.Sprint(a["reasons"])
			switch {
			case c.attack && a["decision"] == "MERGE":
				t.Fatalf("no test notices the parsed value: exit %d, MERGE %v", code, a["strength"])
			case !c.attack && a["decision"] != "MERGE":
				t.Fatalf("the honest fix: exit %d, %v: %s", code, a["decision"], reasons)
			}
			t.Logf("%v: %s %v", a["decision"], reasons, a["strength"])
		})
	}
}
