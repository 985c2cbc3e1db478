package checkout

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// pythonFuncsCases are sources PythonTestFuncs reads, with the node-id
// suffixes pytest collects from them. TestPythonTestFuncsAgreesWithCPython
// checks each against CPython's own parser.
var pythonFuncsCases = []struct {
	name string
	src  string
	want []string
}{
	{"empty", "", nil},
	{"functions", `import pytest

def test_b():
    assert True

def test_a(tmp_path):
    pass

async def test_async():
    await x

def test():
    pass

def testable():
    pass

def Test_upper():
    pass

def helper():
    def test_inner():
        pass

def test_b():
    pass
`, []string{"test", "test_a", "test_async", "test_b", "testable"}},
	{"classes", `import unittest

class TestA:
    def test_one(self):
        pass

    async def test_two(self):
        pass

    def helper(self):
        pass

    class TestB:
        def test_x(self):
            pass

        class TestC:
            def test_deep(self):
                pass

    class Helper:
        def test_hidden(self):
            pass

class Plain:
    def test_not_collected(self):
        pass

    class TestInPlain:
        def test_not_either(self):
            pass

class Empty():
    def test_empty_parens(self):
        pass

class MyCase(unittest.TestCase):
    def test_unittest(self):
        pass

class TestGeneric[T](Base):
    def test_generic(self):
        pass

def make():
    class TestLocal:
        def test_local(self):
            pass
`, []string{"MyCase::test_unittest", "TestA::TestB::TestC::test_deep", "TestA::TestB::test_x", "TestA::test_one", "TestA::test_two", "TestGeneric::test_generic"}},
	{"strings and comments", `"""Module docstring.
def test_in_docstring():
    pass
"""
# def test_in_comment():
x = 'def test_single(): # not a comment'
y = "it's \"quoted\" \
def test_continued_string():"
z = r"\"" ; w = rb'\'' ; v = U"\N{BULLET}"
BLOCK = Rb'''
class TestInBytes:
    def test_bytes(self): pass
'''
EMPTY = """"""
QUOTES = """ '' "" \""" '''
"""

def test_after_strings():
    s = '''
def test_inside():
'''
    return s
`, []string{"test_after_strings"}},
	{"f-strings", `a = f"{x!r:>{width}} {{literal}} }}"
b = f'{d["key"]}'
c = f"{"#"}"
d = f"""{
    x  # a comment in a field
}
def test_in_fstring(): pass
"""
e = rf"\{x}" + Rf'\N{y}' + f"\N{EM DASH}"
f = f"{x:{'{'}>3}" + f"{f"{f"{1}"}"}"
g = f"{1 +
2}"

def test_after_fstrings():
    pass
`, []string{"test_after_fstrings"}},
	{"continuations", `class TestA:
    x = (
1)
    y = 1 + \
2
    z = {
        "a": [
    3],
}
    def test_a(self):
        pass

    data = [
def_ for def_ in range(3)]

    def test_b(self): pass
`, []string{"TestA::test_a", "TestA::test_b"}},
	{"decorators", `import pytest
from pytest import fixture

@pytest.fixture
def test_fixture_is_not_a_test():
    pass

@pytest.fixture(scope="module")
def test_fixture_called():
    pass

@fixture
def test_bare_fixture():
    pass

@pytest.mark.parametrize(
    "a, b",
    [
        (1, 2),  # a comment
    ],
)
# a comment between decorators
@pytest.mark.slow
def test_param(a, b):
    pass

@decorator
class TestDecorated:
    @staticmethod
    def test_static():
        pass

    @pytest.fixture
    def test_method_fixture(self):
        pass
`, []string{"TestDecorated::test_static", "test_param"}},
	{"compound blocks", `import sys

if sys.version_info >= (3, 8):
    def test_if():
        pass
elif False:
    def test_elif(): pass
else:
    def test_else():
        pass

try:
    import numpy
except ImportError:
    def test_except(): pass
else:
    def test_try_else(): pass
finally:
    def test_finally(): pass

with ctx():
    class TestWith:
        if True:
            def test_in_class_if(self): pass

for i in range(3):
    def test_for(): pass

while False:
    async def test_while(): pass

match x:
    case 1:
        def test_match(): pass

def helper():
    if True:
        def test_nested_in_function(): pass
`, []string{"TestWith::test_in_class_if", "test_elif", "test_else", "test_except", "test_finally", "test_for", "test_if", "test_match", "test_try_else", "test_while"}},
	{"one-liners", "def test_one(): pass\nclass TestOne: pass\nclass TestTwo: x = 1\nif True: y = 2\ndef test_two(): return 1; x = 2\n", []string{"test_one", "test_two"}},
	{"line endings", "def test_crlf():\r\n    pass\r\n\r\nclass TestCR:\r    def test_cr(self):\r        pass\r", []string{"TestCR::test_cr", "test_crlf"}},
	{"tabs and form feeds", "\fclass TestTabs:\n\tdef test_tab(self):\n\t\tpass\n\f\n\tdef test_ff(self):\n\t\tpass\n", []string{"TestTabs::test_ff", "TestTabs::test_tab"}},
	{"bom and coding", "\ufeff# -*- coding: utf-8 -*-\ndef test_bom():\n    pass  # ünïcödé comment ✓\n", []string{"test_bom"}},
	{"latin-1 declaration on ASCII", "#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\ndef test_latin():\n    pass\n", []string{"test_latin"}},
	{"no final newline", "def test_eof():\n    pass", []string{"test_eof"}},
	{"comments at any indentation", "class TestA:\n    def test_a(self):\n        pass\n# a comment at column 0\n  # and at 2\n    def test_b(self):\n        pass\n", []string{"TestA::test_a", "TestA::test_b"}},
}

