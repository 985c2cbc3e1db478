package mutant

import (
	"bytes"
	"math/big"
	"strings"
	"unicode/utf8"
)

// FileMutant is one data mutant of a text file's content: the bytes
// [Start, End) replaced by Replacement.
type FileMutant struct {
	// Line and Col are the 1-based position of the change (Col in bytes).
	Line, Col int
	// Operator is data_bool (true ↔ false), data_number (a number ±1),
	// data_string (the line's last value changed in one character),
	// data_drop_element (one element of a key's list removed, as for a
	// Go composite literal's) or data_drop_line (a line
	// removed).
	Operator string
	// Description says what changes, e.g. "true → false" or "drop line 3".
	Description string
	Start, End  int
	Replacement []byte
}

// Data mutant operators of text content.
const (
	OpDataBool     = "data_bool"
	OpDataNumber   = "data_number"
	OpDataDropLine = "data_drop_line"
)

// Apply returns content with the mutant's change, in a new slice.
func (m FileMutant) Apply(content []byte) []byte {
	out := make([]byte, 0, len(content)-(m.End-m.Start)+len(m.Replacement))
	out = append(out, content[:m.Start]...)
	out = append(out, m.Replacement...)
	return append(out, content[m.End:]...)
}

// DataFileMutants returns at most max data mutants of a text file's
// content, for data a program reads (a fixture, a table, a configuration):
// each true/false word flipped (also True/False, TRUE/FALSE), each decimal
// number +1 and -1, each line's last other value changed in one character,
// each element of a key's list (see listElements) dropped, each non-blank
// line dropped. When there are more than
// max, the lines take turns: every line with a mutant gets one, in line
// order, before any gets a second. Content that is not UTF-8 text (or holds
// a NUL byte) has none. The result is deterministic.
func DataFileMutants(content []byte, max int) []FileMutant {
	if max <= 0 {
		return nil
	}
	perLine := lineMutants(content)
	var out []FileMutant
	for round := 0; len(out) < max; round++ {
		added := false
		for _, ms := range perLine {
			if round < len(ms) {
				out = append(out, ms[round])
				added = true
				if len(out) == max {
					return out
				}
			}
		}
		if !added {
			break
		}
	}
	return out
}

// lineMutants returns the data mutants of every line with one, by line:
// flips first, then numbers, then the last value, then the list elements'
// removals, then the line's removal.
func lineMutants(content []byte) [][]FileMutant {
	if !utf8.Valid(content) || bytes.IndexByte(content, 0) >= 0 {
		return nil
	}
	var out [][]FileMutant
	start := 0
	for line := 1; start < len(content); line++ {
		end := bytes.IndexByte(content[start:], '\n')
		next := len(content)
		if end < 0 {
			end = len(content)
		} else {
			end += start
			next = end + 1
		}
		text := string(content[start:end])
		var ms []FileMutant
		ms = append(ms, boolWords(text, line, start)...)
		ms = append(ms, numbers(text, line, start)...)
		ms = append(ms, lastValue(text, line, start)...)
		ms = append(ms, listElements(text, line, start)...)
		if strings.TrimSpace(text) != "" {
			ms = append(ms, FileMutant{Line: line, Col: 1, Operator: OpDataDropLine,
				Description: "drop line " + itoa(line) + " (" + clip(strings.TrimSpace(text)) + ")", Start: start, End: next})
		}
		if len(ms) > 0 {
			out = append(out, ms)
		}
		start = next
	}
	return out
}

// boolWords finds true/false words in a line.
func boolWords(text string, line, base int) []FileMutant {
	flips := map[string]string{"true": "false", "false": "true", "True": "False", "False": "True", "TRUE": "FALSE", "FALSE": "TRUE"}
	var out []FileMutant
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) || i > 0 && isWordByte(text[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if to, ok := flips[text[i:j]]; ok {
			out = append(out, FileMutant{Line: line, Col: i + 1, Operator: OpDataBool, Description: text[i:j] + " → " + to,
				Start: base + i, End: base + j, Replacement: []byte(to)})
		}
		i = j
	}
	return out
}

// numbers finds decimal numbers (an optional minus sign, digits, an
// optional fraction) that are not part of a word, and changes each by ±1.
func numbers(text string, line, base int) []FileMutant {
	var out []FileMutant
	for i := 0; i < len(text); i++ {
		if !isDigit(text[i]) || i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.') {
			continue
		}
		s := i
		if i > 0 && text[i-1] == '-' && (i == 1 || !isWordByte(text[i-2]) && text[i-2] != '.') {
			s = i - 1
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
			j++
			for j < len(text) && isDigit(text[j]) {
				j++
			}
		}
		if j < len(text) && (isWordByte(text[j]) || text[j] == '.') {
			i = j
			continue // a version, a name: not a number
		}
		lit := text[s:j]
		r, ok := new(big.Rat).SetString(lit)
		if !ok {
			i = j
			continue
		}
		decimals := 0
		if k := strings.IndexByte(lit, '.'); k >= 0 {
			decimals = len(lit) - k - 1
		}
		for _, d := range []int64{1, -1} {
			v := new(big.Rat).Add(r, big.NewRat(d, 1)).FloatString(decimals)
			out = append(out, FileMutant{Line: line, Col: s + 1, Operator: OpDataNumber, Description: lit + " → " + v,
				Start: base + s, End: base + j, Replacement: []byte(v)})
		}
		i = j
	}
	return out
}

