package repoconfig

import (
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that its errors are one line,
// and that whatever it accepts is written by Marshal to a file that Parse
// reads back equal and Marshal writes again byte for byte.
func FuzzParse(f *testing.F) {
	for _, tc := range goodCases() {
		f.Add([]byte(tc.src))
	}
	for _, tc := range badCases() {
		if len(tc.src) < 4096 {
			f.Add([]byte(tc.src))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		checkRoundTrip(t, c)
	})
}
