package cover

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
)

// CodeLines returns the 1-based lines of a Go source file that hold code:
// at least one token that is not a comment, as go/scanner reads it (the
// semicolons it inserts at line ends are not code). Blank and comment-only
// lines are not in the map. A line inside a token that spans lines counts
// as that token: inside a raw string it holds code, inside a block comment
// it does not. Line directives are not applied: lines are the file's own.
// A source that does not scan is an error naming the first bad position.
func CodeLines(src []byte) (map[int]bool, error) {
	s, err := scanSource(src)
	if err != nil {
		return nil, err
	}
	lines := map[int]bool{}
	for _, t := range s.tokens {
		for l := t.line; l <= t.endLine; l++ {
			lines[l] = true
		}
	}
	return lines, nil
}

// position is a place in a source file; columns count bytes from 1.
type position struct{ line, col int }

func (p position) before(q position) bool {
	return p.line < q.line || (p.line == q.line && p.col < q.col)
}

// sourceToken is a code token of a source file.
type sourceToken struct {
	position
	endLine int // the last line the token spans
	// deciding tokens are those that can tie a line to a cover block:
	// every code token but braces and semicolons.
	deciding bool
}

// source is a scanned Go source file.
type source struct {
	lineLen   []int // byte length of each line without its "\n", index line-1
	tokens    []sourceToken
	directive int // the line of the first line directive; 0 if none
}

// scanSource scans src with go/scanner.
func scanSource(src []byte) (*source, error) {
	s := &source{}
	lineStart := []int{0}
	for i, c := range src {
		if c == '\n' {
			s.lineLen = append(s.lineLen, i-lineStart[len(lineStart)-1])
			lineStart = append(lineStart, i+1)
		}
	}
	if last := lineStart[len(lineStart)-1]; last < len(src) {
		s.lineLen = append(s.lineLen, len(src)-last)
	}
	// at converts a byte offset to a position from the file's own lines:
	// token.File applies line directives, which would move it.
	at := func(offset int) position {
		i := sort.Search(len(lineStart), func(i int) bool { return lineStart[i] > offset }) - 1
		return position{line: i + 1, col: offset - lineStart[i] + 1}
	}

	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var firstErr error
	var sc scanner.Scanner
	sc.Init(file, src, func(pos token.Position, msg string) {
		if firstErr == nil {
			p := at(pos.Offset)
			firstErr = fmt.Errorf("source does not scan: line %d column %d: %s", p.line, p.col, msg)
		}
	}, scanner.ScanComments)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted by the scanner, not in the source
		}
		p := at(file.Offset(pos))
		if tok == token.COMMENT {
			if s.directive == 0 && isLineDirective(lit) {
				s.directive = p.line
			}
			continue
		}
		t := sourceToken{position: p, endLine: p.line}
		if tok == token.STRING && len(lit) > 0 && lit[0] == '`' {
			// The scanner removes "\r" from raw strings, not "\n".
			t.endLine += bytes.Count([]byte(lit), []byte("\n"))
		}
		t.deciding = tok != token.LBRACE && tok != token.RBRACE && tok != token.SEMICOLON
		s.tokens = append(s.tokens, t)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return s, nil
}

// isLineDirective reports whether a comment is one go/scanner may take as
// a line directive. The scanner honours "//line " only at the start of a
// line; any such comment is refused, to be safe.
func isLineDirective(comment string) bool {
	return len(comment) >= 7 && (comment[:7] == "//line " || comment[:7] == "/*line ")
}

// hasFunctionBody reports whether src declares a function with a body or a
// function literal: code cmd/cover always gives at least one block.
func hasFunctionBody(src []byte) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return false, fmt.Errorf("source does not parse: %v", firstLine(err))
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			found = found || n.Body != nil
		case *ast.FuncLit:
			found = true
		}
		return !found
	})
	return found, nil
}

// caseLabels returns, for each line of src that holds part of a case or
// default label of a switch, type switch or select (from its "case" or
// "default" to its colon), the position of that statement's "switch" or
// "select" keyword. cmd/cover gives a label no block of its own: the
// labels are evaluated when the switch runs, in the block that holds the
// switch header, which is the block that claims the keyword (a default is
// chosen there when no label matches). A select's channel operands and
// the values it sends are evaluated, once each, whenever the select runs,
// so `case ch <- n:` → `case ch <- n * 2:` is code the header's tests
// execute. A source that does not parse gives nothing.
func caseLabels(src []byte) map[int][]position {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	at := func(p token.Pos) position {
		// No line directive reaches here (scanFile refuses them), and
		// PositionFor without adjustment ignores any: the file's own lines.
		q := fset.PositionFor(p, false)
		return position{line: q.Line, col: q.Column}
	}
	out := map[int][]position{}
	label := func(sw token.Pos, body *ast.BlockStmt) {
		kw := at(sw)
		for _, st := range body.List {
			var from, to token.Pos
			switch cc := st.(type) {
			case *ast.CaseClause:
				from, to = cc.Case, cc.Colon
			case *ast.CommClause:
				from, to = cc.Case, cc.Colon
			default:
				continue
			}
			for l := at(from).line; l <= at(to).line; l++ {
				out[l] = append(out[l], kw)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			label(n.Switch, n.Body)
		case *ast.TypeSwitchStmt:
			label(n.Switch, n.Body)
		case *ast.SelectStmt:
			label(n.Select, n.Body)
		}
		return true
	})
	return out
}

// firstLine returns the first of a parser's error list, which may be long.
func firstLine(err error) error {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		return list[0]
	}
	return err
}
