package tree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// Permissions written.
const (
	permFile = 0o644
	permExec = 0o755
	permDir  = 0o755
)

// Materialize writes the tree into dstDir, which must be absent (it is
// created, its parent must exist) or an empty directory, and must not be a
// symlink. Every blob is read through one `git cat-file --batch` process and
// checked against its object id; files get 0644 or 0755 by mode, symlinks are
// created as symlinks, directories 0755. Nothing is written through a
// symlink: all writes go through an os.Root at dstDir, every parent is
// checked with Lstat and files are opened O_CREATE|O_EXCL|O_NOFOLLOW.
// Symlinks are created last. On error dstDir holds a partial tree that the
// caller must discard.
func (t *Tree) Materialize(ctx context.Context, dstDir string) (err error) {
	if err := prepareDestination(dstDir); err != nil {
		return err
	}
	root, err := os.OpenRoot(dstDir)
	if err != nil {
		return fmt.Errorf("tree: destination: %w", err)
	}
	defer func() { err = errors.Join(err, root.Close()) }()
	g, err := newGit(t.repoDir, t.alternates)
	if err != nil {
		return err
	}
	w := &writer{root: root, dirs: map[string]bool{}}
	if hasBlobFiles(t.entries) {
		cf, err := g.startCatFile(ctx, t.format)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, cf.close()) }()
		for _, e := range t.entries {
			if e.Mode == ModeSymlink {
				continue
			}
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("tree: materialize: %w", err)
			}
			if err := w.file(cf, e); err != nil {
				if ctx.Err() != nil {
					return errors.Join(ctx.Err(), err)
				}
				return err
			}
		}
	}
	for _, e := range t.entries {
		if e.Mode != ModeSymlink {
			continue
		}
		if err := w.symlink(e); err != nil {
			return err
		}
	}
	return nil
}

func hasBlobFiles(entries []Entry) bool {
	for _, e := range entries {
		if e.Mode != ModeSymlink {
			return true
		}
	}
	return false
}

// prepareDestination creates dst or checks that it is an empty directory
// and not a symlink.
func prepareDestination(dst string) error {
	fi, err := os.Lstat(dst)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dst, permDir); err != nil {
			return fmt.Errorf("tree: destination: %w", err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("tree: destination: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("tree: destination %q is a %v: %w", dst, fi.Mode().Type(), ErrDestination)
	}
	d, err := os.Open(dst)
	if err != nil {
		return fmt.Errorf("tree: destination: %w", err)
	}
	names, rerr := d.Readdirnames(1)
	cerr := d.Close()
	if rerr != nil && !errors.Is(rerr, io.EOF) {
		return fmt.Errorf("tree: destination: %w", rerr)
	}
	if cerr != nil {
		return fmt.Errorf("tree: destination: %w", cerr)
	}
	if len(names) > 0 {
		return fmt.Errorf("tree: destination %q holds %q: %w", dst, names[0], ErrDestination)
	}
	return nil
}

// writer writes entries below a root, remembering the directories it made.
type writer struct {
	root *os.Root
	dirs map[string]bool
}

// parents makes (or checks) every parent directory of p, refusing any that
// exists as something other than a directory.
func (w *writer) parents(p string) error {
	dir := path.Dir(p)
	if dir == "." || w.dirs[dir] {
		return nil
	}
	if err := w.parents(dir); err != nil {
		return err
	}
	fi, err := w.root.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := w.root.Mkdir(dir, permDir); err != nil {
			return fmt.Errorf("tree: mkdir %q: %w", dir, err)
		}
		if err := w.root.Chmod(dir, permDir); err != nil {
			return fmt.Errorf("tree: chmod %q: %w", dir, err)
		}
	case err != nil:
		return fmt.Errorf("tree: lstat %q: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("tree: parent %q of %q is a %v, not a directory: %w", dir, p, fi.Mode().Type(), ErrDestination)
	}
	w.dirs[dir] = true
	return nil
}

func (w *writer) file(cf *catFile, e Entry) (err error) {
	if err := w.parents(e.Path); err != nil {
		return err
	}
	perm := os.FileMode(permFile)
	if e.Mode == ModeExecutable {
		perm = permExec
	}
	f, err := w.root.OpenFile(e.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return fmt.Errorf("tree: create %q: %w", e.Path, err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("tree: close %q: %w", e.Path, cerr))
		}
	}()
	if _, err := cf.blob(e.ObjectID, f, -1); err != nil {
		return fmt.Errorf("tree: %q: %w", e.Path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("tree: chmod %q: %w", e.Path, err)
	}
	return nil
}

func (w *writer) symlink(e Entry) error {
	if err := w.parents(e.Path); err != nil {
		return err
	}
	if err := w.root.Symlink(e.Target, e.Path); err != nil {
		return fmt.Errorf("tree: symlink %q: %w", e.Path, err)
	}
	return nil
}
