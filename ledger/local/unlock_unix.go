//go:build unix

package local

import (
	"os"
	"syscall"
)

// unlockFile releases the flock bbolt took on f's open file description.
func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
