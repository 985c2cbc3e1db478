package main

import (
	"slices"
	"strings"
	"testing"
)

const status = `Package: git
Status: install ok installed
Priority: optional
Version: 1:2.39.5-0+deb12u2
Description: fast, scalable, distributed revision control system
 Git is popular.
 Version: 9.9 (a continuation line is not a field)

Package: bubblewrap
Status: install ok installed
Version: 0.8.0-2+deb12u1

Package: removed-one
Status: deinstall ok config-files
Version: 1.0
`

func TestParseStatus(t *testing.T) {
	got, err := parseStatus([]byte(status))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bubblewrap=0.8.0-2+deb12u1", "git=1:2.39.5-0+deb12u2"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q (sorted, only installed packages)", got, want)
	}
	// A paragraph without a version, or a status that lists nothing, is
	// refused: a package list the labels cannot be trusted with.
	for _, bad := range []string{"Package: git\nStatus: install ok installed\n", "Package: x\nStatus: deinstall ok config-files\nVersion: 1\n", "", "Package: a b\nVersion: 1\nStatus: install ok installed\n"} {
		if _, err := parseStatus([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add([]byte(status))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseStatus(b)
		if err != nil {
			return
		}
		if len(got) == 0 || !slices.IsSorted(got) {
			t.Fatalf("list %q: empty or unsorted", got)
		}
		for _, p := range got {
			if n, v, ok := strings.Cut(p, "="); !ok || n == "" || v == "" || strings.ContainsAny(p, " ,") {
				t.Fatalf("entry %q is not name=version", p)
			}
		}
	})
}

func TestChecksummed(t *testing.T) {
	const path = "golang.org/toolchain"
	for env, ok := range map[string]bool{
		"sum.golang.org\n\n\n":                    true,
		"sum.golang.org\nexample.com/private\n\n": true,
		"off\n\n\n":                                false,
		"sum.golang.org\ngolang.org\n\n":           false,
		"sum.golang.org\n\ngolang.org/toolchain\n": false,
		"sum.golang.org\n*.org\n\n":                false,
	} {
		err := checksummed(env, path)
		if (err == nil) != ok {
			t.Errorf("env %q: error %v, want ok=%v", env, err, ok)
		}
	}
}

func TestParseFlags(t *testing.T) {
	var sink strings.Builder
	for _, bad := range [][]string{{"--epoch=yesterday"}, {"--epoch=-5"}, {"--toolchain=1.26"}, {"--toolchain=go1.26.8/../x"}, {"--tag=Bad Tag"}, {"extra"}} {
		if _, err := parseFlags(bad, &sink); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	c, err := parseFlags([]string{"--epoch=1700000000", "--tag=v1.2.3"}, &sink)
	if err != nil || c.epoch != 1700000000 || !c.epochSet || c.tag != "v1.2.3" {
		t.Fatalf("honest flags: %+v, %v", c, err)
	}
}
