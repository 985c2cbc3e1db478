package tree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Overlay returns a new tree holding t's entries with each of paths taken
// from src instead: replaced, added, or removed where src has no such file.
// A path in neither tree is an error wrapping ErrNotFound. Both trees must
// have been listed from the same repository with the same Options (else
// ErrOptions), so that every blob of the result can be read. The result is
// checked as List checks a tree — no path through a symlink, no file where
// a directory is needed, every symlink target inside the tree — and a
// refusal is a *RefusedError. The result has no commit: Commit returns "".
func (t *Tree) Overlay(src *Tree, paths []string) (*Tree, error) {
	if t == nil || src == nil {
		return nil, fmt.Errorf("tree: overlay of a nil tree: %w", ErrOptions)
	}
	if !sameSource(t, src) {
		return nil, fmt.Errorf("tree: overlay of trees listed from different repositories or options: %w", ErrOptions)
	}
	take := make(map[string]bool, len(paths))
	for _, p := range paths {
		_, inT := t.Lookup(p)
		_, inSrc := src.Lookup(p)
		if !inT && !inSrc {
			return nil, fmt.Errorf("tree: overlay: %s: %w", strconv.Quote(p), ErrNotFound)
		}
		take[p] = true
	}
	var entries []Entry
	for _, e := range t.entries {
		if !take[e.Path] {
			entries = append(entries, e)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(take)) {
		if e, ok := src.Lookup(p); ok {
			entries = append(entries, e)
		}
	}
	return t.rebuilt(entries)
}

// rebuilt returns a tree of entries whose blobs are read as t's, checked
// as List checks a tree.
func (t *Tree) rebuilt(entries []Entry) (*Tree, error) {
	raw := make([]rawEntry, len(entries))
	targets := make(map[string]string)
	for i, e := range entries {
		raw[i] = rawEntry{mode: e.Mode, typ: e.Type, oid: e.ObjectID, path: e.Path}
		if e.Mode == ModeSymlink {
			targets[e.Path] = e.Target
		}
	}
	out, err := buildTree(raw, false)
	if err != nil {
		return nil, err
	}
	out.repoDir, out.alternates, out.format, out.blobs = t.repoDir, t.alternates, t.format, t.blobs
	for i := range out.entries {
		e := &out.entries[i]
		if e.Mode == ModeSymlink {
			e.Target = targets[e.Path]
		}
	}
	for _, e := range out.entries {
		if e.Mode == ModeSymlink {
			if err := out.checkTarget(e.Path, e.Target); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// ReadFiles returns the content of each named file of t (for a symlink, its
// target), read through one `git cat-file --batch` process and checked
// against its object id; blobs t (or a tree it was overlaid on) read
// before come from its bounded cache, and when every one does, no process
// starts. A blob t left out (see Options.LeaveOut) can be read too:
// reading writes nothing. A path t neither holds nor left out as a blob is
// an error wrapping ErrNotFound.
func (t *Tree) ReadFiles(ctx context.Context, paths []string) (_ map[string][]byte, err error) {
	if t == nil {
		return nil, fmt.Errorf("tree: read from a nil tree: %w", ErrOptions)
	}
	var want []Entry
	for _, p := range paths {
		e, ok := t.LookupAll(p)
		if !ok || e.Type != "blob" {
			return nil, fmt.Errorf("tree: read %s: %w", strconv.Quote(p), ErrNotFound)
		}
		want = append(want, e)
	}
	out := make(map[string][]byte, len(want))
	var missing []Entry
	for _, e := range want {
		if _, done := out[e.Path]; done {
			continue
		}
		if b, ok := t.blobs.get(e.ObjectID); ok {
			out[e.Path] = b
			continue
		}
		out[e.Path] = nil // listed once in missing
		missing = append(missing, e)
	}
	if len(missing) == 0 {
		return out, nil
	}
	g, err := newGit(t.repoDir, t.alternates)
	if err != nil {
		return nil, err
	}
	cf, err := g.startCatFile(ctx, t.format)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, cf.close()) }()
	for _, e := range missing {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("tree: read: %w", err)
		}
		var buf bytes.Buffer
		if _, err := cf.blob(e.ObjectID, &buf, -1); err != nil {
			if ctx.Err() != nil {
				return nil, errors.Join(ctx.Err(), err)
			}
			return nil, fmt.Errorf("tree: %s: %w", strconv.Quote(e.Path), err)
		}
		out[e.Path] = buf.Bytes()
		t.blobs.put(e.ObjectID, out[e.Path])
	}
	return out, nil
}

// WithFile returns a new tree holding t's entries and one more: a regular
// file at p whose content is the blob objectID, which git must be able to
// read the way t's blobs are read (from the repository or one of t's
// alternate object directories). p must not be in t, left out or not
// (ErrOptions otherwise), and the result is checked as Overlay checks
// its result. The result has no commit: Commit returns "".
func (t *Tree) WithFile(p, objectID string) (*Tree, error) {
	if t == nil {
		return nil, fmt.Errorf("tree: add a file to a nil tree: %w", ErrOptions)
	}
	if _, ok := t.LookupAll(p); ok {
		return nil, fmt.Errorf("tree: add %s: the tree already holds it: %w", strconv.Quote(p), ErrOptions)
	}
	if _, ok := t.LookupLeftOut(p); ok {
		return nil, fmt.Errorf("tree: add %s: the tree left it out: %w", strconv.Quote(p), ErrOptions)
	}
	if err := checkPath(p); err != nil {
		return nil, err
	}
	if n, err := hexLenOf(t.format); err != nil || !isHexID(objectID, n) {
		return nil, fmt.Errorf("tree: add %s: %q is no %s object id: %w", strconv.Quote(p), objectID, t.format, ErrOptions)
	}
	out, err := t.rebuilt(append(slices.Clone(t.entries), Entry{Path: p, Mode: ModeFile, Type: "blob", ObjectID: objectID}))
	if err != nil {
		return nil, err
	}
	out.leftOut = slices.Clone(t.leftOut)
	return out, nil
}
