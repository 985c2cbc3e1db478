package patch

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestString pins the rendering: git's header order, a/ b/ prefixes, git's
// quoting, the tab after a bare name with a space, counts of 1 left out.
func TestString(t *testing.T) {
	input := diff(
		"--- lib/x.py\t2024-05-01 10:00:00.000000000 +0200",
		"+++ lib/x.py\t2024-05-02 11:30:00.000000000 +0200",
		"@@ -1,2 +1,2 @@ def f():",
		" a",
		"-b",
		"+c",
		`\ No newline at end of file`,
		`diff --git "a/caf\303\251 x" "b/caf\303\251 y"`,
		"old mode 100644",
		"new mode 100755",
		"similarity index 90%",
		`rename from "caf\303\251 x"`,
		`rename to "caf\303\251 y"`,
		"index 1111111..2222222",
		`--- "a/caf\303\251 x"`,
		`+++ "b/caf\303\251 y"`,
		"@@ -3,0 +4 @@",
		"+new",
		"diff --git a/sp ace b/sp ace",
		"new file mode 100644",
		"index 0000000..3333333",
		"--- /dev/null",
		"+++ b/sp ace\t",
		"@@ -0,0 +1 @@",
		"+s",
		"Binary files a/img.png and b/img.png differ",
		"diff --git a/gone b/gone",
		"deleted file mode 100755",
		"index 4444444..0000000",
		"Binary files a/gone and /dev/null differ",
	)
	want := diff(
		"diff --git a/lib/x.py b/lib/x.py",
		"--- a/lib/x.py",
		"+++ b/lib/x.py",
		"@@ -1,2 +1,2 @@ def f():",
		" a",
		"-b",
		"+c",
		`\ No newline at end of file`,
		`diff --git "a/caf\303\251 x" "b/caf\303\251 y"`,
		"old mode 100644",
		"new mode 100755",
		`rename from "caf\303\251 x"`,
		`rename to "caf\303\251 y"`,
		"index 1111111..2222222",
		`--- "a/caf\303\251 x"`,
		`+++ "b/caf\303\251 y"`,
		"@@ -3,0 +4 @@",
		"+new",
		"diff --git a/sp ace b/sp ace",
		"new file mode 100644",
		"index 0000000..3333333",
		"--- /dev/null",
		"+++ b/sp ace\t",
		"@@ -0,0 +1 @@",
		"+s",
		"diff --git a/img.png b/img.png",
		"Binary files a/img.png and b/img.png differ",
		"diff --git a/gone b/gone",
		"deleted file mode 100755",
		"index 4444444..0000000",
		"Binary files a/gone and /dev/null differ",
	)
	p := mustParse(t, input)
	if got := p.String(); got != want {
		t.Errorf("String():\n%s\nwant:\n%s", got, want)
	}
	checkRoundTrip(t, p)
	if (&Patch{}).String() != "" {
		t.Errorf("an empty Patch renders as text")
	}
}

// TestStringOfHandBuiltPatch: String never panics, whatever the fields say.
func TestStringOfHandBuiltPatch(t *testing.T) {
	p := &Patch{Files: []*File{
		{},
		{Op: Op(42), OldPath: "x", NewPath: "y", OldMode: "1", Hunks: []Hunk{{Lines: []Line{{Kind: LineKind(9), Text: "?"}}}}},
	}}
	if got := p.String(); !strings.Contains(got, "diff --git a/x b/y\n") {
		t.Errorf("String():\n%s", got)
	}
}

func TestFileMethods(t *testing.T) {
	p := mustParse(t, diff(
		"diff --git a/m.go b/m.go",
		"--- a/m.go",
		"+++ b/m.go",
		"@@ -2,3 +2,4 @@",
		" a",
		"-b",
		"+B",
		"+B2",
		" c",
		"@@ -10,2 +11,1 @@",
		"-x",
		" y",
		"--- a/gone.go",
		"+++ /dev/null",
		"@@ -1 +0,0 @@",
		"-g",
		"--- /dev/null",
		"+++ b/added.go",
		"@@ -0,0 +1 @@",
		"+n",
		"diff --git a/old.go b/new.go",
		"similarity index 100%",
		"rename from old.go",
		"rename to new.go",
	))
	type want struct {
		path           string
		added, removed []int
	}
	wants := []want{
		{"m.go", []int{3, 4}, []int{3, 10}},
		{"gone.go", nil, []int{1}},
		{"added.go", []int{1}, nil},
		{"new.go", nil, nil},
	}
	if len(p.Files) != len(wants) {
		t.Fatalf("%d files, want %d", len(p.Files), len(wants))
	}
	for i, w := range wants {
		f := p.Files[i]
		if f.Path() != w.path || !slices.Equal(f.AddedLines(), w.added) || !slices.Equal(f.RemovedLines(), w.removed) {
			t.Errorf("file %d: Path %q added %v removed %v; want %q %v %v", i, f.Path(), f.AddedLines(), f.RemovedLines(), w.path, w.added, w.removed)
		}
	}
	wantPaths := []string{"added.go", "gone.go", "m.go", "new.go", "old.go"}
	if got := p.Paths(); !slices.Equal(got, wantPaths) {
		t.Errorf("Paths() = %q, want %q", got, wantPaths)
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		value fmtStringer
		want  string
	}{
		{OpModified, "modified"}, {OpAdded, "added"}, {OpDeleted, "deleted"},
		{OpRenamed, "renamed"}, {OpCopied, "copied"}, {Op(0), "unknown"},
		{LineContext, "context"}, {LineAdded, "added"}, {LineRemoved, "removed"}, {LineKind(0), "unknown"},
	} {
		if got := c.value.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.value, got, c.want)
		}
	}
}

type fmtStringer interface{ String() string }

func TestParseErrorMessage(t *testing.T) {
	_, err := Parse([]byte(diff("diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", " a")))
	const want = `patch: line 5: truncated patch: input ends inside the hunk at line 4: 1 old and 1 new lines missing`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if !errors.Is(err, ErrTruncated) || errors.Is(err, ErrCountMismatch) {
		t.Errorf("errors.Is does not single out the reason of %v", err)
	}
	_, err = Parse(nil)
	if err == nil || err.Error() != "patch: empty patch: the input holds no diff" {
		t.Errorf("got %v", err)
	}
	long := strings.Repeat("x", 500)
	_, err = Parse([]byte(long + "\n"))
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("the message of a refusal of a long line is not short: %v", err)
	}
}

// TestLongLinesStayLinear: names are split without trying every split
// point, so adversarial lines cost time linear in their length.
func TestLongLinesStayLinear(t *testing.T) {
	const n = 1 << 20
	inputs := map[string]string{
		"Binary files line of \" and \"": "Binary files " + strings.Repeat("x and ", n/6) + " differ\n",
		"diff --git line of spaces":      "diff --git " + strings.Repeat("a ", n/2) + "\nold mode 100644\nnew mode 100755\n",
		"git Binary files line":          "diff --git a/x b/x\nBinary files " + strings.Repeat("x and ", n/6) + " differ\n",
		"--- line with spaces":           "--- " + strings.Repeat("a ", n/2) + "x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
	}
	for name, input := range inputs {
		start := time.Now()
		_, err := Parse([]byte(input))
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: %v for %d bytes", name, d, len(input))
		}
	}
}
