package inspect

import (
	"strings"
	"testing"
)

const baseSigs = `package calc

const limit int64 = 60

var names = map[string]int{}

type counter struct{ n int }

func (c *counter) bump(by int) {
	c.n += by
}

func (c counter) String() string { return "counter" }

func join(prefix, name string) string {
	return prefix + "/" + name
}

func total(xs ...int) (n int) {
	for _, x := range xs {
		n += x
	}
	return
}

func pick[T any](xs []T) T { return xs[0] }
`

// TestGoSignatureChangesAttacks: a signature existing code calls through,
// changed where the patch's lines show nothing of what the unchanged body
// and callers now do (an eighth adversary's MERGEs: parameters swapped, a
// pointer receiver made a value one, a named result narrowed), is found,
// in whichever file the declaration moved to.
func TestGoSignatureChangesAttacks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch map[string]string
		want  []string
	}{
		{"parameters swapped", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "join(prefix, name string)", "join(name, prefix string)")},
			[]string{"calc/c.go:15: changes the parameters of join from (prefix string, name string) to (name string, prefix string)"}},
		{"a pointer receiver made a value one", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "(c *counter) bump", "(c counter) bump")},
			[]string{"calc/c.go:9: changes the receiver of counter.bump from *counter to counter"}},
		{"a value receiver made a pointer one: fmt no longer calls String on a value", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "(c counter) String", "(c *counter) String")},
			[]string{"calc/c.go:13: changes the receiver of counter.String from counter to *counter"}},
		{"a named result narrowed", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "(n int) {", "(n int8) {")},
			[]string{"calc/c.go:19: changes the results of total from (n int) to (n int8)"}},
		{"a parameter narrowed", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "bump(by int)", "bump(by int8)")},
			[]string{"calc/c.go:9: changes the parameters of counter.bump from (by int) to (by int8)"}},
		{"a parameter inserted before the others", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "join(prefix, name string)", "join(sep, prefix, name string)")},
			[]string{"calc/c.go:15: changes the parameters of join"}},
		{"a variadic parameter made a slice", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "total(xs ...int)", "total(xs []int)")},
			[]string{"calc/c.go:19: changes the parameters of total from (xs ...int) to (xs []int)"}},
		{"a type parameter constrained", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "pick[T any]", "pick[T comparable]")},
			[]string{"calc/c.go:26: changes the type parameters of pick from [T any] to [T comparable]"}},
		{"a constant's type narrowed", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "const limit int64 = 60", "const limit int8 = 60")},
			[]string{"calc/c.go:3: changes the declared type of constant limit from int64 to int8"}},
		{"a constant's type dropped", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "const limit int64 = 60", "const limit = 60")},
			[]string{"calc/c.go:3: changes the declared type of constant limit from int64 to int"}},
		{"a constant's type narrowed by a conversion", map[string]string{"calc/c.go": strings.ReplaceAll(baseSigs, "const limit int64 = 60", "const limit = int8(60)")},
			[]string{"calc/c.go:3: changes the declared type of constant limit from int64 to int8"}},
		{"a function moved to a new file and its parameters swapped", map[string]string{
			"calc/c.go":    strings.ReplaceAll(baseSigs, "func join(prefix, name string) string {\n\treturn prefix + \"/\" + name\n}\n", ""),
			"calc/join.go": "package calc\n\nfunc join(name, prefix string) string {\n\treturn prefix + \"/\" + name\n}\n"},
			[]string{"calc/join.go:3: changes the parameters of join"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoSignatureChanges(map[string][]byte{"calc/c.go": []byte(baseSigs)}, bytesOf(tc.patch)), tc.want...)
		})
	}
}

// TestGoSignatureChangesHonest: a parameter or a result added at the end
// (every caller changes with it, and is measured), a receiver renamed
// with its body, a function added or removed, a variable's value changed,
// layout and comments, and a file that does not parse (other rules name
// it) are no finding.
func TestGoSignatureChangesHonest(t *testing.T) {
	for name, patch := range map[string]map[string]string{
		"a parameter added":          {"calc/c.go": strings.ReplaceAll(baseSigs, "join(prefix, name string)", "join(prefix, name string, lower bool)")},
		"a result added":             {"calc/c.go": strings.ReplaceAll(baseSigs, "func join(prefix, name string) string {\n\treturn prefix + \"/\" + name\n", "func join(prefix, name string) (string, error) {\n\treturn prefix + \"/\" + name, nil\n")},
		"a receiver renamed":         {"calc/c.go": strings.ReplaceAll(baseSigs, "func (c *counter) bump(by int) {\n\tc.n += by", "func (k *counter) bump(by int) {\n\tk.n += by")},
		"a function added":           {"calc/c.go": baseSigs + "\nfunc half(n int) int { return n / 2 }\n"},
		"a function removed":         {"calc/c.go": strings.ReplaceAll(baseSigs, "func pick[T any](xs []T) T { return xs[0] }\n", "")},
		"a value changed":            {"calc/c.go": strings.ReplaceAll(baseSigs, "const limit int64 = 60", "const limit int64 = 90")},
		"layout and comments":        {"calc/c.go": strings.ReplaceAll(baseSigs, "join(prefix, name string)", "join(prefix /* dir */, name string)")},
		"the same names grouped":     {"calc/c.go": strings.ReplaceAll(baseSigs, "join(prefix, name string)", "join(prefix string, name string)")},
		"a file that will not parse": {"calc/c.go": baseSigs, "calc/bad.go": "package calc\n\nfunc (\n"},
		"any spelled interface{}":    {"calc/c.go": strings.ReplaceAll(baseSigs, "pick[T any]", "pick[T interface{}]")},
	} {
		t.Run(name, func(t *testing.T) {
			if got := GoSignatureChanges(map[string][]byte{"calc/c.go": []byte(baseSigs)}, bytesOf(patch)); len(got) != 0 {
				t.Fatalf("findings %q for an honest change", got)
			}
		})
	}
}

