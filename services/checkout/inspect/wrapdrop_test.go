package inspect

import (
	"strings"
	"testing"
)

const wrapBase = "package conf\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// Load reads the settings file at path.\nfunc Load(path string) (string, error) {\n\tb, err := os.ReadFile(path)\n\tif err != nil {\n\t\treturn \"\", fmt.Errorf(\"load: %w\", err)\n\t}\n\treturn string(b), nil\n}\n"

// TestGoWrapDrops: a %w turned into %v (or dropped with its error) is a
// finding; one kept, moved to another file or added is not, nor is a
// literal %%w.
func TestGoWrapDrops(t *testing.T) {
	r := strings.Replace
	files := func(src string, more ...string) map[string][]byte {
		m := map[string][]byte{"conf/conf.go": []byte(src)}
		for i := 0; i+1 < len(more); i += 2 {
			m[more[i]] = []byte(more[i+1])
		}
		return m
	}
	base := files(wrapBase)
	got := GoWrapDrops(base, files(r(wrapBase, `fmt.Errorf("load: %w", err)`, `fmt.Errorf("load %s: %v", path, err)`, 1)))
	wantFindings(t, got, "conf/conf.go:9: Load wraps errors with %w 0 times where the baseline's did 1 times")
	for name, patch := range map[string]map[string][]byte{
		"the verb kept, the message changed": files(r(wrapBase, `fmt.Errorf("load: %w", err)`, `fmt.Errorf("load %s: %w", path, err)`, 1)),
		"a wrap added":                       files(r(wrapBase, `return string(b), nil`, `return string(b), fmt.Errorf("%w", os.ErrClosed)`, 1)),
		"moved to another file":              files("package conf\n", "conf/load.go", wrapBase[len("package conf\n"):]),
		"a literal %%w is no verb":           files(r(wrapBase, `"load: %w", err`, `"load: %%w %w", err`, 1)),
	} {
		t.Run(name, func(t *testing.T) {
			if name == "moved to another file" {
				patch["conf/load.go"] = []byte("package conf\n" + wrapBase[len("package conf\n"):])
			}
			if got := GoWrapDrops(base, patch); len(got) != 0 {
				t.Fatalf("findings %q for an honest change", got)
			}
		})
	}
}
