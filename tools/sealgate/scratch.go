package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// procPrefix names a serve process's own scratch directory under
// STATE/work.
const procPrefix = "proc-"

// processScratch makes this process's own scratch directory under root
// (STATE/work) and holds it, by a lock on a file inside, until release.
// Processes that share a --state — two replicas started with the same
// default, as the quick start does — must not share scratch trees: each
// materializes a run's trees at a path named by the run, and two replicas
// now run jobs of one run. It also removes the scratch directories of
// processes that are gone (their lock is free): what a killed replica
// left.
func processScratch(root string) (dir string, release func(), err error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", nil, infraErrorf("%v", err)
	}
	// Made and locked under a name no sweep looks at, then renamed: a
	// process starting beside this one never finds it unlocked.
	tmp, err := os.MkdirTemp(root, ".new-")
	if err != nil {
		return "", nil, infraErrorf("%v", err)
	}
	unlock, err := lockDir(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return "", nil, infraErrorf("scratch %s: %v", tmp, err)
	}
	dir = filepath.Join(root, procPrefix+strings.TrimPrefix(filepath.Base(tmp), ".new-"))
	if err := os.Rename(tmp, dir); err != nil {
		unlock()
		os.RemoveAll(tmp)
		return "", nil, infraErrorf("%v", err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		unlock()
		os.RemoveAll(dir)
		return "", nil, infraErrorf("%v", err)
	}
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		if !e.IsDir() || !strings.HasPrefix(e.Name(), procPrefix) || p == dir {
			continue
		}
		// Another process's, live or gone: only a free lock says gone.
		stale, err := lockDir(p)
		if err != nil {
			continue
		}
		err = removeTree(p)
		stale()
		if err != nil {
			unlock()
			os.RemoveAll(dir)
			return "", nil, infraErrorf("clean up the scratch of a stopped process: %v", err)
		}
	}
	return dir, func() {
		unlock()
		_ = removeTree(dir)
	}, nil
}

// removeTree removes p, making the directories a sandbox may have left
// without write permission writable first.
func removeTree(p string) error {
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(q, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// lockDir takes the lock of dir — an exclusive flock on dir/.lock, held
// until unlock or the process's end — or fails at once when another
// process holds it.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
