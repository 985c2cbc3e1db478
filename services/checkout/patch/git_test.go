package patch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// These tests parse what the real git and GNU diff write, and check the
// parse against the files themselves: every added line must be that line of
// the patched file, every removed line that line of the baseline.

// repo is a throwaway git repository.
type repo struct {
	t   *testing.T
	dir string
	env []string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need git: %v", err)
	}
	root := t.TempDir()
	r := &repo{t: t, dir: filepath.Join(root, "repo")}
	// Nothing of the machine's git configuration may change the output.
	r.env = append(os.Environ(),
		"HOME="+root, "XDG_CONFIG_HOME="+root, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"LC_ALL=C", "GIT_PAGER=cat")
	r.run(root, "git", "init", "-q", r.dir)
	return r
}

// run runs a command in dir and returns its standard output.
func (r *repo) run(dir string, name string, args ...string) []byte {
	r.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func (r *repo) git(args ...string) []byte {
	r.t.Helper()
	return r.run(r.dir, "git", args...)
}

func (r *repo) write(path, content string) {
	r.t.Helper()
	full := filepath.Join(r.dir, path)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// numbered returns n lines "prefix 1" … "prefix n".
func numbered(prefix string, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%s %d", prefix, i+1)
	}
	return lines
}

func text(lines []string) string { return strings.Join(lines, "\n") + "\n" }

// fileExpectation is what a test knows about one changed file.
type fileExpectation struct {
	op               Op
	oldPath          string
	binary           bool
	oldMode, newMode string
	added, removed   []int // checked when not nil
}

// checkAgainstFiles checks each file of p against expectations (keyed by
// Path) and the text of every added and removed line against the patched
// and baseline contents.
func checkAgainstFiles(t *testing.T, r *repo, base, patched string, p *Patch, want map[string]fileExpectation) {
	t.Helper()
	seen := make(map[string]bool)
	for _, f := range p.Files {
		path := f.Path()
		w, ok := want[path]
		if !ok {
			t.Errorf("unexpected file %q (%s)", path, f.Op)
			continue
		}
		seen[path] = true
		if f.Op != w.op || f.OldPath != w.oldPath || f.Binary != w.binary || f.OldMode != w.oldMode || f.NewMode != w.newMode {
			t.Errorf("%q: got %s from %q binary=%v modes %q %q; want %s from %q binary=%v modes %q %q",
				path, f.Op, f.OldPath, f.Binary, f.OldMode, f.NewMode, w.op, w.oldPath, w.binary, w.oldMode, w.newMode)
		}
		if w.added != nil && !slices.Equal(f.AddedLines(), w.added) {
			t.Errorf("%q: added lines %v, want %v", path, f.AddedLines(), w.added)
		}
		if w.removed != nil && !slices.Equal(f.RemovedLines(), w.removed) {
			t.Errorf("%q: removed lines %v, want %v", path, f.RemovedLines(), w.removed)
		}
		if f.Binary || len(f.Hunks) == 0 {
			continue
		}
		var oldLines, newLines []string
		if f.Op != OpAdded {
			oldLines = strings.SplitAfter(string(r.git("show", base+":"+f.OldPath)), "\n")
		}
		if f.Op != OpDeleted {
			newLines = strings.SplitAfter(string(r.git("show", patched+":"+f.NewPath)), "\n")
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				// The file's line, with its newline exactly when the diff
				// says it has one.
				want := l.Text + "\n"
				if l.NoNewlineAtEOF {
					want = l.Text
				}
				if l.Kind != LineAdded && (l.OldLine > len(oldLines) || oldLines[l.OldLine-1] != want) {
					t.Errorf("%q: old line %d is not %q", path, l.OldLine, want)
				}
				if l.Kind != LineRemoved && (l.NewLine > len(newLines) || newLines[l.NewLine-1] != want) {
					t.Errorf("%q: new line %d is not %q", path, l.NewLine, want)
				}
			}
		}
	}
	for path := range want {
		if !seen[path] {
			t.Errorf("file %q missing from the patch", path)
		}
	}
}

