package main

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// entriesBucket is where ledger/local keeps its entries: big-endian seq →
// encoded entry. The test reaches under the log's API on purpose, to damage
// what is stored the way a disk or an attacker would.
const entriesBucket = "entries"

// TestTamperedByteIsNamed flips every byte of every stored record, one at a
// time: `sealgate ledger verify` must exit 1 and name that record each time.
func TestTamperedByteIsNamed(t *testing.T) {
	state := t.TempDir()
	if code, out, errOut := runCLI(t, "ledger", "demo", "--state", state, "--jobs", "2", "--quiet"); code != exitOK {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errOut)
	}
	path := filepath.Join(state, ledgerFile)

	// Read every stored entry once.
	stored := map[uint64][]byte{}
	var seqs []uint64
	withDB(t, path, func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte(entriesBucket)).ForEach(func(k, v []byte) error {
			seq := binary.BigEndian.Uint64(k)
			stored[seq] = append([]byte(nil), v...)
			seqs = append(seqs, seq)
			return nil
		})
	})
	if len(seqs) < 10 {
		t.Fatalf("only %d entries stored", len(seqs))
	}
	// Every byte of every record; under -short (CI's race step, where
	// each verify is several times slower and the detector sees the same
	// code each time) every 13th byte and each record's last.
	every := 1
	if testing.Short() {
		every = 13
	}
	flips := 0
	for _, seq := range seqs {
		orig := stored[seq]
		for i := range orig {
			if i%every != 0 && i != len(orig)-1 {
				continue
			}
			bad := append([]byte(nil), orig...)
			bad[i] ^= 0x20
			put(t, path, seq, bad)
			code, out, _ := runCLI(t, "ledger", "verify", "--state", state)
			want := fmt.Sprintf("FAIL record #%d", seq)
			if code != exitFailed || !strings.HasPrefix(out, want) {
				t.Fatalf("byte %d of record #%d flipped: exit %d, %q; want exit 1 naming the record", i, seq, code, out)
			}
			flips++
		}
		put(t, path, seq, orig)
	}
	if code, out, _ := runCLI(t, "ledger", "verify", "--state", state); code != exitOK {
		t.Fatalf("restored ledger: exit %d %q", code, out)
	}
	t.Logf("%d single-byte flips over %d records, each named", flips, len(seqs))
}

func withDB(t *testing.T, path string, fn func(*bbolt.Tx) error) {
	t.Helper()
	// Syncing is pointless here: the test damages the file on purpose.
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{NoSync: true, NoFreelistSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func put(t *testing.T, path string, seq uint64, value []byte) {
	t.Helper()
	withDB(t, path, func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte(entriesBucket)).Put(binary.BigEndian.AppendUint64(nil, seq), value)
	})
}
