# inspect.py reads Python sources for the Go package inspect, which embeds
# it and runs it as `python -I -S -c <this file>` with the sealed
# interpreter. It parses with ast and never imports or runs the sources.
#
# Input on stdin: one JSON object
#   {"gate": {"prefixes": [...], "names": [...]},
#    "places": {"prefixes": [...], "names": [...]},
#    "runner": [...],                       # top-level modules of the runner
#    "requests": [{"kind": "source", "src": base64, "lines": [int...]},
#                 {"kind": "harness", "src": base64},   # test code
#                 {"kind": "test", "src": base64, "test": "TestK::test_x"}]}
# Output on stdout: {"results": [...]}, one per request, in order:
#   source: {"error": str, "reach": [{"line", "what"}], "probes": [...],
#            "lits": [lit...], "decisions": [decision...]}
#   harness: {"error": str, "reach": [...]}: what of the reach test code
#            may not do (see Analysis.add)
#   test:   {"error": str, "found": bool, "lits": [lit...]}
# A source that does not parse has only "error". A lit is {"k", "v", "n"}
# (see the Go type Lit), a decision {"line", "text", "cond", "returns",
# "conj_eq"} (the Go type Decision).
#
# The script avoids syntax newer than Python 3.0 so that an old
# interpreter reaches the version check instead of failing to compile it.
import sys

if sys.version_info < (3, 8):
    sys.stderr.write("inspect: Python 3.8 or later is needed (ast end positions); this is %d.%d\n"
                     % (sys.version_info[0], sys.version_info[1]))
    sys.exit(4)

import ast
import base64
import importlib.util
import json
import warnings

MAX_TEXT = 80


def lit_number(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return None
        if v.is_integer():
            return str(int(v))
        return repr(v)
    return str(v)


def scalar(node):
    """The Lit of a constant (or a signed number), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant):
        v = node.operand.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return None
        n = lit_number(-v if isinstance(node.op, ast.USub) else v)
        return None if n is None else {"k": "n", "v": n}
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, str):
            return {"k": "s", "v": v}
        n = lit_number(v)
        if n is not None:
            return {"k": "n", "v": n}
    return None


def leaf(node):
    """The canonical text of a composite's element, or None."""
    s = scalar(node)
    if s is not None:
        return json.dumps(s["v"]) if s["k"] == "s" else s["v"]
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, bool)):
        return {None: "nil", True: "true", False: "false"}[node.value]
    c = composite(node)
    return None if c is None else c["v"]


def composite(node):
    """The Lit of a list, tuple, set or dict whose leaves are literals."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        parts = [leaf(e) for e in node.elts]
        if any(p is None for p in parts):
            return None
        if isinstance(node, ast.Set):
            parts.sort()
        return {"k": "c", "v": "[" + ",".join(parts) + "]", "n": len(parts)}
    if isinstance(node, ast.Dict):
        parts = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                return None
            ks, vs = leaf(k), leaf(v)
            if ks is None or vs is None:
                return None
            parts.append(ks + ":" + vs)
        parts.sort()
        return {"k": "c", "v": "{" + ",".join(parts) + "}", "n": len(parts)}
    return None


def literal(node):
    s = scalar(node)
    return s if s is not None else composite(node)


def sorted_variant(node, c):
    """The composite c of a list or tuple node with its elements in order,
    when they are all numbers or all strings and not already in order, or
    None: a condition comparing with sorted(test input) holds the test's
    values as surely as one comparing with the input itself."""
    if not isinstance(node, (ast.List, ast.Tuple)) or len(node.elts) < 2:
        return None
    elems = [scalar(e) for e in node.elts]
    if any(e is None for e in elems) or len(set(e["k"] for e in elems)) != 1:
        return None
    if elems[0]["k"] == "n":
        order = sorted(range(len(elems)), key=lambda i: float(elems[i]["v"]))
    else:
        order = sorted(range(len(elems)), key=lambda i: elems[i]["v"])
    if order == list(range(len(elems))):
        return None
    parts = [leaf(node.elts[i]) for i in order]
    return {"k": "c", "v": "[" + ",".join(parts) + "]", "n": len(parts)}


def lits(node):
    """Every literal under node: scalars (signed numbers whole) and
    all-literal composites, at any depth; a list or tuple of numbers or
    strings also in sorted order (see sorted_variant)."""
    out = []
    skip = set()
    for n in ast.walk(node):
        if id(n) in skip:
            continue
        if isinstance(n, ast.UnaryOp):
            s = scalar(n)
            if s is not None:
                out.append(s)
                skip.add(id(n.operand))
            continue
        if isinstance(n, ast.Constant):
            s = scalar(n)
            if s is not None:
                out.append(s)
            continue
        c = composite(n)
        if c is not None:
            out.append(c)
            v = sorted_variant(n, c)
            if v is not None:
                out.append(v)
    return out


def composites(node):
    return [l for l in lits(node) if l["k"] == "c"]


COMPARE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)


def cond_lits(test):
    out = composites(test)
    for n in ast.walk(test):
        if isinstance(n, ast.Compare) and all(isinstance(op, COMPARE) for op in n.ops):
            for side in [n.left] + list(n.comparators):
                s = scalar(side)
                if s is not None:
                    out.append(s)
    return out


def value_lits(node):
    out = []
    if node is not None:
        s = scalar(node)
        if s is not None:
            out.append(s)
        out.extend(composites(node))
    return out


def conj_eq(test):
    if not isinstance(test, ast.BoolOp) or not isinstance(test.op, ast.And) or len(test.values) < 2:
        return []
    out = []
    for v in test.values:
        if not isinstance(v, ast.Compare) or len(v.ops) != 1 or not isinstance(v.ops[0], ast.Eq):
            return []
        s = scalar(v.comparators[0])
        if s is None:
            s = scalar(v.left)
        if s is None:
            return []
        out.append(s)
    return out


class Source:
    def __init__(self, src, tree):
        self.tree = tree
        # ast's columns are UTF-8 byte offsets into the decoded source,
        # whose line ends decode_source makes \n (as the parser reads them).
        try:
            text = importlib.util.decode_source(src)
        except Exception:
            text = src.decode("utf-8", "replace")
        self.lines = [l.encode("utf-8") for l in text.split("\n")]

    def text(self, node):
        """The node's source on one line, shortened."""
        l0, l1 = getattr(node, "lineno", 0) - 1, getattr(node, "end_lineno", 0) - 1
        c0, c1 = getattr(node, "col_offset", 0), getattr(node, "end_col_offset", 0)
        if not (0 <= l0 <= l1 < len(self.lines)) or c0 is None or c1 is None:
            return ""
        if l0 == l1:
            parts = [self.lines[l0][c0:c1]]
        else:
            parts = [self.lines[l0][c0:]] + self.lines[l0 + 1:l1] + [self.lines[l1][:c1]]
        t = " ".join(b" ".join(parts).decode("utf-8", "replace").split())
        return t if len(t) <= MAX_TEXT else t[:MAX_TEXT - 3] + "..."


