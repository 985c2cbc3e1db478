package mutation

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

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
	e := written([]byte(writtenDiff), src)
	got, dels, same := e.wrote, e.dels, e.same
	// Line 5, {"api", 7, time.Second}, is context; lines 4 and 6 write.
	if len(same) != 0 {
		t.Errorf("token-identical lines %v, want none", same)
	}
	if len(dels) != 0 {
		t.Errorf("deletions of a diff that replaces and adds: %v", dels)
	}
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
	if got := written([]byte("@@ nonsense"), src).wrote; len(got) != 0 {
		t.Errorf("written of a bad diff = %v", got)
	}
}

// FuzzWritten: any diff and source give spans inside the source, without
// a panic.
func FuzzWritten(f *testing.F) {
	f.Add([]byte(writtenDiff), []byte(writtenPatch))
	f.Add([]byte("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1 +1 @@\n-x\n+y\n"), []byte("y"))
	label := "package p\n\nfunc f(k string) int {\n\tn := 5\n\tfor i := range 3 {\n\touter:\n\t\tfor range k {\n\t\t\tn += i\n\t\t\tcontinue outer\n\t\t}\n\t}\n\treturn n\n}\n"
	f.Add([]byte(wholeDiff(strings.NewReplacer("n := 5", "n := 3\n\tn *= 2", "\touter:\n", "", "\tfor i", "outer:\n\tfor i").Replace(label), label)), []byte(label))
	f.Fuzz(func(t *testing.T, diff, text []byte) {
		e := written(diff, func(string) ([]byte, bool) { return text, true })
		spans, dels, same := e.wrote, e.dels, e.same
		for p, ls := range same {
			for _, l := range ls {
				if l < 1 || l > strings.Count(string(text), "\n")+1 {
					t.Fatalf("%s: token-identical line %d outside the source", p, l)
				}
			}
		}
		for p, spans := range spans {
			for _, s := range spans {
				if s[0] < 0 || s[1] > len(text) || s[0] > s[1] {
					t.Fatalf("%s: span %v outside the %d-byte source", p, s, len(text))
				}
			}
		}
		for p, ds := range dels {
			for _, d := range ds {
				if d.Off < 0 || d.Off >= len(text) || d.Text == "" {
					t.Fatalf("%s: deletion %+v outside the %d-byte source", p, d, len(text))
				}
			}
		}
		// What stood where the patch wrote, and the restores built on it.
		for p, runs := range e.runs {
			for _, r := range runs {
				for s := r.begin; s <= r.end; s++ {
					r.baselineOf(s, r.end)
					r.baselineOf(r.begin, s)
				}
			}
			rs, _ := restoresOf("x.go", text, indexStatements("x.go", text, nil), runs, spans[p], dels[p], 0)
			for _, r := range rs {
				if r.Start < 0 || r.End > len(text) || r.Start >= r.End || r.Text == "" {
					t.Fatalf("%s: restore %+v outside the %d-byte source", p, r, len(text))
				}
			}
		}
		// The lines removed whole, and the gaps and restores built on
		// them.
		for p, rs := range e.removed {
			for _, r := range rs {
				if r.At < 0 || r.At > len(text) || r.Src == "" {
					t.Fatalf("%s: removal %+v outside the %d-byte source", p, r, len(text))
				}
			}
		}
		for p := range spans {
			ix := indexStatements("x.go", text, nil)
			exprs, _ := restoresOf("x.go", text, ix, e.runs[p], spans[p], dels[p], 0)
			gaps := gapsOf(text, ix, e.runs[p], spans[p], dels[p], e.removed[p], exprs)
			rs, units, _ := gapRestores("x.go", text, gaps, 0)
			if len(units) > len(gaps) {
				t.Fatalf("%s: %d units of %d gaps", p, len(units), len(gaps))
			}
			for _, r := range rs {
				if !r.Stmt || r.Start < 0 || r.End > len(text) || r.Start >= r.End || r.At < 0 || r.At > len(text) {
					t.Fatalf("%s: statement restore %+v outside the %d-byte source", p, r, len(text))
				}
			}
		}
	})
}

// TestWrittenDeletions: tokens a run deletes between two it keeps carry a
// change no patch-side token holds — the ! of !legacy, a keyed element, a
// value the common subsequence borrows from a removed neighbour, a row
// merged into the next (an adversary's MERGEs, each). Replacing a value,
// or a comma, is no deletion.
func TestWrittenDeletions(t *testing.T) {
	for _, tc := range []struct {
		name           string
		before, after  string
		want           string // the deleted tokens, "" for none
		wantLineOfNext string // the patch-side text the deletion sits before
	}{
		{"negation dropped", "\t{\"web\", 5, time.Hour, !legacy},", "\t{\"web\", 10, time.Hour, legacy},", "!", "legacy"},
		{"keyed element dropped", "\t{name: \"web\", max: 5, mfa: true},", "\t{name: \"web\", max: 10},", "5 mfa : true", "}"},
		{"value borrowed", "\t{max: 5, mfa: true, audit: false},", "\t{max: 10, mfa: false},", "true audit :", "false"},
		{"factor dropped", "\t{idle: 24 * time.Hour},", "\t{idle: time.Hour},", "24 *", "time"},
		{"replaced", "\t{\"web\", 5, time.Hour},", "\t{\"web\", 10, time.Minute},", "", ""},
		{"comma only", "\t{\"web\", 5},", "\t{\"web\", 5}", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patchSide := "package p\n\nvar rows = []row{\n" + tc.after + "\n}\n"
			diff := "diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -4 +4 @@ var rows = []row{\n-" + tc.before + "\n+" + tc.after + "\n"
			dels := written([]byte(diff), func(string) ([]byte, bool) { return []byte(patchSide), true }).dels
			if tc.want == "" {
				if len(dels) != 0 {
					t.Fatalf("deletions %v, want none", dels)
				}
				return
			}
			ds := dels["p.go"]
			if len(ds) != 1 || ds[0].Text != tc.want || !strings.HasPrefix(patchSide[ds[0].Off:], tc.wantLineOfNext) {
				t.Fatalf("deletions %+v, want %q before %q", ds, tc.want, tc.wantLineOfNext)
			}
		})
	}
}

