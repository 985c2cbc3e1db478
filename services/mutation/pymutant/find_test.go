package pymutant

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// interpreter returns the Python interpreter the tests run: /usr/bin/python3
// if it exists, else python3 from PATH. Without one the test is skipped,
// unless SEALGATE_REQUIRE_PYTHON=1 makes that a failure.
func interpreter(t testing.TB) string {
	t.Helper()
	if p := lookPython(); p != "" {
		return p
	}
	if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
		t.Fatal("no python3 (/usr/bin/python3 or in PATH), and SEALGATE_REQUIRE_PYTHON=1")
	}
	t.Skip("no python3 (/usr/bin/python3 or in PATH)")
	return ""
}

// lookPython returns /usr/bin/python3 if it exists, else python3 from
// PATH, else "".
func lookPython() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	if p, err := exec.LookPath("python3"); err == nil {
		return p
	}
	return ""
}

// parseErrors parses each source with python's ast.parse, as a file's
// bytes, in one run, and returns the error for each ("" when it parses).
func parseErrors(t *testing.T, python string, srcs [][]byte) []string {
	t.Helper()
	in := make([]string, len(srcs))
	for i, s := range srcs {
		in[i] = base64.StdEncoding.EncodeToString(s)
	}
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const check = `import ast, base64, json, sys, warnings
warnings.simplefilter("ignore")
out = []
for s in json.load(sys.stdin):
    try:
        ast.parse(base64.b64decode(s))
        out.append("")
    except Exception as e:
        out.append("%s: %s" % (type(e).__name__, e))
json.dump(out, sys.stdout)
`
	cmd := exec.Command(python, "-I", "-S", "-c", check)
	cmd.Stdin = strings.NewReader(string(js))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the parse check: %v\n%s", err, stderr.String())
	}
	var res []string
	if err := json.Unmarshal(b, &res); err != nil || len(res) != len(srcs) {
		t.Fatalf("parse check output %q: %v", b, err)
	}
	return res
}

// brief formats a site as "line:col operator original→replacement".
func brief(s Site) string {
	b := fmt.Sprintf("%d:%d %s %q→%q", s.Line, s.Col, s.Operator, s.Original, s.Replacement)
	if s.Equivalent {
		b += " equivalent"
	}
	return b
}

// allLines requests every line of src.
func allLines(src string) []int {
	n := len(lineStarts([]byte(src)))
	lines := make([]int, n)
	for i := range lines {
		lines[i] = i + 1
	}
	return lines
}

// site is one expected site: its brief form and the mutant it gives.
type site struct {
	brief, mutant string
}

// findCase is one source, the lines asked for and the sites expected.
type findCase struct {
	name  string
	src   string
	lines []int // nil: all
	want  []site
}

