// Package checkout is the checkout service's domain logic: it turns a
// repository, a baseline commit and a patch (a commit or a unified diff)
// into the trees the gate runs, the patch's change set, and the oracle plan.
//
// The patch never writes its own oracle. Baseline test files the patch
// changed or deleted are put back in the oracle tree; tests the patch added
// to an existing test file are deferred until that file's baseline tests
// pass; harness files that differ from the baseline are reported, by
// language; a test file of the patch that carries code running before its
// package's tests (Go: TestMain, init, package-level initializers that run
// code) or pytest hooks or plugins (Python) is reported, since it controls
// the harness of its tests. The static analyses of package inspect report
// the rest the patch reaches: test support outside test files, changed
// data, new probes of the environment, Python source reaching into the
// test runner, and (per claim, Overfitting) special cases of a test's
// inputs. Content the gate does not write (submodules, paths with control
// characters, symlinks out of the tree) is left out of the trees and
// recorded, never a refusal of the run.
//
// The rules know Go and Python (pytest): see Class, Language and
// HarnessLanguage.
//
// Trees are listed and materialized object by object from git (package
// tree), never with git archive or git checkout. A diff is parsed strictly
// first (package patch), then applied in a private repository under the
// caller's scratch directory that reads the user's objects as an alternate,
// so the user's repository, index and configuration are never written. The
// tree git builds is then checked against the parsed diff line by line:
// what the gate measures is exactly what it runs.
package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// Input names what to check out.
type Input struct {
	// Repo is a git repository: a work tree or a bare repository.
	Repo string
	// Baseline is a revision; it is resolved to a full commit id.
	Baseline string
	// PatchCommit is a revision, or "" when PatchDiff is given.
	PatchCommit string
	// PatchDiff is a unified diff (`git diff` or `diff -u` output), when
	// PatchCommit is "".
	PatchDiff []byte
	// TestSupport are extra globs whose files count as test code: they are
	// restored from the baseline and never judged as source. `*` matches
	// across `/`, `?` matches one character other than `/`.
	TestSupport []string
	// Python is the interpreter that reads changed Python sources (with
	// ast, never running them; see inspect.Python): the run's sealed
	// interpreter. Without one, every changed Python source gets a
	// runner-reach finding saying it could not be read.
	Python string
	// TestsCommit is a revision whose test files (IsTestFile) are a
	// grader's held-out tests: every test file where it differs from the
	// baseline is taken from it (added, changed or deleted); its other
	// changes are ignored. TestPatch is the same given as a unified diff
	// against the baseline, which may touch only test files and test data
	// (documents, data and binary files by name). At most one of them; see
	// Checkout.Trusted. With either, an empty patch (an empty PatchDiff, or
	// a PatchCommit with the baseline's tree) is a patch too: the
	// grader's tests judge a change that changes nothing.
	TestsCommit string
	TestPatch   []byte
}

