package patch

import (
	"strconv"
	"strings"
)

// noNewlineMarker is the line git writes after a last line without newline.
const noNewlineMarker = `\ No newline at end of file`

// String renders the patch as a git-style unified diff, deterministically:
// always with a/ and b/ prefixes, git's quoting and git's header order.
// Parse(p.String()) gives back an equal Patch for any Patch Parse returned.
// What the model does not keep is not rendered: timestamps, similarity
// indexes, and the data of a GIT binary patch (a binary file becomes a
// "Binary files … differ" line), so the text is for reading and hashing,
// not for applying binary changes.
func (p *Patch) String() string {
	var b strings.Builder
	for _, f := range p.Files {
		f.render(&b)
	}
	return b.String()
}

func (f *File) render(b *strings.Builder) {
	// git names the missing side of an added or deleted file after the
	// other one on the diff --git line.
	oldName, newName := f.OldPath, f.NewPath
	if f.Op == OpAdded {
		oldName = newName
	}
	if f.Op == OpDeleted {
		newName = oldName
	}
	oldSide, newSide := oldPrefix+oldName, newPrefix+newName
	line(b, gitHeaderPrefix, quoteName(oldSide), " ", quoteName(newSide))

	switch f.Op {
	case OpAdded:
		if f.NewMode != "" {
			line(b, kwNewFileMode, " ", f.NewMode)
		}
	case OpDeleted:
		if f.OldMode != "" {
			line(b, kwDeletedMode, " ", f.OldMode)
		}
	default:
		if f.OldMode != f.NewMode && f.OldMode != "" && f.NewMode != "" {
			line(b, kwOldMode, " ", f.OldMode)
			line(b, kwNewMode, " ", f.NewMode)
		}
	}
	switch f.Op {
	case OpRenamed:
		line(b, kwRenameFrom, " ", quoteName(f.OldPath))
		line(b, kwRenameTo, " ", quoteName(f.NewPath))
	case OpCopied:
		line(b, kwCopyFrom, " ", quoteName(f.OldPath))
		line(b, kwCopyTo, " ", quoteName(f.NewPath))
	}
	if f.OldHash != "" && f.NewHash != "" {
		index := f.OldHash + ".." + f.NewHash
		if f.Op != OpAdded && f.Op != OpDeleted && f.OldMode == f.NewMode && f.OldMode != "" {
			index += " " + f.OldMode
		}
		line(b, kwIndex, " ", index)
	}

	if f.Op == OpAdded {
		oldSide = devNull
	}
	if f.Op == OpDeleted {
		newSide = devNull
	}
	if f.Binary {
		line(b, binaryLinePrefix, quoteName(oldSide), binaryNameSep, quoteName(newSide), binaryLineSuffix)
		return
	}
	if len(f.Hunks) == 0 {
		return
	}
	line(b, oldLabelPrefix, labelText(oldSide))
	line(b, newLabelPrefix, labelText(newSide))
	for _, h := range f.Hunks {
		h.render(b)
	}
}

// labelText writes a ---/+++ name as git does: a bare name with a space gets
// a tab after it, so that patch programs see where it ends.
func labelText(name string) string {
	q := quoteName(name)
	if q == name && strings.Contains(name, " ") {
		return name + "\t"
	}
	return q
}

func (h *Hunk) render(b *strings.Builder) {
	header := "@@ -" + hunkRange(h.OldStart, h.OldLines) + " +" + hunkRange(h.NewStart, h.NewLines) + " @@"
	if h.Section != "" {
		header += " " + h.Section
	}
	line(b, header)
	for _, l := range h.Lines {
		prefix := " "
		switch l.Kind {
		case LineAdded:
			prefix = "+"
		case LineRemoved:
			prefix = "-"
		}
		line(b, prefix, l.Text)
		if l.NoNewlineAtEOF {
			line(b, noNewlineMarker)
		}
	}
}

// hunkRange writes "start,count", leaving out a count of 1 as diff does.
func hunkRange(start, count int) string {
	if count == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(count)
}

// line writes the parts and a newline.
func line(b *strings.Builder, parts ...string) {
	for _, s := range parts {
		b.WriteString(s)
	}
	b.WriteByte('\n')
}
