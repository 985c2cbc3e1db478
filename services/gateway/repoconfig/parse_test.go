package repoconfig

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// exampleFile is the format's documented example.
const exampleFile = `# .sealgate.yaml — what sealgate verify measures this repository by.
version: 1
stacks: [python]            # what init found
python: python3
runner: pytest
suite:
  run: npm test
  junit: reports/junit.xml
seal:
  - run: go vet ./...
  - run: cargo test
    junit: target/junit.xml
commands:
  e2e:
    run: make e2e
    junit: out/e2e.xml
floors:
  coverage: 1.0
  strength: 0.75
  confidence: 0.80
  mutants: 20
test_support: ["fixtures/*"]
`

func ptr[T any](v T) *T { return &v }

type goodCase struct {
	name string
	src  string
	want Config
}

func goodCases() []goodCase {
	return []goodCase{
		{"example", exampleFile, Config{
			Version: 1, Stacks: []string{"python"}, Python: "python3", Runner: "pytest",
			Suite: &Command{Run: "npm test", JUnit: "reports/junit.xml"},
			Seal:  []Command{{Run: "go vet ./..."}, {Run: "cargo test", JUnit: "target/junit.xml"}},
			Commands: map[string]Command{
				"e2e": {Run: "make e2e", JUnit: "out/e2e.xml"},
			},
			Floors:      Floors{Coverage: ptr(1.0), Strength: ptr(0.75), Confidence: ptr(0.8), Mutants: ptr(20)},
			TestSupport: []string{"fixtures/*"},
		}},
		{"minimal", "version: 1\n", Config{Version: 1}},
		{"empty collections are absent", "version: 1\nstacks: []\nseal: []\ncommands: {}\nfloors: {}\ntest_support: []\nsuite: ~\n",
			Config{Version: 1}},
		// 0 switches a requirement off: it must survive as 0, not as absent.
		{"zero floors", "version: 1\nfloors:\n  coverage: 0\n  strength: 0\n  mutants: 0\n", Config{
			Version: 1, Floors: Floors{Coverage: ptr(0.0), Strength: ptr(0.0), Mutants: ptr(0)},
		}},
		{"one floor", "version: 1\nfloors: {confidence: 0.95}\n", Config{Version: 1, Floors: Floors{Confidence: ptr(0.95)}}},
		{"all stacks", "version: 1\nstacks: [go, make, node, python, rust]\nrunner: unittest\n", Config{
			Version: 1, Stacks: []string{"go", "make", "node", "python", "rust"}, Runner: "unittest",
		}},
		{"same run, different junit", "version: 1\nseal:\n  - run: make test\n    junit: a.xml\n  - run: make test\n    junit: b.xml\n", Config{
			Version: 1, Seal: []Command{{Run: "make test", JUnit: "a.xml"}, {Run: "make test", JUnit: "b.xml"}},
		}},
		{"labels", "version: 1\ncommands:\n  a:\n    run: x\n  " + strings.Repeat("z", 64) + ":\n    run: y\n  E2e.v1_x-2:\n    run: make e2e\n", Config{
			Version: 1, Commands: map[string]Command{"a": {Run: "x"}, strings.Repeat("z", 64): {Run: "y"}, "E2e.v1_x-2": {Run: "make e2e"}},
		}},
		{"quoted and special commands", "version: 1\nseal:\n  - run: 'echo \"a: b\" # not a comment'\n  - run: \"*star\"\n  - run: \"true\"\n  - run: \"007\"\n", Config{
			Version: 1, Seal: []Command{{Run: `echo "a: b" # not a comment`}, {Run: "*star"}, {Run: "true"}, {Run: "007"}},
		}},
		{"absolute python", "version: 1\npython: /opt/py/bin/python3.12\n", Config{Version: 1, Python: "/opt/py/bin/python3.12"}},
		{"globs", "version: 1\ntest_support: ['*.golden', 'testdata/**', 'a?/b*']\n", Config{
			Version: 1, TestSupport: []string{"*.golden", "testdata/**", "a?/b*"},
		}},
		{"UTF-8 text and BOM", "\ufeffversion: 1\nseal:\n  - run: echo héllo ✓\n", Config{
			Version: 1, Seal: []Command{{Run: "echo héllo ✓"}},
		}},
		{"CRLF line ends", "version: 1\r\nstacks: [go]\r\n", Config{Version: 1, Stacks: []string{"go"}}},
		{"flow mapping", "{version: 1, floors: {mutants: 5}}", Config{Version: 1, Floors: Floors{Mutants: ptr(5)}}},
		{"document markers", "---\nversion: 1\n...\n", Config{Version: 1}},
	}
}

