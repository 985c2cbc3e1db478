package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// A tenth adversary's attacks: each case is the fix (renewals 3 → 5,
// pinned by TestLeaseRenewals) plus a wrong change a program calling the
// package can observe and TestLeaseRenewals does not check. Each changes
// what unchanged code does without a statement of its own — a build
// constraint, a //go:embed directive, a declaration deleted whose name
// still resolves, a predeclared name declared, a blank or dot import, the
// order of initialization, a method added that shadows or holds nothing,
// an interface grown, a var or a type case written anew, a value's
// inferred type, testdata the code embeds — and none may MERGE. Before
// the rules these attacks test (stop 42), 21 of them did.
//
// The honest twin of each is the same patch with TestLeaseRenewals also
// pinning the changed behaviour; most are INCONCLUSIVE by design (no
// mutant can take these changes away), and SEALGATE_TWINS=1 checks that
// none is BLOCK. TestTenthObservable (SEALGATE_ADV10_OBS=1) checks with
// plain go test that every extra change is observable: the twin's pin
// fails on the fix alone and passes on the patch, and the claim passes on
// the patch.

const tenthLease = `PREpackage calc

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
IMPORTS)

var _ = strings.ToUpper
var _ = fmt.Sprint
var _ = json.Marshal
var _ = errors.New
var _ sync.Mutex

TOP
// Lease returns how long a lease of a kind lasts and how often it renews.
func Lease(kind string) (time.Duration, int) {
	ttl := 24 * time.Hour
BODY
	return ttl, renewals
}
`

type tenthSrcOpt struct{ pre, imports, top, body string }

func tenthSrc(o tenthSrcOpt) string {
	return strings.NewReplacer("PRE", o.pre, "IMPORTS", o.imports, "TOP", o.top, "BODY", strings.TrimSuffix(o.body, "\n")).Replace(tenthLease)
}

const tenthAdminIf = "\tif kind == \"admin\" {\n\t\trenewals = 1\n\t}\n"

type tenthCase struct {
	name, class string
	// base and patch are the files of each side (calc/lease.go among
	// them); remove are the files the patch deletes.
	base, patch map[string]string
	remove      []string
	pin         string // checks the honest twin adds to TestLeaseRenewals; "" when no test of the package can see the change
}

