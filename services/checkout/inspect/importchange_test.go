package inspect

import (
	"strings"
	"testing"
)

const baseImports = `package calc

import (
	"html/template"
	"math/rand"
	yaml "gopkg.in/yaml.v2"
	"example.com/m/v2"
)

var _, _, _, _ = template.HTML(""), rand.Int, yaml.Marshal, m.X
`

// TestGoImportChanges: an import swapped for another package under the
// same name (an eighth adversary's html/template → text/template: the
// template code unchanged, its output no longer escaped) is code the gate
// cannot judge; imports added, removed or renamed with their uses are not.
func TestGoImportChanges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string
		want  []string
	}{
		{"html/template → text/template", strings.Replace(baseImports, `"html/template"`, `"text/template"`, 1),
			[]string{`calc/calc.go:4: changes what template names from "html/template" to "text/template"`}},
		{"math/rand → crypto/rand", strings.Replace(baseImports, `"math/rand"`, `"crypto/rand"`, 1),
			[]string{`calc/calc.go:5: changes what rand names from "math/rand" to "crypto/rand"`}},
		{"a named import's path", strings.Replace(baseImports, `"gopkg.in/yaml.v2"`, `"sigs.k8s.io/yaml"`, 1),
			[]string{`calc/calc.go:6: changes what yaml names from "gopkg.in/yaml.v2" to "sigs.k8s.io/yaml"`}},
		{"a major version", strings.Replace(baseImports, `"example.com/m/v2"`, `"example.com/m/v3"`, 1),
			[]string{`calc/calc.go:7: changes what m names from "example.com/m/v2" to "example.com/m/v3"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoImportChanges(map[string][]byte{"calc/calc.go": []byte(baseImports)}, map[string][]byte{"calc/calc.go": []byte(tc.patch)}), tc.want...)
		})
	}
	for name, patch := range map[string]map[string]string{
		"an import added":          {"calc/calc.go": strings.Replace(baseImports, "import (\n", "import (\n\t\"errors\"\n", 1)},
		"an import removed":        {"calc/calc.go": strings.Replace(baseImports, "\t\"math/rand\"\n", "", 1)},
		"an import renamed":        {"calc/calc.go": strings.Replace(baseImports, `yaml "gopkg.in/yaml.v2"`, `yamlv2 "gopkg.in/yaml.v2"`, 1)},
		"a new file":               {"calc/calc.go": baseImports, "calc/other.go": "package calc\n\nimport \"text/template\"\n\nvar _ = template.New\n"},
		"a file that won't parse":  {"calc/calc.go": "package calc\n\nimport (\n"},
		"imports reordered, split": {"calc/calc.go": strings.Replace(baseImports, "\t\"html/template\"\n\t\"math/rand\"\n", "\t\"math/rand\"\n\n\t\"html/template\"\n", 1)},
	} {
		t.Run(name, func(t *testing.T) {
			if got := GoImportChanges(map[string][]byte{"calc/calc.go": []byte(baseImports)}, bytesOf(patch)); len(got) != 0 {
				t.Fatalf("findings %q for an honest change", got)
			}
		})
	}
}
