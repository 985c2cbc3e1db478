package mutant

import (
	"fmt"
	"slices"
	"testing"
)

// TestFormatDirectives: a format keeps its directives, flags, widths,
// precisions and argument indexes, and loses the text around them.
func TestFormatDirectives(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"Bad field type %s", "%s", true},
		{"%d of %d (100%%) at %-8.3f, %[1]q %*d %v", "%d%d%-8.3f%[1]q%*d%v", true},
		{"a %ü b", "%ü", true},
		{"%s%d", "", false},       // nothing but directives
		{"100%", "", false},       // a lone %
		{"100%% sure", "", false}, // no directive
		{"", "", false},
	} {
		got, ok := formatDirectives(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("formatDirectives(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// panicModule is a kind switch whose default case ends its function with
// a panic: the one changed line offers no mutant but the message's.
func panicModule(test string) map[string][]byte {
	return map[string][]byte{
		"go.mod": []byte("module example.com/m\n\ngo 1.21\n"),
		"kind/kind.go": []byte(`package kind

import "fmt"

// Size is the size in bytes of a value of kind k.
func Size(k string) int {
	switch k {
	case "int32":
		return 4
	case "int64":
		return 8
	default:
		panic(fmt.Sprintf("bad kind %s", k))
	}
}

// Check is Size's error, for callers that do not panic.
func Check(k string) error {
	if k == "" {
		return fmt.Errorf("empty kind %q", k)
	}
	return nil
}
`),
		"kind/kind_test.go": []byte(`package kind

import "testing"

func TestSize(t *testing.T) {
	defer func() {
		r := recover()
		` + test + `
	}()
	Size("int8")
}
`),
	}
}

// TestPanicFormat: a panic's format string (a line no other mutant
// reaches) offers its directives alone; a test that pins the message kills
// it, one that only sees a panic does not. Other format strings (an
// error's) offer nothing. The default holding the panic, which ends its
// function, returns the zero value when its mutant runs: a test that sees
// the panic kills it.
func TestPanicFormat(t *testing.T) {
	goTool(t) // the type-check of fmt and the mutants' runs need the go command
	lines := map[string][]int{"kind.go": {13, 20}}
	files := panicModule(`if r != "bad kind int8" { t.Fatalf("panic %v", r) }`)
	var got []string
	found, err := Find(Package{Dir: t.TempDir(), Files: map[string][]byte{"kind.go": files["kind/kind.go"]}}, lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range found {
		if s.Operator != OpStringLiteral {
			continue
		}
		got = append(got, fmt.Sprintf("%d %s (%s) extra=%v", s.Line, s.Operator, s.Description, s.Extra))
	}
	want := []string{`13 string_literal ("bad kind %s" → "%s" (the panic's message without its text)) extra=true`}
	if !slices.Equal(got, want) {
		t.Fatalf("sites %q, want %q", got, want)
	}
	alive, ran := survivors(t, files, "kind", lines, OpStringLiteral)
	if ran != 1 || len(alive) != 0 {
		t.Errorf("a test that pins the message: %d ran, survivors %q; want it killed", ran, alive)
	}
	weak := panicModule(`if r == nil { t.Fatal("no panic") }`)
	alive, ran = survivors(t, weak, "kind", lines, OpStringLiteral)
	if ran != 1 || len(alive) != 1 {
		t.Errorf("a test that only sees a panic: %d ran, survivors %q; want it to survive", ran, alive)
	}
	// The default that ends the function cannot be left by a break: it
	// returns the zero value instead, and a test that sees the panic
	// kills that.
	alive, ran = survivors(t, weak, "kind", map[string][]int{"kind.go": {12}}, OpDefaultNever)
	if ran != 1 || len(alive) != 0 {
		t.Errorf("default never runs: %d ran, survivors %q; want it killed", ran, alive)
	}
}

// TestIdleCopies: putting back a loop's copy of its variable (i := i) that
// nothing in the body captures, addresses or assigns changes nothing;
// one a closure captures, or one the body assigns, changes what runs.
func TestIdleCopies(t *testing.T) {
	const now = "{\n\tvar a int\n\ta = xs[i]\n\tout = append(out, a)\n}"
	for _, c := range []struct {
		name, now, was string
		equivalent     bool
	}{
		{"the copy alone", now, "{\n\ti := i\n\tvar a int\n\ta = xs[i]\n\tout = append(out, a)\n}", true},
		{"another change too", now, "{\n\ti := i\n\tvar a int\n\ta = xs[i+1]\n\tout = append(out, a)\n}", false},
		{"a closure captures it", "{\n\tfs = append(fs, func() int { return i })\n}", "{\n\ti := i\n\tfs = append(fs, func() int { return i })\n}", false},
		{"its address taken", "{\n\tps = append(ps, &i)\n}", "{\n\ti := i\n\tps = append(ps, &i)\n}", false},
		{"assigned", "{\n\ti += 2\n\tout = append(out, i)\n}", "{\n\ti := i\n\ti += 2\n\tout = append(out, i)\n}", false},
		{"a method called", "{\n\tout = append(out, i.String())\n}", "{\n\ti := i\n\tout = append(out, i.String())\n}", false},
		{"in a go statement", "{\n\tgo use(i)\n}", "{\n\ti := i\n\tgo use(i)\n}", false},
		{"no copy", now, now, false},
		{"a copy of another name", now, "{\n\tj := i\n\tvar a int\n\ta = xs[i]\n\tout = append(out, a)\n}", false},
	} {
		if got := idleCopies(c.now, c.was) != ""; got != c.equivalent {
			t.Errorf("%s: equivalent %v, want %v", c.name, got, c.equivalent)
		}
	}
}

// TestDefaultReturningZeros: a default that ends its function already
// returning the zero values offers the mutant that returns them as an
// equivalent one (it is the code); one returning anything else, a real one.
func TestDefaultReturningZeros(t *testing.T) {
	src := `package p

func Size(k string) int {
	switch k {
	case "int32":
		return 4
	default:
		return 0
	}
}

func Name(k int) (string, error) {
	switch k {
	case 1:
		return "one", nil
	default:
		return "", nil
	}
}

func Width(k string) int {
	switch k {
	case "int32":
		return 4
	default:
		return -1
	}
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	found, err := Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range found {
		if s.Operator == OpDefaultNever {
			got = append(got, fmt.Sprintf("%d %s equivalent=%v", s.Line, s.Description, s.Equivalent != ""))
		}
	}
	want := []string{
		"7 default body never runs: return 0 equivalent=true",
		"16 default body never runs: return \"\", nil equivalent=true",
		"25 default body never runs: return 0 equivalent=false",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("default_never sites %q, want %q", got, want)
	}
}
