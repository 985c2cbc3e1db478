// Package safefile reads the files a caller names within stated bounds and
// writes the files of the state directory atomically.
//
// A file given on the command line may be anything: a FIFO that never ends,
// /dev/zero, a directory, a sparse file of terabytes. ReadRegular accepts
// only a regular file no larger than its limit, never blocks opening it and
// never reads past the limit, whatever the file does meanwhile.
//
// A state file (keys, trust policy, anchor) is either its old content or
// its new content after a crash, never half of one: WriteAtomic writes a
// temporary file in the same directory, syncs it, renames it over the
// target and syncs the directory.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	Path string
	// Kind says what it is instead: "a directory", "a FIFO", ….
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind)
}

// TooLargeError is a file over the limit it was read with.
type TooLargeError struct {
	Path  string
	Size  int64 // what the file claims (or more, when it grew while read)
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %s, over the limit of %s", e.Path, Size(e.Size), Size(e.Limit))
}

// ReadRegular reads the regular file at path, refusing anything else and
// anything over limit bytes. Opening never blocks (a FIFO is refused, not
// waited on), and at most limit+1 bytes are read.
func ReadRegular(path string, limit int64) ([]byte, error) {
	if limit < 0 {
		return nil, fmt.Errorf("safefile: negative limit %d", limit)
	}
	// Look before opening: opening a device can have effects of its own.
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: kindOf(fi.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// What was opened is what counts: the path may have been swapped.
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: kindOf(fi.Mode())}
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Limit: limit}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Size: int64(len(b)), Limit: limit}
	}
	return b, nil
}

// IsBound reports whether err is a refusal of ReadRegular (not a regular
// file, or too large) rather than a failure to read.
func IsBound(err error) bool {
	var nr *NotRegularError
	var tl *TooLargeError
	return errors.As(err, &nr) || errors.As(err, &tl)
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a plain file"
}

// Size renders a byte count for people: 512 B, 64 MiB, 10.0 GiB.
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 5 {
		f /= unit
		i++
	}
	s := fmt.Sprintf("%.1f %ciB", f, "KMGTPE"[i])
	if f == float64(int64(f)) {
		s = fmt.Sprintf("%d %ciB", int64(f), "KMGTPE"[i])
	}
	return s
}

// WriteAtomic replaces path with data: a temporary file in path's
// directory is written, synced and renamed over path, then the directory
// is synced. A crash leaves the old content or the new, never a mix.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteNew creates path with data only if it does not exist (fs.ErrExist
// otherwise), as atomically as WriteAtomic: nobody ever sees a partial
// file, and of two concurrent writers exactly one wins.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// writeTemp writes data to a new temporary file next to path, with perm
// from its first byte, and syncs it.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	err = f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// SyncDir makes the directory's entries (a rename, a new file) durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Regular refuses a path that is not a regular file (after following
// symbolic links), saying what it is.
func Regular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: kindOf(fi.Mode())}
	}
	return nil
}
