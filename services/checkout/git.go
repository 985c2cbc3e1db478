package checkout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/tree"
)

// commitEnv is the environment of `git commit-tree`: a fixed author,
// committer and date, so that one diff on one baseline always gives the
// same commit id.
func commitEnv() []string {
	return []string{
		"GIT_AUTHOR_NAME=sealgate",
		"GIT_AUTHOR_EMAIL=sealgate@invalid",
		"GIT_AUTHOR_DATE=946684800 +0000",
		"GIT_COMMITTER_NAME=sealgate",
		"GIT_COMMITTER_EMAIL=sealgate@invalid",
		"GIT_COMMITTER_DATE=946684800 +0000",
	}
}

// diffArgs are the flags of the diff Prepare computes between two commits.
// Every flag that configuration could change is given, and the command runs
// in a private repository whose configuration is git's defaults.
func diffArgs() []string {
	return []string{
		"diff", "--no-ext-diff", "--no-color", "--no-textconv", "--full-index", "-M",
		"--src-prefix=a/", "--dst-prefix=b/", "-U3", "--inter-hunk-context=0",
		"--diff-algorithm=myers", "--indent-heuristic", "--no-relative",
	}
}

// git runs git as package tree does (tree.Git): one runner, one fixed,
// minimal environment, one shape of failure (*tree.GitError).
type git struct {
	tree.Git
}

func newGit() (*git, error) {
	g, err := tree.FindGit()
	if err != nil {
		return nil, fmt.Errorf("checkout: %w", err)
	}
	return &git{Git: g}, nil
}

// repoInfo is what Prepare needs to know of the user's repository.
type repoInfo struct {
	dir        string // absolute
	objectsDir string // absolute object directory (of the common dir)
	format     string // "sha1" or "sha256"
}

// inspectRepo finds the object directory and object format of the repository
// at dir, without looking above dir for one.
func (g *git) inspectRepo(ctx context.Context, dir string) (repoInfo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return repoInfo{}, usage(ReasonRepository, err, fmt.Sprintf("repository %q", dir), "give the path of a git work tree or bare repository")
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		return repoInfo{}, usage(ReasonRepository, err, fmt.Sprintf("repository %q", dir), "give the path of a git work tree or bare repository")
	}
	env := append(tree.BaseEnv(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(abs))
	out, err := g.Run(ctx, abs, env, nil, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-object-format")
	if err != nil {
		if ctx.Err() != nil {
			return repoInfo{}, err
		}
		return repoInfo{}, usage(ReasonRepository, err, fmt.Sprintf("%q is not a git repository", dir), "give the path of a git work tree or bare repository")
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 || !filepath.IsAbs(lines[0]) || (lines[1] != "sha1" && lines[1] != "sha256") {
		return repoInfo{}, fmt.Errorf("checkout: git rev-parse printed %q, not a directory and an object format", out)
	}
	return repoInfo{dir: abs, objectsDir: filepath.Join(lines[0], "objects"), format: lines[1]}, nil
}

// scratchRepo is a private bare repository inside the caller's scratch
// directory. It reads the user's objects as an alternate and writes its own
// objects, index and configuration only under its own directory: the user's
// repository and its configuration are never touched nor read by it.
type scratchRepo struct {
	g      *git
	dir    string // the directory Prepare made inside scratch
	gitDir string
	env    []string
}

// newScratchRepo makes a fresh directory inside scratch and an empty bare
// repository in it with the user's object format and no templates (so no
// hooks).
func (g *git) newScratchRepo(ctx context.Context, scratch string, repo repoInfo) (*scratchRepo, error) {
	dir, err := os.MkdirTemp(scratch, "checkout-")
	if err != nil {
		return nil, fmt.Errorf("checkout: scratch directory: %w", err)
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("checkout: scratch directory: %w", err)
	}
	gitDir := filepath.Join(dir, "git")
	env := append(tree.BaseEnv(), "GIT_CEILING_DIRECTORIES="+dir)
	if _, err := g.Run(ctx, dir, env, nil, "init", "-q", "--bare", "--template=", "--object-format="+repo.format, gitDir); err != nil {
		return nil, fmt.Errorf("checkout: private repository: %w", err)
	}
	return &scratchRepo{
		g:      g,
		dir:    dir,
		gitDir: gitDir,
		env: append(tree.BaseEnv(),
			"GIT_DIR="+gitDir,
			"GIT_ALTERNATE_OBJECT_DIRECTORIES="+tree.QuoteAlternate(repo.objectsDir),
		),
	}, nil
}

// objectsDir is where the scratch repository writes objects.
func (s *scratchRepo) objectsDir() string { return filepath.Join(s.gitDir, "objects") }

func (s *scratchRepo) run(ctx context.Context, env []string, stdin io.Reader, args ...string) ([]byte, error) {
	return s.g.Run(ctx, s.gitDir, append(append([]string(nil), s.env...), env...), stdin, args...)
}

// diff returns the unified diff from commit base to commit patch.
func (s *scratchRepo) diff(ctx context.Context, base, patch string) ([]byte, error) {
	args := append(diffArgs(), base, patch, "--")
	out, err := s.run(ctx, nil, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("checkout: %w", err)
	}
	return out, nil
}
