// Package tlog is the transparency log a sealed verdict is appended to, and
// the offline checks of what a log returned: the leaf, its inclusion proof
// and the signed checkpoint the proof ends in.
//
// Two backends implement Log: embedded (a tile-based Merkle log built on
// Tessera with POSIX storage, under the state directory) and rekor (Sigstore
// Rekor v1 through its Go client). Both return a Proof that needs nothing
// but the log's public key to check.
package tlog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
)

// Backend kinds.
const (
	KindEmbedded = "embedded"
	KindRekor    = "rekor"
)

// Submission is one signed envelope to log, with the public key that
// verifies it (PEM, PKIX).
type Submission struct {
	Envelope     *dsse.Envelope
	PublicKeyPEM []byte
}

// Proof says where an entry is in a log and proves it: the exact leaf
// bytes, an RFC 6962 inclusion proof and the signed checkpoint whose root
// the proof reaches.
type Proof struct {
	Kind     string `json:"kind"`
	LogID    string `json:"log_id"`
	Index    uint64 `json:"log_index"`
	TreeSize uint64 `json:"tree_size"`
	// RootHash and Hashes are hex.
	RootHash   string   `json:"root_hash"`
	Hashes     []string `json:"inclusion_proof"`
	Checkpoint string   `json:"checkpoint"`
	// Leaf is the exact bytes the log hashed into the tree.
	Leaf []byte `json:"leaf"`
	// Rekor carries what Rekor v1 adds: the entry's UUID, its virtual index,
	// integrated time and signed entry timestamp.
	Rekor *RekorEntry `json:"rekor,omitempty"`
}

// RekorEntry is the Rekor-specific part of a Proof.
type RekorEntry struct {
	UUID                 string `json:"uuid"`
	LogIndex             int64  `json:"log_index"`
	IntegratedTime       int64  `json:"integrated_time"`
	SignedEntryTimestamp []byte `json:"signed_entry_timestamp"`
	EntryKind            string `json:"entry_kind"`
}

// Log is a transparency log.
type Log interface {
	// Append logs a signed envelope and returns its inclusion proof against
	// a signed checkpoint that contains it.
	Append(ctx context.Context, s Submission) (*Proof, error)
	// Kind names the backend.
	Kind() string
	Close() error
}

// VerifyInclusion checks that the leaf is at the proof's index in the tree
// of the proof's size and root.
func VerifyInclusion(p *Proof) error {
	root, err := hex.DecodeString(p.RootHash)
	if err != nil || len(root) != sha256.Size {
		return fmt.Errorf("root hash %q is not a hex SHA-256", p.RootHash)
	}
	hashes := make([][]byte, len(p.Hashes))
	for i, h := range p.Hashes {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != sha256.Size {
			return fmt.Errorf("inclusion proof hash %d is not a hex SHA-256", i)
		}
		hashes[i] = b
	}
	leaf := rfc6962.DefaultHasher.HashLeaf(p.Leaf)
	if err := proof.VerifyInclusion(rfc6962.DefaultHasher, p.Index, p.TreeSize, leaf, hashes, root); err != nil {
		return fmt.Errorf("leaf %d of a tree of %d does not reach root %.16s…: %s", p.Index, p.TreeSize, p.RootHash, OneLine(err))
	}
	return nil
}

// EnvelopeLeaf is the leaf the embedded log stores for an envelope: it
// binds the payload type, the payload's digest and every signature, so the
// envelope cannot be swapped after logging. It is line-oriented text:
//
//	sealgate.dev/tlog/dsse/v1
//	payloadType <type>
//	payloadSHA256 <hex>
//	signature <keyid> <base64 signature>
func EnvelopeLeaf(env *dsse.Envelope) ([]byte, error) {
	if env == nil || len(env.Signatures) == 0 {
		return nil, errors.New("envelope has no signature")
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return nil, fmt.Errorf("envelope payload: %w", err)
	}
	if strings.ContainsAny(env.PayloadType, "\n\r") {
		return nil, errors.New("envelope payload type spans lines")
	}
	sum := sha256.Sum256(payload)
	var b strings.Builder
	fmt.Fprintf(&b, "sealgate.dev/tlog/dsse/v1\npayloadType %s\npayloadSHA256 %x\n", env.PayloadType, sum)
	for _, s := range env.Signatures {
		if strings.ContainsAny(s.KeyID+s.Sig, " \n\r") {
			return nil, errors.New("envelope signature has a space or line break")
		}
		fmt.Fprintf(&b, "signature %s %s\n", cmpOr(s.KeyID, "-"), s.Sig)
	}
	return []byte(b.String()), nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// OneLine renders a proof-checking error on one line, hashes in hex: the
// merkle library prints its roots as decimal byte arrays over four lines.
func OneLine(err error) string {
	var rm proof.RootMismatchError
	if errors.As(err, &rm) {
		return fmt.Sprintf("calculated root %x does not match the expected root %x", rm.CalculatedRoot, rm.ExpectedRoot)
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