// TestGitDiffText parses `git diff` of a change with every text form
// (rename with changes, copy, deletion, new files, empty file, symbolic
// link, mode change, no trailing newline, spaces, tabs and UTF-8 in names)
// in several output variants, then applies String() with git apply and
// checks it makes the same tree.
func TestGitDiffText(t *testing.T) {
	r := newRepo(t)
	mainLines := numbered("main", 30)
	source := numbered("source", 40)
	r.write("main.go", text(mainLines))
	r.write("moved.txt", text(numbered("moved", 20)))
	r.write("gone.txt", text(numbered("gone", 3)))
	r.write("script.sh", "#!/bin/sh\necho hi\n")
	r.write("noeol.txt", "a\nb\nc\n")
	r.write("keep-eol.txt", "x\ny")
	r.write("dir with space/old name.txt", text(numbered("spaced", 10)))
	r.write("tab\tname.txt", "t\n")
	r.write("café.txt", "c\n")
	r.write("source.go", text(source))
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "baseline")
	base := strings.TrimSpace(string(r.git("rev-parse", "HEAD")))

	changed := slices.Clone(mainLines)
	changed[2] = "main 3 changed"
	changed = slices.Insert(changed, 20, "inserted 1", "inserted 2")
	changed = slices.Delete(changed, 29, 30) // old line 28
	r.write("main.go", text(changed))
	r.git("mv", "moved.txt", "renamed.txt")
	moved := numbered("moved", 20)
	moved[9] = "moved 10 changed"
	r.write("renamed.txt", text(moved))
	r.git("rm", "-q", "gone.txt")
	if err := os.Chmod(filepath.Join(r.dir, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("noeol.txt", "a\nb\nC")
	r.write("keep-eol.txt", "x\ny\nz\n")
	r.git("mv", "dir with space/old name.txt", "dir with space/new name.txt")
	spaced := numbered("spaced", 10)
	spaced[0] = "spaced 1 changed"
	r.write("dir with space/new name.txt", text(spaced))
	r.write("tab\tname.txt", "t2\n")
	r.write("café.txt", "c2\n")
	copied := slices.Clone(source)
	copied[4] = "copy 5 changed"
	r.write("copy.go", text(copied))
	r.write("added.txt", "new 1\nnew 2\n")
	r.write("empty.txt", "")
	if err := os.Symlink("main.go", filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "patched")
	patched := strings.TrimSpace(string(r.git("rev-parse", "HEAD")))

	want := map[string]fileExpectation{
		"main.go":                     {op: OpModified, oldPath: "main.go", oldMode: "100644", newMode: "100644", added: []int{3, 21, 22}, removed: []int{3, 28}},
		"renamed.txt":                 {op: OpRenamed, oldPath: "moved.txt", oldMode: "100644", newMode: "100644", added: []int{10}, removed: []int{10}},
		"gone.txt":                    {op: OpDeleted, oldPath: "gone.txt", oldMode: "100644", removed: []int{1, 2, 3}, added: []int{}},
		"script.sh":                   {op: OpModified, oldPath: "script.sh", oldMode: "100644", newMode: "100755"},
		"noeol.txt":                   {op: OpModified, oldPath: "noeol.txt", oldMode: "100644", newMode: "100644", added: []int{3}, removed: []int{3}},
		"keep-eol.txt":                {op: OpModified, oldPath: "keep-eol.txt", oldMode: "100644", newMode: "100644", added: []int{2, 3}, removed: []int{2}},
		"dir with space/new name.txt": {op: OpRenamed, oldPath: "dir with space/old name.txt", oldMode: "100644", newMode: "100644", added: []int{1}, removed: []int{1}},
		"tab\tname.txt":               {op: OpModified, oldPath: "tab\tname.txt", oldMode: "100644", newMode: "100644", added: []int{1}, removed: []int{1}},
		"café.txt":                    {op: OpModified, oldPath: "café.txt", oldMode: "100644", newMode: "100644", added: []int{1}, removed: []int{1}},
		"copy.go":                     {op: OpCopied, oldPath: "source.go", oldMode: "100644", newMode: "100644", added: []int{5}, removed: []int{5}},
		"added.txt":                   {op: OpAdded, newMode: "100644", added: []int{1, 2}, removed: []int{}},
		"empty.txt":                   {op: OpAdded, newMode: "100644", added: []int{}, removed: []int{}},
		"link":                        {op: OpAdded, newMode: "120000", added: []int{1}, removed: []int{}},
	}
	// Nil slices compare equal to what AddedLines returns for no lines.
	for path, w := range want {
		if len(w.added) == 0 {
			w.added = nil
		}
		if len(w.removed) == 0 {
			w.removed = nil
		}
		want[path] = w
	}

	diffArgs := []string{"diff", "-M", "-C", "--find-copies-harder", base, patched}
	variants := []struct {
		name string
		args []string
	}{
		{"default", diffArgs},
		{"no-prefix", append([]string{"diff", "--no-prefix"}, diffArgs[1:]...)},
		{"zero context", append([]string{"diff", "-U0"}, diffArgs[1:]...)},
		{"full index", append([]string{"diff", "--full-index"}, diffArgs[1:]...)},
		{"quotePath off", append([]string{"-c", "core.quotePath=false"}, diffArgs...)},
		{"10 lines of context", append([]string{"diff", "-U10"}, diffArgs[1:]...)},
	}
	parsed := make(map[string]*Patch)
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			out := r.git(v.args...)
			p, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse: %v\n%s", err, out)
			}
			checkAgainstFiles(t, r, base, patched, p, want)
			checkRoundTrip(t, p)
			parsed[v.name] = p
		})
	}
	// Prefixes and quoting change the text, never the parse.
	for _, name := range []string{"no-prefix", "quotePath off"} {
		if !reflect.DeepEqual(parsed["default"], parsed[name]) {
			t.Errorf("%s parses differently from the default diff:\n%s\nvs\n%s", name, describe(parsed[name]), describe(parsed["default"]))
		}
	}

	// String() is a patch git applies, to the very same tree.
	for _, name := range []string{"default", "zero context", "full index"} {
		p := parsed[name]
		if p == nil {
			continue
		}
		t.Run("git apply String() of "+name, func(t *testing.T) {
			r.git("checkout", "-q", "--detach", base)
			patchFile := filepath.Join(t.TempDir(), "rendered.diff")
			if err := os.WriteFile(patchFile, []byte(p.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"apply", "--index"}
			if name == "zero context" {
				args = append(args, "--unidiff-zero")
			}
			r.git(append(args, patchFile)...)
			got := strings.TrimSpace(string(r.git("write-tree")))
			wantTree := strings.TrimSpace(string(r.git("rev-parse", patched+"^{tree}")))
			if got != wantTree {
				t.Errorf("applying String() gives tree %s, the patched commit has %s\n%s", got, wantTree, r.git("diff", "--cached", "--stat", patched))
			}
			r.git("reset", "-q", "--hard")
		})
	}
}

