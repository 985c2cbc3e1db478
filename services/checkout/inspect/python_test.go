package inspect

import (
	"context"
	"strings"
	"testing"
)

// pyFindings reads src with the script (as source, or as test code when
// harness is set) and returns its findings as "reach: what" and "probe:
// what" lines.
func pyFindings(t *testing.T, py, src string, harness bool) []string {
	t.Helper()
	res, err := Python(context.Background(), py, []PyRequest{{Src: []byte(src), Harness: harness}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Err != "" {
		t.Fatalf("the source does not parse: %s\n%s", res[0].Err, src)
	}
	var out []string
	for _, it := range res[0].Reach {
		out = append(out, "reach: "+it.What)
	}
	for _, it := range res[0].Probes {
		out = append(out, "probe: "+it.What)
	}
	return out
}

func needPy(t *testing.T) string {
	t.Helper()
	py := lookPython()
	if py == "" {
		t.Skip("no python3")
	}
	return py
}

// TestPythonReachThroughAliases: reach and probes hidden behind another
// module's attribute (os.sys), an alias, getattr with a constant, a
// module looked up by name, vars() or __import__ are found as when they
// are written plainly; reflection no table names (an attribute whose name
// is computed, the interpreter's internals, the module's namespace by a
// computed name) is reach of its own; and a comparison that does not
// depend on what it is compared with is found. Each attack beside the
// honest code of the same shape, which has no finding.
func TestPythonReachThroughAliases(t *testing.T) {
	py := needPy(t)
	for _, tc := range []struct {
		name, src string
		want      []string // substrings, each of some finding
	}{
		{"another module's sys", "import os as _os\n\n_rep = _os.sys.modules[\"_pytest.reports\"].TestReport\n_rep.from_item_and_call = 1\n",
			[]string{"reach: uses sys.modules", "reach: reaches _pytest.reports", "reach: writes _rep.from_item_and_call, state of another module"}},
		{"from os import sys", "from os import sys as _s\n\nx = _s.modules[\"_pytest.reports\"]\n", []string{"reach: uses sys.modules", "reach: reaches _pytest.reports"}},
		{"vars of __import__", "_r = vars(__import__(\"os\"))[\"sys\"].modules[\"_pytest.reports\"]\n",
			[]string{"reach: reads the namespace of os", "reach: reaches _pytest.reports"}},
		{"every subclass", "k = [c for c in object.__subclasses__() if c.__name__ == \"TestReport\"]\n", []string{"reach: reads __subclasses__"}},
		{"pytest loaded, through os", "import os\n\n\ndef f(x):\n    return 1 if \"_pytest\" in os.sys.modules else 2\n",
			[]string{"probe: reads sys.modules", "probe: names _pytest"}},
		{"a gate variable by a computed name", "def f():\n    return __import__(\"os\").environ.get(\"PYTEST_\" + \"CURRENT_TEST\")\n",
			[]string{"probe: os.environ.get of a variable whose name is computed"}},
		{"__debug__", "def median(xs):\n    s = sorted(xs)\n    if len(s) % 2 == 0 and __debug__:\n        return (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2\n    return s[len(s) // 2]\n",
			[]string{"probe: reads __debug__, which python -O turns off"}},
		{"a name resolved", "import socket\n\n\ndef offline():\n    try:\n        socket.gethostbyname(\"pypi.org\")\n        return False\n    except OSError:\n        return True\n",
			[]string{"probe: reads name resolution (the sandbox has no network)"}},
		{"argv and exit through os", "import os as o\n\n_argv = o.sys.argv\no._exit(0)\n", []string{"probe: reads the interpreter's arguments", "reach: ends the process at once"}},
		{"an equality that ignores the other", "class V(float):\n    def __eq__(self, other):\n        return True\n", []string{"reach: defines V.__eq__, which ignores what it is compared with"}},
		{"an equality lambda", "class V:\n    __eq__ = lambda self, other: True\n", []string{"reach: defines V.__eq__, which ignores"}},
		{"an equality always true", "class V:\n    def __eq__(self, other):\n        if other is None:\n            return True\n        return True\n", []string{"reach: defines V.__eq__, which returns True whatever"}},
		{"an equality bound to something else", "class V:\n    __eq__ = object.__ne__\n", []string{"reach: defines V.__eq__, which binds it to object.__ne__"}},
		{"an equality replaced", "class V:\n    pass\n\n\nV.__eq__ = lambda s, o: True\n", []string{"reach: replaces V.__eq__"}},
		{"a code object", "def f():\n    pass\n\n\nbad = any(n.startswith(\"x\") for n in f.__code__.co_names)\n", []string{"reach: reads __code__", "reach: reads co_names"}},
		{"a computed attribute", "def f(g, x):\n    return getattr(g, \"__co\" + x)\n", []string{"reach: getattr of an attribute whose name is computed"}},
		{"a name folded from constants", "def f(g):\n    return getattr(g, \"\".join([\"__co\", \"de__\"]))\n", []string{"reach: builds the name __code__"}},
		{"a name reversed", "N = \"__edoc__\"[::-1]\n", []string{"reach: builds the name __code__"}},
		{"a name built in two steps", "A = \"__\"\nB = A + \"glo\" + \"bals__\"\n\n\ndef f(g):\n    return getattr(g, B)\n", []string{"reach: builds the name __globals__"}},
		{"a name from a variable prefix", "P = \"__co\"\n\n\ndef f(g, rest):\n    name = P + rest\n    return getattr(g, name)\n", []string{"reach: getattr of an attribute named by name"}},
		{"a name listed by dir", "def f(g):\n    return [getattr(g, n) for n in dir(g)]\n", []string{"reach: getattr of an attribute named by n, an attribute it listed (dir)"}},
		{"the runner's name built", "M = \"_py\" + \"test.reports\"\n", []string{"reach: builds the name _pytest.reports"}},
		{"a computed attribute of a module", "import os\n\n\ndef f(n):\n    return getattr(os, n)\n", []string{"reach: getattr of an attribute of os, another module, whose name is computed"}},
		{"getattr with a constant", "import importlib\n\nm = getattr(importlib.import_module(\"sys\"), \"modules\")\n", []string{"reach: uses sys.modules"}},
		{"the builtins by name", "b = globals()[\"__builtins__\"]\n", []string{"reach: reads its module's namespace by a computed name"}},
		{"the module namespace by a computed name", "def f(n):\n    return globals()[n]\n", []string{"reach: reads its module's namespace by a computed name"}},
		{"an imported module by a name", "m = __import__(\"sys\")\nm.modules.clear()\n", []string{"reach: uses sys.modules"}},
		{"gc through getattr", "g = getattr(__import__(\"gc\"), \"get_objects\")\n", []string{"reach: reaches every object of the process"}},
		{"the entry point", "import __main__\n", []string{"probe: imports __main__"}},
		{"a format reading internals", "def f(g):\n    return \"{0.__globals__}\".format(g)\n", []string{"reach: formats an interpreter internal"}},
		{"traced or not", "import sys\n\nCOVERED = sys.gettrace() is not None\n", []string{"probe: reads whether it is traced"}},
		{"pickled code", "import pickle\n\nx = pickle.loads(b\"cos\\nsystem\\n.\")\n", []string{"reach: unpickles bytes it holds"}},
		{"a dotted name of the runner", "import importlib.util\n\nHAS = importlib.util.find_spec(\"pytest\") is not None\n", []string{"probe: names pytest, a module of the test runner"}},
		{"the gate's name", "MARK = \"sealgate_boot_\"\n", []string{"probe: names the gate"}},
		{"bytecode through dis", "import dis\n\n\ndef f(g):\n    return [i.argval for i in dis.get_instructions(g)]\n", []string{"reach: reads a function's bytecode (dis)"}},
		{"a frame by a computed name", "import sys\n\n\ndef f():\n    return getattr(sys.exc_info()[2], \"tb_\" + \"frame\")\n", []string{"reach: getattr of an attribute whose name is computed"}},
		{"callers through a logger", "import logging\n\nWHO = logging.getLogger().findCaller(True)\n", []string{"reach: reads its callers"}},
		{"frames through a lost alias", "import sys\n\nF = [sys][0]._getframe(1)\n", []string{"reach: reads the interpreter's frames (._getframe)"}},
		{"a class built with a vacuous equality", "V = type(\"V\", (float,), {\"__eq__\": lambda s, o: True})\n", []string{"reach: names __eq__"}},
		{"CPython's always-equal", "from test.support import ALWAYS_EQ\n", []string{"reach: imports from test.support"}},
		{"the environment through posix", "import posix\n\nUNDER = b\"PYTEST_CURRENT_TEST\" in posix.environ\n", []string{"probe: reads the whole environment (posix.environ)"}},
		{"pytest's faulthandler", "import faulthandler\n\nUNDER = faulthandler.is_enabled()\n", []string{"probe: reads whether the test runner enabled faulthandler"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pyFindings(t, py, tc.src, false)
			for _, w := range tc.want {
				if !containsPart(got, w) {
					t.Fatalf("findings %q lack %q for:\n%s", got, w, tc.src)
				}
			}
		})
	}
	for _, tc := range []struct{ name, src string }{
		{"a compiled pattern", "import math\nimport re\n\nR = re.compile(\"x+\")\n\n\ndef f(x):\n    return math.floor(x)\n"},
		{"a logger", "import logging\n\nlog = logging.getLogger(__name__)\nlog.setLevel(logging.INFO)\n"},
		{"a real equality", "class P:\n    def __eq__(self, other):\n        return isinstance(other, P) and self.x == other.x\n\n    def __lt__(self, other):\n        return self.x < other.x\n\n    __hash__ = None\n"},
		{"an equality that declines", "class P:\n    def __eq__(self, other):\n        if not isinstance(other, P):\n            return NotImplemented\n        return self.x == other.x\n"},
		{"another type's equality", "class V(float):\n    __eq__ = float.__eq__\n"},
		{"a sentinel greater than everything", "class InfinityType:\n    def __lt__(self, other):\n        return False\n\n    def __gt__(self, other):\n        return True\n\n    def __eq__(self, other):\n        return isinstance(other, self.__class__)\n"},
		{"an abstract equality", "class Base:\n    def __eq__(self, other):\n        \"\"\"Whether two specifiers are equal.\"\"\"\n        raise NotImplementedError\n\n    def __ne__(self, other):\n        return NotImplemented\n"},
		{"a visitor", "class V:\n    def visit(self, node):\n        return getattr(self, \"visit_\" + type(node).__name__)(node)\n\n    def on(self, name):\n        return getattr(self, f\"on_{name}\", None)\n"},
		{"a variable of its own", "import os\n\nHOME = os.environ.get(\"HOME\")\n"},
		{"a docstring naming pytest", "\"\"\"Helpers; run the tests with pytest.\"\"\"\n\n\ndef f():\n    \"\"\"pytest\"\"\"\n    return 1\n"},
		{"an imported class", "from collections import OrderedDict\n\nd = OrderedDict()\nd[\"a\"] = 1\n"},
		{"its own class name", "class K:\n    def name(self):\n        return self.__class__.__name__\n"},
		{"its own names", "__all__ = [\"f\"]\n\n\ndef f():\n    return globals().get(\"f\")\n"},
		{"getters by name", "class K:\n    def get(self, name):\n        return getattr(self, \"get_\" + name)()\n"},
		{"dispatch by a parameter", "class K:\n    def handle(self, kind, default=None):\n        return getattr(self, kind, default)\n\n    def _set(self, name, value):\n        setattr(self, \"_\" + name, value)\n        return hasattr(self, \"_handle_\" + name)\n"},
		{"a country code", "CODES = {\"co\": \"Colombia\", \"f_\": 1}\n"},
	} {
		t.Run("honest/"+tc.name, func(t *testing.T) {
			if got := pyFindings(t, py, tc.src, false); len(got) > 0 {
				t.Fatalf("findings %q for honest code:\n%s", got, tc.src)
			}
		})
	}
}

// TestPythonHarnessReach: test code read as such (Harness) may use pytest,
// mocks, monkeypatch, sys.modules, exec and a module's attribute inside a
// test; it may not reach pytest's internals, rewrite pytest, builtins or
// another module at collection, or read the interpreter's internals.
func TestPythonHarnessReach(t *testing.T) {
	py := needPy(t)
	for _, tc := range []struct{ name, src, want string }{
		{"pytest's reports", "import _pytest.reports as r\n\nr.TestReport.x = 1\n", "imports _pytest.reports"},
		{"pytest rewritten", "import pytest\n\npytest.approx = lambda *a, **k: 1\n", "writes pytest.approx"},
		{"a module at collection", "import math\n\nmath.isclose = lambda *a, **k: True\n", "writes math.isclose"},
		{"a code object", "from pystats import stats\n\n\ndef test_a():\n    assert not stats.f.__code__.co_names\n", "reads __code__"},
		{"the runner through sys.modules", "import sys\n\nr = sys.modules[\"_pytest.reports\"]\n", "reaches _pytest.reports"},
		{"os._exit", "import os\n\n\ndef test_a():\n    os._exit(0)\n", "ends the process"},
		{"the loaded modules listed", "import sys\n\n\ndef test_a():\n    assert not any(getattr(m, \"_SWITCH\", None) for m in list(sys.modules.values()))\n", "uses sys.modules"},
		{"bytecode", "import dis\n\nfrom pystats import stats\n\n\ndef test_a():\n    assert \"x\" not in [i.argval for i in dis.get_instructions(stats.f)]\n", "reads a function's bytecode"},
		{"the gate named", "def test_a():\n    assert \"sealgate\" not in str(globals)\n", "names the gate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pyFindings(t, py, tc.src, true); !containsPart(got, tc.want) {
				t.Fatalf("findings %q lack %q for:\n%s", got, tc.want, tc.src)
			}
		})
	}
	honest := `import os
import sys
from unittest import mock

import pytest

from pystats import stats


@pytest.fixture
def argv(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["x"])
    monkeypatch.setenv("HOME", "/nowhere")


@pytest.mark.parametrize("x", [1, 2])
def test_a(x, argv):
    import pystats
    pystats.DEBUG = True
    assert eval("1 + 1") == 2
    sys.modules.pop("pystats.extra", None)
    assert "pystats" in sys.modules
    monkeypatch_like = sys.modules["pystats"]
    with mock.patch.object(stats, "f", return_value=3):
        assert stats.f() == 3
    with pytest.raises(ValueError):
        int("x")
    assert os.environ["HOME"] == "/nowhere"
    assert stats.g(x) == pytest.approx(x)
`
	if got := pyFindings(t, py, honest, true); len(got) > 0 {
		t.Fatalf("findings %q for honest test code", got)
	}
}

func containsPart(s []string, part string) bool {
	for _, v := range s {
		if strings.Contains(v, part) {
			return true
		}
	}
	return false
}