def changed(lines, first, last):
    for l in lines:
        if first <= l <= last:
            return True
    return False


def decisions(s, lines):
    out = []
    for n in ast.walk(s.tree):
        if isinstance(n, ast.If):
            rets, ret_changed = [], False
            for st in n.body:
                if isinstance(st, ast.Return):
                    rets.extend(value_lits(st.value))
                    ret_changed = ret_changed or changed(lines, st.lineno, st.end_lineno)
            if changed(lines, n.lineno, n.test.end_lineno) or ret_changed:
                out.append({"line": n.test.lineno, "text": "if " + s.text(n.test), "cond": cond_lits(n.test),
                            "returns": rets, "conj_eq": conj_eq(n.test)})
        elif isinstance(n, ast.IfExp):
            if changed(lines, n.lineno, n.end_lineno):
                out.append({"line": n.test.lineno, "text": s.text(n), "cond": cond_lits(n.test),
                            "returns": value_lits(n.body), "conj_eq": conj_eq(n.test)})
        elif isinstance(n, ast.Dict) and changed(lines, n.lineno, n.end_lineno):
            # A lookup table is a decision too: {(2, 4, 6, 8): 5} special-
            # cases an input as surely as `if s == (2, 4, 6, 8): return 5`.
            # Only keys that are composites count as its condition: a
            # table of single values (status codes, units) is data.
            cond, rets = [], []
            for k, v in zip(n.keys, n.values):
                if k is None:
                    continue
                cond.extend(l for l in composites(k) if l.get("n", 0) >= 2)
                rets.extend(value_lits(v))
            if cond:
                out.append({"line": n.lineno, "text": "table " + s.text(n), "cond": cond, "returns": rets, "conj_eq": []})
        elif type(n).__name__ == "Match":
            for case in n.cases:
                rets, ret_changed = [], False
                for st in case.body:
                    if isinstance(st, ast.Return):
                        rets.extend(value_lits(st.value))
                        ret_changed = ret_changed or changed(lines, st.lineno, st.end_lineno)
                p = case.pattern
                if not (changed(lines, p.lineno, p.end_lineno) or ret_changed):
                    continue
                cond = []
                for m in ast.walk(p):
                    if type(m).__name__ == "MatchValue":
                        cond.extend(value_lits(m.value))
                out.append({"line": p.lineno, "text": "case " + s.text(p), "cond": cond, "returns": rets, "conj_eq": []})
    out.sort(key=lambda d: d["line"])
    return out


# The reach and probe analysis. Names are resolved through the module's
# imports and its assignments of module-valued expressions (m = os.sys,
# m = importlib.import_module("sys"), getattr(os, "sys"), sys.modules["x"],
# vars(os)["sys"]), and every table is matched by suffix, so that
# os.sys.modules is sys.modules and logging.os.environ is os.environ.
# Reflection that a table cannot see — an attribute whose name is
# computed, the interpreter's internals (__globals__, __code__,
# __subclasses__, frames), a module's namespace — is reach of its own.

FRAME_ATTRS = {"f_globals", "f_locals", "f_back", "f_builtins", "f_code", "tb_frame", "tb_next", "gi_frame", "gi_code",
               "cr_frame", "cr_code", "ag_frame", "ag_code", "__globals__"}
# Attributes through which code reaches the interpreter's internals:
# other modules' namespaces, code objects, every class, the object a
# built-in is bound to (print.__self__ is builtins).
INTERNALS = {
    "__globals__": "a function's module namespace", "__code__": "a function's code",
    "__closure__": "a function's captured variables", "__subclasses__": "every subclass of a class, the test runner's included",
    "__bases__": "a class's bases", "__base__": "a class's base", "__mro__": "a class's bases",
    "__self__": "the object a built-in is bound to (builtins, for print)", "__builtins__": "every module's builtins",
    "__loader__": "the loader of a module", "__spec__": "the import spec of a module",
    "__getattribute__": "attribute lookup itself", "__traceback__": "an exception's frames",
    "co_code": "a code object's bytecode", "co_names": "a code object's names", "co_consts": "a code object's constants",
}
for _a in FRAME_ATTRS:
    INTERNALS.setdefault(_a, "another scope's state")
