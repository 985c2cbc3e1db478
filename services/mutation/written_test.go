package mutation

import (
	"slices"
	"strings"
	"testing"
)

const writtenBase = `package p

var rows = []row{
	{"web", 5, time.Hour},
	{"api", 7, time.Second},
}
`

const writtenPatch = `package p

var rows = []row{
	{"web", 10, time.Nanosecond}, // raised
	{"api", 7, time.Second},
	{"cli", 1, time.Minute},
}
`

const writtenDiff = `diff --git a/p.go b/p.go
--- a/p.go
+++ b/p.go
@@ -4,2 +4,3 @@ var rows = []row{
-	{"web", 5, time.Hour},
+	{"web", 10, time.Nanosecond}, // raised
 	{"api", 7, time.Second},
+	{"cli", 1, time.Minute},
diff --git a/q.go b/q.go
new file mode 100644
--- /dev/null
+++ b/q.go
@@ -0,0 +1 @@
+package p
`

// TestWritten: of a changed line, only the tokens the patch wrote count —
// not the row's values it left as they were, nor a comment; a line the
// patch adds is written whole, and an added file has no entry (all of it
// is written).
func TestWritten(t *testing.T) {
	src := func(p string) ([]byte, bool) {
		if p == "p.go" {
			return []byte(writtenPatch), true
		}
		return []byte("package p\n"), true
	}
	got := written([]byte(writtenDiff), src)
	if _, ok := got["q.go"]; ok {
		t.Errorf("an added file has written spans %v; want none (all of it is written)", got["q.go"])
	}
	var texts []string
	for _, s := range got["p.go"] {
		texts = append(texts, writtenPatch[s[0]:s[1]])
	}
	want := []string{"10", "Nanosecond", "\t{\"cli\", 1, time.Minute},\n"}
	if !slices.Equal(texts, want) {
		t.Errorf("written = %q, want %q", texts, want)
	}
	at := func(text string) [2]int {
		i := strings.Index(writtenPatch, text)
		return [2]int{i, i + len(text)}
	}
	for text, want := range map[string]bool{`"web"`: false, `10`: true, `time.Nanosecond`: true, `time.Second`: false, `{"web", 10, time.Nanosecond}`: true, `"cli"`: true} {
		if got := overlaps(at(text), got["p.go"]); got != want {
			t.Errorf("overlaps(%s) = %v, want %v", text, got, want)
		}
	}
	// A diff that does not parse gives no entry at all.
	if got := written([]byte("@@ nonsense"), src); len(got) != 0 {
		t.Errorf("written of a bad diff = %v", got)
	}
}

// FuzzWritten: any diff and source give spans inside the source, without
// a panic.
func FuzzWritten(f *testing.F) {
	f.Add([]byte(writtenDiff), []byte(writtenPatch))
	f.Add([]byte("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1 +1 @@\n-x\n+y\n"), []byte("y"))
	f.Fuzz(func(t *testing.T, diff, text []byte) {
		for p, spans := range written(diff, func(string) ([]byte, bool) { return text, true }) {
			for _, s := range spans {
				if s[0] < 0 || s[1] > len(text) || s[0] > s[1] {
					t.Fatalf("%s: span %v outside the %d-byte source", p, s, len(text))
				}
			}
		}
	})
}
