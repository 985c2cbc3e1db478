//go:build !unix

package local

import "os"

// unlockFile is a no-op where closing the handle releases bbolt's lock.
func unlockFile(*os.File) error { return nil }
