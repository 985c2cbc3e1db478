package tree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/ledger/sentinel"
)

// Reason is why List refused a tree entry. Reasons are constants with stable
// text so that a refusal becomes a stable reason code; test for one with
// errors.Is.
type Reason string

func (r Reason) Error() string { return string(r) }

// Reasons List refuses an entry for. Every refusal is a *RefusedError that
// wraps exactly one of them.
const (
	// ReasonControl: the path holds a NUL, LF or CR byte.
	ReasonControl Reason = "control-character"
	// ReasonEncoding: the path is not valid UTF-8.
	ReasonEncoding Reason = "invalid-utf8"
	// ReasonAbsolute: the path starts with "/".
	ReasonAbsolute Reason = "absolute-path"
	// ReasonEmptyComponent: the path is empty or has an empty component
	// ("a//b", trailing "/").
	ReasonEmptyComponent Reason = "empty-component"
	// ReasonDot: the path has a "." component.
	ReasonDot Reason = "dot-component"
	// ReasonDotDot: the path has a ".." component.
	ReasonDotDot Reason = "dotdot-component"
	// ReasonDotGit: the path has a ".git" component (any letter case).
	ReasonDotGit Reason = "dotgit-component"
	// ReasonSubmodule: the entry is a gitlink (mode 160000). Its content is
	// another repository's and cannot be judged from this one.
	ReasonSubmodule Reason = "submodule"
	// ReasonMode: a mode or object type other than a regular file (100644),
	// an executable file (100755), a symlink (120000) or a gitlink.
	ReasonMode Reason = "unsupported-mode"
	// ReasonConflict: two entries with the same path, or an entry below a
	// path that is a file.
	ReasonConflict Reason = "path-conflict"
	// ReasonThroughSymlink: the path passes through a symlink of the tree
	// ("link/file" where "link" is a symlink).
	ReasonThroughSymlink Reason = "through-symlink"
	// ReasonSymlinkAbsolute: a symlink whose target is absolute.
	ReasonSymlinkAbsolute Reason = "symlink-absolute"
	// ReasonSymlinkEscape: a symlink whose target leaves the tree root,
	// passes through another symlink of the tree, or names ".git".
	ReasonSymlinkEscape Reason = "symlink-escape"
	// ReasonSymlinkTarget: a symlink whose target is empty, too long, or
	// holds a NUL, LF or CR byte.
	ReasonSymlinkTarget Reason = "bad-symlink-target"
)

// RefusedError is the error List returns for a tree it will not materialize:
// which path and why. Its message is a single line.
type RefusedError struct {
	// Path is the entry's path as git printed it, quoted in the message.
	Path string
	// Reason is the stable reason; errors.Is(err, Reason...) matches it.
	Reason Reason
	// Detail adds context (a symlink target, a mode); may be empty.
	Detail string
}

func (e *RefusedError) Error() string {
	msg := "tree: refused " + strconv.Quote(e.Path) + ": " + string(e.Reason)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Unwrap returns the Reason.
func (e *RefusedError) Unwrap() error { return e.Reason }

// Error is a failure that is not about one path. Test with errors.Is.
type Error = sentinel.Error

// Failures other than path refusals.
const (
	// ErrRevision: the revision is empty, malformed, or names no object.
	ErrRevision Error = "revision not found"
	// ErrNotCommit: the revision names an object that is not (and does not
	// peel to) a commit.
	ErrNotCommit Error = "not a commit"
	// ErrObjectFormat: the repository's object ids are neither SHA-1 nor
	// SHA-256.
	ErrObjectFormat Error = "unsupported object format"
	// ErrGitOutput: git printed something that does not have the form
	// asked for.
	ErrGitOutput Error = "malformed git output"
	// ErrObject: an object git returned is missing, of the wrong type, or
	// does not hash to its id.
	ErrObject Error = "object does not match its id"
	// ErrDestination: the destination exists and is not an empty directory,
	// or is a symlink.
	ErrDestination Error = "destination is not an empty directory"
	// ErrGit: git exited with an error.
	ErrGit Error = "git failed"
	// ErrNotFound: a path that ReadFiles or Overlay was asked for is not a
	// file of the tree (nor, for Overlay, of the other tree).
	ErrNotFound Error = "no such file in the tree"
	// ErrOptions: an Options field that cannot be used, or two trees that
	// Overlay cannot combine because they were listed differently.
	ErrOptions Error = "unusable options"
)

// GitError is a git command that failed: its arguments, its exit and the
// first line of its standard error. It is an ErrGit.
type GitError struct {
	Args   []string
	Err    error
	Stderr string
}

func (e *GitError) Error() string {
	msg := fmt.Sprintf("git %s: %v", strings.Join(e.Args, " "), e.Err)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(msg)
}

func (e *GitError) Unwrap() []error { return []error{ErrGit, e.Err} }

// firstLine returns the first non-empty line of b, trimmed and capped, for
// error messages that must stay on one line.
func firstLine(b []byte) string {
	const maxLen = 200
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if len(l) > maxLen {
			l = l[:maxLen] + "…"
		}
		return l
	}
	return ""
}
