package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// ninthLease is a lease whose body (BODY) holds the fix (renewals 3 → 5,
// pinned by TestLeaseRenewals) and TOP is package-level code.
const ninthLease = `package calc

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
)

var _ = strings.ToUpper
var _ = fmt.Sprint
var _ = json.Marshal
var _ sync.Mutex

TOP
// Lease returns how long a lease of a kind lasts and how often it renews.
func Lease(kind string) (time.Duration, int) {
	ttl := 24 * time.Hour
BODY
	return ttl, renewals
}
`

const ninthAdminIf = "\tif kind == \"admin\" {\n\t\trenewals = 1\n\t}\n"

func ninthSrc(top, body string) string {
	return strings.NewReplacer("TOP", top, "BODY", strings.TrimSuffix(body, "\n")).Replace(ninthLease)
}

// ninthPin inserts checks into the renewals test (time imported).
func ninthPin(checks string) string {
	t := strings.Replace(leaseRenewTest, "\tif _, n := Lease(\"admin\")", checks+"\tif _, n := Lease(\"admin\")", 1)
	return strings.Replace(t, "import \"testing\"", "import (\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = time.Hour", 1)
}

func ninthTTL(kind, want string) string {
	return fmt.Sprintf("\tif ttl, _ := Lease(%q); ttl != %s {\n\t\tt.Fatalf(\"%s ttl %%v\", ttl)\n\t}\n", kind, want, kind)
}

func ninthRenews(kind string, n int) string {
	return fmt.Sprintf("\tif _, n := Lease(%q); n != %d {\n\t\tt.Fatalf(\"%s renews %%d, want %d\", n)\n\t}\n", kind, n, kind, n)
}

// recordTop is an audit helper Lease calls; in is written at the end of
// its if's body.
func recordTop(in string) string {
	return "var audit []string\n\nfunc record(kind string) error {\n\tif strings.HasPrefix(kind, \"a\") {\n\t\taudit = append(audit, \"privileged\")\n" + in + "\t}\n\taudit = append(audit, kind)\n\treturn nil\n}\n"
}

type ninthCase struct {
	name        string
	base, patch string
	pin         string // checks pinning the patch's new behaviour: the honest twin; "" for none
	// twin is what the honest twin gets: MERGE, or "gone" (INCONCLUSIVE:
	// no mutant puts a declaration back), or "" (not checked: the twin
	// is INCONCLUSIVE, a known cost).
	twin string
}

