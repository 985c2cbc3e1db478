package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// needTools skips a test that runs the git and go commands: Bazel's sandbox
// has neither.
func needTools(t *testing.T) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the git and go commands; run with go test")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
}

// builder is Build or BuildPython.
type builder func(ctx context.Context, dir string) (*Repo, error)

func buildRepo(t *testing.T) *Repo {
	t.Helper()
	return buildWith(t, Build)
}

func buildWith(t *testing.T, build builder) *Repo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	repo, err := build(ctx, filepath.Join(t.TempDir(), "demo"))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func (r *Repo) patch(t *testing.T, name string) Patch {
	t.Helper()
	for _, p := range r.Patches {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no patch %q", name)
	return Patch{}
}

// gitIn runs git in dir with Build's fixed environment.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	out, err := (&git{path: path, dir: dir}).run(context.Background(), time.Time{}, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestArchives checks the embedded history without running anything: every
// archive parses and is used exactly once, and the patch tables are well
// formed.
func TestArchives(t *testing.T) {
	tests := []struct {
		name    string
		p       project
		claim   *regexp.Regexp
		expects []string
		order   []string
	}{
		{
			"go", goProject(),
			regexp.MustCompile(`^go:\./[a-z/]+:Test[A-Za-z0-9_]*$`),
			[]string{Merge, Block},
			[]string{"honest-fix", "breaks-a-test", "hides-the-bug"},
		},
		{
			"python", pythonProject(),
			regexp.MustCompile(`^pytest:tests/test_[a-z_]+\.py::test_[a-z_]+(\[[a-z-]+\])?$`),
			[]string{Merge, Block, Inconclusive},
			[]string{"honest-fix", "breaks-a-test", "hides-the-bug", "rewrites-results"},
		},
	}
	used := map[string]int{}
	for _, tt := range tests {
		for _, name := range tt.p.mainline {
			used[tt.p.archive(name)]++
		}
		names := map[string]bool{}
		var order []string
		for _, spec := range tt.p.patches {
			used[tt.p.patchArchive(spec)]++
			order = append(order, spec.name)
			if names[spec.name] {
				t.Errorf("%s: patch %q listed twice", tt.name, spec.name)
			}
			names[spec.name] = true
			if !slices.Contains(tt.expects, spec.expect) {
				t.Errorf("%s: patch %q expects %q", tt.name, spec.name, spec.expect)
			}
			if len(spec.claims) == 0 || spec.about == "" || strings.Contains(spec.about, "\n") {
				t.Errorf("%s: patch %q: claims %q, about %q", tt.name, spec.name, spec.claims, spec.about)
			}
			for _, c := range spec.claims {
				if !tt.claim.MatchString(c) {
					t.Errorf("%s: patch %q: bad claim %q", tt.name, spec.name, c)
				}
			}
		}
		if !slices.Equal(order, tt.order) {
			t.Errorf("%s: patches %v, want %v", tt.name, order, tt.order)
		}
	}
	err := fs.WalkDir(history, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if used[name] != 1 {
			t.Errorf("archive %s is used %d times, want once", name, used[name])
		}
		delete(used, name)
		if _, err := readArchive(history, name); err != nil {
			t.Error(err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range used {
		t.Errorf("archive %s is listed but not embedded", name)
	}
}

func TestBuildRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), dir); err == nil {
		t.Fatal("Build into a non-empty directory succeeded")
	}
	file := filepath.Join(dir, "x")
	if _, err := Build(context.Background(), file); err == nil {
		t.Fatal("Build into a file succeeded")
	}
}

// TestBuildIsDeterministic builds the Go demo twice, the second time with a
// caller environment that would change commit ids if it leaked into git.
func TestBuildIsDeterministic(t *testing.T) {
	needTools(t)
	// The ids on every machine. Changing the history archives changes them:
	// update these after checking the other tests still pass.
	checkDeterministic(t, Build, map[string]string{
		"base":          "6a7e9ed6f386cc688605593ff746a07dac2d7837",
		"honest-fix":    "c1c57e37f58aec1d6317356be012a6435542a3f3",
		"breaks-a-test": "db25f8fa57dac7a553254585b7a25041772d3eb7",
		"hides-the-bug": "5e9ce91438ab12dd209338efadae938caa139fc8",
	})
}

// TestBuildPythonIsDeterministic is TestBuildIsDeterministic for the Python
// demo.
func TestBuildPythonIsDeterministic(t *testing.T) {
	needTools(t)
	// The ids on every machine. Changing the python archives changes them:
	// update these after checking the other tests still pass.
	checkDeterministic(t, BuildPython, map[string]string{
		"base":             "62b75574efc1e42adb3d4f390766c8fdbf441ebf",
		"honest-fix":       "77d0a01cddcee3ef3028d453b7c6cd8d8aa73c62",
		"breaks-a-test":    "a752b64f9537f8309c202c6592ab9bd28c8b7f08",
		"hides-the-bug":    "785a57dbc830a0137961a5dc557ad4c98200c652",
		"rewrites-results": "4df4072c065a5beb0b9f92d2400d1b2695ca4427",
	})
}

// checkDeterministic builds a demo twice, the second time with a caller
// environment that would change commit ids if it leaked into git, and
// checks the ids of both builds against want: the baseline's as "base",
// each patch's by its name.
func checkDeterministic(t *testing.T, build builder, want map[string]string) {
	t.Helper()
	first := buildWith(t, build)

	home := t.TempDir()
	config := filepath.Join(home, ".gitconfig")
	hostile := "[user]\n\tname = Someone Else\n\temail = else@example.com\n" +
		"[init]\n\tdefaultBranch = trunk\n[commit]\n\tgpgsign = true\n[core]\n\tautocrlf = true\n"
	if err := os.WriteFile(config, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", config)
	t.Setenv("GIT_AUTHOR_NAME", "Someone Else")
	t.Setenv("GIT_COMMITTER_EMAIL", "else@example.com")
	t.Setenv("GIT_AUTHOR_DATE", "2001-02-03T04:05:06+07:00")
	t.Setenv("TZ", "Asia/Kolkata")
	second := buildWith(t, build)

	if first.Base != second.Base {
		t.Errorf("base %s, then %s", first.Base, second.Base)
	}
	if first.Base != want["base"] {
		t.Errorf("base is %s, want %s", first.Base, want["base"])
	}
	if len(first.Patches)+1 != len(want) {
		t.Errorf("%d patches, want ids for %d", len(first.Patches), len(want)-1)
	}
	for _, p := range first.Patches {
		if p.Commit != want[p.Name] {
			t.Errorf("patch %s is %s, want %s", p.Name, p.Commit, want[p.Name])
		}
	}
	if len(first.Patches) != len(second.Patches) {
		t.Fatalf("%d patches, then %d", len(first.Patches), len(second.Patches))
	}
	for i, p := range first.Patches {
		q := second.Patches[i]
		if p.Name != q.Name || p.Commit != q.Commit {
			t.Errorf("patch %d: %s %s, then %s %s", i, p.Name, p.Commit, q.Name, q.Commit)
		}
	}
}

// TestBuildShape checks the Go demo's branches and history.
func TestBuildShape(t *testing.T) {
	needTools(t)
	checkShape(t, buildRepo(t), goProject())
}

// TestBuildPythonShape checks the Python demo's branches and history.
func TestBuildPythonShape(t *testing.T) {
	needTools(t)
	checkShape(t, buildWith(t, BuildPython), pythonProject())
}

// checkShape checks that repo, built from p, has main at the baseline with
// a clean working tree and one branch per patch off the baseline.
func checkShape(t *testing.T, repo *Repo, p project) {
	t.Helper()
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(repo.Base) {
		t.Fatalf("base %q is not a full commit id", repo.Base)
	}
	if got := gitIn(t, repo.Dir, "rev-parse", "HEAD", "main"); got != repo.Base+"\n"+repo.Base {
		t.Errorf("HEAD and main are %q, want the base %s", got, repo.Base)
	}
	if got := gitIn(t, repo.Dir, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Errorf("HEAD is %s, want refs/heads/main", got)
	}
	if got := gitIn(t, repo.Dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Errorf("working tree is not clean:\n%s", got)
	}
	if got := gitIn(t, repo.Dir, "rev-list", "--count", repo.Base); got != strconv.Itoa(len(p.mainline)) {
		t.Errorf("base has %s commits, want %d", got, len(p.mainline))
	}
	var names, want []string
	for _, spec := range p.patches {
		want = append(want, spec.name)
	}
	for _, patch := range repo.Patches {
		names = append(names, patch.Name)
		if got := gitIn(t, repo.Dir, "rev-parse", patch.Name); got != patch.Commit {
			t.Errorf("branch %s is at %s, want %s", patch.Name, got, patch.Commit)
		}
		if got := gitIn(t, repo.Dir, "rev-parse", patch.Commit+"^@"); got != repo.Base {
			t.Errorf("patch %s has parents %q, want the base %s", patch.Name, got, repo.Base)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("patches %v, want %v", names, want)
	}
}

// TestBehaviour runs the demo module's tests on every commit, on the
// commit's own tree and with the baseline's test files put back (the oracle
// sealgate uses), and checks the story each commit tells.
func TestBehaviour(t *testing.T) {
	needTools(t)
	repo := buildRepo(t)
	all := []string{"TestClamp", "TestMean", "TestMedian", "TestRange", "TestSum"}
	tests := []struct {
		name       string
		commit     string
		ownFails   []string // failing tests on the commit's own tree
		oracleFail []string // failing tests with the baseline's test files
	}{
		{"base", repo.Base, []string{"TestMedian"}, []string{"TestMedian"}},
		{"honest-fix", repo.patch(t, "honest-fix").Commit, nil, nil},
		{"breaks-a-test", repo.patch(t, "breaks-a-test").Commit, []string{"TestClamp"}, []string{"TestClamp"}},
		{"hides-the-bug", repo.patch(t, "hides-the-bug").Commit, nil, []string{"TestMedian"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := checkout(t, repo, tt.commit)
			own := goTest(t, dir, "./...")
			own.check(t, "own tree", all, tt.ownFails)

			changed := gitIn(t, repo.Dir, "diff", "--name-only", repo.Base, tt.commit)
			if !strings.Contains(changed, "_test.go") {
				if !slices.Equal(tt.ownFails, tt.oracleFail) {
					t.Fatalf("no test file changed, yet the oracle should fail %v", tt.oracleFail)
				}
				return
			}
			putBackBaselineTests(t, repo, dir)
			oracle := goTest(t, dir, "./...")
			oracle.check(t, "baseline test files", all, tt.oracleFail)
		})
	}
}

// TestHonestFixIsMutationReady checks what later mutation testing needs of
// the honest fix: at least five operator sites on at least two changed
// lines, every changed statement covered by the claim, and every operator
// mutant killed by it.
func TestHonestFixIsMutationReady(t *testing.T) {
	needTools(t)
	repo := buildRepo(t)
	fix := repo.patch(t, "honest-fix")
	const file = "calc/median.go"
	changed := changedLines(t, gitIn(t, repo.Dir, "diff", "--unified=0", repo.Base, fix.Commit, "--", file))

	dir := checkout(t, repo, fix.Commit)
	name := filepath.Join(dir, filepath.FromSlash(file))
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var sites []*ast.BinaryExpr
	siteLines := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && changed[fset.Position(b.OpPos).Line] && mutant(b.Op) != token.ILLEGAL {
			sites = append(sites, b)
			siteLines[fset.Position(b.OpPos).Line] = true
		}
		return true
	})
	if len(sites) < 5 || len(siteLines) < 2 {
		t.Fatalf("%d mutable sites on %d changed lines, want at least 5 on 2", len(sites), len(siteLines))
	}

	// Coverage: every changed line that holds a statement is executed by
	// the claim.
	profile := filepath.Join(t.TempDir(), "cover.out")
	run := goTest(t, dir, "-run", "^TestMedian$", "-coverprofile", profile, "./calc")
	run.check(t, "claim with coverage", []string{"TestMedian"}, nil)
	covered, statements := coverage(t, profile, file)
	for line := range changed {
		if statements[line] && !covered[line] {
			t.Errorf("%s:%d changed but not covered by TestMedian", file, line)
		}
	}

	original, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range sites {
		op := b.Op
		b.Op = mutant(op)
		var buf bytes.Buffer
		if err := format.Node(&buf, fset, f); err != nil {
			t.Fatal(err)
		}
		b.Op = op
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		m := goTest(t, dir, "-run", "^TestMedian$", "./calc")
		if !slices.Contains(m.failed, "TestMedian") {
			t.Errorf("mutant %s -> %s at line %d survived or was stillborn:\n%s", op, mutant(op), fset.Position(b.OpPos).Line, m.output)
		} else {
			t.Logf("mutant %s -> %s at line %d killed", op, mutant(op), fset.Position(b.OpPos).Line)
		}
	}
	if err := os.WriteFile(name, original, 0o644); err != nil {
		t.Fatal(err)
	}
}

// mutant returns the operator a mutation replaces op with, or ILLEGAL for
// operators left alone.
func mutant(op token.Token) token.Token {
	switch op {
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	case token.LSS:
		return token.GEQ
	case token.GEQ:
		return token.LSS
	case token.GTR:
		return token.LEQ
	case token.LEQ:
		return token.GTR
	case token.ADD:
		return token.SUB
	case token.SUB:
		return token.ADD
	case token.MUL:
		return token.QUO
	case token.QUO:
		return token.MUL
	case token.REM:
		return token.MUL
	}
	return token.ILLEGAL
}

// changedLines returns the new-side line numbers of a unified diff with no
// context.
func changedLines(t *testing.T, diff string) map[int]bool {
	t.Helper()
	hunk := regexp.MustCompile(`(?m)^@@ -\S+ \+(\d+)(?:,(\d+))? @@`)
	lines := map[int]bool{}
	for _, m := range hunk.FindAllStringSubmatch(diff, -1) {
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		for i := range n {
			lines[start+i] = true
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no changed lines in diff:\n%s", diff)
	}
	return lines
}

// coverage reads a Go cover profile and returns, for one file, the lines
// executed and the lines that hold a statement.
func coverage(t *testing.T, profile, file string) (covered, statements map[int]bool) {
	t.Helper()
	data, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`^(\S+):(\d+)\.\d+,(\d+)\.\d+ (\d+) (\d+)$`)
	covered, statements = map[int]bool{}, map[int]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		m := block.FindStringSubmatch(l)
		if m == nil || !strings.HasSuffix(m[1], "/"+file) {
			continue
		}
		from, _ := strconv.Atoi(m[2])
		to, _ := strconv.Atoi(m[3])
		count, _ := strconv.Atoi(m[5])
		for line := from; line <= to; line++ {
			statements[line] = true
			if count > 0 {
				covered[line] = true
			}
		}
	}
	if len(statements) == 0 {
		t.Fatalf("no blocks for %s in the cover profile:\n%s", file, data)
	}
	return covered, statements
}

