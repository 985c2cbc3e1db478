// Package realworld holds sealgate's real-world corpus: fixes that the
// maintainers of public Go modules made, each between two released versions
// the Go module proxy serves, and builds a git repository for each fix from
// the module zips.
//
// A fix's repository has three commits:
//
//   - parent (branch main): the module at Before, with the bug;
//   - fixed (branch fix): Before with the fix's files taken from After — every
//     file, or only Fix.Paths when the release holds other changes too;
//   - reverted (branch reintroduced, off fixed): the fix with every changed
//     file that is not a test file (`*_test.go`, anything under testdata/)
//     put back as Before has it — the bug reintroduced, the fix's tests kept.
//
// Two verifications come out of it (Repo.Cases): the honest fix (base
// parent, patch fixed), which a correct gate does not BLOCK and whose claims
// it finds fixed, and the reintroduced bug (base fixed, patch reverted),
// which a correct gate BLOCKs: the claims pass on the base and fail on the
// patch.
//
// The zips come through the go command (`go mod download -json
// MODULE@VERSION`), so they are checked against the checksum database and
// cached in the module cache between runs; the corpus also checks each
// zip's hash against the one recorded in its Fix. Only the fix's own module
// is downloaded, never its dependencies: fetching those is the gate's job.
// Commits are written with git fast-import at fixed dates and identities,
// so commit ids are the same on every machine.
package realworld

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
)

// Kinds of Case.
const (
	// Honest is the upstream fix as committed, verified against its parent.
	Honest = "honest"
	// Reintroduced is the fix with its non-test changes reverted, verified
	// against the fix.
	Reintroduced = "reintroduced"
)

// Version is one released version of a module and the hash of its zip.
type Version struct {
	// Version is the module version, e.g. v1.14.3.
	Version string
	// Sum is the zip's hash as go.sum records it ("h1:…").
	Sum string
}

// Fix is one upstream fix.
type Fix struct {
	// Name identifies the fix in the corpus: lower case, the module's short
	// name first.
	Name string
	// Module is the module path.
	Module string
	// Before is the version with the bug; After the first version with
	// the fix.
	Before, After Version
	// Paths are the files of the fix, slash-separated, relative to the
	// module root, taken from After over Before. Empty means every file
	// that differs: the whole release is the fix.
	Paths []string
	// Claims are the tests that prove the fix, in sealgate's claim syntax
	// (go:./pkg:TestName): they fail on Before's code with After's tests
	// and pass on After.
	Claims []string
	// Commit links the upstream fix commit.
	Commit string
	// About says in one line what the fix fixes.
	About string
	// Measured, when set, says why the acceptance tests leave the fix to
	// `corpus measure` (which measures every fix) instead of verifying it
	// on every CI run.
	Measured string
}

// Repo is a built fix repository.
type Repo struct {
	// Dir is the repository's working tree, checked out at Parent.
	Dir string
	// Fix is the fix the repository holds.
	Fix Fix
	// Parent, Fixed and Reverted are the full commit ids of the three
	// commits (see the package documentation).
	Parent, Fixed, Reverted string
	// GoVersion is the `go` line of the module's go.mod at Before, or ""
	// when it has none (the go command reads that as go 1.16).
	GoVersion string
}

// Case is one verification: a base, a patch and the claims.
type Case struct {
	// Kind is Honest or Reintroduced.
	Kind string
	// Base and Patch are commit ids in the repository.
	Base, Patch string
	// Claims are the fix's claims.
	Claims []string
}

// Cases returns the repository's two verifications: the honest fix, then
// the reintroduced bug.
func (r *Repo) Cases() []Case {
	return []Case{
		{Kind: Honest, Base: r.Parent, Patch: r.Fixed, Claims: slices.Clone(r.Fix.Claims)},
		{Kind: Reintroduced, Base: r.Fixed, Patch: r.Reverted, Claims: slices.Clone(r.Fix.Claims)},
	}
}

// Tree is a module's files: slash path relative to the module root to
// content.
type Tree map[string][]byte

// Proxy fetches module zips with the go command, through whatever module
// proxy and module cache its environment names.
type Proxy struct {
	// Go is the go command; "" means "go" on PATH.
	Go string
	// Env is added to the process environment of the go command (later
	// entries win), e.g. GOMODCACHE=DIR.
	Env []string
}

