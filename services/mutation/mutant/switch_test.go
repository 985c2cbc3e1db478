package mutant

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNewSwitch(t *testing.T) {
	sw, err := NewSwitch([]int{3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sw.Var, "SEALGATE_M_") || len(sw.Var) != len("SEALGATE_M_")+16 || !validVar(sw.Var) {
		t.Errorf("Var = %q", sw.Var)
	}
	seen := map[string]bool{}
	for _, id := range []int{1, 2, 3} {
		for _, tok := range []string{sw.Tokens[id], sw.Refs[id]} {
			if !validToken(tok) || seen[tok] {
				t.Errorf("a token of %d = %q (valid %v, repeated %v)", id, tok, validToken(tok), seen[tok])
			}
			seen[tok] = true
		}
	}
	if len(sw.Tokens) != 3 || len(sw.Refs) != 3 {
		t.Errorf("switch = %+v", sw)
	}
	other, err := NewSwitch([]int{1})
	if err != nil || other.Var == sw.Var || other.Tokens[1] == sw.Tokens[1] || other.Refs[1] == sw.Refs[1] {
		t.Errorf("two switches share a name or a token: %+v, %+v (%v)", sw, other, err)
	}
	for _, ids := range [][]int{{0}, {-1}, {2, 2}} {
		if _, err := NewSwitch(ids); err == nil {
			t.Errorf("NewSwitch(%v) succeeded", ids)
		}
	}
}

func TestSwitchEnvAndHitBy(t *testing.T) {
	sw, err := NewSwitch([]int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	env, err := sw.Env(1, "/tmp/marker")
	if err != nil || env != sw.Var+"="+sw.Tokens[1]+" /tmp/marker" {
		t.Errorf("Env = %q, %v", env, err)
	}
	ref, err := sw.RefEnv(1, "/m")
	if err != nil || ref != sw.Var+"="+sw.Refs[1]+" /m" {
		t.Errorf("RefEnv = %q, %v", ref, err)
	}
	if _, err := sw.RefEnv(3, "/m"); err == nil {
		t.Errorf("RefEnv of a mutant without a reference token succeeded")
	}
	for _, bad := range []string{"", "relative/marker", "/with\nnewline"} {
		if _, err := sw.Env(1, bad); err == nil {
			t.Errorf("Env with marker %q succeeded", bad)
		}
	}
	if _, err := sw.Env(3, "/m"); err == nil {
		t.Errorf("Env of a mutant without a token succeeded")
	}
	tok := sw.Tokens[1]
	for _, tt := range []struct {
		marker string
		want   bool
	}{
		{tok + "\n", true},
		{tok, false},
		{tok + "\n" + tok + "\n", false},
		{sw.Tokens[2] + "\n", false},
		{sw.Refs[1] + "\n", false},
		{" " + tok + "\n", false},
		{"", false},
	} {
		if got := HitBy([]byte(tt.marker), sw, 1); got != tt.want {
			t.Errorf("HitBy(%q) = %v, want %v", tt.marker, got, tt.want)
		}
	}
	// The reference run's marker is read the same way, with the
	// reference token.
	for _, tt := range []struct {
		marker string
		want   bool
	}{
		{sw.Refs[1] + "\n", true},
		{tok + "\n", false},
		{sw.Refs[2] + "\n", false},
		{sw.Refs[1] + "\n" + sw.Refs[1] + "\n", false},
	} {
		if got := RefHitBy([]byte(tt.marker), sw, 1); got != tt.want {
			t.Errorf("RefHitBy(%q) = %v, want %v", tt.marker, got, tt.want)
		}
	}
	if HitBy([]byte(tok+"\n"), sw, 3) {
		t.Errorf("HitBy for a mutant without a token")
	}
	// A malformed switch is refused.
	for _, bad := range []Switch{
		{Var: "1X", Tokens: sw.Tokens, Refs: sw.Refs},
		{Var: "X=Y", Tokens: sw.Tokens, Refs: sw.Refs},
		{Var: sw.Var, Tokens: map[int]string{1: "short"}, Refs: sw.Refs},
		{Var: sw.Var, Tokens: map[int]string{1: strings.ToUpper(tok)}, Refs: sw.Refs},
		{Var: sw.Var, Tokens: map[int]string{1: tok, 2: tok}, Refs: sw.Refs},
		{Var: sw.Var, Tokens: map[int]string{1: tok}, Refs: map[int]string{1: tok}},
		{Var: sw.Var, Tokens: map[int]string{2: sw.Tokens[2]}, Refs: sw.Refs},
		{Var: sw.Var, Tokens: sw.Tokens, Refs: map[int]string{2: sw.Refs[2]}},
		{Var: sw.Var, Tokens: sw.Tokens, Refs: map[int]string{1: "short", 2: sw.Refs[2]}},
	} {
		if err := bad.check([]int{1}); err == nil {
			t.Errorf("switch %+v accepted", bad)
		}
	}
}

// switchModule is a module declaring go 1.16 (no type parameters; embed)
// whose package has code, package-level data read at initialization, an
// unexported constant, an embedded file and a function no test calls.
var switchModule = map[string]string{
	"go.mod": "module example.com/sw\n\ngo 1.16\n",
	"p/p.go": `package p

import _ "embed"

// Add adds.
func Add(a, b int) int {
	return a + b
}

var allowed = map[string]bool{"alice": true, "mallory": true}

// Allowed reports whether name may pass.
func Allowed(name string) bool { return allowed[name] }

var table = []int{1, 2, 3}

// total is computed when the package initializes.
var total = sum(table)

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

const greeting = "hello"

// Greet greets.
func Greet() string { return greeting + "!" }

//go:embed allow.txt
var allowText string

// Unused is never called by a test.
func Unused(x int) bool {
	return x > 3
}

// Loop evaluates its site many times.
func Loop(n int) int {
	c := 0
	for i := 0; i < n; i++ {
		c = c + 2
	}
	return c
}

type zone int

const (
	noZone zone = iota
	namedZone
	numericZone
)

// layouts selects a member of the enumeration per row.
var layouts = []struct {
	layout string
	zone   zone
}{
	{"15:04 MST", namedZone},
	{"15:04 -0700", numericZone},
}

// Zone is the zone handling of a layout.
func Zone(layout string) zone {
	for _, l := range layouts {
		if l.layout == layout {
			return l.zone
		}
	}
	return noZone
}
`,
	"p/allow.txt": "alice\nmallory\nlimit=3\n",
	"p/p_test.go": `package p

import (
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("Add")
	}
}

func TestAllowed(t *testing.T) {
	if !Allowed("mallory") || Allowed("eve") {
		t.Fatal("Allowed")
	}
}

func TestTotal(t *testing.T) {
	if total != 6 {
		t.Fatal("total", total)
	}
}

func TestGreet(t *testing.T) {
	if Greet() != "hello!" {
		t.Fatal("Greet")
	}
}

func TestEmbed(t *testing.T) {
	if !strings.Contains(allowText, "mallory") {
		t.Fatal("embed")
	}
}

func TestZone(t *testing.T) {
	if Zone("15:04 -0700") != numericZone {
		t.Fatal("Zone")
	}
}

func TestLoop(t *testing.T) {
	if Loop(100) != 200 {
		t.Fatal("Loop")
	}
}
`,
}

// TestSwitchRun builds a real schemata package with go test and runs it:
// the active mutant changes behaviour and writes its token once to the
// marker; its reference token changes nothing and marks the same site the
// same way; a token of no mutant changes nothing and writes nothing; a data
// mutant evaluated while the package initializes works and is marked; a
// site that never runs writes nothing; no generated file holds a token.
func TestSwitchRun(t *testing.T) {
	skipInRaceStep(t)
	goBin := goTool(t)
	root := t.TempDir()
	files := make(map[string][]byte)
	for name, src := range switchModule {
		files[name] = []byte(src)
	}
	writeFiles(t, root, files)
	dir := filepath.Join(root, "p")
	pkg := Package{Dir: dir, Files: map[string][]byte{"p.go": files["p/p.go"]}, Tests: map[string][]byte{"p_test.go": files["p/p_test.go"]}}
	lines := allLines(pkg.Files)
	lines["allow.txt"] = []int{1, 2, 3}
	survey, err := Inspect(pkg, lines)
	if err != nil {
		t.Fatal(err)
	}
	text := map[string][]string{"p.go": strings.Split(switchModule["p/p.go"], "\n"), "allow.txt": strings.Split(switchModule["p/allow.txt"], "\n")}
	pick := func(file, line, desc string) Site {
		t.Helper()
		for _, s := range survey.Sites {
			if s.File == file && s.Description == desc && strings.Contains(text[file][s.Line-1], line) {
				return s
			}
		}
		t.Fatalf("no site %q on a line with %q in %s among %v", desc, line, file, survey.Sites)
		return Site{}
	}
	chosen := []Site{
		pick("p.go", "a + b", "+ → -"),
		pick("p.go", "allowed =", `drop element "mallory": true`), // evaluated at init
		pick("p.go", "table =", "drop element 3"),                 // read at init by total
		pick("p.go", "greeting =", `"hello" → "sealgate"`),        // a constant, switched as a variable
		pick("allow.txt", "mallory", "drop line 2 (mallory)"),     // the embedded file
		pick("p.go", "x > 3", "> → >="),                           // Unused: never runs
		pick("p.go", "c + 2", "+ → *"),                            // Loop: runs 100 times
		pick("allow.txt", "limit", "3 → 4"),                       // no test reads it
		pick("p.go", "allowed =", "true → false"),                 // "alice": true → false
		pick("p.go", `"15:04 -0700"`, "numericZone → namedZone"),  // the member beside it
		pick("p.go", `"15:04 MST"`, "namedZone → numericZone"),    // a row TestZone does not read
	}
	for i := range chosen {
		chosen[i].ID = i + 1
	}
	sw := testSwitch(t, chosen)
	out, err := Schemata(pkg, chosen, sw)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range out {
		for _, tok := range append(slices.Collect(maps.Values(sw.Tokens)), slices.Collect(maps.Values(sw.Refs))...) {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a token", name)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, "p.test")
	run(t, root, nil, goBin, "test", "-c", "-o", bin, "./p")
	markers := t.TempDir()
	marker := filepath.Join(markers, "m")
	exec := func(env string, tests string) (int, []byte) {
		os.Remove(marker)
		code, _ := runTests(t, dir, bin, env, "-test.run=^("+tests+")$")
		b, _ := os.ReadFile(marker)
		return code, b
	}
	all := "TestAdd|TestAllowed|TestTotal|TestGreet|TestEmbed|TestLoop|TestZone"
	if code, marker := exec(noneEnv(t, sw, marker), all); code != 0 || marker != nil {
		t.Fatalf("a run with a token of no mutant: exit %d, marker %q", code, marker)
	}
	for _, tt := range []struct {
		id     int
		tests  string
		killed bool
		hit    bool
	}{
		{1, "TestAdd", true, true},
		{2, "TestAllowed", true, true},
		{2, "TestAdd", false, true}, // evaluated when the package initializes
		{3, "TestTotal", true, true},
		{4, "TestGreet", true, true},
		{5, "TestEmbed", true, true},
		{6, all, false, false}, // Unused never runs
		{7, "TestLoop", true, true},
		{8, "TestEmbed", false, true}, // limit=3 → 4: no test reads it
		{9, "TestAllowed", false, true},
		{10, "TestZone", true, true},
		{11, "TestZone", false, true},
	} {
		env, err := sw.Env(tt.id, marker)
		if err != nil {
			t.Fatal(err)
		}
		code, got := exec(env, tt.tests)
		if (code != 0) != tt.killed {
			t.Errorf("mutant %d (%s) with %s: exit %d, want killed %v", tt.id, chosen[tt.id-1].Description, tt.tests, code, tt.killed)
		}
		if hit := HitBy(got, sw, tt.id); hit != tt.hit || !tt.hit && got != nil {
			t.Errorf("mutant %d (%s) with %s: marker %q, want hit %v", tt.id, chosen[tt.id-1].Description, tt.tests, got, tt.hit)
		}
		// The mutant's reference run changes nothing and marks the same
		// site the same way: a test that watches the marker sees it in
		// both.
		ref, err := sw.RefEnv(tt.id, marker)
		if err != nil {
			t.Fatal(err)
		}
		code, got = exec(ref, tt.tests)
		if code != 0 {
			t.Errorf("reference run of mutant %d (%s) with %s: exit %d", tt.id, chosen[tt.id-1].Description, tt.tests, code)
		}
		if hit := RefHitBy(got, sw, tt.id); hit != tt.hit || !tt.hit && got != nil {
			t.Errorf("reference run of mutant %d (%s) with %s: marker %q, want hit %v", tt.id, chosen[tt.id-1].Description, tt.tests, got, tt.hit)
		}
	}
	// A token of another case, or cut short, activates nothing; without a
	// marker path the mutant runs but marks nothing.
	tok := sw.Tokens[1]
	for _, tt := range []struct {
		value  string
		killed bool
	}{
		{strings.ToUpper(tok) + " " + marker, false},
		{tok[:31] + " " + marker, false},
		{tok + marker, false},
		{tok, true},
		{tok + " relative-marker", true},
	} {
		code, got := exec(sw.Var+"="+tt.value, "TestAdd")
		if (code != 0) != tt.killed || got != nil {
			t.Errorf("%s=%q: exit %d, marker %q; want killed %v and no marker", sw.Var, tt.value, code, got, tt.killed)
		}
		if _, err := os.Stat(filepath.Join(dir, "relative-marker")); err == nil {
			t.Errorf("a relative marker path was written")
		}
	}
}

// noneEnv returns the switch's variable set to a well-formed token of no
// mutant: a run of the original that watches no site.
func noneEnv(t testing.TB, sw Switch, marker string) string {
	t.Helper()
	for {
		tok, err := randomHex(tokenLen / 2)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(slices.Collect(maps.Values(sw.Tokens)), tok) && !slices.Contains(slices.Collect(maps.Values(sw.Refs)), tok) {
			return sw.Var + "=" + tok + " " + marker
		}
	}
}
