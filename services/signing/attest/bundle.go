package attest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"

	"github.com/sealgate/sealgate/services/signing/tlog"
)

// BundleMediaType names this version of the bundle format.
const BundleMediaType = "application/vnd.sealgate.attestation.bundle.v1+json"

// maxBundle bounds what ReadBundle accepts.
const maxBundle = 16 << 20

// Bundle is everything a third party needs to check a verdict offline,
// given the verdict key and the log key: the signed verdict statement, its
// two companion test-result statements and the transparency-log proof.
type Bundle struct {
	MediaType   string           `json:"mediaType"`
	Verdict     *dsse.Envelope   `json:"verdict"`
	TestResults []*dsse.Envelope `json:"testResults"`
	// PublicKey is the verdict key as the signer knew it (PEM). It is a
	// hint: checks use the key the verifier is given.
	PublicKey string      `json:"publicKey"`
	Tlog      *tlog.Proof `json:"tlog"`
}

// Marshal renders the bundle as indented JSON with a final newline.
func (b *Bundle) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadBundle parses a bundle strictly: unknown keys, a key given twice or
// in another case at any depth, and anything after the object are errors.
func ReadBundle(data []byte) (*Bundle, error) {
	if len(data) > maxBundle {
		return nil, fmt.Errorf("bundle is %d bytes, more than %d", len(data), maxBundle)
	}
	if err := checkStrict(data, reflect.TypeFor[Bundle]()); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Bundle
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	if b.MediaType != BundleMediaType {
		return nil, fmt.Errorf("bundle: media type %q, want %q", b.MediaType, BundleMediaType)
	}
	if b.Verdict == nil {
		return nil, fmt.Errorf("bundle: no verdict envelope")
	}
	return &b, nil
}
