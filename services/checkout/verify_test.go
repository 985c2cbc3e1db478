package checkout

import (
	"testing"

	"github.com/sealgate/sealgate/services/checkout/patch"
)

func TestApplyExact(t *testing.T) {
	cases := []struct {
		name, old, diff, want string
		fails                 bool
	}{
		{"middle", "a\nb\nc\n", "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+B\n", "a\nB\nc\n", false},
		{"append", "a\n", "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n", "a\nb\n", false},
		{"insert at start", "a\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+z\n", "z\na\n", false},
		{"add final newline", "a", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n", "a\n", false},
		{"drop final newline", "a\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n", "a", false},
		{"context without newline", "a\nb", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n", "A\nb", false},
		{"crlf kept", "a\r\nb\r\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\r\n+A\r\n b\r\n", "A\r\nb\r\n", false},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-1\n+one\n@@ -9 +9,2 @@\n 9\n+ten\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\nten\n", false},
		{"shifted", "x\na\nb\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+A\n", "", true},
		{"past the end", "a\n", "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+B\n", "", true},
		{"newline mismatch", "a", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := patch.Parse([]byte(tc.diff))
			if err != nil {
				t.Fatal(err)
			}
			got, err := applyExact([]byte(tc.old), p.Files[0])
			if tc.fails {
				if err == nil {
					t.Fatalf("applied to %q", got)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("applyExact = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestBlobID(t *testing.T) {
	// `printf 'hello\n' | git hash-object --stdin` and with
	// --object-format=sha256 (in a sha256 repository).
	for format, want := range map[string]string{
		"sha1":   "ce013625030ba8dba906f756967f9e9ca394464a",
		"sha256": "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4",
	} {
		if got, err := blobID(format, []byte("hello\n")); err != nil || got != want {
			t.Errorf("blobID(%s) = %s, %v; want %s", format, got, err, want)
		}
	}
	if _, err := blobID("md5", nil); err == nil {
		t.Error("blobID(md5) succeeded")
	}
}
