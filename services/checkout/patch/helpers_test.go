package patch

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// diff joins lines into a diff text, each ended by a newline.
func diff(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// describe writes every field of a Patch, one file or hunk or line per
// line, so that tests can state a whole expected Patch readably.
func describe(p *Patch) string {
	var b strings.Builder
	for _, f := range p.Files {
		fmt.Fprintf(&b, "%s %q %q", f.Op, f.OldPath, f.NewPath)
		if f.Binary {
			b.WriteString(" binary")
		}
		if f.OldMode != "" || f.NewMode != "" {
			fmt.Fprintf(&b, " mode %q %q", f.OldMode, f.NewMode)
		}
		if f.OldHash != "" || f.NewHash != "" {
			fmt.Fprintf(&b, " index %s %s", f.OldHash, f.NewHash)
		}
		b.WriteByte('\n')
		for _, h := range f.Hunks {
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@ %q\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section)
			for _, l := range h.Lines {
				fmt.Fprintf(&b, "  %s %d %d %q", l.Kind, l.OldLine, l.NewLine, l.Text)
				if l.NoNewlineAtEOF {
					b.WriteString(" noeol")
				}
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// expect builds the describe text of a Patch from lines.
func expect(lines ...string) string { return diff(lines...) }

// mustParse parses input or fails the test.
func mustParse(t *testing.T, input string) *Patch {
	t.Helper()
	p, err := Parse([]byte(input))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

// checkRoundTrip checks that p renders to a diff that parses back to p.
func checkRoundTrip(t *testing.T, p *Patch) {
	t.Helper()
	text := p.String()
	q, err := Parse([]byte(text))
	if err != nil {
		t.Fatalf("String() does not parse: %v\n%s", err, text)
	}
	if !reflect.DeepEqual(p, q) {
		t.Fatalf("round trip changed the patch\nrendered:\n%s\nbefore:\n%s\nafter:\n%s", text, describe(p), describe(q))
	}
}
