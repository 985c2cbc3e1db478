package authority

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

func TestTrustFileRoundTrip(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	tr, err := NewTrust([]Key{{Identity: "sealgate/checkout", PublicKey: pub, Kinds: []pb.Kind{pb.Kind_KIND_TREES_MATERIALIZED}}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseTrust(b)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Marshal()
	if string(again) != string(b) {
		t.Fatalf("trust file changed through a round trip:\n%s\n%s", b, again)
	}
	for name, bad := range map[string]string{
		"unknown field": strings.Replace(string(b), `"schema"`, `"extra": 1, "schema"`, 1),
		"unknown kind":  strings.Replace(string(b), "trees.materialized", "everything", 1),
		"wrong key id":  strings.Replace(string(b), `"key_id": "`, `"key_id": "00`, 1),
		"other schema":  strings.Replace(string(b), TrustSchema, "sealgate.trust.v0", 1),
	} {
		if _, err := ParseTrust([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParseTrust(f *testing.F) {
	f.Add([]byte(`{"schema":"sealgate.trust.v1","keys":[]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		tr, err := ParseTrust(in)
		if err != nil {
			return
		}
		if _, err := tr.Marshal(); err != nil {
			t.Fatal(err)
		}
	})
}
