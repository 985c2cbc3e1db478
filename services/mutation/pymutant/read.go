package pymutant

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// wireSite is one site as find.py writes it. Every field is a pointer so
// that a missing field is an error rather than a zero.
type wireSite struct {
	Line        *int    `json:"line"`
	Col         *int    `json:"col"`
	Start       *int    `json:"start"`
	End         *int    `json:"end"`
	Original    *string `json:"original"`
	Replacement *string `json:"replacement"`
	Operator    *string `json:"operator"`
}

// wireOutput is find.py's whole output.
type wireOutput struct {
	Sites *[]wireSite `json:"sites"`
}

// ReadSites reads find.py's output out for the source src, strictly: out
// must be exactly one JSON object of at most MaxOutput bytes with no
// unknown or missing fields and at most MaxSites sites, sorted by Start,
// Operator and Replacement without duplicates, and every site must fit src
// (see Apply). It fills in each Description. Any violation is an error.
//
// ReadSites cannot tell code from strings or comments, so it cannot prove
// that a span is really the token it claims to be; that is what the
// script's own parsing is for. It does make sure that every site is a
// well-formed instance of its operator at a real place in src.
func ReadSites(src, out []byte) ([]Site, error) {
	if len(out) > MaxOutput {
		return nil, fmt.Errorf("output is %d bytes, more than %d", len(out), MaxOutput)
	}
	if !utf8.Valid(out) {
		return nil, errors.New("output is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var w wireOutput
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("decoding output: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("output holds more than one JSON value")
	}
	if w.Sites == nil {
		return nil, errors.New(`output has no "sites" list`)
	}
	if len(*w.Sites) > MaxSites {
		return nil, fmt.Errorf("output has %d sites, more than %d", len(*w.Sites), MaxSites)
	}
	starts := lineStarts(src)
	sites := make([]Site, 0, len(*w.Sites))
	for i, ws := range *w.Sites {
		if ws.Line == nil || ws.Col == nil || ws.Start == nil || ws.End == nil ||
			ws.Original == nil || ws.Replacement == nil || ws.Operator == nil {
			return nil, fmt.Errorf("site %d: missing field", i)
		}
		s := Site{
			Line:        *ws.Line,
			Col:         *ws.Col,
			Start:       *ws.Start,
			End:         *ws.End,
			Original:    *ws.Original,
			Replacement: *ws.Replacement,
			Operator:    *ws.Operator,
		}
		desc, err := check(src, starts, s)
		if err != nil {
			return nil, fmt.Errorf("site %d: %w", i, err)
		}
		s.Description = desc
		if i > 0 && compareSites(sites[i-1], s) >= 0 {
			return nil, fmt.Errorf("site %d: out of order or a duplicate", i)
		}
		sites = append(sites, s)
	}
	return sites, nil
}

// compareSites orders sites by Start, Operator and Replacement, the order
// Find returns them in.
func compareSites(a, b Site) int {
	return cmp.Or(
		cmp.Compare(a.Start, b.Start),
		strings.Compare(a.Operator, b.Operator),
		strings.Compare(a.Replacement, b.Replacement),
	)
}

// Apply returns the mutant: a copy of src with s applied. It returns an
// error, and leaves src alone, when s does not fit src: its span is out of
// range or does not hold Original, Line and Col do not agree with Start,
// or Original and Replacement are not an instance of s.Operator.
// Description is not checked.
func Apply(src []byte, s Site) ([]byte, error) {
	if _, err := check(src, lineStarts(src), s); err != nil {
		return nil, fmt.Errorf("pymutant: site does not fit the source: %w", err)
	}
	out := make([]byte, 0, len(src)-(s.End-s.Start)+len(s.Replacement))
	out = append(out, src[:s.Start]...)
	out = append(out, s.Replacement...)
	return append(out, src[s.End:]...), nil
}

// lineStarts returns the byte offset of each line's start; lines end with
// \n, \r\n or a lone \r, as for the Python parser.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// check checks s against src, whose line starts are starts, and returns
// its description.
func check(src []byte, starts []int, s Site) (string, error) {
	if s.Start < 0 || s.End <= s.Start || s.End > len(src) {
		return "", fmt.Errorf("span [%d, %d) is not within the %d-byte source", s.Start, s.End, len(src))
	}
	if s.Original != string(src[s.Start:s.End]) {
		return "", fmt.Errorf("original %q is not the source's %q", s.Original, src[s.Start:s.End])
	}
	if s.Line < 1 || s.Line > len(starts) {
		return "", fmt.Errorf("line %d is not within the source's %d lines", s.Line, len(starts))
	}
	lineStart, next := starts[s.Line-1], len(src)
	if s.Line < len(starts) {
		next = starts[s.Line]
	}
	if s.Start < lineStart || s.Start >= next {
		return "", fmt.Errorf("start %d is not on line %d", s.Start, s.Line)
	}
	if s.Col != s.Start-lineStart+1 {
		return "", fmt.Errorf("column %d is not start %d's column %d", s.Col, s.Start, s.Start-lineStart+1)
	}
	if !utf8.ValidString(s.Original) || !utf8.ValidString(s.Replacement) {
		return "", errors.New("original or replacement is not valid UTF-8")
	}
	if s.Replacement == s.Original {
		return "", fmt.Errorf("replacement %q is the original", s.Replacement)
	}
	return describe(s.Operator, s.Original, s.Replacement, src[s.End:])
}

// describe checks that orig → repl is an instance of op and describes it.
// after is the source that follows the span.
func describe(op, orig, repl string, after []byte) (string, error) {
	want, canon := "", orig
	switch op {
	case OpComparison:
		want = swap(orig, "==", "!=", "!=", "==", "<", ">=", ">=", "<", "<=", ">", ">", "<=")
	case OpArithmetic:
		want = swap(orig, "+", "-", "-", "+", "*", "/", "/", "*", "//", "/", "%", "*", "**", "*")
	case OpAugmented:
		want = swap(orig, "+=", "-=", "-=", "+=", "*=", "/=", "/=", "*=", "//=", "/=", "%=", "*=")
	case OpBoolean:
		want = swap(orig, "and", "or", "or", "and")
	case OpBooleanLiteral:
		want = swap(orig, "True", "False", "False", "True")
	case OpIdentity:
		if orig == "is" {
			want = "is not"
		} else if gap, ok := between(orig, "is", "not"); ok && gap != "" {
			want, canon = "is", "is not"
		}
	case OpMembership:
		if orig == "in" {
			want = "not in"
		} else if gap, ok := between(orig, "not", "in"); ok && gap != "" {
			want, canon = "in", "not in"
		}
	case OpNot:
		// The span runs from the keyword to the operand's first token,
		// which must follow; without a gap it cannot continue a name.
		gap, ok := between(orig, "not", "")
		if !ok || len(after) == 0 || isGapByte(after[0]) || gap == "" && isNameByte(after[0]) {
			return "", fmt.Errorf("%q is not a not keyword and its gap", orig)
		}
		if repl != "" {
			return "", fmt.Errorf("not is replaced with %q, not removed", repl)
		}
		return `remove "not"`, nil
	case OpReturnNone:
		value, ok := strings.CutPrefix(orig, "return")
		if !ok || value == "" || isNameByte(value[0]) {
			return "", fmt.Errorf("%q is not a return statement with a value", orig)
		}
		if repl != "return None" {
			return "", fmt.Errorf("return statement replaced with %q, not %q", repl, "return None")
		}
		return "replace the returned value with None", nil
	case OpNumber:
		if err := checkNumber(orig, repl); err != nil {
			return "", err
		}
		want = repl
	default:
		return "", fmt.Errorf("unknown operator %q", op)
	}
	if want == "" {
		return "", fmt.Errorf("operator %s does not apply to %q", op, orig)
	}
	if repl != want {
		return "", fmt.Errorf("%s operator %q is replaced with %q, not %q", op, orig, repl, want)
	}
	return fmt.Sprintf("replace %q with %q", canon, repl), nil
}

// swap looks tok up in pairs (from, to, from, to, ...) and returns its
// replacement, or "".
func swap(tok string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] == tok {
			return pairs[i+1]
		}
	}
	return ""
}