func TestParseGood(t *testing.T) {
	for _, tc := range goodCases() {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(*c, tc.want) {
				t.Fatalf("Parse = %+v\nwant    %+v", *c, tc.want)
			}
			checkRoundTrip(t, c)
		})
	}
}

// checkRoundTrip checks that c survives Marshal and Parse unchanged, and
// that Marshal writes the same bytes again.
func checkRoundTrip(t *testing.T, c *Config) {
	t.Helper()
	out, err := c.Marshal()
	if err != nil {
		t.Fatalf("Marshal of a parsed config: %v", err)
	}
	if !bytes.HasPrefix(out, []byte("# "+FileName)) {
		t.Fatalf("Marshal output lacks the header comment:\n%s", out)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal(c)): %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("Parse(Marshal(c)) = %+v\nwant %+v\nfile:\n%s", back, c, out)
	}
	again, err := back.Marshal()
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("Marshal is not deterministic (err %v):\n%s\nthen\n%s", err, out, again)
	}
}

type badCase struct {
	name, src, want string
}

func badCases() []badCase {
	long := strings.Repeat("# padding\n", maxFileSize/10+1) + "version: 1\n"
	return []badCase{
		{"unknown top-level key", "version: 1\nstack: [go]\n", `line 2: unknown key "stack" at the top level; the keys are version,`},
		{"unknown floors key", "version: 1\nfloors:\n  coverge: 0.5\n", `line 3: unknown key "coverge" in floors; the keys are coverage,`},
		{"unknown seal key", "version: 1\nseal:\n  - run: x\n    junit_path: a.xml\n", `line 4: unknown key "junit_path" in seal[0]; the keys are run, junit`},
		{"unknown command key", "version: 1\ncommands:\n  e2e:\n    run: x\n    timeout: 5\n", `unknown key "timeout" in commands.e2e`},
		{"unknown suite key", "version: 1\nsuite: {run: x, cwd: y}\n", `unknown key "cwd" in suite`},
		{"repeated key", "version: 1\nversion: 1\n", "line 2: version: repeats the key of line 1"},
		{"repeated label", "version: 1\ncommands:\n  a: {run: x}\n  a: {run: y}\n", "commands.a: repeats the key of line 3"},
		{"second document", "version: 1\n---\nversion: 1\n", "line 2: a second YAML document"},
		{"empty second document", "version: 1\n---\n", "a second YAML document"},
		{"anchor", "version: 1\nstacks: &s [go]\ntest_support: *s\n", "line 2: stacks: anchors (&name) are not allowed"},
		{"anchored key", "&k version: 1\n", "anchors (&name) are not allowed"},
		{"billion laughs", "version: 1\nseal: &a [{run: lol}]\ncommands: {b: *a, c: [*a, *a, *a, *a, *a, *a, *a, *a, *a]}\n", "anchors (&name) are not allowed"},
		{"undefined alias", "version: 1\npython: *p\n", `unknown anchor 'p' referenced`},
		{"merge key", "<<: {version: 1}\n", "merge keys (<<) at the top level are not allowed"},
		{"standard tag", "version: !!int 1\n", "version: tags (!!int) are not allowed"},
		{"custom tag", "version: 1\npython: !env PYTHON\n", "python: tags (!env) are not allowed"},
		{"binary tag", "version: 1\nseal:\n  - run: !!binary ZWNobw==\n", "seal[0].run: tags (!!binary) are not allowed"},
		{"version missing", "stacks: [go]\n", "version: missing; start the file with `version: 1`"},
		{"version 2", "version: 2\n", "version: 2 is not supported"},
		{"version text", "version: one\n", `version: "one" is not a whole number`},
		{"version fraction", "version: 1.0\n", `version: "1.0" is not a whole number`},
		{"version quoted", "version: \"1\"\n", `version: "1" is not a whole number`},
		{"coverage above 1", "version: 1\nfloors: {coverage: 1.5}\n", "floors.coverage: 1.5 is out of range; use a number from 0 to 1"},
		{"strength negative", "version: 1\nfloors: {strength: -0.1}\n", "floors.strength: -0.1 is out of range"},
		{"coverage NaN", "version: 1\nfloors: {coverage: .nan}\n", "floors.coverage: NaN is out of range"},
		{"confidence 1", "version: 1\nfloors: {confidence: 1}\n", "floors.confidence: 1 is out of range; use a number strictly between 0 and 1"},
		{"confidence 0", "version: 1\nfloors: {confidence: 0}\n", "floors.confidence: 0 is out of range"},
		{"confidence text", "version: 1\nfloors: {confidence: high}\n", `floors.confidence: "high" is not a number`},
		{"mutants negative", "version: 1\nfloors: {mutants: -1}\n", "floors.mutants: -1 is out of range"},
		{"mutants too many", "version: 1\nfloors: {mutants: 10001}\n", "floors.mutants: 10001 is out of range"},
		{"mutants fraction", "version: 1\nfloors: {mutants: 2.5}\n", `floors.mutants: "2.5" is not a whole number`},
		{"mutants overflow", "version: 1\nfloors: {mutants: 99999999999999999999}\n", "is not a whole number"},
		{"label with a space", "version: 1\ncommands:\n  a b: {run: x}\n", `commands: label "a b" is not valid`},
		{"label starting with -", "version: 1\ncommands:\n  -x: {run: x}\n", `commands: label "-x" is not valid`},
		{"label too long", "version: 1\ncommands:\n  " + strings.Repeat("a", 65) + ": {run: x}\n", "is not valid; use 1 to 64 letters"},
		{"absolute junit", "version: 1\nseal:\n  - run: x\n    junit: /tmp/j.xml\n", `seal[0].junit: "/tmp/j.xml" is absolute`},
		{"junit with ..", "version: 1\nsuite:\n  run: x\n  junit: out/../../j.xml\n", `suite.junit: "out/../../j.xml" leaves the repository`},
		{"junit unclean", "version: 1\ncommands:\n  e: {run: x, junit: a//j.xml}\n", `commands.e.junit: "a//j.xml" is not a clean file path; write "a/j.xml"`},
		{"junit dot", "version: 1\nsuite: {run: x, junit: .}\n", `suite.junit: "." is not a clean file path`},
		{"junit backslash", "version: 1\nsuite: {run: x, junit: 'out\\j.xml'}\n", "contains a backslash"},
		{"runner without python", "version: 1\nstacks: [go]\nrunner: pytest\n", "runner: set without the python stack"},
		{"runner unknown", "version: 1\nstacks: [python]\nrunner: nose\n", `runner: "nose" is not a runner; use pytest or unittest`},
		{"empty run", "version: 1\nseal:\n  - run: \"\"\n", "seal[0].run: empty; give the command to run"},
		{"blank run", "version: 1\nseal:\n  - run: \"   \"\n", "seal[0].run: empty"},
		{"missing run", "version: 1\nseal:\n  - junit: a.xml\n", "seal[0].run: empty"},
		{"null seal entry", "version: 1\nseal:\n  - ~\n", "line 3: seal[0]: empty entry; remove it"},
		{"null stack", "version: 1\nstacks: [go, null]\n", "stacks[1]: empty entry"},
		{"null label", "version: 1\ncommands: {e2e: }\n", "commands.e2e.run: empty"},
		{"empty suite", "version: 1\nsuite: {}\n", "suite.run: empty"},
		{"multi-line run", "version: 1\nseal:\n  - run: |\n      make\n      make test\n", "seal[0].run: spans more than one line; write the command on one line"},
		{"escaped newline in run", "version: 1\ncommands:\n  x: {run: \"a\\nb\"}\n", "commands.x.run: spans more than one line"},
		{"line separator in run", "version: 1\nsuite: {run: \"a\\Lb\"}\n", "suite.run: spans more than one line"},
		{"control character in run", "version: 1\nsuite: {run: \"a\\x01b\"}\n", "suite.run: contains the non-printable character U+0001"},
		{"tab inside run", "version: 1\nseal:\n  - run: \"printf 'a\\tb'\"\n", "seal[0].run: contains the non-printable character U+0009"},
		{"duplicate seal check", "version: 1\nseal:\n  - run: go test ./...\n  - run: go vet ./...\n  - run: go test ./...\n", `seal[2]: repeats seal[0] ("go test ./...")`},
		{"duplicate seal check with junit", "version: 1\nseal:\n  - {run: t, junit: j.xml}\n  - {run: t, junit: j.xml}\n", "seal[1]: repeats seal[0]"},
		{"tab indentation", "version: 1\nfloors:\n\tcoverage: 1\n", "line 3: tab in the indentation; indent with spaces only"},
		{"tab after spaces", "version: 1\nseal:\n  - run: x\n  \t junit: j.xml\n", "line 4: tab in the indentation"},
		{"not UTF-8", "version: 1\nseal:\n  - run: caf\xe9\n", "line 3: not valid UTF-8; save the file as UTF-8"},
		{"UTF-16", "\xff\xfev\x00:\x00 \x001\x00\n\x00", "not valid UTF-8"},
		{"unknown stack", "version: 1\nstacks: [java]\n", `stacks[0]: "java" is not a stack; use go, make, node, python or rust`},
		{"unsorted stacks", "version: 1\nstacks: [python, go]\n", `stacks: "go" is repeated or out of order`},
		{"repeated stack", "version: 1\nstacks: [go, go]\n", `stacks: "go" is repeated or out of order`},
		{"stacks not a list", "version: 1\nstacks: go\n", "line 2: stacks: want a list such as [a, b], found a single value"},
		{"stack not text", "version: 1\nstacks: [[go]]\n", "stacks[0]: want text, found a list"},
		{"seal not a list", "version: 1\nseal: go test ./...\n", "seal: want a list of entries"},
		{"floors not a mapping", "version: 1\nfloors: [1]\n", "floors: want a mapping of coverage, strength"},
		{"empty glob", "version: 1\ntest_support: ['']\n", "test_support[0]: empty glob"},
		{"absolute glob", "version: 1\ntest_support: [/etc/*]\n", `test_support[0]: "/etc/*" is absolute`},
		{"class glob", "version: 1\ntest_support: ['a/[bc]']\n", "uses [, ] or \\"},
		{"escape glob", "version: 1\ntest_support: ['a\\*']\n", "uses [, ] or \\"},
		{"glob with ..", "version: 1\ntest_support: [../x/*]\n", "leaves the repository with .."},
		{"unclean glob", "version: 1\ntest_support: [./fixtures/*]\n", `is not a clean path; write "fixtures/*"`},
		{"repeated glob", "version: 1\ntest_support: [a, a]\n", `test_support[1]: "a" is listed twice`},
		{"relative python", "version: 1\npython: ./venv/bin/python\n", `python: "./venv/bin/python" is neither a program name nor an absolute path`},
		{"python with space", "version: 1\npython: python 3\n", "is neither a program name"},
		{"unclean python path", "version: 1\npython: /usr//bin/python3\n", `python: "/usr//bin/python3" is not a clean absolute path`},
		{"empty file", "", "empty; write at least `version: 1`"},
		{"comment only", "# nothing\n", "empty; write at least"},
		{"null document", "~\n", "the document is not a mapping of keys"},
		{"list document", "- version: 1\n", "line 1: the document is not a mapping of keys"},
		{"mapping key", "? [a]\n: b\nversion: 1\n", "line 1: a key at the top level is a list; keys are plain names"},
		{"syntax error", "version: [1\n", "did not find expected ',' or ']'; fix the YAML there"},
		{"too large", long, "over the 1048576-byte limit"},
	}
}