// checkout materializes commit of repo in a fresh directory.
func checkout(t *testing.T, repo *Repo, commit string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tree")
	gitIn(t, repo.Dir, "clone", "--quiet", "--shared", "--no-checkout", repo.Dir, dir)
	gitIn(t, dir, "checkout", "--quiet", "--detach", commit)
	return dir
}

// putBackBaselineTests checks out the baseline's test files over dir, a
// checkout of repo.
func putBackBaselineTests(t *testing.T, repo *Repo, dir string) {
	t.Helper()
	var tests []string
	for _, name := range strings.Fields(gitIn(t, dir, "ls-tree", "-r", "--name-only", repo.Base)) {
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, name)
		}
	}
	gitIn(t, dir, append([]string{"checkout", "--quiet", repo.Base, "--"}, tests...)...)
}

// testRun is what one `go test -json` reported.
type testRun struct {
	passed, failed []string // top-level tests, sorted
	exitCode       int
	output         string
}

// check fails t unless every test in all ran, exactly wantFailed failed, and
// the exit code agrees.
func (r testRun) check(t *testing.T, what string, all, wantFailed []string) {
	t.Helper()
	ran := append(slices.Clone(r.passed), r.failed...)
	ok := true
	for _, name := range all {
		if !slices.Contains(ran, name) {
			t.Errorf("%s: %s did not run", what, name)
			ok = false
		}
	}
	if !slices.Equal(r.failed, wantFailed) || (r.exitCode == 0) != (len(wantFailed) == 0) {
		t.Errorf("%s: failed %v with exit code %d, want failed %v", what, r.failed, r.exitCode, wantFailed)
		ok = false
	}
	if !ok {
		t.Logf("test output:\n%s", r.output)
	}
}

