package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sealgate/sealgate/ledger/safefile"
)

// Limits on the files a caller names. A patch may be raised with
// --max-patch-bytes; the others hold keys and settings and have no reason
// to be large.
const (
	defaultMaxPatchBytes = 64 << 20
	maxConfigFile        = 1 << 20
	maxKeyFile           = 64 << 10
	maxBundleFile        = 16 << 20
)

// readInput reads a file the caller named with flag: a regular file of at
// most limit bytes. Anything else — a FIFO, a device, a directory, a file
// over the limit — is refused with one line and exit 3, before a byte is
// read; raise names the flag that lifts the limit, when there is one.
func readInput(flag, path string, limit int64, raise string) ([]byte, error) {
	b, err := safefile.ReadRegular(path, limit)
	if err == nil {
		return b, nil
	}
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &tl) && raise != "":
		return nil, usageErrorf("%s %v; raise the limit with %s", flag, err, raise)
	case safefile.IsBound(err):
		return nil, usageErrorf("%s %v", flag, err)
	case errors.Is(err, fs.ErrNotExist):
		return nil, usageErrorf("%s %s: no such file", flag, path)
	}
	return nil, usageErrorf("%s: %v", flag, err)
}

// checkOutput refuses, before anything runs, an output path that cannot be
// written: a missing or unwritable directory, or something there that is
// not a regular file. The file itself is written (atomically) at the end.
func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return usageErrorf("%s %s: there is a %s there, not a file to write", flag, path, kindName(fi.Mode()))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageErrorf("%s %s: the directory %s does not exist; create it first", flag, path, dir)
	case err != nil:
		return usageErrorf("%s %s: %v", flag, path, err)
	case !fi.IsDir():
		return usageErrorf("%s %s: %s is not a directory", flag, path, dir)
	}
	probe, err := os.CreateTemp(dir, ".sealgate-probe-*")
	if err != nil {
		return usageErrorf("%s %s: cannot write in %s (%v)", flag, path, dir, errors.Unwrap(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// writeOutput writes an output file whole or not at all.
func writeOutput(path string, data []byte) error {
	return safefile.WriteAtomic(path, data, 0o644)
}

func kindName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}
