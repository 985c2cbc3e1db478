package patch

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: a patch is outside input. No input may panic; every refusal is
// a one-line *ParseError; whatever is accepted renders to a diff that parses
// back to an equal Patch, and renders the same again.
func FuzzParse(f *testing.F) {
	for _, c := range acceptCases() {
		f.Add([]byte(c.input))
	}
	for _, c := range refusalCases() {
		f.Add([]byte(c.input))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			var perr *ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error message spans lines: %q", err.Error())
			}
			if p != nil {
				t.Fatalf("refused input returned a patch")
			}
			return
		}
		if len(p.Files) == 0 {
			t.Fatalf("accepted a patch without files")
		}
		text := p.String()
		q, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("rendered patch does not parse: %v\ninput:\n%q\nrendered:\n%s", err, data, text)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the patch\ninput:\n%q\nrendered:\n%s\nfirst:\n%s\nsecond:\n%s", data, text, describe(p), describe(q))
		}
		if again := q.String(); again != text {
			t.Fatalf("String is not stable:\n%s\nthen:\n%s", text, again)
		}
	})
}

// FuzzStringParse comes at the round trip from the other side: it builds a
// valid one-file Patch from arbitrary paths and text, and checks that
// String() renders it to a diff Parse reads back unchanged. Names with
// quotes, spaces, " and ", control bytes or a/ and b/ components are where
// rendering and parsing can disagree.
func FuzzStringParse(f *testing.F) {
	f.Add("x.go", "y.go", uint8(0), false, uint8(0), "func f()", "line")
	f.Add("a/b c", "b/b c", uint8(3), false, uint8(2), "", "")
	f.Add("p and q", "x and /dev/null", uint8(1), true, uint8(1), "", "t")
	f.Add("sp ace ", "tab\there", uint8(4), false, uint8(3), " s", "\r")
	f.Add(`q"uote`, `back\slash`, uint8(3), true, uint8(0), "", "café")
	f.Fuzz(func(t *testing.T, oldPath, newPath string, op uint8, binary bool, variant uint8, section, text string) {
		if strings.ContainsAny(text+section, "\n\x00") {
			return // a line cannot hold them; Parse refuses NUL anywhere
		}
		file := &File{Op: Op(op%5) + 1, Binary: binary, OldPath: oldPath, NewPath: newPath}
		switch file.Op {
		case OpAdded:
			file.OldPath = ""
		case OpDeleted:
			file.NewPath = ""
		case OpModified:
			file.OldPath = newPath
		default:
			if oldPath == newPath {
				return
			}
		}
		if checkFile(0, &File{Op: file.Op, OldPath: file.OldPath, NewPath: file.NewPath, Binary: true}) != nil {
			return // not a path a patch may name
		}
		switch variant % 4 {
		case 1:
			file.OldHash, file.NewHash = "1234567", "89abcde"
			file.OldMode, file.NewMode = "100644", "100644"
		case 2:
			file.OldMode, file.NewMode = "100644", "100755"
		case 3:
			file.OldHash, file.NewHash = "1234567", "89abcde"
		}
		switch file.Op {
		case OpAdded:
			file.OldMode = ""
			if file.OldHash != "" {
				file.OldHash = "0000000"
			}
		case OpDeleted:
			file.NewMode = ""
			if file.NewHash != "" {
				file.NewHash = "0000000"
			}
		}
		if !binary {
			h := Hunk{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Section: section, Lines: []Line{
				{Kind: LineRemoved, Text: text, OldLine: 1},
				{Kind: LineAdded, Text: text + "!", NewLine: 1, NoNewlineAtEOF: variant >= 128},
			}}
			switch file.Op {
			case OpAdded:
				h.OldStart, h.OldLines, h.Lines = 0, 0, h.Lines[1:]
			case OpDeleted:
				h.NewStart, h.NewLines, h.Lines = 0, 0, h.Lines[:1]
			}
			file.Hunks = []Hunk{h}
		}
		p := &Patch{Files: []*File{file}}
		text = p.String()
		q, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("String() of a valid patch does not parse: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the patch\nrendered:\n%s\nbefore:\n%s\nafter:\n%s", text, describe(p), describe(q))
		}
	})
}