// Zip downloads module@v.Version into the module cache, unless it is there
// already, checks the zip's hash against v.Sum and returns the zip's path.
func (p Proxy) Zip(ctx context.Context, mod string, v Version) (string, error) {
	dir, err := os.MkdirTemp("", "realworld-download-")
	if err != nil {
		return "", fmt.Errorf("realworld: %w", err)
	}
	defer os.RemoveAll(dir)
	gocmd := p.Go
	if gocmd == "" {
		gocmd = "go"
	}
	cmd := exec.CommandContext(ctx, gocmd, "mod", "download", "-json", mod+"@"+v.Version)
	cmd.Dir = dir // outside any module
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GO111MODULE=on", "GOFLAGS="), p.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	var out struct {
		Zip   string
		Sum   string
		Error string
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Error != "" || runErr != nil {
		return "", fmt.Errorf("realworld: go mod download %s@%s: %s", mod, v.Version,
			firstNonEmpty(out.Error, strings.TrimSpace(stderr.String()), errString(runErr), errString(err)))
	}
	if out.Sum != v.Sum {
		return "", fmt.Errorf("realworld: %s@%s: the go command reports %s, the corpus records %s", mod, v.Version, out.Sum, v.Sum)
	}
	got, err := dirhash.HashZip(out.Zip, dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("realworld: %s@%s: %w", mod, v.Version, err)
	}
	if got != v.Sum {
		return "", fmt.Errorf("realworld: %s: hash %s, want %s", out.Zip, got, v.Sum)
	}
	return out.Zip, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return "no output"
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// maxZipSize bounds what ReadZip reads: the module zip format's own limit.
const maxZipSize = 500 << 20

// ReadZip reads a module zip of mod@version into a Tree. Every file must
// lie under "mod@version/" and have a path git and fast-import can hold
// unquoted; anything else is an error, never skipped.
func ReadZip(name, mod, version string) (Tree, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("realworld: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("realworld: %w", err)
	}
	return readZip(f, fi.Size(), mod, version)
}

func readZip(r io.ReaderAt, size int64, mod, version string) (Tree, error) {
	if size > maxZipSize {
		return nil, fmt.Errorf("realworld: zip of %s@%s is %d bytes, over %d", mod, version, size, maxZipSize)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("realworld: zip of %s@%s: %w", mod, version, err)
	}
	prefix := mod + "@" + version + "/"
	tree := Tree{}
	var total uint64
	for _, zf := range zr.File {
		rel, ok := strings.CutPrefix(zf.Name, prefix)
		if !ok {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %q is outside %s", mod, version, zf.Name, prefix)
		}
		if strings.HasSuffix(rel, "/") {
			continue // a directory entry
		}
		if err := checkPath(rel); err != nil {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %w", mod, version, err)
		}
		if !zf.Mode().IsRegular() {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %s is not a regular file", mod, version, rel)
		}
		if _, dup := tree[rel]; dup {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %s twice", mod, version, rel)
		}
		total += zf.UncompressedSize64
		if total > maxZipSize {
			return nil, fmt.Errorf("realworld: zip of %s@%s: more than %d bytes uncompressed", mod, version, maxZipSize)
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %s: %w", mod, version, rel, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxZipSize+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %s: %w", mod, version, rel, err)
		}
		if uint64(len(data)) != zf.UncompressedSize64 {
			return nil, fmt.Errorf("realworld: zip of %s@%s: %s: %d bytes, header says %d", mod, version, rel, len(data), zf.UncompressedSize64)
		}
		tree[rel] = data
	}
	if len(tree) == 0 {
		return nil, fmt.Errorf("realworld: zip of %s@%s holds no file", mod, version)
	}
	return tree, nil
}

// checkPath refuses a file path the repository cannot hold as it is.
func checkPath(p string) error {
	switch {
	case !fs.ValidPath(p) || p == ".":
		return fmt.Errorf("bad path %q", p)
	case strings.ContainsAny(p, "\"\\\n\r\x00"):
		return fmt.Errorf("path %q has a quote, backslash or control character", p)
	case slices.Contains(strings.Split(p, "/"), ".git"):
		return fmt.Errorf("path %q is inside .git", p)
	}
	return nil
}

// IsTest reports whether a module file is test code or test data: a Go test
// file or anything under a testdata directory. These are what a
// reintroduced bug keeps from the fix.
func IsTest(p string) bool {
	return strings.HasSuffix(p, "_test.go") || slices.Contains(strings.Split(path.Dir(p), "/"), "testdata")
}

// harness are the files whose change is harness drift to the gate: a fix
// that changes one does not fit the corpus.
func harness(p string) bool {
	base := path.Base(p)
	return base == "go.mod" || base == "go.sum" || strings.HasPrefix(base, "go.work")
}

