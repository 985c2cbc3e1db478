package embedded

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/note"
)

// BenchmarkCheck measures what Open and Check add to opening a log: the
// whole tree recomputed from its entry bundles, every tile compared. The
// log is written directly (entries of the size of a sealed verdict's leaf,
// ~330 bytes), as Rebuild writes one.
//
//	go test -run '^$' -bench BenchmarkCheck -benchtime 5x ./services/signing/tlog/embedded
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			skey, vkey, err := note.GenerateKey(rand.Reader, "sealgate.local/log-bench")
			if err != nil {
				b.Fatal(err)
			}
			signer, _ := note.NewSigner(skey)
			for name, key := range map[string]string{PrivateKeyFile: skey, PublicKeyFile: vkey} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(key+"\n"), 0o600); err != nil {
					b.Fatal(err)
				}
			}
			leaves := make([][]byte, n)
			t := newTree()
			for i := range leaves {
				leaves[i] = fmt.Appendf(nil, "sealgate.dev/tlog/dsse/v1\npayloadType application/vnd.in-toto+json\npayloadSHA256 %064x\nsignature %064x %088x\n", i, i, i)
				if err := t.rng.Append(rfc6962.DefaultHasher.HashLeaf(leaves[i]), nil); err != nil {
					b.Fatal(err)
				}
				t.size++
			}
			cp, err := note.Sign(&note.Note{Text: string(log.Checkpoint{Origin: signer.Name(), Size: uint64(n), Hash: t.root()}.Marshal())}, signer)
			if err != nil {
				b.Fatal(err)
			}
			f := files{dir: filepath.Join(dir, tilesDir)}
			if err := writeTree(f, leaves, cp, &RebuildReport{}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				st, err := Check(dir, Options{})
				if err != nil || st.Size != uint64(n) {
					b.Fatalf("Check = %+v, %v", st, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/entry")
		})
	}
}
