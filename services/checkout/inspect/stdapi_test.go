package inspect

import (
	"bufio"
	"fmt"
	"go/version"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestStdAPIIsTheToolchains: stdapi.txt is what the toolchain's api files
// say (SEALGATE_WRITE_STDAPI=1 writes it anew).
func TestStdAPIIsTheToolchains(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "api")
	files, _ := filepath.Glob(filepath.Join(dir, "go1.*.txt"))
	if len(files) == 0 {
		t.Skipf("no api files under %s", dir)
	}
	// A package-level name and its kind; a struct's field or an
	// interface's method added later is a line of its own, not the name's.
	line := regexp.MustCompile(`^pkg ([a-z0-9/]+), (func|type|var|const) ([A-Za-z0-9_]+)(.*)$`)
	first := map[string]string{}
	for _, f := range files {
		v := strings.TrimSuffix(filepath.Base(f), ".txt")
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			m := line.FindStringSubmatch(sc.Text())
			if m == nil || m[2] == "type" && (strings.HasPrefix(m[4], " struct, ") || strings.HasPrefix(m[4], " interface, ")) {
				continue
			}
			sym := m[1] + "." + m[3]
			if was, ok := first[sym]; !ok || version.Compare(v, was) < 0 {
				first[sym] = v
			}
		}
		fh.Close()
	}
	// go1.txt is Go 1.0; what came before 1.11 (modules) is left out.
	var b strings.Builder
	for _, sym := range slices.Sorted(maps.Keys(first)) {
		if version.Compare(first[sym], "go1.11") >= 0 {
			fmt.Fprintf(&b, "%s %s\n", first[sym], sym)
		}
	}
	if os.Getenv("SEALGATE_WRITE_STDAPI") != "" {
		if err := os.WriteFile("stdapi.txt", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return // the binary embeds the file as it was: run the test again
	}
	if b.String() != stdAPI {
		t.Fatalf("stdapi.txt is not the toolchain's api files (%d lines, want %d): SEALGATE_WRITE_STDAPI=1 go test -run TestStdAPIIsTheToolchains ./services/checkout/inspect", strings.Count(stdAPI, "\n"), strings.Count(b.String(), "\n"))
	}
	for sym, v := range map[string]string{"strings.CutPrefix": "go1.20", "slices.Contains": "go1.21", "strings.Cut": "go1.18", "net/http.Server": ""} {
		if got := parseStdAPI(stdAPI)[sym]; got != v {
			t.Errorf("%s added in %q, want %q", sym, got, v)
		}
	}
}

// TestGoNewerAPI: a standard-library name newer than the module's go line
// (newapi: strings.CutPrefix under go 1.18) is a finding; its twins — the
// older API, a module that declares the release, a file constrained to
// it, a name the baseline already used — are none.
func TestGoNewerAPI(t *testing.T) {
	const base = "package flags\n\nimport \"strings\"\n\n// Name strips the dashes.\nfunc Name(s string) string { return strings.TrimLeft(s, \"-\") }\n"
	attack := strings.Replace(base, `return strings.TrimLeft(s, "-") }`, "if r, ok := strings.CutPrefix(s, \"--\"); ok {\n\t\treturn r\n\t}\n\treturn s }", 1)
	twin := strings.Replace(base, `return strings.TrimLeft(s, "-") }`, "if strings.HasPrefix(s, \"--\") {\n\t\treturn strings.TrimPrefix(s, \"--\")\n\t}\n\treturn s }", 1)
	mod := func(v string) map[string][]byte {
		return map[string][]byte{"go.mod": []byte("module example.com/m\n\ngo " + v + "\n")}
	}
	files := func(src string) map[string][]byte { return map[string][]byte{"flags/flags.go": []byte(src)} }
	wantFindings(t, GoNewerAPI(files(base), files(attack), mod("1.18")), "flags/flags.go:6: uses strings.CutPrefix, which the standard library added in go1.20, where the file's module declares go1.18")
	for name, c := range map[string]struct {
		base, patched string
		mods          map[string][]byte
	}{
		"the older API":                  {base, twin, mod("1.18")},
		"a module declaring the release": {base, attack, mod("1.20")},
		"a later patch release":          {base, attack, mod("1.21.0")},
		"a file constrained to it":       {base, "//go:build go1.20\n\n" + attack, mod("1.18")},
		"used by the baseline already":   {attack, strings.Replace(attack, `"--"`, `"---"`, 1), mod("1.18")},
	} {
		t.Run(name, func(t *testing.T) {
			if got := GoNewerAPI(files(c.base), files(c.patched), c.mods); len(got) != 0 {
				t.Fatalf("findings %q", got)
			}
		})
	}
}
