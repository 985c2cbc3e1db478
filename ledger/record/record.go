// Package record signs, encodes, decodes and checks sealgate ledger records.
//
// A record is signed over its deterministic protobuf encoding, and the bytes
// that were signed are the bytes that are stored: a verifier never has to
// re-create an encoding to check a signature. It does re-encode the decoded
// record and requires the same bytes back, so one record has exactly one
// encoding (no unknown fields, no reordered or duplicated fields) and its
// digest is a true content address.
package record

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

const (
	// Version is the Record.version this package writes and accepts.
	Version = 1
	// signatureDomain separates record signatures from every other use of a
	// producer key.
	signatureDomain = "sealgate.record.v1\x00"
	// digestDomain separates record digests from other SHA-256 uses.
	digestDomain = "sealgate.digest.v1\x00"
	// MaxSize bounds an encoded SignedRecord; artefacts go to the blob store.
	MaxSize = 4 << 20
)

// Decoded is a record whose encoding and digest were checked. Its signature
// is checked separately, against a key the verifier trusts (Verify).
type Decoded struct {
	Signed *pb.SignedRecord
	Record *pb.Record
	// Digest is the checked content digest (hex SHA-256).
	Digest string
	Kind   pb.Kind
}

// Error is a decoding or checking failure with a stable reason code.
type Error struct {
	Code   string
	Detail string
}

func (e *Error) Error() string { return e.Code + ": " + e.Detail }

// Reason codes of this package; the authority package reuses them.
const (
	CodeMalformed      = "malformed"
	CodeDigestMismatch = "digest_mismatch"
	CodeBadSignature   = "bad_signature"
)

func errorf(code, format string, args ...any) error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// KeyID names an Ed25519 public key: the hex SHA-256 of its raw bytes.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:])
}

// Digest returns the content digest of encoded record bytes.
func Digest(recordBytes []byte) string {
	h := sha256.New()
	h.Write([]byte(digestDomain))
	h.Write(recordBytes)
	return hex.EncodeToString(h.Sum(nil))
}

// IsDigest reports whether s is a lowercase hex SHA-256.
func IsDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Signer signs records as one producer identity.
type Signer struct {
	identity string
	key      ed25519.PrivateKey
	keyID    string
}

// NewSigner returns a signer for identity (for example "sealgate/checkout").
func NewSigner(identity string, key ed25519.PrivateKey) (*Signer, error) {
	if identity == "" || strings.ContainsAny(identity, " \t\n") {
		return nil, fmt.Errorf("record: producer identity %q must be non-empty and without spaces", identity)
	}
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("record: ed25519 private key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	return &Signer{identity: identity, key: key, keyID: KeyID(key.Public().(ed25519.PublicKey))}, nil
}

// Identity is the producer identity the signer writes into records.
func (s *Signer) Identity() string { return s.identity }

// KeyID is the id of the signer's public key.
func (s *Signer) KeyID() string { return s.keyID }

// PublicKey is the signer's public key.
func (s *Signer) PublicKey() ed25519.PublicKey { return s.key.Public().(ed25519.PublicKey) }

// Sign stamps r with the signer's producer identity and the record version,
// encodes it deterministically and signs it. r must not be modified
// afterwards.
func (s *Signer) Sign(r *pb.Record) (*Decoded, error) {
	if r == nil {
		return nil, errors.New("record: nil record")
	}
	r.Version = Version
	r.Producer = &pb.Producer{Identity: s.identity, KeyId: s.keyID}
	kind := KindOf(r)
	if kind == pb.Kind_KIND_UNSPECIFIED {
		return nil, errors.New("record: record has no body")
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("record: encode: %w", err)
	}
	sr := &pb.SignedRecord{
		Record:    b,
		Signature: ed25519.Sign(s.key, signed(b)),
		Digest:    Digest(b),
	}
	return &Decoded{Signed: sr, Record: r, Digest: sr.Digest, Kind: kind}, nil
}

func signed(recordBytes []byte) []byte {
	msg := make([]byte, 0, len(signatureDomain)+len(recordBytes))
	msg = append(msg, signatureDomain...)
	return append(msg, recordBytes...)
}

// Encode returns the stored form of a signed record (deterministic).
func Encode(sr *pb.SignedRecord) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(sr)
}

