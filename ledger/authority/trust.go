package authority

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// TrustSchema names the trust file format.
const TrustSchema = "sealgate.trust.v1"

// Key is one trusted producer key and what it may write.
type Key struct {
	Identity  string
	PublicKey ed25519.PublicKey
	Kinds     []pb.Kind
}

// Trust is the verifier's explicit set of trusted producer keys. Trust
// material always comes from the verifier, never from the ledger it checks.
// An empty Trust refuses every record.
type Trust struct {
	keys map[string]Key
}

// NewTrust validates keys and indexes them by key id.
func NewTrust(keys []Key) (*Trust, error) {
	t := &Trust{keys: make(map[string]Key, len(keys))}
	for _, k := range keys {
		if len(k.PublicKey) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("trust: key of %q has %d bytes, want %d", k.Identity, len(k.PublicKey), ed25519.PublicKeySize)
		}
		if k.Identity == "" {
			return nil, fmt.Errorf("trust: key %s has no identity", record.KeyID(k.PublicKey))
		}
		if len(k.Kinds) == 0 {
			return nil, fmt.Errorf("trust: key of %q is authorized for no record kind", k.Identity)
		}
		id := record.KeyID(k.PublicKey)
		if _, dup := t.keys[id]; dup {
			return nil, fmt.Errorf("trust: key %s listed twice", id)
		}
		k.Kinds = slices.Clone(k.Kinds)
		slices.Sort(k.Kinds)
		t.keys[id] = k
	}
	return t, nil
}

// Len is the number of trusted keys.
func (t *Trust) Len() int { return len(t.keys) }

// Lookup returns the trusted key with id.
func (t *Trust) Lookup(id string) (Key, bool) {
	k, ok := t.keys[id]
	return k, ok
}

type trustFile struct {
	Schema string         `json:"schema"`
	Keys   []trustFileKey `json:"keys"`
}

type trustFileKey struct {
	Identity  string   `json:"identity"`
	KeyID     string   `json:"key_id"`
	PublicKey string   `json:"public_key"`
	Kinds     []string `json:"kinds"`
}

// ParseTrust reads a trust file (JSON, schema sealgate.trust.v1). Unknown
// fields, unknown kinds and key ids that do not match their keys are errors.
func ParseTrust(b []byte) (*Trust, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f trustFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	if f.Schema != TrustSchema {
		return nil, fmt.Errorf("trust: schema %q, want %q", f.Schema, TrustSchema)
	}
	keys := make([]Key, 0, len(f.Keys))
	for _, fk := range f.Keys {
		pub, err := base64.StdEncoding.DecodeString(fk.PublicKey)
		if err != nil {
			return nil, fmt.Errorf("trust: public key of %q: %w", fk.Identity, err)
		}
		if fk.KeyID != "" && fk.KeyID != record.KeyID(pub) {
			return nil, fmt.Errorf("trust: key_id of %q does not match its public key", fk.Identity)
		}
		k := Key{Identity: fk.Identity, PublicKey: pub}
		for _, name := range fk.Kinds {
			kind, ok := record.ParseKind(name)
			if !ok {
				return nil, fmt.Errorf("trust: key of %q names unknown record kind %q", fk.Identity, name)
			}
			k.Kinds = append(k.Kinds, kind)
		}
		keys = append(keys, k)
	}
	return NewTrust(keys)
}

// Marshal writes t as a trust file, keys sorted by identity then id.
func (t *Trust) Marshal() ([]byte, error) {
	f := trustFile{Schema: TrustSchema, Keys: []trustFileKey{}}
	for id, k := range t.keys {
		fk := trustFileKey{Identity: k.Identity, KeyID: id, PublicKey: base64.StdEncoding.EncodeToString(k.PublicKey)}
		for _, kind := range k.Kinds {
			fk.Kinds = append(fk.Kinds, record.KindName(kind))
		}
		f.Keys = append(f.Keys, fk)
	}
	slices.SortFunc(f.Keys, func(a, b trustFileKey) int {
		if c := strings.Compare(a.Identity, b.Identity); c != 0 {
			return c
		}
		return strings.Compare(a.KeyID, b.KeyID)
	})
	return json.MarshalIndent(f, "", "  ")
}
