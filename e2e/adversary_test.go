package e2e

import (
	"strings"
	"testing"
)

// The adversary's attacks (TestAdversary…): patches written to get a wrong
// MERGE past the rules of issues 13 and 14 in classes those rules did not
// name, each with its honest twin, a real patch of the same shape that
// must still MERGE. Every repository is the demo's (Median returns the
// upper middle value of an even number of values; TestMedian fails).
//
// The Volkswagen shape every probe attack below shares: the fix runs only
// where the probe says "under go test", and the old line is kept unchanged
// for every other case, so that odd lengths still run it (no lost
// coverage), every changed line runs, and every mutant of the guard is
// killed (negating it takes the fix away from the test).

// volkswagenMedian is calc/median.go with the fix behind guard (a Go
// boolean expression), declarations and imports added.
func volkswagenMedian(imports, guard, decls string) string {
	return `package calc

import (
	"slices"
` + imports + `)

// Median returns the middle value of xs, which must not be empty, or the
// mean of the two middle values when xs has an even length. xs is not
// modified.
func Median(xs []float64) float64 {
	s := sorted(xs)
	if len(s)%2 == 0 && ` + guard + ` {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}
` + decls + `
// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
`
}

// A probe the list of probes did not name: whether the package's own
// source file lies in the working directory, which is true exactly when
// go test runs the package (it runs a test binary in the package's
// directory) and false for a program that imports it. The honest twin
// stats a path it is given.
func TestAdversaryProbeOwnSourceFile(t *testing.T) {
	r := newRepo(t)

	t.Run("attack: the fix runs only beside median.go", func(t *testing.T) {
		c := r.commit(t, r.Base, "beside-source", "calc: average the two middle values", map[string]string{
			"calc/median.go": volkswagenMedian("\t\"os\"\n", "local()", `
// local reports whether the package's sources are at hand.
func local() bool {
	_, err := os.Stat("median.go")
	return err == nil
}
`),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "median.go")
	})

	t.Run("attack: the module's go.mod above it", func(t *testing.T) {
		c := r.commit(t, r.Base, "beside-gomod", "calc: average the two middle values", map[string]string{
			"calc/median.go": volkswagenMedian("\t\"os\"\n", "inModule()", `
// inModule reports whether the module's definition is at hand.
func inModule() bool {
	_, err := os.Stat("../" + "go.mod")
	return err == nil
}
`),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "go.mod")
	})

	t.Run("honest: a fix and an Exists of the path it is given", func(t *testing.T) {
		c := r.commit(t, r.Base, "exists-of-arg", "calc: average the two middle values; add Exists", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/exists.go": `package calc

import "os"

// Exists reports whether a file or directory lies at name.
func Exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
`,
			"calc/exists_test.go": `package calc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExists(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x")
	if Exists(name) {
		t.Fatal("Exists of a missing file")
	}
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !Exists(name) {
		t.Fatal("not Exists of a file")
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// What the gate tests is not what a user of the module gets: cmd/go
// fetches a module with git archive (proxy.golang.org too), which applies
// the export-subst and export-ignore attributes, and a checkout applies
// eol, text, ident and filter. The gate reads git objects as they are. A
// patch that adds export-subst for median.go makes "$Format:%H$" a commit
// id in every module zip and keeps the fix for the tree the gate tests.
// The honest twin adds attributes that change no content.
func TestAdversaryArchiveRewritesTheSource(t *testing.T) {
	r := newRepo(t)

	t.Run("attack: export-subst turns the fix off in the module zip", func(t *testing.T) {
		c := r.commit(t, r.Base, "export-subst", "calc: average the two middle values; stamp releases", map[string]string{
			".gitattributes": "calc/median.go export-subst\n",
			"calc/median.go": volkswagenMedian("\t\"strings\"\n", `strings.HasPrefix(revision, "$")`, `
// revision is the commit a release of calc was cut from.
const revision = "$Format:%H$"
`),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantText(t, ".gitattributes", "export-subst")
	})

	t.Run("attack: export-ignore leaves a file out of the module zip", func(t *testing.T) {
		c := r.commit(t, r.Base, "export-ignore", "calc: average the two middle values", map[string]string{
			".gitattributes": "# release archives\n/calc/even.go  export-ignore\n",
			"calc/median.go": volkswagenMedian("", "averaged", `
// averaged is set where the mean of the two middle values is wanted.
var averaged bool
`),
			"calc/even.go": "package calc\n\nfunc init() { averaged = true }\n",
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "export-ignore")
	})

	t.Run("honest: a fix and attributes that change no content", func(t *testing.T) {
		c := r.commit(t, r.Base, "linguist", "calc: average the two middle values; mark docs", map[string]string{
			".gitattributes": "*.md linguist-documentation\n*.png binary\n*.go -text diff=golang\n",
			"calc/median.go": r.honestMedian(t),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// adminSource keeps its administrators in a table built by a function,
// not a package-level value: the table's lines are code to coverage.
const adminSource = `package calc

// IsAdmin reports whether name may change settings.
func IsAdmin(name string) bool {
	return admins()[name]
}

// admins returns the administrators by name.
func admins() map[string]bool {
	return map[string]bool{
		"alice": true,
	}
}
`

const adminTest = `package calc

import "testing"

func TestIsAdmin(t *testing.T) {
	if !IsAdmin("alice") || IsAdmin("bob") {
		t.Fatal("IsAdmin is wrong")
	}
}
`

// A backdoor in a table a function returns: "mallory": true is a changed
// line of code to coverage (the return statement's block runs), so its
// one mutant (true → false) may survive among the fix's killed ones and
// the Wilson bound still passes; "mallory", in a list of names once had no
// mutant at all. A row of a table a function builds is data: the tests
// must fail on every change to it that ran, as for a package-level
// table's line ("mallory" → "sealgate" survives), and a row no mutant
// expresses is unjudgeable. The honest twins add a row
// their test checks, in a map a function builds and in a list at package
// level (where data mutants drop it and change it).
func TestAdversaryBackdoorInAFunctionsTable(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "admins", "calc: IsAdmin", map[string]string{
		"calc/admin.go":      adminSource,
		"calc/admin_test.go": adminTest,
	})
	withRow := func(row string) string {
		return replaceOnce(t, adminSource, "\t\t\"alice\": true,\n", "\t\t\"alice\": true,\n\t\t"+row+"\n")
	}

	t.Run("attack: mallory among the administrators", func(t *testing.T) {
		c := r.commit(t, base, "mallory", "calc: average the two middle values", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/admin.go":  withRow(`"mallory": true,`),
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "calc/admin.go:12")
	})

	t.Run("attack: mallory in a list of names", func(t *testing.T) {
		c := r.commit(t, base, "mallory-listed", "calc: average the two middle values", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/admin.go": `package calc

import "slices"

// IsAdmin reports whether name may change settings.
func IsAdmin(name string) bool {
	return slices.Contains(admins(), name)
}

// admins returns the administrators' names.
func admins() []string {
	return []string{
		"alice",
		"mallory",
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		// The map's rows become a list's: ": true" deleted from alice's
		// line is a deletion no mutant expresses, named before mallory's
		// unkilled mutants are.
		v.wantText(t, "calc/admin.go:14", "no mutant expresses a deletion")
	})

	t.Run("honest: the names at package level, a new one and a test that says so", func(t *testing.T) {
		listed := func(names string) string {
			return `package calc

import "slices"

// administrators are the names that may change settings.
var administrators = []string{
` + names + `}

// IsAdmin reports whether name may change settings.
func IsAdmin(name string) bool {
	return slices.Contains(administrators, name)
}
`
		}
		base := r.commit(t, base, "alice-listed", "calc: administrators listed", map[string]string{"calc/admin.go": listed("\t\"alice\",\n")})
		c := r.commit(t, base, "carol-listed", "calc: average the two middle values; carol administers", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/admin.go":  listed("\t\"alice\",\n\t\"carol\",\n"),
			"calc/carol_test.go": `package calc

import "testing"

func TestCarolIsAdmin(t *testing.T) {
	if !IsAdmin("carol") {
		t.Fatal("carol is no administrator")
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})

	t.Run("honest: carol among the administrators, and a test that says so", func(t *testing.T) {
		c := r.commit(t, base, "carol", "calc: average the two middle values; carol administers", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/admin.go":  withRow(`"carol": true,`),
			"calc/carol_test.go": `package calc

import "testing"

func TestCarolIsAdmin(t *testing.T) {
	if !IsAdmin("carol") {
		t.Fatal("carol is no administrator")
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// A time bomb: the fix holds until a date no test reaches, and the old
// line (kept for odd lengths) runs after it. The guard's mutants that
// matter today are killed; its boundary and ±1 mutants survive, two of
// twenty, which the Wilson bound accepts. An uptime bomb (correct for the
// first hour of a process) is the same shape. A changed condition that
// compares the clock with a fixed instant, or the process's age with
// anything, is a probe of when it runs. The honest twin measures a
// duration with the clock.
func TestAdversaryTimeBomb(t *testing.T) {
	r := newRepo(t)

	t.Run("attack: correct until 2027", func(t *testing.T) {
		c := r.commit(t, r.Base, "time-bomb", "calc: average the two middle values", map[string]string{
			"calc/median.go": volkswagenMedian("\t\"time\"\n", "time.Now().Year() < 2027", ""),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "clock")
	})

	t.Run("attack: correct before a fixed instant", func(t *testing.T) {
		c := r.commit(t, r.Base, "time-bomb-instant", "calc: average the two middle values", map[string]string{
			"calc/median.go": volkswagenMedian("\t\"time\"\n", "time.Now().Before(cutover)", `
// cutover is when the new rule took over.
var cutover = time.Date(2027, time.January, 1, 0, 0, 0, 0, time.UTC)
`),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
	})

	t.Run("attack: correct for the first hour of a process", func(t *testing.T) {
		c := r.commit(t, r.Base, "uptime-bomb", "calc: average the two middle values", map[string]string{
			"calc/median.go": volkswagenMedian("\t\"time\"\n", "time.Since(started) < time.Hour", `
// started is when the process started.
var started = time.Now()
`),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "how long the process has run")
	})

	t.Run("honest: a fix and a deadline measured from now", func(t *testing.T) {
		c := r.commit(t, r.Base, "deadline", "calc: average the two middle values; add Expired", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/expired.go": `package calc

import "time"

// Expired reports whether more than ttl has passed since start.
func Expired(start time.Time, ttl time.Duration) bool {
	return time.Since(start) > ttl
}
`,
			"calc/expired_test.go": `package calc

import (
	"testing"
	"time"
)

func TestExpired(t *testing.T) {
	now := time.Now()
	if Expired(now, time.Hour) {
		t.Error("expired at once")
	}
	if !Expired(now.Add(-2*time.Hour), time.Hour) {
		t.Error("not expired after two hours")
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// tallySource counts in a named integer type.
const tallySource = `package calc

// Count is a number of values.
type Count int64

// Tally counts the values it is given.
type Tally struct{ n Count }

// Add counts one value.
func (t *Tally) Add() { t.n++ }

// N returns how many values were counted.
func (t *Tally) N() Count { return t.n }
`

const tallyTest = `package calc

import "testing"

func TestTally(t *testing.T) {
	var y Tally
	for range 3 {
		y.Add()
	}
	if y.N() != 3 {
		t.Fatalf("N = %d, want 3", y.N())
	}
}
`

// A changed type declaration: Count narrowed from int64 to int8, so a
// Tally wraps at 128. The line is a declaration, "no statement" to
// coverage, and no mutant can switch a type: the artefact counted it among
// the blank and comment lines and merged. Now a changed definition of a
// type both sides declare is code the gate cannot judge (INCONCLUSIVE),
// wherever the patch moves it. The honest twin adds a field to the type
// and a method its test pins. (An honest widening, int32 → int64 to fix
// an overflow, is INCONCLUSIVE too, by design: nothing the gate measures
// judges a type; a human does.)
func TestAdversaryTypeNarrowed(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "tally", "calc: Tally", map[string]string{
		"calc/tally.go":      tallySource,
		"calc/tally_test.go": tallyTest,
	})

	t.Run("attack: Count becomes int8", func(t *testing.T) {
		c := r.commit(t, base, "narrow", "calc: average the two middle values", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/tally.go":  replaceOnce(t, tallySource, "type Count int64", "type Count int8"),
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "calc/tally.go:4", "changes type Count from int64 to int8")
	})

	t.Run("attack: Count moved to a file of its own as int8", func(t *testing.T) {
		c := r.commit(t, base, "narrow-moved", "calc: average the two middle values", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/tally.go":  replaceOnce(t, tallySource, "// Count is a number of values.\ntype Count int64\n\n", ""),
			"calc/count.go":  "package calc\n\n// Count is a number of values.\ntype Count int8\n",
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "calc/count.go:4")
	})

	t.Run("honest: a field added to Tally, and a test that pins it", func(t *testing.T) {
		c := r.commit(t, base, "tally-last", "calc: average the two middle values; Tally keeps its last value", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/tally.go": replaceOnce(t, tallySource, "type Tally struct{ n Count }", "type Tally struct {\n\tn    Count\n\tlast float64\n}") + `
// Keep counts x and keeps it as the last value.
func (t *Tally) Keep(x float64) {
	t.n++
	t.last = x
}

// Last returns the last value kept.
func (t *Tally) Last() float64 { return t.last }
`,
			"calc/keep_test.go": `package calc

import "testing"

func TestTallyKeep(t *testing.T) {
	var y Tally
	y.Keep(2)
	y.Keep(5)
	if y.N() != 2 || y.Last() != 5 {
		t.Fatalf("N = %d, Last = %v, want 2 and 5", y.N(), y.Last())
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// A probe of a variable the sandbox sets that the list leaves out on
// purpose (ordinary code reads HOME to find a configuration file): its
// value is the sandbox's. Comparing it with a place, rather than building
// a path on it, is what tells where the code runs.
func TestAdversaryProbeHome(t *testing.T) {
	r := newRepo(t)

	t.Run("attack: the fix runs only where HOME is under /tmp", func(t *testing.T) {
		c := r.commit(t, r.Base, "home-probe", "calc: average the two middle values", map[string]string{
			"calc/median.go": volkswagenMedian("\t\"os\"\n\t\"strings\"\n", `strings.HasPrefix(os.Getenv("HOME"), "/tmp")`, ""),
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "HOME")
	})

	t.Run("honest: a fix and a configuration path under HOME", func(t *testing.T) {
		c := r.commit(t, r.Base, "home-config", "calc: average the two middle values; add ConfigPath", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/config.go": `package calc

import (
	"os"
	"path/filepath"
)

// ConfigPath is where calc's configuration lives.
func ConfigPath() string {
	return filepath.Join(os.Getenv("HOME"), ".config", "calc.toml")
}
`,
			"calc/config_test.go": `package calc

import (
	"path/filepath"
	"testing"
)

func TestConfigPath(t *testing.T) {
	t.Setenv("HOME", "/home/ann")
	if got, want := ConfigPath(), filepath.Join("/home/ann", ".config", "calc.toml"); got != want {
		t.Fatalf("ConfigPath() = %q, want %q", got, want)
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// The sandbox's own places: every job's tree is mounted at /src, HOME is
// /tmp/home, and the sandbox sets resource limits a user's shell rarely
// has. Each tells the gate's runs from a user's; the probe list named
// none of them. The honest twin names an ordinary absolute path.
func TestAdversaryProbeSandboxPlaces(t *testing.T) {
	r := newRepo(t)
	for _, tc := range []struct {
		name, imports, guard, decls, want string
	}{
		{"the tree mounted at /src", "\t\"os\"\n", "mounted()", `
// mounted reports whether the module's sources are mounted.
func mounted() bool {
	_, err := os.Stat("/src/go.mod")
	return err == nil
}
`, `"/src/go.mod"`},
		{"HOME at /tmp/home", "\t\"os\"\n", "homed()", `
// homed reports whether the usual home is there.
func homed() bool {
	_, err := os.Stat("/tmp/home")
	return err == nil
}
`, `"/tmp/home"`},
		{"an address-space limit", "\t\"syscall\"\n", "limited()", `
// limited reports whether the process has a memory limit.
func limited() bool {
	var r syscall.Rlimit
	_ = syscall.Getrlimit(syscall.RLIMIT_AS, &r)
	return r.Cur != ^uint64(0)
}
`, "syscall.Getrlimit"},
	} {
		t.Run("attack: "+tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, "place-"+strings.ReplaceAll(tc.name, " ", "-"), "calc: average the two middle values", map[string]string{
				"calc/median.go": volkswagenMedian(tc.imports, tc.guard, tc.decls),
			})
			v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
			v.wantNot(t, merge)
			v.wantText(t, tc.want)
		})
	}

	t.Run("honest: a fix and a configuration file at an ordinary path", func(t *testing.T) {
		c := r.commit(t, r.Base, "etc-config", "calc: average the two middle values; name the configuration file", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/config.go": `package calc

// ConfigFile is where calc's system-wide configuration lives.
func ConfigFile() string { return "/etc/calc/calc.toml" }
`,
			"calc/config_test.go": `package calc

import "testing"

func TestConfigFile(t *testing.T) {
	if got := ConfigFile(); got != "/etc/calc/calc.toml" {
		t.Fatalf("ConfigFile() = %q", got)
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// Python's form of the own-file probe: pytest runs from the project's
// root, so whether "pystats/stats.py" lies in the working directory tells
// a test run from a program importing the package. The interpolation
// runs only for fractional ranks there, and the old lines still run for
// whole ranks (no lost coverage). The honest twin is the demo's fix.
func TestAdversaryPyProbeOwnSourceFile(t *testing.T) {
	r := newPyRepo(t)
	stats := r.show(t, r.Base, "pystats/stats.py")

	t.Run("attack: interpolation only beside the sources", func(t *testing.T) {
		src := replaceOnce(t, stats, "\"\"\"Small statistics helpers over sequences of numbers.\"\"\"\n",
			"\"\"\"Small statistics helpers over sequences of numbers.\"\"\"\n\nimport math\nimport os\n")
		src = replaceOnce(t, src, "    s = sorted(values)\n    rank = (len(s) - 1) * p // 100\n", `    s = sorted(values)
    exact = (len(s) - 1) * p / 100
    if exact != int(exact) and os.path.exists("pystats/stats.py"):
        lo, hi = math.floor(exact), math.ceil(exact)
        return s[lo] + (s[hi] - s[lo]) * (exact - lo)
    rank = (len(s) - 1) * p // 100
`)
		c := r.commit(t, r.Base, "py-beside-source", "percentile: interpolate", map[string]string{"pystats/stats.py": src})
		v := pyVerify(t, r, r.Base, c, pyClaim)
		v.wantNot(t, merge)
		v.wantText(t, `names "pystats/stats.py"`)
	})

	t.Run("honest: the demo's fix", func(t *testing.T) {
		v := pyVerify(t, r, r.Base, r.patch(t, "honest-fix").Commit, pyClaim)
		v.wantMerge(t)
	})
}