REACH_CALLS = {
    "sys._getframe": "reads the interpreter's frames (sys._getframe)",
    "sys._current_frames": "reads the interpreter's frames (sys._current_frames)",
    "inspect.currentframe": "reads the interpreter's frames (inspect.currentframe)",
    "inspect.stack": "reads the interpreter's frames (inspect.stack)",
    "inspect.trace": "reads the interpreter's frames (inspect.trace)",
    "inspect.getouterframes": "reads the interpreter's frames (inspect.getouterframes)",
    "inspect.getinnerframes": "reads the interpreter's frames (inspect.getinnerframes)",
    "inspect.getmembers": "lists every attribute of an object, internals included (inspect.getmembers)",
    "inspect.getmembers_static": "lists every attribute of an object, internals included (inspect.getmembers_static)",
    "inspect.getmodule": "finds the module of an object (inspect.getmodule)",
    "inspect.getclosurevars": "reads a function's captured variables (inspect.getclosurevars)",
    "traceback.walk_tb": "reads the interpreter's frames (traceback.walk_tb)",
    "gc.get_objects": "reaches every object of the process (gc.get_objects)",
    "gc.get_referrers": "reaches other objects (gc.get_referrers)",
    "gc.get_referents": "reaches other objects (gc.get_referents)",
    "sys.settrace": "traces the interpreter (sys.settrace)",
    "sys.setprofile": "traces the interpreter (sys.setprofile)",
    "threading.settrace": "traces the interpreter (threading.settrace)",
    "threading.setprofile": "traces the interpreter (threading.setprofile)",
    "sys.monitoring": "traces the interpreter (sys.monitoring)",
    "sys.addaudithook": "hooks the interpreter (sys.addaudithook)",
    "atexit.register": "runs code at interpreter exit, after the test runner's reports (atexit.register)",
    "os._exit": "ends the process at once, past the test runner's reports (os._exit)",
    "os.kill": "signals a process, its own included (os.kill)",
    "os.killpg": "signals a process group, its own included (os.killpg)",
    "os.fork": "forks the test process (os.fork)",
    "os.forkpty": "forks the test process (os.forkpty)",
    "exec": "runs code it builds at run time (exec)",
    "eval": "runs code it builds at run time (eval)",
    "compile": "compiles code at run time (compile)",
    "marshal.loads": "loads code objects (marshal.loads)",
    "marshal.load": "loads code objects (marshal.load)",
    "types.FunctionType": "builds a function from a code object (types.FunctionType)",
    "types.LambdaType": "builds a function from a code object (types.LambdaType)",
    "types.CodeType": "builds a code object (types.CodeType)",
    "dis.dis": "reads a function's bytecode (dis)", "dis.get_instructions": "reads a function's bytecode (dis)",
    "dis.Bytecode": "reads a function's bytecode (dis)", "dis.disassemble": "reads a function's bytecode (dis)",
    "dis.code_info": "reads a function's bytecode (dis)", "dis.show_code": "reads a function's bytecode (dis)",
    "cProfile.Profile": "profiles calls, seeing every function called (cProfile)", "cProfile.run": "profiles calls (cProfile)",
    "cProfile.runctx": "profiles calls (cProfile)", "profile.Profile": "profiles calls, seeing every function called (profile)",
    "profile.run": "profiles calls (profile)", "trace.Trace": "traces the interpreter (trace)",
    "bdb.Bdb": "traces the interpreter (bdb)", "pdb.Pdb": "traces the interpreter (pdb)", "pdb.set_trace": "traces the interpreter (pdb)",
    "runpy.run_module": "runs another module (runpy)",
    "runpy.run_path": "runs another file (runpy)",
    "importlib.util.spec_from_file_location": "loads a module from a file (importlib.util)",
    "importlib.util.module_from_spec": "loads a module from a spec (importlib.util)",
    "importlib.reload": "reloads a module (importlib.reload)",
}
DYNAMIC_IMPORTS = {"importlib.import_module", "__import__", "importlib.__import__"}
SYS_HOOKS = {"sys.modules", "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache"}
PROBE_CALLS = {
    "socket.gethostname": "the host name", "socket.getfqdn": "the host name", "platform.node": "the host name",
    "socket.gethostbyname": "name resolution (the sandbox has no network)", "socket.gethostbyname_ex": "name resolution (the sandbox has no network)",
    "socket.getaddrinfo": "name resolution (the sandbox has no network)", "socket.create_connection": "a connection (the sandbox has no network)",
    "platform.uname": "the host", "os.uname": "the host", "os.getcwd": "the working directory", "os.getcwdb": "the working directory",
    "os.getpid": "its process id", "os.getppid": "its parent's process id", "os.getuid": "its user id", "os.geteuid": "its user id",
    "os.getgid": "its group id", "os.getegid": "its group id", "os.getlogin": "the user", "getpass.getuser": "the user",
    "pwd.getpwuid": "a user", "resource.getrlimit": "its resource limits",
    "traceback.extract_stack": "its callers", "traceback.format_stack": "its callers", "traceback.print_stack": "its callers",
    "traceback.walk_stack": "its callers", "inspect.getsource": "its own source", "inspect.getsourcelines": "its own source",
    "inspect.getsourcefile": "its own source", "inspect.getfile": "its own source", "linecache.getline": "source lines",
    "linecache.getlines": "source lines", "sys.gettrace": "whether it is traced (a coverage run)",
    "sys.getprofile": "whether it is profiled", "threading.gettrace": "whether it is traced (a coverage run)",
    "faulthandler.is_enabled": "whether the test runner enabled faulthandler",
}
PROBE_ATTRS = {"sys.argv": "the interpreter's arguments (the test runner's command line)", "sys.orig_argv": "the interpreter's arguments",
               "sys.flags": "the interpreter's flags (python -O, -I)",
               "sys.executable": "the interpreter's path", "os.environb": "the whole environment",
               "posix.environ": "the whole environment", "nt.environ": "the whole environment",
               "sys.__stdout__": "the original standard output (the test runner captures it)",
               "sys.__stderr__": "the original standard error (the test runner captures it)"}
# Attribute names found only on the interpreter's reach APIs: reading one
# reaches them whatever the name of the object it is read from.
REACH_ATTRS = {"_getframe": "reads the interpreter's frames", "_current_frames": "reads the interpreter's frames",
               "findCaller": "reads its callers (a logger's findCaller)", "get_objects": "reaches every object of the process",
               "get_referrers": "reaches other objects", "get_referents": "reaches other objects",
               "settrace": "traces the interpreter", "setprofile": "traces the interpreter",
               "addaudithook": "hooks the interpreter", "_exit": "ends the process at once, past the test runner's reports"}
ENV_ONE = {"get", "pop", "setdefault", "__getitem__", "__contains__", "__setitem__", "__delitem__"}
ENV_FUNCS = {"os.getenv", "os.getenvb", "os.putenv", "os.unsetenv"}
# Built-in functions the resolver knows by their bare names.
BUILTIN_NAMES = {"getattr", "setattr", "delattr", "hasattr", "vars", "globals", "locals", "__import__", "exec", "eval",
                 "compile", "open", "breakpoint", "dir"}
# Calls that read or write an attribute by name: the index of the name
# argument (None: every argument is a name).
ATTR_CALLS = {"getattr": 1, "hasattr": 1, "setattr": 1, "delattr": 1, "inspect.getattr_static": 1,
              "operator.attrgetter": None, "operator.methodcaller": 0, "object.__getattribute__": 1,
              "type.__getattribute__": 1, "object.__setattr__": 1, "type.__setattr__": 1, "object.__delattr__": 1}
