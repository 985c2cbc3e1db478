package realworld

import (
	"archive/zip"
	"bytes"
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFixesOnTheirFace(t *testing.T) {
	fixes := Fixes()
	modules := map[string]bool{}
	var names []string
	for _, f := range fixes {
		if err := f.Check(); err != nil {
			t.Error(err)
		}
		modules[f.Module] = true
		names = append(names, f.Name)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		t.Errorf("fix names are not unique: %v", names)
	}
	// What the corpus promises (issue #15 item 12).
	if len(fixes) < 10 || len(modules) < 5 {
		t.Errorf("%d fixes from %d modules, want at least 10 from 5", len(fixes), len(modules))
	}
}

func TestCheckRefusesBadEntries(t *testing.T) {
	good := Fixes()[0]
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(*Fix){
		"upper-case name":  func(f *Fix) { f.Name = "Gjson" },
		"bad module path":  func(f *Fix) { f.Module = "not a module" },
		"same versions":    func(f *Fix) { f.After = f.Before },
		"bad version":      func(f *Fix) { f.After.Version = "1.2" },
		"no h1 sum":        func(f *Fix) { f.Before.Sum = "abc" },
		"unsorted paths":   func(f *Fix) { f.Paths = []string{"b.go", "a.go"} },
		"path with ..":     func(f *Fix) { f.Paths = []string{"../a.go"} },
		"no claims":        func(f *Fix) { f.Claims = nil },
		"python claim":     func(f *Fix) { f.Claims = []string{"pytest:t.py::test_x"} },
		"claim not a Test": func(f *Fix) { f.Claims = []string{"go:.:Example"} },
		"subtest claim":    func(f *Fix) { f.Claims = []string{"go:.:TestX/sub"} },
		"no link":          func(f *Fix) { f.Commit = "" },
	} {
		f := good
		f.Paths = slices.Clone(good.Paths)
		mutate(&f)
		if err := f.Check(); err == nil {
			t.Errorf("%s: Check accepted it", name)
		}
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"a_test.go":            true,
		"pkg/a_test.go":        true,
		"testdata/x.json":      true,
		"pkg/testdata/sub/x":   true,
		"a.go":                 false,
		"testdata.go":          false,
		"pkg/mytestdata/x.txt": false,
		"README.md":            false,
		"a_test.go.orig":       false,
	} {
		if got := IsTest(p); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}

func tree(kv ...string) Tree {
	t := Tree{}
	for i := 0; i < len(kv); i += 2 {
		t[kv[i]] = []byte(kv[i+1])
	}
	return t
}

func TestApply(t *testing.T) {
	before := tree("go.mod", "module m\n", "a.go", "bug", "a_test.go", "old tests", "gone.go", "x", "README", "old", "other.go", "same")
	after := tree("go.mod", "module m\n", "a.go", "fix", "a_test.go", "new tests", "new.go", "helper", "README", "new", "other.go", "changed later",
		"testdata/case.json", "{}")

	t.Run("whole release", func(t *testing.T) {
		fixed, reverted, err := Apply(before, after, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := Changed(before, fixed); !slices.Equal(got, []string{"README", "a.go", "a_test.go", "gone.go", "new.go", "other.go", "testdata/case.json"}) {
			t.Errorf("fixed changes %v", got)
		}
		// The reintroduced bug: before's code, after's tests and test data.
		want := tree("go.mod", "module m\n", "a.go", "bug", "a_test.go", "new tests", "gone.go", "x", "README", "old", "other.go", "same", "testdata/case.json", "{}")
		if got := Changed(want, reverted); len(got) > 0 {
			t.Errorf("reverted differs from before's code with after's tests at %v", got)
		}
	})
	t.Run("paths", func(t *testing.T) {
		fixed, reverted, err := Apply(before, after, []string{"a.go", "a_test.go"})
		if err != nil {
			t.Fatal(err)
		}
		if got := Changed(before, fixed); !slices.Equal(got, []string{"a.go", "a_test.go"}) {
			t.Errorf("fixed changes %v, want only the fix's paths", got)
		}
		if string(fixed["other.go"]) != "same" {
			t.Error("a path outside the fix came from after")
		}
		if got := Changed(fixed, reverted); !slices.Equal(got, []string{"a.go"}) {
			t.Errorf("reverted differs from fixed at %v, want a.go", got)
		}
	})
	t.Run("deleted path", func(t *testing.T) {
		fixed, reverted, err := Apply(before, after, []string{"a.go", "a_test.go", "gone.go"})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fixed["gone.go"]; ok {
			t.Error("a file the fix deletes is still there")
		}
		if string(reverted["gone.go"]) != "x" {
			t.Error("reverting did not restore the deleted file")
		}
	})
	for name, c := range map[string]struct {
		after Tree
		paths []string
	}{
		"changes go.mod":      {tree("go.mod", "module m\n\ngo 1.21\n", "a.go", "fix", "a_test.go", "new"), nil},
		"changes go.sum":      {tree("go.mod", "module m\n", "go.sum", "x", "a.go", "fix", "a_test.go", "new"), []string{"a.go", "a_test.go", "go.sum"}},
		"changes no test":     {after, []string{"a.go"}},
		"changes only tests":  {after, []string{"a_test.go", "testdata/case.json"}},
		"changes nothing":     {before, nil},
		"path in neither":     {after, []string{"a.go", "a_test.go", "missing.go"}},
		"path outside module": {after, []string{"../a.go", "a_test.go"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := Apply(before, c.after, c.paths); err == nil {
				t.Error("Apply accepted it")
			}
		})
	}
}

// zipOf builds a zip with the given names and contents.
func zipOf(t testing.TB, kv ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i < len(kv); i += 2 {
		f, err := w.Create(kv[i])
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(kv[i+1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadZip(t *testing.T) {
	const p = "example.com/m@v1.0.0/"
	good := zipOf(t, p+"go.mod", "module example.com/m\n", p+"a.go", "package m\n", p+"sub/", "", p+"sub/b_test.go", "package sub\n")
	got, err := readZip(bytes.NewReader(good), int64(len(good)), "example.com/m", "v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if want := tree("go.mod", "module example.com/m\n", "a.go", "package m\n", "sub/b_test.go", "package sub\n"); len(Changed(want, got)) > 0 {
		t.Errorf("got %v", got)
	}
	// A version from before modules: the proxy serves its zip without a
	// go.mod (its .mod file is the proxy's own).
	old := zipOf(t, p+"a.go", "package m\n")
	if got, err := readZip(bytes.NewReader(old), int64(len(old)), "example.com/m", "v1.0.0"); err != nil || len(got) != 1 {
		t.Errorf("a zip without go.mod: %v, %v", got, err)
	}
	for name, data := range map[string][]byte{
		"outside the prefix": zipOf(t, p+"go.mod", "m", "example.com/m@v1.0.1/a.go", "x"),
		"dot dot":            zipOf(t, p+"go.mod", "m", p+"../a.go", "x"),
		"inside .git":        zipOf(t, p+"go.mod", "m", p+"x/.git/config", "x"),
		"backslash":          zipOf(t, p+"go.mod", "m", p+`a\b.go`, "x"),
		"newline":            zipOf(t, p+"go.mod", "m", p+"a\nM 100644 :1 b.go", "x"),
		"quote":              zipOf(t, p+"go.mod", "m", p+`"a.go`, "x"),
		"twice":              zipOf(t, p+"go.mod", "m", p+"a.go", "x", p+"a.go", "y"),
		"no file":            zipOf(t, p+"sub/", ""),
		"not a zip":          []byte("PK not really"),
	} {
		if _, err := readZip(bytes.NewReader(data), int64(len(data)), "example.com/m", "v1.0.0"); err == nil {
			t.Errorf("%s: readZip accepted it", name)
		}
	}
}

// FuzzReadZip: whatever the bytes, readZip returns an error or a tree whose
// every path the repository can hold.
func FuzzReadZip(f *testing.F) {
	const p = "example.com/m@v1.0.0/"
	f.Add(zipOf(f, p+"go.mod", "module example.com/m\n", p+"a.go", "package m\n"))
	f.Add(zipOf(f, p+"go.mod", "m", p+"../a.go", "x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := readZip(bytes.NewReader(data), int64(len(data)), "example.com/m", "v1.0.0")
		if err != nil {
			return
		}
		if len(tr) == 0 {
			t.Fatal("a tree without files")
		}
		for p := range tr {
			if err := checkPath(p); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git{dir: dir}.run(context.Background(), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCommitIsDeterministic(t *testing.T) {
	needGit(t)
	f := Fix{Name: "example", Module: "example.com/m", Before: Version{"v1.0.0", "h1:x"}, After: Version{"v1.0.1", "h1:y"}, About: "a fix", Commit: "https://example.invalid/c"}
	before := tree("go.mod", "module example.com/m\n\ngo 1.12\n", "a.go", "package m\n// bug\n", "a_test.go", "package m\n", ".gitignore", "*.go\n", "crlf.txt", "a\r\nb\r\n")
	after := tree("go.mod", "module example.com/m\n\ngo 1.12\n", "a.go", "package m\n// fix\n", "a_test.go", "package m\n// new test\n", ".gitignore", "*.go\n", "crlf.txt", "a\r\nb\r\n")
	fixed, reverted, err := Apply(before, after, nil)
	if err != nil {
		t.Fatal(err)
	}
	var repos []*Repo
	for _, dir := range []string{"one", "two"} {
		r, err := Commit(context.Background(), filepath.Join(t.TempDir(), dir), f, before, fixed, reverted)
		if err != nil {
			t.Fatal(err)
		}
		repos = append(repos, r)
	}
	a, b := repos[0], repos[1]
	if a.Parent != b.Parent || a.Fixed != b.Fixed || a.Reverted != b.Reverted {
		t.Fatalf("commit ids differ between two builds: %+v %+v", a, b)
	}
	if a.GoVersion != "1.12" {
		t.Errorf("GoVersion %q, want 1.12", a.GoVersion)
	}
	// The commits hold the trees byte for byte, ignored and CRLF files too.
	for rev, want := range map[string]Tree{a.Parent: before, a.Fixed: fixed, a.Reverted: reverted} {
		files := strings.Fields(gitOut(t, a.Dir, "ls-tree", "-r", "--name-only", rev))
		if !slices.Equal(files, slices.Sorted(maps.Keys(want))) {
			t.Errorf("%s holds %v", rev, files)
		}
		for p, data := range want {
			cmd := exec.Command("git", "cat-file", "blob", rev+":"+p)
			cmd.Dir = a.Dir
			got, err := cmd.Output()
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%s:%s = %q (%v), want %q", rev, p, got, err, data)
			}
		}
	}
	if got := gitOut(t, a.Dir, "rev-parse", "fix^"); got != a.Parent {
		t.Errorf("the fix's parent is %s, want %s", got, a.Parent)
	}
	if got := gitOut(t, a.Dir, "rev-parse", "reintroduced^"); got != a.Fixed {
		t.Errorf("the reintroduced bug's parent is %s, want the fix %s", got, a.Fixed)
	}
	cases := a.Cases()
	if len(cases) != 2 || cases[0].Kind != Honest || cases[0].Base != a.Parent || cases[0].Patch != a.Fixed ||
		cases[1].Kind != Reintroduced || cases[1].Base != a.Fixed || cases[1].Patch != a.Reverted {
		t.Errorf("cases %+v", cases)
	}
	if _, err := Commit(context.Background(), a.Dir, f, before, fixed, reverted); err == nil {
		t.Error("Commit wrote into a directory that is not empty")
	}
}

// TestBuildFromTheProxy builds one fix of the corpus from the Go module
// proxy and checks it against the upstream fix: the honest diff touches
// exactly the fix's files, the reintroduced bug only its code.
func TestBuildFromTheProxy(t *testing.T) {
	if testing.Short() || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the Go module proxy and the go command, which the Bazel sandbox does not provide")
	}
	needGit(t)
	var f Fix
	for _, x := range Fixes() {
		if x.Name == "mux-cors-subrouter" {
			f = x
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := Build(ctx, t.TempDir(), f, Proxy{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(gitOut(t, r.Dir, "diff", "--name-only", r.Parent, r.Fixed)); !slices.Equal(got, f.Paths) {
		t.Errorf("the fix changes %v, want %v", got, f.Paths)
	}
	if got := strings.Fields(gitOut(t, r.Dir, "diff", "--name-only", r.Fixed, r.Reverted)); !slices.Equal(got, []string{"middleware.go"}) {
		t.Errorf("the reintroduced bug changes %v, want middleware.go", got)
	}
	if got := gitOut(t, r.Dir, "show", r.Fixed+":middleware_test.go"); !strings.Contains(got, "func TestCORSMethodMiddlewareSubrouter(") {
		t.Error("the fix's test is not in the fix")
	}
	// A recorded hash that does not match is refused.
	bad := f
	bad.After.Sum = f.Before.Sum
	if _, _, _, err := Load(ctx, bad, Proxy{}); err == nil {
		t.Error("Load accepted a zip whose hash differs from the corpus's")
	}
}

func TestJudge(t *testing.T) {
	claims := []string{"go:.:TestX"}
	verdict := func(decision string, proven bool, fixed ...string) *Verdict {
		return &Verdict{Schema: "sealgate.artefact.v1", Decision: decision, Reason: "r", FixProven: proven, ClaimsFixed: fixed}
	}
	for _, c := range []struct {
		kind string
		v    *Verdict
		ok   bool
	}{
		{Honest, verdict(Merge, true, "go:.:TestX"), true},
		{Honest, verdict(Inconclusive, true, "go:.:TestX"), true},
		{Honest, verdict(Block, true, "go:.:TestX"), false},
		{Honest, verdict(Merge, false), false},
		{Honest, verdict(Merge, true, "go:.:TestY"), false},
		{Reintroduced, verdict(Block, false), true},
		{Reintroduced, verdict(Inconclusive, false), false},
		{Reintroduced, verdict(Merge, true, "go:.:TestX"), false},
		{"other", verdict(Block, false), false},
	} {
		if err := Judge(c.kind, claims, c.v); (err == nil) != c.ok {
			t.Errorf("%s %s proven=%v fixed=%v: Judge says %v", c.kind, c.v.Decision, c.v.FixProven, c.v.ClaimsFixed, err)
		}
	}
}

func TestParseVerdict(t *testing.T) {
	ok := `{"schema":"sealgate.artefact.v1","decision":"BLOCK","reason":"a","reasons":["a","b"],"timing":{"test_processes":3,"test_processes_ms":40}}`
	v, err := ParseVerdict([]byte(ok + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Timing.TestProcesses != 3 || !slices.Equal(v.AllReasons(), []string{"a", "b"}) {
		t.Errorf("got %+v", v)
	}
	for _, bad := range []string{
		"",
		ok + ok,
		`{"schema":"sealgate.artefact.v2","decision":"BLOCK"}`,
		`{"schema":"sealgate.artefact.v1","decision":"PASS"}`,
		`[]`,
	} {
		if _, err := ParseVerdict([]byte(bad)); err == nil {
			t.Errorf("ParseVerdict accepted %q", bad)
		}
	}
}

// FuzzParseVerdict: whatever the bytes, ParseVerdict returns an error or a
// verdict with the known schema and a known decision, never a panic.
func FuzzParseVerdict(f *testing.F) {
	f.Add([]byte(`{"schema":"sealgate.artefact.v1","decision":"MERGE","reasons":[],"coverage":{"ratio":null}}`))
	f.Add([]byte(`{"schema":"sealgate.artefact.v1","decision":"BLOCK"} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseVerdict(data)
		if err != nil {
			return
		}
		if v.Schema != "sealgate.artefact.v1" || !slices.Contains([]string{Merge, Block, Inconclusive}, v.Decision) {
			t.Fatalf("accepted %+v", v)
		}
		_ = v.AllReasons()
	})
}
