package checkout

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"maps"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// expectation is what the parsed diff says a path holds after the patch.
type expectation struct {
	exists bool
	mode   string
	// oid is the object id of the content, "" when the diff does not say
	// it (a binary change without a full index line).
	oid string
	// oidPrefix is an abbreviated object id the content must start with
	// (the index line of a binary change); may be empty.
	oidPrefix string
}

// verify checks that the patch tree is exactly what the parsed diff says
// it is, starting from the baseline: every text hunk applies at exactly the
// lines it names (git apply would accept a shifted hunk, which would make
// the diff's line numbers wrong), every file the diff creates or changes
// has the content and mode the diff gives, every file it deletes is gone,
// and no other path differs between the trees. Any disagreement is a
// *UsageError with ReasonDisagreement.
func verify(ctx context.Context, base, patched *tree.Tree, parsed *patch.Patch) error {
	var reads []string
	gitlinks := map[string][]byte{}
	for _, f := range parsed.Files {
		if f.Op != patch.OpAdded && !f.Binary {
			switch e, ok := base.LookupAll(f.OldPath); {
			case ok && e.Mode == tree.ModeGitlink:
				gitlinks[f.OldPath] = gitlinkContent(e.ObjectID)
			case ok && e.Type == "blob":
				reads = append(reads, f.OldPath)
			}
		}
	}
	contents, err := base.ReadFiles(ctx, reads)
	if err != nil {
		return fmt.Errorf("checkout: read baseline files: %w", err)
	}
	maps.Copy(contents, gitlinks)
	disagree := func(format string, args ...any) error {
		return usage(ReasonDisagreement, nil, fmt.Sprintf(format, args...), "the diff does not say exactly what the patch does: make it with `git diff` against the baseline")
	}
	want := map[string]expectation{}
	// Deletions first: a deleted path, or a rename's source, may be created
	// again by another section, which then decides what it holds.
	for _, f := range parsed.Files {
		if f.Op != patch.OpDeleted && f.Op != patch.OpRenamed {
			continue
		}
		old, ok := base.LookupAll(f.OldPath)
		if !ok {
			return disagree("the diff changes %s, which the baseline does not have", strconv.Quote(f.OldPath))
		}
		if f.OldMode != "" && f.OldMode != old.Mode {
			return disagree("the diff gives %s mode %s, the baseline %s", strconv.Quote(f.OldPath), f.OldMode, old.Mode)
		}
		if f.Op == patch.OpDeleted {
			if f.Binary {
				if err := checkPrefix(old, f.OldHash); err != nil {
					return disagree("%v", err)
				}
			} else if got, err := applyExact(contents[f.OldPath], f); err != nil {
				return disagree("%s: %v", strconv.Quote(f.OldPath), err)
			} else if len(got) != 0 {
				return disagree("the diff deletes %s but leaves %d bytes of it", strconv.Quote(f.OldPath), len(got))
			}
		}
		want[f.OldPath] = expectation{}
	}
	for _, f := range parsed.Files {
		if f.Op == patch.OpDeleted {
			continue
		}
		var old tree.Entry
		var oldContent []byte
		mode := tree.ModeFile
		if f.Op != patch.OpAdded {
			var ok bool
			old, ok = base.LookupAll(f.OldPath)
			if !ok {
				return disagree("the diff changes %s, which the baseline does not have", strconv.Quote(f.OldPath))
			}
			if f.OldMode != "" && f.OldMode != old.Mode {
				return disagree("the diff gives %s mode %s, the baseline %s", strconv.Quote(f.OldPath), f.OldMode, old.Mode)
			}
			oldContent, mode = contents[f.OldPath], old.Mode
		}
		if _, inBase := base.LookupAll(f.NewPath); inBase && f.Op != patch.OpModified && !hasKey(want, f.NewPath) {
			return disagree("the diff creates %s, which the baseline already has", strconv.Quote(f.NewPath))
		}
		if f.NewMode != "" {
			mode = f.NewMode
		}
		exp := expectation{exists: true, mode: mode}
		switch {
		case f.Binary:
			if f.Op != patch.OpAdded {
				if err := checkPrefix(old, f.OldHash); err != nil {
					return disagree("%v", err)
				}
			}
			if !isZeroID(f.NewHash) {
				exp.oidPrefix = f.NewHash
			}
		default:
			content, err := applyExact(oldContent, f)
			if err != nil {
				return disagree("%s: %v", strconv.Quote(f.Path()), err)
			}
			if mode == tree.ModeGitlink {
				oid, ok := gitlinkTarget(content)
				if !ok {
					return disagree("the diff makes %s a gitlink without a commit id", strconv.Quote(f.Path()))
				}
				exp.oid = oid
				break
			}
			oid, err := blobID(base.ObjectFormat(), content)
			if err != nil {
				return err
			}
			exp.oid = oid
		}
		want[f.NewPath] = exp
	}
	for p, exp := range want {
		got, ok := patched.LookupAll(p)
		if ok != exp.exists {
			if ok {
				return disagree("the diff removes %s but the patch tree has it", strconv.Quote(p))
			}
			return disagree("the diff writes %s but the patch tree lacks it", strconv.Quote(p))
		}
		if !ok {
			continue
		}
		if got.Mode != exp.mode {
			return disagree("the diff gives %s mode %s, the patch tree %s", strconv.Quote(p), exp.mode, got.Mode)
		}
		if exp.oid != "" && got.ObjectID != exp.oid {
			return disagree("the diff makes %s object %s, the patch tree has %s", strconv.Quote(p), exp.oid, got.ObjectID)
		}
		if exp.oidPrefix != "" && !strings.HasPrefix(got.ObjectID, exp.oidPrefix) {
			return disagree("the diff's index line names %s object %s, the patch tree has %s", strconv.Quote(p), exp.oidPrefix, got.ObjectID)
		}
		if old, inBase := base.LookupAll(p); inBase && old.Mode == got.Mode && old.ObjectID == got.ObjectID {
			return disagree("the diff's change to %s leaves it as the baseline has it", strconv.Quote(p))
		}
	}
	for _, c := range tree.DiffAll(base, patched) {
		if !hasKey(want, c.Path) {
			return disagree("the patch tree changes %s (%s), which the diff does not name", strconv.Quote(c.Path), c.Kind)
		}
	}
	return nil
}

