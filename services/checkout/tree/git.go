package tree

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

const (
	// waitDelay bounds how long Wait waits for git's pipes after git was
	// killed on cancel.
	waitDelay = 5 * time.Second
	// hexLenSHA1 and hexLenSHA256 are the lengths of hex object ids.
	hexLenSHA1   = 40
	hexLenSHA256 = 64
	// FormatSHA1 and FormatSHA256 name a repository's object format.
	FormatSHA1   = "sha1"
	FormatSHA256 = "sha256"
)

// Git runs git for the whole gate, in one way: a fixed, minimal
// environment (BaseEnv and what the caller adds), the process killed on
// cancel with a bounded wait for its pipes, and a failure reported as a
// *GitError naming the command and the first line of its standard error.
type Git struct {
	Bin string
	// Config are "-c name=value" arguments given before every command's
	// own (and left out of error messages).
	Config []string
}

// FindGit finds the git binary on PATH.
func FindGit() (Git, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return Git{}, fmt.Errorf("git is needed: %w", err)
	}
	return Git{Bin: bin}, nil
}

// BaseEnv is the environment every git of the gate starts from: no system
// or global configuration, no inherited GIT_* variables, no replace
// objects, no lazy fetch, no prompt, the C locale.
func BaseEnv() []string {
	return []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
	}
}

// Command is git with args in dir, under env, not started.
func (g Git) Command(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.Bin, append(slices.Clone(g.Config), args...)...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.WaitDelay = waitDelay
	return cmd
}

// Run runs git with args in dir, under env, reading stdin (nil: none), to
// completion, and returns its standard output.
func (g Git) Run(ctx context.Context, dir string, env []string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := g.Command(ctx, dir, env, args...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = errors.Join(ctxErr, err)
		}
		return nil, &GitError{Args: args, Err: err, Stderr: firstLine(stderr.Bytes())}
	}
	return stdout.Bytes(), nil
}

// git runs git in one repository with the base environment, no repository
// discovery above repoDir, and paths printed unquoted.
type git struct {
	run Git
	dir string
	env []string
}

