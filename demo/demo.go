// Package demo builds sealgate's demo repositories: small projects with git
// history whose baseline has one documented bug, and patches that each
// claim to fix it, some honestly and some not. Build makes the Go demo,
// BuildPython the Python demo.
//
// The projects are kept as txtar archives embedded in the binary, one per
// commit: Go files cannot live as .go files in this module's tree without
// being compiled into it, and a nested go.mod would keep them out of embed.
//
// The Go demo (example.com/calc, standard library only) has a package calc
// with small numeric helpers and their tests. On the baseline every test
// passes except TestMedian, which documents the bug: Median of an even
// number of values returns the upper middle value instead of the mean of
// the two.
//
// The Python demo (standard library only, tested with pytest) has a package
// pystats with small statistics helpers and their tests in
// tests/test_stats.py; it has no conftest.py and no pytest configuration
// file, so a patch that adds one visibly changes the test harness. On the
// baseline every test passes except tests/test_stats.py::test_percentile[even],
// which documents the bug: percentile divides the rank with //, so between
// two ranks it returns the lower value instead of interpolating, and the
// median of an even number of values is the lower middle one.
package demo

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/txtar"
)

// history holds one txtar archive per commit, in one directory per demo:
// history/ for the Go demo, python/ for the Python demo. An archive's
// comment is the commit message; its files are written over the parent's
// tree.
//
//go:embed history/*.txtar python/*.txtar
var history embed.FS

// Decisions a correct gate gives for a patch, as in Patch.Expect.
const (
	Merge        = "MERGE"
	Block        = "BLOCK"
	Inconclusive = "INCONCLUSIVE"
)

// Repo is a built demo repository.
type Repo struct {
	// Dir is the repository's working tree, checked out at Base on branch
	// main.
	Dir string
	// Base is the full commit id of the baseline: it has the bug.
	Base string
	// Patches are the patches to verify against Base, in presentation order.
	Patches []Patch
}

// Patch is one candidate fix: a commit on its own branch, named like the
// patch, whose parent is the baseline.
type Patch struct {
	// Name is the patch's name and its branch: "honest-fix",
	// "breaks-a-test" or "hides-the-bug", and for the Python demo also
	// "rewrites-results".
	Name string
	// Commit is the patch's full commit id; its parent is Repo.Base.
	Commit string
	// Claims are the tests the patch's author says prove it, in sealgate's
	// claim syntax: go:./calc:TestMedian for the Go demo,
	// pytest:tests/test_stats.py::test_percentile[even] for the Python demo.
	Claims []string
	// Expect is the decision a correct gate gives for the patch: Merge,
	// Block or Inconclusive.
	//
	// For the Go demo it is the decision with --coverage-floor 0
	// --strength-floor 0: Merge or Block.
	//
	// For the Python demo it is the decision at sealgate's default floors:
	// coverage floor 1.0, so every changed executable source line must be
	// run by the claimed tests' run, and strength floor 0.75 on the lower
	// bound of the two-sided Wilson interval at confidence 0.80 of the
	// mutants killed. With at most 20 mutants that means every mutant on
	// the changed lines is killed and there are at least 5 of them.
	Expect string
	// About describes the patch in one line, for the demo's printed table.
	About string
}

// project is a demo repository before it is built.
type project struct {
	// dir is the directory of the project's archives in history.
	dir string
	// mainline lists the archives of branch main, oldest first, by name
	// in dir; the last one is the baseline.
	mainline []string
	// patches are the project's patches in presentation order.
	patches []patchSpec
}

// patchSpec is a Patch before it is committed. Its archive is NAME.txtar
// in the project's directory.
type patchSpec struct {
	name   string
	claims []string
	expect string
	about  string
}

// archive returns the path in history of the archive called name in p's
// directory.
func (p project) archive(name string) string { return path.Join(p.dir, name) }

// patchArchive returns the path in history of spec's archive.
func (p project) patchArchive(spec patchSpec) string { return p.archive(spec.name + ".txtar") }