func TestParseBad(t *testing.T) {
	for _, tc := range badCases() {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.src))
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", c)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q\ndoes not say %q", msg, tc.want)
			}
			if !strings.HasPrefix(msg, FileName+": ") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line naming %s", msg, FileName)
			}
			if c != nil {
				t.Fatalf("Parse returned a config with its error: %+v", c)
			}
		})
	}
}

func TestMarshalExample(t *testing.T) {
	c, err := Parse([]byte(exampleFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	const want = `# .sealgate.yaml — what sealgate verify measures this repository by.
# Unknown keys are refused; a floor left out takes sealgate's default.
version: 1
stacks: [python]
python: python3
runner: pytest
suite:
  run: npm test
  junit: reports/junit.xml
seal:
  - run: go vet ./...
  - run: cargo test
    junit: target/junit.xml
commands:
  e2e:
    run: make e2e
    junit: out/e2e.xml
floors:
  coverage: 1.0
  strength: 0.75
  confidence: 0.8
  mutants: 20
test_support: [fixtures/*]
`
	if string(got) != want {
		t.Fatalf("Marshal =\n%s\nwant\n%s", got, want)
	}
}

// TestMarshalSortsLabels checks that map order, which Go randomises, does
// not reach the file.
func TestMarshalSortsLabels(t *testing.T) {
	c := &Config{Version: 1, Commands: map[string]Command{}}
	for _, l := range []string{"zeta", "alpha", "mid", "Beta", "0"} {
		c.Commands[l] = Command{Run: "echo " + l}
	}
	out, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
			order = append(order, strings.TrimSuffix(strings.TrimSpace(line), ":"))
		}
	}
	want := []string{`"0"`, "Beta", "alpha", "mid", "zeta"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("labels written in order %q, want %q:\n%s", order, want, out)
	}
	checkRoundTrip(t, c)
}