# The equality comparisons, and what each must return, whatever it is
# compared with, for an assertion of equality to hold. (An ordering that
# ignores its operand is an honest sentinel's — Infinity is greater than
# everything — and membership a universal set's: only equality, the
# oracle of nearly every assertion, is judged.)
COMPARISONS = {"__eq__": True, "__ne__": False}
PICKLE_LOADS = {"pickle.loads", "pickle.load", "pickle.Unpickler", "_pickle.loads", "_pickle.load"}
# What test code may use of the runner: pytest's public API, mocks.
TEST_RUNNER_OK = {"pytest", "unittest.mock", "mock"}


def canon(name):
    """name with a builtins. prefix of a built-in function dropped."""
    if name is not None and name.startswith("builtins.") and name[len("builtins."):] in BUILTIN_NAMES:
        return name[len("builtins."):]
    return name


def suffix(name, table):
    """The key of table that name is, or (for a dotted key) ends with
    after a dot, or None."""
    name = canon(name)
    if name is None:
        return None
    if name in table:
        return name
    parts = name.split(".")
    for i in range(1, len(parts) - 1):
        s = ".".join(parts[i:])
        if s in table:
            return s
    return None


def const_str(node):
    s = scalar(node) if node is not None else None
    return s["v"] if s is not None and s["k"] == "s" else None


def maybe_internal(node):
    """Whether a name built by node (an f-string, a sum, a % or .format of
    a string) may name an interpreter internal (INTERNALS, a dunder):
    False only when it provably starts with a constant that begins no such
    name ("visit_", "_handle_"), or is a constant that is none."""
    while True:
        if isinstance(node, ast.JoinedStr) and node.values:
            node = node.values[0]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            node = node.left
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            node = node.func.value
        else:
            break
    s = const_str(node)
    if not s or s.startswith("__"):
        return True
    if s == "_":
        # "_" + name, a private attribute's name: a dunder would need a
        # name starting with "_" built elsewhere (see names_internal).
        return False
    return any(a.startswith(s) or s.startswith(a) for a in INTERNALS)


def fold(node, env=None, depth=0):
    """The string a constant expression builds ("__co" + "de__",
    "".join([...]), "__edoc__"[::-1], chr(95) * 2, an f-string of
    constants), or None. env maps names bound once to such a string."""
    if depth > 20:
        return None
    s = const_str(node)
    if s is not None:
        return s
    if isinstance(node, ast.Name) and env is not None:
        return env.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = fold(node.left, env, depth + 1), fold(node.right, env, depth + 1)
        return a + b if a is not None and b is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        a, b = fold(node.left, env, depth + 1), node.right
        if a is not None and isinstance(b, ast.Constant) and type(b.value) is int and 0 <= b.value <= 64:
            return a * b.value
        return None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                v = v.value
            f = fold(v, env, depth + 1)
            if f is None:
                return None
            parts.append(f)
        return "".join(parts)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        base = fold(node.value, env, depth + 1)
        bounds = []
        for b in (node.slice.lower, node.slice.upper, node.slice.step):
            if b is None:
                bounds.append(None)
            elif isinstance(b, ast.Constant) and type(b.value) is int:
                bounds.append(b.value)
            elif isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) and isinstance(b.operand, ast.Constant) \
                    and type(b.operand.value) is int:
                bounds.append(-b.operand.value)
            else:
                return None
        if base is None or bounds[2] == 0:
            return None
        return base[bounds[0]:bounds[1]:bounds[2]]
    if isinstance(node, ast.Call) and not node.keywords:
        f = node.func
        if isinstance(f, ast.Name) and f.id == "chr" and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
                and type(node.args[0].value) is int and 0 <= node.args[0].value < 0x110000:
            return chr(node.args[0].value)
        if isinstance(f, ast.Name) and f.id in ("str", "reversed") and len(node.args) == 1:
            v = fold(node.args[0], env, depth + 1)
            return None if v is None else (v if f.id == "str" else v[::-1])
        if isinstance(f, ast.Attribute):
            base = fold(f.value, env, depth + 1)
            if base is None:
                return None
            if f.attr == "join" and len(node.args) == 1:
                a = node.args[0]
                if isinstance(a, (ast.List, ast.Tuple)):
                    parts = [fold(e, env, depth + 1) for e in a.elts]
                    return None if any(p is None for p in parts) else base.join(parts)
                v = fold(a, env, depth + 1)
                return None if v is None else base.join(v)
            if f.attr in ("upper", "lower", "strip", "lstrip", "rstrip", "title", "casefold") and not node.args:
                return getattr(base, f.attr)()
            if f.attr == "replace" and len(node.args) == 2:
                a, b = fold(node.args[0], env, depth + 1), fold(node.args[1], env, depth + 1)
                return None if a is None or b is None else base.replace(a, b)
    return None


def plain(node):
    """A name, attribute, subscript or call: a value from elsewhere, not a
    string built here."""
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call))


