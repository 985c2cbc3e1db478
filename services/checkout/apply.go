package checkout

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/patch"
)

// applyDiff builds, in the scratch repository, the commit the diff produces
// on the baseline commit base, and returns its id. The diff must already
// have parsed as parsed.
func (s *scratchRepo) applyDiff(ctx context.Context, base string, diff []byte, parsed *patch.Patch) (string, error) {
	strip, err := s.stripLevel(ctx, diff, parsed)
	if err != nil {
		return "", err
	}
	if _, err := s.run(ctx, nil, nil, "read-tree", base); err != nil {
		return "", fmt.Errorf("checkout: %w", err)
	}
	// --unidiff-zero lets git apply a diff without context lines (diff
	// -U0); that git may place such a hunk elsewhere does not matter,
	// because verify checks every hunk at exactly the lines it names.
	if _, err := s.run(ctx, nil, bytes.NewReader(diff), "apply", "--cached", "--whitespace=nowarn", "--unidiff-zero", strip); err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		if strings.Contains(err.Error(), "beyond a symbolic link") {
			return "", usage(ReasonUnsafePath, err, "the diff writes through a symbolic link", "change the files where they are, not through a link")
		}
		return "", usage(ReasonDoesNotApply, err, "the diff does not apply to baseline "+base,
			"make the diff against the baseline commit (a binary change needs `git diff --binary`)")
	}
	treeID, err := s.run(ctx, nil, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("checkout: %w", err)
	}
	commit, err := s.run(ctx, commitEnv(), nil, "commit-tree", "-p", base, "-m", "sealgate: diff applied to "+base, string(bytes.TrimSpace(treeID)))
	if err != nil {
		return "", fmt.Errorf("checkout: %w", err)
	}
	return string(bytes.TrimSpace(commit)), nil
}

// stripLevel picks git apply's -p option: the one under which git reads the
// diff's file names as the parser did. A diff git cannot read at all does
// not apply; one it reads with other names than the parser is refused.
func (s *scratchRepo) stripLevel(ctx context.Context, diff []byte, parsed *patch.Patch) (string, error) {
	// git apply --numstat names each file once: its new path, or the old
	// one of a deleted file.
	var want []string
	for _, f := range parsed.Files {
		want = append(want, f.Path())
	}
	slices.Sort(want)
	want = slices.Compact(want)
	var firstErr error
	var readAs []string
	for _, strip := range []string{"-p1", "-p0"} {
		out, err := s.run(ctx, nil, bytes.NewReader(diff), "apply", "--numstat", "-z", strip)
		if err != nil {
			if ctx.Err() != nil {
				return "", err
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		got, err := numstatPaths(out)
		if err != nil {
			return "", err
		}
		if slices.Equal(got, want) {
			return strip, nil
		}
		readAs = got
	}
	if readAs == nil {
		return "", usage(ReasonDoesNotApply, firstErr, "git cannot read the diff", "give `git diff` or `diff -u` output")
	}
	return "", usage(ReasonDisagreement, nil, fmt.Sprintf("git reads the diff's files as %q, the parser as %q", readAs, want),
		"give the diff with a/ and b/ prefixes, as `git diff` writes it")
}

// numstatPaths returns the paths of `git apply --numstat -z` output, sorted
// and without duplicates: records "added TAB deleted TAB path NUL".
func numstatPaths(out []byte) ([]string, error) {
	if len(out) == 0 || out[len(out)-1] != 0 {
		return nil, fmt.Errorf("checkout: git apply --numstat printed %q: not NUL-terminated records", out)
	}
	var paths []string
	for _, rec := range strings.Split(string(out[:len(out)-1]), "\x00") {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 || parts[2] == "" {
			return nil, fmt.Errorf("checkout: git apply --numstat record %q is not \"added TAB deleted TAB path\"", rec)
		}
		paths = append(paths, parts[2])
	}
	slices.Sort(paths)
	return slices.Compact(paths), nil
}
