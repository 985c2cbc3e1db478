package patch

import (
	"strings"
	"testing"
)

type acceptCase struct {
	name  string
	input string
	want  string // describe() of the expected Patch
}

// acceptCases are the forms Parse reads, written as git and diff write them
// (and as agents imitate them). FuzzParse seeds from them too.
func acceptCases() []acceptCase {
	return []acceptCase{
		{
			name: "git modify with index line and section",
			input: diff(
				"diff --git a/main.go b/main.go",
				"index 83db48f..bf269f4 100644",
				"--- a/main.go",
				"+++ b/main.go",
				"@@ -10,4 +10,5 @@ func main() {",
				" \ta := 1",
				"-\tb := 2",
				"+\tb := 3",
				"+\tc := 4",
				" \treturn",
				" }",
			),
			want: expect(
				`modified "main.go" "main.go" mode "100644" "100644" index 83db48f bf269f4`,
				`@@ -10,4 +10,5 @@ "func main() {"`,
				`  context 10 10 "\ta := 1"`,
				`  removed 11 0 "\tb := 2"`,
				`  added 0 11 "\tb := 3"`,
				`  added 0 12 "\tc := 4"`,
				`  context 12 13 "\treturn"`,
				`  context 13 14 "}"`,
			),
		},
		{
			name: "git modify without index line, two hunks shifting lines",
			input: diff(
				"diff --git a/x.txt b/x.txt",
				"--- a/x.txt",
				"+++ b/x.txt",
				"@@ -1,2 +1,3 @@",
				" one",
				"+one and a half",
				" two",
				"@@ -20,2 +21,1 @@ tail",
				" twenty",
				"-twenty-one",
			),
			want: expect(
				`modified "x.txt" "x.txt"`,
				`@@ -1,2 +1,3 @@ ""`,
				`  context 1 1 "one"`,
				`  added 0 2 "one and a half"`,
				`  context 2 3 "two"`,
				`@@ -20,2 +21,1 @@ "tail"`,
				`  context 20 21 "twenty"`,
				`  removed 21 0 "twenty-one"`,
			),
		},
		{
			name: "git new file",
			input: diff(
				"diff --git a/pkg/new.go b/pkg/new.go",
				"new file mode 100644",
				"index 0000000..3e75765",
				"--- /dev/null",
				"+++ b/pkg/new.go",
				"@@ -0,0 +1,2 @@",
				"+package pkg",
				"+",
			),
			want: expect(
				`added "" "pkg/new.go" mode "" "100644" index 0000000 3e75765`,
				`@@ -0,0 +1,2 @@ ""`,
				`  added 0 1 "package pkg"`,
				`  added 0 2 ""`,
			),
		},
		{
			name: "git new file without a new file mode line",
			input: diff(
				"diff --git a/n.txt b/n.txt",
				"--- /dev/null",
				"+++ b/n.txt",
				"@@ -0,0 +1 @@",
				"+n",
			),
			want: expect(
				`added "" "n.txt"`,
				`@@ -0,0 +1,1 @@ ""`,
				`  added 0 1 "n"`,
			),
		},
		{
			name: "git deleted file",
			input: diff(
				"diff --git a/old.txt b/old.txt",
				"deleted file mode 100755",
				"index abaddc0..0000000",
				"--- a/old.txt",
				"+++ /dev/null",
				"@@ -1,2 +0,0 @@",
				"-first",
				"-second",
			),
			want: expect(
				`deleted "old.txt" "" mode "100755" "" index abaddc0 0000000`,
				`@@ -1,2 +0,0 @@ ""`,
				`  removed 1 0 "first"`,
				`  removed 2 0 "second"`,
			),
		},
		{
			name: "git new empty file and deleted empty file",
			input: diff(
				"diff --git a/empty b/empty",
				"new file mode 100644",
				"index 0000000..e69de29",
				"diff --git a/gone b/gone",
				"deleted file mode 100644",
				"index e69de29..0000000",
			),
			want: expect(
				`added "" "empty" mode "" "100644" index 0000000 e69de29`,
				`deleted "gone" "" mode "100644" "" index e69de29 0000000`,
			),
		},
		{
			name: "git pure rename",
			input: diff(
				"diff --git a/src/a.go b/src/b.go",
				"similarity index 100%",
				"rename from src/a.go",
				"rename to src/b.go",
			),
			want: expect(`renamed "src/a.go" "src/b.go"`),
		},
		{
			name: "git rename with changes",
			input: diff(
				"diff --git a/r.txt b/r2.txt",
				"similarity index 87%",
				"rename from r.txt",
				"rename to r2.txt",
				"index 535d2b0..ef28dff 100644",
				"--- a/r.txt",
				"+++ b/r2.txt",
				"@@ -7,2 +7,2 @@",
				" 7",
				"-8",
				"+9",
			),
			want: expect(
				`renamed "r.txt" "r2.txt" mode "100644" "100644" index 535d2b0 ef28dff`,
				`@@ -7,2 +7,2 @@ ""`,
				`  context 7 7 "7"`,
				`  removed 8 0 "8"`,
				`  added 0 8 "9"`,
			),
		},
		{
			name: "git rename with a mode change",
			input: diff(
				"diff --git a/run.sh b/bin/run.sh",
				"old mode 100644",
				"new mode 100755",
				"similarity index 100%",
				"rename from run.sh",
				"rename to bin/run.sh",
			),
			want: expect(`renamed "run.sh" "bin/run.sh" mode "100644" "100755"`),
		},
		{
			name: "git copies, pure and changed, of one source",
			input: diff(
				"diff --git a/lib.go b/lib_copy.go",
				"similarity index 100%",
				"copy from lib.go",
				"copy to lib_copy.go",
				"diff --git a/lib.go b/lib2.go",
				"similarity index 90%",
				"copy from lib.go",
				"copy to lib2.go",
				"index 1111111..2222222 100644",
				"--- a/lib.go",
				"+++ b/lib2.go",
				"@@ -1 +1 @@",
				"-package lib",
				"+package lib2",
			),
			want: expect(
				`copied "lib.go" "lib_copy.go"`,
				`copied "lib.go" "lib2.go" mode "100644" "100644" index 1111111 2222222`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "package lib"`,
				`  added 0 1 "package lib2"`,
			),
		},
		{
			name: "git mode change only",
			input: diff(
				"diff --git a/mode.sh b/mode.sh",
				"old mode 100644",
				"new mode 100755",
			),
			want: expect(`modified "mode.sh" "mode.sh" mode "100644" "100755"`),
		},
		{
			name: "git mode change with content",
			input: diff(
				"diff --git a/m.sh b/m.sh",
				"old mode 100755",
				"new mode 100644",
				"index 1111111..2222222",
				"--- a/m.sh",
				"+++ b/m.sh",
				"@@ -1 +1,2 @@",
				" #!/bin/sh",
				"+exit 0",
			),
			want: expect(
				`modified "m.sh" "m.sh" mode "100755" "100644" index 1111111 2222222`,
				`@@ -1,1 +1,2 @@ ""`,
				`  context 1 1 "#!/bin/sh"`,
				`  added 0 2 "exit 0"`,
			),
		},
		{
			name: "git new symbolic link",
			input: diff(
				"diff --git a/link b/link",
				"new file mode 120000",
				"index 0000000..1de5659",
				"--- /dev/null",
				"+++ b/link",
				"@@ -0,0 +1 @@",
				"+target",
				`\ No newline at end of file`,
			),
			want: expect(
				`added "" "link" mode "" "120000" index 0000000 1de5659`,
				`@@ -0,0 +1,1 @@ ""`,
				`  added 0 1 "target" noeol`,
			),
		},
		{
			name: "git binary files differ",
			input: diff(
				"diff --git a/img.png b/img.png",
				"index c1b0730..8352675 100644",
				"Binary files a/img.png and b/img.png differ",
				"diff --git a/new.bin b/new.bin",
				"new file mode 100644",
				"index 0000000..8352675",
				"Binary files /dev/null and b/new.bin differ",
				"diff --git a/old.bin b/old.bin",
				"deleted file mode 100644",
				"index 8352675..0000000",
				"Binary files a/old.bin and /dev/null differ",
			),
			want: expect(
				`modified "img.png" "img.png" binary mode "100644" "100644" index c1b0730 8352675`,
				`added "" "new.bin" binary mode "" "100644" index 0000000 8352675`,
				`deleted "old.bin" "" binary mode "100644" "" index 8352675 0000000`,
			),
		},
		{
			name: "git binary patch, literal and reverse delta",
			input: diff(
				"diff --git a/bin.dat b/bin.dat",
				"index c1b0730e0133447badcfd47fd144e254807b06e1..8352675d67aed6625ece79af41c27fdb4ee2e867 100644",
				"GIT binary patch",
				"literal 3",
				"KcmZQzWC8#H2LJ>B",
				"",
				"delta 1",
				"Icmb;b004Oac>n+a",
				"",
				"diff --git a/after.txt b/after.txt",
				"--- a/after.txt",
				"+++ b/after.txt",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: expect(
				`modified "bin.dat" "bin.dat" binary mode "100644" "100644" index c1b0730e0133447badcfd47fd144e254807b06e1 8352675d67aed6625ece79af41c27fdb4ee2e867`,
				`modified "after.txt" "after.txt"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "a"`,
				`  added 0 1 "b"`,
			),
		},
		{
			name: "git binary patch with one block at the end of the input",
			input: diff(
				"diff --git a/z.bin b/z.bin",
				"new file mode 100644",
				"index 0000000000000000000000000000000000000000..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
				"GIT binary patch",
				"literal 0",
				"HcmV?d00001",
			),
			want: expect(
				`added "" "z.bin" binary mode "" "100644" index 0000000000000000000000000000000000000000 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391`,
			),
		},
		{
			name: "no newline at end of file, on each kind of line",
			input: diff(
				"diff --git a/a.txt b/a.txt",
				"--- a/a.txt",
				"+++ b/a.txt",
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				`\ No newline at end of file`,
				"+b",
				"diff --git a/b.txt b/b.txt",
				"--- a/b.txt",
				"+++ b/b.txt",
				"@@ -1,2 +1,2 @@",
				"-x",
				"+y",
				" z",
				`\ No newline at end of file`,
				"diff --git a/c.txt b/c.txt",
				"--- a/c.txt",
				"+++ b/c.txt",
				"@@ -1 +1 @@",
				"-c",
				`\ No newline at end of file`,
				"+c2",
				`\ Kein Zeilenumbruch am Dateiende.`,
			),
			want: expect(
				`modified "a.txt" "a.txt"`,
				`@@ -1,2 +1,2 @@ ""`,
				`  context 1 1 "a"`,
				`  removed 2 0 "b" noeol`,
				`  added 0 2 "b"`,
				`modified "b.txt" "b.txt"`,
				`@@ -1,2 +1,2 @@ ""`,
				`  removed 1 0 "x"`,
				`  added 0 1 "y"`,
				`  context 2 2 "z" noeol`,
				`modified "c.txt" "c.txt"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "c" noeol`,
				`  added 0 1 "c2" noeol`,
			),
		},
		{
			name: "zero-context hunks: pure insertion and pure deletion",
			input: diff(
				"diff --git a/u.txt b/u.txt",
				"--- a/u.txt",
				"+++ b/u.txt",
				"@@ -4,0 +5,2 @@ four",
				"+inserted 1",
				"+inserted 2",
				"@@ -9 +10,0 @@",
				"-nine",
				"@@ -12,0 +14 @@",
				"+after twelve",
			),
			want: expect(
				`modified "u.txt" "u.txt"`,
				`@@ -4,0 +5,2 @@ "four"`,
				`  added 0 5 "inserted 1"`,
				`  added 0 6 "inserted 2"`,
				`@@ -9,1 +10,0 @@ ""`,
				`  removed 9 0 "nine"`,
				`@@ -12,0 +14,1 @@ ""`,
				`  added 0 14 "after twelve"`,
			),
		},
		{
			name: "plain diff with a/ b/ prefixes",
			input: diff(
				"--- a/lib/x.py",
				"+++ b/lib/x.py",
				"@@ -1 +1 @@",
				"-x = 1",
				"+x = 2",
			),
			want: expect(
				`modified "lib/x.py" "lib/x.py"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "x = 1"`,
				`  added 0 1 "x = 2"`,
			),
		},
		{
			name: "plain diff with bare paths and tab timestamps",
			input: diff(
				"--- lib/x.py\t2024-05-01 10:00:00.000000000 +0200",
				"+++ lib/x.py\t2024-05-02 11:30:00.123456789 +0200",
				"@@ -1 +1 @@",
				"-x = 1",
				"+x = 2",
			),
			want: expect(
				`modified "lib/x.py" "lib/x.py"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "x = 1"`,
				`  added 0 1 "x = 2"`,
			),
		},
		{
			name: "plain diff with timestamps after spaces",
			input: diff(
				"--- a/x.c   2002-02-21 23:30:39.942229878 -0800",
				"+++ b/x.c   2002-02-21 23:30:50 -0800",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: expect(
				`modified "x.c" "x.c"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "a"`,
				`  added 0 1 "b"`,
			),
		},
		{
			name: "plain diff only one side with a prefix keeps the names",
			input: diff(
				"--- a/x",
				"+++ a/x",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: expect(
				`modified "a/x" "a/x"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "a"`,
				`  added 0 1 "b"`,
			),
		},
		{
			name: "plain diff adding and deleting through /dev/null",
			input: diff(
				"--- /dev/null\t2026-11-20 13:39:43.491569887 +0000",
				"+++ b/new.txt",
				"@@ -0,0 +1 @@",
				"+hello",
				"--- old.txt",
				"+++ /dev/null",
				"@@ -1 +0,0 @@",
				"-bye",
			),
			want: expect(
				`added "" "new.txt"`,
				`@@ -0,0 +1,1 @@ ""`,
				`  added 0 1 "hello"`,
				`deleted "old.txt" ""`,
				`@@ -1,1 +0,0 @@ ""`,
				`  removed 1 0 "bye"`,
			),
		},
		{
			name: "diff -ruN: a missing side is dated at the epoch",
			input: diff(
				"--- a/n.txt\t1970-01-01 00:00:00.000000000 +0000",
				"+++ b/n.txt\t2026-11-29 22:52:49.564945536 +0000",
				"@@ -0,0 +1,2 @@",
				"+a",
				"+b",
				"--- a/gone.txt\t2026-11-29 22:52:49.564945536 +0100",
				"+++ b/gone.txt\t1970-01-01 01:00:00.000000000 +0100",
				"@@ -1 +0,0 @@",
				"-a",
				"--- a/kept.txt\t1970-01-01 00:00:00.000000000 +0000",
				"+++ b/kept.txt\t2026-11-29 22:52:49.564945536 +0000",
				"@@ -1 +1 @@",
				"-old",
				"+new",
			),
			want: expect(
				`added "" "n.txt"`,
				`@@ -0,0 +1,2 @@ ""`,
				`  added 0 1 "a"`,
				`  added 0 2 "b"`,
				`deleted "gone.txt" ""`,
				`@@ -1,1 +0,0 @@ ""`,
				`  removed 1 0 "a"`,
				`modified "kept.txt" "kept.txt"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "old"`,
				`  added 0 1 "new"`,
			),
		},
		{
			name: "git --no-prefix",
			input: diff(
				"diff --git src/m.txt src/m.txt",
				"index de98044..1c943a9 100644",
				"--- src/m.txt",
				"+++ src/m.txt",
				"@@ -1 +1 @@",
				"-a",
				"+b",
				"diff --git n.txt n.txt",
				"new file mode 100644",
				"index 0000000..3e75765",
				"--- /dev/null",
				"+++ n.txt",
				"@@ -0,0 +1 @@",
				"+new",
				"diff --git bin.dat bin.dat",
				"index c1b0730..8352675 100644",
				"Binary files bin.dat and bin.dat differ",
				"diff --git old.sh new.sh",
				"similarity index 100%",
				"rename from old.sh",
				"rename to new.sh",
			),
			want: expect(
				`modified "src/m.txt" "src/m.txt" mode "100644" "100644" index de98044 1c943a9`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "a"`,
				`  added 0 1 "b"`,
				`added "" "n.txt" mode "" "100644" index 0000000 3e75765`,
				`@@ -0,0 +1,1 @@ ""`,
				`  added 0 1 "new"`,
				`modified "bin.dat" "bin.dat" binary mode "100644" "100644" index c1b0730 8352675`,
				`renamed "old.sh" "new.sh"`,
			),
		},
		{
			name: "git --no-prefix rename between directories named a and b",
			input: diff(
				"diff --git a/x.go b/x.go",
				"similarity index 100%",
				"rename from a/x.go",
				"rename to b/x.go",
			),
			want: expect(`renamed "a/x.go" "b/x.go"`),
		},
		{
			name: "git --no-prefix file in a directory named a",
			input: diff(
				"diff --git a/x a/x",
				"--- a/x",
				"+++ a/x",
				"@@ -1 +1 @@",
				"-1",
				"+2",
			),
			want: expect(
				`modified "a/x" "a/x"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "1"`,
				`  added 0 1 "2"`,
			),
		},
		{
			name: "quoted paths with C escapes",
			input: diff(
				`diff --git "a/t\tab" "b/t\tab"`,
				"new file mode 100644",
				"index 0000000..cce8b84",
				"--- /dev/null",
				`+++ "b/t\tab"`,
				"@@ -0,0 +1 @@",
				"+tab",
				`diff --git "a/caf\303\251 \"q\".txt" "b/caf\303\251 \"q\".txt"`,
				"--- \"a/caf\\303\\251 \\\"q\\\".txt\"\t2024-01-01 00:00:00 +0000",
				`+++ "b/caf\303\251 \"q\".txt"`,
				"@@ -1 +1 @@",
				"-x",
				"+y",
			),
			want: expect(
				`added "" "t\tab" mode "" "100644" index 0000000 cce8b84`,
				`@@ -0,0 +1,1 @@ ""`,
				`  added 0 1 "tab"`,
				`modified "café \"q\".txt" "café \"q\".txt"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "x"`,
				`  added 0 1 "y"`,
			),
		},
		{
			name: "rename from a bare name to a quoted one",
			input: diff(
				`diff --git a/plain.txt "b/new\nline.txt"`,
				"similarity index 100%",
				"rename from plain.txt",
				`rename to "new\nline.txt"`,
			),
			want: expect(`renamed "plain.txt" "new\nline.txt"`),
		},
		{
			name: "unquoted UTF-8 names (core.quotePath off)",
			input: diff(
				"diff --git a/café.txt b/café.txt",
				"--- a/café.txt",
				"+++ b/café.txt",
				"@@ -1 +1 @@",
				"-x",
				"+y",
			),
			want: expect(
				`modified "café.txt" "café.txt"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "x"`,
				`  added 0 1 "y"`,
			),
		},
		{
			name: "names with spaces: modify, and rename told by its rename lines",
			input: diff(
				"diff --git a/sp ace.txt b/sp ace.txt",
				"index f05367e..ae138b0 100644",
				"--- a/sp ace.txt\t",
				"+++ b/sp ace.txt\t",
				"@@ -1 +1 @@",
				"-sp",
				"+sp2",
				"diff --git a/my dir/old name.txt b/my dir/new b/name.txt",
				"similarity index 100%",
				"rename from my dir/old name.txt",
				"rename to my dir/new b/name.txt",
				"diff --git a/x y b/x y",
				"old mode 100644",
				"new mode 100755",
			),
			want: expect(
				`modified "sp ace.txt" "sp ace.txt" mode "100644" "100644" index f05367e ae138b0`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "sp"`,
				`  added 0 1 "sp2"`,
				`renamed "my dir/old name.txt" "my dir/new b/name.txt"`,
				`modified "x y" "x y" mode "100644" "100755"`,
			),
		},
		{
			name: "rename with spaces and changes, split by the ---/+++ lines",
			input: diff(
				"diff --git a/p q b/r s",
				"similarity index 50%",
				"rename from p q",
				"rename to r s",
				"--- a/p q\t",
				"+++ b/r s\t",
				"@@ -1 +1 @@",
				"-1",
				"+2",
			),
			want: expect(
				`renamed "p q" "r s"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "1"`,
				`  added 0 1 "2"`,
			),
		},
		{
			name: "empty line in a hunk is an empty context line",
			input: diff(
				"diff --git a/e.txt b/e.txt",
				"--- a/e.txt",
				"+++ b/e.txt",
				"@@ -1,3 +1,3 @@",
				" a",
				"",
				"-b",
				"+c",
			),
			want: expect(
				`modified "e.txt" "e.txt"`,
				`@@ -1,3 +1,3 @@ ""`,
				`  context 1 1 "a"`,
				`  context 2 2 ""`,
				`  removed 3 0 "b"`,
				`  added 0 3 "c"`,
			),
		},
		{
			name: "CRLF content lines keep their carriage return",
			input: diff(
				"diff --git a/w.txt b/w.txt",
				"--- a/w.txt",
				"+++ b/w.txt",
				"@@ -1,2 +1,2 @@",
				" one\r",
				"-two\r",
				"+deux\r",
			),
			want: expect(
				`modified "w.txt" "w.txt"`,
				`@@ -1,2 +1,2 @@ ""`,
				`  context 1 1 "one\r"`,
				`  removed 2 0 "two\r"`,
				`  added 0 2 "deux\r"`,
			),
		},
		{
			name: "lines that look like headers inside a hunk are content",
			input: diff(
				"diff --git a/h.txt b/h.txt",
				"--- a/h.txt",
				"+++ b/h.txt",
				"@@ -1,2 +1,2 @@",
				"--- a/h.txt",
				"+++ b/h.txt",
				" @@ -1 +1 @@",
			),
			want: expect(
				`modified "h.txt" "h.txt"`,
				`@@ -1,2 +1,2 @@ ""`,
				`  removed 1 0 "-- a/h.txt"`,
				`  added 0 1 "++ b/h.txt"`,
				`  context 2 2 "@@ -1 +1 @@"`,
			),
		},
		{
			name: "git and plain sections mixed; last line without newline",
			input: strings.TrimSuffix(diff(
				"diff --git a/one b/one",
				"--- a/one",
				"+++ b/one",
				"@@ -1 +1 @@",
				"-1",
				"+one",
				"--- a/two",
				"+++ b/two",
				"@@ -1 +1 @@",
				"-2",
				"+two",
			), "\n"),
			want: expect(
				`modified "one" "one"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "1"`,
				`  added 0 1 "one"`,
				`modified "two" "two"`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "2"`,
				`  added 0 1 "two"`,
			),
		},
		{
			name: "dissimilarity index of a rewrite",
			input: diff(
				"diff --git a/rw.txt b/rw.txt",
				"dissimilarity index 100%",
				"index 1111111..2222222 100644",
				"--- a/rw.txt",
				"+++ b/rw.txt",
				"@@ -1 +1 @@",
				"-old",
				"+new",
			),
			want: expect(
				`modified "rw.txt" "rw.txt" mode "100644" "100644" index 1111111 2222222`,
				`@@ -1,1 +1,1 @@ ""`,
				`  removed 1 0 "old"`,
				`  added 0 1 "new"`,
			),
		},
		{
			name: "plain Binary files line, as diff writes it",
			input: diff(
				"Binary files a/logo and b/logo differ",
				"Binary files /dev/null and b/x and y.bin differ",
			),
			want: expect(
				`modified "logo" "logo" binary`,
				`added "" "x and y.bin" binary`,
			),
		},
		{
			name: "binary names holding \" and /dev/null\"",
			input: diff(
				"diff --git a/x and /dev/null b/x and /dev/null",
				"new file mode 100644",
				"Binary files /dev/null and b/x and /dev/null differ",
				"diff --git a/p and q b/p and q",
				"Binary files a/p and q and b/p and q differ",
				"Binary files a/m and n and b/m and n differ",
			),
			want: expect(
				`added "" "x and /dev/null" binary mode "" "100644"`,
				`modified "p and q" "p and q" binary`,
				`modified "m and n" "m and n" binary`,
			),
		},
		{
			name: "a deleted path created again",
			input: diff(
				"diff --git a/f b/f",
				"deleted file mode 100644",
				"--- a/f",
				"+++ /dev/null",
				"@@ -1 +0,0 @@",
				"-old",
				"diff --git a/f b/f",
				"new file mode 120000",
				"--- /dev/null",
				"+++ b/f",
				"@@ -0,0 +1 @@",
				"+target",
			),
			want: expect(
				`deleted "f" "" mode "100644" ""`,
				`@@ -1,1 +0,0 @@ ""`,
				`  removed 1 0 "old"`,
				`added "" "f" mode "" "120000"`,
				`@@ -0,0 +1,1 @@ ""`,
				`  added 0 1 "target"`,
			),
		},
		{
			name: "a rename source modified in a copy",
			input: diff(
				"diff --git a/s b/t",
				"similarity index 100%",
				"rename from s",
				"rename to t",
				"diff --git a/s b/u",
				"similarity index 100%",
				"copy from s",
				"copy to u",
			),
			want: expect(
				`renamed "s" "t"`,
				`copied "s" "u"`,
			),
		},
	}
}

func TestParseAccepts(t *testing.T) {
	for _, c := range acceptCases() {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.input)
			if c.want != "" {
				if got := describe(p); got != c.want {
					t.Errorf("got\n%s\nwant\n%s", got, c.want)
				}
			}
			checkRoundTrip(t, p)
		})
	}
}

func TestKept(t *testing.T) {
	diff := `--- a/f.go
+++ b/f.go
@@ -2,3 +2,4 @@
 two
-three
+THREE
+three and a half
 four
@@ -8,0 +10,2 @@ eight
+new1
+new2
@@ -12,2 +14,0 @@
-twelve
-thirteen
`
	p, err := Parse([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	f := p.Files[0]
	for old, want := range map[int]int{1: 1, 2: 2, 3: 0, 4: 5, 5: 6, 8: 9, 9: 12, 11: 14, 12: 0, 13: 0, 14: 15, 20: 21} {
		got, ok := f.Kept(old)
		if want == 0 {
			if ok {
				t.Errorf("Kept(%d) = %d, want removed", old, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("Kept(%d) = %d, %v, want %d", old, got, ok, want)
		}
	}
}
