package patch

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type refusalCase struct {
	name   string
	input  string
	reason Reason
	line   int // the line the error must name; 0 for the whole input
}

// modifyHeader is the start of a well-formed section modifying f.
func modifyHeader(f string) []string {
	return []string{"diff --git a/" + f + " b/" + f, "--- a/" + f, "+++ b/" + f}
}

// join concatenates groups of lines.
func join(groups ...[]string) []string {
	var all []string
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// refusalCases are inputs Parse must refuse, each for one named reason on
// one named line. FuzzParse seeds from them too.
func refusalCases() []refusalCase {
	oneHunk := []string{"@@ -1 +1 @@", "-a", "+b"}
	return []refusalCase{
		// Nothing to parse.
		{"empty input", "", ErrEmpty, 0},
		{"only white space", "\n  \n\t\n", ErrEmpty, 0},
		{"text and no file", diff("I fixed the bug.", "Here is my change:"), ErrNoFile, 0},
		{"NUL byte", diff("diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a\x00", "+b"), ErrNUL, 5},

		// Hunks without a file header.
		{"hunk at the start", diff(oneHunk...), ErrHunkWithoutFile, 1},
		{"hunk after a diff --git line without ---/+++", diff(join([]string{"diff --git a/x b/x", "index 1111111..2222222 100644"}, oneHunk)...), ErrHunkWithoutFile, 3},
		{"hunk after a mode change", diff(join([]string{"diff --git a/x b/x", "old mode 100644", "new mode 100755"}, oneHunk)...), ErrHunkWithoutFile, 4},
		{"hunk after a binary file", diff(join([]string{"diff --git a/x b/x", "Binary files a/x and b/x differ"}, oneHunk)...), ErrHunkWithoutFile, 3},
		{"text then a hunk", diff(join([]string{"Here:"}, oneHunk)...), ErrGarbage, 1},

		// Counts that disagree with the header.
		{"more added lines than counted", diff(join(modifyHeader("x"), oneHunk, []string{"+c"})...), ErrCountMismatch, 7},
		{"more context lines than counted", diff(join(modifyHeader("x"), []string{"@@ -1,2 +1,2 @@", " a", " b", " c"})...), ErrCountMismatch, 7},
		{"more removed lines than counted", diff(join(modifyHeader("x"), []string{"@@ -1 +1,2 @@", "-a", "-b", "+c"})...), ErrCountMismatch, 6},
		{"fewer lines, next file starts", diff(join(modifyHeader("x"), []string{"@@ -1,3 +1,3 @@", " a", "-b", "+c"}, modifyHeader("y"), oneHunk)...), ErrCountMismatch, 8},
		{"text inside a hunk", diff(join(modifyHeader("x"), []string{"@@ -1,2 +1,2 @@", " a", "Note: this fixes it", " b"})...), ErrCountMismatch, 6},
		{"empty line where only new lines are left", diff(join(modifyHeader("x"), []string{"@@ -1 +1,2 @@", "-a", "+b", ""})...), ErrCountMismatch, 7},
		{"trailing blank line after a hunk", diff(join(modifyHeader("x"), oneHunk, []string{""})...), ErrCountMismatch, 7},

		// Truncation.
		{"input ends inside a hunk", diff(join(modifyHeader("x"), []string{"@@ -1,3 +1,3 @@", " a", "-b"})...), ErrTruncated, 6},
		{"input ends after ---", diff("--- a/x"), ErrTruncated, 1},
		{"input ends after +++", diff("--- a/x", "+++ b/x"), ErrTruncated, 2},
		{"git section ends after +++", diff(modifyHeader("x")...), ErrTruncated, 3},
		{"input ends after GIT binary patch", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "GIT binary patch"), ErrTruncated, 3},

		// Lines that belong to no file.
		{"text before the first file", diff(join([]string{"Here is the patch:"}, modifyHeader("x"), oneHunk)...), ErrGarbage, 1},
		{"text between files", diff(join(modifyHeader("x"), oneHunk, []string{"and also:"}, modifyHeader("y"), oneHunk)...), ErrGarbage, 7},
		{"text after the last file", diff(join(modifyHeader("x"), oneHunk, []string{"Done."})...), ErrGarbage, 7},
		{"+++ without ---", diff(join([]string{"+++ b/x"}, oneHunk)...), ErrGarbage, 1},
		{"unknown extended header", diff("diff --git a/x b/x", "mode change 100644", "--- a/x"), ErrGarbage, 2},
		{"combined diff", diff("diff --cc x", "index 1,2..3", "--- a/x", "+++ b/x", "@@@ -1 -1 +1 @@@"), ErrGarbage, 1},
		{"--- then no +++", diff("--- a/x", "*** b/x", "@@ -1 +1 @@"), ErrHeader, 2},
		{"no hunk after ---/+++", diff("--- a/x", "+++ b/x", "and then"), ErrHeader, 3},

		// Malformed hunk headers.
		{"no closing @@", diff(join(modifyHeader("x"), []string{"@@ -1 +1", "-a", "+b"})...), ErrHunkHeader, 4},
		{"letters for a count", diff(join(modifyHeader("x"), []string{"@@ -1,a +1 @@", "-a", "+b"})...), ErrHunkHeader, 4},
		{"no space before section", diff(join(modifyHeader("x"), []string{"@@ -1 +1 @@f()", "-a", "+b"})...), ErrHunkHeader, 4},
		{"line 0 with lines", diff(join(modifyHeader("x"), []string{"@@ -0,1 +1 @@", "-a", "+b"})...), ErrHunkHeader, 4},
		{"negative number", diff(join(modifyHeader("x"), []string{"@@ --1 +1 @@", "-a", "+b"})...), ErrHunkHeader, 4},
		{"overlong number", diff(join(modifyHeader("x"), []string{"@@ -1,99999999999999999999 +1 @@", "-a", "+b"})...), ErrHunkHeader, 4},
		{"bare @@", diff(join(modifyHeader("x"), []string{"@@", "-a", "+b"})...), ErrHunkHeader, 4},

		// Line numbers that contradict each other.
		{"first hunk moves lines", diff(join(modifyHeader("x"), []string{"@@ -10 +11 @@", "-a", "+b"})...), ErrLineNumbers, 4},
		{"hunks overlap", diff(join(modifyHeader("x"), []string{"@@ -1,2 +1,2 @@", " a", " b", "@@ -2 +2 @@", "-b", "+c"})...), ErrLineNumbers, 7},
		{"hunks out of order", diff(join(modifyHeader("x"), []string{"@@ -5 +5 @@", "-a", "+b", "@@ -1 +1 @@", "-c", "+d"})...), ErrLineNumbers, 7},
		{"second hunk ignores the first one's shift", diff(join(modifyHeader("x"), []string{"@@ -1 +1,2 @@", " a", "+b", "@@ -5 +5 @@", "-c", "+d"})...), ErrLineNumbers, 7},
		{"new file with old lines", diff("diff --git a/x b/x", "new file mode 100644", "--- /dev/null", "+++ b/x", "@@ -1 +1 @@", "-a", "+b"), ErrConflict, 1},
		{"deleted file with new lines", diff("--- a/x", "+++ /dev/null", "@@ -1 +1 @@", "-a", "+b"), ErrConflict, 1},

		// No-newline markers.
		{"marker first in a hunk", diff(join(modifyHeader("x"), []string{"@@ -1 +1 @@", `\ No newline at end of file`, "-a", "+b"})...), ErrNoNewlineMarker, 5},
		{"two markers", diff(join(modifyHeader("x"), oneHunk, []string{`\ No newline at end of file`, `\ No newline at end of file`})...), ErrNoNewlineMarker, 8},
		{"old line after the old side's end", diff(join(modifyHeader("x"), []string{"@@ -1,2 +1 @@", "-a", `\ No newline at end of file`, "-b", "+c"})...), ErrNoNewlineMarker, 7},
		{"context after the end", diff(join(modifyHeader("x"), []string{"@@ -1,2 +1,2 @@", " a", `\ No newline at end of file`, " b"})...), ErrNoNewlineMarker, 7},
		{"hunk after the end", diff(join(modifyHeader("x"), []string{"@@ -1 +1 @@", "-a", "+b", `\ No newline at end of file`, "@@ -5 +5 @@", "-c", "+d"})...), ErrNoNewlineMarker, 8},

		// Header lines that contradict each other.
		{"new and deleted", diff("diff --git a/x b/x", "new file mode 100644", "deleted file mode 100644"), ErrConflict, 1},
		{"rename and copy", diff("diff --git a/x b/y", "rename from x", "rename to y", "copy from x", "copy to y"), ErrConflict, 1},
		{"rename from alone", diff("diff --git a/x b/y", "rename from x"), ErrHeader, 1},
		{"old mode alone", diff("diff --git a/x b/x", "old mode 100644"), ErrHeader, 1},
		{"old mode equals new mode", diff("diff --git a/x b/x", "old mode 100644", "new mode 100644"), ErrConflict, 1},
		{"second index line", diff("diff --git a/x b/x", "index 1111111..2222222", "index 1111111..2222222", "--- a/x"), ErrConflict, 3},
		{"index mode and a mode change", diff("diff --git a/x b/x", "old mode 100644", "new mode 100755", "index 1111111..2222222 100644"), ErrConflict, 1},
		{"new file with a mode change", diff("diff --git a/x b/x", "old mode 100644", "new mode 100755", "new file mode 100644"), ErrConflict, 1},
		{"new file that is renamed", diff("diff --git a/x b/y", "new file mode 100644", "rename from x", "rename to y"), ErrConflict, 1},
		{"similarity without rename", diff("diff --git a/x b/x", "similarity index 90%", "old mode 100644", "new mode 100755"), ErrConflict, 1},
		{"--- names another file", diff(join([]string{"diff --git a/x b/x", "--- a/y", "+++ b/x"}, oneHunk)...), ErrConflict, 2},
		{"+++ names another file", diff(join([]string{"diff --git a/x b/x", "--- a/x", "+++ b/y"}, oneHunk)...), ErrConflict, 3},
		{"new file whose --- is not /dev/null", diff(join([]string{"diff --git a/x b/x", "new file mode 100644", "--- a/x", "+++ b/x"}, oneHunk)...), ErrConflict, 1},
		{"deleted file whose +++ is not /dev/null", diff(join([]string{"diff --git a/x b/x", "deleted file mode 100644", "--- a/x", "+++ b/x"}, oneHunk)...), ErrConflict, 1},
		{"rename with /dev/null", diff("diff --git a/x b/y", "rename from x", "rename to y", "--- /dev/null", "+++ b/y", "@@ -0,0 +1 @@", "+a"), ErrConflict, 1},
		{"both sides /dev/null", diff("--- /dev/null", "+++ /dev/null", "@@ -0,0 +0,0 @@"), ErrConflict, 1},
		{"diff --git names two files", diff(join([]string{"diff --git a/x b/y", "--- a/x", "+++ b/y"}, oneHunk)...), ErrConflict, 1},
		{"custom prefixes", diff("diff --git c/x w/x", "old mode 100644", "new mode 100755"), ErrConflict, 1},
		{"rename to itself", diff("diff --git a/x b/x", "rename from x", "rename to x"), ErrConflict, 1},
		{"rename lines name other files", diff("diff --git a/x b/y", "rename from p", "rename to q"), ErrConflict, 1},
		{"new file with an unchanged mode", diff("diff --git a/x b/x", "index 0000000..2222222 100644", "--- /dev/null", "+++ b/x", "@@ -0,0 +1 @@", "+a"), ErrConflict, 1},
		{"new file with a non-zero old object", diff("diff --git a/x b/x", "new file mode 100644", "index 1111111..2222222"), ErrConflict, 1},
		{"Binary line names another file", diff("diff --git a/x b/x", "Binary files a/y and b/y differ"), ErrConflict, 2},
		{"new file with a Binary line not from /dev/null", diff("diff --git a/x b/x", "new file mode 100644", "Binary files a/x and b/x differ"), ErrConflict, 1},
		{"plain names differ", diff(join([]string{"--- x.orig", "+++ x"}, oneHunk)...), ErrConflict, 1},
		{"one file in two sections", diff(join(modifyHeader("x"), oneHunk, modifyHeader("x"), []string{"@@ -5 +5 @@", "-c", "+d"})...), ErrConflict, 7},
		{"a renamed file also modified", diff(join([]string{"diff --git a/x b/y", "rename from x", "rename to y"}, modifyHeader("x"), oneHunk)...), ErrConflict, 4},
		{"two files written to one path", diff("diff --git a/x b/z", "rename from x", "rename to z", "diff --git a/y b/z", "copy from y", "copy to z"), ErrConflict, 4},
		{"plain section right after a hunkless git section", diff("diff --git a/x b/y", "rename from x", "rename to y", "--- a/z", "+++ /dev/null", "@@ -1 +0,0 @@", "-z"), ErrConflict, 1},
		{"plain Binary line of two files", diff("Binary files x and y differ"), ErrConflict, 1},

		// Header lines that do not parse.
		{"mode not octal", diff("diff --git a/x b/x", "old mode 100648", "new mode 100755"), ErrHeader, 2},
		{"short mode", diff("diff --git a/x b/x", "new file mode 644"), ErrHeader, 2},
		{"index without ..", diff("diff --git a/x b/x", "index 1111111 2222222", "--- a/x"), ErrHeader, 2},
		{"index with upper-case hex", diff("diff --git a/x b/x", "index ABCDEF0..2222222", "--- a/x"), ErrHeader, 2},
		{"similarity over 100%", diff("diff --git a/x b/y", "similarity index 101%", "rename from x", "rename to y"), ErrHeader, 2},
		{"unterminated quote", diff(`diff --git "a/x b/x`, "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"unknown escape", diff(`diff --git "a/\x" "b/\x"`, "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"short octal escape", diff(`diff --git "a/\30" "b/\30"`, "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"text after a quoted name", diff(`diff --git "a/x"y "b/x"`, "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"quote inside a bare name", diff(`diff --git a/x"y b/x"y`, "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"one name", diff("diff --git a/x", "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"names with spaces that nothing splits", diff("diff --git a/p q b/r s", "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"CRLF line endings", strings.ReplaceAll(diff(join(modifyHeader("x"), oneHunk)...), "\n", "\r\n"), ErrHeader, 1},
		{"CRLF plain diff", strings.ReplaceAll(diff(join([]string{"--- a/x", "+++ b/x"}, oneHunk)...), "\n", "\r\n"), ErrHeader, 1},
		{"CRLF hunk header", "--- a/x\t2024-01-01 00:00:00 +0000\r\n+++ b/x\t2024-01-01 00:00:00 +0000\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n", ErrHunkHeader, 3},
		{"tab in a bare git name", diff("diff --git a/x\ty b/x\ty", "old mode 100644", "new mode 100755"), ErrHeader, 1},
		{"bare name ending in a space with no tab", diff(join([]string{"--- a/x ", "+++ b/x "}, oneHunk)...), ErrHeader, 1},
		{"malformed Binary line", diff("diff --git a/x b/x", "Binary files a/x b/x differ"), ErrHeader, 2},

		// Sections that show no change.
		{"diff --git line alone", diff("diff --git a/x b/x"), ErrNoChange, 1},
		{"index line only (git diff -w)", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "diff --git a/y b/y", "old mode 100644", "new mode 100755"), ErrNoChange, 1},

		// Binary patches not in git's form.
		{"binary patch without an index line", diff("diff --git a/x b/x", "GIT binary patch", "literal 3", "KcmZQzWC8#H2LJ>B", ""), ErrBinaryPatch, 1},
		{"binary patch without literal or delta", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "GIT binary patch", "KcmZQzWC8#H2LJ>B", ""), ErrBinaryPatch, 4},
		{"binary data line too short", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "GIT binary patch", "literal 3", "KcmZQzWC8#H2L", ""), ErrBinaryPatch, 5},
		{"binary data outside base85", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "GIT binary patch", "literal 3", "KcmZQzWC8#H2LJ\"B", ""), ErrBinaryPatch, 5},
		{"binary block without data", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "GIT binary patch", "literal 3", ""), ErrBinaryPatch, 4},
		{"binary size not a number", diff("diff --git a/x b/x", "index 1111111..2222222 100644", "GIT binary patch", "literal three", "KcmZQzWC8#H2LJ>B", ""), ErrBinaryPatch, 4},

		// Paths the checkout must never write.
		{"absolute path", diff(join([]string{"--- /etc/passwd", "+++ /etc/passwd"}, oneHunk)...), ErrPath, 1},
		{"absolute after the prefix", diff(join([]string{"diff --git a//etc/passwd b//etc/passwd", "--- a//etc/passwd", "+++ b//etc/passwd"}, oneHunk)...), ErrPath, 1},
		{"absolute new file", diff("--- /dev/null", "+++ /tmp/x", "@@ -0,0 +1 @@", "+a"), ErrPath, 1},
		{"absolute binary file", diff("Binary files /etc/x and /etc/x differ"), ErrPath, 1},
		{"dot-dot path", diff(join(modifyHeader("../outside"), oneHunk)...), ErrPath, 1},
		{"dot-dot inside", diff(join(modifyHeader("a/../../x"), oneHunk)...), ErrPath, 1},
		{"dot-dot rename target", diff("diff --git a/x b/../x", "rename from x", "rename to ../x"), ErrPath, 1},
		{"dot component", diff(join(modifyHeader("./x"), oneHunk)...), ErrPath, 1},
		{"double slash", diff(join(modifyHeader("x//y"), oneHunk)...), ErrPath, 1},
		{"trailing slash", diff(join(modifyHeader("x/"), oneHunk)...), ErrPath, 1},
		{".git directory", diff(join(modifyHeader(".git/hooks/pre-commit"), oneHunk)...), ErrPath, 1},
		{".GIT directory, any case", diff(join(modifyHeader("sub/.GIT/config"), oneHunk)...), ErrPath, 1},
		{"empty name after the prefix", diff("diff --git a/ b/", "old mode 100644", "new mode 100755"), ErrPath, 1},
		{"quoted NUL in a path", diff(`diff --git "a/x\000y" "b/x\000y"`, "old mode 100644", "new mode 100755"), ErrNUL, 1},
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range refusalCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse([]byte(c.input))
			if err == nil {
				t.Fatalf("accepted:\n%s", describe(p))
			}
			if p != nil {
				t.Errorf("a refusal returned a patch")
			}
			var perr *ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			if !errors.Is(err, c.reason) || perr.Line != c.line {
				t.Errorf("got %v (reason %q, line %d), want reason %q on line %d", err, perr.Reason, perr.Line, c.reason, c.line)
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\r\n") {
				t.Errorf("message spans lines: %q", msg)
			}
			if c.line > 0 && !strings.Contains(msg, fmt.Sprintf("line %d:", c.line)) {
				t.Errorf("message %q does not name line %d", msg, c.line)
			}
			t.Log(msg)
		})
	}
}