func TestMarshalRefusesInvalid(t *testing.T) {
	cases := map[string]*Config{
		"no version":   {},
		"bad floor":    {Version: 1, Floors: Floors{Strength: ptr(2.0)}},
		"bad label":    {Version: 1, Commands: map[string]Command{"a/b": {Run: "x"}}},
		"not UTF-8":    {Version: 1, Seal: []Command{{Run: "echo \xff"}}},
		"empty suite":  {Version: 1, Suite: &Command{}},
		"bad glob":     {Version: 1, TestSupport: []string{"[a]"}},
		"bad stacks":   {Version: 1, Stacks: []string{"rust", "go"}},
		"bad python":   {Version: 1, Python: "bin/python"},
		"runner alone": {Version: 1, Runner: RunnerUnittest},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := c.Marshal()
			if err == nil {
				t.Fatalf("Marshal wrote an invalid config:\n%s", out)
			}
			if !strings.HasPrefix(err.Error(), "cannot write "+FileName+": ") {
				t.Fatalf("error %q does not say what failed", err)
			}
		})
	}
}

func TestDefaultFloorsAreValid(t *testing.T) {
	f := DefaultFloors()
	if *f.Coverage != 1.0 || *f.Strength != 0.75 || *f.Confidence != 0.80 || *f.Mutants != 20 {
		t.Fatalf("DefaultFloors = %v %v %v %v, want 1.0 0.75 0.8 20", *f.Coverage, *f.Strength, *f.Confidence, *f.Mutants)
	}
	if err := f.validate(); err != nil {
		t.Fatal(err)
	}
	// Each call returns its own values: changing one must not change sealgate's defaults.
	*f.Coverage = 0
	if g := DefaultFloors(); *g.Coverage != 1.0 {
		t.Fatal("DefaultFloors shares its values between calls")
	}
}

