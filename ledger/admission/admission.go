// Package admission is the ledger guard's signed word that it admitted a
// record, and where: in the distributed mode the guard is the only
// legitimate writer of the records topic, but the topic itself is only a
// Kafka topic, and anybody who can write to it could append bytes of their
// own. Consumers therefore use a message only when it carries the guard's
// admission and the admission holds.
//
// An admission places one record in its run's chain: the run's n-th
// admitted record has sequence number n, and its link is
//
//	link(n) = SHA-256(chainDomain ‖ run id ‖ n ‖ record digest ‖ link(n-1))
//
// (strings length-prefixed, numbers big-endian; link(0) is all zeros). The
// guard signs link(n) with its Ed25519 key — the ledger key the trust
// policy names (identity sealgate/ledger, trusted for record.refused) —
// under a domain of its own, so no admission can pass for a record
// signature or the other way round. The admission travels outside the
// record, in the message metadata under Header, as
//
//	v1 <seq> <link(n-1), hex> <key id, hex> <signature, hex>
//
// So a record can be admitted only into the run it names (the run id is
// signed), only at one place (a second copy of a message, which Kafka's
// at-least-once producer can write, is recognisably the same place), and
// the places of a run follow each other: a message that repeats a place,
// skips places or claims a different predecessor is noticed by a consumer
// that holds the run's chain.
package admission

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Header is the message metadata key (a Kafka header) of the admission.
const Header = "sealgate_admission"

const (
	// version opens every encoded admission.
	version = "v1"
	// chainDomain separates chain links from every other SHA-256 use.
	chainDomain = "sealgate.admission.chain.v1\x00"
	// signatureDomain separates admission signatures from record
	// signatures made with the same key.
	signatureDomain = "sealgate.admission.v1\x00"
	// maxSeqDigits bounds the decimal sequence number (uint64).
	maxSeqDigits = 20
	// maxEncoded bounds an encoded admission, before anything is parsed.
	maxEncoded = len(version) + 1 + maxSeqDigits + 1 + 2*sha256.Size + 1 + 2*sha256.Size + 1 + 2*ed25519.SignatureSize
)

// Refusal codes: why a message of the records topic was not used.
const (
	// CodeUndecodable: the payload is not a well-formed signed record.
	CodeUndecodable = "undecodable"
	// CodeUnadmitted: the message carries no admission.
	CodeUnadmitted = "unadmitted"
	// CodeMalformed: the admission does not parse.
	CodeMalformed = "malformed_admission"
	// CodeUnknownKey: the admission names a key the trust policy does not
	// trust as the ledger's.
	CodeUnknownKey = "unknown_admission_key"
	// CodeBadSignature: the admission's signature does not verify over
	// this record at this place of this run.
	CodeBadSignature = "bad_admission_signature"
	// CodeFork: a genuine admission that contradicts the chain already
	// held (another record at a place taken, or another predecessor).
	CodeFork = "chain_fork"
	// CodeGap: an admitted record whose predecessors cannot be found.
	CodeGap = "chain_gap"
)

// Refusal says why a message was not used; Code is one of the codes above.
type Refusal struct {
	Code   string
	Detail string
}

func (r *Refusal) Error() string { return r.Code + ": " + r.Detail }

func refusef(code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// CodeOf returns the refusal code of err, or "error" when err is not a
// Refusal.
func CodeOf(err error) string {
	if r, ok := errors.AsType[*Refusal](err); ok {
		return r.Code
	}
	return "error"
}

// Hash is a chain link.
type Hash [sha256.Size]byte

// Head is the end of a run's chain as a reader holds it: the last place
// and its link. The zero Head is an empty chain.
type Head struct {
	Seq  uint64
	Link Hash
}

// Link returns the link of the record with digest admitted at place seq of
// run runID after the link prev.
func Link(runID string, seq uint64, digest string, prev Hash) Hash {
	h := sha256.New()
	var n [8]byte
	h.Write([]byte(chainDomain))
	binary.BigEndian.PutUint64(n[:], uint64(len(runID)))
	h.Write(n[:])
	h.Write([]byte(runID))
	binary.BigEndian.PutUint64(n[:], seq)
	h.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(len(digest)))
	h.Write(n[:])
	h.Write([]byte(digest))
	h.Write(prev[:])
	var out Hash
	h.Sum(out[:0])
	return out
}

// Next returns the head after the record with digest is admitted to the
// chain of runID that ends at h.
func (h Head) Next(runID, digest string) Head {
	return Head{Seq: h.Seq + 1, Link: Link(runID, h.Seq+1, digest, h.Link)}
}

// Admission is the guard's signed statement, as carried in Header.
type Admission struct {
	// Seq is the record's place in its run, from 1.
	Seq uint64
	// Prev is the link of place Seq-1 (zero for the first).
	Prev Hash
	// KeyID names the guard key that signed (hex SHA-256 of the key).
	KeyID string
	// Signature is Ed25519 over signatureDomain ‖ link(Seq).
	Signature []byte
}

// String encodes a in the one form Parse accepts.
func (a Admission) String() string {
	return version + " " + strconv.FormatUint(a.Seq, 10) + " " + hex.EncodeToString(a.Prev[:]) + " " + a.KeyID + " " + hex.EncodeToString(a.Signature)
}

