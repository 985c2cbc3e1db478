package checkout

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// Trusted tests are a grader's held-out tests (Input.TestsCommit or
// Input.TestPatch). The grader is trusted and the patch is not, so they are
// laid over both sides before anything is judged: the baseline tree is the
// baseline commit with the trusted tests, and the patch tree is the
// patch's with the trusted tests laid over it — the patch's own edits to
// those paths are discarded (TrustedOverridden). From there on they are
// the baseline's tests like any other: the oracle puts them back when the
// patch changes them, a test they add can prove a fix (it fails on the
// baseline and passes on the patch), and a baseline test they update is
// judged by the updated version — it is not an edit of the patch's, so it
// is never "repinned".

// hasTrusted reports whether in names trusted tests.
func (in Input) hasTrusted() bool { return in.TestsCommit != "" || in.TestPatch != nil }

// checkTrustedPath refuses a path a trusted test patch may not touch: it
// may add, change or delete test files (IsTestFile, test-support globs
// included) and test data (documents, data and binary files by their
// name), never source, harness or a file of a kind the gate does not know.
func checkTrustedPath(p string, globs []string, binary bool) error {
	switch {
	case isTestFile(p, globs):
		return nil
	case isHarness(p):
		return fmt.Errorf("%s is harness (it decides how the tests build and run)", strconv.Quote(p))
	case binary || isDocument(p):
		return nil
	case Language(p) != "":
		return fmt.Errorf("%s is source, not a test file", strconv.Quote(p))
	}
	return fmt.Errorf("%s is neither a test file nor test data", strconv.Quote(p))
}

// parseTestPatch parses a trusted test patch strictly and checks that it
// touches only test files and test data.
func parseTestPatch(diff []byte, globs []string) (*patch.Patch, error) {
	parsed, err := patch.Parse(diff)
	if err != nil {
		return nil, usage(ReasonTrustedTests, err, "the trusted test patch cannot be read exactly", "give `git diff` output of the test files, unedited")
	}
	for _, f := range parsed.Files {
		for _, p := range []string{f.OldPath, f.NewPath} {
			if p == "" {
				continue
			}
			if err := checkTrustedPath(p, globs, f.Binary); err != nil {
				return nil, usage(ReasonTrustedTests, err, "the trusted test patch touches more than test files and test data",
					"give only the test files' diff, or declare the file test support with --test-support GLOB")
			}
		}
	}
	return parsed, nil
}

// trustedTree builds the tree of the trusted tests: the baseline with the
// test patch applied, or the commit TestsCommit names. It returns the
// tree, the paths whose content the trusted tests decide (sorted) and, for
// a commit, its full id.
func (c *Checkout) trustedTree(ctx context.Context, in Input, repo repoInfo, s *scratchRepo, opts tree.Options, parsed *patch.Patch) (*tree.Tree, []string, string, error) {
	var (
		t      *tree.Tree
		commit string
		err    error
	)
	base := c.Baseline
	if parsed != nil {
		id, err := s.applyDiff(ctx, base.Commit(), in.TestPatch, parsed)
		if err != nil {
			var ue *UsageError
			if errors.As(err, &ue) {
				ue.Detail = "the trusted test patch: " + ue.Detail
			}
			return nil, nil, "", err
		}
		if t, err = listTree(ctx, repo.dir, id, opts, "trusted tests"); err != nil {
			return nil, nil, "", err
		}
		if err := verify(ctx, base, t, parsed); err != nil {
			var ue *UsageError
			if errors.As(err, &ue) {
				ue.Detail = "the trusted test patch: " + ue.Detail
			}
			return nil, nil, "", err
		}
	} else {
		if t, err = listTree(ctx, repo.dir, in.TestsCommit, opts, "trusted tests"); err != nil {
			return nil, nil, "", err
		}
		commit = t.Commit()
	}
	var paths []string
	for _, d := range tree.DiffAll(base, t) {
		if parsed == nil && !isTestFile(d.Path, in.TestSupport) {
			// A commit's other changes (the fix itself) are not tests.
			continue
		}
		_, baseLeft := base.LookupLeftOut(d.Path)
		_, left := t.LookupLeftOut(d.Path)
		if left || baseLeft {
			return nil, nil, "", usage(ReasonTrustedTests, nil,
				fmt.Sprintf("the trusted tests change %s, which the gate does not write (a submodule, an unsafe path or symlink)", strconv.Quote(d.Path)),
				"give trusted tests of regular files and symlinks inside the tree")
		}
		paths = append(paths, d.Path)
	}
	if len(paths) == 0 {
		what := "the trusted test patch"
		if parsed == nil {
			what = "trusted tests commit " + commit
		}
		return nil, nil, "", usage(ReasonTrustedTests, nil, what+" changes no test file of the baseline", "give the commit or the diff that holds the held-out tests")
	}
	slices.Sort(paths)
	return t, paths, commit, nil
}

// layTrusted lays the trusted tests over both trees: Baseline and Patch
// become the trees the run judges. The patch's own changes to trusted
// paths leave Changes (they are discarded) and are listed in
// TrustedOverridden.
func (c *Checkout) layTrusted(t *tree.Tree, paths []string) error {
	base, err := c.Baseline.Overlay(t, paths)
	if err != nil {
		return usage(ReasonTrustedTests, err, "the trusted tests cannot be laid over the baseline", "give trusted tests that fit the baseline's tree")
	}
	c.Trusted = paths
	var onPatch []string
	for _, p := range paths {
		_, inPatch := c.Patch.Lookup(p)
		_, inTrusted := t.Lookup(p)
		if inPatch || inTrusted {
			onPatch = append(onPatch, p)
		}
	}
	patched, err := c.Patch.Overlay(t, onPatch)
	if err != nil {
		var refused *tree.RefusedError
		if !errors.As(err, &refused) {
			return err
		}
		// The patch puts a file where the trusted tests need a directory
		// (or the reverse): what would run is not the patch with the
		// grader's tests, and the run cannot be judged.
		c.Unjudgeable = append(c.Unjudgeable, Unjudgeable{Path: refused.Path,
			Why: fmt.Sprintf("the trusted tests cannot be laid over the patch: it puts a file or symlink where they need a directory (%s: %s)", strconv.Quote(refused.Path), refused.Reason)})
		slices.SortStableFunc(c.Unjudgeable, func(a, b Unjudgeable) int { return strings.Compare(a.Path, b.Path) })
		patched = c.Patch
	}
	trusted := map[string]bool{}
	for _, p := range paths {
		trusted[p] = true
	}
	var kept []Change
	for _, ch := range c.Changes {
		if !trusted[ch.Path] {
			kept = append(kept, ch)
			continue
		}
		c.TrustedOverridden = append(c.TrustedOverridden, ch.Path)
		if ch.Kind == Renamed && !trusted[ch.OldPath] {
			// The rename's target is the grader's; its source is still
			// gone from the patch.
			kept = append(kept, Change{Path: ch.OldPath, Kind: Deleted, Class: classify(ch.OldPath, c.testSupport, ch.Class == ClassBinary, false)})
		}
	}
	slices.SortFunc(kept, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	c.Changes = kept
	c.Baseline, c.Patch = base, patched
	return nil
}

// TrustedPathAllowed reports whether a trusted test patch may touch p by
// its name alone — a test file or test data — without a test-support glob
// (binary: the patch changes it as a binary file).
func TrustedPathAllowed(p string, binary bool) bool { return checkTrustedPath(p, nil, binary) == nil }
