package attest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
)

// checkStrict walks JSON data against the Go type it is decoded into and
// refuses what encoding/json takes without a word: a key given twice in
// one object (the decoder keeps the last), two keys that differ only in
// case, or a key that matches a field only case-insensitively (the decoder
// folds both onto the field, so a bundle could carry one envelope under
// "verdict" and another under "VERDICT"), and anything after the value.
// Objects the type does not describe (maps, interfaces) are checked for
// duplicates at every depth too.
func checkStrict(data []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := walkStrict(dec, t, "$", 0); err != nil {
		return err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err == nil {
			return fmt.Errorf("trailing data after the JSON value (%v)", tok)
		}
		return fmt.Errorf("trailing data after the JSON value: %v", err)
	}
	return nil
}

// maxDepth bounds nesting: the bundle is a few levels deep.
const maxDepth = 64

func walkStrict(dec *json.Decoder, t reflect.Type, at string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("%s: nested deeper than %d", at, maxDepth)
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		var fields map[string]reflect.Type
		var elem reflect.Type
		switch {
		case t != nil && t.Kind() == reflect.Struct:
			fields = jsonFields(t)
		case t != nil && t.Kind() == reflect.Map:
			elem = t.Elem()
		}
		seen := map[string]string{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			key, _ := kt.(string)
			f := foldKey(key)
			if prev, dup := seen[f]; dup {
				if prev == key {
					return fmt.Errorf("%s: key %q appears twice", at, key)
				}
				return fmt.Errorf("%s: keys %q and %q differ only in case", at, prev, key)
			}
			seen[f] = key
			sub := elem
			if fields != nil {
				ft, ok := fields[key]
				if !ok {
					for name := range fields {
						if foldKey(name) == f {
							return fmt.Errorf("%s: key %q is not %q: keys are case-sensitive", at, key, name)
						}
					}
					return fmt.Errorf("%s: unknown key %q", at, key)
				}
				sub = ft
			}
			if err := walkStrict(dec, sub, at+"."+key, depth+1); err != nil {
				return err
			}
		}
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walkStrict(dec, elem, fmt.Sprintf("%s[%d]", at, i), depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: unexpected %v", at, d)
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	return nil
}

// jsonFields maps the JSON names of a struct's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = sf.Name
		}
		out[name] = sf.Type
	}
	return out
}

// foldKey maps a key to one spelling per case-insensitive class, as
// encoding/json matches keys (Unicode simple folding: K, k and the Kelvin
// sign are one).
func foldKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}