var findCases = []findCase{{
	name: "comparison",
	src:  "r = a == b, a != b\ns = a < b, a <= b, a > b, a >= b\n",
	want: []site{
		{`1:5 assignment "a == b, a != b"→"None"`, "r = None\ns = a < b, a <= b, a > b, a >= b\n"},
		{`1:7 comparison "=="→"!="`, "r = a != b, a != b\ns = a < b, a <= b, a > b, a >= b\n"},
		{`1:15 comparison "!="→"=="`, "r = a == b, a == b\ns = a < b, a <= b, a > b, a >= b\n"},
		{`2:5 assignment "a < b, a <= b, a > b, a >= b"→"None"`, "r = a == b, a != b\ns = None\n"},
		{`2:7 boundary "<"→"<="`, "r = a == b, a != b\ns = a <= b, a <= b, a > b, a >= b\n"},
		{`2:7 comparison "<"→">="`, "r = a == b, a != b\ns = a >= b, a <= b, a > b, a >= b\n"},
		{`2:14 boundary "<="→"<"`, "r = a == b, a != b\ns = a < b, a < b, a > b, a >= b\n"},
		{`2:14 comparison "<="→">"`, "r = a == b, a != b\ns = a < b, a > b, a > b, a >= b\n"},
		{`2:22 boundary ">"→">="`, "r = a == b, a != b\ns = a < b, a <= b, a >= b, a >= b\n"},
		{`2:22 comparison ">"→"<="`, "r = a == b, a != b\ns = a < b, a <= b, a <= b, a >= b\n"},
		{`2:29 boundary ">="→">"`, "r = a == b, a != b\ns = a < b, a <= b, a > b, a > b\n"},
		{`2:29 comparison ">="→"<"`, "r = a == b, a != b\ns = a < b, a <= b, a > b, a < b\n"},
	},
}, {
	name: "identity",
	src:  "if a is not None or b is None:\n    pass\n",
	want: []site{
		{`1:4 condition "a is not None or b is None"→"False"`, "if False:\n    pass\n"},
		{`1:4 condition "a is not None or b is None"→"True"`, "if True:\n    pass\n"},
		{`1:4 negation "a is not None or b is None"→"not (a is not None or b is None)"`, "if not (a is not None or b is None):\n    pass\n"},
		{`1:6 identity "is not"→"is"`, "if a is None or b is None:\n    pass\n"},
		{`1:18 boolean "or"→"and"`, "if a is not None and b is None:\n    pass\n"},
		{`1:23 identity "is"→"is not"`, "if a is not None or b is not None:\n    pass\n"},
	},
}, {
	name: "is not split across lines",
	src:  "x = (a is  # same?\n     not b)\n",
	want: []site{
		{`1:6 assignment "a is  # same?\n     not b"→"None"`, "x = (None)\n"},
		{`1:8 identity "is  # same?\n     not"→"is"`, "x = (a is b)\n"},
	},
}, {
	name: "membership",
	src:  "ok = x in y and z not in w\n",
	want: []site{
		{`1:6 assignment "x in y and z not in w"→"None"`, "ok = None\n"},
		{`1:8 membership "in"→"not in"`, "ok = x not in y and z not in w\n"},
		{`1:13 boolean "and"→"or"`, "ok = x in y or z not in w\n"},
		{`1:19 membership "not in"→"in"`, "ok = x in y and z in w\n"},
	},
}, {
	name: "chained comparison",
	src:  "ok = a < b <= c\n",
	want: []site{
		{`1:6 assignment "a < b <= c"→"None"`, "ok = None\n"},
		{`1:8 boundary "<"→"<="`, "ok = a <= b <= c\n"},
		{`1:8 comparison "<"→">="`, "ok = a >= b <= c\n"},
		{`1:12 boundary "<="→"<"`, "ok = a < b < c\n"},
		{`1:12 comparison "<="→">"`, "ok = a < b > c\n"},
	},
}, {
	name: "comparison split across lines in parentheses",
	src:  "ok = ((a)  # left\n      <\n      (b))\n",
	want: []site{
		{`1:7 assignment "(a)  # left\n      <\n      (b)"→"None"`, "ok = (None)\n"},
		{`2:7 boundary "<"→"<="`, "ok = ((a)  # left\n      <=\n      (b))\n"},
		{`2:7 comparison "<"→">="`, "ok = ((a)  # left\n      >=\n      (b))\n"},
	},
}, {
	name: "strings and comments",
	src:  "s = 'a < b' + \"not x\"  # c > d and 1\nt = '''x\n== y'''\n",
	want: []site{
		{`1:5 assignment "'a < b' + \"not x\""→"None"`, "s = None  # c > d and 1\nt = '''x\n== y'''\n"},
		{`1:5 string "'a < b'"→"'XXa < bXX'"`, "s = 'XXa < bXX' + \"not x\"  # c > d and 1\nt = '''x\n== y'''\n"},
		{`1:13 arithmetic "+"→"-"`, "s = 'a < b' - \"not x\"  # c > d and 1\nt = '''x\n== y'''\n"},
		{`1:15 string "\"not x\""→"\"XXnot xXX\""`, "s = 'a < b' + \"XXnot xXX\"  # c > d and 1\nt = '''x\n== y'''\n"},
		{`2:5 string "'''x\n== y'''"→"'''XXx\n== yXX'''"`, "s = 'a < b' + \"not x\"  # c > d and 1\nt = '''XXx\n== yXX'''\n"},
	},
}, {
	name: "f-strings",
	src:  "s = f\"{a + 1} < {b!r:>{w - 2}}\" + c\n",
	want: []site{
		{`1:5 assignment "f\"{a + 1} < {b!r:>{w - 2}}\" + c"→"None"`, "s = None\n"},
		{`1:33 arithmetic "+"→"-"`, "s = f\"{a + 1} < {b!r:>{w - 2}}\" - c\n"},
	},
}, {
	name: "unicode before the operator",
	src:  "ä = ñ < b  # ü > 1\nπ = 'é' + ü * 2\n",
	want: []site{
		{`1:6 assignment "ñ < b"→"None"`, "ä = None  # ü > 1\nπ = 'é' + ü * 2\n"},
		{`1:9 boundary "<"→"<="`, "ä = ñ <= b  # ü > 1\nπ = 'é' + ü * 2\n"},
		{`1:9 comparison "<"→">="`, "ä = ñ >= b  # ü > 1\nπ = 'é' + ü * 2\n"},
		{`2:6 assignment "'é' + ü * 2"→"None"`, "ä = ñ < b  # ü > 1\nπ = None\n"},
		{`2:6 string "'é'"→"'XXéXX'"`, "ä = ñ < b  # ü > 1\nπ = 'XXéXX' + ü * 2\n"},
		{`2:11 arithmetic "+"→"-"`, "ä = ñ < b  # ü > 1\nπ = 'é' - ü * 2\n"},
		{`2:16 arithmetic "*"→"/"`, "ä = ñ < b  # ü > 1\nπ = 'é' + ü / 2\n"},
		{`2:18 number "2"→"1"`, "ä = ñ < b  # ü > 1\nπ = 'é' + ü * 1\n"},
		{`2:18 number "2"→"3"`, "ä = ñ < b  # ü > 1\nπ = 'é' + ü * 3\n"},
	},
}, {
	name: "not",
	src:  "if not x:\n    y = not(a)\nz = (not  # c\n     b)\n",
	want: []site{
		{`1:4 condition "not x"→"False"`, "if False:\n    y = not(a)\nz = (not  # c\n     b)\n"},
		{`1:4 condition "not x"→"True"`, "if True:\n    y = not(a)\nz = (not  # c\n     b)\n"},
		{`1:4 not "not "→""`, "if x:\n    y = not(a)\nz = (not  # c\n     b)\n"},
		{`2:9 assignment "not(a)"→"None"`, "if not x:\n    y = None\nz = (not  # c\n     b)\n"},
		{`2:9 not "not"→""`, "if not x:\n    y = (a)\nz = (not  # c\n     b)\n"},
		{`3:6 assignment "not  # c\n     b"→"None"`, "if not x:\n    y = not(a)\nz = (None)\n"},
		{`3:6 not "not  # c\n     "→""`, "if not x:\n    y = not(a)\nz = (b)\n"},
	},
}, {
	name: "return",
	src:  "def f(x):\n    if x:\n        return x - 1\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n",
	want: []site{
		{`2:8 condition "x"→"False"`, "def f(x):\n    if False:\n        return x - 1\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`2:8 condition "x"→"True"`, "def f(x):\n    if True:\n        return x - 1\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`2:8 negation "x"→"not (x)"`, "def f(x):\n    if not (x):\n        return x - 1\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`3:9 return-none "return x - 1"→"return None"`, "def f(x):\n    if x:\n        return None\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`3:18 arithmetic "-"→"+"`, "def f(x):\n    if x:\n        return x + 1\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`3:20 number "1"→"0"`, "def f(x):\n    if x:\n        return x - 0\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`3:20 number "1"→"2"`, "def f(x):\n    if x:\n        return x - 2\n    if x:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`4:8 condition "x"→"False"`, "def f(x):\n    if x:\n        return x - 1\n    if False:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`4:8 condition "x"→"True"`, "def f(x):\n    if x:\n        return x - 1\n    if True:\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`4:8 negation "x"→"not (x)"`, "def f(x):\n    if x:\n        return x - 1\n    if not (x):\n        return None\n    if x:\n        return\n    return (x,\n            y)\n"},
		{`6:8 condition "x"→"False"`, "def f(x):\n    if x:\n        return x - 1\n    if x:\n        return None\n    if False:\n        return\n    return (x,\n            y)\n"},
		{`6:8 condition "x"→"True"`, "def f(x):\n    if x:\n        return x - 1\n    if x:\n        return None\n    if True:\n        return\n    return (x,\n            y)\n"},
		{`6:8 negation "x"→"not (x)"`, "def f(x):\n    if x:\n        return x - 1\n    if x:\n        return None\n    if not (x):\n        return\n    return (x,\n            y)\n"},
		{`8:5 return-none "return (x,\n            y)"→"return None"`, "def f(x):\n    if x:\n        return x - 1\n    if x:\n        return None\n    if x:\n        return\n    return None\n"},
		{`8:5 return-value "return (x,\n            y)"→"return ()"`, "def f(x):\n    if x:\n        return x - 1\n    if x:\n        return None\n    if x:\n        return\n    return ()\n"},
	},
}, {
	name: "augmented",
	src:  "x += 1\nx -= y\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n",
	want: []site{
		{`1:1 statement "x += 1"→"pass"`, "pass\nx -= y\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`1:3 augmented "+="→"-="`, "x -= 1\nx -= y\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`1:6 number "1"→"0"`, "x += 0\nx -= y\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`1:6 number "1"→"2"`, "x += 2\nx -= y\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`2:1 statement "x -= y"→"pass"`, "x += 1\npass\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`2:3 augmented "-="→"+="`, "x += 1\nx += y\nx *= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`3:1 statement "x *= y"→"pass"`, "x += 1\nx -= y\npass\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`3:3 augmented "*="→"/="`, "x += 1\nx -= y\nx /= y\nx /= y\nx //= y\nx %= y\nx **= y\n"},
		{`4:1 statement "x /= y"→"pass"`, "x += 1\nx -= y\nx *= y\npass\nx //= y\nx %= y\nx **= y\n"},
		{`4:3 augmented "/="→"*="`, "x += 1\nx -= y\nx *= y\nx *= y\nx //= y\nx %= y\nx **= y\n"},
		{`5:1 statement "x //= y"→"pass"`, "x += 1\nx -= y\nx *= y\nx /= y\npass\nx %= y\nx **= y\n"},
		{`5:3 augmented "//="→"/="`, "x += 1\nx -= y\nx *= y\nx /= y\nx /= y\nx %= y\nx **= y\n"},
		{`6:1 statement "x %= y"→"pass"`, "x += 1\nx -= y\nx *= y\nx /= y\nx //= y\npass\nx **= y\n"},
		{`6:3 augmented "%="→"*="`, "x += 1\nx -= y\nx *= y\nx /= y\nx //= y\nx *= y\nx **= y\n"},
		{`7:1 statement "x **= y"→"pass"`, "x += 1\nx -= y\nx *= y\nx /= y\nx //= y\nx %= y\npass\n"},
	},
}, {
	name: "boolean literals",
	src:  "a = True\nb = False if c else None\n",
	want: []site{
		{`1:5 boolean-literal "True"→"False"`, "a = False\nb = False if c else None\n"},
		{`2:5 assignment "False if c else None"→"None"`, "a = True\nb = None\n"},
		{`2:5 boolean-literal "False"→"True"`, "a = True\nb = True if c else None\n"},
		{`2:14 condition "c"→"False"`, "a = True\nb = False if False else None\n"},
		{`2:14 condition "c"→"True"`, "a = True\nb = False if True else None\n"},
		{`2:14 negation "c"→"not (c)"`, "a = True\nb = False if not (c) else None\n"},
	},
}, {
	name: "arithmetic",
	src:  "r = a + b - c\ns = a * b / c // d % e\nt = a ** b\nu = -a\n",
	want: []site{
		{`1:5 assignment "a + b - c"→"None"`, "r = None\ns = a * b / c // d % e\nt = a ** b\nu = -a\n"},
		{`1:7 arithmetic "+"→"-"`, "r = a - b - c\ns = a * b / c // d % e\nt = a ** b\nu = -a\n"},
		{`1:11 arithmetic "-"→"+"`, "r = a + b + c\ns = a * b / c // d % e\nt = a ** b\nu = -a\n"},
		{`2:5 assignment "a * b / c // d % e"→"None"`, "r = a + b - c\ns = None\nt = a ** b\nu = -a\n"},
		{`2:7 arithmetic "*"→"/"`, "r = a + b - c\ns = a / b / c // d % e\nt = a ** b\nu = -a\n"},
		{`2:11 arithmetic "/"→"*"`, "r = a + b - c\ns = a * b * c // d % e\nt = a ** b\nu = -a\n"},
		{`2:15 arithmetic "//"→"/"`, "r = a + b - c\ns = a * b / c / d % e\nt = a ** b\nu = -a\n"},
		{`2:20 arithmetic "%"→"*"`, "r = a + b - c\ns = a * b / c // d * e\nt = a ** b\nu = -a\n"},
		{`3:5 assignment "a ** b"→"None"`, "r = a + b - c\ns = a * b / c // d % e\nt = None\nu = -a\n"},
		{`3:7 arithmetic "**"→"*"`, "r = a + b - c\ns = a * b / c // d % e\nt = a * b\nu = -a\n"},
		{`4:5 assignment "-a"→"None"`, "r = a + b - c\ns = a * b / c // d % e\nt = a ** b\nu = None\n"},
	},
}, {
	// a / b * c would read (a / b) * c, not a / (b * c).
	name: "power only where the product groups the same",
	src:  "v = x / a ** b\n",
	want: []site{
		{`1:5 assignment "x / a ** b"→"None"`, "v = None\n"},
		{`1:7 arithmetic "/"→"*"`, "v = x * a ** b\n"},
	},
}, {
	name: "boolean",
	src:  "ok = a and b or c\nok = a or b and c\n",
	want: []site{
		{`1:1 statement "ok = a and b or c"→"pass"`, "pass\nok = a or b and c\n"},
		{`1:6 assignment "a and b or c"→"None"`, "ok = None\nok = a or b and c\n"},
		{`1:8 boolean "and"→"or"`, "ok = a or b or c\nok = a or b and c\n"},
		{`1:14 boolean "or"→"and"`, "ok = a and b and c\nok = a or b and c\n"},
		{`2:1 statement "ok = a or b and c"→"pass"`, "ok = a and b or c\npass\n"},
		{`2:6 assignment "a or b and c"→"None"`, "ok = a and b or c\nok = None\n"},
		{`2:8 boolean "or"→"and"`, "ok = a and b or c\nok = a and b and c\n"},
		{`2:13 boolean "and"→"or"`, "ok = a and b or c\nok = a or b or c\n"},
	},
}, {
	name: "numbers",
	src:  "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 0, 7., -2]\n",
	want: []site{
		{`1:5 assignment "[0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 0, 7., -2]"→"None"`, "n = None\n"},
		{`1:6 number "0x1F"→"30"`, "n = [30, 1_000, 1.5, 1e3, 3j, 1e400, 0, 7., -2]\n"},
		{`1:6 number "0x1F"→"32"`, "n = [32, 1_000, 1.5, 1e3, 3j, 1e400, 0, 7., -2]\n"},
		{`1:12 number "1_000"→"1001"`, "n = [0x1F, 1001, 1.5, 1e3, 3j, 1e400, 0, 7., -2]\n"},
		{`1:12 number "1_000"→"999"`, "n = [0x1F, 999, 1.5, 1e3, 3j, 1e400, 0, 7., -2]\n"},
		{`1:19 number "1.5"→"0.5"`, "n = [0x1F, 1_000, 0.5, 1e3, 3j, 1e400, 0, 7., -2]\n"},
		{`1:19 number "1.5"→"2.5"`, "n = [0x1F, 1_000, 2.5, 1e3, 3j, 1e400, 0, 7., -2]\n"},
		{`1:24 number "1e3"→"1001.0"`, "n = [0x1F, 1_000, 1.5, 1001.0, 3j, 1e400, 0, 7., -2]\n"},
		{`1:24 number "1e3"→"999.0"`, "n = [0x1F, 1_000, 1.5, 999.0, 3j, 1e400, 0, 7., -2]\n"},
		{`1:40 number "0"→"-1"`, "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, -1, 7., -2]\n"},
		{`1:40 number "0"→"1"`, "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 1, 7., -2]\n"},
		{`1:43 number "7."→"6.0"`, "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 0, 6.0, -2]\n"},
		{`1:43 number "7."→"8.0"`, "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 0, 8.0, -2]\n"},
		{`1:48 number "2"→"1"`, "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 0, 7., -1]\n"},
		{`1:48 number "2"→"3"`, "n = [0x1F, 1_000, 1.5, 1e3, 3j, 1e400, 0, 7., -3]\n"},
	},
}, {
	name: "BOM, CRLF and lone CR line ends",
	src:  "\ufeffa = b < c\r\nd = e > f\rg = h == i\n",
	want: []site{
		{`1:8 assignment "b < c"→"None"`, "\ufeffa = None\r\nd = e > f\rg = h == i\n"},
		{`1:10 boundary "<"→"<="`, "\ufeffa = b <= c\r\nd = e > f\rg = h == i\n"},
		{`1:10 comparison "<"→">="`, "\ufeffa = b >= c\r\nd = e > f\rg = h == i\n"},
		{`2:5 assignment "e > f"→"None"`, "\ufeffa = b < c\r\nd = None\rg = h == i\n"},
		{`2:7 boundary ">"→">="`, "\ufeffa = b < c\r\nd = e >= f\rg = h == i\n"},
		{`2:7 comparison ">"→"<="`, "\ufeffa = b < c\r\nd = e <= f\rg = h == i\n"},
		{`3:5 assignment "h == i"→"None"`, "\ufeffa = b < c\r\nd = e > f\rg = None\n"},
		{`3:7 comparison "=="→"!="`, "\ufeffa = b < c\r\nd = e > f\rg = h != i\n"},
	},
}, {
	name: "an ASCII source may declare another ASCII-compatible encoding",
	src:  "# -*- coding: latin-1 -*-\nx = y < z\n",
	want: []site{
		{`2:5 assignment "y < z"→"None"`, "# -*- coding: latin-1 -*-\nx = None\n"},
		{`2:7 boundary "<"→"<="`, "# -*- coding: latin-1 -*-\nx = y <= z\n"},
		{`2:7 comparison "<"→">="`, "# -*- coding: latin-1 -*-\nx = y >= z\n"},
	},
}, {
	name: "statements",
	src:  "def f(d, x):\n    y = 1\n    y = g(x)\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n",
	want: []site{
		{`2:5 statement "y = 1"→"pass"`, "def f(d, x):\n    pass\n    y = g(x)\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`2:9 number "1"→"0"`, "def f(d, x):\n    y = 0\n    y = g(x)\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`2:9 number "1"→"2"`, "def f(d, x):\n    y = 2\n    y = g(x)\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`3:5 statement "y = g(x)"→"pass"`, "def f(d, x):\n    y = 1\n    pass\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`3:9 assignment "g(x)"→"None"`, "def f(d, x):\n    y = 1\n    y = None\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`4:5 statement "d.k = x"→"pass"`, "def f(d, x):\n    y = 1\n    y = g(x)\n    pass\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`4:11 assignment "x"→"None"`, "def f(d, x):\n    y = 1\n    y = g(x)\n    d.k = None\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`5:5 statement "del d[x]"→"pass"`, "def f(d, x):\n    y = 1\n    y = g(x)\n    d.k = x\n    pass\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`6:5 statement "h(x)"→"pass"`, "def f(d, x):\n    y = 1\n    y = g(x)\n    d.k = x\n    del d[x]\n    pass\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return y\n"},
		{`10:5 string "'not a docstring'"→"'XXnot a docstringXX'" equivalent`, "def f(d, x):\n    y = 1\n    y = g(x)\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'XXnot a docstringXX'\n    x\n    return y\n"},
		{`12:5 return-none "return y"→"return None"`, "def f(d, x):\n    y = 1\n    y = g(x)\n    d.k = x\n    del d[x]\n    h(x)\n    print(x)\n    log.info(x)\n    self.logger.warning(x)\n    'not a docstring'\n    x\n    return None\n"},
	},
}, {
	name: "branches",
	src:  "def f(x):\n    if x:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n",
	want: []site{
		{`2:8 condition "x"→"False"`, "def f(x):\n    if False:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`2:8 condition "x"→"True"`, "def f(x):\n    if True:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`2:8 negation "x"→"not (x)"`, "def f(x):\n    if not (x):\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`3:9 branch "a()"→"pass"`, "def f(x):\n    if x:\n        pass\n    elif x > y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`4:10 condition "x > y"→"False"`, "def f(x):\n    if x:\n        a()\n    elif False:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`4:10 condition "x > y"→"True"`, "def f(x):\n    if x:\n        a()\n    elif True:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`4:12 boundary ">"→">="`, "def f(x):\n    if x:\n        a()\n    elif x >= y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`4:12 comparison ">"→"<="`, "def f(x):\n    if x:\n        a()\n    elif x <= y:\n        b()\n    else:\n        c()\n    if x:\n        d()\n"},
		{`5:9 branch "b()"→"pass"`, "def f(x):\n    if x:\n        a()\n    elif x > y:\n        pass\n    else:\n        c()\n    if x:\n        d()\n"},
		{`7:9 branch "c()"→"pass"`, "def f(x):\n    if x:\n        a()\n    elif x > y:\n        b()\n    else:\n        pass\n    if x:\n        d()\n"},
		{`8:8 condition "x"→"False"`, "def f(x):\n    if x:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if False:\n        d()\n"},
		{`8:8 condition "x"→"True"`, "def f(x):\n    if x:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if True:\n        d()\n"},
		{`8:8 negation "x"→"not (x)"`, "def f(x):\n    if x:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if not (x):\n        d()\n"},
		{`9:9 statement "d()"→"pass"`, "def f(x):\n    if x:\n        a()\n    elif x > y:\n        b()\n    else:\n        c()\n    if x:\n        pass\n"},
	},
}, {
	name: "raise, except and loops",
	src:  "def f(xs):\n    for x in xs:\n        if x:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n",
	want: []site{
		{`3:12 condition "x"→"False"`, "def f(xs):\n    for x in xs:\n        if False:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`3:12 condition "x"→"True"`, "def f(xs):\n    for x in xs:\n        if True:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`3:12 negation "x"→"not (x)"`, "def f(xs):\n    for x in xs:\n        if not (x):\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`4:13 loop-control "break"→"continue"`, "def f(xs):\n    for x in xs:\n        if x:\n            continue\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`5:9 loop-control "continue"→"break"`, "def f(xs):\n    for x in xs:\n        if x:\n            break\n        break\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`7:9 statement "g()"→"pass"`, "def f(xs):\n    for x in xs:\n        if x:\n            break\n        continue\n    try:\n        pass\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`9:9 raise "raise"→"pass"`, "def f(xs):\n    for x in xs:\n        if x:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        pass\n    except KeyError:\n        return y\n    raise TypeError\n"},
		{`11:9 except "return y"→"raise"`, "def f(xs):\n    for x in xs:\n        if x:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        raise\n    raise TypeError\n"},
		{`11:9 return-none "return y"→"return None"`, "def f(xs):\n    for x in xs:\n        if x:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return None\n    raise TypeError\n"},
		{`12:5 raise "raise TypeError"→"pass"`, "def f(xs):\n    for x in xs:\n        if x:\n            break\n        continue\n    try:\n        g()\n    except ValueError:\n        raise\n    except KeyError:\n        return y\n    pass\n"},
	},
}, {
	name: "string literals",
	src:  `"""Module doc."""` + "\nx = [b'a', r\"b\\\\\", u'c', '''d''', \"\", Rb'e', f'{g}']\n",
	want: []site{
		{`2:5 assignment "[b'a', r\"b\\\\\", u'c', '''d''', \"\", Rb'e', f'{g}']"→"None"`, "\"\"\"Module doc.\"\"\"\nx = None\n"},
		{`2:6 string "b'a'"→"b'XXaXX'"`, "\"\"\"Module doc.\"\"\"\nx = [b'XXaXX', r\"b\\\\\", u'c', '''d''', \"\", Rb'e', f'{g}']\n"},
		{`2:12 string "r\"b\\\\\""→"r\"XXb\\\\XX\""`, "\"\"\"Module doc.\"\"\"\nx = [b'a', r\"XXb\\\\XX\", u'c', '''d''', \"\", Rb'e', f'{g}']\n"},
		{`2:20 string "u'c'"→"u'XXcXX'"`, "\"\"\"Module doc.\"\"\"\nx = [b'a', r\"b\\\\\", u'XXcXX', '''d''', \"\", Rb'e', f'{g}']\n"},
		{`2:26 string "'''d'''"→"'''XXdXX'''"`, "\"\"\"Module doc.\"\"\"\nx = [b'a', r\"b\\\\\", u'c', '''XXdXX''', \"\", Rb'e', f'{g}']\n"},
		{`2:35 string "\"\""→"\"XXXX\""`, "\"\"\"Module doc.\"\"\"\nx = [b'a', r\"b\\\\\", u'c', '''d''', \"XXXX\", Rb'e', f'{g}']\n"},
		{`2:39 string "Rb'e'"→"Rb'XXeXX'"`, "\"\"\"Module doc.\"\"\"\nx = [b'a', r\"b\\\\\", u'c', '''d''', \"\", Rb'XXeXX', f'{g}']\n"},
	},
}, {
	name: "messages keep their strings",
	src:  "def f(x):\n    \"\"\"Doc.\"\"\"\n    assert x, 'm'\n    warnings.warn('w')\n    log.error('e %s', x)\n    raise ValueError('bad ' + x)\n",
	want: []site{
		{`4:5 statement "warnings.warn('w')"→"pass"`, "def f(x):\n    \"\"\"Doc.\"\"\"\n    assert x, 'm'\n    pass\n    log.error('e %s', x)\n    raise ValueError('bad ' + x)\n"},
		{`6:5 raise "raise ValueError('bad ' + x)"→"pass"`, "def f(x):\n    \"\"\"Doc.\"\"\"\n    assert x, 'm'\n    warnings.warn('w')\n    log.error('e %s', x)\n    pass\n"},
		{`6:29 arithmetic "+"→"-"`, "def f(x):\n    \"\"\"Doc.\"\"\"\n    assert x, 'm'\n    warnings.warn('w')\n    log.error('e %s', x)\n    raise ValueError('bad ' - x)\n"},
	},
}, {
	name: "method calls",
	src:  "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n",
	want: []site{
		{`5:9 assignment "x.copy()"→"None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = None\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`5:10 method-call ".copy()"→""`, "import os\n\n\ndef f(x, s, a, b):\n    y = x\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`6:9 assignment "s.strip('/').lower()"→"None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = None\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`6:10 method-call ".strip('/')"→""`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`6:17 string "'/'"→"'XX/XX'"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('XX/XX').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`6:21 method-call ".lower()"→""`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/')\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`7:9 assignment "(a + b).upper()"→"None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = None\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`7:12 arithmetic "+"→"-"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a - b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`7:16 method-call ".upper()"→""`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b)\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`8:9 assignment "os.getcwd()"→"None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = None\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`9:9 assignment "super().f()"→"None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = None\n    t = x.get(a)\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`10:9 assignment "x.get(a)"→"None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = None\n    x.sort()\n    return y, z, w, v, u, t\n"},
		{`11:5 statement "x.sort()"→"pass"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    pass\n    return y, z, w, v, u, t\n"},
		{`12:5 return-none "return y, z, w, v, u, t"→"return None"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return None\n"},
		{`12:5 return-value "return y, z, w, v, u, t"→"return ()"`, "import os\n\n\ndef f(x, s, a, b):\n    y = x.copy()\n    z = s.strip('/').lower()\n    w = (a + b).upper()\n    v = os.getcwd()\n    u = super().f()\n    t = x.get(a)\n    x.sort()\n    return ()\n"},
	},
}, {
	name: "call defaults",
	src:  "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n",
	want: []site{
		{`2:5 return-none "return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))"→"return None"`, "def f(it, o, d, k):\n    return None\n"},
		{`2:5 return-value "return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))"→"return ()"`, "def f(it, o, d, k):\n    return ()\n"},
		{`2:20 call-default ", None"→""`, "def f(it, o, d, k):\n    return (next(it), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`2:40 string "'n'"→"'XXnXX'"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'XXnXX', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`2:43 call-default ", None"→""`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n'), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`2:75 call-default ", 0"→""`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`2:77 number "0"→"-1"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, -1),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`2:77 number "0"→"1"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 1),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`3:20 call-default ", None"→""`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k), os.getenv('X', ''), next(it), d.get(k, default=1))\n"},
		{`3:39 string "'X'"→"'XXXXX'"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('XXXXX', ''), next(it), d.get(k, default=1))\n"},
		{`3:42 call-default ", ''"→""`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X'), next(it), d.get(k, default=1))\n"},
		{`3:44 string "''"→"'XXXX'"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', 'XXXX'), next(it), d.get(k, default=1))\n"},
		{`3:76 number "1"→"0"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=0))\n"},
		{`3:76 number "1"→"2"`, "def f(it, o, d, k):\n    return (next(it, None), getattr(o, 'n', None), d.get(k, None), d.get(k, 0),\n            d.pop(k, None), os.getenv('X', ''), next(it), d.get(k, default=2))\n"},
	},
}, {
	name: "returned values typed by literals",
	src:  "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n",
	want: []site{
		{`2:5 return-none "return g(x)"→"return None"`, "def f(x) -> bool:\n    return None\n\n\ndef h(x):\n    if x:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`2:5 return-value "return g(x)"→"return False"`, "def f(x) -> bool:\n    return False\n\n\ndef h(x):\n    if x:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`2:5 return-value "return g(x)"→"return True"`, "def f(x) -> bool:\n    return True\n\n\ndef h(x):\n    if x:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`6:8 condition "x"→"False"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if False:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`6:8 condition "x"→"True"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if True:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`6:8 negation "x"→"not (x)"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if not (x):\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`7:9 return-none "return 0"→"return None"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return None\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`7:16 number "0"→"-1"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return -1\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`7:16 number "0"→"1"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return 1\n    return g(x)\n\n\ndef k(x):\n    return [x]\n"},
		{`8:5 return-none "return g(x)"→"return None"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return 0\n    return None\n\n\ndef k(x):\n    return [x]\n"},
		{`8:5 return-value "return g(x)"→"return 0"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return 0\n    return 0\n\n\ndef k(x):\n    return [x]\n"},
		{`12:5 return-none "return [x]"→"return None"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return None\n"},
		{`12:5 return-value "return [x]"→"return []"`, "def f(x) -> bool:\n    return g(x)\n\n\ndef h(x):\n    if x:\n        return 0\n    return g(x)\n\n\ndef k(x):\n    return []\n"},
	},
}, {
	name: "equivalent mutants",
	src:  "if False:\n    x = 1\nwhile 1:\n    pass\n",
	want: []site{
		{`1:4 boolean-literal "False"→"True"`, "if True:\n    x = 1\nwhile 1:\n    pass\n"},
		{`2:9 number "1"→"0" equivalent`, "if False:\n    x = 0\nwhile 1:\n    pass\n"},
		{`2:9 number "1"→"2" equivalent`, "if False:\n    x = 2\nwhile 1:\n    pass\n"},
		{`3:7 number "1"→"0"`, "if False:\n    x = 1\nwhile 0:\n    pass\n"},
		{`3:7 number "1"→"2" equivalent`, "if False:\n    x = 1\nwhile 2:\n    pass\n"},
	},
}, {
	name: "duplicate mutants",
	src:  "x = a if c else a\n",
	want: []site{
		{`1:5 assignment "a if c else a"→"None"`, "x = None\n"},
		{`1:10 condition "c"→"False"`, "x = a if False else a\n"},
		{`1:10 negation "c"→"not (c)"`, "x = a if not (c) else a\n"},
	},
}, {
	name: "negative numbers only where the minus groups with the number",
	src:  "a = 0 ** 2\nb = 0 .real\nc = x[0]\n",
	want: []site{
		{`1:5 assignment "0 ** 2"→"None"`, "a = None\nb = 0 .real\nc = x[0]\n"},
		{`1:5 number "0"→"1"`, "a = 1 ** 2\nb = 0 .real\nc = x[0]\n"},
		{`1:7 arithmetic "**"→"*" equivalent`, "a = 0 * 2\nb = 0 .real\nc = x[0]\n"},
		{`1:10 number "2"→"1" equivalent`, "a = 0 ** 1\nb = 0 .real\nc = x[0]\n"},
		{`1:10 number "2"→"3" equivalent`, "a = 0 ** 3\nb = 0 .real\nc = x[0]\n"},
		{`2:5 assignment "0 .real"→"None"`, "a = 0 ** 2\nb = None\nc = x[0]\n"},
		{`2:5 number "0"→"1"`, "a = 0 ** 2\nb = 1 .real\nc = x[0]\n"},
		{`3:5 assignment "x[0]"→"None"`, "a = 0 ** 2\nb = 0 .real\nc = None\n"},
		{`3:7 number "0"→"-1"`, "a = 0 ** 2\nb = 0 .real\nc = x[-1]\n"},
		{`3:7 number "0"→"1"`, "a = 0 ** 2\nb = 0 .real\nc = x[1]\n"},
	},
}, {
	name:  "only the requested lines",
	src:   "a = 1\nb = (2 +\n  3)\nc = 4\n",
	lines: []int{2, 4, 99},
	want: []site{
		{`2:6 assignment "2 +\n  3"→"None"`, "a = 1\nb = (None)\nc = 4\n"},
		{`2:6 number "2"→"1"`, "a = 1\nb = (1 +\n  3)\nc = 4\n"},
		{`2:6 number "2"→"3"`, "a = 1\nb = (3 +\n  3)\nc = 4\n"},
		{`2:8 arithmetic "+"→"-"`, "a = 1\nb = (2 -\n  3)\nc = 4\n"},
		{`4:5 number "4"→"3"`, "a = 1\nb = (2 +\n  3)\nc = 3\n"},
		{`4:5 number "4"→"5"`, "a = 1\nb = (2 +\n  3)\nc = 5\n"},
	},
}, {
	name:  "a span that starts on an unrequested line",
	src:   "a = (x is\n  not y)\n",
	lines: []int{2},
}}

func TestFind(t *testing.T) {
	python := interpreter(t)
	var mutants [][]byte
	for _, tt := range findCases {
		t.Run(tt.name, func(t *testing.T) {
			lines := tt.lines
			if lines == nil {
				lines = allLines(tt.src)
			}
			sites, err := Find(t.Context(), python, []byte(tt.src), lines)
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, s := range sites {
				got = append(got, brief(s))
			}
			for _, w := range tt.want {
				want = append(want, w.brief)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for i, s := range sites {
				if s.Description == "" {
					t.Errorf("%s: no description", brief(s))
				}
				m, err := Apply([]byte(tt.src), s)
				if err != nil {
					t.Fatalf("%s: %v", brief(s), err)
				}
				if string(m) != tt.want[i].mutant {
					t.Errorf("%s: mutant\n%q\nwant\n%q", brief(s), m, tt.want[i].mutant)
				}
				mutants = append(mutants, m)
			}
		})
	}
	if len(mutants) == 0 {
		t.Fatal("no mutants to parse")
	}
	for i, msg := range parseErrors(t, python, mutants) {
		if msg != "" {
			t.Errorf("mutant %q does not parse: %s", mutants[i], msg)
		}
	}
}

func TestFindDescriptions(t *testing.T) {
	python := interpreter(t)
	src := "def f(a, b, x, y, it) -> int:\n    n = len(a)\n    key = lambda v: -v\n    if a is not b and not x:\n        return x in y < 1.5 and True\n    elif a:\n        raise KeyError(a)\n    else:\n        a.sort()\n    for i in it:\n        break\n    try:\n        x += next(it, None)\n    except KeyError:\n        return g(a.lower(), 'k')\n    return h(x)\n"
	sites, err := Find(t.Context(), python, []byte(src), allLines(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range sites {
		if got[s.Operator] == "" {
			got[s.Operator] = s.Description
		}
	}
	want := map[string]string{
		OpArithmetic:     "",
		OpAssignment:     `replace the assigned value "len(a)" with None`,
		OpLambda:         `make the lambda return None instead of "-v"`,
		OpAugmented:      `replace "+=" with "-="`,
		OpBoolean:        `replace "and" with "or"`,
		OpBooleanLiteral: `replace "True" with "False"`,
		OpBoundary:       `replace "<" with "<="`,
		OpBranch:         `replace the branch "return x in y < 1.5 and True" with pass`,
		OpCallDefault:    `remove the default argument "None"`,
		OpComparison:     `replace "<" with ">="`,
		OpCondition:      `replace the condition "a is not b and not x" with False`,
		OpExcept:         `re-raise instead of handling with "return g(a.lower(), 'k')"`,
		OpIdentity:       `replace "is not" with "is"`,
		OpLoopControl:    `replace "break" with "continue"`,
		OpMembership:     `replace "in" with "not in"`,
		OpMethodCall:     `remove the call ".lower()"`,
		OpNegation:       `negate the condition "a is not b and not x"`,
		OpNot:            `remove "not"`,
		OpNumber:         `replace "1.5" with "0.5"`,
		OpRaise:          "",
		OpReturnNone:     "replace the returned value with None",
		OpReturnValue:    "replace the returned value with 0",
		OpStatement:      `replace the statement "x += next(it, None)" with pass`,
		OpString:         `replace "'k'" with "'XXkXX'"`,
	}
	for _, op := range Operators() {
		if got[op] != want[op] {
			t.Errorf("%s: description %q, want %q", op, got[op], want[op])
		}
	}
}

func TestFindDeterministic(t *testing.T) {
	python := interpreter(t)
	src := []byte(`import os


def score(items, limit=10, *, strict=False):
    total = 0
    for i, item in enumerate(items):
        if item is None or not item.ok:
            continue
        if i >= limit and strict:
            return -1
        total += item.value * 2 - i % 3
        total //= 1 if total > 100 else 2
    return total ** 2 if total != 0 else False


class Box:
    def __contains__(self, x):
        return x not in self.items and x in os.environ
`)
	lines := allLines(string(src))
	first, err := Find(t.Context(), python, src, lines)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) < 20 {
		t.Fatalf("only %d sites", len(first))
	}
	for i := 1; i < len(first); i++ {
		if compareSites(first[i-1], first[i]) >= 0 {
			t.Errorf("sites %d and %d out of order: %s, %s", i-1, i, brief(first[i-1]), brief(first[i]))
		}
	}
	reversed := slices.Clone(lines)
	slices.Reverse(reversed) // the order of the lines does not matter
	again, err := Find(t.Context(), python, src, reversed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first, again) {
		t.Error("a second run gave different sites")
	}
	var mutants [][]byte
	for _, s := range first {
		m, err := Apply(src, s)
		if err != nil {
			t.Fatal(err)
		}
		mutants = append(mutants, m)
	}
	for i, msg := range parseErrors(t, python, mutants) {
		if msg != "" {
			t.Errorf("%s: mutant does not parse: %s", brief(first[i]), msg)
		}
	}
}

func TestFindRejectsSource(t *testing.T) {
	python := interpreter(t)
	tests := []struct {
		name, src, want string
	}{
		{"does not parse", "a = 1\nb = (\n", "source does not parse: line 2"},
		{"bad indentation", "if x:\nreturn 1\n", "source does not parse: line 2"},
		{"not UTF-8", "a = 'caf\xe9'\n", "not valid UTF-8"},
		{"other encoding", "# coding: latin-1\na = 'caf\xe9'\n", "only UTF-8"},
		{"other encoding, valid UTF-8", "# coding: latin-1\na = 'café'\n", "only UTF-8"},
		{"unknown encoding", "# coding: no-such-codec\na = 1\n", "encoding"},
		{"null byte", "a = 1\x00\n", "source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Find(t.Context(), python, []byte(tt.src), []int{1})
			var se *SourceError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SourceError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestFindLines(t *testing.T) {
	// No lines: no sites, and the interpreter is not even run.
	sites, err := Find(t.Context(), "/nonexistent/python3", []byte("a = b < c\n"), nil)
	if sites != nil || err != nil {
		t.Errorf("no lines: %v, %v", sites, err)
	}
	if _, err := Find(t.Context(), "/nonexistent/python3", []byte("a\n"), []int{3, 0}); err == nil || !strings.Contains(err.Error(), "1-based") {
		t.Errorf("line 0: error %v", err)
	}
	for _, tt := range []struct {
		lines []int
		want  string
	}{
		{[]int{1}, "1"},
		{[]int{3, 1, 2, 2}, "1-3"},
		{[]int{9, 1, 2, 5, 7, 8}, "1-2,5,7-9"},
	} {
		_, got, err := lineRanges(tt.lines)
		if err != nil || got != tt.want {
			t.Errorf("lineRanges(%v) = %q, %v; want %q", tt.lines, got, err, tt.want)
		}
	}
}

// fake writes an executable shell script standing in for the interpreter.
func fake(t *testing.T, body string) string {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	p := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindInterpreterFailures(t *testing.T) {
	src := []byte("a = b < c\n")
	notExec := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		python  func(t *testing.T) string
		timeout time.Duration
		want    string
		notWant string
		source  bool // a *SourceError
	}{
		{name: "empty", python: func(*testing.T) string { return "" }, want: "no Python interpreter"},
		{name: "missing path", python: func(*testing.T) string { return "/nonexistent/python3" }, want: `"/nonexistent/python3"`},
		{name: "missing name", python: func(*testing.T) string { return "sealgate-no-such-python" }, want: "sealgate-no-such-python"},
		{name: "not executable", python: func(*testing.T) string { return notExec }, want: "permission denied"},
		{
			name:   "garbage output",
			python: func(t *testing.T) string { return fake(t, "cat >/dev/null; echo 'not json'") },
			want:   "decoding output",
		},
		{
			name: "site on a line not asked for",
			python: func(t *testing.T) string {
				return fake(t, `cat >/dev/null; echo '{"sites":[{"col":7,"end":7,"equivalent":false,"line":1,"operator":"comparison","original":"<","replacement":">=","statement_line":1,"start":6}]}'`)
			},
			want: "not asked for",
		},
		{
			name:    "first stderr line",
			python:  func(t *testing.T) string { return fake(t, "echo; echo 'first problem' >&2; echo second >&2; exit 1") },
			want:    "first problem",
			notWant: "second",
		},
		{
			name:   "exit 3 without the script's prefix is not a source error",
			python: func(t *testing.T) string { return fake(t, "echo 'oops' >&2; exit 3") },
			want:   "oops",
		},
		{
			name: "source error",
			python: func(t *testing.T) string {
				return fake(t, "echo 'pymutant: source does not parse: line 1: x' >&2; exit 3")
			},
			want:   "pymutant: source does not parse: line 1: x",
			source: true,
		},
		{
			name:   "too much output",
			python: func(t *testing.T) string { return fake(t, "exec head -c 20000000 /dev/zero") },
			want:   "more than",
		},
		{
			name:    "context",
			python:  func(t *testing.T) string { return fake(t, "exec sleep 30") },
			timeout: 200 * time.Millisecond,
			want:    context.DeadlineExceeded.Error(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			begin := time.Now()
			// Line 2 is asked for, so a site on line 1 is unexpected.
			sites, err := Find(ctx, tt.python(t), src, []int{2})
			if err == nil {
				t.Fatalf("no error; sites %v", sites)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if tt.notWant != "" && strings.Contains(err.Error(), tt.notWant) {
				t.Errorf("error %q contains %q", err, tt.notWant)
			}
			var se *SourceError
			if errors.As(err, &se) != tt.source {
				t.Errorf("error %v: *SourceError is %v, want %v", err, !tt.source, tt.source)
			}
			if d := time.Since(begin); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestFindStatementLine: a site on a continuation line of a multi-line
// statement names its statement's first line, the line coverage.py reports
// the statement's execution on; a site in a block names its own statement.
func TestFindStatementLine(t *testing.T) {
	python := interpreter(t)
	src := "x = f(a,\n      b < c)\nif (d and\n        e > 1):\n    y = g(\n        h - 2)\n"
	sites, err := Find(t.Context(), python, []byte(src), allLines(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		`2:9 comparison "<"→">="`:                    1,
		`3:7 boolean "and"→"or"`:                     3,
		`4:11 comparison ">"→"<="`:                   3,
		`6:11 arithmetic "-"→"+"`:                    5,
		`5:9 assignment "g(\n        h - 2)"→"None"`: 5,
	}
	got := map[string]int{}
	for _, s := range sites {
		got[brief(s)] = s.StatementLine
		if s.StatementLine < 1 || s.StatementLine > s.Line {
			t.Errorf("%s: statement line %d", brief(s), s.StatementLine)
		}
	}
	for b, line := range want {
		if got[b] != line {
			t.Errorf("%s: statement line %d, want %d (sites %v)", b, got[b], line, got)
		}
	}
}
