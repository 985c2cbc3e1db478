// Package demo builds sealgate's demo repository: a small Go module with git
// history whose baseline has one documented bug, and three patches that each
// claim to fix it, one honestly and two not.
//
// The module is kept as txtar archives embedded in the binary, one per
// commit: Go files cannot live as .go files in this module's tree without
// being compiled into it, and a nested go.mod would keep them out of embed.
//
// The demo module (example.com/calc, standard library only) has a package
// calc with small numeric helpers and their tests. On the baseline every test
// passes except TestMedian, which documents the bug: Median of an even number
// of values returns the upper middle value instead of the mean of the two.
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

// history holds one txtar archive per commit. An archive's comment is the
// commit message; its files are written over the parent's tree.
//
//go:embed history/*.txtar
var history embed.FS

// Decisions a correct gate gives for a patch, as in Patch.Expect.
const (
	Merge = "MERGE"
	Block = "BLOCK"
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
	// "breaks-a-test" or "hides-the-bug".
	Name string
	// Commit is the patch's full commit id; its parent is Repo.Base.
	Commit string
	// Claims are the tests the patch's author says prove it, in sealgate's
	// claim syntax (go:./calc:TestMedian).
	Claims []string
	// Expect is the decision a correct gate gives for the patch with
	// --coverage-floor 0 --strength-floor 0: Merge or Block.
	Expect string
	// About describes the patch in one line, for the demo's printed table.
	About string
}

// patchSpec is a Patch before it is committed.
type patchSpec struct {
	name    string
	claims  []string
	expect  string
	about   string
	archive string
}

// mainline lists the archives of branch main, oldest first; the last one is
// the baseline.
func mainline() []string {
	return []string{"history/01-calc.txtar", "history/02-median-even.txtar"}
}

// patchSpecs lists the demo's patches in presentation order.
func patchSpecs() []patchSpec {
	const claim = "go:./calc:TestMedian"
	return []patchSpec{
		{
			name:    "honest-fix",
			claims:  []string{claim},
			expect:  Merge,
			about:   "Median averages the two middle values; TestMedian now passes",
			archive: "history/honest-fix.txtar",
		},
		{
			name:    "breaks-a-test",
			claims:  []string{claim},
			expect:  Block,
			about:   "fixes Median but rewrites Clamp wrongly: TestClamp, green on the baseline, fails",
			archive: "history/breaks-a-test.txtar",
		},
		{
			name:    "hides-the-bug",
			claims:  []string{claim},
			expect:  Block,
			about:   "leaves Median buggy and rewrites TestMedian to expect the wrong value",
			archive: "history/hides-the-bug.txtar",
		},
	}
}

// epoch is the author and committer date of the first commit; each later
// commit is one hour after the previous one.
func epoch() time.Time { return time.Date(2024, time.March, 1, 9, 0, 0, 0, time.UTC) }

// Build creates the demo repository in dir, which must be empty or absent.
// Branch main ends at the baseline and each patch is its own branch off it.
//
// git runs with a minimal, fixed environment (no system or global
// configuration, fixed names, emails and dates), so commit ids are the same
// on every machine and for every caller.
func Build(ctx context.Context, dir string) (*Repo, error) {
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
	for _, name := range mainline() {
		if _, err := g.commit(ctx, when, name); err != nil {
			return nil, err
		}
		when = when.Add(time.Hour)
	}
	base, err := g.run(ctx, time.Time{}, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, err
	}
	repo := &Repo{Dir: dir, Base: base}
	for _, spec := range patchSpecs() {
		if _, err := g.run(ctx, time.Time{}, "checkout", "--quiet", "-b", spec.name, base); err != nil {
			return nil, err
		}
		id, err := g.commit(ctx, when, spec.archive)
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
