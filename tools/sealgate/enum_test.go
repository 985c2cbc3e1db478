package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// TestVerifyEnumMemberJudged: a member of an enumeration the package
// defines, written in code (`k = double`), becomes each member declared
// beside it (double → single, double → back). It used to become its
// double, a value no member may have: code that compares it with the
// members only cannot tell it from the member itself, so no test could
// kill it and an honest fix (go-shellwords v1.0.12's `got = argQuoted`,
// its last member) was INCONCLUSIVE. The honest fix, whose test pins each
// kind, MERGEs; its twin, whose test checks only that a double-quoted
// string is quoted at all, is INCONCLUSIVE: the members beside it survive.
func TestVerifyEnumMemberJudged(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	kind := func(dq string) string {
		return "package quote\n\ntype kind int\n\nconst (\n\tplain kind = iota\n\tsingle\n\tdouble\n\tback\n)\n\n" +
			"func kindOf(s string) kind {\n\tk := plain\n\tif len(s) >= 2 && s[0] == '\\'' && s[len(s)-1] == '\\'' {\n\t\tk = single\n\t}\n" +
			"\tif len(s) >= 2 && s[0] == '\"' && s[len(s)-1] == '\"' {\n\t\tk = " + dq + "\n\t}\n\treturn k\n}\n\n" +
			"// Quote names how s is quoted.\nfunc Quote(s string) string {\n\tswitch kindOf(s) {\n\tcase plain:\n\t\treturn \"none\"\n\tcase single:\n\t\treturn \"single\"\n\tcase back:\n\t\treturn \"back\"\n\t}\n\treturn \"double\"\n}\n"
	}
	test := func(check string) string {
		return "package quote\n\nimport \"testing\"\n\nfunc TestQuote(t *testing.T) {\n\tfor s, want := range map[string]string{`'a'`: \"single\", `\"a\"`: \"double\", `a`: \"none\", `'a`: \"none\"} {\n\t\tif got := Quote(s); " + check +
			" {\n\t\t\tt.Errorf(\"Quote(%q) = %s, want %s\", s, got, want)\n\t\t}\n\t}\n}\n"
	}
	for _, c := range []struct {
		name, check string
		attack      bool
	}{
		{name: "every kind checked", check: "got != want"},
		{name: "only quoted or not checked", check: "(got == \"none\") != (want == \"none\")", attack: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := f.commit(f.honest().Commit, map[string]string{
				"quote/quote.go":      kind("plain"),
				"quote/quote_test.go": test(c.check),
			})
			patch := f.commit(base, map[string]string{"quote/quote.go": kind("double")})
			claim := "go:./quote:TestQuote"
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, claim)
			reasons := fmt.Sprint(a["reasons"])
			switch {
			case c.attack && a["decision"] == "MERGE":
				t.Fatalf("no test tells double from single: exit %d, MERGE %v", code, a["strength"])
			case c.attack && !strings.Contains(reasons, "quote/quote.go:18"):
				t.Fatalf("the member's line is not named: %s", reasons)
			case !c.attack && a["decision"] != "MERGE":
				t.Fatalf("the honest fix: exit %d, %v: %s", code, a["decision"], reasons)
			}
			t.Logf("%v: %s %v", a["decision"], reasons, a["strength"])
		})
	}
}
