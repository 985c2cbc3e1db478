package admission_test

import (
	"bytes"
	"testing"

	"github.com/sealgate/sealgate/ledger/admission"
)

// FuzzParse: Parse never panics, and what it accepts it writes back
// byte for byte (one encoding per admission).
func FuzzParse(f *testing.F) {
	fx := newFixture(f)
	for _, h := range admitAll(fx.signer, fx.a.Records()[:2]) {
		f.Add(h)
	}
	f.Add("")
	f.Add("v1 1 x y z")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := admission.Parse(s)
		if err != nil {
			if admission.CodeOf(err) != admission.CodeMalformed {
				t.Fatalf("Parse(%q): %v is not a malformed refusal", s, err)
			}
			return
		}
		if a.Seq == 0 || a.String() != s {
			t.Fatalf("Parse(%q) = %+v, written back as %q", s, a, a.String())
		}
	})
}

// FuzzCheck: a records-topic message — admission header and payload — never
// panics the check; a refused one says why with a known code; an admitted
// one is exactly a record the guard admitted, at its place.
func FuzzCheck(f *testing.F) {
	fx := newFixture(f)
	recs := fx.a.Records()
	headers := admitAll(fx.signer, recs)
	raws := make([][]byte, len(recs))
	for i, r := range recs {
		raws[i] = encoded(f, r)
		f.Add(headers[i], raws[i])
	}
	f.Add(headers[1], raws[2])
	f.Add("", []byte{0x0a, 0x00})
	codes := map[string]bool{admission.CodeUndecodable: true, admission.CodeUnadmitted: true, admission.CodeMalformed: true,
		admission.CodeUnknownKey: true, admission.CodeBadSignature: true}
	f.Fuzz(func(t *testing.T, header string, payload []byte) {
		a, err := fx.v.Check(header, payload)
		if err != nil {
			if !codes[admission.CodeOf(err)] {
				t.Fatalf("refusal with an unknown code: %v", err)
			}
			return
		}
		for i := range recs {
			if bytes.Equal(payload, raws[i]) && header == headers[i] && a.Seq == uint64(i+1) {
				return
			}
		}
		t.Fatalf("admitted a message the guard never admitted: %q (place %d)", header, a.Seq)
	})
}
