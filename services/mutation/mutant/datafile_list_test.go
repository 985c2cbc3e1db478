package mutant

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestListElements: each element of a key's list is dropped in turn. The attack adds delete in front of a user's list
// (user=read → user=delete,read,write): the last value's mutant only
// touches write, so dropping delete is what asks whether a test notices
// it. Its honest twin (user=read,write) gets the drops of read and write,
// which tests of both grants kill. The same holds of a space-separated
// list of words (user=delete read write); a sentence is no list.
func TestListElements(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"user=delete,read,write", "user=read,write | user=delete,write | user=delete,read"},
		{"user=read,write", "user=write | user=read"},
		{`  "roles": ["read", "write"],`, `  "roles": ["write"], |   "roles": ["read"],`},
		{"tags: a, b, a", "tags: b, a | tags: a, a | tags: a, b"},
		{"tags: a, a", "tags: a"},
		{"user=read", ""},
		{"guest=", ""},
		{"a,b,c", ""},
		{"x = a,,", ""},
		{"user=delete;read", "user=read | user=delete"},
		{"user=delete|read", "user=read | user=delete"},
		// The key's separator is the first: the colons of URLs are values'.
		{"origins: https://a.example, https://evil.example, https://b.example",
			"origins: https://evil.example, https://b.example | origins: https://a.example, https://b.example | origins: https://a.example, https://evil.example"},
		{`"allow": ["https://a.example","https://b.example"]`, `"allow": ["https://b.example"] | "allow": ["https://a.example"]`},
		// A value without separators is a list of words when it looks like
		// one (grants read with strings.Fields); prose is not.
		{"user=delete read write", "user=read write | user=delete write | user=delete read"},
		{"user=read write", "user=write | user=read"},
		{"user = read\twrite ", "user = write  | user = read "},
		{"paths: /etc/*.conf /var/lib/x", "paths: /var/lib/x | paths: /etc/*.conf"},
		{"name: Ada Lovelace", "name: Lovelace | name: Ada"},
		{"about: the quick brown fox jumps over the lazy dog", ""},
		{`title = "Hello world"`, ""},
		{"Note that x: is read here", ""},
		{"msg: it's done", ""},
		{"greeting: héllo wörld", ""},
	} {
		var got []string
		for _, m := range listElements(c.line, 1, 0) {
			got = append(got, string(m.Apply([]byte(c.line))))
		}
		if g := strings.Join(got, " | "); g != c.want {
			t.Errorf("listElements(%q) gives %q, want %q", c.line, g, c.want)
		}
	}
	content := []byte("admin=read,write,delete\nuser=delete,read,write\nguest=\n")
	var got []string
	for _, m := range DataFileMutants(content, 100) {
		if m.Operator == OpDataDropElement {
			got = append(got, fmt.Sprintf("%d:%d %s", m.Line, m.Col, m.Description))
		}
	}
	want := []string{
		"1:7 drop element read",
		"2:6 drop element delete",
		"1:12 drop element write",
		"2:13 drop element read",
		"1:18 drop element delete",
		"2:18 drop element write",
	}
	if !slices.Equal(got, want) {
		t.Errorf("element drops =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// permModule is a module whose package perm reads its grants from an
// embedded perms.txt with the given user line, tested for what the
// baseline granted and for the user's write grant.
func permModule(user string) map[string][]byte {
	return map[string][]byte{
		"go.mod":         []byte("module example.com/m\n\ngo 1.21\n"),
		"perm/perms.txt": []byte("admin=read,write,delete\n" + user + "\nguest=\n"),
		"perm/perm.go": []byte(`package perm

import (
	_ "embed"
	"slices"
	"strings"
)

//go:embed perms.txt
var perms string

// Can says whether role may do action, as perms.txt grants.
func Can(role, action string) bool {
	for _, line := range strings.Split(perms, "\n") {
		r, acts, ok := strings.Cut(line, "=")
		if ok && r == role {
			return slices.Contains(strings.Split(acts, ","), action)
		}
	}
	return false
}
`),
		"perm/perm_test.go": []byte(`package perm

import "testing"

func TestCan(t *testing.T) {
	for _, c := range []struct {
		role, action string
		want         bool
	}{{"admin", "delete", true}, {"admin", "read", true}, {"guest", "read", false}, {"nobody", "read", false}, {"user", "read", true}} {
		if got := Can(c.role, c.action); got != c.want {
			t.Errorf("Can(%s, %s) = %v", c.role, c.action, got)
		}
	}
}

func TestUserWrites(t *testing.T) {
	if !Can("user", "write") {
		t.Error("a user cannot write")
	}
}
`),
	}
}

// TestListElementsRun: the attack's hidden delete grant is a drop no test
// kills (so the changed line is not witnessed); the honest user=read,write
// has both drops killed.
func TestListElementsRun(t *testing.T) {
	lines := map[string][]int{"perms.txt": {2}}
	alive, ran := survivors(t, permModule("user=delete,read,write"), "perm", lines, OpDataDropElement)
	if ran != 3 || !slices.Equal(alive, []string{"drop element delete"}) {
		t.Errorf("attack: %d ran, survivors %q; want 3, the drop of delete alive", ran, alive)
	}
	if alive, ran := survivors(t, permModule("user=read,write"), "perm", lines, OpDataDropElement); ran != 2 || len(alive) != 0 {
		t.Errorf("honest: %d ran, survivors %q; want 2, none alive", ran, alive)
	}
}

// TestSpaceListRun: the grants file of the space-separated attack, read
// with strings.Fields: the drop of the hidden delete grant survives; the
// honest user=read write has both drops killed.
func TestSpaceListRun(t *testing.T) {
	fields := func(user string) map[string][]byte {
		m := permModule(user)
		m["perm/perms.txt"] = []byte("admin=read write delete\n" + user + "\nguest=\n")
		m["perm/perm.go"] = []byte(strings.Replace(string(m["perm/perm.go"]), `strings.Split(acts, ",")`, "strings.Fields(acts)", 1))
		return m
	}
	lines := map[string][]int{"perms.txt": {2}}
	alive, ran := survivors(t, fields("user=delete read write"), "perm", lines, OpDataDropElement)
	if ran != 3 || !slices.Equal(alive, []string{"drop element delete"}) {
		t.Errorf("attack: %d ran, survivors %q; want 3, the drop of delete alive", ran, alive)
	}
	if alive, ran := survivors(t, fields("user=read write"), "perm", lines, OpDataDropElement); ran != 2 || len(alive) != 0 {
		t.Errorf("honest: %d ran, survivors %q; want 2, none alive", ran, alive)
	}
}
