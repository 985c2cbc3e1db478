package cover

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The tests in this file build the module of measure_test.go with the real
// go command and measure the profiles it writes.

// goModule is the test module written to a temporary directory.
type goModule struct {
	goBin string
	dir   string
	env   []string
}

func newGoModule(t *testing.T) *goModule {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs the go command, which the Bazel sandbox does not provide")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := t.TempDir()
	for name, content := range moduleFiles() {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A build cache shared by the runs of this test, kept between them.
	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off", "GO111MODULE=on",
		"GOCACHE="+cache, "GOCOVERDIR=",
	)
	return &goModule{goBin: goBin, dir: dir, env: env}
}

// run runs a command in the module's directory and fails the test if it
// fails.
func (m *goModule) run(t *testing.T, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = m.dir
	cmd.Env = m.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// goTest runs `go test` with args and returns the profile it wrote, as
// text.
func (m *goModule) goTest(t *testing.T, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "cover.out")
	m.run(t, m.goBin, append([]string{"test", "-count=1", "-coverprofile=" + out}, args...)...)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantModuleReach is the reach map of TestA and TestB (in calc.test) and
// TestT (in other.test), built with -coverpkg=./....
func wantModuleReach() map[string][]Line {
	return map[string][]Line{
		"TestA": lines("calc/calc.go", 5, 7, 10),
		// The one-line if on line 23 is reached by its header alone;
		// the label "case 1:" on 25 by the switch's header on 24.
		"TestB": lines("calc/calc.go", 17, 20, 21, 23, 24, 25, 26, 27, 29, 32, 33),
		"TestT": concat(lines("calc/calc.go", 17, 20, 21, 23, 24, 25, 27, 29, 32, 33), lines("other/other.go", 6)),
	}
}

func TestRealProfiles(t *testing.T) {
	m := newGoModule(t)

	t.Run("set", func(t *testing.T) {
		text := m.goTest(t, "-covermode=set", "./...")
		p := mustParse(t, text)
		if want := mustParse(t, recordedSet); !reflect.DeepEqual(p, want) {
			t.Errorf("cmd/cover's blocks are not those recorded in recordedSet; got\n%s", text)
		}
		res, err := Measure(changedModule(), p)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, res, wantModuleResult())
	})

	t.Run("package not built with coverage", func(t *testing.T) {
		res, err := Measure(changedModule(), mustParse(t, m.goTest(t, "-covermode=set", "./calc")))
		if err != nil {
			t.Fatal(err)
		}
		if res.Ratio != nil || !reflect.DeepEqual(res.Unmeasured, []string{"other/other.go"}) {
			t.Errorf("Measure = %+v, want other/other.go unmeasured and no ratio", res)
		}
		for _, l := range concat(res.Uncovered, res.Excluded) {
			if l.Path == "other/other.go" {
				t.Errorf("line %v of an unmeasured file is counted", l)
			}
		}
	})

	t.Run("coverpkg repeats blocks", func(t *testing.T) {
		// Both test binaries report calc.go: go test concatenates them.
		text := m.goTest(t, "-covermode=count", "-coverpkg=./...", "./...")
		if n := strings.Count(text, "\nexample.com/m/calc/calc.go:16.24,20.23 "); n != 2 {
			t.Fatalf("the profile has Sum's first block %d times, want 2:\n%s", n, text)
		}
		if n := strings.Count(text, "\nmode: "); n != 0 {
			t.Fatalf("the profile repeats its mode line:\n%s", text)
		}
		p := mustParse(t, text)
		counts := map[string]int{}
		for _, b := range p.Blocks {
			if _, dup := counts[b.span()]; dup {
				t.Errorf("block %s twice", b)
			}
			counts[b.span()] = b.Count
		}
		// Sum ran once in each binary; Classify once, in calc.test.
		if got := counts[`"example.com/m/calc/calc.go":16.24,20.23`]; got != 2 {
			t.Errorf("Sum's first block counted %d times, want 2", got)
		}
		if got := counts[`"example.com/m/calc/calc.go":4.29,5.11`]; got != 1 {
			t.Errorf("Classify's first block counted %d times, want 1", got)
		}
		res, err := Measure(changedModule(), p)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, res, wantModuleResult())
	})

	t.Run("per test", func(t *testing.T) {
		bin := t.TempDir()
		perTest := map[string]*Profile{}
		for _, pkg := range []struct {
			name  string
			tests []string
		}{
			{"calc", []string{"TestA", "TestB"}},
			{"other", []string{"TestT"}},
		} {
			exe := filepath.Join(bin, pkg.name+".test")
			m.run(t, m.goBin, "test", "-c", "-cover", "-covermode=set", "-coverpkg=./...", "-o", exe, "./"+pkg.name)
			for _, test := range pkg.tests {
				out := filepath.Join(bin, test+".out")
				m.run(t, exe, "-test.count=1", "-test.run=^"+test+"$", "-test.coverprofile="+out)
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				perTest[test] = mustParse(t, string(b))
			}
		}
		reach, err := Reach(changedModule(), perTest)
		if err != nil {
			t.Fatal(err)
		}
		if want := wantModuleReach(); !reflect.DeepEqual(reach, want) {
			t.Errorf("Reach =\n%v\nwant\n%v", reach, want)
		}
		reaching := Reaching(reach)
		if got := reaching[Line{"calc/calc.go", 23}]; !reflect.DeepEqual(got, []string{"TestB", "TestT"}) {
			t.Errorf("tests reaching the one-line if: %v", got)
		}
		if got := reaching[Line{"calc/calc.go", 26}]; !reflect.DeepEqual(got, []string{"TestB"}) {
			t.Errorf("tests reaching total++: %v", got)
		}
		if got, ok := reaching[Line{"calc/calc.go", 6}]; ok {
			t.Errorf("tests reaching return \"negative\": %v", got)
		}

		// The per-test profiles merged measure what the whole run did.
		merged, err := Merge(perTest["TestA"], perTest["TestB"], perTest["TestT"])
		if err != nil {
			t.Fatal(err)
		}
		res, err := Measure(changedModule(), merged)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, res, wantModuleResult())
	})
}
