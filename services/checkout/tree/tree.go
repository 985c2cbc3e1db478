// Package tree materializes a git commit's tree into a directory object by
// object, refusing any tree whose paths or symlinks could write or point
// outside the directory, and compares trees for the oracle's change set and
// harness-drift checks.
//
// It never uses git archive (which honours export-ignore) nor git checkout
// (which runs filters and hooks): the bytes written are the blobs' own, each
// checked against its object id.
package tree

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"
)

// Git modes of the entries a Tree holds.
const (
	ModeFile       = "100644"
	ModeExecutable = "100755"
	ModeSymlink    = "120000"
	ModeGitlink    = "160000"
)

// maxSymlinkTarget is the longest symlink target accepted (PATH_MAX).
const maxSymlinkTarget = 4096

// Entry is one file of a tree.
type Entry struct {
	// Path is slash-separated and relative to the tree root.
	Path string
	// Mode is git's octal mode: ModeFile, ModeExecutable or ModeSymlink
	// (any mode git lists for an entry of LeftOut).
	Mode string
	// Type is git's object type, always "blob" (for an entry of LeftOut,
	// whatever git lists: "commit" for a gitlink).
	Type string
	// ObjectID is the blob's hex object id.
	ObjectID string
	// Target is a symlink's target (already checked); empty otherwise.
	Target string
}

// Tree is the checked listing of one commit's tree.
type Tree struct {
	repoDir string
	// alternates are the absolute Options.AlternateObjectDirs the tree was
	// listed with; its blobs are read with them too.
	alternates []string
	commit     string
	format     string
	entries    []Entry // sorted by Path, bytewise
	byPath     map[string]int
	// leftOut are the entries a lenient listing refused (see
	// Options.LeaveOut), sorted by Path.
	leftOut []LeftOut
	// blobs keeps what ReadFiles read; trees made from this one by
	// Overlay share it.
	blobs *blobCache
}

// LeftOut is an entry of a commit's tree that a tree listed with
// Options.LeaveOut does not hold, because List would have refused it.
type LeftOut struct {
	// Entry is the entry as git lists it; Target is set for a symlink
	// refused for its target.
	Entry
	// Reason and Detail say why it was left out, as a *RefusedError would.
	Reason Reason
	Detail string
}

// LeftOut returns the entries a tree listed with Options.LeaveOut left out,
// sorted by path (bytewise); none for a tree listed without it.
func (t *Tree) LeftOut() []LeftOut {
	if t == nil {
		return nil
	}
	return append([]LeftOut(nil), t.leftOut...)
}

// LookupAll returns the entry at path, held or left out.
func (t *Tree) LookupAll(p string) (Entry, bool) {
	if e, ok := t.Lookup(p); ok {
		return e, true
	}
	lo, ok := t.LookupLeftOut(p)
	return lo.Entry, ok
}

// LookupLeftOut returns the left-out entry at path.
func (t *Tree) LookupLeftOut(p string) (LeftOut, bool) {
	if t == nil {
		return LeftOut{}, false
	}
	i, ok := sort.Find(len(t.leftOut), func(i int) int { return strings.Compare(p, t.leftOut[i].Path) })
	if !ok {
		return LeftOut{}, false
	}
	return t.leftOut[i], true
}

// Commit returns the full commit id the tree was listed from.
func (t *Tree) Commit() string {
	if t == nil {
		return ""
	}
	return t.commit
}

// ObjectFormat returns FormatSHA1 or FormatSHA256.
func (t *Tree) ObjectFormat() string {
	if t == nil {
		return ""
	}
	return t.format
}

// Entries returns a copy of the entries, sorted by path (bytewise).
func (t *Tree) Entries() []Entry {
	if t == nil {
		return nil
	}
	return append([]Entry(nil), t.entries...)
}

// Lookup returns the entry at path.
func (t *Tree) Lookup(p string) (Entry, bool) {
	if t == nil {
		return Entry{}, false
	}
	i, ok := t.byPath[p]
	if !ok {
		return Entry{}, false
	}
	return t.entries[i], true
}