// Parse decodes an admission. It accepts exactly the output of String for
// a sequence number of at least 1: one space between fields, lowercase hex
// of the exact lengths, a decimal number without sign or leading zero.
func Parse(s string) (Admission, error) {
	if len(s) > maxEncoded {
		return Admission{}, refusef(CodeMalformed, "admission of %d bytes, at most %d", len(s), maxEncoded)
	}
	f := strings.Split(s, " ")
	if len(f) != 5 {
		return Admission{}, refusef(CodeMalformed, "admission has %d fields, want 5", len(f))
	}
	if f[0] != version {
		return Admission{}, refusef(CodeMalformed, "admission version %q, want %q", f[0], version)
	}
	seq, ok := parseSeq(f[1])
	if !ok {
		return Admission{}, refusef(CodeMalformed, "admission place %q is not a decimal number from 1", f[1])
	}
	a := Admission{Seq: seq}
	prev, ok := lowerHex(f[2], sha256.Size)
	if !ok {
		return Admission{}, refusef(CodeMalformed, "admission predecessor is not %d lowercase hex digits", 2*sha256.Size)
	}
	copy(a.Prev[:], prev)
	if _, ok := lowerHex(f[3], sha256.Size); !ok {
		return Admission{}, refusef(CodeMalformed, "admission key id is not %d lowercase hex digits", 2*sha256.Size)
	}
	a.KeyID = f[3]
	if a.Signature, ok = lowerHex(f[4], ed25519.SignatureSize); !ok {
		return Admission{}, refusef(CodeMalformed, "admission signature is not %d lowercase hex digits", 2*ed25519.SignatureSize)
	}
	return a, nil
}

func parseSeq(s string) (uint64, bool) {
	if s == "" || len(s) > maxSeqDigits || s[0] == '0' {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// lowerHex decodes s, which must be exactly n bytes in lowercase hex.
func lowerHex(s string, n int) ([]byte, bool) {
	if len(s) != 2*n {
		return nil, false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil, false
		}
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

func signed(link Hash) []byte {
	return append([]byte(signatureDomain), link[:]...)
}

// Signer makes admissions with the guard's key.
type Signer struct {
	key   ed25519.PrivateKey
	keyID string
}

// NewSigner returns a signer for the guard's Ed25519 key.
func NewSigner(key ed25519.PrivateKey) (*Signer, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("admission: ed25519 private key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	return &Signer{key: key, keyID: record.KeyID(key.Public().(ed25519.PublicKey))}, nil
}

// KeyID names the signer's key.
func (s *Signer) KeyID() string { return s.keyID }

// Sign returns the admission of the record admitted at place next of run
// runID, whose predecessor's link is prev; next must be the head that
// prev.Next returned for the record.
func (s *Signer) Sign(prev, next Head) Admission {
	return Admission{Seq: next.Seq, Prev: prev.Link, KeyID: s.keyID, Signature: ed25519.Sign(s.key, signed(next.Link))}
}

// Admitted is a record of the records topic whose admission holds, with its
// place in its run.
type Admitted struct {
	Record *record.Decoded
	// Seq is the record's place in its run, Prev the link before it and
	// Link its own.
	Seq  uint64
	Prev Hash
	Link Hash
}

// RunID is the run the record names (and was admitted into).
func (a *Admitted) RunID() string { return a.Record.Record.GetRunId() }

// Head is the chain's head once a is its last record.
func (a *Admitted) Head() Head { return Head{Seq: a.Seq, Link: a.Link} }

// Follows reports whether a is the record right after h.
func (a *Admitted) Follows(h Head) bool { return a.Seq == h.Seq+1 && a.Prev == h.Link }

// Verifier checks admissions against a trust policy: an admission must be
// signed by a key the policy names as the ledger's (identity
// sealgate/ledger, trusted for record.refused). Trust material comes from
// the reader, never from the topic.
type Verifier struct {
	trust *authority.Trust
}

// NewVerifier returns a verifier trusting the ledger keys of trust.
func NewVerifier(trust *authority.Trust) *Verifier {
	return &Verifier{trust: trust}
}

// Trusts reports whether keyID is a ledger key of the trust policy.
func (v *Verifier) Trusts(keyID string) bool {
	_, ok := v.guardKey(keyID)
	return ok
}

func (v *Verifier) guardKey(keyID string) (ed25519.PublicKey, bool) {
	if v == nil || v.trust == nil {
		return nil, false
	}
	k, ok := v.trust.Lookup(keyID)
	if !ok || k.Identity != keyring.Ledger || !slices.Contains(k.Kinds, pb.Kind_KIND_RECORD_REFUSED) {
		return nil, false
	}
	return k.PublicKey, true
}

// Check decodes the record in payload and checks the admission header that
// came with it. Every failure is a *Refusal. The run and the digest checked
// are the record's own, never the message's metadata.
func (v *Verifier) Check(header string, payload []byte) (*Admitted, error) {
	rec, err := record.Decode(payload)
	if err != nil {
		return nil, refusef(CodeUndecodable, "the payload is not a signed record: %v", err)
	}
	if header == "" {
		return nil, refusef(CodeUnadmitted, "%s %.16s… of run %q carries no admission of the ledger guard", record.KindName(rec.Kind), rec.Digest, rec.Record.GetRunId())
	}
	a, err := Parse(header)
	if err != nil {
		return nil, err
	}
	pub, ok := v.guardKey(a.KeyID)
	if !ok {
		return nil, refusef(CodeUnknownKey, "%s %.16s… of run %q: admission signed by key %.16s…, which the trust policy does not name as the ledger's", record.KindName(rec.Kind), rec.Digest, rec.Record.GetRunId(), a.KeyID)
	}
	link := Link(rec.Record.GetRunId(), a.Seq, rec.Digest, a.Prev)
	if !ed25519.Verify(pub, signed(link), a.Signature) {
		return nil, refusef(CodeBadSignature, "%s %.16s… of run %q: the admission at place %d does not verify for this record in this run", record.KindName(rec.Kind), rec.Digest, rec.Record.GetRunId(), a.Seq)
	}
	return &Admitted{Record: rec, Seq: a.Seq, Prev: a.Prev, Link: link}, nil
}
