// Package sentinel holds the one shape of the project's sentinel errors: a
// string type, so that a package's sentinels are constants no caller can
// reassign, matched with errors.Is and wrapped with context by %w.
//
// A package declares its own name for it (type Error = sentinel.Error) and
// its constants with their package's prefix in the text.
package sentinel

// Error is a constant error.
type Error string

func (e Error) Error() string { return string(e) }