// Decode parses a stored SignedRecord and checks everything that does not
// need a key: canonical encodings of envelope and record, the digest, the
// version, a body, and well-formed references. Failures are *Error.
func Decode(b []byte) (*Decoded, error) {
	if len(b) > MaxSize {
		return nil, errorf(CodeMalformed, "record of %d bytes exceeds the %d-byte limit", len(b), MaxSize)
	}
	strict := proto.UnmarshalOptions{DiscardUnknown: true}
	det := proto.MarshalOptions{Deterministic: true}
	sr := &pb.SignedRecord{}
	if err := strict.Unmarshal(b, sr); err != nil {
		return nil, errorf(CodeMalformed, "envelope does not decode: %v", err)
	}
	if again, err := det.Marshal(sr); err != nil || string(again) != string(b) {
		return nil, errorf(CodeMalformed, "envelope is not in canonical encoding")
	}
	if got := Digest(sr.Record); got != sr.Digest {
		return nil, errorf(CodeDigestMismatch, "stored digest %.16s… but content hashes to %.16s…", sr.Digest, got)
	}
	r := &pb.Record{}
	if err := strict.Unmarshal(sr.Record, r); err != nil {
		return nil, errorf(CodeMalformed, "record does not decode: %v", err)
	}
	if again, err := det.Marshal(r); err != nil || string(again) != string(sr.Record) {
		return nil, errorf(CodeMalformed, "record is not in canonical encoding")
	}
	if r.Version != Version {
		return nil, errorf(CodeMalformed, "record version %d, want %d", r.Version, Version)
	}
	kind := KindOf(r)
	if kind == pb.Kind_KIND_UNSPECIFIED {
		return nil, errorf(CodeMalformed, "record has no body")
	}
	if r.Producer == nil || r.Producer.Identity == "" || !IsDigest(r.Producer.KeyId) {
		return nil, errorf(CodeMalformed, "record names no producer identity and key")
	}
	if len(sr.Signature) != ed25519.SignatureSize {
		return nil, errorf(CodeBadSignature, "signature has %d bytes, want %d", len(sr.Signature), ed25519.SignatureSize)
	}
	if r.CriteriaDigest != "" && !IsDigest(r.CriteriaDigest) {
		return nil, errorf(CodeMalformed, "criteria digest %q is not a hex SHA-256", r.CriteriaDigest)
	}
	for _, p := range r.Parents {
		if !IsDigest(p) {
			return nil, errorf(CodeMalformed, "parent %q is not a hex SHA-256", p)
		}
	}
	return &Decoded{Signed: sr, Record: r, Digest: sr.Digest, Kind: kind}, nil
}

// Verify checks the record's signature with pub, which must be the key the
// record names.
func (d *Decoded) Verify(pub ed25519.PublicKey) error {
	if len(pub) != ed25519.PublicKeySize || KeyID(pub) != d.Record.GetProducer().GetKeyId() {
		return errorf(CodeBadSignature, "record names key %.16s…, not the key given", d.Record.GetProducer().GetKeyId())
	}
	if !ed25519.Verify(pub, signed(d.Signed.Record), d.Signed.Signature) {
		return errorf(CodeBadSignature, "signature does not verify under key %.16s…", KeyID(pub))
	}
	return nil
}

// Encoded returns the stored form of d.
func (d *Decoded) Encoded() ([]byte, error) { return Encode(d.Signed) }

// ContentKey identifies what a record says, ignoring when it was said and
// which replica of a service said it: two results for one token with equal
// content keys are the same result delivered twice; different keys are a
// conflict.
func ContentKey(r *pb.Record) (string, error) {
	c := proto.Clone(r).(*pb.Record)
	c.TimeUnixNano = 0
	c.Producer = nil
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(c)
	if err != nil {
		return "", err
	}
	return Digest(b), nil
}
