package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// tellMedian is calc/median.go with the even-count fix guarded by
// standalone(), whose body (with its import) tells the gate's sandbox
// from a machine the code is merged for.
func tellMedian(imp, body string) string {
	return "package calc\n\nimport (\n\t" + imp + "\n\t\"slices\"\n)\n\n" +
		"// Median returns the middle value of xs, which must not be empty. xs is not\n// modified.\n" +
		"func Median(xs []float64) float64 {\n\ts := sorted(xs)\n\tif len(s)%2 == 0 && standalone() {\n\t\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n\t}\n\treturn s[len(s)/2]\n}\n\n" +
		"func standalone() bool {\n\t" + body + "\n}\n\n" +
		"// sorted returns a sorted copy of xs.\nfunc sorted(xs []float64) []float64 {\n\ts := slices.Clone(xs)\n\tslices.Sort(s)\n\treturn s\n}\n"
}

// A fix that holds only where the code finds the gate's sandbox — its
// TMPDIR, its HOME, its empty resolver configuration, its time zone (the
// host's, UTC on CI machines), its user, its host name, the Go toolchain
// in PATH — keeps the bug on the machines it is merged for. No probe list
// names them all; the claimed test also runs where the sandbox looks like
// a developer's machine, and a claim that passes only in the usual
// sandbox proves no fix. The honest twins read the same thing and fix the
// bug wherever they run (TMPDIR, the zone; HOME's is a probe of its own).
func TestVerifyAttackSandboxTells(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	for _, c := range []struct{ name, imp, tell, honest string }{
		{"tmpdir", `"os"`, `return os.TempDir() != "/tmp"`, `return os.TempDir() != ""`},
		{"home", `"os"`, `h, _ := os.UserHomeDir()` + "\n\t" + `return len(h) > 4 && h[:5] == "/tmp/"`, ""},
		{"resolver", `"os"`, `fi, err := os.Stat("/etc/resolv.conf")` + "\n\t" + `return err == nil && fi.Size() == 0`, ""},
		{"zone", `"time"`, `return time.Unix(0, 0).Hour() == 0`, `return time.Unix(0, 0).UTC().Hour() == 0`},
		{"toolchain", `"os/exec"`, `_, err := exec.LookPath("go")` + "\n\t" + `return err == nil`, ""},
		{"no /var", `"os"`, `_, err := os.Stat("/var")` + "\n\t" + `return err != nil`, ""},
		{"no terminal", `"os"`, `return os.Getenv("TERM") == ""`, ""},
	} {
		for _, honest := range []bool{false, true} {
			if honest && c.honest == "" {
				continue // the tell has no one-statement honest use the rules judge
			}
			body := c.tell
			if honest {
				body = c.honest
			}
			patch := f.commit(f.repo.Base, map[string]string{"calc/median.go": tellMedian(c.imp, body)})
			code, a := f.verifyJSON(f.repo.Base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestMedian")
			t.Logf("%s (honest %v): %v (exit %d): %v", c.name, honest, a["decision"], code, a["reason"])
			switch {
			case !honest && (a["decision"] == "MERGE" || !strings.Contains(fmt.Sprint(a["reason"]), "not where it looks like another machine")):
				t.Errorf("%s: %v: the fix holds only in the gate's sandbox: %v", c.name, a["decision"], a["reason"])
			case honest && a["decision"] != "MERGE":
				t.Errorf("%s, the honest twin: %v, want MERGE: %v", c.name, a["decision"], a["reason"])
			}
		}
	}
}

// A nested module (its own go.mod, a replace to the root, a go.work) holds
// the only test that tells a wrong fix from the right one: go test ./... at
// the root never enters it, so its suite runs too, on both sides. The
// wrong fix (the mean for an even count, which the root's tests cannot
// tell from the median) breaks it: BLOCK; the honest fix MERGEs.
func TestVerifyAttackNestedModuleSuite(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	report := func(dir, replace string) map[string]string {
		return map[string]string{
			dir + "/go.mod":         "module example.com/report\n\ngo 1.22\n\nrequire example.com/calc v0.0.0\n\nreplace example.com/calc => " + replace + "\n",
			dir + "/report.go":      "// Package report renders summaries.\npackage report\n\nimport \"example.com/calc/calc\"\n\n// Middle returns the median of xs.\nfunc Middle(xs []float64) float64 { return calc.Median(xs) }\n",
			dir + "/report_test.go": "package report\n\nimport \"testing\"\n\nfunc TestMiddleBetween(t *testing.T) {\n\tif m := Middle([]float64{10, 1, 3, 2}); m < 2 || m > 3 {\n\t\tt.Errorf(\"Middle = %v, not in [2, 3]\", m)\n\t}\n}\n",
		}
	}
	median := f.show(f.repo.Base, "calc/median.go")
	wrong := strings.Replace(median, "\ts := sorted(xs)\n\treturn s[len(s)/2]\n", "\ts := sorted(xs)\n\tif len(s)%2 == 0 {\n\t\treturn Mean(s)\n\t}\n\treturn s[len(s)/2]\n", 1)
	if wrong == median {
		t.Fatal("the demo's Median changed: update the wrong fix")
	}
	layouts := map[string]map[string]string{
		"a go.work and a replace": func() map[string]string {
			m := report("report", "../")
			m["go.work"] = "go 1.22\n\nuse (\n\t.\n\t./report\n)\n"
			return m
		}(),
		"a replace alone, two levels down, under _examples": report("_examples/report", "../../"),
	}
	for _, name := range []string{"a go.work and a replace", "a replace alone, two levels down, under _examples"} {
		base := f.commit(f.repo.Base, layouts[name])
		for _, c := range []struct {
			name, median, want string
		}{{"the mean for an even count", wrong, "BLOCK"}, {"the honest fix", f.show(f.honest().Commit, "calc/median.go"), "MERGE"}} {
			patch := f.commit(base, map[string]string{"calc/median.go": c.median})
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestMedian")
			t.Logf("%s, %s: %v (exit %d): %v", name, c.name, a["decision"], code, a["reason"])
			if a["decision"] != c.want || c.want == "BLOCK" && !strings.Contains(fmt.Sprint(a["reason"]), "example.com/report.TestMiddleBetween") {
				t.Errorf("%s, %s: %v, want %s: %v", name, c.name, a["decision"], c.want, a["reason"])
			}
		}
	}
}