// between splits s into first, a gap and last, and reports whether the gap
// is only what may separate two Python tokens: spaces, tabs, form feeds,
// line ends, backslash continuations and comments.
func between(s, first, last string) (string, bool) {
	if len(s) < len(first)+len(last) || !strings.HasPrefix(s, first) || !strings.HasSuffix(s, last) {
		return "", false
	}
	gap := s[len(first) : len(s)-len(last)]
	for i := 0; i < len(gap); i++ {
		switch c := gap[i]; {
		case c == '#':
			// A comment runs to the line end, which must be in the gap.
			for i+1 < len(gap) && gap[i+1] != '\n' && gap[i+1] != '\r' {
				i++
			}
			if i+1 >= len(gap) {
				return "", false
			}
		case c == '\\':
			if i+1 >= len(gap) || gap[i+1] != '\n' && gap[i+1] != '\r' {
				return "", false
			}
		case c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r':
		default:
			return "", false
		}
	}
	return gap, true
}

// isGapByte reports whether c can start the gap between two tokens.
func isGapByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r' || c == '#' || c == '\\'
}

// isNameByte reports whether c can continue a Python name or keyword
// (any non-ASCII byte may be part of a Unicode identifier).
func isNameByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// checkNumber checks that repl is orig+1 as find.py writes it: for an int
// literal the decimal digits of its value plus one, for a float literal a
// float literal whose value is the float value plus one, finite and
// different.
func checkNumber(orig, repl string) error {
	if len(orig) > maxNumberLen {
		return fmt.Errorf("number literal of %d bytes, more than %d", len(orig), maxNumberLen)
	}
	switch {
	case isInt(orig):
		// Python's grammar leaves no leading zeros but in 0, 00, ...,
		// so base 0 reads every literal it accepts with Python's value.
		v, ok := new(big.Int).SetString(strings.ReplaceAll(orig, "_", ""), 0)
		if !ok {
			return fmt.Errorf("cannot read int literal %q", orig)
		}
		if want := v.Add(v, big.NewInt(1)).String(); repl != want {
			return fmt.Errorf("int %s is replaced with %q, not %s", orig, repl, want)
		}
		return nil
	case isFloat(orig):
		v, err := strconv.ParseFloat(strings.ReplaceAll(orig, "_", ""), 64)
		if err != nil {
			return fmt.Errorf("cannot read float literal %q: %w", orig, err)
		}
		if !isFloat(repl) || strings.Contains(repl, "_") {
			return fmt.Errorf("float %s is replaced with %q, not a float literal", orig, repl)
		}
		r, err := strconv.ParseFloat(repl, 64)
		if err != nil || r != v+1 || r == v || math.IsInf(r, 0) {
			return fmt.Errorf("float %s is replaced with %s, not its value plus one", orig, repl)
		}
		return nil
	}
	return fmt.Errorf("%q is not an int or float literal", orig)
}

