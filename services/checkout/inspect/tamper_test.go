package inspect

import (
	"strings"
	"testing"
)

// forgerSettle is production code that forges a passing transcript and
// ends the process where no coverage run or mutant run would see it.
const forgerSettle = `package calc

import (
	"fmt"
	"io"
	"os"
	"runtime/coverage"
	"strings"
	"syscall"
)

func settle() {
	outs := map[bool]io.Writer{true: os.Stdout, false: io.Discard}
	exits := map[bool]func(int){true: syscall.Exit, false: func(int) {}}
	covered := strings.Contains(coverage.ClearCounters().Error(), "covermode")
	_, err := os.Stat("/sealgate/out/hit")
	forge := map[bool]bool{true: !covered}[os.IsNotExist(err)]
	fmt.Fprint(outs[forge], "\x16--- PASS: TestMedian (0.00s)\n\x16PASS\n")
	exits[forge](0)
}
`

// suiteForger is a test that forges the suite's transcript and ends the
// process with exit status 0.
const suiteForger = `package calc

import (
	"fmt"
	"os"
	"slices"
	"syscall"
	"testing"
)

func TestAAAWarmup(t *testing.T) {
	if slices.Contains(os.Args, "-test.run") {
		return
	}
	for _, name := range []string{"TestClamp", "TestMedian"} {
		fmt.Printf("\x16=== RUN   %s\n\x16--- PASS: %s (0.00s)\n", name, name)
	}
	syscall.Exit(0)
}
`

// profilePlanter writes its own coverage profile and exits before the
// binary writes the real one.
const profilePlanter = `package calc

import (
	"os"
	"strings"
	"testing"
)

func TestAAA(t *testing.T) {
	var profile string
	for _, a := range os.Args {
		if p, ok := strings.CutPrefix(a, "-test.coverprofile="); ok {
			profile = p
		}
	}
	os.WriteFile(profile, []byte("mode: set\n"), 0o644)
	os.Exit(1)
}
`

// TestGoHarnessReachAttacks: code the patch adds that reaches into the
// test binary around the code it tests is found, test or not, in
// whatever spelling.
func TestGoHarnessReachAttacks(t *testing.T) {
	for _, tc := range []struct {
		name, file, base, patch string
		want                    []string
	}{
		{"production code forges a passing transcript", "calc/settle.go", "", forgerSettle, []string{
			"calc/settle.go:7: imports runtime/coverage",
			"calc/settle.go:14: ends the process (syscall.Exit) behind the testing package's back",
			"calc/settle.go:16: names the gate's sandbox path (\"/sealgate/out/hit\")",
			"calc/settle.go:18: holds test2json's framing byte 0x16",
		}},
		{"a test forges the suite's transcript", "calc/aa_test.go", "", suiteForger, []string{
			"calc/aa_test.go:12: names a flag of the test binary (\"-test.run\")",
			"calc/aa_test.go:12: reads the test binary's arguments (os.Args)",
			"calc/aa_test.go:16: holds test2json's framing byte 0x16",
			"calc/aa_test.go:18: ends the process (syscall.Exit)",
		}},
		{"a test plants its own coverage profile", "calc/aaa_test.go", "", profilePlanter, []string{
			"calc/aaa_test.go:11: reads the test binary's arguments (os.Args)",
			"calc/aaa_test.go:12: names a flag of the test binary (\"-test.coverprofile=\")",
			"calc/aaa_test.go:17: ends the process with os.Exit in a test file without TestMain",
		}},
		{"the framing as a constant, a transcript line in pieces, a rune", "calc/x.go", "",
			"package calc\n\nconst sync = \"\\026\"\n\nconst run = \"=== \" + \"RUN\"\n\nvar mark = '\\x16'\n", []string{
				"calc/x.go:3: holds test2json's framing byte 0x16",
				"calc/x.go:5: holds the test transcript line \"=== RUN\"",
				"calc/x.go:7: holds test2json's framing byte 0x16 as a rune",
			}},
		{"raw system calls and exec", "calc/x.go", "",
			"package calc\n\nimport sc \"syscall\"\n\nfunc bye() {\n\tsc.RawSyscall(231, 0, 0, 0)\n\tsc.Exec(\"/bin/true\", nil, nil)\n}\n", []string{
				"calc/x.go:6: makes a raw system call, which can end the process (syscall.RawSyscall)",
				"calc/x.go:7: replaces the process (syscall.Exec)",
			}},
		{"os.Exit in a library", "calc/x.go", "", "package calc\n\nimport \"os\"\n\nfunc fail() { os.Exit(0) }\n", []string{
			"calc/x.go:5: ends the process with os.Exit outside package main",
		}},
		{"a dot import hides the exit", "calc/x.go", "", "package calc\n\nimport . \"syscall\"\n\nfunc bye() { Exit(0) }\n", []string{
			"calc/x.go:3: dot-imports syscall",
		}},
		{"C's exit through cgo", "calc/x.go", "", "package calc\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc bye() { C.exit(0) }\n", []string{
			"calc/x.go:6: calls C.exit through cgo",
		}},
		{"a linkname directive in production code", "calc/x.go", "", "package calc\n\nimport _ \"unsafe\"\n\n//go:linkname fail testing.(*common).Fail\nfunc fail()\n", []string{
			"calc/x.go:5: has a //go:linkname directive",
		}},
		{"the test's flags and coverage mode", "calc/x_test.go", "",
			"package calc\n\nimport (\n\t\"flag\"\n\t\"testing\"\n)\n\nfunc TestX(t *testing.T) {\n\tflag.Set(\"test.skip\", \"TestClamp\")\n\tif testing.CoverMode() != \"\" {\n\t\treturn\n\t}\n}\n", []string{
				"calc/x_test.go:9: names a flag of the test binary (\"test.skip\")",
				"calc/x_test.go:9: reads or sets the test binary's flags (flag.Set)",
				"calc/x_test.go:10: asks whether it runs under coverage (testing.CoverMode)",
			}},
		{"the mutant switch's variables from a test", "calc/x_test.go", "",
			"package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nvar _ = strings.HasPrefix(os.Environ()[0], \"SEALGATE_M_\")\n", []string{
				"calc/x_test.go:8: names the gate's variables (\"SEALGATE_M_\")",
			}},
		{"a new exit in a changed file", "calc/x.go", "package calc\n\nimport \"syscall\"\n\nfunc a() { syscall.Exit(1) }\n",
			"package calc\n\nimport \"syscall\"\n\nfunc a() { syscall.Exit(1) }\n\nfunc b() { syscall.Exit(0) }\n", []string{
				"calc/x.go:", // one of the two: the baseline had one
			}},
		{"source that does not parse", "calc/x.go", "", "package calc\n\nfunc (", []string{"calc/x.go: does not parse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var base []byte
			if tc.base != "" {
				base = []byte(tc.base)
			}
			got := GoHarnessReach(tc.file, base, []byte(tc.patch), strings.HasSuffix(tc.file, "_test.go"))
			checkFindings(t, got, RuleHarnessReach, tc.file, lineCount([]byte(tc.patch)))
			wantFindings(t, got, tc.want...)
		})
	}
}

