package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseAnchorRoundTripAndRefusals(t *testing.T) {
	a := &anchor{Schema: anchorSchema, Ledger: &ledgerMark{Seq: 3, Head: strings.Repeat("ab", 32)},
		Log:     &logMark{LogID: strings.Repeat("cd", 32), TreeSize: 2, RootHash: strings.Repeat("ef", 32), SealedIndex: 1},
		Retired: []string{strings.Repeat("01", 32), strings.Repeat("02", 32)}}
	b := a.marshal()
	got, err := parseAnchor(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.marshal(), b) {
		t.Fatal("round trip changed the anchor")
	}
	good := string(b)
	for name, bad := range map[string]string{
		"a duplicate key":              strings.Replace(good, `"seq": 3,`, `"seq": 3, "seq": 9,`, 1),
		"a case-variant key":           strings.Replace(good, `"seq"`, `"SEQ"`, 1),
		"trailing data":                good + "{}",
		"other spacing":                strings.Replace(good, "  ", "\t", 1),
		"an unknown key":               strings.Replace(good, `"schema"`, `"extra": 1, "schema"`, 1),
		"another schema":               strings.Replace(good, anchorSchema, "sealgate.anchor.v0", 1),
		"a short head":                 strings.Replace(good, strings.Repeat("ab", 32), "abab", 1),
		"upper-case hex":               strings.Replace(good, strings.Repeat("ab", 32), strings.Repeat("AB", 32), 1),
		"a seq without a head":         strings.Replace(good, `"head": "`+strings.Repeat("ab", 32)+`"`, `"head": ""`, 1),
		"a sealed index past the tree": strings.Replace(good, `"sealed_index": 1`, `"sealed_index": 2`, 1),
		"unsorted retired ids":         strings.Replace(strings.Replace(good, strings.Repeat("01", 32), "X", 1), strings.Repeat("02", 32), strings.Repeat("01", 32), 1),
	} {
		if bad == good {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if _, err := parseAnchor([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParseAnchor(f *testing.F) {
	f.Add((&anchor{Schema: anchorSchema}).marshal())
	f.Add((&anchor{Schema: anchorSchema, Ledger: &ledgerMark{Seq: 1, Head: strings.Repeat("ab", 32)}}).marshal())
	f.Add([]byte(`{"schema":"sealgate.anchor.v1","schema":"x"}`))
	f.Add([]byte("{}\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := parseAnchor(data)
		if err != nil {
			return
		}
		// What parses is exactly what sealgate writes for it.
		if !bytes.Equal(a.marshal(), data) {
			t.Fatalf("accepted bytes that are not the anchor's own form:\n%q\n%q", data, a.marshal())
		}
	})
}