// goTest runs `go test -json -count=1 args...` in dir.
func goTest(t *testing.T, dir string, args ...string) testRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-json", "-count=1"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off", "GOPROXY=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	var run testRun
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		run.exitCode = exit.ExitCode()
	case err != nil:
		t.Fatalf("go test: %v\n%s", err, stderr.String())
	}
	var out strings.Builder
	out.WriteString(stderr.String())
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("go test -json: %v: %q", err, sc.Text())
		}
		out.WriteString(ev.Output)
		if ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		switch ev.Action {
		case "pass":
			run.passed = append(run.passed, ev.Test)
		case "fail":
			run.failed = append(run.failed, ev.Test)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(run.passed)
	slices.Sort(run.failed)
	run.output = out.String()
	return run
}

func TestCommitVariant(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs git")
	}
	ctx := context.Background()
	r, err := Build(ctx, filepath.Join(t.TempDir(), "repo"))
	if err != nil {
		t.Fatal(err)
	}
	id, err := r.Commit(ctx, r.Base, "variant", "add a file, drop one", map[string]string{"calc/extra.go": "package calc\n"}, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.Show(ctx, id, "calc/extra.go"); err != nil || got != "package calc\n" {
		t.Fatalf("Show = %q, %v", got, err)
	}
	if _, err := r.Show(ctx, id, "README.md"); err == nil {
		t.Fatal("README.md was not removed")
	}
	if _, err := r.Show(ctx, r.Base, "README.md"); err != nil {
		t.Fatalf("the baseline changed: %v", err)
	}
	if _, err := r.Commit(ctx, r.Base, "bad", "escape", map[string]string{"../x": ""}); err == nil {
		t.Fatal("a path outside the repository was written")
	}
}

