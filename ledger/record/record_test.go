package record_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

func newSigner(t testing.TB) *record.Signer {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := record.NewSigner("sealgate/executor", k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sampleRecord() *pb.Record {
	return &pb.Record{
		RunId:          "run-1",
		CriteriaDigest: record.Digest([]byte("criteria")),
		Parents:        []string{record.Digest([]byte("parent"))},
		Token:          "claim-1",
		TimeUnixNano:   1_800_000_000_000_000_000,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{
			JobId: "claim-1", Termination: pb.Termination_TERMINATION_EXITED, CasesRun: proto.Uint32(1),
			Sandbox: &pb.Sandbox{Name: "bwrap", Limits: map[string]string{"b": "2", "a": "1", "c": "3"}},
		}},
	}
}

func TestSignDecodeVerify(t *testing.T) {
	s := newSigner(t)
	rec, err := s.Sign(sampleRecord())
	if err != nil {
		t.Fatal(err)
	}
	b, err := rec.Encoded()
	if err != nil {
		t.Fatal(err)
	}
	got, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest != rec.Digest || got.Kind != pb.Kind_KIND_JOB_RESULT {
		t.Fatalf("decoded digest %s kind %v, want %s job.result", got.Digest, got.Kind, rec.Digest)
	}
	if err := got.Verify(s.PublicKey()); err != nil {
		t.Fatal(err)
	}
	if err := got.Verify(newSigner(t).PublicKey()); err == nil {
		t.Fatal("verified under another key")
	}
	if !proto.Equal(got.Record, rec.Record) {
		t.Fatal("decoded record differs")
	}
}

// TestEveryFlippedByteIsCaught flips each byte of a stored record in turn:
// decoding or signature verification must fail every time.
func TestEveryFlippedByteIsCaught(t *testing.T) {
	s := newSigner(t)
	rec, err := s.Sign(sampleRecord())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rec.Encoded()
	for i := range b {
		for _, mask := range []byte{0x01, 0x80} {
			c := append([]byte(nil), b...)
			c[i] ^= mask
			d, err := record.Decode(c)
			if err == nil {
				err = d.Verify(s.PublicKey())
			}
			if err == nil {
				t.Fatalf("byte %d ^ %#x went unnoticed", i, mask)
			}
		}
	}
}

func TestNonCanonicalEncodingIsRefused(t *testing.T) {
	s := newSigner(t)
	rec, err := s.Sign(sampleRecord())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rec.Encoded()
	// An unknown field appended to the envelope decodes but is not canonical.
	extra := append(append([]byte(nil), b...), 0xa0, 0x06, 0x01) // field 100, varint 1
	if _, err := record.Decode(extra); err == nil {
		t.Fatal("envelope with an unknown field was accepted")
	}
}

func TestContentKeyIgnoresTimeAndReplica(t *testing.T) {
	a, b := sampleRecord(), sampleRecord()
	b.TimeUnixNano++
	if _, err := newSigner(t).Sign(a); err != nil {
		t.Fatal(err)
	}
	if _, err := newSigner(t).Sign(b); err != nil {
		t.Fatal(err)
	}
	ka, _ := record.ContentKey(a)
	kb, _ := record.ContentKey(b)
	if ka != kb {
		t.Fatal("same result at another time, by another replica, has another content key")
	}
	b.GetJobResult().ExitCode = 1
	if kc, _ := record.ContentKey(b); kc == ka {
		t.Fatal("a different result has the same content key")
	}
}

func TestKindNamesRoundTrip(t *testing.T) {
	for _, k := range record.Kinds() {
		name := record.KindName(k)
		back, ok := record.ParseKind(name)
		if name == "unknown" || !ok || back != k {
			t.Errorf("kind %v: name %q parses to %v %v", k, name, back, ok)
		}
	}
}

// FuzzDecodeVerify feeds arbitrary bytes to the decoder and verifier: no
// input may panic, and whatever decodes must re-encode to the same bytes and
// verify only under the key that signed it.
func FuzzDecodeVerify(f *testing.F) {
	s := newSigner(f)
	rec, err := s.Sign(sampleRecord())
	if err != nil {
		f.Fatal(err)
	}
	b, _ := rec.Encoded()
	f.Add(b)
	f.Add([]byte{})
	f.Add([]byte{0x0a, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := record.Decode(data)
		if err != nil {
			if _, ok := err.(*record.Error); !ok {
				t.Fatalf("error %T is not a *record.Error", err)
			}
			return
		}
		again, err := d.Encoded()
		if err != nil || string(again) != string(data) {
			t.Fatal("a decoded record does not re-encode to its bytes")
		}
		if d.Digest != record.Digest(d.Signed.Record) {
			t.Fatal("digest not checked")
		}
		if err := d.Verify(s.PublicKey()); err == nil && string(data) != string(b) {
			// Only the seed signed by s verifies under s (Ed25519 is
			// not malleable for a fixed key and message set).
			if d.Digest != rec.Digest {
				t.Fatal("a record s never signed verifies under s")
			}
		}
	})
}
