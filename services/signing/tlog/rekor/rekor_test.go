package rekor

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"

	"github.com/sealgate/sealgate/services/signing/tlog"
)

func pubPEM(t *testing.T, k any) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// The bodies Rekor logs are checked against the envelope without a server:
// these are the shapes of Rekor v1.5.4's dsse and hashedrekord v0.0.1
// canonical bodies (the e2e test checks real ones).
func TestVerifyEntry(t *testing.T) {
	payload := []byte(`{"_type":"https://in-toto.io/Statement/v1"}`)
	pae := dsse.PAE("application/vnd.in-toto+json", payload)

	edPub, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	edSig := ed25519.Sign(edPriv, pae)
	edEnv := &dsse.Envelope{PayloadType: "application/vnd.in-toto+json", Payload: base64.StdEncoding.EncodeToString(payload),
		Signatures: []dsse.Signature{{KeyID: "k", Sig: base64.StdEncoding.EncodeToString(edSig)}}}
	edKey := pubPEM(t, edPub)

	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	sum := sha256.Sum256(pae)
	ecSig, _ := ecdsa.SignASN1(rand.Reader, ec, sum[:])
	ecEnv := &dsse.Envelope{PayloadType: edEnv.PayloadType, Payload: edEnv.Payload,
		Signatures: []dsse.Signature{{KeyID: "k", Sig: base64.StdEncoding.EncodeToString(ecSig)}}}
	ecKey := pubPEM(t, ec.Public())

	payloadSum := sha256.Sum256(payload)
	dsseBody := func(payloadHash string, sig string, key []byte) []byte {
		b, _ := json.Marshal(map[string]any{
			"apiVersion": "0.0.1", "kind": "dsse",
			"spec": map[string]any{
				"payloadHash": map[string]any{"algorithm": "sha256", "value": payloadHash},
				"signatures":  []any{map[string]any{"signature": sig, "verifier": base64.StdEncoding.EncodeToString(key)}},
			},
		})
		return b
	}
	hashedBody := func(hash string, sig []byte, key []byte) []byte {
		b, _ := json.Marshal(map[string]any{
			"apiVersion": "0.0.1", "kind": "hashedrekord",
			"spec": map[string]any{
				"data":      map[string]any{"hash": map[string]any{"algorithm": "sha256", "value": hash}},
				"signature": map[string]any{"content": base64.StdEncoding.EncodeToString(sig), "publicKey": map[string]any{"content": base64.StdEncoding.EncodeToString(key)}},
			},
		})
		return b
	}
	otherPub, _, _ := ed25519.GenerateKey(rand.Reader)
	cases := []struct {
		name string
		leaf []byte
		env  *dsse.Envelope
		key  []byte
		ok   bool
	}{
		{"dsse", dsseBody(hex.EncodeToString(payloadSum[:]), edEnv.Signatures[0].Sig, edKey), edEnv, edKey, true},
		{"dsse for another payload", dsseBody(hex.EncodeToString(make([]byte, 32)), edEnv.Signatures[0].Sig, edKey), edEnv, edKey, false},
		{"dsse with another signature", dsseBody(hex.EncodeToString(payloadSum[:]), base64.StdEncoding.EncodeToString(make([]byte, 64)), edKey), edEnv, edKey, false},
		{"dsse under another key", dsseBody(hex.EncodeToString(payloadSum[:]), edEnv.Signatures[0].Sig, pubPEM(t, otherPub)), edEnv, edKey, false},
		{"hashedrekord", hashedBody(hex.EncodeToString(sum[:]), ecSig, ecKey), ecEnv, ecKey, true},
		{"hashedrekord over another envelope", hashedBody(hex.EncodeToString(payloadSum[:]), ecSig, ecKey), ecEnv, ecKey, false},
		{"hashedrekord with another key", hashedBody(hex.EncodeToString(sum[:]), ecSig, edKey), ecEnv, ecKey, false},
		{"another kind", []byte(`{"kind":"rekord","spec":{}}`), edEnv, edKey, false},
		{"not JSON", []byte(`xx`), edEnv, edKey, false},
	}
	for _, c := range cases {
		err := VerifyEntry(&tlog.Proof{Leaf: c.leaf}, c.env, c.key)
		if (err == nil) != c.ok {
			t.Errorf("%s: VerifyEntry = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
