package local

import (
	"bytes"
	"errors"
	"maps"
	"math"
	"testing"
)

func sealed(t testing.TB, topic, uuid string, md map[string]string, payload []byte, seq uint64, prev Hash) ([]byte, Hash) {
	t.Helper()
	body, err := encodeBody(topic, uuid, md, payload, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	return seal(body, seq, prev)
}

func TestEntryRoundTrip(t *testing.T) {
	prev := Hash{1, 2, 3}
	for _, tc := range []struct {
		name     string
		topic    string
		uuid     string
		metadata map[string]string
		payload  []byte
	}{
		{"minimal", "t", "", nil, nil},
		{"full", "verdicts", "01J9ZV4Q", map[string]string{"b": "2", "a": "1", "": "empty key"}, bytes.Repeat([]byte{0, 0xff}, 200)},
		{"binary strings", "t\x00\xff", "\x00", map[string]string{"k\x00": "\xff"}, []byte{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			value, h := sealed(t, tc.topic, tc.uuid, tc.metadata, tc.payload, 42, prev)
			e, err := decodeEntry(value)
			if err != nil {
				t.Fatal(err)
			}
			if e.Seq != 42 || e.Topic != tc.topic || e.UUID != tc.uuid || e.PrevHash != prev || e.Hash != h ||
				!bytes.Equal(e.Payload, tc.payload) || !maps.Equal(e.Metadata, tc.metadata) || e.Metadata == nil {
				t.Fatalf("decoded %+v", e)
			}
			if got := entryHash(value[:len(value)-HashSize]); got != h {
				t.Fatalf("hash of the stored bytes %s, sealed %s", got, h)
			}
			again, err := encodeEntry(e)
			if err != nil || !bytes.Equal(again, value) {
				t.Fatalf("re-encoding differs (%v)", err)
			}
		})
	}
}

func TestEntryHashCoversEveryByte(t *testing.T) {
	value, h := sealed(t, "t", "id", map[string]string{"k": "v"}, []byte("payload"), 7, Hash{9})
	for i := range len(value) - HashSize {
		v := bytes.Clone(value)
		v[i] ^= 0x80
		if entryHash(v[:len(v)-HashSize]) == h {
			t.Fatalf("flipping byte %d leaves the hash unchanged", i)
		}
	}
}

func TestEncodeBodyRejectsOversizedEntries(t *testing.T) {
	if _, err := encodeBody("t", "id", nil, make([]byte, 100), 100); !errors.Is(err, ErrEntryTooLarge) {
		t.Fatalf("got %v, want ErrEntryTooLarge", err)
	}
	if _, err := encodeBody("t", "id", nil, make([]byte, 100), 100+minEntrySize+len("t")+len("id")); err != nil {
		t.Fatalf("an entry of exactly the limit: %v", err)
	}
}

// FuzzDecodeEntry: no input panics the decoder, and whatever it accepts is
// canonical (re-encodes to the same bytes), which is what makes the hash of
// an entry a hash of its meaning.
func FuzzDecodeEntry(f *testing.F) {
	for _, seed := range [][]byte{
		nil,
		make([]byte, minEntrySize),
		must(sealed(f, "t", "", nil, nil, 1, Hash{})),
		must(sealed(f, "topic", "uuid", map[string]string{"a": "1", "b": "2"}, []byte("payload"), 1<<40, Hash{0xaa})),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, value []byte) {
		e, err := decodeEntry(value)
		if err != nil {
			if !errors.Is(err, ErrMalformedEntry) {
				t.Fatalf("error %v does not wrap ErrMalformedEntry", err)
			}
			return
		}
		again, err := encodeEntry(e)
		if err != nil {
			t.Fatalf("re-encoding an accepted entry: %v", err)
		}
		if !bytes.Equal(again, value) {
			t.Fatalf("accepted non-canonical bytes:\n in  %x\n out %x", value, again)
		}
	})
}

func must(value []byte, _ Hash) []byte { return value }