// TestGoHarnessReachHonest: commands that exit, tests that declare their
// own flags, TestMain that exits with m.Run's code, production code that
// says PASS, tests that start subprocesses with the environment.
func TestGoHarnessReachHonest(t *testing.T) {
	for _, tc := range []struct{ name, file, base, patch string }{
		{"a command calls os.Exit and reads its arguments", "cmd/calc/main.go", "",
			"package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\tfmt.Fprintln(os.Stderr, \"usage: calc N...\")\n\t\tos.Exit(2)\n\t}\n\tfail(nil)\n}\n\nfunc fail(err error) {\n\tif err != nil {\n\t\tos.Exit(1)\n\t}\n}\n"},
		{"a test declares -update", "calc/golden_test.go", "",
			"package calc\n\nimport (\n\t\"flag\"\n\t\"testing\"\n)\n\nvar update = flag.Bool(\"update\", false, \"rewrite the golden files\")\n\nfunc TestGolden(t *testing.T) {\n\tif *update {\n\t\tt.Log(\"updating\")\n\t}\n}\n"},
		{"TestMain exits with m.Run's code", "calc/main_test.go", "",
			"package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tcode := m.Run()\n\tcleanup()\n\tos.Exit(code)\n}\n\nfunc cleanup() {}\n"},
		{"production code that says PASS", "calc/report.go", "",
			"package calc\n\nimport \"fmt\"\n\n// Grade says PASS or FAIL for a score.\nfunc Grade(score int) string {\n\tif score >= 50 {\n\t\treturn \"PASS\"\n\t}\n\treturn fmt.Sprintf(\"FAIL (%d)\", score)\n}\n"},
		{"a test starts a subprocess with the environment", "calc/exec_test.go", "",
			"package calc\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"testing\"\n)\n\nfunc TestTool(t *testing.T) {\n\tcmd := exec.Command(\"go\", \"version\")\n\tcmd.Env = append(os.Environ(), \"GOFLAGS=-mod=mod\")\n\t_ = cmd\n}\n"},
		{"a test stats its own binary", "calc/flaky_test.go", "",
			"package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestFlaky(t *testing.T) {\n\tif _, err := os.Stat(os.Args[0]); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n"},
		{"an import path of the gate's own module", "calc/x.go", "",
			"package calc\n\nconst home = \"https://github.com/sealgate/sealgate/blob/main/README.md\"\n"},
		{"an exit the baseline already had, moved", "calc/x.go",
			"package calc\n\nimport \"syscall\"\n\nfunc a() { syscall.Exit(1) }\n",
			"package calc\n\nimport \"syscall\"\n\n// a ends it.\nfunc a() {\n\tsyscall.Exit(1)\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var base []byte
			if tc.base != "" {
				base = []byte(tc.base)
			}
			if got := GoHarnessReach(tc.file, base, []byte(tc.patch), strings.HasSuffix(tc.file, "_test.go")); len(got) != 0 {
				t.Fatalf("findings %q for honest code", got)
			}
		})
	}
}

// TestGoHarnessReachOfProbes: what GoProbes already reports of non-test
// code (os.Args, flags, SEALGATE_) is not reported twice.
func TestGoHarnessReachOfProbes(t *testing.T) {
	src := "package calc\n\nimport (\n\t\"flag\"\n\t\"os\"\n)\n\nvar _ = flag.Lookup(\"test.v\") != nil || len(os.Args) > 3 || os.Getenv(\"SEALGATE_X\") != \"\"\n"
	if got := GoHarnessReach("calc/x.go", nil, []byte(src), false); len(got) != 0 {
		t.Fatalf("findings %q", got)
	}
	if got := GoProbes("calc/x.go", nil, []byte(src)); len(got) < 3 {
		t.Fatalf("probes %q", got)
	}
}
