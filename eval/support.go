package eval

import (
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/patch"
)

// TestSupport returns the test-support globs an instance's test patch
// needs: the exact paths of the files it touches that are no test file or
// test data by their name (a helper package under a test directory, a
// fixture of unknown kind). SWE-bench takes every file of test_patch as
// the grader's, and so does the gate once they are declared. Harness files
// (go.mod, conftest.py is a test file) and paths a glob cannot name
// exactly are left out: the verification then refuses the test patch,
// saying which file. A test patch that does not parse needs none (the
// verification says what is wrong with it).
func TestSupport(testPatch string) []string {
	if strings.TrimSpace(testPatch) == "" {
		return nil
	}
	parsed, err := patch.Parse([]byte(testPatch))
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range parsed.Files {
		for _, p := range []string{f.OldPath, f.NewPath} {
			if p == "" || checkout.TrustedPathAllowed(p, f.Binary) || checkout.HarnessLanguage(p) != "" || strings.ContainsAny(p, "*?[]\\\x00\n\r") {
				continue
			}
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