// lastValue changes the line's last value (its last run of characters
// that are not space, quotes or the punctuation of a key and its value:
// "off" in mfa=off, example.com in "host": "example.com",) in one
// character, keeping its shape (see alteredString): a test that only
// parses the file, or checks a prefix of the value, does not notice it;
// one that pins the value does. A true/false word or a number has its own
// mutants.
func lastValue(text string, line, base int) []FileMutant {
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\r' || strings.ContainsRune("\"'`,;:=[]{}()<>", r)
	})
	if len(fields) == 0 {
		return nil
	}
	v := fields[len(fields)-1]
	switch v {
	case "true", "false", "True", "False", "TRUE", "FALSE":
		return nil
	}
	if _, ok := new(big.Rat).SetString(v); ok {
		return nil
	}
	to, ok := alteredString(v)
	if !ok {
		return nil
	}
	i := strings.LastIndex(text, v)
	return []FileMutant{{Line: line, Col: i + 1, Operator: OpDataString, Description: clip(v) + " → " + clip(to),
		Start: base + i, End: base + i + len(v), Replacement: []byte(to)}}
}

// listElements drops, one at a time, each element of the list a line
// gives a key (what follows its first = or :, as in user=read,write,
// "roles": ["read", "write"], or origins: https://a.example,
// https://b.example; else what follows its last one), with the separator
// that joins it to the next element (to the previous one, for the last).
// Elements are separated by commas, semicolons or bars; a value with
// none of these is a list of words when it looks like one (see wordList),
// as a program splitting it with strings.Fields reads it. Only the last
// value has a data_string mutant, so without these a value added in front
// of a list (user=delete,read,write) would change no mutant the tests must
// notice. A list needs two elements (a lone value is the last value, and
// the line's removal covers it); an element is what lies between
// separators, less spaces, quotes and brackets; a drop that gives the same
// line as an earlier one (a repeated element) is left out.
func listElements(text string, line, base int) []FileMutant {
	split := func(key int) []span {
		var elems []span
		at := key + 1
		for at <= len(text) {
			end := strings.IndexAny(text[at:], ",;|")
			if end < 0 {
				end = len(text)
			} else {
				end += at
			}
			s, e := at, end
			for s < e && strings.IndexByte(" \t\r\"'`[]{}()", text[s]) >= 0 {
				s++
			}
			for e > s && strings.IndexByte(" \t\r\"'`[]{}()", text[e-1]) >= 0 {
				e--
			}
			if s < e {
				elems = append(elems, span{s, e})
			}
			at = end + 1
		}
		return elems
	}
	first := strings.IndexAny(text, "=:")
	if first < 0 {
		return nil
	}
	elems := split(first)
	if last := strings.LastIndexAny(text, "=:"); len(elems) < 2 && last != first {
		elems = split(last)
	}
	if len(elems) < 2 {
		elems = wordList(text, first)
	}
	if len(elems) < 2 {
		return nil
	}
	var out []FileMutant
	seen := map[string]bool{}
	for i, el := range elems {
		cut := span{el.start, 0}
		if i+1 < len(elems) {
			cut.end = elems[i+1].start
		} else {
			cut = span{elems[i-1].end, el.end}
		}
		after := text[:cut.start] + text[cut.end:]
		if seen[after] {
			continue
		}
		seen[after] = true
		out = append(out, FileMutant{
			Line: line, Col: el.start + 1, Operator: OpDataDropElement,
			Description: "drop element " + clip(text[el.start:el.end]),
			Start:       base + cut.start, End: base + cut.end,
		})
	}
	return out
}

// span is a byte range [start, end) of a line.
type span struct{ start, end int }

// maxWords is the most words a space-separated value may have to be read
// as a list: grants and tags are short, and a longer run of words is more
// likely prose, whose every word would otherwise become a mutant.
const maxWords = 8

// wordList returns the words of the value that follows the key separator
// at sep in text (user=delete read write) when the value is a list of
// words: the key before sep is one word, and the value has 2 to maxWords
// words, each made only of letters, digits and _-.:/* (names, grants,
// paths, globs, URLs). Anything else (a sentence with a comma or a quote,
// a key with spaces, a long run of words) is not a list, so prose in a
// data file does not turn into a mutant per word; nil then.
func wordList(text string, sep int) []span {
	key := strings.TrimSpace(text[:sep])
	if key == "" || strings.ContainsAny(key, " \t") || !wordLike(strings.Trim(key, "\"'`")) {
		return nil
	}
	var words []span
	for at := sep + 1; at < len(text); {
		for at < len(text) && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r') {
			at++
		}
		end := at
		for end < len(text) && text[end] != ' ' && text[end] != '\t' && text[end] != '\r' {
			end++
		}
		if at == end {
			break
		}
		if !wordLike(text[at:end]) || len(words) == maxWords {
			return nil
		}
		words = append(words, span{at, end})
		at = end
	}
	return words
}

// wordLike reports whether w is a non-empty run of ASCII letters and
// digits and the punctuation of names, paths and URLs (_-.:/*).
func wordLike(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isWordByte(c) || c >= 0x80 {
			if !strings.ContainsRune("-.:/*", rune(c)) {
				return false
			}
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// clip shortens text for a description: one line, at most 40 bytes.
func clip(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) <= 40 {
		return text
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "..."
}