// TestGoSignatureChangesAny: the predeclared any is interface{}, so a
// signature or a declared type that spells one as the other (go-logfmt
// v0.6.1 modernised every interface{} beside its fix) changes nothing; a
// package that declares an any of its own means another type by it.
func TestGoSignatureChangesAny(t *testing.T) {
	base := "package calc\n\nvar last interface{}\n\nfunc put(key interface{}, vals ...interface{}) (map[string]interface{}, error) {\n\treturn nil, nil\n}\n\nfunc (c *cache) get(k any) func(interface{}) any { return nil }\n\ntype cache struct{ m map[any]struct{ any int } }\n"
	swapped := "package calc\n\nvar last any\n\nfunc put(key any, vals ...any) (map[string]any, error) {\n\treturn nil, nil\n}\n\nfunc (c *cache) get(k interface{}) func(any) interface{} { return nil }\n\ntype cache struct{ m map[any]struct{ any int } }\n"
	wantFindings(t, GoSignatureChanges(map[string][]byte{"calc/c.go": []byte(base)}, map[string][]byte{"calc/c.go": []byte(swapped)}))
	own := map[string][]byte{"calc/c.go": []byte(swapped), "calc/any.go": []byte("package calc\n\ntype any int\n")}
	wantFindings(t, GoSignatureChanges(map[string][]byte{"calc/c.go": []byte(base), "calc/any.go": []byte("package calc\n\ntype any int\n")}, own),
		"calc/c.go:3: changes the declared type of variable last from interface{} to any",
		"calc/c.go:5: changes the parameters of put",
		"calc/c.go:5: changes the results of put",
		"calc/c.go:9: changes the parameters of cache.get",
		"calc/c.go:9: changes the results of cache.get")
	// A receiver's type parameter named any (a second adversary's MERGE):
	// x any is x T there, and interface{} widens it.
	set := "package calc\n\ntype Set[T comparable] map[T]bool\n\nfunc (s Set[any]) Has(x any) bool { return s[x] }\n"
	wantFindings(t, GoSignatureChanges(map[string][]byte{"calc/set.go": []byte(set)}, map[string][]byte{"calc/set.go": []byte(strings.Replace(set, "Has(x any)", "Has(x interface{})", 1))}),
		"calc/set.go:5: changes the parameters of Set.Has")
}

// TestGoSignatureChangesInferred: a variable or constant whose value, not
// a type, gives its type, and whose value turns from an expression into a
// literal or back, may change its type (time.Second → 1000000000: fmt
// prints "1s", then "1000000000"); two expressions are not compared.
func TestGoSignatureChangesInferred(t *testing.T) {
	base := "package calc\n\nimport \"time\"\n\nvar unit = time.Second\n\nconst step = time.Minute\n\nvar n = count()\n\nfunc count() int { return 1 }\n"
	for _, tc := range []struct {
		name, from, to string
		want           []string
	}{
		{"a variable's value made a literal", "var unit = time.Second", "var unit = 1000000000",
			[]string{"calc/c.go:5: changes the declared type of variable unit from the type of time.Second to int"}},
		{"a constant's value made a literal", "const step = time.Minute", "const step = 60000000000",
			[]string{"calc/c.go:7: changes the declared type of constant step from the type of time.Minute to int"}},
		{"an expression for another", "var n = count()", "var n = count() + 1", nil},
		{"a literal's value", "var unit = time.Second", "var unit = 2 * time.Second", nil},
		{"a type written beside an expression", "var n = count()", "var n int = count()", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patched := strings.Replace(base, tc.from, tc.to, 1)
			wantFindings(t, GoSignatureChanges(map[string][]byte{"calc/c.go": []byte(base)}, map[string][]byte{"calc/c.go": []byte(patched)}), tc.want...)
		})
	}
}
