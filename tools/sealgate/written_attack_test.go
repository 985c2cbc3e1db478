package main

import (
	"path"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// The as-written attacks: the gate judges a patch by the baseline's test
// files (the patch never writes its own oracle), so what the patch does to
// its own test files was never run beyond the claim. A patch with a
// correct code fix and test files that fail as it wrote them merged, and
// the repository's own `go test` went red the moment it landed.
const (
	writtenCode = "package count\n\n// Abs returns the absolute value of x.\nfunc Abs(x int) int {\n\tif x < 0 {\n\t\treturn %s\n\t}\n\treturn x\n}\n\n" +
		"// Max returns the larger of a and b.\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n"
	writtenHelper = "func eq(t *testing.T, got, want int) {\n\tt.Helper()\n\tif got != want {\n\t\tt.Fatalf(\"got %d, want %d\", got, want)\n\t}\n}\n"
	writtenTests  = "func TestAbs(t *testing.T) {\n\teq(t, Abs(-3), 3)\n\teq(t, Abs(2), 2)\n\teq(t, Abs(0), 0)\n}\n\n" +
		"func TestMax(t *testing.T) {\n\teq(t, Max(1, 2), 2)\n\teq(t, Max(-5, -1), -1)\n}\n"
)

func writtenSource(ret string) string { return strings.Replace(writtenCode, "%s", ret, 1) }

func writtenTest(helper, extra string) string {
	return "package count\n\nimport \"testing\"\n\n" + helper + "\n" + writtenTests + extra
}

// verifyWritten commits the baseline (Abs returns x for negative x: the
// bug) and a patch that fixes Abs and writes files, and verifies the
// claim TestAbs.
func verifyWritten(t *testing.T, f *fixture, files map[string]string) (decision any, reasons any) {
	t.Helper()
	return verifyWrittenOver(t, f, nil, files)
}

// verifyWrittenOver is verifyWritten with more files in the baseline.
func verifyWrittenOver(t *testing.T, f *fixture, baseFiles, files map[string]string) (decision any, reasons any) {
	t.Helper()
	baseline := map[string]string{"count/count.go": writtenSource("x"), "count/count_test.go": writtenTest(writtenHelper, "")}
	for k, v := range baseFiles {
		baseline[k] = v
	}
	base := f.commit(f.honest().Commit, baseline)
	files["count/count.go"] = writtenSource("-x")
	patch := f.commit(base, files)
	code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestAbs")
	t.Logf("%v (exit %d): %v", a["decision"], code, a["reasons"])
	return a["decision"], a["reasons"]
}

// writtenAttack verifies an attack (see verifyWritten); it fails the test
// when the gate answers MERGE.
func writtenAttack(t *testing.T, f *fixture, files map[string]string, why string) {
	t.Helper()
	if decision, reasons := verifyWritten(t, f, files); decision == "MERGE" {
		t.Fatalf("wrong MERGE: %s: %v", why, reasons)
	}
}

// TestVerifyAttackWrittenHelperBreaks: beside the fix, the patch makes its
// test helper also refuse negative results ("Abs never returns one"),
// which TestMax's Max(-5, -1) now fails. The claim passes (the oracle
// runs the baseline's helper), and the full suite passes (the oracle's
// test files are the baseline's): only the patch's own files, run as it
// wrote them, fail. Not MERGE.
func TestVerifyAttackWrittenHelperBreaks(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	helper := strings.Replace(writtenHelper, "\tif got != want {", "\tif got < 0 {\n\t\tt.Fatalf(\"negative result %d\", got)\n\t}\n\tif got != want {", 1)
	decision, reasons := verifyWritten(t, f, map[string]string{"count/count_test.go": writtenTest(helper, "")})
	if decision == "MERGE" {
		t.Fatalf("wrong MERGE: the patch's own TestMax fails as written: %v", reasons)
	}
	if !strings.Contains(strings.ToLower(toString(reasons)), "as the patch wrote") {
		t.Fatalf("the reasons do not say the patch's own test files fail: %v", reasons)
	}
}

// TestVerifyAttackWrittenAddedTestFails: the patch adds, unclaimed, a test
// of its own to the existing test file, and that test fails on the
// patched code: Abs(math.MinInt) is still negative. The patch's own
// evidence says the fix is incomplete. Not MERGE.
func TestVerifyAttackWrittenAddedTestFails(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	added := "\nfunc TestAbsNeverNegative(t *testing.T) {\n\tfor _, x := range []int{-1, -7, math.MinInt} {\n\t\tif Abs(x) < 0 {\n\t\t\tt.Errorf(\"Abs(%d) = %d\", x, Abs(x))\n\t\t}\n\t}\n}\n"
	test := strings.Replace(writtenTest(writtenHelper, added), "import \"testing\"", "import (\n\t\"math\"\n\t\"testing\"\n)", 1)
	writtenAttack(t, f, map[string]string{"count/count_test.go": test}, "the patch's own TestAbsNeverNegative fails")
}

// TestVerifyAttackWrittenFileDoesNotBuild: the patch adds a second test
// file to the package that does not compile. The oracle keeps added test
// files, so the claim's own build fails on the patch (unrunnable) and the
// written run's too. Not MERGE.
func TestVerifyAttackWrittenFileDoesNotBuild(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	broken := "package count\n\nimport \"testing\"\n\nfunc TestMaxSame(t *testing.T) {\n\teq(t, Max(2, 2), 2, \"same\")\n}\n"
	writtenAttack(t, f, map[string]string{"count/max_test.go": broken}, "the patch's count/max_test.go does not build")
}

// TestVerifyAttackWrittenNewFileFails: the failing test of the patch's own
// sits in a new test file instead. The oracle keeps added test files, so
// the suite runs it: red on the patch where the baseline was green. Not
// MERGE.
func TestVerifyAttackWrittenNewFileFails(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	added := "package count\n\nimport (\n\t\"math\"\n\t\"testing\"\n)\n\nfunc TestAbsMinInt(t *testing.T) {\n\tif Abs(math.MinInt) < 0 {\n\t\tt.Fatal(\"Abs(math.MinInt) is negative\")\n\t}\n}\n"
	writtenAttack(t, f, map[string]string{"count/minint_test.go": added}, "the patch's own count/minint_test.go fails")
}

// TestVerifyAttackWrittenVetFails: the patch's helper prints an int with
// %s. Every test passes, but plain `go test` runs vet's printf check first
// and fails the package as a build failure. The gate builds without vet,
// so only the written job's vet, as go test runs it, shows it. Not MERGE.
func TestVerifyAttackWrittenVetFails(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	helper := strings.Replace(writtenHelper, "\"got %d, want %d\"", "\"got %s, want %d\"", 1)
	decision, reasons := verifyWritten(t, f, map[string]string{"count/count_test.go": writtenTest(helper, "")})
	if decision == "MERGE" || !strings.Contains(toString(reasons), "go vet") {
		t.Fatalf("%v: the patch's own count_test.go fails go test's vet: %v", decision, reasons)
	}
}

// maxTable is a test of Max that reads its cases from a file by path.
func maxTable(file string) string {
	return "package " + path.Base(path.Dir(file)) + "\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n\n\t\"example.com/calc/count\"\n)\n\n" +
		"func TestMaxTable(t *testing.T) {\n\tb, err := os.ReadFile(\"../" + file + "\")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n" +
		"\tfor _, line := range strings.Split(strings.TrimSpace(string(b)), \"\\n\") {\n\t\tvar a, b, want int\n\t\tif _, err := fmt.Sscanf(line, \"%d %d = %d\", &a, &b, &want); err != nil {\n\t\t\tt.Fatal(err)\n\t\t}\n" +
		"\t\tif got := count.Max(a, b); got != want {\n\t\t\tt.Errorf(\"Max(%d, %d) = %d, want %d\", a, b, got, want)\n\t\t}\n\t}\n}\n"
}

// TestVerifyAttackWrittenSharedData: a table of cases at the module's root
// (testdata/max.txt), read by a test of package stats, gains a wrong row
// beside the fix. The oracle puts the baseline's table back, so the suite
// passes; a package the patch's test files never name reads it. The
// written run takes the whole module when test data changed. Not MERGE;
// nor for a table under another package's testdata.
func TestVerifyAttackWrittenSharedData(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	for _, file := range []string{"testdata/max.txt", "count/testdata/max.txt"} {
		base := map[string]string{file: "1 2 = 2\n5 -1 = 5\n", "stats/stats_test.go": maxTable(file)}
		decision, reasons := verifyWrittenOver(t, f, base, map[string]string{file: "1 2 = 2\n5 -1 = 5\n2 3 = 2\n"})
		if decision == "MERGE" {
			t.Fatalf("wrong MERGE: %s gained a wrong row that stats.TestMaxTable fails: %v", file, reasons)
		}
	}
}

// TestVerifyAttackWrittenNestedModuleData: the table sits in a nested
// module's testdata (conformance/, its own go.mod), read by a test of the
// root module. The written run takes the root module whole, not only the
// module holding the file. Not MERGE.
func TestVerifyAttackWrittenNestedModuleData(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const file = "conformance/testdata/max.txt"
	base := map[string]string{"conformance/go.mod": "module example.com/conformance\n\ngo 1.21\n", "conformance/doc.go": "// Package conformance holds cases.\npackage conformance\n",
		file: "1 2 = 2\n5 -1 = 5\n", "stats/stats_test.go": maxTable(file)}
	if decision, reasons := verifyWrittenOver(t, f, base, map[string]string{file: "1 2 = 2\n5 -1 = 5\n2 3 = 2\n"}); decision == "MERGE" {
		t.Fatalf("wrong MERGE: %s gained a wrong row that the root module's stats.TestMaxTable fails: %v", file, reasons)
	}
}

// gofmtTest is a test that reads every Go file of the module and fails
// on one gofmt would change: a test file is data too.
const gofmtTest = "package style\n\nimport (\n\t\"bytes\"\n\t\"go/format\"\n\t\"io/fs\"\n\t\"os\"\n\t\"path/filepath\"\n\t\"strings\"\n\t\"testing\"\n)\n\n" +
	"func TestGofmt(t *testing.T) {\n\tfilepath.WalkDir(\"..\", func(p string, d fs.DirEntry, err error) error {\n\t\tif err != nil || d.IsDir() || !strings.HasSuffix(p, \".go\") {\n\t\t\treturn err\n\t\t}\n" +
	"\t\tb, err := os.ReadFile(p)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\tif f, err := format.Source(b); err != nil || !bytes.Equal(f, b) {\n\t\t\tt.Errorf(\"%s is not gofmt'd\", p)\n\t\t}\n\t\treturn nil\n\t})\n}\n"

// TestVerifyAttackWrittenReadByAnotherPackage: a test of package style
// checks that every Go file is gofmt'd; the patch adds a test to
// count_test.go indented with spaces. Its package passes as written, but
// style reads the file by path: the written run takes the module whole.
// Not MERGE; the same test indented with a tab MERGEs.
func TestVerifyAttackWrittenReadByAnotherPackage(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	base := map[string]string{"style/style_test.go": gofmtTest}
	for _, indent := range []string{"    ", "\t"} {
		added := "\nfunc TestAbsNegativeOne(t *testing.T) {\n" + indent + "eq(t, Abs(-1), 1)\n}\n"
		decision, reasons := verifyWrittenOver(t, f, base, map[string]string{"count/count_test.go": writtenTest(writtenHelper, added)})
		switch {
		case indent == "\t" && decision != "MERGE":
			t.Fatalf("the honest twin: %v, want MERGE: %v", decision, reasons)
		case indent != "\t" && decision == "MERGE":
			t.Fatalf("wrong MERGE: count_test.go is not gofmt'd and style.TestGofmt fails: %v", reasons)
		}
	}
}

// TestVerifyAttackWrittenVetInCode: beside the fix, count.go gains a
// //go:debug line, which vet's directive check refuses outside package
// main and tests: plain go test fails the package before it runs a test.
// The gate's own builds leave vet off; the written job vets the packages
// the patch changes, against the baseline's, whether or not the patch
// edits a test file. Not MERGE.
func TestVerifyAttackWrittenVetInCode(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	code := "//go:debug panicnil=1\n\n" + writtenSource("-x")
	for _, files := range []map[string]string{
		{"count/count.go": code},
		{"count/count.go": code, "count/count_test.go": writtenTest(writtenHelper, "\nfunc TestAbsNegativeOne(t *testing.T) {\n\teq(t, Abs(-1), 1)\n}\n")},
	} {
		base := f.commit(f.honest().Commit, map[string]string{"count/count.go": writtenSource("x"), "count/count_test.go": writtenTest(writtenHelper, "")})
		patch := f.commit(base, files)
		code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestAbs")
		t.Logf("%v (exit %d): %v", a["decision"], code, a["reasons"])
		if a["decision"] == "MERGE" || !strings.Contains(toString(a["reasons"]), "go vet") {
			t.Fatalf("%v: count.go fails go test's vet (a //go:debug line outside package main): %v", a["decision"], a["reasons"])
		}
	}
}

// TestVerifyWrittenDataHonest: the honest twin — the same table gains a
// right row: MERGE.
func TestVerifyWrittenDataHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	base := map[string]string{"testdata/max.txt": "1 2 = 2\n5 -1 = 5\n", "stats/stats_test.go": maxTable("testdata/max.txt")}
	if decision, reasons := verifyWrittenOver(t, f, base, map[string]string{"testdata/max.txt": "1 2 = 2\n5 -1 = 5\n2 3 = 3\n"}); decision != "MERGE" {
		t.Fatalf("the honest twin: %v, want MERGE: %v", decision, reasons)
	}
}