// TestBuildPythonTrees checks the files of the Python demo's baseline and
// what each patch changes.
func TestBuildPythonTrees(t *testing.T) {
	needTools(t)
	repo := buildWith(t, BuildPython)
	// No conftest.py and no pytest configuration on the baseline: a patch
	// adding one changes the harness.
	want := []string{".gitignore", "README.md", "pystats/__init__.py", "pystats/stats.py", "tests/test_stats.py"}
	if got := strings.Fields(gitIn(t, repo.Dir, "ls-tree", "-r", "--name-only", repo.Base)); !slices.Equal(got, want) {
		t.Errorf("baseline files %q, want %q", got, want)
	}
	changes := map[string]string{
		"honest-fix":       "M pystats/stats.py A tests/test_fix.py",
		"breaks-a-test":    "M pystats/stats.py",
		"hides-the-bug":    "M pystats/stats.py M tests/test_stats.py",
		"rewrites-results": "A conftest.py",
	}
	for _, p := range repo.Patches {
		got := strings.Join(strings.Fields(gitIn(t, repo.Dir, "diff", "--name-status", "--no-renames", repo.Base, p.Commit)), " ")
		if got != changes[p.Name] {
			t.Errorf("patch %s changes %q, want %q", p.Name, got, changes[p.Name])
		}
	}
}

