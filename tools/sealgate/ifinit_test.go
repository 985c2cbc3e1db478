package main

import (
	"fmt"
	"strings"
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

// TestVerifySwitchInitJudged: a switch's init (`switch n :=
// nonEmpty(names); {`) is judged by a mutant that zeroes the value it sets
// n to. The honest fix, a call swapped in the init whose test checks each
// count, MERGEs (it was INCONCLUSIVE: no operator reached the init). Its
// twin, whose test runs every count but checks only names that count
// none, is INCONCLUSIVE: zeroing n survives. (The baseline's switch has
// no init: the patch writes it beside what was there, which no restore
// judges.)
func TestVerifySwitchInitJudged(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	size := func(body string) string {
		return "package count\n\n// Size says how many names are not empty: none, one or many.\nfunc Size(names []string) string {\n" + body + "}\n\n" +
			"func nonEmpty(names []string) int {\n\tk := 0\n\tfor _, s := range names {\n\t\tif s != \"\" {\n\t\t\tk++\n\t\t}\n\t}\n\treturn k\n}\n"
	}
	test := func(cases string) string {
		return "package count\n\nimport \"testing\"\n\nfunc TestSize(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tnames []string\n\t\twant  string\n\t}{" + cases +
			"} {\n\t\tif got := Size(c.names); c.want != \"\" && got != c.want {\n\t\t\tt.Errorf(\"Size(%q) = %s, want %s\", c.names, got, c.want)\n\t\t}\n\t}\n}\n"
	}
	for _, c := range []struct {
		name, cases string
		attack      bool
	}{
		{name: "every count checked", cases: `{nil, "none"}, {[]string{""}, "none"}, {[]string{"a", ""}, "one"}, {[]string{"a", "b", ""}, "many"}`},
		{name: "only none checked", cases: `{nil, "none"}, {[]string{""}, "none"}, {[]string{"a"}, ""}, {[]string{"a", "b"}, ""}`, attack: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := f.commit(f.honest().Commit, map[string]string{
				"count/count.go":      size("\tswitch {\n\tcase len(names) == 0:\n\t\treturn \"none\"\n\tcase len(names) == 1:\n\t\treturn \"one\"\n\t}\n\treturn \"many\"\n"),
				"count/count_test.go": test(c.cases),
			})
			patch := f.commit(base, map[string]string{"count/count.go": size("\tswitch n := nonEmpty(names); {\n\tcase n == 0:\n\t\treturn \"none\"\n\tcase n == 1:\n\t\treturn \"one\"\n\t}\n\treturn \"many\"\n")})
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestSize")
			reasons := fmt.Sprint(a["reasons"])
			switch {
			case c.attack && a["decision"] == "MERGE":
				t.Fatalf("no test notices the count: exit %d, MERGE %v", code, a["strength"])
			case c.attack && !strings.Contains(reasons, "count/count.go:5"):
				t.Fatalf("the init's statement is not named: %s", reasons)
			case !c.attack && a["decision"] != "MERGE":
				t.Fatalf("the honest fix: exit %d, %v: %s", code, a["decision"], reasons)
			}
			t.Logf("%v: %s %v", a["decision"], reasons, a["strength"])
		})
	}
}