func tenthCases() []tenthCase {
	s := func(o tenthSrcOpt) string { return tenthSrc(o) }
	fix := func(o tenthSrcOpt, renew string) string {
		o.body = strings.Replace(o.body, "renewals := 3", "renewals := "+renew, 1)
		return s(o)
	}
	ttlIs := func(kind, want string) string { return ninthTTL(kind, want) }
	renew := "\trenewals := 3\n" + tenthAdminIf

	var cases []tenthCase

	// A1: a //go:build go1.21 line (a comment) downgrades the file's
	// language version: loop variables are shared again (Go 1.22's
	// per-iteration loopvar is off), so every closure sees the last i.
	loop := "\tvar steps []func() time.Duration\n\tfor i := 1; i <= 3; i++ {\n\t\tsteps = append(steps, func() time.Duration { return time.Duration(i) * time.Minute })\n\t}\n\tfor _, step := range steps {\n\t\tttl += step()\n\t}\n"
	{
		o := tenthSrcOpt{body: loop + renew}
		p := o
		p.pre = "//go:build go1.21\n\n"
		cases = append(cases, tenthCase{"go1.21 build line", "directive comment changes language version",
			map[string]string{"calc/lease.go": s(o)}, map[string]string{"calc/lease.go": fix(p, "5")}, nil,
			ttlIs("user", "24*time.Hour+12*time.Minute")})
		cases = append(cases, tenthCase{"go.mod go line lowered", "module go version changes loop semantics",
			map[string]string{"calc/lease.go": s(o)}, map[string]string{"calc/lease.go": fix(o, "5"), "go.mod": "module example.com/calc\n\ngo 1.21\n"}, nil,
			ttlIs("user", "24*time.Hour+12*time.Minute")})
	}

	// B: a function supplied per platform; the patch deletes the linux
	// one and lifts the other's constraint: on linux bonus() is now 0,
	// and no line of code changed (a function deleted whole is left out).
	{
		o := tenthSrcOpt{body: "\tttl += bonus()\n" + renew}
		linux := "package calc\n\nimport \"time\"\n\n// bonus is the grace a lease gets on this platform.\nfunc bonus() time.Duration {\n\treturn time.Minute\n}\n"
		other := "package calc\n\nimport \"time\"\n\n// bonus is the grace a lease gets elsewhere.\nfunc bonus() time.Duration {\n\treturn 0\n}\n"
		cases = append(cases, tenthCase{"platform function deleted, fallback untagged", "build constraints / deleted function another file supplies",
			map[string]string{"calc/lease.go": s(o), "calc/bonus_linux.go": linux, "calc/bonus_other.go": "//go:build !linux\n\n" + other},
			map[string]string{"calc/lease.go": fix(o, "5"), "calc/bonus_other.go": other}, []string{"calc/bonus_linux.go"},
			ttlIs("user", "24*time.Hour")})
		cases = append(cases, tenthCase{"build constraints swapped (functions)", "build constraints",
			map[string]string{"calc/lease.go": s(o), "calc/bonus_a.go": "//go:build linux\n\n" + linux, "calc/bonus_b.go": "//go:build !linux\n\n" + other},
			map[string]string{"calc/lease.go": fix(o, "5"), "calc/bonus_a.go": "//go:build linux && !amd64\n\n" + linux, "calc/bonus_b.go": "//go:build !linux || amd64\n\n" + other}, nil,
			ttlIs("user", "24*time.Hour")})
		ov := tenthSrcOpt{body: "\tttl += bonus\n" + renew}
		cases = append(cases, tenthCase{"build constraints swapped (vars)", "build constraints",
			map[string]string{"calc/lease.go": s(ov), "calc/bonus_a.go": "//go:build linux\n\npackage calc\n\nimport \"time\"\n\nvar bonus = time.Minute\n", "calc/bonus_b.go": "//go:build !linux\n\npackage calc\n\nimport \"time\"\n\nvar bonus time.Duration\n"},
			map[string]string{"calc/lease.go": fix(ov, "5"), "calc/bonus_a.go": "//go:build linux && !amd64\n\npackage calc\n\nimport \"time\"\n\nvar bonus = time.Minute\n", "calc/bonus_b.go": "//go:build !linux || amd64\n\npackage calc\n\nimport \"time\"\n\nvar bonus time.Duration\n"}, nil,
			ttlIs("user", "24*time.Hour")})
	}

	// G: a package-level function shadowing the predeclared max deleted:
	// its callers now reach the builtin, which does not read zero as
	// unlimited.
	{
		customMax := "// max returns the longer of two lifetimes; zero means unlimited.\nfunc max(a, b time.Duration) time.Duration {\n\tif a == 0 || b == 0 {\n\t\treturn 0\n\t}\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n"
		body := "\tttl = max(ttl, time.Duration(len(kind)-4)*time.Hour)\n" + renew
		cases = append(cases, tenthCase{"predeclared max's shadow deleted", "deleted declaration uncovers a predeclared name",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: customMax, body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour")})
	}

	// S: two init functions in two files; renaming one (content kept)
	// changes the order they run in.
	{
		o := tenthSrcOpt{body: "\tttl += bonus\n" + renew}
		defaults := "package calc\n\nimport \"time\"\n\nvar bonus time.Duration\n\nfunc init() {\n\tbonus = time.Minute\n}\n"
		zone := "package calc\n\nfunc init() {\n\tbonus *= 2\n}\n"
		cases = append(cases, tenthCase{"init order changed by a file rename", "file names decide init order",
			map[string]string{"calc/lease.go": s(o), "calc/defaults.go": defaults, "calc/zone.go": zone},
			map[string]string{"calc/lease.go": fix(o, "5"), "calc/azone.go": zone}, []string{"calc/zone.go"},
			ttlIs("user", "24*time.Hour+time.Minute")})
	}

	// C: a method added to an outer type shadows its embedded field's
	// promoted method; no call site changes.
	{
		top := "var errBanned = errors.New(\"banned\")\n\ntype checker struct{}\n\n// Check refuses banned kinds.\nfunc (checker) Check(kind string) error {\n\tif kind == \"banned\" {\n\t\treturn errBanned\n\t}\n\treturn nil\n}\n\ntype policy struct{ checker }\n\nvar pol policy\n"
		body := "\trenewals := 3\n\tif pol.Check(kind) != nil {\n\t\trenewals = 0\n\t}\n" + tenthAdminIf
		shadow := "\n// Check lets every kind through.\nfunc (policy) Check(kind string) error {\n\treturn nil\n}\n"
		test := "package calc\n\nimport \"testing\"\n\nfunc TestChecker(t *testing.T) {\n\tif (checker{}).Check(\"banned\") == nil || (checker{}).Check(\"user\") != nil {\n\t\tt.Fatal(\"checker\")\n\t}\n}\n"
		cases = append(cases, tenthCase{"promoted method shadowed by return nil", "method set: new method shadows an embedded one",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top, body: body}), "calc/checker_test.go": test},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: top + shadow, body: body}, "5")}, nil,
			ninthRenews("banned", 5)})

		ttop := "type tally struct{ n int }\n\n// Reset starts the count again.\nfunc (t *tally) Reset() {\n\tt.n = 0\n}\n\ntype meter struct{ tally }\n\nvar leases meter\n"
		tbody := "\tleases.Reset()\n\tleases.n += len(kind)\n\tttl += time.Duration(leases.n)\n" + renew
		tshadow := "\n// Reset keeps the count.\nfunc (m *meter) Reset() {}\n"
		ttest := "package calc\n\nimport \"testing\"\n\nfunc TestTally(t *testing.T) {\n\tc := tally{n: 3}\n\tc.Reset()\n\tif c.n != 0 {\n\t\tt.Fatal(c.n)\n\t}\n}\n"
		cases = append(cases, tenthCase{"promoted method shadowed by an empty one", "method set: new empty method shadows an embedded one",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: ttop, body: tbody}), "calc/tally_test.go": ttest},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: ttop + tshadow, body: tbody}, "5")}, nil,
			"\tLease(\"ab\")\n\tif ttl, _ := Lease(\"ab\"); ttl == 24*time.Hour+2 {\n\t\tt.Fatalf(\"count reset: %v\", ttl)\n\t}\n"})
	}

	// M: an empty Format method makes the type a fmt.Formatter: fmt
	// prints it as nothing.
	{
		top := "type grade int\n"
		body := "\tttl += time.Duration(len(fmt.Sprint(grade(len(kind)))))\n" + renew
		cases = append(cases, tenthCase{"empty Format method added", "method set: new interface satisfied (fmt.Formatter)",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top, body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: top + "\n// Format prints a grade.\nfunc (g grade) Format(f fmt.State, verb rune) {}\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour")})
	}

	// D: var v T written anew (exempt) shadows the variable the block's
	// unchanged statement assigns.
	{
		base := "\trenewals := 3\n\tif len(kind) > 3 {\n\t\tttl = min(ttl, 12*time.Hour)\n\t}\n" + tenthAdminIf
		patch := "\trenewals := 3\n\tif len(kind) > 3 {\n\t\tvar ttl time.Duration\n\t\tttl = min(ttl, 12*time.Hour)\n\t}\n" + tenthAdminIf
		cases = append(cases, tenthCase{"var written anew shadows", "exempt var declaration shadows a variable",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{body: base})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: patch}, "5")}, nil,
			ttlIs("user", "24*time.Hour")})
	}

	// E: the //go:embed directive (a comment) re-pointed at another file
	// the baseline already holds, or deleted.
	{
		top := "//go:embed grace.txt\nvar graceText string\n"
		body := "\tif d, err := time.ParseDuration(strings.TrimSpace(graceText)); err == nil {\n\t\tttl += d\n\t}\n" + renew
		files := func(top string) map[string]string {
			return map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top, body: body}), "calc/grace.txt": "1m\n", "calc/grace_eu.txt": "1h\n"}
		}
		cases = append(cases, tenthCase{"go:embed re-pointed", "directive comment: embedded file swapped",
			files(top), map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "//go:embed grace_eu.txt\nvar graceText string\n", body: body}, "5")}, nil,
			ttlIs("user", "25*time.Hour")})
		cases = append(cases, tenthCase{"go:embed deleted", "directive comment deleted: variable empty",
			files(top), map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "var graceText string\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour")})
	}

	// NN: registrations whose order the package reads, reordered.
	{
		reg := "var registry []string\n\nfunc register(name string) string {\n\tregistry = append(registry, name)\n\treturn name\n}\n\n"
		body := "\tttl += time.Duration(len(registry[0]))\n" + renew
		cases = append(cases, tenthCase{"blank registrations reordered", "package-level initialisation order",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: reg + "var _ = register(\"gold\")\nvar _ = register(\"silver\")\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: reg + "var _ = register(\"silver\")\nvar _ = register(\"gold\")\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+6")})
		cases = append(cases, tenthCase{"named registrations reordered", "package-level initialisation order",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: reg + "var gold = register(\"gold\")\nvar silver = register(\"silver\")\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: reg + "var silver = register(\"silver\")\nvar gold = register(\"gold\")\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+6")})
	}

	// SS: a blank import whose package registers itself at init, removed.
	{
		kinds := "package kinds\n\nimport \"time\"\n\n// Bonus is the extra lifetime per kind, filled by plugins.\nvar Bonus = map[string]time.Duration{}\n"
		gold := "package gold\n\nimport (\n\t\"time\"\n\n\t\"example.com/calc/calc/kinds\"\n)\n\nfunc init() {\n\tkinds.Bonus[\"gold\"] = time.Hour\n}\n"
		goldTest := "package gold\n\nimport (\n\t\"testing\"\n\t\"time\"\n\n\t\"example.com/calc/calc/kinds\"\n)\n\nfunc TestGold(t *testing.T) {\n\tif kinds.Bonus[\"gold\"] != time.Hour {\n\t\tt.Fatal(kinds.Bonus)\n\t}\n}\n"
		body := "\tttl += kinds.Bonus[kind]\n" + renew
		imp := "\n\t\"example.com/calc/calc/kinds\"\n"
		cases = append(cases, tenthCase{"side-effect import removed", "blank import (plugin registration) removed",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{imports: imp + "\t_ \"example.com/calc/calc/kinds/gold\"\n", body: body}),
				"calc/kinds/kinds.go": kinds, "calc/kinds/gold/gold.go": gold, "calc/kinds/gold/gold_test.go": goldTest},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{imports: imp, body: body}, "5")}, nil,
			ttlIs("gold", "24*time.Hour")})
	}

	// Batch 2.
	{
		// A1b: the directive in a file the patch otherwise leaves alone.
		steps := "package calc\n\nimport \"time\"\n\n// steps returns the grace steps a lease adds.\nfunc steps() []func() time.Duration {\n\tvar out []func() time.Duration\n\tfor i := 1; i <= 3; i++ {\n\t\tout = append(out, func() time.Duration { return time.Duration(i) * time.Minute })\n\t}\n\treturn out\n}\n"
		o := tenthSrcOpt{body: "\tfor _, step := range steps() {\n\t\tttl += step()\n\t}\n" + renew}
		cases = append(cases, tenthCase{"go1.21 build line in an untouched file", "directive comment changes language version",
			map[string]string{"calc/lease.go": s(o), "calc/steps.go": steps},
			map[string]string{"calc/lease.go": fix(o, "5"), "calc/steps.go": "//go:build go1.21\n\n" + steps}, nil,
			ttlIs("user", "24*time.Hour+12*time.Minute")})
	}
	{
		// B1b: the platform file kept, its function deleted whole.
		o := tenthSrcOpt{body: "\tttl += bonus()\n" + renew}
		linux := "package calc\n\nimport \"time\"\n\nvar _ = time.Hour\n\n// bonus is the grace a lease gets on this platform.\nfunc bonus() time.Duration {\n\treturn time.Minute\n}\n"
		other := "package calc\n\nimport \"time\"\n\n// bonus is the grace a lease gets elsewhere.\nfunc bonus() time.Duration {\n\treturn 0\n}\n"
		cases = append(cases, tenthCase{"platform function deleted (file kept), fallback untagged", "build constraints / deleted function another file supplies",
			map[string]string{"calc/lease.go": s(o), "calc/bonus_linux.go": linux, "calc/bonus_other.go": "//go:build !linux\n\n" + other},
			map[string]string{"calc/lease.go": fix(o, "5"), "calc/bonus_linux.go": "package calc\n\nimport \"time\"\n\nvar _ = time.Hour\n", "calc/bonus_other.go": other}, nil,
			ttlIs("user", "24*time.Hour")})
	}
	{
		// E3b: the embed directive deleted; the line reading it still runs.
		top := "//go:embed grace.txt\nvar graceText string\n"
		body := "\td, _ := time.ParseDuration(strings.TrimSpace(graceText) + \"0s\")\n\tttl += d\n" + renew
		cases = append(cases, tenthCase{"go:embed deleted (reader still runs)", "directive comment deleted: variable empty",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top, body: body}), "calc/grace.txt": "1m\n"},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "var graceText string\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour")})
	}
	{
		// NN3/NN4: registrations reordered where the claim pins each
		// registered value (its mutants die) but not their order.
		reg := "var registry []string\n\nfunc register(name string) string {\n\tregistry = append(registry, name)\n\treturn name\n}\n\n"
		body := "\tttl += time.Duration(len(registry[0]))\n\tfound := false\n\tfor _, r := range registry {\n\t\tif r == kind {\n\t\t\tfound = true\n\t\t}\n\t}\n\trenewals := 3\n\tif !found {\n\t\trenewals = 0\n\t}\n" + tenthAdminIf
		cases = append(cases, tenthCase{"blank registrations reordered, values pinned", "package-level initialisation order",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: reg + "var _ = register(\"user\")\nvar _ = register(\"admin\")\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: reg + "var _ = register(\"admin\")\nvar _ = register(\"user\")\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+5")})
		cases = append(cases, tenthCase{"named registrations reordered, values pinned", "package-level initialisation order",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: reg + "var userKind = register(\"user\")\nvar adminKind = register(\"admin\")\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: reg + "var adminKind = register(\"admin\")\nvar userKind = register(\"user\")\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+5")})
	}

	// Batch 3.
	{
		// T1: a type alias made a definition: the new type loses
		// time.Duration's String method, so fmt prints nanoseconds.
		body := "\tttl += time.Duration(len(fmt.Sprint(stamp(time.Minute))))\n" + renew
		cases = append(cases, tenthCase{"type alias made a definition", "alias vs definition (method set lost)",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: "type stamp = time.Duration\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "type stamp time.Duration\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+11")})
	}
	{
		// G2: an exported function deleted; a dot import supplies one of
		// the same name with another body.
		kinds := "package kinds\n\nimport \"time\"\n\n// Bonus is the default grace: none.\nfunc Bonus() time.Duration {\n\treturn 0\n}\n"
		body := "\tttl += Bonus()\n" + renew
		cases = append(cases, tenthCase{"function deleted, dot import supplies its name", "deleted declaration, name resolved elsewhere",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: "// Bonus is the grace a lease gets.\nfunc Bonus() time.Duration {\n\treturn time.Minute\n}\n", body: body}), "calc/kinds/kinds.go": kinds},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{imports: "\n\t. \"example.com/calc/calc/kinds\"\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour")})
	}
	{
		// P1: a new file declares a predeclared type name as an alias.
		body := "\tttl += time.Duration(byte(len(kind) * 50))\n" + renew
		cases = append(cases, tenthCase{"new file aliases a predeclared type (byte = int8)", "new declaration shadows a predeclared name",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: body}, "5"), "calc/octet.go": "package calc\n\n// byte is a signed octet in lease arithmetic.\ntype byte = int8\n"}, nil,
			ttlIs("user", "24*time.Hour-56")})
	}
	{
		// NN5: two init functions of one file swapped.
		reg := "var registry []string\n\nfunc register(name string) string {\n\tregistry = append(registry, name)\n\treturn name\n}\n\n"
		body := "\tttl += time.Duration(len(registry[0]))\n\tfound := false\n\tfor _, r := range registry {\n\t\tif r == kind {\n\t\t\tfound = true\n\t\t}\n\t}\n\trenewals := 3\n\tif !found {\n\t\trenewals = 0\n\t}\n" + tenthAdminIf
		u, a := "func init() {\n\tregister(\"user\")\n}\n\n", "func init() {\n\tregister(\"admin\")\n}\n"
		cases = append(cases, tenthCase{"two inits of one file swapped", "package-level initialisation order",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: reg + u + a, body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: reg + strings.Replace(a, "}\n", "}\n\n", 1) + strings.TrimSuffix(u, "\n"), body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+5")})
	}
	{
		// T35: production code embeds a file under testdata/, which the
		// oracle puts back from the baseline.
		top := "//go:embed testdata/grace.txt\nvar graceText string\n"
		body := "\td, _ := time.ParseDuration(strings.TrimSpace(graceText) + \"0s\")\n\tttl += d\n" + renew
		cases = append(cases, tenthCase{"embedded testdata file changed", "production data under testdata/",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top, body: body}), "calc/testdata/grace.txt": "1m\n"},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: top, body: body}, "5"), "calc/testdata/grace.txt": "1h\n"}, nil,
			ttlIs("user", "25*time.Hour")})
	}

	// Batch 4.
	{
		// P1b: as P1 with a type the coverage build does not use.
		body := "\tttl += time.Duration(uint(len(kind) * 100))\n" + renew
		cases = append(cases, tenthCase{"new file aliases a predeclared type (uint = uint8)", "new declaration shadows a predeclared name",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: body}, "5"), "calc/octet.go": "package calc\n\n// uint is an octet in lease arithmetic.\ntype uint = uint8\n"}, nil,
			ttlIs("user", "24*time.Hour+144")})
	}
	{
		// TS1: an empty case of types written anew ahead of the case
		// that handled the value.
		desc := func(extra string) string {
			return "func describe(v any) string {\n\tswitch x := v.(type) {\n" + extra + "\tcase fmt.Stringer:\n\t\treturn x.String()\n\t}\n\treturn \"?\"\n}\n"
		}
		body := "\tttl += time.Duration(len(describe(time.Minute)))\n" + renew
		cases = append(cases, tenthCase{"empty type case written anew", "exempt type-switch case intercepts values",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: desc(""), body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: desc("\tcase time.Duration:\n"), body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+1")})
	}
	{
		// M3: the mirror of C1: the outer type's own method deleted, the
		// embedded field's promoted one takes over.
		top := "var errBanned = errors.New(\"banned\")\n\ntype checker struct{}\n\n// Check lets every kind through.\nfunc (checker) Check(kind string) error {\n\treturn nil\n}\n\ntype policy struct{ checker }\n\nvar pol policy\n"
		own := "\n// Check refuses banned kinds.\nfunc (policy) Check(kind string) error {\n\tif kind == \"banned\" {\n\t\treturn errBanned\n\t}\n\treturn nil\n}\n"
		body := "\trenewals := 3\n\tif pol.Check(kind) != nil {\n\t\trenewals = 0\n\t}\n" + tenthAdminIf
		cases = append(cases, tenthCase{"outer method deleted, promoted one takes over", "method set: deletion uncovers an embedded method",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top + own, body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: top, body: body}, "5")}, nil,
			ninthRenews("banned", 5)})
	}
	{
		// API: an exported function deleted beside the fix.
		grace := "// Grace is the grace period of a kind.\nfunc Grace(kind string) time.Duration {\n\treturn time.Duration(len(kind)) * time.Minute\n}\n"
		cases = append(cases, tenthCase{"exported function deleted", "API removal",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: grace, body: renew})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: renew}, "5")}, nil,
			""})
	}
	{
		// Q1: a nested module (not part of the root's go test ./...)
		// changed beside the fix.
		ext := func(v string) string {
			return "package ext\n\nimport \"time\"\n\n// Grace is the grace period.\nfunc Grace() time.Duration {\n\treturn " + v + "\n}\n"
		}
		extTest := "package ext\n\nimport \"testing\"\n\nfunc TestGrace(t *testing.T) {\n\tif Grace() <= 0 {\n\t\tt.Fatal(Grace())\n\t}\n}\n"
		cases = append(cases, tenthCase{"nested module changed", "change outside the root module",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{body: renew}), "ext/go.mod": "module example.com/ext\n\ngo 1.22\n", "ext/ext.go": ext("time.Minute"), "ext/ext_test.go": extTest},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: renew}, "5"), "ext/ext.go": ext("time.Hour")}, nil,
			""})
	}

	// Batch 5.
	{
		// TS1b: TS1 with the intercepted case still run by another value.
		desc := func(extra string) string {
			return "func describe(v any) string {\n\tswitch x := v.(type) {\n" + extra + "\tcase fmt.Stringer:\n\t\treturn x.String()\n\t}\n\treturn \"?\"\n}\n"
		}
		body := "\tttl += time.Duration(len(describe(time.Minute)) + len(describe(time.UTC)))\n" + renew
		cases = append(cases, tenthCase{"empty type case written anew (case still run)", "exempt type-switch case intercepts values",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: desc(""), body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: desc("\tcase time.Duration:\n"), body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+4")})
	}
	{
		// K1: a constant keeps its value and loses its type.
		body := "\tttl += time.Duration(len(fmt.Sprint(unit)))\n\trenewals := 3\n\tif unit != 1000000000 {\n\t\trenewals = 0\n\t}\n" + tenthAdminIf
		cases = append(cases, tenthCase{"constant keeps its value, loses its type", "implicit type of a constant",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: "const unit = time.Second\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "const unit = 1000000000\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+10")})
		cases = append(cases, tenthCase{"variable keeps its value, loses its type", "implicit type of a variable",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: "var unit = time.Second\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "var unit = 1000000000\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+10")})
	}

	{
		// K1b: K1 with the constant read through a variable.
		body := "\tttl += time.Duration(len(fmt.Sprint(unit)))\n\trenewals := 3\n\tif u := unit; u != 1000000000 {\n\t\trenewals = 0\n\t}\n" + tenthAdminIf
		cases = append(cases, tenthCase{"constant keeps its value, loses its type (read via a variable)", "implicit type of a constant",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: "const unit = time.Second\n", body: body})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: "const unit = 1000000000\n", body: body}, "5")}, nil,
			ttlIs("user", "24*time.Hour+10")})
	}

	{
		// EF1: an empty file added to an embedded directory: no line to
		// mutate, one more entry.
		top := "//go:embed grace\nvar graceFS embed.FS\n"
		body := "\tentries, _ := graceFS.ReadDir(\"grace\")\n\tttl += time.Duration(len(entries)) * time.Minute\n" + renew
		o := tenthSrcOpt{imports: "\t\"embed\"\n", top: top, body: body}
		base := strings.Replace(s(o), "\t_ \"embed\"\n", "", 1)
		cases = append(cases, tenthCase{"empty file added to an embedded directory", "embedded data without lines",
			map[string]string{"calc/lease.go": base, "calc/grace/eu.txt": "1m\n"},
			map[string]string{"calc/lease.go": strings.Replace(base, "renewals := 3", "renewals := 5", 1), "calc/grace/us.txt": ""}, nil,
			ttlIs("user", "24*time.Hour+2*time.Minute")})
	}

	{
		// IF1: an interface gains a method: a type assertion to it stops
		// matching a type that used to satisfy it.
		top := func(iface string) string {
			return "type resetter interface{ " + iface + " }\n\ntype tally struct{ n int }\n\n// Reset starts the count again.\nfunc (t *tally) Reset() {\n\tt.n = 0\n}\n\nvar count tally\n\nfunc resetIf(v any) {\n\tif r, ok := v.(resetter); ok {\n\t\tr.Reset()\n\t}\n}\n"
		}
		body := "\tresetIf(&count)\n\tcount.n += len(kind)\n\tttl += time.Duration(count.n)\n" + renew
		test := "package calc\n\nimport \"testing\"\n\ntype full struct{ tally }\n\nfunc (*full) Flush() {}\n\nfunc TestResetIf(t *testing.T) {\n\tf := &full{tally{3}}\n\tresetIf(f)\n\tif f.n != 0 {\n\t\tt.Fatal(f.n)\n\t}\n}\n"
		cases = append(cases, tenthCase{"interface gains a method", "interface method set (type assertion)",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top("Reset()"), body: body}), "calc/reset_test.go": test},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: top("Reset(); Flush()"), body: body}, "5")}, nil,
			"\tLease(\"ab\")\n\tif ttl, _ := Lease(\"ab\"); ttl == 24*time.Hour+2 {\n\t\tt.Fatalf(\"count reset: %v\", ttl)\n\t}\n"})
	}

	{
		// W1: %w → %v: the error no longer wraps (errors.Is fails).
		top := "var errBanned = errors.New(\"banned\")\n\n// LastErr is the error the last lease recorded.\nvar LastErr error\n"
		body := func(verb string) string {
			return "\tLastErr = fmt.Errorf(\"lease %s: " + verb + "\", kind, errBanned)\n" + renew
		}
		cases = append(cases, tenthCase{"error wrapping %w to %v", "error wrapping",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{top: top, body: body("%w")})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{top: top, body: body("%v")}, "5")}, nil,
			"\tLease(\"user\")\n\tif _, ok := LastErr.(interface{ Unwrap() error }); ok {\n\t\tt.Fatal(LastErr)\n\t}\n"})
	}
	{
		// SH1: a variable shadowed by := in an if's init.
		base := "\trenewals := 3\n\tvar err error\n\tif ttl, err = time.ParseDuration(kind + \"h\"); err != nil {\n\t\tttl = 24 * time.Hour\n\t}\n" + tenthAdminIf
		patch := "\trenewals := 3\n\tvar err error\n\tif ttl, err := time.ParseDuration(kind + \"h\"); err != nil {\n\t\tttl = 24 * time.Hour\n\t\t_ = ttl\n\t}\n\t_ = err\n" + tenthAdminIf
		cases = append(cases, tenthCase{"if-init := shadows", "shadowing with :=",
			map[string]string{"calc/lease.go": s(tenthSrcOpt{body: base})},
			map[string]string{"calc/lease.go": fix(tenthSrcOpt{body: patch}, "5")}, nil,
			ttlIs("12", "24*time.Hour")})
	}
	return cases
}