class Analysis:
    def __init__(self, s, cfg, harness=False):
        self.s = s
        self.cfg = cfg
        self.harness = harness  # test code: only what reaches the runner
        self.reach = []
        self.probes = []
        self.aliases = {}
        self.parents = {}
        self.in_function = set()
        for n in ast.walk(s.tree):
            for c in ast.iter_child_nodes(n):
                self.parents[id(c)] = n
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for c in ast.walk(n):
                    if c is not n:
                        self.in_function.add(id(c))
        for n in ast.walk(s.tree):
            if isinstance(n, ast.Import):
                for a in n.names:
                    if a.asname:
                        self.aliases[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        self.aliases[top] = top
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                for a in n.names:
                    if a.name != "*":
                        self.aliases[a.asname or a.name] = n.module + "." + a.name
        # Names bound to module-valued expressions, to a fixed point.
        bindings = []
        for n in ast.walk(s.tree):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    bindings.extend(self.pairs(t, n.value))
            elif isinstance(n, (ast.AnnAssign, ast.NamedExpr)) and n.value is not None:
                bindings.extend(self.pairs(n.target, n.value))
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                for item in n.items:
                    if item.optional_vars is not None:
                        bindings.extend(self.pairs(item.optional_vars, item.context_expr))
        for _ in range(len(bindings) + 1):
            grew = False
            for name, value in bindings:
                if name in self.aliases:
                    continue
                r = self.resolve(value)
                if r is not None:
                    self.aliases[name] = r
                    grew = True
            if not grew:
                break
        # Names bound once to a string a constant expression builds.
        self.consts = {}
        counts = {}
        for name, _ in bindings:
            counts[name] = counts.get(name, 0) + 1
        for _ in range(min(len(bindings), 50) + 1):
            grew = False
            for name, value in bindings:
                if counts[name] == 1 and name not in self.consts:
                    v = fold(value, self.consts)
                    if v is not None:
                        self.consts[name] = v
                        grew = True
            if not grew:
                break
        # Names that may hold an internal's name: bound to a string built
        # so that it may be one, or to what lists an object's attributes
        # (dir(), vars(), __dict__), directly or by iterating over it.
        self.tainted = {}
        loops = []
        for n in ast.walk(s.tree):
            if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                loops.append((n.target, n.iter))
        for _ in range(min(len(bindings) + len(loops), 50) + 1):
            for name, value in bindings + [(t.id, it) for t, it in loops if isinstance(t, ast.Name)]:
                why = self.names_internal(value)
                if why and name not in self.tainted:
                    self.tainted[name] = why

    def names_internal(self, node):
        """Why a value may be (or list) an internal's name, or None."""
        for m in ast.walk(node):
            v = const_str(m)
            if v is not None and len(v) >= 2 and any(a.startswith(v) and a != v for a in INTERNALS):
                return "a part of an internal's name"
            if isinstance(m, (ast.JoinedStr, ast.BinOp)) and not plain(m) and maybe_internal(m):
                s = const_str(m.values[0] if isinstance(m, ast.JoinedStr) and m.values else getattr(m, "left", None))
                if s is not None or isinstance(m, ast.JoinedStr):
                    return "a name built so that it may be an internal's"
            if isinstance(m, ast.Call) and canon(self.resolve(m.func)) in ("dir", "vars"):
                return "an attribute it listed (%s)" % canon(self.resolve(m.func))
            if isinstance(m, ast.Attribute) and m.attr == "__dict__":
                return "an attribute it listed (__dict__)"
            if isinstance(m, ast.Name) and m.id in getattr(self, "tainted", {}):
                return self.tainted[m.id]
        return None

    def pairs(self, target, value):
        if isinstance(target, ast.Name):
            return [(target.id, value)]
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            out = []
            for t, v in zip(target.elts, value.elts):
                out.extend(self.pairs(t, v))
            return out
        return []

    def resolve(self, node):
        """The dotted name of a module (or of something in one) that node
        evaluates to, through imports and module-valued names; None when
        it is not known to be such."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id == "__builtins__":
                return "builtins"
            if node.id in BUILTIN_NAMES:
                return node.id
            return None
        if isinstance(node, ast.Attribute):
            r = self.resolve(node.value)
            return None if r is None else r + "." + node.attr
        if isinstance(node, ast.Call):
            f = self.callee(node)
            if f in DYNAMIC_IMPORTS:
                return const_str(node.args[0]) if node.args else None
            if f == "getattr" and len(node.args) >= 2:
                r, name = self.resolve(node.args[0]), const_str(node.args[1])
                return None if r is None or name is None else r + "." + name
            if f == "sys.modules.get" and node.args:
                return const_str(node.args[0])
            if f is not None and f.endswith(".get") and node.args and isinstance(node.func, ast.Attribute) \
                    and self.namespace_of(node.func.value) is not None:
                name = const_str(node.args[0])
                return None if name is None else self.namespace_of(node.func.value) + "." + name
            return None
        if isinstance(node, ast.Subscript):
            key = const_str(node.slice.value if type(node.slice).__name__ == "Index" else node.slice)
            if key is None:
                return None
            if suffix(self.resolve(node.value), SYS_HOOKS) == "sys.modules":
                return key
            ns = self.namespace_of(node.value)
            return None if ns is None else ns + "." + key
        return None

    def namespace_of(self, node):
        """The module whose namespace node is (vars(m), m.__dict__), or None."""
        if isinstance(node, ast.Call) and self.callee(node) == "vars" and len(node.args) == 1:
            return self.resolve(node.args[0])
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return self.resolve(node.value)
        return None

    def callee(self, call):
        return canon(self.resolve(call.func))

    def add(self, into, node, what, test=False):
        """A finding; in test code only those marked test (reach into the
        runner) count."""
        if self.harness and (into is not self.reach or not test):
            return
        into.append({"line": node.lineno, "what": what})

    def gate(self, name):
        g = self.cfg["gate"]
        return name in g["names"] or any(name.startswith(p) for p in g["prefixes"])

    def place(self, s):
        p = self.cfg["places"]
        return s in p["names"] or any(s == q or s.startswith(q + "/") for q in p["prefixes"])

    def runner(self, module):
        top = module.split(".")[0]
        hit = top in self.cfg["runner"] or top.startswith("pytest_") or top.startswith("_pytest") \
            or module == "unittest.mock" or module.startswith("unittest.mock.") \
            or module == "test.support" or module.startswith("test.support.")
        if hit and self.harness:
            # Test code imports pytest and mocks; its plugins (pytest_*)
            # too. The runner's internals stay out of reach.
            if top.startswith("pytest_") or top in TEST_RUNNER_OK or module.startswith("unittest.mock") or module.startswith("test.support"):
                return False
        return hit

    def docstring(self, node):
        p = self.parents.get(id(node))
        return isinstance(p, ast.Expr)

    def run(self):
        env_nodes = set()  # os.environ nodes used for one constant name
        for n in ast.walk(self.s.tree):
            if isinstance(n, ast.Import):
                for a in n.names:
                    if self.runner(a.name):
                        self.add(self.reach, n, "imports %s" % a.name, True)
                    elif a.name == "__main__":
                        self.add(self.probes, n, "imports __main__, the test runner's entry point")
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                if self.runner(n.module):
                    self.add(self.reach, n, "imports from %s" % n.module, True)
                elif n.module == "unittest" and any(a.name == "mock" for a in n.names) and self.runner("unittest.mock"):
                    self.add(self.reach, n, "imports unittest.mock", True)
                elif n.module == "__main__":
                    self.add(self.probes, n, "imports from __main__, the test runner's entry point")
                for a in n.names:
                    full = n.module + "." + a.name
                    if suffix(full, SYS_HOOKS):
                        self.add(self.reach, n, "uses %s, through which any loaded module can be read or replaced" % suffix(full, SYS_HOOKS), True)
                    elif suffix(full, REACH_CALLS):
                        self.add(self.reach, n, "imports %s: %s" % (full, REACH_CALLS[suffix(full, REACH_CALLS)]), True)
            self.writes(n)
            if isinstance(n, ast.Call):
                self.call(n, env_nodes)
            if isinstance(n, ast.Subscript):
                base = suffix(self.resolve(n.value), {"os.environ"})
                if base and isinstance(n.ctx, ast.Load):
                    env_nodes.add(id(n.value))
                    self.env_name(n, n.slice.value if type(n.slice).__name__ == "Index" else n.slice, "os.environ[...]")
                elif base:
                    env_nodes.add(id(n.value))
                if suffix(self.resolve(n.value), SYS_HOOKS) == "sys.modules" or self.namespace_of(n.value) is not None:
                    key = n.slice.value if type(n.slice).__name__ == "Index" else n.slice
                    r = self.resolve(n)
                    if r is None and const_str(key) is None:
                        self.add(self.reach, n, "looks a module or a module's name up by a computed name (%s)" % self.s.text(n), True)
                    elif r is not None and self.runner(r):
                        self.add(self.reach, n, "reaches %s, the test runner's module (%s)" % (r, self.s.text(n)), True)
            if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn)):
                if suffix(self.resolve(n.comparators[0]), {"os.environ"}):
                    env_nodes.add(id(n.comparators[0]))
                    self.env_name(n, n.left, "in os.environ")
            if isinstance(n, ast.Attribute):
                if n.attr in REACH_ATTRS and not suffix(self.resolve(n), REACH_CALLS):
                    self.add(self.reach, n, "%s (.%s)" % (REACH_ATTRS[n.attr], n.attr), True)
                if n.attr in INTERNALS:
                    self.add(self.reach, n, "reads %s, %s" % (n.attr, INTERNALS[n.attr]), True)
                if n.attr == "__dict__" and self.resolve(n.value) is not None:
                    self.add(self.reach, n, "reads the namespace of %s, another module" % self.resolve(n.value), True)
            if isinstance(n, (ast.Attribute, ast.Name, ast.Subscript)) and isinstance(getattr(n, "ctx", None), ast.Load) \
                    or isinstance(n, ast.Call):
                self.refs(n)
            if isinstance(n, (ast.BinOp, ast.JoinedStr, ast.Call, ast.Subscript)) and not isinstance(self.parents.get(id(n)), (ast.BinOp, ast.JoinedStr)):
                v = fold(n, self.consts)
                if v is not None and (v in INTERNALS or v in REACH_ATTRS or v in COMPARISONS or v in ("__import__", "modules")
                                      or self.runner(v) or v.startswith("SEALGATE_") or v == "PYTEST_CURRENT_TEST"):
                    self.add(self.reach, n, "builds the name %s (%s)" % (v, self.s.text(n)), True)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and not self.docstring(n):
                v = n.value
                if self.place(v):
                    self.add(self.probes, n, "names %s, a path that tells where it runs" % json.dumps(v))
                elif v.startswith("SEALGATE_") or v == "PYTEST_CURRENT_TEST":
                    self.add(self.probes, n, "names the gate's variable %s" % v)
                elif "sealgate" in v.lower():
                    self.add(self.probes, n, "names the gate (%s)" % json.dumps(v[:40]))
                    if self.harness:
                        self.add(self.reach, n, "names the gate (%s)" % json.dumps(v[:40]), True)
                if v in COMPARISONS:
                    self.add(self.reach, n, "names %s, a comparison a class can make vacuous" % v)
                if v in INTERNALS:
                    self.add(self.reach, n, "names %s, %s" % (v, INTERNALS[v]), True)
                elif "{" in v and any("." + a in v for a in INTERNALS):
                    self.add(self.reach, n, "formats an interpreter internal (%s)" % json.dumps(v[:40]), True)
                p = self.parents.get(id(n))
                imported = isinstance(p, ast.Call) and self.callee(p) in DYNAMIC_IMPORTS
                if len(v) < 100 and all(q.isidentifier() for q in v.split(".")) and self.runner(v) and not imported:
                    self.add(self.probes, n, "names %s, a module of the test runner" % v)
            if isinstance(n, ast.ClassDef):
                self.comparisons(n)
        # os.environ used whole.
        for n in ast.walk(self.s.tree):
            if isinstance(n, (ast.Attribute, ast.Name)) and id(n) not in env_nodes and isinstance(getattr(n, "ctx", None), ast.Load):
                if isinstance(n, ast.Name) and n.id not in self.aliases:
                    continue
                if suffix(self.resolve(n), {"os.environ"}):
                    self.add(self.probes, n, "reads the whole environment (os.environ)")
        # __debug__: python -O turns it off, and with it what it guards.
        for n in ast.walk(self.s.tree):
            if isinstance(n, ast.Name) and n.id == "__debug__":
                self.add(self.probes, n, "reads __debug__, which python -O turns off: what it guards runs only where the interpreter is not optimising")
        return self

    def refs(self, n):
        """What a name, attribute, lookup or call resolved through the
        module's imports refers to."""
        name = self.resolve(n)
        if name is None:
            return
        hook = suffix(name, SYS_HOOKS)
        if hook:
            self.add(self.reach, n, "uses %s, through which any loaded module can be read or replaced" % hook,
                     hook != "sys.modules" or not self.module_by_name(n))
            if hook == "sys.modules":
                self.add(self.probes, n, "reads sys.modules, which tells which modules (the test runner's) are loaded")
        probe = suffix(name, PROBE_ATTRS)
        if probe:
            self.add(self.probes, n, "reads %s (%s)" % (PROBE_ATTRS[probe], probe))
        call = suffix(name, REACH_CALLS)
        if call:
            # exec, eval and compile in test code test code generation;
            # runpy and importlib run or reload modules. The rest reaches
            # the runner from tests too.
            harmless = call in ("exec", "eval", "compile") or call.startswith("runpy.") or call.startswith("importlib.")
            self.add(self.reach, n, REACH_CALLS[call], not harmless)
        pc = suffix(name, PROBE_CALLS)
        if pc:
            self.add(self.probes, n, "reads %s (%s)" % (PROBE_CALLS[pc], pc))
        if isinstance(n, ast.Name) and n.id == "__builtins__":
            self.add(self.reach, n, "uses __builtins__, every module's builtins", True)
        if name == "globals" and isinstance(n, ast.Name):
            self.globals_use(n)

    def module_by_name(self, n):
        """Whether a use of sys.modules (in test code) names the one module
        it reads or writes by a constant: sys.modules["x"],
        sys.modules.pop("x"), "x" in sys.modules, or hands sys.modules to
        monkeypatch.setitem/delitem. Listing, searching or copying the
        loaded modules is none of a test's business."""
        p = self.parents.get(id(n))
        if isinstance(p, ast.Subscript) and p.value is n:
            return const_str(p.slice.value if type(p.slice).__name__ == "Index" else p.slice) is not None
        if isinstance(p, ast.Attribute) and p.value is n and p.attr in ("pop", "get", "setdefault", "__contains__"):
            call = self.parents.get(id(p))
            return isinstance(call, ast.Call) and call.func is p and bool(call.args) and const_str(call.args[0]) is not None
        if isinstance(p, ast.Compare) and n in p.comparators:
            return const_str(p.left) is not None
        if isinstance(p, ast.Call) and n in p.args and isinstance(p.func, ast.Attribute) and p.func.attr in ("setitem", "delitem"):
            return len(p.args) >= 2 and const_str(p.args[1]) is not None
        return False

    def writes(self, n):
        """Writes (assignment, augmented assignment, del) to an attribute
        or item of another module, or to a comparison of a class."""
        targets = []
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            targets = [n.target]
        elif isinstance(n, ast.Delete):
            targets = n.targets
        for t in targets:
            for el in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                if isinstance(el, ast.Starred):
                    el = el.value
                if not isinstance(el, (ast.Attribute, ast.Subscript)):
                    continue
                if isinstance(el, ast.Attribute) and el.attr in COMPARISONS:
                    self.add(self.reach, n, "replaces %s, so comparisons with it need not hold" % self.s.text(el))
                    continue
                owner = self.resolve(el.value)
                if owner is None and isinstance(el, ast.Subscript):
                    owner = self.namespace_of(el.value)
                if owner is None:
                    continue
                what = "writes %s, state of another module" % self.s.text(el)
                # In test code a module-level write (at collection) or a
                # write to the runner, builtins or the import system is
                # harness; a test function setting a module's attribute
                # is a test's own business.
                top = owner.split(".")[0]
                test = id(n) not in self.in_function or self.runner(owner) or top in ("builtins", "sys", "pytest", "_pytest", "pluggy")
                self.add(self.reach, n, what, test)

    def call(self, n, env_nodes):
        name = self.callee(n)
        if name is None:
            # A call whose callee is not a module's: only the attribute-name
            # forms matter (x.__getattribute__(...) is an attribute read).
            return
        if name in DYNAMIC_IMPORTS:
            s = const_str(n.args[0]) if n.args else None
            if s is None:
                self.add(self.reach, n, "imports a module whose name is computed (%s)" % name)
            elif self.runner(s):
                self.add(self.reach, n, "imports %s (%s)" % (s, name), True)
            return
        if suffix(name, ATTR_CALLS) or name in ATTR_CALLS:
            self.attr_call(n, suffix(name, ATTR_CALLS) or name)
        if name == "vars" and len(n.args) == 1 and self.resolve(n.args[0]) is not None:
            self.add(self.reach, n, "reads the namespace of %s, another module (vars)" % self.resolve(n.args[0]), True)
        elif name == "vars" and not n.args:
            self.globals_use(n.func)
        if suffix(name, PICKLE_LOADS) and any(isinstance(m, ast.Constant) and isinstance(m.value, bytes) for a in n.args for m in ast.walk(a)):
            self.add(self.reach, n, "unpickles bytes it holds, which can call anything (%s)" % suffix(name, PICKLE_LOADS), True)
        if suffix(name, ENV_FUNCS):
            self.env_name(n, n.args[0] if n.args else None, suffix(name, ENV_FUNCS))
        elif name in ("open", "io.open", "builtins.open") and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == "__file__":
            self.add(self.probes, n, "reads its own source (open(__file__))")
        # os.environ.get(NAME) and the like.
        if isinstance(n.func, ast.Attribute) and n.func.attr in ENV_ONE and suffix(self.resolve(n.func.value), {"os.environ"}):
            env_nodes.add(id(n.func.value))
            self.env_name(n, n.args[0] if n.args else None, "os.environ." + n.func.attr)

    def attr_call(self, n, name):
        idx = ATTR_CALLS[name]
        names = n.args if idx is None else n.args[idx:idx + 1]
        owner = self.resolve(n.args[0]) if n.args and idx else None
        for a in names:
            v = const_str(a)
            if v is not None:
                if v in COMPARISONS and name in ("setattr", "object.__setattr__", "type.__setattr__"):
                    self.add(self.reach, n, "replaces %s, so comparisons with it need not hold (%s)" % (v, name))
                elif owner is not None and name in ("setattr", "delattr", "object.__setattr__", "type.__setattr__", "object.__delattr__"):
                    self.add(self.reach, n, "%s on %s, another module" % (name, self.s.text(n.args[0])),
                             id(n) not in self.in_function or self.runner(owner))
                continue
            if owner is not None:
                self.add(self.reach, n, "%s of an attribute of %s, another module, whose name is computed" % (name, owner), True)
            elif isinstance(a, ast.Name) and a.id in self.tainted:
                self.add(self.reach, n, "%s of an attribute named by %s, %s" % (name, a.id, self.tainted[a.id]), True)
            elif not plain(a) and maybe_internal(a):
                self.add(self.reach, n, "%s of an attribute whose name is computed, which can be any object's internals" % name, True)

    def globals_use(self, node):
        """globals() or vars() read by a constant name is the module's own
        business; by a computed name, or handed on whole, it reaches the
        builtins and everything the module imported."""
        call = self.parents.get(id(node))
        if not (isinstance(call, ast.Call) and call.func is node):
            self.add(self.reach, node, "hands on its module's namespace (%s), which holds the builtins" % self.s.text(node), True)
            return
        use = self.parents.get(id(call))
        key = None
        if isinstance(use, ast.Subscript) and use.value is call:
            key = use.slice.value if type(use.slice).__name__ == "Index" else use.slice
        elif isinstance(use, ast.Attribute) and use.value is call and use.attr in ("get", "__getitem__", "pop", "setdefault"):
            outer = self.parents.get(id(use))
            if isinstance(outer, ast.Call) and outer.args:
                key = outer.args[0]
        elif isinstance(use, ast.Attribute) and use.value is call and use.attr in ("update", "__setitem__"):
            return  # binds names of its own module
        v = const_str(key) if key is not None else None
        if v is not None and v != "__builtins__":
            return
        self.add(self.reach, node, "reads its module's namespace by a computed name (%s), which holds the builtins" % self.s.text(call or node), True)

    def comparisons(self, cls):
        """A comparison a class defines that does not depend on what it is
        compared with makes any assertion of it hold."""
        for st in cls.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name in COMPARISONS:
                why = self.vacuous(st.name, st.args, st.body)
            elif isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id in COMPARISONS for t in st.targets):
                name = [t.id for t in st.targets if isinstance(t, ast.Name) and t.id in COMPARISONS][0]
                v = st.value
                if isinstance(v, ast.Lambda):
                    why = self.vacuous(name, v.args, [ast.Return(value=v.body)])
                elif isinstance(v, ast.Attribute) and v.attr == name:
                    why = None  # float.__eq__: another type's own comparison
                else:
                    why = "binds it to %s" % self.s.text(v)
            else:
                continue
            if why:
                self.add(self.reach, st, "defines %s.%s, which %s: any comparison with it holds" % (cls.name, name if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) else st.name, why))

    def vacuous(self, name, args, body):
        """Why an equality does not depend on what it is compared with, or
        None: it returns a value without reading its operand, or returns
        the answer an assertion wants on every path. An equality that
        only raises or declines (NotImplemented) is an abstract one."""
        params = [a.arg for a in getattr(args, "posonlyargs", []) + args.args]
        other = params[1] if len(params) >= 2 else (args.vararg.arg if args.vararg else None)
        loads = set()
        returns = []
        for st in body:
            for m in ast.walk(st):
                if isinstance(m, ast.Name) and isinstance(m.ctx, ast.Load):
                    loads.add(m.id)
                if isinstance(m, ast.Return):
                    returns.append(m.value)
        answers = [r for r in returns if r is not None and not (isinstance(r, ast.Name) and r.id == "NotImplemented")
                   and not (isinstance(r, ast.Constant) and r.value is None)]
        if (other is None or other not in loads) and answers:
            return "ignores what it is compared with"
        want = COMPARISONS[name]
        if returns and all(isinstance(r, ast.Constant) and r.value is want for r in returns):
            return "returns %s whatever it is compared with" % want
        return None

    def env_name(self, node, arg, how):
        s = scalar(arg) if arg is not None else None
        if s is None or s["k"] != "s":
            self.add(self.probes, node, "%s of a variable whose name is computed" % how)
        elif self.gate(s["v"]):
            self.add(self.probes, node, "%s of the gate's variable %s" % (how, s["v"]))