// TestWrittenSameLines: a line of a run that holds the tokens it held —
// realigned by gofmt beside a new row, or with a changed comment —
// changes nothing; a line where tokens were only removed (parentheses
// dropped, which changes the value) or written does.
func TestWrittenSameLines(t *testing.T) {
	before := "\t\"admin\": 3,\n\t\"root\":  (1 + 2) * 4,\n"
	after := "\t\"admin\":     3, // realigned\n\t\"root\":      1 + 2*4,\n\t\"superuser\": 4,\n"
	patchSide := "package p\n\nvar m = map[string]int{\n" + after + "}\n"
	diff := "diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -4,2 +4,3 @@ var m = map[string]int{\n"
	for _, l := range strings.SplitAfter(strings.TrimSuffix(before, "\n"), "\n") {
		diff += "-" + strings.TrimSuffix(l, "\n") + "\n"
	}
	for _, l := range strings.SplitAfter(strings.TrimSuffix(after, "\n"), "\n") {
		diff += "+" + strings.TrimSuffix(l, "\n") + "\n"
	}
	same := written([]byte(diff), func(string) ([]byte, bool) { return []byte(patchSide), true }).same
	if got := same["p.go"]; !slices.Equal(got, []int{4}) {
		t.Errorf("token-identical lines = %v, want [4] (the realigned admin row only)", got)
	}
}

// TestWrittenDeletionAtALinesEnd: tokens deleted at the end of a line sit
// before the next line's first token (or the run's end), so the line
// they were cut from is named by the token before them (an adversary's
// `break outer` → `break`, and `* time.Minute` dropped above the fix's
// line): that line is not token-identical, and the deletion's Before is
// on it.
func TestWrittenDeletionAtALinesEnd(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, lineOfBefore string
	}{
		{"the next line's first token after it", "\tgrace := n * time.Minute\n\trenew := 3\n", "\tgrace := n\n\trenew := 5\n", "\tgrace := n\n"},
		{"the run's end after it", "\t\tbreak outer\n", "\t\tbreak\n", "\t\tbreak\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patchSide := "package p\n\nfunc f() {\n" + tc.after + "}\n"
			diff := fmt.Sprintf("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -4,%d +4,%d @@ func f() {\n", strings.Count(tc.before, "\n"), strings.Count(tc.after, "\n"))
			for _, l := range strings.SplitAfter(strings.TrimSuffix(tc.before, "\n"), "\n") {
				diff += "-" + strings.TrimSuffix(l, "\n") + "\n"
			}
			for _, l := range strings.SplitAfter(strings.TrimSuffix(tc.after, "\n"), "\n") {
				diff += "+" + strings.TrimSuffix(l, "\n") + "\n"
			}
			e := written([]byte(diff), func(string) ([]byte, bool) { return []byte(patchSide), true })
			dels, same := e.dels, e.same
			if slices.Contains(same["p.go"], 4) {
				t.Errorf("line 4 lost tokens but counts as token-identical (same = %v)", same["p.go"])
			}
			ds := dels["p.go"]
			line := strings.Index(patchSide, tc.lineOfBefore)
			if len(ds) != 1 || ds[0].Before < line || ds[0].Before >= line+len(tc.lineOfBefore) {
				t.Fatalf("deletions %+v, want one whose Before is on %q (offsets %d..%d)", ds, tc.lineOfBefore, line, line+len(tc.lineOfBefore))
			}
		})
	}
}

// TestBaselineOf: the baseline's text standing where the patch's
// expression stands, through the alignment of the run's tokens.
func TestBaselineOf(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, expr string
		want                      string // "" for none
	}{
		{"a call wrapped around a kept constant", "\trenewals := 5", "\trenewals := max(5, len(kind))", "max(5, len(kind))", "5"},
		{"a call wrapped around an operand", "\tif kind == \"admin\" {", "\tif strings.ToLower(kind) == \"admin\" {", "strings.ToLower(kind)", "kind"},
		{"a disjunct deleted", "\tif kind == \"admin\" || kind == \"root\" {", "\tif kind == \"admin\" {", "kind == \"admin\"", "kind == \"admin\" || kind == \"root\""},
		{"a value rewritten", "\treturn n + 1", "\treturn n * 2", "n * 2", "n + 1"},
		{"an operand the patch kept", "\tx := a + b", "\tx := a + c", "a", ""},
		{"an argument added beside", "\tf(a)", "\tf(a, b)", "b", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patchSide := "package p\n\nfunc f() {\n" + tc.after + "\n}\n"
			diff := "diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -4 +4 @@ func f() {\n-" + tc.before + "\n+" + tc.after + "\n"
			runs := written([]byte(diff), func(string) ([]byte, bool) { return []byte(patchSide), true }).runs["p.go"]
			if len(runs) != 1 {
				t.Fatalf("%d runs, want 1", len(runs))
			}
			at := strings.Index(patchSide, tc.expr)
			got, ok := runs[0].baselineOf(at, at+len(tc.expr))
			if !ok {
				got = ""
			}
			if got != tc.want {
				t.Errorf("baselineOf(%q) = %q, want %q", tc.expr, got, tc.want)
			}
		})
	}
}