// Checkout is a prepared patch: its trees, its change set and its oracle
// plan. Every list is sorted.
type Checkout struct {
	// Baseline is the baseline commit's tree. Patch is the patch commit's
	// tree or, for a diff, the tree the diff produces on the baseline.
	Baseline, Patch *tree.Tree
	// Oracle is the patch tree with every file of OracleRestored put back
	// as the baseline has it (see MaterializeOracle).
	Oracle *tree.Tree
	// Diff is the patch as a unified diff: the given diff bytes verbatim,
	// or for a commit the output of `git diff` between the two commits
	// (with fixed flags and configuration).
	Diff []byte
	// DiffSHA256 is the hex SHA-256 of Diff: the run's patch digest.
	DiffSHA256 string
	// Changes are the files the patch changes, sorted by Path.
	Changes []Change
	// HarnessDrift are the harness paths of every language (see
	// ClassHarness) whose mode or content differ between the trees, or that
	// exist in one only. HarnessDriftFor selects those of one language.
	HarnessDrift []string
	// OracleRestored are the baseline test files the patch changed or
	// deleted: the oracle tree has them as the baseline does.
	OracleRestored []string
	// Deferred are the tests the patch added to an existing baseline test
	// file (a Go test file, or a Python test module: test_*.py, *_test.py),
	// sorted by File then Test.
	Deferred []Deferred
	// Unparsable are the baseline Go test files and Python test modules the
	// patch modified of which a version does not parse (Go) or cannot be
	// read exactly (Python, see PythonTestFuncs), so the tests the patch
	// added to them cannot be listed exactly. When the baseline version
	// does not parse, every test of the patch version is in Deferred; when
	// the patch version does not parse, none can be listed and the caller
	// must treat the file's new tests as unverifiable.
	Unparsable []string
	// TestHarness are the test files that carry code the patch added or
	// changed and that runs before or around the tests: a Go test file
	// with a finding of rule inspect.RuleTestHarness (TestMain, init, a
	// package-level variable whose initializer runs code, a go:linkname
	// directive — new or changed —, a test-file function such code calls
	// that the patch changed, or a changed test file that does not parse);
	// a Python test file (a .py file of test code) whose pytest hooks,
	// pytest_plugins and the like (see pythonHarnessDecls) are not the
	// baseline version's; a test file that is a symlink. Sorted.
	TestHarness []string
	// EditedTests are the baseline Go tests the patch edits, or whose
	// test-file helpers it edits or deletes, keyed as the suites key them
	// ("<import path>.<Test>"), sorted: when one fails on the patch, the
	// patch changes what it pins — evidence for a human, not a breakage
	// the gate can call.
	EditedTests []string
	// HarnessPackages are the Go packages ("./dir", or "." for the root,
	// as `go test` takes them) with a Go file in TestHarness: the patch
	// changes what runs before their tests, so their claims and suite
	// results can only be judged from runs that compile the baseline's
	// test files. Sorted.
	HarnessPackages []string
	// TestOnlyPackages are the Go packages (as HarnessPackages) of the
	// patch tree that only tests use: imported only by test files, or by
	// non-test files of such packages, at any depth (see
	// inspect.GoImportGraph). Sorted.
	TestOnlyPackages []string
	// Counterfactual are the changed files the counterfactual oracle puts
	// back to the baseline's version (absent there: removed; deleted by
	// the patch: restored) to re-run the claims: test support the patch
	// changed outside the test files the oracle already restores — Go
	// files of TestOnlyPackages, non-test Go files importing testing,
	// Python modules only tests import, and the changed data files (not
	// source, test code nor harness, and materialized) that no production
	// code uses (see testData; production data is judged as code, by
	// mutants). Each has a finding of rule inspect.RuleTestSupport or
	// inspect.RuleDataFile saying why. CounterfactualRestore says what a
	// claim's counterfactual puts back. Sorted.
	Counterfactual []string
	// CounterfactualDecls are the declarations of changed non-test Go
	// files beside the code under test that only tests reach and that the
	// patch changed, as "file#name" ("calc/near.go#near", "#T.m" for a
	// method): the counterfactual oracle puts back their baseline versions
	// (splice.Restore), leaving the rest of the file the patch's. Each has
	// a finding of rule inspect.RuleTestSupport. Sorted.
	CounterfactualDecls []string
	// DataReferenced are the changed data files that non-test source
	// embeds (//go:embed) or names in a string literal: data code may
	// read, which must be judged (mutated). Sorted.
	DataReferenced []string
	// SourceByUse are the Python modules of the patch tree that are test
	// code by their path (under a tests/ directory; never test_*.py,
	// *_test.py or conftest.py, nor a TestSupport glob's) but that
	// non-test code imports, directly or through other such modules: they
	// are source. Their Changes are ClassSource (measured and mutated).
	// The oracle decides what to put back by the baseline's own imports,
	// so a patch cannot exempt a baseline test file from being put back
	// by importing it. Sorted.
	SourceByUse []string
	// Findings are everything the static analyses of package inspect
	// found, of every rule, sorted by inspect.Compare. FindingsOf selects
	// one rule.
	Findings []inspect.Finding
	// Submodules are the gitlinks both trees hold at the same path with the
	// same commit: the patch does not touch them, and they are left out of
	// every tree the gate materializes (their content is another
	// repository's). Sorted by Path.
	Submodules []Submodule
	// Unjudgeable is the content the gate refuses to materialize, with
	// why, sorted by Path: a gitlink the patch adds, changes or removes,
	// a path with a control character, a path through a symlink, a
	// symlink leaving the tree, an unsupported mode (in either tree), and
	// baseline test files that cannot be put back into the patch tree.
	// The trees hold everything else. When it is not empty what the gate
	// runs is not the patch: the run cannot be judged and its verdict is
	// INCONCLUSIVE naming these, whatever else is measured.
	Unjudgeable []Unjudgeable
	// BaselineCommit is the baseline's full commit id. PatchCommit is the
	// patch's: the commit given, or the one the diff makes on the
	// baseline. (With trusted tests, Baseline and Patch are the commits'
	// trees with the trusted tests laid over: their Commit is "".)
	BaselineCommit, PatchCommit string
	// Trusted are the paths whose content the trusted tests decide
	// (Input.TestsCommit or Input.TestPatch), sorted: Baseline and Patch
	// hold them as the trusted tests have them, so they judge both sides
	// as the baseline's tests do. TrustedCommit is TestsCommit's full id;
	// TrustedPatchSHA256 the hex SHA-256 of TestPatch.
	Trusted                           []string
	TrustedCommit, TrustedPatchSHA256 string
	// TrustedOverridden are the paths of Trusted the patch changes too:
	// its versions are discarded (the trusted tests' win) and they are
	// not in Changes. Sorted.
	TrustedOverridden []string
	// GoMod is the go.mod the gate wrote at the root of both trees because
	// the repository has none (a pre-module layout; see SynthesizedGoMod),
	// nil when it has one or is no Go repository.
	GoMod *SynthesizedGoMod

	// listedBase and listedPatch are the commits' trees as listed, with
	// what they left out (the trees laid over with trusted tests have no
	// left-out entries of their own).
	listedBase, listedPatch *tree.Tree
	testSupport             []string
	// goSupport and baseSupport are the import graphs of the patch's and
	// the baseline's Go packages (baseSupport: zero when the patch changes
	// no Go source).
	goSupport, baseSupport inspect.GoTestSupport
	// pythonRefs are the string literals of the patch's non-test Python
	// files, for the data-file rule.
	pythonRefs []inspect.SourceRefs
	// python is Input.Python; pySources holds what the script read of the
	// changed Python sources, by path (see Overfitting).
	python    string
	pySources map[string]pySource
}