// TestGitDiffBinary parses binary changes in both of git's forms.
func TestGitDiffBinary(t *testing.T) {
	r := newRepo(t)
	r.write("img.bin", "\x00\x01\x02\x03")
	r.write("old.bin", "\x00old")
	r.write("before.txt", "one\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "baseline")
	base := strings.TrimSpace(string(r.git("rev-parse", "HEAD")))
	r.write("img.bin", "\x00\x01\x02\x04\x05")
	r.git("rm", "-q", "old.bin")
	r.write("new.bin", "\x00new")
	r.write("before.txt", "two\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "patched")
	patched := strings.TrimSpace(string(r.git("rev-parse", "HEAD")))

	want := map[string]fileExpectation{
		"img.bin":    {op: OpModified, oldPath: "img.bin", binary: true, oldMode: "100644", newMode: "100644"},
		"old.bin":    {op: OpDeleted, oldPath: "old.bin", binary: true, oldMode: "100644"},
		"new.bin":    {op: OpAdded, binary: true, newMode: "100644"},
		"before.txt": {op: OpModified, oldPath: "before.txt", oldMode: "100644", newMode: "100644", added: []int{1}, removed: []int{1}},
	}
	for _, args := range [][]string{
		{"diff", base, patched},
		{"diff", "--binary", base, patched},
		{"diff", "--no-prefix", "--binary", base, patched},
	} {
		t.Run(strings.Join(args[:len(args)-2], " "), func(t *testing.T) {
			out := r.git(args...)
			p, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse: %v\n%s", err, out)
			}
			checkAgainstFiles(t, r, base, patched, p, want)
			for _, f := range p.Files {
				if f.Binary && (len(f.Hunks) != 0 || f.AddedLines() != nil) {
					t.Errorf("%q: a binary file has lines", f.Path())
				}
			}
			checkRoundTrip(t, p)
		})
	}
}

// TestGNUDiff parses `diff -u` and `diff -uN` output (a/ and b/ trees, tab
// and timestamp after each name, the epoch for a missing file).
func TestGNUDiff(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skipf("GNU diff is not installed: %v", err)
	}
	r := newRepo(t)
	root := filepath.Dir(r.dir)
	for path, content := range map[string]string{
		"a/lib/x.py": "a\nb\nc\n", "b/lib/x.py": "a\nB\nc\nd",
		"b/new.py": "n\n", "a/old.py": "o\n",
	} {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out []byte
	for _, pair := range [][2]string{{"a/lib/x.py", "b/lib/x.py"}, {"a/new.py", "b/new.py"}, {"a/old.py", "b/old.py"}} {
		cmd := exec.Command("diff", "-uN", pair[0], pair[1])
		cmd.Dir = root
		o, err := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Fatalf("diff -uN %s %s: exit %d (%v)", pair[0], pair[1], code, err)
		}
		out = append(out, o...)
	}
	p, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, out)
	}
	got := describe(p)
	want := expect(
		`modified "lib/x.py" "lib/x.py"`,
		`@@ -1,3 +1,4 @@ ""`,
		`  context 1 1 "a"`,
		`  removed 2 0 "b"`,
		`  added 0 2 "B"`,
		`  context 3 3 "c"`,
		`  added 0 4 "d" noeol`,
		`added "" "new.py"`,
		`@@ -0,0 +1,1 @@ ""`,
		`  added 0 1 "n"`,
		`deleted "old.py" ""`,
		`@@ -1,1 +0,0 @@ ""`,
		`  removed 1 0 "o"`,
	)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s\nfrom\n%s", got, want, out)
	}
	checkRoundTrip(t, p)
}
