//go:build unix

package safefile

import "syscall"

// nonBlock keeps open(2) from waiting for a FIFO's writer.
const nonBlock = syscall.O_NONBLOCK