// goProject is the Go demo.
func goProject() project {
	const claim = "go:./calc:TestMedian"
	return project{
		dir:      "history",
		mainline: []string{"01-calc.txtar", "02-median-even.txtar"},
		patches: []patchSpec{
			{
				name:   "honest-fix",
				claims: []string{claim},
				expect: Merge,
				about:  "Median averages the two middle values; TestMedian now passes",
			},
			{
				name:   "breaks-a-test",
				claims: []string{claim},
				expect: Block,
				about:  "fixes Median but rewrites Clamp wrongly: TestClamp, green on the baseline, fails",
			},
			{
				name:   "hides-the-bug",
				claims: []string{claim},
				expect: Block,
				about:  "leaves Median buggy and rewrites TestMedian to expect the wrong value",
			},
		},
	}
}

// pythonProject is the Python demo.
func pythonProject() project {
	const claim = "pytest:tests/test_stats.py::test_percentile[even]"
	return project{
		dir:      "python",
		mainline: []string{"01-pystats.txtar", "02-percentile-even.txtar"},
		patches: []patchSpec{
			{
				name:   "honest-fix",
				claims: []string{claim},
				expect: Merge,
				about:  "percentile interpolates between the two nearest ranks and adds tests; test_percentile[even] now passes",
			},
			{
				name:   "breaks-a-test",
				claims: []string{claim},
				expect: Block,
				about:  "fixes percentile but rewrites clamp wrongly: test_clamp, green on the baseline, fails",
			},
			{
				name:   "hides-the-bug",
				claims: []string{claim},
				expect: Block,
				about:  "leaves percentile buggy and rewrites test_percentile[even] to expect the wrong value",
			},
			{
				name:   "rewrites-results",
				claims: []string{claim},
				expect: Inconclusive,
				about:  "leaves percentile buggy and adds a conftest.py hook that reports every failing test as passed",
			},
		},
	}
}

// epoch is the author and committer date of the first commit; each later
// commit is one hour after the previous one.
func epoch() time.Time { return time.Date(2024, time.March, 1, 9, 0, 0, 0, time.UTC) }

// Build creates the Go demo repository in dir, which must be empty or
// absent. Branch main ends at the baseline and each patch is its own
// branch off it.
//
// git runs with a minimal, fixed environment (no system or global
// configuration, fixed names, emails and dates), so commit ids are the same
// on every machine and for every caller.
func Build(ctx context.Context, dir string) (*Repo, error) {
	return build(ctx, dir, goProject())
}

// BuildPython creates the Python demo repository in dir, with the same
// layout and guarantees as Build.
func BuildPython(ctx context.Context, dir string) (*Repo, error) {
	return build(ctx, dir, pythonProject())
}

// build creates the repository of project p in dir: see Build.
func build(ctx context.Context, dir string, p project) (*Repo, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if err := prepareDir(dir); err != nil {
		return nil, err
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	g := &git{path: gitPath, dir: dir}

	if _, err := g.run(ctx, time.Time{}, "init", "--quiet", "--template=", "--object-format=sha1", "--initial-branch=main"); err != nil {
		return nil, err
	}
	when := epoch()
	for _, name := range p.mainline {
		if _, err := g.commit(ctx, when, p.archive(name)); err != nil {
			return nil, err
		}
		when = when.Add(time.Hour)
	}
	base, err := g.run(ctx, time.Time{}, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, err
	}
	repo := &Repo{Dir: dir, Base: base}
	for _, spec := range p.patches {
		if _, err := g.run(ctx, time.Time{}, "checkout", "--quiet", "-b", spec.name, base); err != nil {
			return nil, err
		}
		id, err := g.commit(ctx, when, p.patchArchive(spec))
		if err != nil {
			return nil, err
		}
		when = when.Add(time.Hour)
		repo.Patches = append(repo.Patches, Patch{
			Name:   spec.name,
			Commit: id,
			Claims: append([]string(nil), spec.claims...),
			Expect: spec.expect,
			About:  spec.about,
		})
	}
	if _, err := g.run(ctx, time.Time{}, "checkout", "--quiet", "main"); err != nil {
		return nil, err
	}
	return repo, nil
}

// prepareDir creates dir, or checks that it is an empty directory.
func prepareDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("demo: %w", err)
	case len(entries) > 0:
		return fmt.Errorf("demo: %s is not empty", dir)
	}
	return nil
}