// TestVerifyTenthAdversary verifies each case: none may MERGE.
func TestVerifyTenthAdversary(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	commit := func(parent string, files map[string]string, remove []string) string {
		f.n++
		id, err := f.repo.Commit(context.Background(), parent, fmt.Sprintf("adv10-%d", f.n), "patch", files, remove...)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	run := func(c tenthCase, test string) (int, map[string]any) {
		files := map[string]string{"calc/lease_test.go": test}
		for k, v := range c.base {
			files[k] = v
		}
		b := commit(f.honest().Commit, files, nil)
		return f.verifyJSON(b, commit(b, c.patch, c.remove), criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, c := range tenthCases() {
		t.Run(c.name, func(t *testing.T) {
			code, a := run(c, leaseRenewTest)
			if a["decision"] == "MERGE" {
				t.Errorf("%s [%s]: exit %d, MERGE\nstrength %v", c.name, c.class, code, a["strength"])
			}
			if os.Getenv("SEALGATE_TWINS") == "1" {
				if tc, ta := run(c, ninthPin(c.pin)); ta["decision"] == "BLOCK" {
					t.Errorf("%s: its honest twin: exit %d, BLOCK: %v", c.name, tc, ta["reasons"])
				}
			}
		})
	}
}

// TestTenthObservable checks each case outside the gate: the pinned test
// fails on the fix alone and passes on the patch (the extra change is
// observable), and the claim passes on the patch. SEALGATE_ADV10_OBS=1.
func TestTenthObservable(t *testing.T) {
	if os.Getenv("SEALGATE_ADV10_OBS") != "1" {
		t.Skip("SEALGATE_ADV10_OBS=1")
	}
	write := func(files map[string]string, remove []string, test string) string {
		dir := t.TempDir()
		all := map[string]string{"go.mod": "module example.com/calc\n\ngo 1.22\n", "calc/lease_test.go": test}
		for k, v := range files {
			all[k] = v
		}
		for _, r := range remove {
			delete(all, r)
		}
		for k, v := range all {
			p := filepath.Join(dir, filepath.FromSlash(k))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	gotest := func(dir string) (bool, string) {
		cmd := exec.Command("go", "test", "-count=1", "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	}
	for _, c := range tenthCases() {
		if c.pin == "" {
			// No test of the package can see it: an exported function
			// deleted (importers stop building), another module changed.
			continue
		}
		fixAlone := map[string]string{}
		for k, v := range c.base {
			fixAlone[k] = v
		}
		fixAlone["calc/lease.go"] = strings.Replace(fixAlone["calc/lease.go"], "renewals := 3", "renewals := 5", 1)
		patch := map[string]string{}
		for k, v := range c.base {
			patch[k] = v
		}
		for k, v := range c.patch {
			patch[k] = v
		}
		okFix, outFix := gotest(write(fixAlone, nil, ninthPin(c.pin)))
		okPatch, outPatch := gotest(write(patch, c.remove, ninthPin(c.pin)))
		okClaim, outClaim := gotest(write(patch, c.remove, leaseRenewTest))
		okFixClaim, _ := gotest(write(fixAlone, nil, leaseRenewTest))
		if okFix || !okPatch || !okClaim || !okFixClaim {
			t.Errorf("%s: the pin passes on the fix alone: %v (want false), on the patch: %v (want true); the claim passes on the patch: %v, on the fix alone: %v\nfix:\n%s\npatch:\n%s\nclaim:\n%s",
				c.name, okFix, okPatch, okClaim, okFixClaim, outFix, outPatch, outClaim)
		}
	}
}
