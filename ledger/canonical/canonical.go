// Package canonical writes the canonical JSON form (RFC 8785, JSON
// Canonicalization Scheme) of values, so that what is hashed and signed has
// exactly one byte representation.
//
// Numbers are limited to what both Go and JCS render identically: integers
// within ±2^53 and finite floats (encoding/json already formats floats as
// ECMAScript does). Anything else is an error, never a silent rounding.
package canonical

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// maxSafeInteger is 2^53, the largest integer every JSON reader keeps exact.
const maxSafeInteger = 1 << 53

// Marshal encodes v with encoding/json and returns its canonical form.
func Marshal(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Transform(raw)
}

// Transform returns the canonical form of a JSON document.
func Transform(doc []byte) ([]byte, error) {
	// encoding/json would quietly turn invalid UTF-8 into U+FFFD.
	if !utf8.Valid(doc) {
		return nil, fmt.Errorf("canonical: document is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("canonical: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("canonical: trailing data after the JSON value")
	}
	var buf bytes.Buffer
	if err := write(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func write(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case json.Number:
		return writeNumber(buf, v)
	case string:
		return writeString(buf, v)
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := write(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// JCS orders keys by their UTF-16 code units.
		slices.SortFunc(keys, compareUTF16)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeString(buf, k); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := write(buf, v[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("canonical: unexpected %T", v)
	}
	return nil
}

func writeNumber(buf *bytes.Buffer, n json.Number) error {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		if i > maxSafeInteger || i < -maxSafeInteger {
			return fmt.Errorf("canonical: integer %d is outside ±2^53", i)
		}
		buf.WriteString(strconv.FormatInt(i, 10))
		return nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("canonical: number %s is not a finite float64", n)
	}
	// encoding/json renders float64 the ECMAScript way.
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("canonical: %w", err)
	}
	buf.Write(b)
	return nil
}

func writeString(buf *bytes.Buffer, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("canonical: string is not valid UTF-8")
	}
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(buf, `\u%04x`, r)
			} else {
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
	return nil
}

func compareUTF16(a, b string) int {
	ua, ub := utf16Units(a), utf16Units(b)
	return slices.Compare(ua, ub)
}

func utf16Units(s string) []uint16 {
	units := make([]uint16, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			units = append(units, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		units = append(units, uint16(r))
	}
	return units
}
