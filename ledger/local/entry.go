package local

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Stored entry layout, version 1. Every integer is big-endian and every
// variable-length field carries a fixed-width uint32 length, so that exactly
// one byte string encodes a given entry (decodeEntry rejects everything else)
// and the hash chain does not depend on an encoder's whims.
//
//	[0]      version (entryVersion)
//	[1:9]    seq
//	[9:41]   prev_hash
//	         topic     u32 length + bytes
//	         uuid      u32 length + bytes
//	         metadata  u32 count + count × (u32 klen + key + u32 vlen + value), keys strictly ascending
//	         payload   u32 length + bytes
//	[n-32:n] hash = SHA-256(hashTag || prev_hash || bytes[0:n-32])
//
// The trailing hash makes every entry self-checking, which is what lets Scan
// attribute a flipped byte to the entry that holds it instead of to its
// successor (whose prev_hash is merely where the chain notices).
const (
	entryVersion byte = 1

	seqOffset    = 1
	prevOffset   = seqOffset + 8
	headerSize   = prevOffset + HashSize
	minEntrySize = headerSize + 4*4 + HashSize

	// hashTag separates entry hashes from every other SHA-256 use in sealgate
	// (record signatures in particular), so a hash can never be replayed as
	// another kind of digest.
	hashTag = "sealgate/ledger/local/entry/v1\x00"
)

// HashSize is the size of an entry hash.
const HashSize = sha256.Size

// Hash is the SHA-256 chain hash of an entry.
type Hash [HashSize]byte

// String returns the hash in lowercase hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// Entry is one record of the log as stored: the Watermill message plus its
// position in the global append order and its link in the hash chain.
type Entry struct {
	// Seq is the position in the global append order, starting at 1.
	Seq uint64
	// Topic is the Watermill topic the message was published to.
	Topic string
	// UUID is the Watermill message UUID.
	UUID string
	// Metadata is the Watermill message metadata; never nil once decoded.
	Metadata map[string]string
	// Payload is the Watermill message payload.
	Payload []byte
	// PrevHash is the Hash of entry Seq-1; zero for Seq 1.
	PrevHash Hash
	// Hash is the hash stored with the entry (verified by Scan, not by the decoder).
	Hash Hash
}

// encodeBody encodes everything but seq, prev_hash and the trailing hash,
// which are known only inside the append transaction. The returned slice has
// room for the trailer so that seal never reallocates.
func encodeBody(topic, uuid string, md map[string]string, payload []byte, maxBytes int) ([]byte, error) {
	size := headerSize + 4 + len(topic) + 4 + len(uuid) + 4 + 4 + len(payload)
	for k, v := range md {
		size += 8 + len(k) + len(v)
	}
	if size+HashSize > maxBytes {
		return nil, fmt.Errorf("%w: entry of %d bytes exceeds the limit of %d", ErrEntryTooLarge, size+HashSize, maxBytes)
	}
	// A total that fits in 32 bits bounds every length prefix and the
	// metadata count too.
	if uint64(size) > math.MaxUint32 {
		return nil, fmt.Errorf("%w: entry of %d bytes exceeds the format limit of 4 GiB", ErrEntryTooLarge, size)
	}
	b := make([]byte, headerSize, size+HashSize)
	b[0] = entryVersion
	b = appendField(b, topic)
	b = appendField(b, uuid)
	b = binary.BigEndian.AppendUint32(b, uint32(len(md)))
	for _, k := range slices.Sorted(maps.Keys(md)) {
		b = appendField(b, k)
		b = appendField(b, md[k])
	}
	b = appendField(b, string(payload))
	return b, nil
}

// appendField appends a u32-length-prefixed field; encodeBody has already
// checked that the length fits.
func appendField[T string | []byte](b []byte, s T) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// seal fills in seq and prev_hash and appends the entry hash. It may be called
// again on the same body (a retried transaction) with other values.
func seal(body []byte, seq uint64, prev Hash) ([]byte, Hash) {
	binary.BigEndian.PutUint64(body[seqOffset:], seq)
	copy(body[prevOffset:headerSize], prev[:])
	h := entryHash(body)
	return append(body, h[:]...), h
}