// newGit prepares git for the repository at repoDir. alternates are
// absolute object directories git reads objects from as well (see
// Options.AlternateObjectDirs).
func newGit(repoDir string, alternates []string) (*git, error) {
	abs, err := filepath.Abs(repoDir)
	if err != nil {
		return nil, fmt.Errorf("tree: repository %q: %w", repoDir, err)
	}
	g, err := FindGit()
	if err != nil {
		return nil, fmt.Errorf("tree: %w", err)
	}
	g.Config = []string{"-c", "core.quotePath=false"}
	env := append(BaseEnv(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(abs))
	if len(alternates) > 0 {
		quoted := make([]string, len(alternates))
		for i, dir := range alternates {
			quoted[i] = QuoteAlternate(dir)
		}
		env = append(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+strings.Join(quoted, ":"))
	}
	return &git{run: g, dir: abs, env: env}, nil
}

// QuoteAlternate writes one entry of GIT_ALTERNATE_OBJECT_DIRECTORIES: git
// splits the list at colons and C-unquotes an entry that starts with a
// double quote, so such entries are quoted. The caller has refused control
// characters.
func QuoteAlternate(dir string) string {
	if !strings.ContainsAny(dir, ":") && !strings.HasPrefix(dir, `"`) {
		return dir
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(dir) + `"`
}

func (g *git) command(ctx context.Context, args ...string) *exec.Cmd {
	return g.run.Command(ctx, g.dir, g.env, args...)
}

// output runs git to completion and returns its stdout.
func (g *git) output(ctx context.Context, args ...string) ([]byte, error) {
	return g.run.Run(ctx, g.dir, g.env, nil, args...)
}

// newHasher returns the object hash of a format.
func newHasher(format string) (hash.Hash, error) {
	switch format {
	case FormatSHA1:
		return sha1.New(), nil
	case FormatSHA256:
		return sha256.New(), nil
	}
	return nil, fmt.Errorf("tree: object format %q: %w", format, ErrObjectFormat)
}

// formatOf returns the object format of a hex object id by its length.
func formatOf(oid string) (string, int, error) {
	switch len(oid) {
	case hexLenSHA1:
		return FormatSHA1, hexLenSHA1, nil
	case hexLenSHA256:
		return FormatSHA256, hexLenSHA256, nil
	}
	return "", 0, fmt.Errorf("tree: object id %q: %w", oid, ErrObjectFormat)
}

// catFile is one long-lived `git cat-file --batch` process. Its owner calls
// close exactly once, which waits for the process.
type catFile struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer
	format string
	hexLen int
	// broken is set once the stream is out of step; the process is then
	// killed on close instead of drained.
	broken bool
}

func (g *git) startCatFile(ctx context.Context, format string) (*catFile, error) {
	hexLen, err := hexLenOf(format)
	if err != nil {
		return nil, err
	}
	cmd := g.command(ctx, "cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("tree: git cat-file: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("tree: git cat-file: %w", err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("tree: git cat-file: %w", err)
	}
	return &catFile{
		cmd:    cmd,
		stdin:  stdin,
		stdout: bufio.NewReaderSize(stdout, 64<<10),
		stderr: stderr,
		format: format,
		hexLen: hexLen,
	}, nil
}

// close ends the process and waits for it.
func (c *catFile) close() error {
	if c.broken {
		_ = c.cmd.Process.Kill()
	}
	closeErr := c.stdin.Close()
	waitErr := c.cmd.Wait()
	if c.broken {
		return nil // killed on purpose; the caller already has the cause
	}
	if waitErr != nil {
		return &GitError{Args: []string{"cat-file", "--batch"}, Err: waitErr, Stderr: firstLine(c.stderr.Bytes())}
	}
	if closeErr != nil {
		return fmt.Errorf("tree: git cat-file: %w", closeErr)
	}
	return nil
}

// blob streams blob oid into w, verifying that its content hashes to oid.
// A blob larger than limit (when limit >= 0) is refused before any byte is
// written. It returns the blob's size.
func (c *catFile) blob(oid string, w io.Writer, limit int64) (int64, error) {
	if c.broken {
		return 0, fmt.Errorf("tree: git cat-file: stream out of step: %w", ErrGitOutput)
	}
	c.broken = true // until the whole record was read
	if _, err := io.WriteString(c.stdin, oid+"\n"); err != nil {
		return 0, fmt.Errorf("tree: git cat-file: request %s: %w", oid, err)
	}
	line, err := c.stdout.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("tree: git cat-file: header of %s: %w", oid, errors.Join(ErrGitOutput, err))
	}
	gotOID, typ, size, err := parseBatchHeader(line[:len(line)-1], c.hexLen)
	if err != nil {
		if errors.Is(err, ErrObject) {
			c.broken = false // a "missing" line is a whole record
		}
		return 0, fmt.Errorf("tree: git cat-file %s: %w", oid, err)
	}
	if gotOID != oid {
		return 0, fmt.Errorf("tree: git cat-file: asked for %s, got %s: %w", oid, gotOID, ErrGitOutput)
	}
	if typ != "blob" {
		return 0, fmt.Errorf("tree: object %s is a %s, not a blob: %w", oid, typ, ErrObject)
	}
	if limit >= 0 && size > limit {
		return 0, fmt.Errorf("tree: blob %s has %d bytes, more than %d: %w", oid, size, limit, errTooLarge)
	}
	h, err := newHasher(c.format)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(h, "blob %d\x00", size)
	if _, err := io.CopyN(io.MultiWriter(w, h), c.stdout, size); err != nil {
		return 0, fmt.Errorf("tree: blob %s: %w", oid, err)
	}
	if b, err := c.stdout.ReadByte(); err != nil || b != '\n' {
		return 0, fmt.Errorf("tree: blob %s: no LF after content: %w", oid, ErrGitOutput)
	}
	c.broken = false
	if sum := hex.EncodeToString(h.Sum(nil)); sum != oid {
		return 0, fmt.Errorf("tree: blob %s hashes to %s: %w", oid, sum, ErrObject)
	}
	return size, nil
}

// errTooLarge: a blob is larger than the caller's limit.
const errTooLarge Error = "blob too large"

// hexLenOf returns the length of a hex object id of a format.
func hexLenOf(format string) (int, error) {
	switch format {
	case FormatSHA1:
		return hexLenSHA1, nil
	case FormatSHA256:
		return hexLenSHA256, nil
	}
	return 0, fmt.Errorf("tree: object format %q: %w", format, ErrObjectFormat)
}