// TestPythonBehaviour runs pytest on every commit of the Python demo, on
// the commit's own tree, with the baseline's test files put back (the
// oracle sealgate uses), and for a patch that adds a conftest.py, with it
// removed as well; and checks the story each commit tells.
func TestPythonBehaviour(t *testing.T) {
	needTools(t)
	python := pythonWithPytest(t)
	repo := buildWith(t, BuildPython)
	const even = "tests/test_stats.py::test_percentile[even]"
	all := []string{
		"tests/test_stats.py::test_clamp",
		"tests/test_stats.py::test_mean",
		even,
		"tests/test_stats.py::test_percentile[max]",
		"tests/test_stats.py::test_percentile[min]",
		"tests/test_stats.py::test_percentile[odd]",
		"tests/test_stats.py::test_percentile[quartile]",
		"tests/test_stats.py::test_percentile[single]",
		"tests/test_stats.py::test_spread",
		"tests/test_stats.py::test_total",
	}
	tests := []struct {
		name       string
		ownFails   []string // failing tests on the commit's own tree
		oracleFail []string // failing tests with the baseline's test files
		bareFail   []string // and with the patch's conftest.py removed
	}{
		{"base", []string{even}, []string{even}, nil},
		{"honest-fix", nil, nil, nil},
		{"breaks-a-test", []string{"tests/test_stats.py::test_clamp"}, []string{"tests/test_stats.py::test_clamp"}, nil},
		{"hides-the-bug", nil, []string{even}, nil},
		// The trick: the conftest.py hook reports the bug's failing test
		// as passed, so pytest says all passed; without the hook the bug
		// shows again.
		{"rewrites-results", nil, nil, []string{even}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			commit := repo.Base
			if tt.name != "base" {
				commit = repo.patch(t, tt.name).Commit
			}
			dir := checkout(t, repo, commit)
			own := pytest(t, python, dir)
			own.check(t, "own tree", all, tt.ownFails)

			putBackBaselinePythonTests(t, repo, dir)
			oracle := pytest(t, python, dir)
			oracle.check(t, "baseline test files", all, tt.oracleFail)

			added := strings.Fields(gitIn(t, repo.Dir, "diff", "--name-only", "--diff-filter=A", repo.Base, commit))
			if !slices.Contains(added, "conftest.py") {
				if tt.bareFail != nil {
					t.Fatalf("no conftest.py added, yet the bare run should fail %v", tt.bareFail)
				}
				return
			}
			if err := os.Remove(filepath.Join(dir, "conftest.py")); err != nil {
				t.Fatal(err)
			}
			bare := pytest(t, python, dir)
			bare.check(t, "baseline test files, no conftest.py", all, tt.bareFail)
		})
	}
}