// entryHash computes SHA-256(hashTag || prev_hash || body). prev_hash is also
// inside body; hashing it up front as well keeps the chain link explicit and
// independent of the body layout of future versions.
func entryHash(body []byte) Hash {
	d := sha256.New()
	d.Write([]byte(hashTag))
	d.Write(body[prevOffset:headerSize])
	d.Write(body)
	var h Hash
	d.Sum(h[:0])
	return h
}

// encodeEntry re-encodes a decoded entry exactly as it is stored, trailer
// included (the stored Hash, not a recomputed one).
func encodeEntry(e Entry) ([]byte, error) {
	body, err := encodeBody(e.Topic, e.UUID, e.Metadata, e.Payload, math.MaxInt)
	if err != nil {
		return nil, err
	}
	binary.BigEndian.PutUint64(body[seqOffset:], e.Seq)
	copy(body[prevOffset:headerSize], e.PrevHash[:])
	return append(body, e.Hash[:]...), nil
}

// decodeEntry parses a stored value. It never panics and never allocates more
// than a small multiple of len(value), whatever the bytes claim. It checks the
// structure only; hashes are Scan's business.
func decodeEntry(value []byte) (Entry, error) {
	var e Entry
	if len(value) < minEntrySize {
		return e, fmt.Errorf("%w: %d bytes is shorter than the minimum %d", ErrMalformedEntry, len(value), minEntrySize)
	}
	if value[0] != entryVersion {
		return e, fmt.Errorf("%w: unknown version %d", ErrMalformedEntry, value[0])
	}
	e.Seq = binary.BigEndian.Uint64(value[seqOffset:])
	copy(e.PrevHash[:], value[prevOffset:headerSize])
	copy(e.Hash[:], value[len(value)-HashSize:])

	r := reader{b: value[headerSize : len(value)-HashSize]}
	e.Topic = string(r.field("topic"))
	e.UUID = string(r.field("uuid"))
	n := r.u32("metadata count")
	// Each pair takes at least 8 bytes: refuse counts the input cannot hold
	// before sizing the map by them.
	if r.err == nil && uint64(n) > uint64(len(r.b))/8 {
		r.fail("metadata count %d does not fit in %d bytes", n, len(r.b))
	}
	if r.err == nil {
		e.Metadata = make(map[string]string, n)
	}
	var prevKey []byte
	for i := uint32(0); i < n && r.err == nil; i++ {
		k := r.field("metadata key")
		v := r.field("metadata value")
		if r.err != nil {
			break
		}
		if i > 0 && string(k) <= string(prevKey) {
			r.fail("metadata keys not strictly ascending at %q", k)
			break
		}
		prevKey = k
		e.Metadata[string(k)] = string(v)
	}
	if p := r.field("payload"); r.err == nil && len(p) > 0 {
		e.Payload = slices.Clone(p)
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d trailing bytes", len(r.b))
	}
	if r.err != nil {
		return Entry{}, r.err
	}
	return e, nil
}

// reader consumes length-prefixed fields and remembers the first error, so
// the decoder reads top to bottom without an error check per field.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrMalformedEntry}, args...)...)
	}
}

func (r *reader) u32(what string) uint32 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 4 {
		r.fail("truncated %s", what)
		return 0
	}
	n := binary.BigEndian.Uint32(r.b)
	r.b = r.b[4:]
	return n
}

func (r *reader) field(what string) []byte {
	n := r.u32(what + " length")
	if r.err != nil {
		return nil
	}
	if uint64(n) > uint64(len(r.b)) {
		r.fail("%s length %d exceeds the %d bytes left", what, n, len(r.b))
		return nil
	}
	f := r.b[:n]
	r.b = r.b[n:]
	return f
}
