package attest

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// A bundle may not carry a second envelope under a key encoding/json
// would fold onto "verdict" (the BLOCK under "verdict", MERGE under
// "VERDICT", verified as MERGE), nor anything else the decoder would take
// silently.
func TestReadBundleRefusesWhatJSONFolds(t *testing.T) {
	l := openLog(t)
	s := seal(t, l, Ed25519, artefact())
	raw, err := s.bundle.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	// The honest twin: the bundle as written reads back.
	if _, err := ReadBundle(raw); err != nil {
		t.Fatalf("the honest bundle: %v", err)
	}
	env, _ := json.Marshal(s.bundle.Verdict)
	obj := string(raw[:bytes.LastIndexByte(raw, '}')])
	for _, c := range []struct {
		name, data, want string
	}{
		{"a duplicate top-level key", obj + `,"verdict":` + string(env) + "}", `key "verdict" appears twice`},
		{"a case variant of a key", obj + `,"VERDICT":` + string(env) + "}", `keys "verdict" and "VERDICT" differ only in case`},
		{"a Kelvin-sign variant", strings.Replace(string(raw), `"kind"`, "\"\u212aind\"", 1), "key \"\u212aind\" is not \"kind\""},
		{"a case variant alone", strings.Replace(string(raw), `"mediaType"`, `"MediaType"`, 1), `key "MediaType" is not "mediaType"`},
		{"a duplicate deep inside", strings.Replace(string(raw), `"keyid":`, `"keyid":"x","keyid":`, 1), `$.verdict.signatures[0]: key "keyid" appears twice`},
		{"a duplicate in the proof", strings.Replace(string(raw), `"log_index":`, `"log_index":0,"log_index":`, 1), `$.tlog: key "log_index" appears twice`},
		{"trailing bytes", string(raw) + "x", "trailing data"},
		{"a trailing brace", string(raw) + "}", "trailing data"},
		{"a second object", string(raw) + "{}", "trailing data"},
		{"an unknown key", obj + `,"extra":1}`, `unknown key "extra"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadBundle([]byte(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ReadBundle = %v, want %q", err, c.want)
			}
		})
	}
}

func TestVerifyChecksTheLogID(t *testing.T) {
	l := openLog(t)
	s := seal(t, l, Ed25519, artefact())
	b := clone(t, s.bundle)
	b.Tlog.LogID = strings.Repeat("0", 64)
	rep := Verify(context.Background(), b, Expect{Key: s.key, LogKey: s.logKey, PatchSHA256: patchDigest})
	if f := rep.Failed(); f == nil || f.Name != CheckCheckpoint || !strings.Contains(f.Detail, "the bundle names log 0000000000000000…") {
		t.Fatalf("failed check %+v", f)
	}
	// Another log's key: its id is not the bundle's.
	other := openLog(t)
	rep = Verify(context.Background(), clone(t, s.bundle), Expect{Key: s.key, LogKey: []byte(other.VerifierKey()), PatchSHA256: patchDigest})
	if f := rep.Failed(); f == nil || f.Name != CheckCheckpoint || !strings.Contains(f.Detail, "the log key given is log") {
		t.Fatalf("failed check %+v", f)
	}
	id, err := LogIDOf(s.logKey)
	if err != nil || id != s.bundle.Tlog.LogID {
		t.Fatalf("LogIDOf = %s, %v; the bundle says %s", id, err, s.bundle.Tlog.LogID)
	}
	if _, err := LogIDOf([]byte("garbage")); err == nil {
		t.Fatal("an id for garbage")
	}
	if id, err := LogIDOf(s.key); err != nil || len(id) != 64 {
		t.Fatalf("LogIDOf(PEM) = %q, %v", id, err)
	}
}

func TestInclusionFailureIsOneLineOfHex(t *testing.T) {
	l := openLog(t)
	s := seal(t, l, Ed25519, artefact())
	other := artefact()
	other.RunID = "other"
	seal(t, l, Ed25519, other)
	b := clone(t, s.bundle)
	b.Tlog.RootHash = hex.EncodeToString(bytes.Repeat([]byte{0xab}, 32))
	rep := Verify(context.Background(), b, Expect{Key: s.key, LogKey: s.logKey, PatchSHA256: patchDigest})
	f := rep.Failed()
	if f == nil || f.Name != CheckInclusion {
		t.Fatalf("failed check %+v", f)
	}
	if strings.Contains(f.Detail, "\n") || strings.Contains(f.Detail, "[") || !strings.Contains(f.Detail, "abababab") {
		t.Fatalf("detail %q: want one line with the roots in hex", f.Detail)
	}
}