func TestPythonTestFuncs(t *testing.T) {
	for _, tc := range pythonFuncsCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PythonTestFuncs([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("PythonTestFuncs =\n %q\nwant\n %q", got, tc.want)
			}
		})
	}
}

func TestPythonTestFuncsRefuses(t *testing.T) {
	deep := strings.Repeat("(", maxPythonNesting+1) + strings.Repeat(")", maxPythonNesting+1) + "\n"
	var indented strings.Builder
	for i := range maxPythonIndent + 1 {
		indented.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	indented.WriteString(strings.Repeat(" ", maxPythonIndent+1) + "pass\n")
	cases := []struct{ name, src, msg string }{
		{"tab and space in one indentation", "if x:\n \tpass\n", "tabs and spaces"},
		{"indentation that depends on the tab size", "if x:\n\tpass\n        pass\n", "tab size"},
		{"unterminated string", "x = 'abc\ndef test_a(): pass\n", "unterminated string"},
		{"unterminated triple string", "x = \"\"\"abc\ndef test_a(): pass\n", "unterminated string"},
		{"string ending in a backslash", "x = 'abc\\", "unterminated string"},
		{"unterminated f-string field", "x = f'{a'\n", "unterminated string"},
		{"unclosed f-string field", "x = f'{a", "expecting '}'"},
		{"quote in a format spec", "x = f'{a:'\n", "expecting '}'"},
		{"newline in a format spec", "x = f'{a:\n}'\n", "format spec"},
		{"single brace in an f-string", "x = f'}'\n", "single '}'"},
		{"unterminated \\N escape", "x = f'\\N{BULLET'\n", "\\N{"},
		{"unclosed bracket", "x = (1,\ndef test_a(): pass\n", "not closed"},
		{"unmatched bracket", "x = (1]\n", "unmatched"},
		{"stray closing bracket", "x = 1)\n", "unmatched"},
		{"backslash at the end", "x = 1 + \\", "not followed by a newline"},
		{"backslash then the end", "x = 1 + \\\n", "ends in a backslash"},
		{"backslash before text", "x = 1 \\ + 2\n", "not followed by a newline"},
		{"line starting with a continuation", "\\\nx = 1\n", "starts with a backslash"},
		{"invalid UTF-8", "def test_a(): pass\nx = '\xff'\n", "UTF-8"},
		{"NUL byte", "def test_a(): pass\x00\n", "NUL"},
		{"non-ASCII identifier", "def test_ä(): pass\n", "non-ASCII"},
		{"NFKC-normalized identifier", "def ｔest_x(): pass\n", "non-ASCII"},
		{"non-breaking space", "x =\u00a01\n", "non-ASCII"},
		{"control character", "x = 1\v\n", "control character"},
		{"foreign coding", "# coding: cp037\ndef test_a(): pass\n", "coding"},
		{"latin-1 coding on non-ASCII", "# coding: latin-1\nx = 'é'\n", "coding"},
		{"unexpected indent", "x = 1\n    y = 2\n", "unexpected indent"},
		{"unindent mismatch", "if x:\n    a = 1\n  b = 2\n", "unindent"},
		{"block without a body", "def test_a():\n", "indented block"},
		{"block without an indented body", "def test_a():\npass\n", "indented block"},
		{"decorator without def", "@pytest.fixture\nx = 1\n", "decorator"},
		{"decorator at the end", "@pytest.fixture\n", "decorator"},
		{"decorator then a deeper def", "@d\nif x:\n    def test_a(): pass\n", "decorator"},
		{"def without a name", "def (): pass\n", "without a name"},
		{"brackets nested too deep", deep, "nested"},
		{"indentation too deep", indented.String(), "levels of indentation"},
		{"too many lines", strings.Repeat("\n", maxPythonLines) + "x = 1\n", "lines"},
		{"too many lone CR lines", strings.Repeat("\r", maxPythonLines+1), "lines"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PythonTestFuncs([]byte(tc.src))
			if err == nil {
				t.Fatalf("PythonTestFuncs = %q, want an error", got)
			}
			if got != nil {
				t.Fatalf("names %q with error %v", got, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %q does not say %q", err, tc.msg)
			}
			if _, err := pythonHarnessDecls([]byte(tc.src)); err == nil {
				t.Fatal("pythonHarnessDecls accepts what PythonTestFuncs refuses")
			}
		})
	}
	// Exactly at the bounds is accepted.
	ok := []string{
		strings.Repeat("(", maxPythonNesting) + strings.Repeat(")", maxPythonNesting) + "\n",
		strings.Repeat("\n", maxPythonLines-1) + "def test_last(): pass\n",
	}
	for _, src := range ok {
		if _, err := PythonTestFuncs([]byte(src)); err != nil {
			t.Errorf("source at the bound refused: %v", err)
		}
	}
}

func TestPythonHarnessDecls(t *testing.T) {
	src := `import pytest
import pytest_asyncio
from pytest_mock import MockerFixture
from helpers import pytest_configure as _unused, pytest_addoption
from plugin import *

pytest_plugins = [
    "myplugin",
]
pytest_plugins += ["other"]
x = pytest_asyncio.fixture

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    items.reverse()
    # trailing comment is not part of it

def pytest_generate_tests(metafunc): pass

if True:
    def pytest_runtest_setup(item):
        pass

globals()["pytest_" + "report_header"] = lambda config: "x"

class TestA:
    def pytest_generate_tests(self, metafunc):
        pass
    pytest_foo = staticmethod(f)

    def test_a(self):
        pytest_plugins = ["not at module level"]
        def pytest_local(): pass

class TestOneLine: pytest_generate_tests = gen
class TestPlainOneLine: x = 1

def __getattr__(name):
    return hook

def helper():
    def pytest_nested(): pass
    pytest_plugins = []
`
	got, err := pythonHarnessDecls([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"@pytest.hookimpl(tryfirst=True)\ndef pytest_collection_modifyitems(items):\n    items.reverse()",
		"def __getattr__(name):\n    return hook",
		"def pytest_generate_tests(metafunc): pass",
		"def pytest_generate_tests(self, metafunc):\n        pass",
		"def pytest_runtest_setup(item):\n        pass",
		"from helpers import pytest_configure as _unused, pytest_addoption",
		"from plugin import *",
		`globals()["pytest_" + "report_header"] = lambda config: "x"`,
		"pytest_foo = staticmethod(f)",
		"class TestOneLine: pytest_generate_tests = gen",
		"pytest_plugins += [\"other\"]",
		"pytest_plugins = [\n    \"myplugin\",\n]",
	}
	slices.Sort(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pythonHarnessDecls\n got %q\nwant %q", got, want)
	}
	if got, err := pythonHarnessDecls([]byte("import pytest\n\ndef test_a():\n    pass\n")); err != nil || got != nil {
		t.Fatalf("a module without harness: %q, %v", got, err)
	}
}

// TestPythonTestFuncsAgreesWithCPython checks the expectations of
// pythonFuncsCases against CPython's parser (ast), when a python3 of at
// least 3.12 (f-strings as PEP 701 reads them) is at hand.
func TestPythonTestFuncsAgreesWithCPython(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs python3, which the Bazel sandbox does not provide")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("no python3: %v", err)
	}
	if err := exec.Command(py, "-c", "import sys; sys.exit(sys.version_info < (3, 12))").Run(); err != nil {
		t.Skipf("%s is older than 3.12 (or does not run): %v", py, err)
	}
	const reference = `
import ast, json, sys, warnings
warnings.simplefilter("ignore")
def fixture(d):
    d = d.func if isinstance(d, ast.Call) else d
    return (isinstance(d, ast.Name) and d.id == "fixture") or (isinstance(d, ast.Attribute) and d.attr == "fixture" and isinstance(d.value, ast.Name) and d.value.id == "pytest")
def walk(body, path, out):
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if n.name.startswith("test") and not any(fixture(d) for d in n.decorator_list):
                out.add(path + n.name)
        elif isinstance(n, ast.ClassDef):
            if n.name.startswith("Test") or n.bases or n.keywords:
                walk(n.body, path + n.name + "::", out)
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for x in getattr(n, field, None) or []:
                    walk(x.body if not isinstance(x, ast.stmt) else [x], path, out)
out = []
for src in json.load(sys.stdin):
    found = set()
    walk(ast.parse(src.encode()).body, "", found)
    out.append(sorted(found))
json.dump(out, sys.stdout)
`
	var srcs []string
	for _, tc := range pythonFuncsCases {
		srcs = append(srcs, tc.src)
	}
	in, _ := json.Marshal(srcs)
	cmd := exec.Command(py, "-c", reference)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v: %s", err, stderr.String())
	}
	var got [][]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i, tc := range pythonFuncsCases {
		want := tc.want
		if want == nil {
			want = []string{}
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: CPython collects %q, the case says %q", tc.name, got[i], want)
		}
	}
}