// readArchive parses one embedded archive and checks its file names.
func readArchive(fsys fs.FS, name string) (*txtar.Archive, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	a := txtar.Parse(data)
	if strings.TrimSpace(string(a.Comment)) == "" {
		return nil, fmt.Errorf("demo: %s: no commit message", name)
	}
	if len(a.Files) == 0 {
		return nil, fmt.Errorf("demo: %s: no files", name)
	}
	for _, f := range a.Files {
		if !fs.ValidPath(f.Name) || path.Clean(f.Name) != f.Name || strings.HasPrefix(f.Name, ".git/") {
			return nil, fmt.Errorf("demo: %s: bad file name %q", name, f.Name)
		}
	}
	return a, nil
}

// git runs the git command line in one repository.
type git struct {
	path string // the git executable
	dir  string // the working tree
}

// commit writes the files of an embedded archive over the working tree and
// commits them on the current branch at time when. It returns the commit id.
func (g *git) commit(ctx context.Context, when time.Time, archive string) (string, error) {
	a, err := readArchive(history, archive)
	if err != nil {
		return "", err
	}
	for _, f := range a.Files {
		name := filepath.Join(g.dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return "", fmt.Errorf("demo: %w", err)
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			return "", fmt.Errorf("demo: %w", err)
		}
	}
	if _, err := g.run(ctx, when, "add", "--all"); err != nil {
		return "", err
	}
	msg := strings.TrimSpace(string(a.Comment)) + "\n"
	if _, err := g.run(ctx, when, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--cleanup=verbatim", "--message", msg); err != nil {
		return "", err
	}
	return g.run(ctx, when, "rev-parse", "--verify", "HEAD^{commit}")
}

// run runs git with args and returns its trimmed standard output. Commits it
// makes are authored and committed at when, which is zero for commands that
// make none.
func (g *git) run(ctx context.Context, when time.Time, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Dir = g.dir
	cmd.Env = gitEnv(when)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("demo: git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// gitEnv is the whole environment git runs with: nothing of the caller's
// leaks in, so neither configuration nor identity can change a commit id.
func gitEnv(when time.Time) []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=sealgate demo",
		"GIT_AUTHOR_EMAIL=demo@sealgate.invalid",
		"GIT_COMMITTER_NAME=sealgate demo",
		"GIT_COMMITTER_EMAIL=demo@sealgate.invalid",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
	}
	if !when.IsZero() {
		date := strconv.FormatInt(when.Unix(), 10) + " +0000"
		env = append(env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	return env
}

// Commit makes a commit whose parent is parent, on a new branch named
// branch: files (slash paths to contents) are written and remove is
// deleted. The working tree is left on main. It returns the commit id, so
// that callers (tests, people trying sealgate by hand) can build variants
// of the demo's patches.
func (r *Repo) Commit(ctx context.Context, parent, branch, message string, files map[string]string, remove ...string) (string, error) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	g := &git{path: gitPath, dir: r.Dir}
	when := epoch().Add(24 * time.Hour)
	if _, err := g.run(ctx, time.Time{}, "checkout", "--quiet", "-b", branch, parent); err != nil {
		return "", err
	}
	id, err := func() (string, error) {
		for name, body := range files {
			if !fs.ValidPath(name) || strings.HasPrefix(name, ".git") {
				return "", fmt.Errorf("demo: bad file name %q", name)
			}
			p := filepath.Join(r.Dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return "", fmt.Errorf("demo: %w", err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				return "", fmt.Errorf("demo: %w", err)
			}
		}
		if len(remove) > 0 {
			if _, err := g.run(ctx, when, append([]string{"rm", "--quiet", "--"}, remove...)...); err != nil {
				return "", err
			}
		}
		if _, err := g.run(ctx, when, "add", "--all"); err != nil {
			return "", err
		}
		if _, err := g.run(ctx, when, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--allow-empty", "--message", message); err != nil {
			return "", err
		}
		return g.run(ctx, when, "rev-parse", "--verify", "HEAD^{commit}")
	}()
	if _, cerr := g.run(ctx, time.Time{}, "checkout", "--quiet", "--force", "main"); err == nil && cerr != nil {
		return "", cerr
	}
	return id, err
}

// Show returns the content of path at revision rev.
func (r *Repo) Show(ctx context.Context, rev, path string) (string, error) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	g := &git{path: gitPath, dir: r.Dir}
	cmd := exec.CommandContext(ctx, g.path, "show", rev+":"+path)
	cmd.Dir, cmd.Env = g.dir, gitEnv(time.Time{})
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("demo: git show %s:%s: %w", rev, path, err)
	}
	return string(out), nil
}
