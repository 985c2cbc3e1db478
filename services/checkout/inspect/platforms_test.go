package inspect

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestGoPlatformLosses(t *testing.T) {
	get := "package kv\n\n// Get returns the value of key.\nfunc Get(key string) string { return key }\n"
	base := map[string][]byte{"kv/kv.go": []byte(get), "kv/other.go": []byte("package kv\n\nfunc other() {}\n")}
	for _, c := range []struct {
		name    string
		patched map[string][]byte
		want    []string
	}{{
		name:    "renamed to a GOOS file name",
		patched: map[string][]byte{"kv/kv_linux.go": []byte(get), "kv/other.go": base["kv/other.go"]},
		want:    []string{"kv/kv_linux.go:4: Get is no longer declared for darwin/arm64, windows/amd64"},
	}, {
		name:    "moved to a new file under a build line",
		patched: map[string][]byte{"kv/kv.go": []byte("package kv\n"), "kv/get.go": []byte("//go:build linux\n\n" + get), "kv/other.go": base["kv/other.go"]},
		want:    []string{"kv/get.go:6: Get is no longer declared for darwin/arm64, windows/amd64"},
	}, {
		name: "split for each platform (honest)",
		patched: map[string][]byte{
			"kv/kv_unix.go":    []byte("//go:build unix\n\n" + get),
			"kv/kv_windows.go": []byte(strings.Replace(get, "return key", "return strings.ToLower(key)", 1)),
			"kv/other.go":      base["kv/other.go"],
		},
	}, {
		name:    "moved to another file unconstrained (honest)",
		patched: map[string][]byte{"kv/kv.go": []byte("package kv\n"), "kv/get.go": []byte(get), "kv/other.go": base["kv/other.go"]},
	}, {
		name:    "deleted outright (judged elsewhere)",
		patched: map[string][]byte{"kv/kv.go": []byte("package kv\n"), "kv/other.go": base["kv/other.go"]},
	}} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range GoPlatformLosses(base, c.patched) {
				if f.Rule != RuleForeignCode {
					t.Errorf("rule %s", f.Rule)
				}
				what, _, _ := strings.Cut(f.What, ", where")
				got = append(got, fmt.Sprintf("%s:%d: %s", f.File, f.Line, what))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("GoPlatformLosses = %q, want %q", got, c.want)
			}
		})
	}
	// A baseline file already limited to linux loses nothing it had.
	linuxOnly := map[string][]byte{"kv/kv_linux.go": []byte(get)}
	if got := GoPlatformLosses(linuxOnly, map[string][]byte{"kv/kv_linux.go": []byte(get + "\nfunc More() {}\n")}); len(got) != 0 {
		t.Errorf("a linux-only file changed = %v, want none", got)
	}
}