func ninthCases() []ninthCase {
	s := ninthSrc
	const stretch = "\tttl += time.Duration(len(kind))\n"
	return []ninthCase{
		{"whole-written fix line replaces a deleted line",
			s("", "\trenewals := 3\n"+stretch+ninthAdminIf),
			s("", "\trenewals := 3\n\trenewals = 5\n"+ninthAdminIf),
			ninthTTL("abc", "24*time.Hour"), "MERGE"},
		{"deleted line lends its last token to the fix",
			s("", "\trenewals := 3\n\tttl += time.Duration(len(kind)) + 5\n"+ninthAdminIf),
			s("", "\trenewals := 5\n"+ninthAdminIf),
			ninthTTL("abc", "24*time.Hour"), "MERGE"},
		{"a term deleted beside the fix",
			s("", "\trenewals := 3 + strings.Count(kind, \"+\")\n"+ninthAdminIf),
			s("", "\trenewals := 5\n"+ninthAdminIf),
			ninthRenews("user++", 5), "MERGE"},
		{"tuple: a leading target dropped",
			s("", "\tvar renewals int\n\tttl, renewals = ttl+time.Duration(len(kind)), 3\n"+ninthAdminIf),
			s("", "\tvar renewals int\n\trenewals = 5\n"+ninthAdminIf),
			ninthTTL("abc", "24*time.Hour"), ""},
		{"defer dropped from an unlock",
			s("var mu sync.Mutex\nvar leases = map[string]int{}\n", "\tmu.Lock()\n\tdefer mu.Unlock()\n\tleases[kind]++\n\trenewals := 3\n"+ninthAdminIf),
			s("var mu sync.Mutex\nvar leases = map[string]int{}\n", "\tmu.Lock()\n\tmu.Unlock()\n\tleases[kind]++\n\trenewals := 5\n"+ninthAdminIf),
			"", ""},
		{"init deleted",
			s("var bonus time.Duration\n\nfunc init() {\n\tbonus = time.Minute\n}\n", "\tttl += bonus\n\trenewals := 3\n"+ninthAdminIf),
			s("var bonus time.Duration\n", "\tttl += bonus\n\trenewals := 5\n"+ninthAdminIf),
			ninthTTL("user", "24*time.Hour"), "gone"},
		{"a wrong gap shielded by a cut fix line",
			s("", "\trenewals := 3\n\trenewals--\n"+ninthAdminIf+stretch),
			s("", "\trenewals := 5\n"+ninthAdminIf),
			ninthTTL("abc", "24*time.Hour"), "MERGE"},
		{"a String method deleted",
			s("type grade int\n\nfunc (g grade) String() string { return \"g\" + fmt.Sprint(int(g)) }\n", "\tttl += time.Duration(len(fmt.Sprint(grade(len(kind)))))\n\trenewals := 3\n"+ninthAdminIf),
			s("type grade int\n", "\tttl += time.Duration(len(fmt.Sprint(grade(len(kind)))))\n\trenewals := 5\n"+ninthAdminIf),
			ninthTTL("user", "24*time.Hour+1"), "gone"},
		{"a package var's initializer deleted",
			s("var bonus = time.Minute\n", "\tttl += bonus\n\trenewals := 3\n"+ninthAdminIf),
			s("var bonus time.Duration\n", "\tttl += bonus\n\trenewals := 5\n"+ninthAdminIf),
			ninthTTL("user", "24*time.Hour"), "gone"},
		{"padded2: a new return nil inside an untouched if",
			s(recordTop(""), "\t_ = record(kind)\n\trenewals := 3\n"+ninthAdminIf),
			s(recordTop("\t\treturn nil\n"), "\t_ = record(kind)\n\trenewals := 2 + len(kind)/len(kind) + 2*len(kind)/len(kind)\n"+ninthAdminIf),
			"\taudit = nil\n\tLease(\"admin\")\n\tif len(audit) != 1 {\n\t\tt.Fatalf(\"audit %v\", audit)\n\t}\n", "MERGE"},
		{"a case label's first value deleted",
			s("", "\trenewals := 3\n\tswitch kind {\n\tcase \"root\", \"admin\":\n\t\trenewals = 1\n\t}\n"),
			s("", "\trenewals := 5\n\tswitch kind {\n\tcase \"admin\":\n\t\trenewals = 1\n\t}\n"),
			ninthRenews("root", 5), "MERGE"},
		{"an if's leading call disjunct deleted",
			s("", "\trenewals := 3\n\tif strings.HasPrefix(kind, \"root\") || kind == \"admin\" {\n\t\trenewals = 1\n\t}\n"),
			s("", "\trenewals := 5\n"+ninthAdminIf),
			ninthRenews("rootx", 5), "MERGE"},
	}
}

// TestVerifyNinthAdversary holds a ninth adversary's wrong patches beside
// the fix RENEW 3 → 5 that MERGEd after the gap rule first landed: a line
// deleted in the fix's run behind a line written whole or one lending a
// token, a term deleted beside the fix in its expression, a leading
// assignment target dropped, a wrong deletion shielded by the fix's own
// deletion, a return of nils written into an if, a defer dropped, an
// init, a String method and a variable's value deleted, a label's first
// value and an if's leading call disjunct deleted. Each is no MERGE now;
// its honest twin, a test pinning the change, MERGEs — but where a
// declaration was deleted (no mutant puts one back: INCONCLUSIVE, named)
// and where a tuple's target was dropped (its restore does not compile).
func TestVerifyNinthAdversary(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	run := func(test, base, patch string) (int, map[string]any) {
		b := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": base, "calc/lease_test.go": test})
		return f.verifyJSON(b, f.commit(b, map[string]string{"calc/lease.go": patch}), criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, c := range ninthCases() {
		code, a := run(leaseRenewTest, c.base, c.patch)
		if code == 0 || a["decision"] == "MERGE" {
			t.Errorf("%s: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
		}
		if c.pin == "" || c.twin == "" {
			continue
		}
		code, a = run(ninthPin(c.pin), c.base, c.patch)
		switch c.twin {
		case "MERGE":
			if code != 0 || a["decision"] != "MERGE" {
				t.Errorf("honest, %s, pinned by the test: exit %d, %v: %v\nstrength %v", c.name, code, a["decision"], a["reasons"], a["strength"])
			}
		case "gone":
			if a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "no mutant expresses a deletion") {
				t.Errorf("honest, %s, pinned by the test: exit %d, %v: %v", c.name, code, a["decision"], a["reasons"])
			}
		}
	}
}
