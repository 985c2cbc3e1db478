package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// besideGo is the lease of the value tests with code of its own beside
// the fix: Lease calls extra, whose result only stretches the lease by
// nanoseconds, so its lines run under the claim's test and nothing the
// test checks depends on them. RENEW is the fix (pinned by
// TestLeaseRenewals); EXTRA is where a wrong change rides.
const besideGo = `package calc

import (
	"fmt"
	"strings"
	"time"
)

var _ = strings.ToUpper

// Lease returns how long a lease of a kind lasts and how often it renews.
func Lease(kind string) (time.Duration, int) {
	ttl := 24*time.Hour + time.Duration(len(fmt.Sprint(extra(kind))))
	renewals := RENEW
	if kind == "admin" {
		renewals = 1
	}
	return ttl, renewals
}

EXTRA
`

// TestVerifyStatementsJudged attacks the rule that every changed, covered
// statement needs a killed mutant of its own. Before it, a changed line
// that offers no mutant (a call or a variable swapped, a float, a shift
// count, a generic function's argument, a constant of a kind that does
// not double) rode on the kills of the fix beside it: the strength ratio
// counts mutants, not what they judge (a fifth adversary's). Each is now
// INCONCLUSIVE, naming the statement. The honest twins: the fix alone,
// and a fix that adds a statement its test pins (its variable zeroed is
// killed), MERGE.
func TestVerifyStatementsJudged(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	lease := func(renew, extra string) string {
		return strings.NewReplacer("RENEW", renew, "EXTRA", extra).Replace(besideGo)
	}
	fn := func(body string) string { return "func extra(kind string) any {\n" + body + "}\n" }
	tagged := func(tag string) string {
		return fn("\tswitch " + tag + " {\n\tcase \"user\":\n\t\treturn \"u\"\n\tcase \"admin\":\n\t\treturn \"a\"\n\t}\n\treturn \"other\"\n")
	}
	attacks := []struct{ name, base, patch string }{
		{"a call swapped", fn("\tv := strings.ToUpper(kind)\n\treturn v\n"), fn("\tv := strings.ToLower(kind)\n\treturn v\n")},
		{"a variable swapped", fn("\ta, b := kind, kind+\"!\"\n\tv := a\n\treturn v + b + a[:0]\n"), fn("\ta, b := kind, kind+\"!\"\n\tv := b\n\treturn v + b + a[:0]\n")},
		{"a float in code", fn("\tfactor := 1.5\n\treturn factor * float64(len(kind))\n"), fn("\tfactor := 2.5\n\treturn factor * float64(len(kind))\n")},
		{"a shift count", fn("\tv := len(kind) << 3\n\treturn v\n"), fn("\tv := len(kind) << 4\n\treturn v\n")},
		{"a string literal in code", fn("\tv := \"https://\" + kind\n\treturn v\n"), fn("\tv := \"http://\" + kind\n\treturn v\n")},
		{"a boolean constant", "const (\n\tstrict = true\n\tlax    = false\n)\n\n" + fn("\tcheck := strict\n\treturn check\n"), "const (\n\tstrict = true\n\tlax    = false\n)\n\n" + fn("\tcheck := lax\n\treturn check\n")},
		// Coverage counted no case label before, so no mutant of one ran.
		{"a case label", fn("\tswitch len(kind) {\n\tcase 4:\n\t\treturn \"four\"\n\t}\n\treturn \"other\"\n"), fn("\tswitch len(kind) {\n\tcase 5:\n\t\treturn \"four\"\n\t}\n\treturn \"other\"\n")},
		// A label's last line that also holds an exempt statement (a
		// sixth adversary's): the line was judged by its `return nil`.
		{"a case label's line ending in return nil", fn("\tswitch kind {\n\tcase \"user\",\n\t\tguestKind: return nil\n\t}\n\treturn \"other\"\n") + "\nvar guestKind, adminKind = \"guest\", \"admin\"\n",
			fn("\tswitch kind {\n\tcase \"user\",\n\t\tadminKind: return nil\n\t}\n\treturn \"other\"\n") + "\nvar guestKind, adminKind = \"guest\", \"admin\"\n"},
		// A switch's tag or init statement (a sixth adversary's): its
		// header was exempt, so what the patch wrote there rode on the
		// fix's kills.
		{"a switch's tag wrapped in a call", tagged("kind"), tagged(`strings.TrimSuffix(kind, "s")`)},
		{"a switch's tag wrapped in a call of no literal", tagged("kind"), tagged("strings.ToLower(kind)")},
		{"a switch's init statement", fn("\tn := len(kind)\n\tswitch {\n\tcase n > 3:\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n"),
			fn("\tn := len(kind)\n\tswitch n := n - 1; {\n\tcase n > 3:\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n")},
		// A label changed to default (a sixth adversary's): coverage
		// gave a default label no block, and it was exempt. Then every
		// other length takes the branch; the test looks at none.
		{"a label changed to default", fn("\tswitch len(kind) {\n\tcase 4:\n\t\treturn \"four\"\n\tcase 7:\n\t\treturn \"seven\"\n\t}\n\treturn \"other\"\n"),
			fn("\tswitch len(kind) {\n\tcase 4:\n\t\treturn \"four\"\n\tdefault:\n\t\treturn \"seven\"\n\t}\n\treturn \"other\"\n")},
		{"a label changed to a default that ends the function", fn("\tswitch len(kind) {\n\tcase 4:\n\t\treturn \"four\"\n\tcase 9:\n\t\treturn \"nine\"\n\t}\n\treturn \"other\"\n"),
			fn("\tswitch len(kind) {\n\tcase 4:\n\t\treturn \"four\"\n\tdefault:\n\t\treturn \"nine\"\n\t}\n")},
		// A rune label and a label of a named string type offered no
		// mutant before they changed like other labels; nothing the
		// test checks depends on either.
		{"a rune label", fn("\tswitch kind[0] {\n\tcase 'u':\n\t\treturn \"u\"\n\t}\n\treturn \"other\"\n"), fn("\tswitch kind[0] {\n\tcase 'a':\n\t\treturn \"u\"\n\t}\n\treturn \"other\"\n")},
		{"a label of a named string type", "type role string\n\n" + fn("\tswitch role(kind) {\n\tcase \"user\":\n\t\treturn \"u\"\n\t}\n\treturn \"other\"\n"),
			"type role string\n\n" + fn("\tswitch role(kind) {\n\tcase \"admin\":\n\t\treturn \"u\"\n\t}\n\treturn \"other\"\n")},
		// A select's case (a sixth adversary's): cover gave it no
		// block, so the changed line was left out of coverage and no
		// mutant ran on it.
		{"a select's send value", fn("\tch := make(chan int, 1)\n\tselect {\n\tcase ch <- len(kind):\n\tdefault:\n\t}\n\treturn <-ch\n"),
			fn("\tch := make(chan int, 1)\n\tselect {\n\tcase ch <- len(kind) * 2:\n\tdefault:\n\t}\n\treturn <-ch\n")},
		// A seventh adversary's: in a select without a default, a
		// case that never fires could leave the select waiting, and a
		// test that hangs "killed" that mutant whatever it checked;
		// a select's empty default was exempt, as a switch's is, though
		// it stops the select waiting.
		{"a select's channel swapped, no default", fn("\ta, b := make(chan string, 1), make(chan string, 1)\n\ta <- kind\n\tb <- kind + \"!\"\n\tselect {\n\tcase v := <-a:\n\t\treturn v\n\t}\n"),
			fn("\ta, b := make(chan string, 1), make(chan string, 1)\n\ta <- kind\n\tb <- kind + \"!\"\n\tselect {\n\tcase v := <-b:\n\t\treturn v\n\t}\n")},
		{"an empty default added to a select", fn("\tch := make(chan int, 1)\n\tch <- len(kind)\n\tselect {\n\tcase v := <-ch:\n\t\treturn v\n\t}\n\treturn 0\n"),
			fn("\tch := make(chan int, 1)\n\tch <- len(kind)\n\tselect {\n\tcase v := <-ch:\n\t\treturn v\n\tdefault:\n\t}\n\treturn 0\n")},
		// An eighth adversary's: `break outer` → `break` in a switch
		// inside the loop (the break now leaves only the switch). The
		// deleted label sat before the run's end, in no statement; the
		// break it was cut from offers no mutant.
		{"a break's label deleted", fn("\tn := 0\nouter:\n\tfor _, r := range kind {\n\t\tswitch r {\n\t\tcase 's':\n\t\t\tbreak outer\n\t\tcase 'x':\n\t\t\tcontinue outer\n\t\t}\n\t\tn++\n\t}\n\treturn n\n"),
			fn("\tn := 0\nouter:\n\tfor _, r := range kind {\n\t\tswitch r {\n\t\tcase 's':\n\t\t\tbreak\n\t\tcase 'x':\n\t\t\tcontinue outer\n\t\t}\n\t\tn++\n\t}\n\treturn n\n")},
		{"a generic function's argument", "func clamp[T int | float64](v, lo, hi T) T {\n\treturn min(max(v, lo), hi)\n}\n\n" + fn("\tv := clamp(len(kind), 1, 100)\n\treturn v\n"),
			"func clamp[T int | float64](v, lo, hi T) T {\n\treturn min(max(v, lo), hi)\n}\n\n" + fn("\tv := clamp(len(kind), 1, 3)\n\treturn v\n")},
	}
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, at := range attacks {
		base := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": lease("3", at.base), "calc/lease_test.go": leaseRenewTest})
		code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": lease("5", at.patch)}))
		// (The statement, or statements: a deletion beside it is a
		// unit of its own too.)
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "no test notices a change to the changed statement") {
			t.Errorf("%s beside the fix: exit %d, %v: %v\nstrength %v", at.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	// The honest twins. The fix alone: the code beside it is not judged.
	base := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": lease("3", attacks[0].base), "calc/lease_test.go": leaseRenewTest})
	code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": lease("5", attacks[0].base)}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix that adds a statement offering no other mutant (a kind read
	// whatever its case), which its test pins.
	pinned := f.commit(base, map[string]string{"calc/lease_test.go": strings.Replace(leaseRenewTest, `Lease("admin")`, `Lease("Admin")`, 1)})
	fixed := strings.Replace(lease("5", attacks[0].base), "\trenewals := 5\n\tif kind == \"admin\" {", "\trenewals := 5\n\tk := strings.ToLower(kind)\n\tif k == \"admin\" {", 1)
	code, a = run(pinned, f.commit(pinned, map[string]string{"calc/lease.go": fixed}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix with a statement its test pins: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix that is a case label alone, which its test pins: the label
	// gave users (four letters) the admins' (five) renewals.
	label := func(n string) string {
		return strings.Replace(lease("5", attacks[0].base), "\tif kind == \"admin\" {\n", "\tswitch len(kind) {\n\tcase "+n+":\n", 1)
	}
	wrong := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": label("4"), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": label("5")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a case label: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix of a rune label (and the renewals), which its test pins:
	// kinds starting with 'a' (admins) renew once, not those with 'r'.
	// 'a' → 'b' is killed; without runes among the int constants the
	// label offered no mutant (INCONCLUSIVE, naming it).
	runeLabel := func(renew, r string) string {
		return strings.Replace(lease(renew, attacks[0].base), "\tif kind == \"admin\" {\n", "\tswitch kind[0] {\n\tcase "+r+":\n", 1)
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": runeLabel("3", "'r'"), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": runeLabel("5", "'a'")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a rune label: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix of a label of a named string type (and the renewals), which
	// its test pins: the label's "admin" → "" is killed (picked from a
	// [2]role; a [2]string would not match the tag).
	roleLabel := func(renew, v string) string {
		return strings.Replace(lease(renew, attacks[0].base+"\ntype role string\n"), "\tif kind == \"admin\" {\n", "\tswitch role(kind) {\n\tcase "+v+":\n", 1)
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": roleLabel("3", `"root"`), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": roleLabel("5", `"admin"`)}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a label of a named string type: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix of the value a select's case sends, which its test pins:
	// 5 → 6 is killed (the line was left out of coverage before).
	sent := func(n string) string {
		return lease("0\n\tgot := make(chan int, 1)\n\tselect {\n\tcase got <- "+n+":\n\t\trenewals = <-got\n\tdefault:\n\t}", attacks[0].base)
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": sent("3"), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": sent("5")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a select's case: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A value added to a label beside one the patch left as it was: the
	// kept value's mutants judge nothing the patch did (a sixth
	// adversary's). Wrong: roots now renew once too, and "admin"'s kills
	// vouched for rootKind, which offers no mutant. Honest: admins join
	// roots, and the test pins them.
	labels := func(renew, vals, decl string) string {
		return strings.Replace(lease(renew, attacks[0].base+decl), "\tif kind == \"admin\" {\n", "\tswitch kind {\n\tcase "+vals+":\n", 1)
	}
	const rootVar = "\nvar rootKind = \"root\"\n"
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": labels("3", `"admin"`, rootVar), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": labels("5", `"admin", rootKind`, rootVar)}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "no test notices a change to the changed statement at calc/lease.go:") {
		t.Errorf("a value added beside a label's kept value: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": labels("3", `"root"`, ""), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": labels("5", `"root", "admin"`, "")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix adding a value to a label: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix that writes a named string constant as a label (and the
	// renewals), which its test pins: the constant becomes "" and
	// "sealgate" (INCONCLUSIVE before: the label offered no mutant).
	const kinds = "\nconst rootKind, adminKind = \"root\", \"admin\"\n"
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": labels("3", "rootKind", kinds), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": labels("5", "adminKind", kinds)}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a named constant label: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix of a label's last line that ends in `return nil`, which its
	// test pins: five-letter kinds (admins) renew once, not four-letter
	// ones (users).
	short := func(n string) string {
		return strings.Replace(lease("5", attacks[0].base+"\nfunc short(kind string) error {\n\tswitch len(kind) {\n\tcase 3,\n\t\t"+n+": return nil\n\t}\n\treturn fmt.Errorf(\"long\")\n}\n"),
			"\tif kind == \"admin\" {\n", "\tif short(kind) == nil {\n", 1)
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": short("4"), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": short("5")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a label's line ending in return nil: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix that is a switch's tag (and the renewals), which its test
	// pins: admins renew once whatever the case of their kind. The tag
	// becoming "" is killed; without switch_tag the judged header
	// offered no mutant.
	tag := func(renew, expr string) string {
		return strings.Replace(lease(renew, attacks[0].base), "\tif kind == \"admin\" {\n", "\tswitch "+expr+" {\n\tcase \"admin\":\n", 1)
	}
	wrong = f.commit(pinned, map[string]string{"calc/lease.go": tag("3", "kind")})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": tag("5", "strings.ToLower(kind)")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a switch's tag: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix that is a label changed to default (and the renewals), which
	// its test pins: every kind but users' renews once. The default body
	// never running is killed.
	def := func(renew, label string) string {
		return strings.Replace(lease(renew, attacks[0].base), "\tif kind == \"admin\" {\n", "\tswitch kind {\n\tcase \"user\":\n\t"+label+":\n", 1)
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": def("3", `case "root"`), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": def("5", "default")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a label changed to default: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A fix that writes a call as the condition of a case of a switch
	// without a tag, which offers no mutant but the case never matching
	// (killed: admins renew five times then).
	cond := func(renew, c string) string {
		src := strings.Replace(lease(renew, attacks[0].base+"\nfunc isAdmin(kind string) bool { return kind == \"admin\" }\n"), "\tif kind == \"admin\" {\n", "\tswitch {\n\tcase "+c+":\n", 1)
		return src
	}
	wrong = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": cond("3", `kind == "root"`), "calc/lease_test.go": leaseRenewTest})
	code, a = run(wrong, f.commit(wrong, map[string]string{"calc/lease.go": cond("5", "isAdmin(kind)")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a case condition: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// TestVerifyStatementsJudgedByPosition attacks the rule that a kill
// judges only the statement it lies in, and a case label's values and a
// send's channel and value each on its own (a seventh adversary's). A
// kill on a changed line counted for every statement on it: the case's
// body on its label's line, pinned by the test, vouched for a value the
// patch changed in the label beside it, and a value fenced by the
// label's other values, which offers no mutant, rode on the other
// values' kills. The honest twin: a label and its body fixed on one
// line, both pinned by the test, MERGE.
func TestVerifyStatementsJudgedByPosition(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	// admins is the lease without extra's call, its admins' renewals set
	// by code instead of the if.
	admins := func(renew, decls, code string) string {
		src := strings.NewReplacer("RENEW", renew, "EXTRA", decls).Replace(besideGo)
		src = strings.Replace(src, "time.Duration(len(fmt.Sprint(extra(kind))))", "0", 1)
		src = strings.Replace(src, "\t\"fmt\"\n", "", 1)
		return strings.Replace(src, "\tif kind == \"admin\" {\n\t\trenewals = 1\n\t}\n", code, 1)
	}
	oneLine := func(renew, sw, body string) string {
		return admins(renew, "type role string\n", "\tswitch "+sw+": "+body+"\n\t}\n")
	}
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, at := range []struct{ name, base, patch string }{
		// Roots no longer renew once; "admin"'s and the body's kills
		// vouched for "rooot".
		{"a label's value changed on the line of the case's body", "role(kind) {\n\tcase \"admin\", \"root\"", "role(kind) {\n\tcase \"admin\", \"rooot\""},
		// 'r' (114) → 200: 199 and 201 are the label's own values, so
		// 200 offers no mutant; 'a''s kills vouched for it.
		{"a rune label fenced by the label's other values", "kind[0] {\n\tcase 'a', 0, 199, 'r', 201", "kind[0] {\n\tcase 'a', 0, 199, 200, 201"},
	} {
		base := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": oneLine("3", at.base, "renewals = 1"), "calc/lease_test.go": leaseRenewTest})
		code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": oneLine("5", at.patch, "renewals = 1")}))
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "(case value ") {
			t.Errorf("%s: exit %d, %v: %v\nstrength %v", at.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	// Honest: roots renewed twice, admins now once; the test pins the
	// label's value and the body beside it ("admin" → "" and 1 → 0 are
	// killed).
	base := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": oneLine("3", "kind {\n\tcase \"root\"", "renewals = 2"), "calc/lease_test.go": leaseRenewTest})
	code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": oneLine("5", "kind {\n\tcase \"admin\"", "renewals = 1")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix of a label and its body on one line: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// Honest (an eighth adversary's twin): `break` → `break loop` in a
	// switch inside the loop, the Go pitfall: admins kept looping and
	// renewed three times. No operator changed a labelled branch
	// (INCONCLUSIVE, naming it, seen); its label dropped is killed.
	looped := func(renew, brk string) string {
		return admins(renew, "", "loop:\n\tfor i := range 3 {\n\t\tswitch kind {\n\t\tcase \"admin\":\n\t\t\trenewals = i + 1\n\t\t\t"+brk+"\n\t\tdefault:\n\t\t\tcontinue loop\n\t\t}\n\t}\n")
	}
	base = f.commit(f.honest().Commit, map[string]string{"calc/lease.go": looped("3", "break"), "calc/lease_test.go": leaseRenewTest})
	code, a = run(base, f.commit(base, map[string]string{"calc/lease.go": looped("5", "break loop")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the honest fix giving a break its loop's label: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// TestVerifyImportSwapped attacks what no statement holds: an import
// swapped for another package of the same name beside the fix (an eighth
// adversary's html/template → text/template: the template code as it
// was, its output no longer escaped, the test looking at none of it)
// MERGEd. It is now code the gate cannot judge. The honest twin: the fix
// beside the same import moved to a group of its own MERGEs.
func TestVerifyImportSwapped(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const tmpl = "func extra(kind string) any {\n\tvar b strings.Builder\n\tt := template.Must(template.New(\"k\").Parse(\"<b>{{.}}</b>\"))\n\t_ = t.Execute(&b, kind)\n\treturn b.String()\n}\n"
	lease := func(renew, imp, extra string) string {
		src := strings.NewReplacer("RENEW", renew, "EXTRA", extra).Replace(besideGo)
		return strings.Replace(src, "import (\n", "import (\n\t"+imp+"\n", 1)
	}
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": lease("3", `"html/template"`, tmpl), "calc/lease_test.go": leaseRenewTest})
	code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": lease("5", `"text/template"`, tmpl)}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), `changes what template names from "html/template" to "text/template"`) {
		t.Errorf("an import swapped beside the fix: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The same import moved to a group of its own: no finding.
	moved := strings.Replace(lease("5", `"html/template"`, tmpl), "\t\"html/template\"\n", "", 1)
	moved = strings.Replace(moved, "\t\"time\"\n)", "\t\"time\"\n\n\t\"html/template\"\n)", 1)
	code, a = run(base, f.commit(base, map[string]string{"calc/lease.go": moved}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Errorf("the fix beside its file's imports regrouped: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// TestVerifyRewrittenInPlace attacks what no operator changed: a
// statement the rules exempted because no mutant changes it (return nil,
// var n int, a type switch's header and its cases of types), and a
// signature, which is in no statement. An eighth adversary rewrote them
// beside the fix, and each MERGEd:
//   - an error swallowed, or an empty slice returned as nil, as a
//     function's last statement;
//   - a counter narrowed (var n int → var n int8);
//   - a type switch's operand swapped, its case still run;
//   - two parameters of a type swapped in the signature;
//   - a pointer receiver made a value one.
//
// Each is now INCONCLUSIVE, naming it. A return of nils rewritten is now
// judged by return_nonnil: the honest twins, an error swallowed and a
// slice returned as nil on purpose, both pinned by the test, MERGE; so
// does a parameter added at the end. A var's type widened on purpose is
// INCONCLUSIVE: no mutant changes a type, and a human must look.
func TestVerifyRewrittenInPlace(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	lease := func(renew, extra string) string {
		return strings.NewReplacer("RENEW", renew, "EXTRA", extra).Replace(besideGo)
	}
	fn := func(body string) string { return "func extra(kind string) any {\n" + body + "}\n" }
	const validate = "func validate(kind string) error {\n\tif len(kind) < 5 {\n\t\treturn fmt.Errorf(\"kind %q too short\", kind)\n\t}\n\treturn nil\n}\n\n"
	checked := func(last string) string {
		return validate + "func check(kind string) error {\n\terr := validate(kind)\n\tif err == nil {\n\t\treturn nil\n\t}\n\t" + last + "\n}\n\n" + fn("\treturn check(kind)\n")
	}
	tagged := func(last string) string {
		return "func tags(kind string) []string {\n\tif !strings.HasPrefix(kind, \"u\") {\n\t\treturn []string{kind}\n\t}\n\t" + last + "\n}\n\n" + fn("\treturn tags(kind)\n")
	}
	counted := func(typ string) string {
		return fn("\tvar n " + typ + "\n\tfor range kind {\n\t\tn += 60\n\t}\n\treturn n\n")
	}
	joined := func(sig, body, call string) string {
		return "func join(" + sig + ") string {\n" + body + "\treturn prefix + \"/\" + name\n}\n\n" + fn("\treturn join("+call+")\n")
	}
	bumped := func(recv string) string {
		return "type counter struct{ n int }\n\nfunc (c " + recv + ") bump(by int) {\n\tc.n += by\n}\n\n" + fn("\tc := &counter{}\n\tc.bump(len(kind))\n\treturn c.n\n")
	}
	switched := func(operand string) string {
		return fn("\tvar a, b any = kind, kind + \"!\"\n\t_, _ = a, b\n\tswitch v := " + operand + ".(type) {\n\tcase string:\n\t\treturn v\n\t}\n\treturn \"other\"\n")
	}
	// pinned adds checks to the lease test (the baseline's test file).
	pinned := func(checks string) string {
		return strings.Replace(leaseRenewTest, "\tif _, n := Lease(\"admin\")", checks+"\tif _, n := Lease(\"admin\")", 1)
	}
	run := func(test, base, patch string) (int, map[string]any) {
		b := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": base, "calc/lease_test.go": test})
		return f.verifyJSON(b, f.commit(b, map[string]string{"calc/lease.go": patch}), criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, at := range []struct{ name, base, patch, want string }{
		{"an error swallowed, last return", checked("return err"), checked("return nil"), "(rewritten in place)"},
		{"an empty slice returned as nil, last return", tagged("return []string{}"), tagged("return nil"), "(rewritten in place)"},
		// A counter in a narrow integer type is judged wherever it is
		// declared anew, rewritten in place or not.
		{"a counter narrowed", counted("int"), counted("int8"), "no test notices a change to calc/lease.go:22"},
		{"a type switch's operand swapped, its case still run", switched("a"), switched("b"), "(rewritten in place)"},
		{"parameters swapped", joined("prefix, name string", "", "\"kinds\", kind"), joined("name, prefix string", "", "\"kinds\", kind"), "changes the parameters of join"},
		{"a pointer receiver made a value one", bumped("*counter"), bumped("counter"), "changes the receiver of counter.bump from *counter to counter"},
	} {
		code, a := run(leaseRenewTest, lease("3", at.base), lease("5", at.patch))
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"], a["strength"]), at.want) {
			t.Errorf("%s: exit %d, %v: %v\nstrength %v", at.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	for _, h := range []struct{ name, test, base, patch string }{
		// "<nil>" is five bytes of the TTL; the error's message is more.
		{"an error swallowed on purpose", pinned("\tif ttl, _ := Lease(\"user\"); ttl != 24*time.Hour+5 {\n\t\tt.Fatalf(\"user leases last %v\", ttl)\n\t}\n"),
			checked("return err"), checked("return nil")},
		{"a slice returned as nil on purpose", pinned("\tif tags(\"user\") != nil {\n\t\tt.Fatal(\"users have tags\")\n\t}\n"),
			tagged("return []string{}"), tagged("return nil")},
		{"a parameter added at the end", pinned("\tif got := extra(\"user\"); got != \"kinds/USER\" {\n\t\tt.Fatalf(\"extra is %v\", got)\n\t}\n"),
			joined("prefix, name string", "", "\"kinds\", kind"),
			joined("prefix, name string, upper bool", "\tif upper {\n\t\tname = strings.ToUpper(name)\n\t}\n", "\"kinds\", kind, true")},
	} {
		test := strings.Replace(h.test, "import \"testing\"", "import (\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = time.Hour", 1)
		code, a := run(test, lease("3", h.base), lease("5", h.patch))
		if code != 0 || a["decision"] != "MERGE" {
			t.Errorf("honest, %s: exit %d, %v: %v\nstrength %v", h.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	// A counter widened on purpose, pinned by the test: no mutant
	// changes a type.
	code, a := run(pinned("\tif got := extra(\"user\"); got != 240 {\n\t\tt.Fatalf(\"extra is %v\", got)\n\t}\n"), lease("3", counted("int8")), lease("5", counted("int")))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "(rewritten in place)") {
		t.Errorf("honest, a counter widened: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// TestVerifyReplacedPutBack attacks the rule that a statement is judged
// by any killed mutant of it: a kill says a test notices some change to
// the statement, not the change the patch made. An eighth adversary's
// MERGEs, each beside the fix:
//   - a call wrapped around an if's operand (kind →
//     strings.ToLower(kind): the == negation is killed, ADMIN now renews
//     once);
//   - a label's value rewritten around its kept constant (case 5: →
//     case max(5, strings.Count(kind, "!")):, the 5's mutants killed);
//   - a disjunct deleted from an if (kind == "admin" || kind == "root"
//     → kind == "admin": roots no longer renew once).
//
// What the patch replaced now goes back too (a restore mutant of the
// smallest expression holding what it wrote or deleted), and must be
// killed: each is INCONCLUSIVE. The honest twins, the same patches with a
// test that pins them, MERGE.
func TestVerifyReplacedPutBack(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const plain = "func extra(kind string) any {\n\treturn kind\n}\n"
	const adminIf = "\tif kind == \"admin\" {\n\t\trenewals = 1\n\t}\n"
	lease := func(renew, admins string) string {
		src := strings.NewReplacer("RENEW", renew, "EXTRA", plain).Replace(besideGo)
		return strings.Replace(src, adminIf, admins, 1)
	}
	pinned := func(checks string) string {
		return strings.Replace(leaseRenewTest, "\tif _, n := Lease(\"admin\")", checks+"\tif _, n := Lease(\"admin\")", 1)
	}
	renews := func(kind string, n int) string {
		return fmt.Sprintf("\tif _, n := Lease(%q); n != %d {\n\t\tt.Fatalf(\"%%s leases renew %%d times, want %d\", %q, n)\n\t}\n", kind, n, n, kind)
	}
	labelled := func(label string) string {
		return "\tswitch len(kind) {\n\tcase " + label + ":\n\t\trenewals = 1\n\t}\n"
	}
	run := func(test, base, patch string) (int, map[string]any) {
		b := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": base, "calc/lease_test.go": test})
		return f.verifyJSON(b, f.commit(b, map[string]string{"calc/lease.go": patch}), criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, c := range []struct {
		name, base, patch, pin string
	}{
		{"a call wrapped around an if's operand", adminIf, strings.Replace(adminIf, "kind ==", "strings.ToLower(kind) ==", 1), renews("ADMIN", 1)},
		{"a label's value rewritten around its kept constant", labelled("5"), labelled("max(5, strings.Count(kind, \"!\"))"), renews("!!!!!!", 1)},
		{"a disjunct deleted", strings.Replace(adminIf, "kind == \"admin\"", "kind == \"admin\" || kind == \"root\"", 1), adminIf, renews("root", 5)},
	} {
		code, a := run(leaseRenewTest, lease("3", c.base), lease("5", c.patch))
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "no test notices a change to the changed statement") {
			t.Errorf("%s: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
		code, a = run(pinned(c.pin), lease("3", c.base), lease("5", c.patch))
		if code != 0 || a["decision"] != "MERGE" {
			t.Errorf("honest, %s, pinned by the test: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	// A wrong term beside the fix in the fix's own expression: kinds
	// longer than five letters renew len(kind) times. Putting back the 3
	// is killed by the fix's test; the term is noticed only by a test
	// that tries a long kind.
	for _, c := range []struct{ name, renew string }{
		{"a wrong term beside the fix", "max(5, len(kind))"},
		{"a wrong term beside the fix, on the statement's next line", "max(5,\n\t\tlen(kind))"},
	} {
		code, a := run(leaseRenewTest, lease("3", adminIf), lease(c.renew, adminIf))
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "no test notices a change to the changed statement") {
			t.Errorf("%s: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
		code, a = run(pinned(renews("renewals", 8)), lease("3", adminIf), lease(c.renew, adminIf))
		if code != 0 || a["decision"] != "MERGE" {
			t.Errorf("honest, %s, pinned by the test: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
}

// TestVerifyGapsJudged attacks what no statement holds (an eighth
// adversary's D1 and D2, and what followed from them): an else written
// between two ifs (superadmins now renew 9 times), an else deleted, a
// label moved to the inner loop (continue outer now continues it), lines
// deleted on their own, a block deleted, a line deleted in the fix's own
// run. No expression holds the change and the kills beside it vouched for
// it: MERGE, each. Now each is a gap whose statement restore (the
// baseline put back there, the fix kept) must be killed: INCONCLUSIVE.
// The honest twins, a test pinning each change, MERGE.
func TestVerifyGapsJudged(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const plain = "func extra(kind string) any {\n\treturn kind\n}\n"
	const adminIf = "\tif kind == \"admin\" {\n\t\trenewals = 1\n\t}\n"
	lease := func(renew, admins, extra string) string {
		src := strings.NewReplacer("RENEW", renew, "EXTRA", extra).Replace(besideGo)
		return strings.Replace(src, adminIf, admins, 1)
	}
	fn := func(body string) string { return "func extra(kind string) any {\n" + body + "}\n" }
	run := func(test, base, patch string) (int, map[string]any) {
		b := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": base, "calc/lease_test.go": test})
		return f.verifyJSON(b, f.commit(b, map[string]string{"calc/lease.go": patch}), criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	renews := func(kind string, n int) string {
		return fmt.Sprintf("\tif _, n := Lease(%q); n != %d {\n\t\tt.Fatalf(\"%%s leases renew %%d times, want %d\", %q, n)\n\t}\n", kind, n, n, kind)
	}
	extraIs := func(kind string, v int) string {
		return fmt.Sprintf("\tif got := extra(%q); got != %d {\n\t\tt.Fatalf(\"extra(%%q) = %%v, want %d\", %q, got)\n\t}\n", kind, v, v, kind)
	}
	two := "\tif strings.HasPrefix(kind, \"super\") {\n\t\trenewals = 9\n\t}\n\tif strings.HasSuffix(kind, \"admin\") {\n\t\trenewals = 1\n\t}\n"
	elsed := "\tif strings.HasPrefix(kind, \"super\") {\n\t\trenewals = 9\n\t} else if strings.HasSuffix(kind, \"admin\") {\n\t\trenewals = 1\n\t}\n"
	loops := func(outer, inner string) string {
		return fn("\tn := 0\n" + outer + "\tfor i := range 3 {\n" + inner + "\t\tfor range kind {\n\t\t\tn += i\n\t\t\tcontinue outer\n\t\t}\n\t}\n\treturn n\n")
	}
	beside := func(renew, after string) string {
		return strings.Replace(lease(renew, adminIf, plain), "\trenewals := "+renew+"\n", "\trenewals := "+renew+"\n"+after, 1)
	}
	for _, c := range []struct{ name, base, patch, pin string }{
		{"a label moved to the inner loop", lease("3", adminIf, loops("outer:\n", "")), lease("5", adminIf, loops("", "\touter:\n")), extraIs("ab", 6)},
		{"an else inserted between two ifs", lease("3", two, plain), lease("5", elsed, plain), renews("superadmin", 9)},
		{"an else deleted", lease("3", elsed, plain), lease("5", two, plain), renews("superadmin", 1)},
		{"a line deleted", lease("3", adminIf, fn("\tn := len(kind)\n\tn *= 2\n\treturn n\n")), lease("5", adminIf, fn("\tn := len(kind)\n\treturn n\n")), extraIs("abc", 3)},
		{"a block deleted", lease("3", adminIf, fn("\tn := len(kind)\n\tif n > 3 {\n\t\tn = 3\n\t}\n\treturn n\n")), lease("5", adminIf, fn("\tn := len(kind)\n\treturn n\n")), extraIs("abcde", 5)},
		{"a line deleted in the fix's run", beside("3", "\tttl += time.Duration(len(kind))\n"), beside("5", ""),
			"\tif ttl, _ := Lease(\"abc\"); ttl%1000 != 3 {\n\t\tt.Fatalf(\"ttl %v\", ttl)\n\t}\n"},
	} {
		code, a := run(leaseRenewTest, c.base, c.patch)
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "no test notices a change to the changed statement") {
			t.Errorf("%s: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
		pinned := strings.Replace(leaseRenewTest, "\tif _, n := Lease(\"admin\")", c.pin+"\tif _, n := Lease(\"admin\")", 1)
		code, a = run(pinned, c.base, c.patch)
		if code != 0 || a["decision"] != "MERGE" {
			t.Errorf("honest, %s, pinned by the test: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
	}
}