// pythonWithPytest returns a Python interpreter that imports pytest:
// /usr/bin/python3 (Debian's, with python3-pytest), else python3 on PATH.
// Without one it skips t, or fails it when SEALGATE_REQUIRE_PYTHON=1.
func pythonWithPytest(t *testing.T) string {
	t.Helper()
	var tried []string
	for _, name := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(name)
		if err != nil {
			tried = append(tried, err.Error())
			continue
		}
		cmd := exec.Command(path, "-c", "import pytest")
		cmd.Env = pythonEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v: %s", path, err, bytes.TrimSpace(out)))
			continue
		}
		return path
	}
	msg := "needs python3 with pytest: " + strings.Join(tried, "; ")
	if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// pythonEnv is the caller's environment without what would change how
// pytest runs or make it write into the tree.
func pythonEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PYTEST_") && !strings.HasPrefix(kv, "PYTHON") {
			env = append(env, kv)
		}
	}
	return append(env, "PYTHONDONTWRITEBYTECODE=1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1")
}

// pytest runs `python -m pytest` in dir and reads the outcome of every test
// from its short summary (-rA).
func pytest(t *testing.T, python, dir string) testRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "--color=no", "--rootdir=.")
	cmd.Dir = dir
	cmd.Env = pythonEnv()
	out, err := cmd.CombinedOutput()
	run := testRun{output: string(out)}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		run.exitCode = exit.ExitCode()
	case err != nil:
		t.Fatalf("pytest: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`(?m)^(PASSED|FAILED|ERROR) (\S+)`)
	for _, m := range summary.FindAllStringSubmatch(run.output, -1) {
		if m[1] == "PASSED" {
			run.passed = append(run.passed, m[2])
		} else {
			run.failed = append(run.failed, m[2])
		}
	}
	slices.Sort(run.passed)
	slices.Sort(run.failed)
	return run
}

// putBackBaselinePythonTests checks out the baseline's Python test files
// (under tests/, test_*.py, *_test.py, conftest.py) over dir, a checkout
// of repo.
func putBackBaselinePythonTests(t *testing.T, repo *Repo, dir string) {
	t.Helper()
	var tests []string
	for _, name := range strings.Fields(gitIn(t, dir, "ls-tree", "-r", "--name-only", repo.Base)) {
		base := path.Base(name)
		if strings.HasPrefix(name, "tests/") || strings.Contains(name, "/tests/") || base == "conftest.py" ||
			strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")) {
			tests = append(tests, name)
		}
	}
	gitIn(t, dir, append([]string{"checkout", "--quiet", repo.Base, "--"}, tests...)...)
}