// TestVerifyWrittenHonest: the honest twin of the same shape — the fix,
// a helper edited to say more, a test added to the existing file and a
// new test file, all passing as written: MERGE.
func TestVerifyWrittenHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	helper := strings.Replace(writtenHelper, "\"got %d, want %d\", got, want", "\"got %d, want %d (off by %d)\", got, want, got-want", 1)
	added := "\nfunc TestAbsNegativeOne(t *testing.T) {\n\teq(t, Abs(-1), 1)\n}\n"
	same := "package count\n\nimport \"testing\"\n\nfunc TestMaxSame(t *testing.T) {\n\teq(t, Max(2, 2), 2)\n}\n"
	decision, reasons := verifyWritten(t, f, map[string]string{"count/count_test.go": writtenTest(helper, added), "count/max_test.go": same})
	if decision != "MERGE" {
		t.Fatalf("the honest twin: %v, want MERGE: %v", decision, reasons)
	}
}

func toString(v any) string {
	var b strings.Builder
	if l, ok := v.([]any); ok {
		for _, e := range l {
			s, _ := e.(string)
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

// logx's Logf, before and after the patch makes it a printf wrapper, and a
// caller in another package the patch does not touch.
const (
	logxBefore = "package logx\n\n// Lines holds what Logf was given.\nvar Lines []string\n\n// Logf records format.\nfunc Logf(format string, args ...any) {\n\tLines = append(Lines, format)\n}\n"
	logxAfter  = "package logx\n\nimport \"fmt\"\n\n// Lines holds what Logf was given.\nvar Lines []string\n\n// Logf records the formatted line.\nfunc Logf(format string, args ...any) {\n\tLines = append(Lines, fmt.Sprintf(format, args...))\n}\n"
	reportTest = "package report\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(2) != 2 {\n\t\tt.Fatal(\"Total(2) != 2\")\n\t}\n}\n"
)

func reportCode(verb string) string {
	return "package report\n\nimport \"example.com/calc/logx\"\n\n// Total logs n and returns it.\nfunc Total(n int) int {\n\tlogx.Logf(\"total " + verb + "\", n)\n\treturn n\n}\n"
}

// A patch that makes a function a printf wrapper makes go test's vet check
// its callers, in packages the patch never touches: a caller's wrong verb
// then fails plain go test there. The honest twin's caller is right.
func TestVerifyAttackWrittenVetInImporter(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	logxTest := "package logx\n\nimport \"testing\"\n\nfunc TestLogf(t *testing.T) {\n\tLines = nil\n\tLogf(\"n=%d\", 3)\n\tLogf(\"x\")\n\tif len(Lines) != 2 || Lines[0] != \"n=3\" || Lines[1] != \"x\" {\n\t\tt.Fatalf(\"Lines = %q\", Lines)\n\t}\n}\n"
	for _, verb := range []string{"%s", "%d"} {
		base := f.commit(f.honest().Commit, map[string]string{"count/count.go": writtenSource("x"), "count/count_test.go": writtenTest(writtenHelper, ""),
			"logx/logx.go": logxBefore, "report/report.go": reportCode(verb), "report/report_test.go": reportTest})
		patch := f.commit(base, map[string]string{"count/count.go": writtenSource("-x"), "logx/logx.go": logxAfter, "logx/logx_test.go": logxTest})
		code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestAbs", "go:./logx:TestLogf")
		t.Logf("%s: %v (exit %d): %v", verb, a["decision"], code, a["reasons"])
		switch {
		case verb == "%s" && (a["decision"] == "MERGE" || !strings.Contains(toString(a["reasons"]), "example.com/calc/report (go vet")):
			t.Fatalf("%v: report.Total's %%s for an int fails go test's vet once Logf wraps Sprintf: %v", a["decision"], a["reasons"])
		case verb == "%d" && a["decision"] != "MERGE":
			t.Fatalf("the honest twin: %v, want MERGE: %v", a["decision"], a["reasons"])
		}
	}
}
