package attest

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
)

// Algorithm is a verdict signing algorithm.
type Algorithm string

// The algorithms verdicts are signed with.
const (
	Ed25519   Algorithm = "ed25519"
	ECDSAP256 Algorithm = "ecdsa-p256"
)

// ParseAlgorithm reads an --algorithm value.
func ParseAlgorithm(s string) (Algorithm, error) {
	switch Algorithm(s) {
	case Ed25519, ECDSAP256:
		return Algorithm(s), nil
	}
	return "", fmt.Errorf("unknown algorithm %q: use ed25519 or ecdsa-p256", s)
}

// GenerateKey makes a new verdict key pair and returns it PEM-encoded:
// the private key as PKCS#8, the public key as PKIX.
func GenerateKey(alg Algorithm) (privPEM, pubPEM []byte, err error) {
	var priv crypto.Signer
	switch alg {
	case Ed25519:
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		priv = k
	case ECDSAP256:
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		priv = k
	default:
		return nil, nil, fmt.Errorf("unknown algorithm %q: use ed25519 or ecdsa-p256", alg)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, err
	}
	pub, err := MarshalPublicKey(priv.Public())
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), pub, nil
}

// MarshalPublicKey encodes a public key as PKIX PEM.
func MarshalPublicKey(pub crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// KeyID names a public key: the hex SHA-256 of its PKIX DER encoding.
func KeyID(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:]), nil
}

// Signer signs DSSE envelopes with a verdict key. Ed25519 signs the
// pre-authentication encoding itself; ECDSA P-256 signs its SHA-256, with
// an ASN.1 DER signature (what Rekor's hashedrekord expects).
type Signer struct {
	key    crypto.Signer
	alg    Algorithm
	keyID  string
	pubPEM []byte
}

// ParseSigner reads a PKCS#8 PEM private key. Errors never quote the key.
func ParseSigner(privPEM []byte) (*Signer, error) {
	block, _ := pem.Decode(privPEM)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, errors.New("signing key: not a PEM \"PRIVATE KEY\" block (PKCS#8); make one with `sealgate keys generate`")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, errors.New("signing key: the PKCS#8 block does not parse")
	}
	s := &Signer{}
	switch k := k.(type) {
	case ed25519.PrivateKey:
		s.key, s.alg = k, Ed25519
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("signing key: ECDSA keys must be on P-256")
		}
		s.key, s.alg = k, ECDSAP256
	default:
		return nil, fmt.Errorf("signing key: %T keys are not supported; use ed25519 or ecdsa-p256", k)
	}
	if s.keyID, err = KeyID(s.key.Public()); err != nil {
		return nil, err
	}
	if s.pubPEM, err = MarshalPublicKey(s.key.Public()); err != nil {
		return nil, err
	}
	return s, nil
}

// Sign signs data (a DSSE pre-authentication encoding).
func (s *Signer) Sign(_ context.Context, data []byte) ([]byte, error) {
	if s.alg == Ed25519 {
		return s.key.Sign(rand.Reader, data, crypto.Hash(0))
	}
	sum := sha256.Sum256(data)
	return s.key.Sign(rand.Reader, sum[:], crypto.SHA256)
}

// KeyID names the key.
func (s *Signer) KeyID() (string, error) { return s.keyID, nil }

// Public returns the public key.
func (s *Signer) Public() crypto.PublicKey { return s.key.Public() }

// PublicKeyPEM returns the public key, PKIX PEM.
func (s *Signer) PublicKeyPEM() []byte { return s.pubPEM }

// Algorithm names the key's algorithm.
func (s *Signer) Algorithm() Algorithm { return s.alg }

// Verify checks a signature with the signer's own public key.
func (s *Signer) Verify(ctx context.Context, data, sig []byte) error {
	v := &Verifier{pub: s.key.Public(), alg: s.alg, keyID: s.keyID}
	return v.Verify(ctx, data, sig)
}

// Verifier checks DSSE signatures with a verdict public key.
type Verifier struct {
	pub   crypto.PublicKey
	alg   Algorithm
	keyID string
}

// ParseVerifier reads a PKIX PEM public key.
func ParseVerifier(pubPEM []byte) (*Verifier, error) {
	block, _ := pem.Decode(pubPEM)
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, errors.New("not a PEM \"PUBLIC KEY\" block (PKIX)")
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	v := &Verifier{pub: k}
	switch k := k.(type) {
	case ed25519.PublicKey:
		v.alg = Ed25519
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("ECDSA keys must be on P-256")
		}
		v.alg = ECDSAP256
	default:
		return nil, fmt.Errorf("%T keys are not supported", k)
	}
	if v.keyID, err = KeyID(k); err != nil {
		return nil, err
	}
	return v, nil
}

// Verify checks sig over data.
func (v *Verifier) Verify(_ context.Context, data, sig []byte) error {
	switch v.alg {
	case Ed25519:
		if !ed25519.Verify(v.pub.(ed25519.PublicKey), data, sig) {
			return errors.New("ed25519 signature does not verify")
		}
	case ECDSAP256:
		sum := sha256.Sum256(data)
		if !ecdsa.VerifyASN1(v.pub.(*ecdsa.PublicKey), sum[:], sig) {
			return errors.New("ecdsa signature does not verify")
		}
	default:
		return errors.New("no verifier key")
	}
	return nil
}

// KeyID names the key.
func (v *Verifier) KeyID() (string, error) { return v.keyID, nil }

// Public returns the public key.
func (v *Verifier) Public() crypto.PublicKey { return v.pub }

// Algorithm names the key's algorithm.
func (v *Verifier) Algorithm() Algorithm { return v.alg }