// Apply returns the fixed and the reverted trees of a fix: before with
// paths taken from after (every differing path when paths is empty), and
// the fixed tree with every changed non-test path put back as before has
// it. It refuses a fix that changes nothing, changes no test file or no
// other file, or changes go.mod, go.sum or a go.work file.
func Apply(before, after Tree, paths []string) (fixed, reverted Tree, err error) {
	if len(paths) == 0 {
		paths = changed(before, after)
	}
	fixed = maps.Clone(before)
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return nil, nil, fmt.Errorf("realworld: %w", err)
		}
		data, inAfter := after[p]
		_, inBefore := before[p]
		switch {
		case !inAfter && !inBefore:
			return nil, nil, fmt.Errorf("realworld: %s is in neither version", p)
		case !inAfter:
			delete(fixed, p)
		default:
			fixed[p] = data
		}
	}
	diff := changed(before, fixed)
	var tests, others int
	for _, p := range diff {
		if harness(p) {
			return nil, nil, fmt.Errorf("realworld: the fix changes %s: the gate would judge harness drift, not the fix", p)
		}
		if IsTest(p) {
			tests++
		} else {
			others++
		}
	}
	if tests == 0 || others == 0 {
		return nil, nil, fmt.Errorf("realworld: the fix changes %d test and %d other files, want at least one of each", tests, others)
	}
	reverted = maps.Clone(fixed)
	for _, p := range diff {
		if IsTest(p) {
			continue
		}
		if data, ok := before[p]; ok {
			reverted[p] = data
		} else {
			delete(reverted, p)
		}
	}
	return fixed, reverted, nil
}

