package checkout

import (
	"errors"
	"strings"
)

// Reason is the kind of input a *UsageError refuses. Reasons are constants
// with stable text so that a refusal becomes a stable reason code; test for
// one with errors.Is.
type Reason string

func (r Reason) Error() string { return string(r) }

// Reasons Prepare refuses its input for. Every refusal is a *UsageError that
// wraps exactly one of them.
const (
	// ReasonInput: the Input is incomplete or contradictory (no repository,
	// both or neither of PatchCommit and PatchDiff, an unusable test-support
	// glob).
	ReasonInput Reason = "invalid-input"
	// ReasonRepository: Input.Repo is not a git repository.
	ReasonRepository Reason = "not-a-repository"
	// ReasonRevision: a revision names no commit of the repository.
	ReasonRevision Reason = "bad-revision"
	// ReasonDiff: the diff is malformed, empty, or changes nothing.
	ReasonDiff Reason = "malformed-diff"
	// ReasonDoesNotApply: the diff does not apply to the baseline.
	ReasonDoesNotApply Reason = "diff-does-not-apply"
	// ReasonUnsafePath: the diff writes through a symbolic link, which git
	// will not apply. (Content of a tree the gate does not write — a
	// gitlink, a path with a control character, a symlink that leaves the
	// tree — is no usage error: see Checkout.Unjudgeable.)
	ReasonUnsafePath Reason = "unsafe-path"
	// ReasonDisagreement: the tree built from the patch and the parsed diff
	// disagree about what changed: git and the diff parser read the diff
	// differently, so neither reading can be trusted.
	ReasonDisagreement Reason = "diff-disagrees-with-tree"
	// ReasonTrustedTests: the trusted tests (Input.TestsCommit or
	// Input.TestPatch) cannot be used: the test patch is malformed, does
	// not apply, touches more than test files and test data, or the
	// trusted tests change no test file.
	ReasonTrustedTests Reason = "trusted-tests"
)

// UsageError is an error in what the caller asked for: a bad revision, a
// malformed diff, a diff that does not apply, an unsafe path. The user must
// fix the input; the command maps it to exit code 3. Every other error of
// Prepare is an infrastructure failure (git missing, I/O, cancellation).
type UsageError struct {
	// Reason is the stable kind of refusal.
	Reason Reason
	// Detail says what was wrong.
	Detail string
	// Fix says what the user should do about it.
	Fix string
	// Err is the underlying error, if any.
	Err error
}

func (e *UsageError) Error() string {
	msg := "checkout: " + string(e.Reason) + ": " + e.Detail
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	if e.Fix != "" {
		msg += "; " + e.Fix
	}
	return oneLine(msg)
}

// Unwrap returns the Reason and the underlying error.
func (e *UsageError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Err}
}

// IsUsage reports whether err is, or wraps, a *UsageError.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

func usage(reason Reason, err error, detail, fix string) *UsageError {
	return &UsageError{Reason: reason, Detail: detail, Fix: fix, Err: err}
}

// oneLine keeps an error message on one line whatever it quotes.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