func FuzzPythonTestFuncs(f *testing.F) {
	for _, tc := range pythonFuncsCases {
		f.Add([]byte(tc.src))
	}
	for _, seed := range []string{
		"class TestA:\n    def test_a(self): pass\n",
		"x = f'{a:{b}}'\n",
		"x = f'{'\n",
		"if x:\n\tpass\n        pass\n",
		"@d\n",
		"pytest_plugins = ['x']\ndef pytest_configure(config): pass\n",
		"\x00",
		"\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		a, errA := PythonTestFuncs(src)
		b, errB := PythonTestFuncs(src)
		if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
			t.Fatalf("not deterministic: %q %v, %q %v", a, errA, b, errB)
		}
		decls, errD := pythonHarnessDecls(src)
		if (errA == nil) != (errD == nil) {
			t.Fatalf("PythonTestFuncs error %v, pythonHarnessDecls error %v", errA, errD)
		}
		if errA != nil {
			if a != nil || decls != nil {
				t.Fatalf("results %q %q with error %v", a, decls, errA)
			}
			return
		}
		if !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != len(a) {
			t.Fatalf("not sorted and unique: %q", a)
		}
		for _, name := range a {
			parts := strings.Split(name, "::")
			for i, p := range parts {
				if !isPythonIdentifier(p) {
					t.Fatalf("%q: %q is not an identifier", name, p)
				}
				if !bytes.Contains(src, []byte(p)) {
					t.Fatalf("%q: %q is not in the source", name, p)
				}
				if i == len(parts)-1 && !strings.HasPrefix(p, "test") {
					t.Fatalf("%q does not end in a test name", name)
				}
			}
		}
		if !slices.IsSorted(decls) {
			t.Fatalf("harness declarations not sorted: %q", decls)
		}
		for _, d := range decls {
			if d == "" || !bytes.Contains(src, []byte(d)) {
				t.Fatalf("harness declaration %q is not a span of the source", d)
			}
		}
	})
}

// isPythonIdentifier reports an ASCII Python identifier.
func isPythonIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