// gitlinkContent is how a diff shows a gitlink: "Subproject commit <id>".
func gitlinkContent(commit string) []byte {
	return []byte("Subproject commit " + commit + "\n")
}

// gitlinkTarget reads the commit id of a gitlink as a diff shows it.
func gitlinkTarget(content []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(content, []byte("Subproject commit "))
	id, nl := bytes.CutSuffix(rest, []byte("\n"))
	if !ok || !nl || (len(id) != 40 && len(id) != 64) {
		return "", false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	return string(id), true
}

func hasKey(m map[string]expectation, k string) bool {
	_, ok := m[k]
	return ok
}

// checkPrefix checks an abbreviated object id of an index line against the
// entry it names.
func checkPrefix(e tree.Entry, abbrev string) error {
	if abbrev == "" || isZeroID(abbrev) || strings.HasPrefix(e.ObjectID, abbrev) {
		return nil
	}
	return fmt.Errorf("the diff's index line names %s object %s, the baseline has %s", strconv.Quote(e.Path), abbrev, e.ObjectID)
}

// isZeroID reports an index line's id of a missing side ("0000000").
func isZeroID(id string) bool { return strings.Trim(id, "0") == "" }

// blobID returns git's object id of a blob with content.
func blobID(format string, content []byte) (string, error) {
	var h hash.Hash
	switch format {
	case tree.FormatSHA1:
		h = sha1.New()
	case tree.FormatSHA256:
		h = sha256.New()
	default:
		return "", fmt.Errorf("checkout: object format %q", format)
	}
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sourceLine is one line of a file: its text without the newline, and
// whether a newline ended it.
type sourceLine struct {
	text    string
	newline bool
}

func splitContent(b []byte) []sourceLine {
	var lines []sourceLine
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, sourceLine{text: string(b)})
			break
		}
		lines = append(lines, sourceLine{text: string(b[:i]), newline: true})
		b = b[i+1:]
	}
	return lines
}

// applyExact applies f's hunks to old at exactly the lines they name, and
// checks every line number the diff gives on either side.
func applyExact(old []byte, f *patch.File) ([]byte, error) {
	src := splitContent(old)
	var out bytes.Buffer
	pos := 0     // index of the next old line
	newLine := 0 // number of new lines written
	emit := func(text string, newline bool) {
		out.WriteString(text)
		if newline {
			out.WriteByte('\n')
		}
		newLine++
	}
	copyTo := func(end int) {
		for ; pos < end; pos++ {
			emit(src[pos].text, src[pos].newline)
		}
	}
	for i, h := range f.Hunks {
		first := h.OldStart // first old line of the hunk, 1-based
		if h.OldLines == 0 {
			first++
		}
		if first-1 < pos || first-1 > len(src) {
			return nil, fmt.Errorf("hunk %d starts at old line %d, but the baseline file has %d lines", i+1, first, len(src))
		}
		copyTo(first - 1)
		for _, l := range h.Lines {
			switch l.Kind {
			case patch.LineContext, patch.LineRemoved:
				if pos >= len(src) {
					return nil, fmt.Errorf("hunk %d runs past the end of the baseline file (%d lines)", i+1, len(src))
				}
				if l.OldLine != pos+1 {
					return nil, fmt.Errorf("hunk %d numbers old line %d as %d", i+1, pos+1, l.OldLine)
				}
				if s := src[pos]; s.text != l.Text || s.newline == l.NoNewlineAtEOF {
					return nil, fmt.Errorf("hunk %d: baseline line %d is not the one the diff shows", i+1, pos+1)
				}
				pos++
				if l.Kind == patch.LineContext {
					emit(l.Text, !l.NoNewlineAtEOF)
					if l.NewLine != newLine {
						return nil, fmt.Errorf("hunk %d numbers new line %d as %d", i+1, newLine, l.NewLine)
					}
				}
			case patch.LineAdded:
				emit(l.Text, !l.NoNewlineAtEOF)
				if l.NewLine != newLine {
					return nil, fmt.Errorf("hunk %d numbers new line %d as %d", i+1, newLine, l.NewLine)
				}
			default:
				return nil, fmt.Errorf("hunk %d has a line of unknown kind", i+1)
			}
		}
	}
	copyTo(len(src))
	return out.Bytes(), nil
}
