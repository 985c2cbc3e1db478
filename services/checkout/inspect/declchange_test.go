package inspect

import (
	"strings"
	"testing"
)

const declBase = `package calc

import (
	_ "embed"
	"time"
	_ "example.com/calc/gold"
)

//go:embed grace.txt
var graceText string

var userKind = register("user")
var adminKind = register("admin")

type checker struct{}

func (checker) Check(kind string) error { return nil }

type policy struct{ checker }

// max returns the longer lifetime; zero means unlimited.
func max(a, b time.Duration) time.Duration {
	if a == 0 || b == 0 {
		return 0
	}
	if a > b {
		return a
	}
	return b
}

func Lease(kind string) time.Duration {
	return max(24*time.Hour, time.Duration(len(kind))*time.Hour)
}

func register(kind string) string { return kind }
`

// declTests are the baseline's tests of declBase's directory: the
// package's own (they use uint) and an external one (it uses min, which
// the package's declarations cannot reach).
var declTests = map[string][]byte{
	"calc/lease_test.go":   []byte("package calc\n\nimport \"testing\"\n\nfunc TestLease(t *testing.T) {\n\tif got := Lease(\"user\"); got != 24*3600*1e9 {\n\t\tt.Fatal(uint(got))\n\t}\n}\n"),
	"calc/example_test.go": []byte("package calc_test\n\nimport \"fmt\"\n\nfunc Example() {\n\tfmt.Println(min(1, 2))\n\t// Output: 1\n}\n"),
}

const declInitA = "package calc\n\nvar bonus int\n\nfunc init() {\n\tbonus = 1\n}\n"
const declInitZ = "package calc\n\nfunc init() {\n\tbonus *= 2\n}\n"

func declFiles(lease string, more ...string) map[string][]byte {
	m := map[string][]byte{"calc/lease.go": []byte(lease), "calc/defaults.go": []byte(declInitA), "calc/zone.go": []byte(declInitZ)}
	for i := 0; i+1 < len(more); i += 2 {
		if more[i+1] == "" {
			delete(m, more[i])
			continue
		}
		m[more[i]] = []byte(more[i+1])
	}
	return m
}

// TestGoDeclChangesAttacks: what changes the package's meaning without a
// statement is a finding, wherever it is written.
func TestGoDeclChangesAttacks(t *testing.T) {
	r := strings.Replace
	for _, tc := range []struct {
		name  string
		patch map[string][]byte
		want  string
	}{
		{"a go version constraint added", declFiles("//go:build go1.21\n\n" + declBase), `calc/lease.go:1: changes the file's build constraint from "" to "//go:build go1.21"`},
		{"a constraint lifted", declFiles(declBase, "calc/zone.go", "//go:build linux\n\n"+declInitZ), `calc/zone.go:1: changes the file's build constraint from "" to "//go:build linux"`},
		{"an embed re-pointed", declFiles(r(declBase, "//go:embed grace.txt", "//go:embed grace_eu.txt", 1)), `calc/lease.go:10: changes the //go:embed directive of graceText from "grace.txt" to "grace_eu.txt"`},
		{"an embed deleted", declFiles(r(declBase, "//go:embed grace.txt\n", "", 1)), `changes the //go:embed directive of graceText from "grace.txt" to ""`},
		{"a shadow of max deleted", declFiles(r(declBase, "func max(a, b time.Duration)", "func longest(a, b time.Duration)", 1)), "calc/lease.go:33: deletes the declaration of max, yet the name is still used: it now resolves to the predeclared max"},
		{"a function deleted, a dot import brings the name", declFiles(r(r(declBase, "func register(kind string) string { return kind }\n", "", 1), "\"time\"\n", "\"time\"\n\t. \"example.com/calc/kinds\"\n", 1)),
			"calc/lease.go:13: deletes the declaration of register, yet the name is still used: it now resolves to a name another file"},
		{"an exported function deleted", declFiles(r(declBase, "func Lease(kind string) time.Duration {\n\treturn max(24*time.Hour, time.Duration(len(kind))*time.Hour)\n}\n", "", 1)), "calc/lease.go: deletes the exported Lease"},
		{"a dot import added", declFiles(r(declBase, "\"time\"\n", "\"time\"\n\t. \"example.com/calc/kinds\"\n", 1)), `calc/lease.go:1: changes the file's dot imports from [] to ["example.com/calc/kinds"]`},
		{"a predeclared function declared", declFiles(declBase, "calc/octet.go", "package calc\n\nfunc len(s string) int { return 1 }\n"), "calc/octet.go:3: declares len, a predeclared name the package's code already used (calc/lease.go:"},
		{"a predeclared type the package's tests use declared", declFiles(declBase, "calc/octet.go", "package calc\n\ntype uint = uint8\n"), "calc/octet.go:3: declares uint, a predeclared name the package's code already used (calc/lease_test.go:"},
		{"a blank import removed", declFiles(r(declBase, "\t_ \"example.com/calc/gold\"\n", "", 1)), `calc/lease.go: removes the blank import of "example.com/calc/gold"`},
		{"init order by a file renamed", declFiles(declBase, "calc/zone.go", "", "calc/azone.go", declInitZ), "calc/azone.go:3: changes the order in which the package's init functions run"},
		{"initializers swapped", declFiles(r(declBase, "var userKind = register(\"user\")\nvar adminKind = register(\"admin\")", "var adminKind = register(\"admin\")\nvar userKind = register(\"user\")", 1)), "calc/lease.go:12: changes the order of package variables whose initializers call code"},
		{"a method shadows a promoted one", declFiles(declBase + "\nfunc (policy) Check(kind string) error {\n\tif kind == \"\" {\n\t\treturn nil\n\t}\n\treturn nil\n}\n"), "calc/lease.go:38: adds method policy.Check, which shadows the method Check policy had through its embedded checker"},
		{"an empty method", declFiles(declBase + "\nfunc (checker) Format(f fmt.State, verb rune) {}\n"), "calc/lease.go:38: adds method checker.Format, whose body holds nothing to judge"},
		{"a method json looks up, promoted into a struct", declFiles(declBase + "\nfunc (checker) MarshalJSON() ([]byte, error) {\n\treturn []byte(`\"checker\"`), nil\n}\n"), "calc/lease.go:38: adds method checker.MarshalJSON, which policy has through its embedded checker"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GoDeclChanges(declFiles(declBase), tc.patch, declTests)
			for _, f := range got {
				if strings.Contains(f.String(), tc.want) {
					if f.Rule != RuleForeignCode {
						t.Fatalf("rule %q, want %q", f.Rule, RuleForeignCode)
					}
					return
				}
			}
			t.Fatalf("findings %q, want one holding %q", got, tc.want)
		})
	}
}

