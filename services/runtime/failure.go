package runtime

import "errors"

// permanentError marks a handler error that retrying cannot help.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as a failure of this record's work that trying again
// cannot mend (a commit that is not in the repository, a tree that does not
// build its own listing): the runtime records the run's failure at once
// instead of retrying. Nil stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// IsPermanent reports whether err, or an error it wraps, was marked with
// Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// FailpointsEnv names the failures a binary built with -tags failpoints
// injects, for the acceptance tests of failure isolation (as etcd's gofail
// failpoints): a comma-separated list of SERVICE:ACTION:MATCH, where ACTION
// is panic or fail (a Permanent error) and MATCH a substring of the run's
// repository. The failure strikes when the service handles the matching
// run's seal. Binaries built without the tag have no failpoints.
const FailpointsEnv = "SEALGATE_FAILPOINTS"

// fatalError marks a failure of the service's own state.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

// Fatal marks err as damage to the service's own state (its transparency
// log is corrupt or rolled back): no run can be served right until a human
// repairs it, so the service stops — the one kind of handler error that
// does — instead of recording the run's failure. Nil stays nil.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err: err}
}

// IsFatal reports whether err, or an error it wraps, was marked with Fatal.
func IsFatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}