// pySource is what the script read of a changed Python source's two
// versions.
type pySource struct {
	decisions []inspect.Decision
	baseLits  []inspect.Lit
	err       string // the patch version does not parse (or was not read)
}

// Submodule is a gitlink the patch leaves as it is.
type Submodule struct {
	// Path is the gitlink's path; Commit the commit it names.
	Path, Commit string
}

// Unjudgeable is one piece of content the gate does not materialize.
type Unjudgeable struct {
	// Path is the path as git lists it (it may hold control characters or
	// invalid UTF-8: quote it before showing it).
	Path string
	// Why says what is there and why it is not materialized, on one line
	// with the path quoted.
	Why string
}

// Change is one file the patch changes.
type Change struct {
	// Path is the file's path after the patch, or before it for a deleted
	// file. OldPath is the path it was renamed (or copied) from, "" for
	// other changes.
	Path, OldPath string
	// Kind is how the file changed. A copy is Added with OldPath set;
	// a path the diff deletes and creates again (a file that became a
	// symlink) is Modified.
	Kind Kind
	// Class is how the gate can judge the file.
	Class Class
	// ChangedLines are the patch-side numbers of the lines the diff adds
	// or changes, ascending; empty for a deleted or binary file.
	ChangedLines []int
}

// Deferred is a test the patch added to an existing baseline test file. It
// may run only after every baseline test of that file passed on the patched
// code.
type Deferred struct {
	// File is the baseline test file.
	File string
	// Package is, for a Go test file, the file's package as `go test`
	// takes it: "./dir", or "." for the repository root. It is "" for a
	// Python test module: pytest addresses a test by File and Test.
	Package string
	// Test is the name of the added test: a Go test function's name, or a
	// pytest node-id suffix ("test_x", "TestA::test_x"; the node id is
	// File + "::" + Test).
	Test string
	// BaselineTests are the tests the baseline version of File declares,
	// sorted; empty when that version does not parse (see Unparsable).
	BaselineTests []string
}