// TestGoDeclChangesAmbiguous: a method added to one of two embedded
// types that the other has too takes the method from the struct that
// embeds both (the selector is ambiguous); one added to a type embedded
// where no other embedded type has the name is no finding.
func TestGoDeclChangesAmbiguous(t *testing.T) {
	const pin = "\ntype named struct{}\n\nfunc (named) Name() string { return \"n\" }\n\ntype pin struct {\n\tchecker\n\tnamed\n}\n"
	got := GoDeclChanges(declFiles(declBase+pin), declFiles(declBase+pin, "calc/name.go", "package calc\n\nfunc (checker) Name() string {\n\treturn \"checker\"\n}\n"), declTests)
	wantFindings(t, got, "calc/name.go:3: adds method checker.Name, which makes Name ambiguous on pin, which embeds checker and named")
	if got := GoDeclChanges(declFiles(declBase+pin), declFiles(declBase+pin, "calc/name.go", "package calc\n\nfunc (checker) Label() string {\n\treturn \"checker\"\n}\n"), declTests); len(got) != 0 {
		t.Fatalf("findings %q for a method no embedded type had", got)
	}
}

// TestGoDeclChangesHonest: a function moved to another file, a new
// helper, a new method with a body, a new init at the end, a file renamed
// that has no init, comments and layout are no finding.
func TestGoDeclChangesHonest(t *testing.T) {
	r := strings.Replace
	for name, patch := range map[string]map[string][]byte{
		"unchanged": declFiles(declBase),
		"a function moved to another file": declFiles(r(declBase, "func register(kind string) string { return kind }\n", "", 1),
			"calc/register.go", "package calc\n\nfunc register(kind string) string { return kind }\n"),
		"a helper added and used":        declFiles(r(declBase, "return max(24*time.Hour, time.Duration(len(kind))*time.Hour)", "return clamp(max(24*time.Hour, time.Duration(len(kind))*time.Hour))", 1) + "\nfunc clamp(d time.Duration) time.Duration {\n\treturn min(d, 48*time.Hour)\n}\n"),
		"a method added with a body":     declFiles(declBase + "\nfunc (checker) Name() string {\n\treturn \"checker\"\n}\n"),
		"an unused function deleted":     declFiles(declBase + "\nfunc unused() {}\n"),
		"an init added after the others": declFiles(declBase, "calc/zz.go", "package calc\n\nfunc init() {\n\tbonus++\n}\n"),
		"a file without init renamed":    declFiles(declBase, "calc/lease.go", "", "calc/leases.go", declBase),
		"comments and layout":            declFiles(r(declBase, "// max returns", "// max returns, as before,", 1)),
		"an embed variable's doc":        declFiles(r(declBase, "//go:embed grace.txt\n", "// graceText is the grace.\n//go:embed grace.txt\n", 1)),
		"a constraint's comment moved":   declFiles(declBase, "calc/zone.go", "// zone doubles.\n\n"+declInitZ),
		"an old module's own min helper": declFiles(declBase, "calc/clamp.go", "package calc\n\nfunc min(a, b int) int {\n\tif a < b {\n\t\treturn a\n\t}\n\treturn b\n}\n"),
	} {
		t.Run(name, func(t *testing.T) {
			base := declFiles(declBase)
			if name == "an unused function deleted" {
				base, patch = patch, base
			}
			if got := GoDeclChanges(base, patch, declTests); len(got) != 0 {
				t.Fatalf("findings %q for an honest change", got)
			}
		})
	}
}
