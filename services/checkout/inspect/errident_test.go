package inspect

import (
	"strings"
	"testing"
)

const identBase = `package users

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"regexp"
)

// ErrNotFound is returned (possibly wrapped) when no user has the name.
var ErrNotFound = errors.New("not found")

var errClosed = errors.New("closed")

var byName = map[string]int{"alice": 1}

// Lookup returns the id of the named user.
func Lookup(name string) (int, error) {
	id, ok := byName[name]
	if !ok {
		return 0, ErrNotFound
	}
	return id, nil
}

// Read reads one record.
func Read(r io.Reader) error {
	if r == nil {
		return errClosed
	}
	return io.EOF
}

// Title is the page's title, escaped by the template.
func Title(s string) any { return s }

var word = regexp.MustCompile("(?i)price")

// Subst replaces the word with v.
func Subst(s, v string) string { return word.ReplaceAllLiteralString(s, v) }

// Page is a constant fragment.
func Page() template.HTML { return template.HTML("<b>hi</b>") }

func use() { fmt.Println() }
`

// TestGoErrorIdentity: a sentinel error no longer mentioned, a computed
// value made trusted HTML, a computed regexp replacement text — each an
// attack whose twin (the sentinel wrapped with %w, the plain string, the
// Literal replacement) is no finding.
func TestGoErrorIdentity(t *testing.T) {
	r := strings.Replace
	files := func(src string) map[string][]byte { return map[string][]byte{"users/users.go": []byte(src)} }
	base := files(identBase)
	for _, tc := range []struct {
		name, patched string
		want          []string
	}{
		{"errident: the sentinel replaced by a new error", r(identBase, "return 0, ErrNotFound", `return 0, fmt.Errorf("user %q: not found", name)`, 1),
			[]string{"users/users.go:19: Lookup no longer mentions the sentinel error ErrNotFound"}},
		{"an unexported sentinel dropped", r(identBase, "return errClosed", `return errors.New("closed")`, 1),
			[]string{"Read no longer mentions the sentinel error errClosed"}},
		{"another package's sentinel dropped", r(identBase, "return io.EOF", `return errors.New("EOF")`, 1),
			[]string{"Read no longer mentions the sentinel error io.EOF"}},
		{"xss: a computed value made trusted HTML", r(identBase, "func Title(s string) any { return s }", "func Title(s string) any { return template.HTML(s) }", 1),
			[]string{"Title converts 1 computed values to html/template's trusted types where the baseline's converted 0"}},
		{"regexrepl: a computed replacement text", r(identBase, "word.ReplaceAllLiteralString(s, v)", "word.ReplaceAllString(s, v)", 1),
			[]string{"Subst makes 1 regexp replacements with a computed replacement text where the baseline's made 0"}},
		{"twin: the sentinel wrapped", r(identBase, "return 0, ErrNotFound", `return 0, fmt.Errorf("user %q: %w", name, ErrNotFound)`, 1), nil},
		{"twin: a sentinel added", r(identBase, "return id, nil", "return id, errClosed", 1), nil},
		{"twin: a constant made trusted", r(identBase, "func Title(s string) any { return s }", `func Title(s string) any { return template.HTML("<i>" + "t</i>") }`, 1), nil},
		{"twin: a constant replacement text", r(identBase, "word.ReplaceAllLiteralString(s, v)", `word.ReplaceAllString(s, "cost")`, 1), nil},
		{"twin: a local errX renamed", r(identBase, "func use() { fmt.Println() }", "func use() { errCh := 1; fmt.Println(errCh) }", 1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GoErrorIdentity(base, files(tc.patched))
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("findings %q for an honest change", got)
				}
				return
			}
			wantFindings(t, got, tc.want...)
		})
	}
	// A local variable named like an unexported sentinel is none.
	local := r(identBase, "func use() { fmt.Println() }", "func use() { errCh := 1; fmt.Println(errCh) }", 1)
	if got := GoErrorIdentity(files(local), files(identBase)); len(got) != 0 {
		t.Fatalf("a local errCh dropped: %q", got)
	}
}

// TestGoDeclChangesIsMethod: an Is method added that never reads its
// receiver matches every error of its type; its twin compares a field.
func TestGoDeclChangesIsMethod(t *testing.T) {
	const base = `package store

// Error is a store error with a code.
type Error struct{ Code int }

func (e *Error) Error() string { return "store error" }
`
	attack := base + `
// Is reports whether target is a store error.
func (e *Error) Is(target error) bool {
	_, ok := target.(*Error)
	return ok
}
`
	twin := base + `
// Is reports whether target is a store error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}
`
	files := func(src string) map[string][]byte { return map[string][]byte{"store/store.go": []byte(src)} }
	wantFindings(t, GoDeclChanges(files(base), files(attack), nil), "store/store.go:9: adds method Error.Is, which errors.Is calls")
	if got := GoDeclChanges(files(base), files(twin), nil); len(got) != 0 {
		t.Fatalf("findings %q for the twin", got)
	}
}
