package patch

import (
	"fmt"
	"strings"
	"time"
)

// devNull names the missing side of an added or deleted file.
const devNull = "/dev/null"

// Prefixes git puts before the old and the new name unless --no-prefix.
const (
	oldPrefix = "a/"
	newPrefix = "b/"
)

// diffTimestampLayout is the modification time GNU diff -u writes after a
// name (the fraction is optional).
const diffTimestampLayout = "2006-01-02 15:04:05.999999999 -0700"

// Bounds of the length of a diffTimestampLayout time, for finding one after
// a name that is separated by spaces instead of a tab.
const (
	minTimestampLen = len("2006-01-02 15:04:05 -0700")
	maxTimestampLen = len("2006-01-02 15:04:05.999999999 -0700")
)

// nameError is a problem with a name; the caller knows the line and the
// Reason.
type nameError string

func (e nameError) Error() string { return string(e) }

// isControl reports bytes git would escape in a quoted name.
func isControl(c byte) bool { return c < 0x20 || c == 0x7f }

// checkBare refuses a name written without quotes that holds a control
// character: git quotes such names, so one in the clear is a damaged diff —
// most often CRLF line endings.
func checkBare(name string) error {
	if name == "" {
		return nameError("empty name")
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '\r' {
			return nameError("name ends in a carriage return (CRLF line endings?)")
		}
		if isControl(name[i]) {
			return nameError(fmt.Sprintf("unquoted name %s holds a control character", clip(name)))
		}
	}
	return nil
}

// unquotePrefix decodes the C-style quoted name s starts with, as git writes
// names holding control characters, quotes, backslashes or non-ASCII bytes,
// and returns what follows the closing quote.
func unquotePrefix(s string) (name, rest string, err error) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", nameError("expected a quoted name")
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c == '\\':
			i++
			if i >= len(s) {
				return "", "", nameError("quoted name ends inside an escape")
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '"', '\\':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", "", nameError("octal escape in quoted name needs three digits")
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", "", nameError(fmt.Sprintf("unknown escape %s in quoted name", clip(s[i-1:i+1])))
			}
		case isControl(c):
			return "", "", nameError("raw control character inside a quoted name")
		default:
			b.WriteByte(c)
		}
	}
	return "", "", nameError("quoted name has no closing quote")
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }

// wholeName decodes s as exactly one name: quoted, or bare to the end.
func wholeName(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, checkBare(s)
	}
	name, rest, err := unquotePrefix(s)
	if err != nil {
		return "", err
	}
	if rest != "" {
		return "", nameError(fmt.Sprintf("text %s after a quoted name", clip(rest)))
	}
	return name, nil
}

// needsQuoting reports whether git quotes name (with core.quotePath on, its
// default): names git writes bare never hold these bytes.
func needsQuoting(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; isControl(c) || c == '"' || c == '\\' || c >= 0x80 {
			return true
		}
	}
	return false
}

// quoteName writes name the way git does: bare when it can be, else
// C-quoted with octal escapes for bytes without a short escape.
func quoteName(name string) string {
	if !needsQuoting(name) {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if isControl(c) || c >= 0x80 {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// label is the name on a ---, +++ line and what followed it.
type label struct {
	name string
	// epoch is set when the name carries a timestamp of the Unix epoch:
	// GNU diff -N writes that for the side of a file that does not exist.
	epoch bool
}

// parseLabel reads the text after "--- " or "+++ ". A bare name ends at a
// tab (git writes one after names with spaces; diff -u writes the
// modification time after it). In a plain diff, a GNU-style timestamp after
// spaces also ends it.
func parseLabel(s string, plain bool) (label, error) {
	if strings.HasPrefix(s, `"`) {
		name, rest, err := unquotePrefix(s)
		if err != nil {
			return label{}, err
		}
		stamp, ok := strings.CutPrefix(rest, "\t")
		if !ok && rest != "" {
			return label{}, nameError(fmt.Sprintf("text %s after a quoted name", clip(rest)))
		}
		return label{name: name, epoch: isEpoch(stamp)}, nil
	}
	name, stamp, tab := strings.Cut(s, "\t")
	if !tab {
		if plain {
			name, stamp = splitSpacedTimestamp(s)
		}
		if strings.HasSuffix(name, " ") {
			return label{}, nameError(fmt.Sprintf("name %s ends in a space with no tab after it: where it ends is ambiguous", clip(name)))
		}
	}
	if err := checkBare(name); err != nil {
		return label{}, err
	}
	return label{name: name, epoch: isEpoch(stamp)}, nil
}

// splitSpacedTimestamp splits "name  2024-01-02 03:04:05.000000000 +0000"
// into name and time, for diff tools that pad with spaces instead of a tab.
// Without such a time the whole of s is the name.
func splitSpacedTimestamp(s string) (name, stamp string) {
	for n := maxTimestampLen; n >= minTimestampLen; n-- {
		start := len(s) - n
		if start < 2 || s[start-1] != ' ' {
			continue
		}
		if _, err := time.Parse(diffTimestampLayout, s[start:]); err == nil {
			if name := strings.TrimRight(s[:start], " "); name != "" {
				return name, s[start:]
			}
		}
	}
	return s, ""
}

// isEpoch reports whether stamp is a GNU diff time at the Unix epoch, in any
// time zone.
func isEpoch(stamp string) bool {
	t, err := time.Parse(diffTimestampLayout, stamp)
	return err == nil && t.Unix() == 0 && t.Nanosecond() == 0
}

// checkPath refuses a path the checkout must never write: empty, absolute,
// not canonical (empty or "." components, so that two spellings cannot name
// one file), escaping the tree (".."), or inside a repository's .git
// directory (as git apply refuses too).
func checkPath(path string) (Reason, string) {
	if path == "" {
		return ErrPath, "empty path"
	}
	if strings.IndexByte(path, 0) >= 0 {
		return ErrNUL, fmt.Sprintf("path %s holds a NUL byte", clip(path))
	}
	if path[0] == '/' {
		return ErrPath, fmt.Sprintf("absolute path %s", clip(path))
	}
	for _, c := range strings.Split(path, "/") {
		switch {
		case c == "":
			return ErrPath, fmt.Sprintf("path %s has an empty component", clip(path))
		case c == ".":
			return ErrPath, fmt.Sprintf("path %s has a \".\" component", clip(path))
		case c == "..":
			return ErrPath, fmt.Sprintf("path %s has a \"..\" component", clip(path))
		case strings.EqualFold(c, ".git"):
			return ErrPath, fmt.Sprintf("path %s is inside a .git directory", clip(path))
		}
	}
	return "", ""
}