// Prepare resolves the baseline and the patch, builds the patch tree for a
// diff, and computes the change set and oracle plan. It writes only inside
// scratch, an existing directory: Prepare makes one new directory there,
// which holds the objects of a diff's patch tree, so scratch must outlive
// the Checkout; the caller removes it afterwards.
//
// An error in the input (a bad revision, a malformed or empty diff, a diff
// that does not apply or writes through a symlink, a diff git and the
// parser read differently) is a *UsageError. Content the gate does not
// materialize — a submodule, a path with a control character, a symlink
// out of the tree — is no error: it is left out of the trees and listed in
// Submodules (a gitlink the patch does not touch) or Unjudgeable. Any
// other error is an infrastructure failure.
func Prepare(ctx context.Context, in Input, scratch string) (_ *Checkout, err error) {
	if err := checkInput(in); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(scratch); err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		return nil, fmt.Errorf("checkout: scratch directory %q: %w", scratch, err)
	}
	var parsed, parsedTests *patch.Patch
	if in.PatchCommit == "" {
		// Parse before anything else: a diff that cannot be read exactly
		// is refused before any git runs.
		parsed, err = patch.Parse(in.PatchDiff)
		switch {
		case errors.Is(err, patch.ErrEmpty) && in.hasTrusted():
			parsed = &patch.Patch{}
		case err != nil:
			return nil, usage(ReasonDiff, err, "the diff cannot be read exactly", "give `git diff` or `diff -u` output, unedited")
		}
	}
	if in.TestPatch != nil {
		if parsedTests, err = parseTestPatch(in.TestPatch, in.TestSupport); err != nil {
			return nil, err
		}
	}
	g, err := newGit()
	if err != nil {
		return nil, err
	}
	repo, err := g.inspectRepo(ctx, in.Repo)
	if err != nil {
		return nil, err
	}
	s, err := g.newScratchRepo(ctx, scratch, repo)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, os.RemoveAll(s.dir))
		}
	}()

	c := &Checkout{testSupport: slices.Clone(in.TestSupport), python: in.Python}
	// What the gate will not write is left out of the trees and recorded:
	// the run still gets a verdict (see Unjudgeable).
	// The scratch repository's objects are read too: the commits a diff
	// makes and the go.mod a pre-module repository gets are written there.
	opts := tree.Options{LeaveOut: true, AlternateObjectDirs: []string{s.objectsDir()}}
	if c.Baseline, err = listTree(ctx, repo.dir, in.Baseline, opts, "baseline"); err != nil {
		return nil, err
	}
	switch {
	case parsed != nil && len(parsed.Files) == 0:
		// An empty patch judged by trusted tests: the patch is the
		// baseline.
		c.Diff, c.Patch = append([]byte{}, in.PatchDiff...), c.Baseline
	case parsed != nil:
		c.Diff = slices.Clone(in.PatchDiff)
		commit, err := s.applyDiff(ctx, c.Baseline.Commit(), c.Diff, parsed)
		if err != nil {
			return nil, err
		}
		if c.Patch, err = listTree(ctx, repo.dir, commit, opts, "patch"); err != nil {
			return nil, err
		}
	default:
		if c.Patch, err = listTree(ctx, repo.dir, in.PatchCommit, opts, "patch"); err != nil {
			return nil, err
		}
		if c.Diff, err = s.diff(ctx, c.Baseline.Commit(), c.Patch.Commit()); err != nil {
			return nil, err
		}
		if parsed, err = patch.Parse(c.Diff); err != nil {
			switch {
			case errors.Is(err, patch.ErrEmpty) && in.hasTrusted():
				parsed, c.Diff = &patch.Patch{}, []byte{}
			case errors.Is(err, patch.ErrEmpty):
				return nil, usage(ReasonDiff, nil, "patch commit "+c.Patch.Commit()+" has the same tree as baseline "+c.Baseline.Commit(), "give a commit that changes something")
			default:
				return nil, fmt.Errorf("checkout: the diff git wrote between the commits does not parse: %w", err)
			}
		}
	}
	c.BaselineCommit, c.PatchCommit = c.Baseline.Commit(), c.Patch.Commit()
	c.listedBase, c.listedPatch = c.Baseline, c.Patch
	sum := sha256.Sum256(c.Diff)
	c.DiffSHA256 = hex.EncodeToString(sum[:])
	if err := verify(ctx, c.Baseline, c.Patch, parsed); err != nil {
		return nil, err
	}
	c.judgeLeftOut()
	c.Changes = c.changes(parsed)
	if in.hasTrusted() {
		t, paths, commit, err := c.trustedTree(ctx, in, repo, s, opts, parsedTests)
		if err != nil {
			return nil, err
		}
		c.TrustedCommit = commit
		if in.TestPatch != nil {
			sum := sha256.Sum256(in.TestPatch)
			c.TrustedPatchSHA256 = hex.EncodeToString(sum[:])
		}
		if err := c.layTrusted(t, paths); err != nil {
			return nil, err
		}
	}
	if err := c.synthesizeGoMod(ctx, s); err != nil {
		return nil, err
	}
	c.HarnessDrift = tree.SameSubtrees(c.Baseline, c.Patch, isHarness)
	if err := c.warmSources(ctx); err != nil {
		return nil, err
	}
	if err := c.planOracle(ctx); err != nil {
		return nil, err
	}
	if err := c.findDeferred(ctx); err != nil {
		return nil, err
	}
	if err := c.findTestHarness(ctx); err != nil {
		return nil, err
	}
	if err := c.findEditedTests(ctx); err != nil {
		return nil, err
	}
	if err := c.inspect(ctx); err != nil {
		return nil, err
	}
	if err := c.inspectBaselineReach(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// checkInput refuses an incomplete or contradictory Input.
func checkInput(in Input) error {
	switch {
	case in.Repo == "":
		return usage(ReasonInput, nil, "no repository", "give the path of a git repository")
	case in.Baseline == "":
		return usage(ReasonInput, nil, "no baseline", "give the revision the patch is judged against")
	case in.PatchCommit != "" && len(in.PatchDiff) > 0:
		return usage(ReasonInput, nil, "both a patch commit and a patch diff", "give one of them")
	case in.PatchCommit == "" && in.PatchDiff == nil:
		return usage(ReasonInput, nil, "no patch", "give a patch commit or a patch diff")
	case in.TestsCommit != "" && in.TestPatch != nil:
		return usage(ReasonInput, nil, "both a trusted tests commit and a trusted test patch", "give one of them")
	}
	for _, g := range in.TestSupport {
		if err := checkGlob(g); err != nil {
			return usage(ReasonInput, err, "unusable test-support glob", "use globs relative to the repository root with only * and ?")
		}
	}
	return nil
}

// listTree lists a revision's tree, mapping refusals and bad revisions to
// usage errors.
func listTree(ctx context.Context, repo, rev string, opts tree.Options, what string) (*tree.Tree, error) {
	t, err := tree.ListWith(ctx, repo, rev, opts)
	if err == nil {
		return t, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	var refused *tree.RefusedError
	switch {
	case errors.As(err, &refused):
		return nil, usage(ReasonUnsafePath, err, "the "+what+" tree cannot be checked out safely", "remove the unsafe path or symlink from the "+what)
	case errors.Is(err, tree.ErrRevision), errors.Is(err, tree.ErrNotCommit):
		return nil, usage(ReasonRevision, err, "the "+what+" revision "+strconv.Quote(rev)+" names no commit of the repository", "give a commit of "+strconv.Quote(repo))
	}
	return nil, err
}

// IsTestFile reports whether p is test code by its path: a *_test.go file,
// anything under a testdata directory at any depth, a Python test file
// (test_*.py, *_test.py, conftest.py at any depth, anything but a .go file
// under a directory named tests at any depth), or a file a TestSupport
// glob matches. A Python module under tests/ that non-test code imports is
// source all the same (SourceByUse).
func (c *Checkout) IsTestFile(p string) bool {
	return isTestFile(p, c.testSupport)
}

// HarnessDriftFor returns the paths of HarnessDrift that are harness of
// lang ("go" or "python"; see HarnessLanguage): the drift that affects
// claims about that language's tests. A path that is harness of both
// languages is listed for both. For any other lang it returns all of
// HarnessDrift: drift no rule attributes counts against every claim.
func (c *Checkout) HarnessDriftFor(lang string) []string {
	var out []string
	for _, p := range c.HarnessDrift {
		if isHarnessOf(p, lang) {
			out = append(out, p)
		}
	}
	return out
}

// changes turns the verified diff into the change set.
func (c *Checkout) changes(parsed *patch.Patch) []Change {
	byPath := map[string]Change{}
	binary := map[string]bool{}
	for _, f := range parsed.Files {
		ch := Change{Path: f.Path()}
		switch f.Op {
		case patch.OpAdded:
			ch.Kind = Added
		case patch.OpModified:
			ch.Kind = Modified
		case patch.OpDeleted:
			ch.Kind = Deleted
		case patch.OpRenamed:
			ch.Kind, ch.OldPath = Renamed, f.OldPath
		case patch.OpCopied:
			ch.Kind, ch.OldPath = Added, f.OldPath
		}
		if _, leftOut := c.Patch.LookupLeftOut(ch.Path); !f.Binary && f.Op != patch.OpDeleted && !leftOut {
			ch.ChangedLines = f.AddedLines()
		}
		binary[ch.Path] = binary[ch.Path] || f.Binary
		if prev, ok := byPath[ch.Path]; ok {
			// A path deleted and created again (a file that became a
			// symlink): the creating section decides, and a plain
			// creation of a path the baseline has is a modification.
			if ch.Kind == Deleted {
				ch = prev
			}
			if ch.Kind == Added && ch.OldPath == "" {
				ch.Kind = Modified
			}
		}
		byPath[ch.Path] = ch
	}
	out := make([]Change, 0, len(byPath))
	for _, p := range slices.Sorted(maps.Keys(byPath)) {
		ch := byPath[p]
		b, _ := c.Baseline.LookupAll(p)
		q, _ := c.Patch.LookupAll(p)
		_, baseLeft := c.Baseline.LookupLeftOut(p)
		_, patchLeft := c.Patch.LookupLeftOut(p)
		// Content the gate does not write is foreign whatever its name
		// says: it is not what runs.
		ch.Class = classify(p, c.testSupport, binary[p], b.Mode == tree.ModeSymlink || q.Mode == tree.ModeSymlink || baseLeft || patchLeft)
		out = append(out, ch)
	}
	return out
}

// judgeLeftOut sorts what the trees left out: gitlinks the patch does not
// touch are Submodules; everything else is Unjudgeable.
func (c *Checkout) judgeLeftOut() {
	paths := map[string]bool{}
	for _, t := range []*tree.Tree{c.Baseline, c.Patch} {
		for _, lo := range t.LeftOut() {
			paths[lo.Path] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		b, inBase := c.Baseline.LookupAll(p)
		q, inPatch := c.Patch.LookupAll(p)
		bl, baseLeft := c.Baseline.LookupLeftOut(p)
		ql, patchLeft := c.Patch.LookupLeftOut(p)
		baseLink := baseLeft && b.Mode == tree.ModeGitlink
		patchLink := patchLeft && q.Mode == tree.ModeGitlink
		qp := strconv.Quote(p)
		var why string
		switch {
		case baseLink && patchLink && b.ObjectID == q.ObjectID:
			c.Submodules = append(c.Submodules, Submodule{Path: p, Commit: b.ObjectID})
			continue
		case baseLink && patchLink:
			why = fmt.Sprintf("the patch moves submodule %s from commit %s to %s", qp, b.ObjectID, q.ObjectID)
		case patchLink && inBase:
			why = fmt.Sprintf("the patch replaces %s with a submodule (commit %s)", qp, q.ObjectID)
		case patchLink:
			why = fmt.Sprintf("the patch adds submodule %s (commit %s)", qp, q.ObjectID)
		case baseLink && inPatch:
			why = fmt.Sprintf("the patch replaces submodule %s with other content", qp)
		case baseLink:
			why = fmt.Sprintf("the patch removes submodule %s", qp)
		case patchLeft && baseLeft && b == q:
			why = fmt.Sprintf("the baseline and the patch hold %s, which the gate does not write: %s", qp, refusal(ql))
		case patchLeft:
			why = fmt.Sprintf("the patch's tree holds %s, which the gate does not write: %s", qp, refusal(ql))
		default:
			why = fmt.Sprintf("the baseline's tree holds %s, which the gate does not write: %s", qp, refusal(bl))
		}
		c.Unjudgeable = append(c.Unjudgeable, Unjudgeable{Path: p, Why: why})
	}
}

// refusal says why a tree left an entry out.
func refusal(lo tree.LeftOut) string {
	if lo.Detail == "" {
		return string(lo.Reason)
	}
	return string(lo.Reason) + " (" + strconv.Quote(lo.Detail) + ")"
}

// planOracle lists the baseline test files the patch changed or deleted and
// builds the oracle tree with them put back. A Python module under tests/
// that the baseline's non-test code imports is source, not a test file
// (see SourceByUse): it is not put back.
func (c *Checkout) planOracle(ctx context.Context) error {
	for _, d := range tree.Diff(c.Baseline, c.Patch) {
		if d.Kind != tree.Added && c.IsTestFile(d.Path) {
			c.OracleRestored = append(c.OracleRestored, d.Path)
		}
	}
	byUse, err := c.baselineSourceByUse(ctx, c.OracleRestored)
	if err != nil {
		return err
	}
	c.OracleRestored = slices.DeleteFunc(c.OracleRestored, func(p string) bool { return byUse[p] })
	if len(c.OracleRestored) == 0 {
		c.Oracle = c.Patch
		return nil
	}
	oracle, err := c.Patch.Overlay(c.Baseline, c.OracleRestored)
	if err != nil {
		var refused *tree.RefusedError
		if !errors.As(err, &refused) {
			return err
		}
		// The patch's content makes the oracle impossible: that is no
		// mistake of the caller's, and the run is unjudgeable. The
		// patch tree stands in for the oracle so that the trees exist;
		// the verdict cannot rest on them.
		c.Unjudgeable = append(c.Unjudgeable, Unjudgeable{Path: refused.Path,
			Why: fmt.Sprintf("the baseline's test files cannot be put back: the patch puts a file or symlink where they need a directory (%s: %s)", strconv.Quote(refused.Path), refused.Reason)})
		slices.SortStableFunc(c.Unjudgeable, func(a, b Unjudgeable) int { return strings.Compare(a.Path, b.Path) })
		c.Oracle = c.Patch
		return nil
	}
	c.Oracle = oracle
	return nil
}

// testLister returns how the tests of a test file are listed and the
// Deferred.Package of its tests, or nil for a file whose tests the gate
// does not list.
func testLister(p string) (list func([]byte) ([]string, error), pkg string) {
	switch {
	case isGoTestFile(p):
		return TestFuncs, goPackage(p)
	case IsPytestModule(p):
		return PythonTestFuncs, ""
	}
	return nil, ""
}

// findDeferred lists the tests the patch added to existing baseline Go test
// files and Python test modules. A file of which either version does not
// parse goes to Unparsable; when only the baseline version fails, every
// test of the patch version is deferred, so that no added test is dropped.
func (c *Checkout) findDeferred(ctx context.Context) error {
	var files []string
	for _, d := range tree.Diff(c.Baseline, c.Patch) {
		if list, _ := testLister(d.Path); d.Kind == tree.Modified && list != nil {
			files = append(files, d.Path)
		}
	}
	if len(files) == 0 {
		return nil
	}
	base, err := c.Baseline.ReadFiles(ctx, files)
	if err != nil {
		return fmt.Errorf("checkout: read baseline test files: %w", err)
	}
	patched, err := c.Patch.ReadFiles(ctx, files)
	if err != nil {
		return fmt.Errorf("checkout: read patch test files: %w", err)
	}
	for _, file := range files {
		list, pkg := testLister(file)
		baseTests, baseErr := testFuncsOf(c.Baseline, file, base[file], list)
		patchTests, patchErr := testFuncsOf(c.Patch, file, patched[file], list)
		if baseErr != nil || patchErr != nil {
			c.Unparsable = append(c.Unparsable, file)
		}
		if patchErr != nil {
			continue
		}
		if baseErr == nil && isGoTestFile(file) {
			suiteTests, err := c.addedSuiteTests(ctx, file, base[file], patched[file])
			if err != nil {
				return err
			}
			patchTests = append(patchTests, suiteTests...)
		}
		for _, test := range patchTests {
			if baseErr == nil && slices.Contains(baseTests, test) {
				continue
			}
			c.Deferred = append(c.Deferred, Deferred{
				File:          file,
				Package:       pkg,
				Test:          test,
				BaselineTests: slices.Clone(baseTests),
			})
		}
	}
	return nil
}

// addedSuiteTests lists, as "TestS/TestM", the methods the patch adds to
// the Go test file that a baseline test TestS of its package runs as
// subtests through testify's suite.Run (inspect.GoSuites): a fix's test
// written as a new method of an existing suite is an added test, run
// spliced beside the file's baseline tests as a new function is.
func (c *Checkout) addedSuiteTests(ctx context.Context, file string, base, patched []byte) ([]string, error) {
	baseMethods, err1 := inspect.GoSuiteMethods(base)
	patchMethods, err2 := inspect.GoSuiteMethods(patched)
	if err1 != nil || err2 != nil || len(patchMethods) == 0 {
		return nil, nil
	}
	files, err := goTestFilesOf(ctx, c.Baseline, path.Dir(file))
	if err != nil {
		return nil, err
	}
	var srcs [][]byte
	for _, p := range slices.Sorted(maps.Keys(files)) {
		srcs = append(srcs, files[p])
	}
	runners := inspect.GoSuites(srcs)
	var out []string
	for _, typ := range slices.Sorted(maps.Keys(patchMethods)) {
		for _, m := range patchMethods[typ] {
			if slices.Contains(baseMethods[typ], m) {
				continue
			}
			for _, t := range runners[typ] {
				out = append(out, t+"/"+m)
			}
		}
	}
	return out, nil
}

// testFuncsOf lists the tests of one version of a file with list; a
// symlink is not source.
func testFuncsOf(t *tree.Tree, file string, src []byte, list func([]byte) ([]string, error)) ([]string, error) {
	if e, _ := t.Lookup(file); e.Mode == tree.ModeSymlink {
		return nil, fmt.Errorf("checkout: %s is a symlink", strconv.Quote(file))
	}
	return list(src)
}

// harnessLister returns how the harness declarations of a test file are
// listed: pythonHarnessDecls for Python test code; for a Go test file, a
// lister that lists nothing (Go test files are judged by
// inspectGoHarness, but a symlink among them is caught here); nil for
// any other file.
func harnessLister(p string) func([]byte) ([]string, error) {
	switch {
	case isGoTestFile(p):
		return func([]byte) ([]string, error) { return nil, nil }
	case isPythonTestCode(p):
		return pythonHarnessDecls
	}
	return nil
}

// goPackage returns the package of a file as `go test` takes it.
func goPackage(file string) string {
	if dir := path.Dir(file); dir != "." {
		return "./" + dir
	}
	return "."
}

// findTestHarness lists the Python test files the patch added or changed
// whose harness declarations (see pythonHarnessDecls) are not the
// baseline version's, byte for byte, and the Go or Python test files the
// patch made symlinks. A patch version that does not parse is listed: it
// cannot be shown harmless. Both versions are read by the rules of the
// patch version's path. (Go test files are judged by inspectGoHarness.)
func (c *Checkout) findTestHarness(ctx context.Context) error {
	type pair struct{ file, baseFile string }
	var pairs []pair
	var patchFiles, baseFiles []string
	for _, ch := range c.Changes {
		if ch.Kind == Deleted || harnessLister(ch.Path) == nil {
			continue
		}
		if _, ok := c.Patch.Lookup(ch.Path); !ok {
			continue
		}
		p := pair{file: ch.Path}
		switch ch.Kind {
		case Modified:
			p.baseFile = ch.Path
		case Renamed:
			p.baseFile = ch.OldPath
		}
		if _, ok := c.Baseline.Lookup(p.baseFile); !ok {
			p.baseFile = ""
		}
		pairs = append(pairs, p)
		patchFiles = append(patchFiles, p.file)
		if p.baseFile != "" {
			baseFiles = append(baseFiles, p.baseFile)
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	patched, err := c.Patch.ReadFiles(ctx, patchFiles)
	if err != nil {
		return fmt.Errorf("checkout: read patch test files: %w", err)
	}
	base, err := c.Baseline.ReadFiles(ctx, baseFiles)
	if err != nil {
		return fmt.Errorf("checkout: read baseline test files: %w", err)
	}
	for _, p := range pairs {
		if e, _ := c.Patch.Lookup(p.file); e.Mode == tree.ModeSymlink {
			c.TestHarness = append(c.TestHarness, p.file)
			continue
		}
		list := harnessLister(p.file)
		decls, err := list(patched[p.file])
		if err != nil {
			c.TestHarness = append(c.TestHarness, p.file)
			continue
		}
		if len(decls) == 0 {
			continue
		}
		var baseDecls []string
		if p.baseFile != "" {
			if e, _ := c.Baseline.Lookup(p.baseFile); e.Mode != tree.ModeSymlink {
				baseDecls, _ = list(base[p.baseFile]) // unparsable: nothing is known to be the baseline's
			}
		}
		for _, d := range decls {
			i := slices.Index(baseDecls, d)
			if i < 0 {
				c.TestHarness = append(c.TestHarness, p.file)
				break
			}
			baseDecls = slices.Delete(baseDecls, i, i+1)
		}
	}
	slices.Sort(c.TestHarness)
	return nil
}

// MaterializeBaseline writes the baseline tree into dir, which must be
// absent (its parent must exist) or an empty directory.
func (c *Checkout) MaterializeBaseline(ctx context.Context, dir string) error {
	return c.Baseline.Materialize(ctx, dir)
}

// MaterializePatch writes the patch tree into dir, which must be absent
// (its parent must exist) or an empty directory.
func (c *Checkout) MaterializePatch(ctx context.Context, dir string) error {
	return c.Patch.Materialize(ctx, dir)
}

// MaterializeOracle writes the oracle tree into dir, which must be absent
// (its parent must exist) or an empty directory: the patch tree with every
// file of OracleRestored put back with its baseline bytes and mode (deleted
// ones created again). Test files the patch added stay.
func (c *Checkout) MaterializeOracle(ctx context.Context, dir string) error {
	return c.Oracle.Materialize(ctx, dir)
}

// MaterializeTransplant writes into dir (absent or an empty directory) the
// baseline tree with each of patchFiles taken from the patch tree, added or
// replaced: for instance a new test file of the patch, to run it against
// the baseline code. Every path must be a file of the patch tree.
func (c *Checkout) MaterializeTransplant(ctx context.Context, dir string, patchFiles []string) error {
	for _, p := range patchFiles {
		if _, ok := c.Patch.Lookup(p); !ok {
			return fmt.Errorf("checkout: transplant %s: not a file of the patch tree: %w", strconv.Quote(p), tree.ErrNotFound)
		}
	}
	t, err := c.Baseline.Overlay(c.Patch, patchFiles)
	if err != nil {
		return fmt.Errorf("checkout: transplant: %w", err)
	}
	return t.Materialize(ctx, dir)
}