// changed returns the sorted paths whose content differs between a and b,
// or that only one of them has.
func changed(a, b Tree) []string {
	var out []string
	for p, da := range a {
		if db, ok := b[p]; !ok || !bytes.Equal(da, db) {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Changed returns the sorted paths that differ between two trees.
func Changed(a, b Tree) []string { return changed(a, b) }

// Check reports what is wrong with a corpus entry on its face: its name,
// module path, versions, sums, paths and claims.
func (f Fix) Check() error {
	var errs []error
	if f.Name == "" || strings.ToLower(f.Name) != f.Name || strings.ContainsAny(f.Name, " /:") {
		errs = append(errs, fmt.Errorf("name %q: want lower case without spaces, slashes or colons", f.Name))
	}
	if err := module.CheckPath(f.Module); err != nil {
		errs = append(errs, err)
	}
	for _, v := range []Version{f.Before, f.After} {
		if err := module.Check(f.Module, v.Version); err != nil {
			errs = append(errs, err)
		}
		if !strings.HasPrefix(v.Sum, "h1:") {
			errs = append(errs, fmt.Errorf("%s: sum %q is not an h1: hash", v.Version, v.Sum))
		}
	}
	if f.Before.Version == f.After.Version {
		errs = append(errs, fmt.Errorf("before and after are both %s", f.Before.Version))
	}
	for _, p := range f.Paths {
		if err := checkPath(p); err != nil {
			errs = append(errs, err)
		}
	}
	if !slices.IsSorted(f.Paths) || len(slices.Compact(slices.Clone(f.Paths))) != len(f.Paths) {
		errs = append(errs, errors.New("paths are not sorted and unique"))
	}
	if len(f.Claims) == 0 {
		errs = append(errs, errors.New("no claims"))
	}
	for _, c := range f.Claims {
		rest, ok := strings.CutPrefix(c, "go:")
		pkg, test, ok2 := strings.Cut(rest, ":")
		if !ok || !ok2 || (pkg != "." && !strings.HasPrefix(pkg, "./")) || !strings.HasPrefix(test, "Test") || strings.ContainsAny(test, " /") {
			errs = append(errs, fmt.Errorf("claim %q: want go:./pkg:TestName", c))
		}
	}
	if !strings.HasPrefix(f.Commit, "https://") || f.About == "" {
		errs = append(errs, errors.New("want an https link to the upstream commit and a one-line description"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("realworld: fix %q: %w", f.Name, err)
	}
	return nil
}

// Load downloads a fix's two versions and returns the trees of the three
// commits: the parent (Before), the fix and the reintroduced bug.
func Load(ctx context.Context, f Fix, p Proxy) (parent, fixed, reverted Tree, err error) {
	if err := f.Check(); err != nil {
		return nil, nil, nil, err
	}
	trees := make([]Tree, 2)
	for i, v := range []Version{f.Before, f.After} {
		name, err := p.Zip(ctx, f.Module, v)
		if err != nil {
			return nil, nil, nil, err
		}
		if trees[i], err = ReadZip(name, f.Module, v.Version); err != nil {
			return nil, nil, nil, err
		}
	}
	fixed, reverted, err = Apply(trees[0], trees[1], f.Paths)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("realworld: fix %q: %w", f.Name, err)
	}
	return trees[0], fixed, reverted, nil
}

// Build downloads a fix's versions and creates its repository in dir, which
// must be empty or absent.
func Build(ctx context.Context, dir string, f Fix, p Proxy) (*Repo, error) {
	parent, fixed, reverted, err := Load(ctx, f, p)
	if err != nil {
		return nil, err
	}
	return Commit(ctx, dir, f, parent, fixed, reverted)
}

// epoch is the date of the parent commit; the fix is one hour later, the
// reintroduced bug two.
func epoch() time.Time { return time.Date(2025, time.January, 1, 9, 0, 0, 0, time.UTC) }

// Commit creates the repository of fix f from its three trees in dir, which
// must be empty or absent.
func Commit(ctx context.Context, dir string, f Fix, parent, fixed, reverted Tree) (*Repo, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("realworld: %w", err)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("realworld: %s is not empty", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("realworld: %w", err)
	}
	g := git{dir: dir}
	if _, err := g.run(ctx, nil, "init", "--quiet", "--template=", "--object-format=sha1", "--initial-branch=main"); err != nil {
		return nil, err
	}
	commits := []struct {
		ref, msg string
		tree     Tree
	}{
		{"refs/heads/main", fmt.Sprintf("%s %s\n\nThe module as released, with the bug the next commit fixes.\n", f.Module, f.Before.Version), parent},
		{"refs/heads/fix", fmt.Sprintf("%s: fix from %s %s\n\n%s\n\nUpstream: %s\n", f.Name, f.Module, f.After.Version, f.About, f.Commit), fixed},
		{"refs/heads/reintroduced", fmt.Sprintf("%s: reintroduce the bug\n\nThe fix's non-test changes reverted; its tests kept.\n", f.Name), reverted},
	}
	var stream bytes.Buffer
	w := bufio.NewWriter(&stream)
	marks := map[string]int{} // content → blob mark
	next := 1
	for _, c := range commits {
		for _, p := range slices.Sorted(maps.Keys(c.tree)) {
			key := string(c.tree[p])
			if _, ok := marks[key]; ok {
				continue
			}
			marks[key] = next
			fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n", next, len(c.tree[p]))
			w.Write(c.tree[p])
			w.WriteString("\n")
			next++
		}
	}
	const ident = "sealgate corpus <corpus@sealgate.invalid>"
	for i, c := range commits {
		when := strconv.FormatInt(epoch().Add(time.Duration(i)*time.Hour).Unix(), 10) + " +0000"
		fmt.Fprintf(w, "commit %s\nmark :%d\nauthor %s %s\ncommitter %s %s\ndata %d\n%s", c.ref, next+i, ident, when, ident, when, len(c.msg), c.msg)
		if i > 0 {
			fmt.Fprintf(w, "from :%d\n", next+i-1)
		}
		w.WriteString("deleteall\n")
		for _, p := range slices.Sorted(maps.Keys(c.tree)) {
			fmt.Fprintf(w, "M 100644 :%d %s\n", marks[string(c.tree[p])], p)
		}
		w.WriteString("\n")
	}
	w.WriteString("done\n")
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("realworld: %w", err)
	}
	if _, err := g.run(ctx, &stream, "fast-import", "--quiet", "--done"); err != nil {
		return nil, err
	}
	if _, err := g.run(ctx, nil, "reset", "--quiet", "--hard", "main"); err != nil {
		return nil, err
	}
	ids := make([]string, len(commits))
	for i, c := range commits {
		if ids[i], err = g.run(ctx, nil, "rev-parse", "--verify", c.ref+"^{commit}"); err != nil {
			return nil, err
		}
	}
	return &Repo{Dir: dir, Fix: f, Parent: ids[0], Fixed: ids[1], Reverted: ids[2], GoVersion: goLine(parent["go.mod"])}, nil
}

// goLine returns the version of go.mod's go directive, or "".
func goLine(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// git runs the git command line in one repository.
type git struct{ dir string }

// run runs git with args, stdin (may be nil) and a fixed environment, and
// returns its trimmed standard output.
func (g git) run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.dir
	cmd.Stdin = stdin
	// Nothing of the caller's configuration or identity may change a
	// commit id.
	cmd.Env = []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
		"HOME=" + os.DevNull,
		"LC_ALL=C",
		"PATH=" + os.Getenv("PATH"),
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("realworld: git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}
