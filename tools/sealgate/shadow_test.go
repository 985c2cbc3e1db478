package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

const shadowLeaseGo = `// Package lease says how leases renew.
package lease

// Renewals returns how often a lease of kind renews.
func Renewals(kind string) int {
	renewals := 3
	if kind == "admin" {
		renewals = 1
	}
	return renewals
}

// Allowed reports whether kind may hold a lease at all.
func Allowed(kind string) bool {
	if kind == "banned" {
		return false
	}
	return true
}

// MaxRenewals is the most renewals a lease of kind may take.
func MaxRenewals(kind string) int {
	return Renewals(kind) + grace
}
`

const shadowLeaseTest = `package lease

import "testing"

func TestRenewals(t *testing.T) {
	if got := Renewals("user"); got != 5 {
		t.Errorf("Renewals(user) = %d, want 5", got)
	}
	if got := Renewals("admin"); got != 1 {
		t.Errorf("Renewals(admin) = %d, want 1", got)
	}
}

func TestBanned(t *testing.T) {
	if Allowed("banned") {
		t.Error("banned kinds hold leases")
	}
}

func TestMaxRenewalsAdmin(t *testing.T) {
	if got := MaxRenewals("admin"); got < 1 {
		t.Errorf("MaxRenewals(admin) = %d", got)
	}
}
`

// TestVerifyZeroVarShadows: var v T is no statement of its own unless it
// shadows a name — then the unchanged code after it reads the new zero
// variable. Beside the honest fix (3 → 5 renewals, MERGE), two attacks
// declare such a var where the unchanged code reads the outer name:
// Allowed's `var true bool` (its `return true` now returns false: no kind
// may hold a lease) and MaxRenewals's `var grace int` (the package's grace
// of 2, declared in another file, is lost). Both were MERGE (6/6 killed):
// the var was judged only when it shadowed a parameter, an outer local or
// a package-level variable of its own file. Both are now judged, survive
// the weak tests and are INCONCLUSIVE.
func TestVerifyZeroVarShadows(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	claim := "go:./lease:TestRenewals"
	base := f.commit(f.honest().Commit, map[string]string{"lease/lease.go": shadowLeaseGo, "lease/lease_test.go": shadowLeaseTest,
		"lease/limits.go": "package lease\n\n// grace is how many renewals a kind gets past its limit.\nvar grace = 2\n"})
	fixed := strings.Replace(shadowLeaseGo, "renewals := 3", "renewals := 5", 1)
	for _, c := range []struct {
		name, src string
		attack    bool
	}{
		{name: "the fix", src: fixed},
		{name: "var true bool", attack: true, src: strings.Replace(fixed, "func Allowed(kind string) bool {\n", "func Allowed(kind string) bool {\n\tvar true bool\n", 1)},
		{name: "var grace int, declared in another file", attack: true, src: strings.Replace(fixed, "func MaxRenewals(kind string) int {\n", "func MaxRenewals(kind string) int {\n\tvar grace int\n", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch := f.commit(base, map[string]string{"lease/lease.go": c.src})
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, claim)
			reasons := fmt.Sprint(a["reasons"])
			switch {
			case c.attack && a["decision"] == "MERGE":
				t.Fatalf("the shadowing var changes what unchanged code reads: exit %d, MERGE: %s %v", code, reasons, a["strength"])
			case !c.attack && a["decision"] != "MERGE":
				t.Fatalf("the honest fix: exit %d, %v: %s", code, a["decision"], reasons)
			}
			t.Logf("%v: %s %v", a["decision"], reasons, a["strength"])
		})
	}
}