func TestLoad(t *testing.T) {
	t.Run("good file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, FileName), "version: 1\nstacks: [go]\n")
		c, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if want := (&Config{Version: 1, Stacks: []string{"go"}}); !reflect.DeepEqual(c, want) {
			t.Fatalf("Load = %+v, want %+v", c, want)
		}
	})
	t.Run("no file", func(t *testing.T) {
		c, err := Load(t.TempDir())
		if c != nil || err != nil {
			t.Fatalf("Load = %+v, %v; want nil, nil", c, err)
		}
	})
	t.Run("empty file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, FileName), "")
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "empty") {
			t.Fatalf("Load of an empty file: %v; want an error", err)
		}
	})
	t.Run("invalid file names its path", func(t *testing.T) {
		dir := t.TempDir()
		name := filepath.Join(dir, FileName)
		writeFile(t, name, "version: 1\nfoo: 1\n")
		_, err := Load(dir)
		if err == nil || !strings.HasPrefix(err.Error(), name+": line 2: unknown key") {
			t.Fatalf("Load: %v; want an error starting with %s", err, name)
		}
	})
	t.Run("missing directory", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "nope")
		c, err := Load(missing)
		if err == nil || c != nil {
			t.Fatalf("Load of a missing directory = %+v, %v; want an error", c, err)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Load error %v does not wrap fs.ErrNotExist", err)
		}
	})
	t.Run("directory is a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "f")
		writeFile(t, file, "version: 1\n")
		if c, err := Load(file); err == nil {
			t.Fatalf("Load of a file as directory = %+v, nil", c)
		}
	})
	t.Run("config is a directory", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Load: %v; want a not-a-regular-file error", err)
		}
	})
	t.Run("config is a link", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "real.yaml")
		writeFile(t, target, "version: 1\n")
		if err := os.Symlink(target, filepath.Join(dir, FileName)); err != nil {
			t.Skip("no symbolic links:", err)
		}
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Load: %v; want a not-a-regular-file error", err)
		}
	})
	t.Run("dangling link", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, FileName)); err != nil {
			t.Skip("no symbolic links:", err)
		}
		if c, err := Load(dir); err == nil {
			t.Fatalf("Load of a dangling link = %+v, nil; want an error, not 'no file'", c)
		}
	})
	t.Run("too large", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, FileName), "version: 1\n"+strings.Repeat("#", 2*maxFileSize))
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "limit") {
			t.Fatalf("Load: %v; want a size error", err)
		}
	})
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