// isInt reports whether s is a Python integer literal.
func isInt(s string) bool {
	if len(s) > 2 && s[0] == '0' {
		var digit func(byte) bool
		switch s[1] {
		case 'x', 'X':
			digit = func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
		case 'o', 'O':
			digit = func(c byte) bool { return '0' <= c && c <= '7' }
		case 'b', 'B':
			digit = func(c byte) bool { return c == '0' || c == '1' }
		}
		if digit != nil {
			// Prefixed digits may start with an underscore: 0x_1f.
			rest := s[2:]
			if rest[0] == '_' {
				rest = rest[1:]
			}
			return rest != "" && digits(rest, digit) == len(rest)
		}
	}
	if s == "" {
		return false
	}
	if s[0] == '0' {
		return digits(s, func(c byte) bool { return c == '0' }) == len(s)
	}
	return digits(s, isDigit) == len(s)
}

// isFloat reports whether s is a Python float literal (not an imaginary
// one): digits with a fraction, an exponent or both.
func isFloat(s string) bool {
	n := digits(s, isDigit)
	point := false
	if n < len(s) && s[n] == '.' {
		point = true
		m := digits(s[n+1:], isDigit)
		if n == 0 && m == 0 {
			return false
		}
		n += 1 + m
	} else if n == 0 {
		return false
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		n++
		if n < len(s) && (s[n] == '+' || s[n] == '-') {
			n++
		}
		m := digits(s[n:], isDigit)
		if m == 0 {
			return false
		}
		return n+m == len(s)
	}
	return point && n == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits returns the length of the longest prefix of s of the form
// digit (["_"] digit)*, 0 if there is none.
func digits(s string, digit func(byte) bool) int {
	if s == "" || !digit(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) {
		if digit(s[n]) {
			n++
		} else if s[n] == '_' && n+1 < len(s) && digit(s[n+1]) {
			n += 2
		} else {
			break
		}
	}
	return n
}