// Digest returns the hex SHA-256 of the canonical listing: one line
// "mode type oid\tpath\n" per entry, the lines sorted bytewise. For trees
// whose paths need no quoting and that left nothing out it equals
// `git ls-tree -r --full-tree C | LC_ALL=C sort | sha256sum`. Left-out
// entries are not part of it: it names what is materialized.
func (t *Tree) Digest() string {
	if t == nil {
		t = &Tree{}
	}
	lines := make([]string, len(t.entries))
	for i, e := range t.entries {
		lines[i] = e.Mode + " " + e.Type + " " + e.ObjectID + "\t" + e.Path + "\n"
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// List resolves commit in the repository at repoDir to a full commit id and
// lists its tree. It refuses (with a *RefusedError) any tree holding a path
// that is unsafe to write, a submodule, a path through a symlink, or a
// symlink whose target is absolute or leaves the tree (with
// Options.LeaveOut, it leaves such entries out instead). Symlink targets
// are read through git cat-file and checked against their object ids.
func List(ctx context.Context, repoDir, commit string) (*Tree, error) {
	return ListWith(ctx, repoDir, commit, Options{})
}

// ListWith is List with options. The tree remembers them: Materialize and
// ReadFiles read its blobs the same way.
func ListWith(ctx context.Context, repoDir, commit string, opts Options) (*Tree, error) {
	alternates, err := opts.alternates()
	if err != nil {
		return nil, err
	}
	g, err := newGit(repoDir, alternates)
	if err != nil {
		return nil, err
	}
	id, err := resolveCommit(ctx, g, commit)
	if err != nil {
		return nil, err
	}
	format, hexLen, err := formatOf(id)
	if err != nil {
		return nil, err
	}
	out, err := g.output(ctx, "ls-tree", "-r", "-z", "--full-tree", id)
	if err != nil {
		return nil, err
	}
	raw, err := parseLsTree(out, hexLen)
	if err != nil {
		return nil, err
	}
	t, err := buildTree(raw, opts.LeaveOut)
	if err != nil {
		return nil, err
	}
	t.repoDir, t.alternates, t.commit, t.format = g.dir, alternates, id, format
	t.blobs = &blobCache{}
	if err := t.readTargets(ctx, g, opts.LeaveOut); err != nil {
		return nil, err
	}
	return t, nil
}

// resolveCommit turns a revision into a full commit id, telling a missing
// revision from one that names something other than a commit.
func resolveCommit(ctx context.Context, g *git, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n\r") {
		return "", fmt.Errorf("tree: revision %q: %w", rev, ErrRevision)
	}
	// "<rev>:<path>^{commit}" names a path, not a peeled commit, so the id
	// rev-parse prints is trusted only once cat-file says it is a commit.
	out, err := g.output(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err == nil {
		id := string(bytes.TrimSuffix(out, []byte("\n")))
		if _, _, ferr := formatOf(id); ferr != nil || !isHexID(id, len(id)) {
			return "", fmt.Errorf("tree: rev-parse printed %q: %w", out, ErrGitOutput)
		}
		if id == rev {
			// A full object id that peels to itself is a commit: a tag
			// peels to another object, anything else to none.
			return id, nil
		}
		typ, terr := g.output(ctx, "cat-file", "-t", id)
		if terr != nil {
			return "", terr
		}
		if t := strings.TrimSpace(string(typ)); t != "commit" {
			return "", fmt.Errorf("tree: revision %q names %s %s: %w", rev, t, id, ErrNotCommit)
		}
		return id, nil
	}
	if ctx.Err() != nil {
		return "", err
	}
	obj, oerr := g.output(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if oerr != nil {
		if ctx.Err() != nil {
			return "", oerr
		}
		return "", fmt.Errorf("tree: revision %q: %w", rev, ErrRevision)
	}
	id := string(bytes.TrimSuffix(obj, []byte("\n")))
	typ, terr := g.output(ctx, "cat-file", "-t", id)
	if terr != nil {
		if ctx.Err() != nil {
			return "", terr
		}
		return "", fmt.Errorf("tree: revision %q: no object %s: %w", rev, id, ErrRevision)
	}
	return "", fmt.Errorf("tree: revision %q names %s %s: %w", rev, strings.TrimSpace(string(typ)), id, ErrNotCommit)
}

// buildTree judges parsed entries and indexes them. With leaveOut, an
// entry it would refuse is left out (see Tree.LeftOut) instead, and an
// entry below one that is not a directory is the one left out.
func buildTree(raw []rawEntry, leaveOut bool) (*Tree, error) {
	t := &Tree{byPath: make(map[string]int, len(raw))}
	refuse := func(r rawEntry, err *RefusedError) error {
		if !leaveOut {
			return err
		}
		t.leftOut = append(t.leftOut, LeftOut{Entry: Entry{Path: r.path, Mode: r.mode, Type: r.typ, ObjectID: r.oid}, Reason: err.Reason, Detail: err.Detail})
		return nil
	}
	for _, r := range raw {
		var refusal *RefusedError
		switch err := checkPath(r.path); {
		case err != nil:
			refusal = err.(*RefusedError)
		case r.mode == ModeGitlink:
			refusal = &RefusedError{Path: r.path, Reason: ReasonSubmodule, Detail: "gitlink to " + r.oid}
		case (r.mode == ModeFile || r.mode == ModeExecutable || r.mode == ModeSymlink) && r.typ == "blob":
			if _, dup := t.byPath[r.path]; dup {
				refusal = &RefusedError{Path: r.path, Reason: ReasonConflict, Detail: "listed twice"}
			}
		default:
			refusal = &RefusedError{Path: r.path, Reason: ReasonMode, Detail: r.mode + " " + r.typ}
		}
		if refusal != nil {
			if err := refuse(r, refusal); err != nil {
				return nil, err
			}
			continue
		}
		t.byPath[r.path] = len(t.entries)
		t.entries = append(t.entries, Entry{Path: r.path, Mode: r.mode, Type: r.typ, ObjectID: r.oid})
	}
	sort.Slice(t.entries, func(i, j int) bool { return t.entries[i].Path < t.entries[j].Path })
	for i, e := range t.entries {
		t.byPath[e.Path] = i
	}
	var kept []Entry
	for _, e := range t.entries {
		var refusal *RefusedError
		for dir := path.Dir(e.Path); dir != "." && refusal == nil; dir = path.Dir(dir) {
			i, ok := t.byPath[dir]
			switch {
			case !ok:
			case t.entries[i].Mode == ModeSymlink:
				refusal = &RefusedError{Path: e.Path, Reason: ReasonThroughSymlink, Detail: dir + " is a symlink"}
			default:
				refusal = &RefusedError{Path: e.Path, Reason: ReasonConflict, Detail: dir + " is a file"}
			}
		}
		if refusal != nil {
			if err := refuse(rawEntry{mode: e.Mode, typ: e.Type, oid: e.ObjectID, path: e.Path}, refusal); err != nil {
				return nil, err
			}
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) != len(t.entries) {
		t.setEntries(kept)
	}
	t.sortLeftOut()
	return t, nil
}

// setEntries replaces the entries (sorted by path) and their index.
func (t *Tree) setEntries(entries []Entry) {
	t.entries = entries
	t.byPath = make(map[string]int, len(entries))
	for i, e := range entries {
		t.byPath[e.Path] = i
	}
}

// sortLeftOut sorts the left-out entries by path.
func (t *Tree) sortLeftOut() {
	sort.SliceStable(t.leftOut, func(i, j int) bool { return t.leftOut[i].Path < t.leftOut[j].Path })
}

// checkPath refuses a path that is not a clean, relative, slash-separated
// path of ordinary components.
func checkPath(p string) error {
	for i := 0; i < len(p); i++ {
		if p[i] < 0x20 || p[i] == 0x7f {
			return &RefusedError{Path: p, Reason: ReasonControl, Detail: fmt.Sprintf("byte %#02x", p[i])}
		}
	}
	if !utf8.ValidString(p) {
		return &RefusedError{Path: p, Reason: ReasonEncoding}
	}
	if strings.HasPrefix(p, "/") {
		return &RefusedError{Path: p, Reason: ReasonAbsolute}
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "":
			return &RefusedError{Path: p, Reason: ReasonEmptyComponent}
		case c == ".":
			return &RefusedError{Path: p, Reason: ReasonDot}
		case c == "..":
			return &RefusedError{Path: p, Reason: ReasonDotDot}
		case strings.EqualFold(c, ".git"):
			return &RefusedError{Path: p, Reason: ReasonDotGit}
		}
	}
	return nil
}

// checkTarget refuses a symlink target that is absolute, leaves the tree
// root when resolved from the link's directory, passes through another
// symlink of the tree, or names ".git".
func (t *Tree) checkTarget(link, target string) error {
	refuse := func(r Reason, detail string) error {
		return &RefusedError{Path: link, Reason: r, Detail: detail}
	}
	if target == "" || len(target) > maxSymlinkTarget || strings.ContainsAny(target, "\x00\n\r") {
		return refuse(ReasonSymlinkTarget, fmt.Sprintf("target %q", target))
	}
	if strings.HasPrefix(target, "/") {
		return refuse(ReasonSymlinkAbsolute, "target "+target)
	}
	var stack []string
	if dir := path.Dir(link); dir != "." {
		stack = strings.Split(dir, "/")
	}
	var comps []string
	for _, c := range strings.Split(target, "/") {
		if c != "" && c != "." {
			comps = append(comps, c)
		}
	}
	for i, c := range comps {
		if c == ".." {
			if len(stack) == 0 {
				return refuse(ReasonSymlinkEscape, "target "+target+" leaves the tree")
			}
			stack = stack[:len(stack)-1]
			continue
		}
		if strings.EqualFold(c, ".git") {
			return refuse(ReasonSymlinkEscape, "target "+target+" names .git")
		}
		stack = append(stack, c)
		if i == len(comps)-1 {
			break
		}
		if e, ok := t.Lookup(strings.Join(stack, "/")); ok && e.Mode == ModeSymlink {
			return refuse(ReasonSymlinkEscape, "target "+target+" passes through symlink "+e.Path)
		}
	}
	return nil
}

// readTargets reads every symlink's target through one cat-file process and
// checks it. With leaveOut, a symlink it would refuse is left out instead,
// and the others are checked again without it until none is refused.
func (t *Tree) readTargets(ctx context.Context, g *git, leaveOut bool) (err error) {
	var links []int
	for i, e := range t.entries {
		if e.Mode == ModeSymlink {
			links = append(links, i)
		}
	}
	if len(links) == 0 {
		return nil
	}
	cf, err := g.startCatFile(ctx, t.format)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, cf.close()) }()
	tooLong := map[string]bool{}
	for _, i := range links {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("tree: %w", err)
		}
		var buf bytes.Buffer
		e := &t.entries[i]
		if _, err := cf.blob(e.ObjectID, &buf, maxSymlinkTarget); err != nil {
			if errors.Is(err, errTooLarge) {
				if !leaveOut {
					return &RefusedError{Path: e.Path, Reason: ReasonSymlinkTarget, Detail: "target longer than 4096 bytes"}
				}
				tooLong[e.Path] = true
				continue
			}
			if ctx.Err() != nil {
				return errors.Join(ctx.Err(), err)
			}
			return err
		}
		e.Target = buf.String()
	}
	for {
		refused := map[string]*RefusedError{}
		for _, e := range t.entries {
			if e.Mode != ModeSymlink {
				continue
			}
			var err *RefusedError
			if tooLong[e.Path] {
				err = &RefusedError{Path: e.Path, Reason: ReasonSymlinkTarget, Detail: "target longer than 4096 bytes"}
			} else if cerr := t.checkTarget(e.Path, e.Target); cerr != nil && !errors.As(cerr, &err) {
				return cerr
			}
			if err == nil {
				continue
			}
			if !leaveOut {
				return err
			}
			refused[e.Path] = err
		}
		if len(refused) == 0 {
			return nil
		}
		var kept []Entry
		for _, e := range t.entries {
			if r, ok := refused[e.Path]; ok {
				t.leftOut = append(t.leftOut, LeftOut{Entry: e, Reason: r.Reason, Detail: r.Detail})
				continue
			}
			kept = append(kept, e)
		}
		t.setEntries(kept)
		t.sortLeftOut()
	}
}