def parse(src):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(src)


def source(req, cfg):
    src = base64.b64decode(req["src"])
    try:
        tree = parse(src)
    except (SyntaxError, ValueError, UnicodeDecodeError, MemoryError, RecursionError) as e:
        return {"error": "%s: %s" % (type(e).__name__, e)}
    s = Source(src, tree)
    harness = req["kind"] == "harness"
    try:
        a = Analysis(s, cfg, harness).run()
    except RecursionError:
        return {"error": "RecursionError: nested too deeply to analyse"}
    reach = sorted(a.reach, key=lambda f: (f["line"], f["what"]))
    if harness:
        return {"error": "", "reach": reach}
    lines = set(req.get("lines") or [])
    return {"error": "", "reach": reach, "probes": sorted(a.probes, key=lambda f: (f["line"], f["what"])),
            "lits": lits(tree), "decisions": decisions(s, lines)}


def test(req):
    src = base64.b64decode(req["src"])
    try:
        tree = parse(src)
    except (SyntaxError, ValueError, UnicodeDecodeError, MemoryError, RecursionError) as e:
        return {"error": "%s: %s" % (type(e).__name__, e), "found": False, "lits": []}
    path = req["test"].split("[", 1)[0].split("::")
    scope, found, decorators = tree.body, None, []
    for i, name in enumerate(path):
        nxt = None
        for st in scope:
            last = i == len(path) - 1
            if last and isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == name:
                nxt = st
            elif not last and isinstance(st, ast.ClassDef) and st.name == name:
                nxt = st
        if nxt is None:
            return {"error": "", "found": False, "lits": []}
        decorators.extend(nxt.decorator_list)
        if i == len(path) - 1:
            found = nxt
        else:
            scope = nxt.body
    module = {}
    for st in tree.body:
        if isinstance(st, ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Name):
                    module.setdefault(t.id, []).append(st.value)
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            module.setdefault(st.target.id, []).append(st.value)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            module.setdefault(st.name, []).append(st)  # fixtures by name
    out, seen = [], set()
    queue = [found] + decorators
    for a in found.args.args + found.args.kwonlyargs:
        # A parameter names a fixture: its parameters are the test's inputs.
        queue.extend(module.get(a.arg, []))
        seen.add(a.arg)
    while queue:
        n = queue.pop(0)
        out.extend(lits(n))
        for m in ast.walk(n):
            if isinstance(m, ast.Name) and m.id not in seen:
                seen.add(m.id)
                queue.extend(module.get(m.id, []))
    return {"error": "", "found": True, "lits": out}


def main():
    cfg = json.load(sys.stdin)
    results = []
    for req in cfg["requests"]:
        if req["kind"] in ("source", "harness"):
            results.append(source(req, cfg))
        else:
            results.append(test(req))
    json.dump({"results": results}, sys.stdout, sort_keys=True, ensure_ascii=True)


main()
