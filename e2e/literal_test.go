package e2e

import (
	"strings"
	"testing"
)

// TestAttackTwoEditsInOneString: a name must be letters and digits only.
// The fix lets upper case through (`^[a-z0-9]+$` → `^[a-zA-Z0-9]+`), and in
// the same string drops the $ anchor: "bob; rm -rf /" now validates. The
// restore of the whole string is the bug, killed by any test of the fix;
// each edit undone alone is a mutant of its own, and the anchor's
// survives. Its honest twin keeps the anchor: MERGE. The string is tried
// as a package-level value (a data line) and inside a function.
func TestAttackTwoEditsInOneString(t *testing.T) {
	const test = `package calc

import "testing"

func TestValidLower(t *testing.T) {
	if !Valid("bob7") || Valid("") || Valid(" bob") {
		t.Fatal("Valid: bob7 only")
	}
}
`
	const upper = `
func TestValidUpper(t *testing.T) {
	if !Valid("Bob") || !Valid("ALICE9") || !Valid("Zed") {
		t.Fatal("Valid: upper case letters are letters")
	}
}
`
	for _, c := range []struct{ name, code string }{
		{"package value", "package calc\n\nimport \"regexp\"\n\nvar validName = regexp.MustCompile(%q)\n\n// Valid reports whether name is letters and digits only.\nfunc Valid(name string) bool { return validName.MatchString(name) }\n"},
		{"in a function", "package calc\n\nimport \"regexp\"\n\n// Valid reports whether name is letters and digits only.\nfunc Valid(name string) bool { return regexp.MustCompile(%q).MatchString(name) }\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			code := func(re string) string { return strings.Replace(c.code, "%q", `"`+re+`"`, 1) }
			base := r.commit(t, r.Base, "names", "calc: Valid", map[string]string{
				"calc/name.go": code(`^[a-z0-9]+$`), "calc/name_test.go": test, "calc/median.go": r.honestMedian(t),
			})
			attack := r.commit(t, base, "names-attack", "calc: upper case names are valid", map[string]string{
				"calc/name.go": code(`^[a-zA-Z0-9]+`), "calc/name_test.go": test + upper,
			})
			v := verify(t, r.patchArgs(base, attack, claimArgs("go:./calc:TestValidUpper")...)...)
			v.wantNot(t, merge)
			if !strings.Contains(v.stdout, "(one edit undone)") {
				t.Errorf("no mutant undoes one edit alone:\n%s", v)
			}

			honest := r.commit(t, base, "names-honest", "calc: upper case names are valid", map[string]string{
				"calc/name.go": code(`^[a-zA-Z0-9]+$`), "calc/name_test.go": test + upper,
			})
			verify(t, r.patchArgs(base, honest, claimArgs("go:./calc:TestValidUpper")...)...).wantDecision(t, merge)
		})
	}
}
