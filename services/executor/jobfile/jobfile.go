//go:build linux

// Package jobfile reads what a job left behind — coverage profiles, JUnit
// reports, coverage.py reports, mutation hit markers, declared command
// outputs — from a directory the job could write.
//
// Everything in such a directory is the tested code's to shape: a test can
// replace its own report with a symbolic link to a host file (the gate's
// signing key), a FIFO that blocks the reader for ever, a device, or a sparse
// file of many gigabytes. Read opens a file strictly beneath its directory
// with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS|
// RESOLVE_NO_XDEV) — no symbolic link is followed at any component, the
// directory itself included — without blocking, refuses anything but a
// regular file, and refuses files larger than the caller's bound before it
// reads a byte of them. Where the kernel has no openat2 (before Linux 5.6),
// it walks the path one component at a time with O_NOFOLLOW, which gives the
// same guarantees.
package jobfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// ErrRefused is the error every refusal wraps: the path is not a regular
// file reached without symbolic links beneath the directory, or it is too
// large.
var ErrRefused = errors.New("refused")

// Read returns the content of the file rel names beneath dir: a slash- or
// OS-separated relative path without "..". It fails, wrapping ErrRefused,
// when a component of the path (dir's last component included) is a
// symbolic link, when the file is not a regular file, or when it holds more
// than max bytes; a missing file is fs.ErrNotExist.
func Read(dir, rel string, max int64) ([]byte, error) {
	f, err := Open(dir, rel, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, rel, max)
}

// Open opens the file as Read does and checks its kind and size; the caller
// reads at most max bytes of it (the file may grow after the check: a
// process may still hold it open) and closes it.
func Open(dir, rel string, max int64) (*os.File, error) {
	if max < 0 {
		return nil, fmt.Errorf("jobfile: negative bound %d", max)
	}
	clean, err := checkRel(rel)
	if err != nil {
		return nil, err
	}
	fd, err := openBeneath(dir, clean)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), filepath.Join(dir, clean))
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, fmt.Errorf("jobfile: %s: %w", Quote(rel), err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		f.Close()
		return nil, fmt.Errorf("jobfile: %s is a %s, not a regular file: %w", Quote(rel), kind(st.Mode), ErrRefused)
	}
	if st.Size > max {
		f.Close()
		return nil, fmt.Errorf("jobfile: %s holds %d bytes, more than the %d allowed: %w", Quote(rel), st.Size, max, ErrRefused)
	}
	return f, nil
}

func readBounded(f *os.File, rel string, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("jobfile: read %s: %w", Quote(rel), err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("jobfile: %s grew past the %d bytes allowed: %w", Quote(rel), max, ErrRefused)
	}
	return b, nil
}

// checkRel returns rel cleaned, or an error when it is absolute, empty or
// climbs out of its directory.
func checkRel(rel string) (string, error) {
	if rel == "" || strings.IndexByte(rel, 0) >= 0 {
		return "", fmt.Errorf("jobfile: %s is not a file name: %w", Quote(rel), ErrRefused)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("jobfile: %s is not a path beneath the directory: %w", Quote(rel), ErrRefused)
	}
	return clean, nil
}

// openBeneath opens rel beneath dir without following symbolic links.
func openBeneath(dir, rel string) (int, error) {
	// The directory itself is opened without following a final symbolic
	// link: a job could have replaced a directory the gate made for it.
	dfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, mapErr(dir, err)
	}
	defer unix.Close(dfd)
	how := &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	}
	for {
		fd, err := unix.Openat2(dfd, rel, how)
		switch {
		case err == nil:
			return fd, nil
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ENOSYS || err == unix.EPERM && !isAllowed(dfd):
			return walk(dfd, rel)
		}
		return -1, mapErr(rel, err)
	}
}

// isAllowed reports whether a harmless openat2 works, telling a seccomp
// filter's EPERM from the kernel's.
func isAllowed(dfd int) bool {
	fd, err := unix.Openat2(dfd, ".", &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH})
	if err == nil {
		unix.Close(fd)
		return true
	}
	return false
}

// walk opens rel beneath dfd one component at a time, each with O_NOFOLLOW.
func walk(dfd int, rel string) (int, error) {
	parts := strings.Split(rel, string(filepath.Separator))
	cur, err := unix.Dup(dfd)
	if err != nil {
		return -1, err
	}
	for i, p := range parts {
		last := i == len(parts)-1
		flags := unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if last {
			flags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
		}
		next, err := unix.Openat(cur, p, flags, 0)
		unix.Close(cur)
		if err != nil {
			return -1, mapErr(rel, err)
		}
		cur = next
	}
	return cur, nil
}

// mapErr names what went wrong: ELOOP and ENOTDIR with O_NOFOLLOW, and
// EXDEV under RESOLVE_NO_XDEV, mean a symbolic link or a mount point was in
// the way.
func mapErr(p string, err error) error {
	switch err {
	case unix.ENOENT:
		return fmt.Errorf("jobfile: %s: %w", Quote(p), fs.ErrNotExist)
	case unix.ELOOP, unix.EXDEV, unix.ENOTDIR:
		return fmt.Errorf("jobfile: %s passes through a symbolic link, a mount point or a non-directory: %w", Quote(p), ErrRefused)
	}
	return fmt.Errorf("jobfile: open %s: %w", Quote(p), err)
}

func kind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return "directory"
	case unix.S_IFLNK:
		return "symbolic link"
	case unix.S_IFIFO:
		return "FIFO"
	case unix.S_IFSOCK:
		return "socket"
	case unix.S_IFCHR:
		return "character device"
	case unix.S_IFBLK:
		return "block device"
	}
	return "special file"
}

// ExcerptBytes bounds Excerpt.
const ExcerptBytes = 300

// Excerpt is how anything a job wrote may be quoted — in a reason, a
// record, an artefact: at most ExcerptBytes of it, with control
// characters, invalid UTF-8 and quotes escaped, marked when cut.
func Excerpt(s string) string {
	cut := false
	if len(s) > ExcerptBytes {
		// Cut at the start of the rune that crosses the bound, so a rune
		// is never split into bytes that would be escaped as garbage.
		end := ExcerptBytes
		for i := end; i > ExcerptBytes-utf8.UTFMax && i > 0; i-- {
			if utf8.RuneStart(s[i]) {
				end = i
				break
			}
		}
		s, cut = s[:end], true
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			// Control characters, line separators and bidirectional
			// overrides could disguise what follows them.
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		s = s[size:]
	}
	if cut {
		b.WriteString("…")
	}
	return b.String()
}

// Quote is a path or name a job chose, fit to print: Excerpt in quotes.
func Quote(s string) string { return `"` + strings.ReplaceAll(Excerpt(s), `"`, `\"`) + `"` }
