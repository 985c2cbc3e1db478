# inspect.py reads Python sources for the Go package inspect, which embeds
# it and runs it as `python -I -S -c <this file>` with the sealed
# interpreter. It parses with ast and never imports or runs the sources.
#
# Input on stdin: one JSON object
#   {"gate": {"prefixes": [...], "names": [...]},
#    "places": {"prefixes": [...], "names": [...]},
#    "runner": [...],                       # top-level modules of the runner
#    "requests": [{"kind": "source", "src": base64, "lines": [int...]},
#                 {"kind": "test", "src": base64, "test": "TestK::test_x"}]}
# Output on stdout: {"results": [...]}, one per request, in order:
#   source: {"error": str, "reach": [{"line", "what"}], "probes": [...],
#            "lits": [lit...], "decisions": [decision...]}
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


def lits(node):
    """Every literal under node: scalars (signed numbers whole) and
    all-literal composites, at any depth."""
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


def dotted(node, aliases):
    """The dotted name a Name or Attribute chain resolves to through the
    module's imports, and whether its root is bound by an import."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None, False
    bound = node.id in aliases
    root = aliases.get(node.id, node.id)
    return ".".join([root] + list(reversed(parts))), bound


def root_name(node):
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


FRAME_ATTRS = {"f_globals", "f_locals", "f_back", "f_builtins", "tb_frame", "gi_frame", "cr_frame", "ag_frame", "__globals__"}
REACH_CALLS = {
    "sys._getframe": "reads the interpreter's frames (sys._getframe)",
    "inspect.currentframe": "reads the interpreter's frames (inspect.currentframe)",
    "inspect.stack": "reads the interpreter's frames (inspect.stack)",
    "inspect.getouterframes": "reads the interpreter's frames (inspect.getouterframes)",
    "gc.get_objects": "reaches every object of the process (gc.get_objects)",
    "gc.get_referrers": "reaches other objects (gc.get_referrers)",
    "gc.get_referents": "reaches other objects (gc.get_referents)",
    "sys.settrace": "traces the interpreter (sys.settrace)",
    "sys.setprofile": "traces the interpreter (sys.setprofile)",
    "threading.settrace": "traces the interpreter (threading.settrace)",
    "threading.setprofile": "traces the interpreter (threading.setprofile)",
    "sys.addaudithook": "hooks the interpreter (sys.addaudithook)",
    "atexit.register": "runs code at interpreter exit, after the test runner's reports (atexit.register)",
    "exec": "runs code it builds at run time (exec)",
    "eval": "runs code it builds at run time (eval)",
    "compile": "compiles code at run time (compile)",
    "runpy.run_module": "runs another module (runpy)",
    "runpy.run_path": "runs another file (runpy)",
    "importlib.util.spec_from_file_location": "loads a module from a file (importlib.util)",
    "importlib.util.module_from_spec": "loads a module from a spec (importlib.util)",
    "importlib.reload": "reloads a module (importlib.reload)",
}
DYNAMIC_IMPORTS = {"importlib.import_module", "__import__", "importlib.__import__", "builtins.__import__"}
SYS_HOOKS = {"sys.modules", "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache"}
PROBE_CALLS = {
    "socket.gethostname": "the host name", "socket.getfqdn": "the host name", "platform.node": "the host name",
    "platform.uname": "the host", "os.uname": "the host", "os.getcwd": "the working directory", "os.getcwdb": "the working directory",
    "os.getpid": "its process id", "os.getppid": "its parent's process id", "os.getuid": "its user id", "os.geteuid": "its user id",
    "os.getgid": "its group id", "os.getegid": "its group id", "os.getlogin": "the user", "getpass.getuser": "the user",
    "pwd.getpwuid": "a user", "resource.getrlimit": "its resource limits",
    "traceback.extract_stack": "its callers", "traceback.format_stack": "its callers", "traceback.print_stack": "its callers",
    "traceback.walk_stack": "its callers", "inspect.getsource": "its own source", "inspect.getsourcelines": "its own source",
    "inspect.getsourcefile": "its own source", "linecache.getline": "source lines", "linecache.getlines": "source lines",
}
PROBE_ATTRS = {"sys.argv": "the interpreter's arguments (the test runner's command line)", "sys.orig_argv": "the interpreter's arguments",
               "sys.executable": "the interpreter's path", "os.environb": "the whole environment"}
ENV_ONE = {"get", "pop", "setdefault", "__getitem__", "__contains__", "__setitem__", "__delitem__"}
ENV_FUNCS = {"os.getenv", "os.getenvb", "os.putenv", "os.unsetenv"}


class Analysis:
    def __init__(self, s, cfg):
        self.s = s
        self.cfg = cfg
        self.reach = []
        self.probes = []
        self.aliases = {}
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

    def add(self, into, node, what):
        into.append({"line": node.lineno, "what": what})

    def gate(self, name):
        g = self.cfg["gate"]
        return name in g["names"] or any(name.startswith(p) for p in g["prefixes"])

    def place(self, s):
        p = self.cfg["places"]
        return s in p["names"] or any(s == q or s.startswith(q + "/") for q in p["prefixes"])

    def runner(self, module):
        top = module.split(".")[0]
        return top in self.cfg["runner"] or top.startswith("pytest_") or top.startswith("_pytest") \
            or module in ("unittest.mock",)

    def run(self):
        env_nodes = set()  # os.environ nodes used for one constant name
        for n in ast.walk(self.s.tree):
            # Imports of the runner.
            if isinstance(n, ast.Import):
                for a in n.names:
                    if self.runner(a.name):
                        self.add(self.reach, n, "imports %s" % a.name)
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                if self.runner(n.module):
                    self.add(self.reach, n, "imports from %s" % n.module)
                elif n.module == "unittest":
                    for a in n.names:
                        if a.name == "mock":
                            self.add(self.reach, n, "imports unittest.mock")
                if n.module == "sys":
                    for a in n.names:
                        if "sys." + a.name in SYS_HOOKS:
                            self.add(self.reach, n, "uses sys.%s, through which any loaded module can be read or replaced" % a.name)
            # Writes to other modules' attributes and items.
            targets = []
            if isinstance(n, ast.Assign):
                targets = n.targets
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
                targets = [n.target]
            elif isinstance(n, ast.Delete):
                targets = n.targets
            for t in targets:
                for el in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                    if isinstance(el, (ast.Attribute, ast.Subscript)):
                        root = root_name(el)
                        if root in self.aliases or root in ("builtins", "__builtins__"):
                            self.add(self.reach, n, "writes %s, state of another module" % self.s.text(el))
            if isinstance(n, ast.Call):
                name, bound = dotted(n.func, self.aliases)
                if name in ("setattr", "delattr") and n.args:
                    root = root_name(n.args[0])
                    if root in self.aliases or root in ("builtins", "__builtins__"):
                        self.add(self.reach, n, "%s on %s, another module" % (name, self.s.text(n.args[0])))
                elif name in DYNAMIC_IMPORTS:
                    arg = n.args[0] if n.args else None
                    s = scalar(arg) if arg is not None else None
                    if s is None or s["k"] != "s":
                        self.add(self.reach, n, "imports a module whose name is computed (%s)" % name)
                    elif self.runner(s["v"]):
                        self.add(self.reach, n, "imports %s (%s)" % (s["v"], name))
                elif name in REACH_CALLS:
                    self.add(self.reach, n, REACH_CALLS[name])
                elif name in PROBE_CALLS:
                    self.add(self.probes, n, "reads %s (%s)" % (PROBE_CALLS[name], name))
                elif name in ENV_FUNCS:
                    self.env_name(n, n.args[0] if n.args else None, name)
                elif name in ("open", "io.open", "builtins.open") and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == "__file__":
                    self.add(self.probes, n, "reads its own source (open(__file__))")
                # os.environ.get(NAME) and the like.
                if isinstance(n.func, ast.Attribute) and n.func.attr in ENV_ONE:
                    base, _ = dotted(n.func.value, self.aliases)
                    if base == "os.environ":
                        env_nodes.add(id(n.func.value))
                        self.env_name(n, n.args[0] if n.args else None, "os.environ." + n.func.attr)
                # Path(__file__).read_text() and the like.
                if isinstance(n.func, ast.Attribute) and n.func.attr in ("read_text", "read_bytes", "open") \
                        and isinstance(n.func.value, ast.Call) and n.func.value.args \
                        and isinstance(n.func.value.args[0], ast.Name) and n.func.value.args[0].id == "__file__":
                    self.add(self.probes, n, "reads its own source (%s of __file__)" % n.func.attr)
            if isinstance(n, ast.Subscript):
                base, _ = dotted(n.value, self.aliases)
                if base == "os.environ":
                    env_nodes.add(id(n.value))
                    self.env_name(n, n.slice.value if type(n.slice).__name__ == "Index" else n.slice, "os.environ[...]")
            if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn)):
                base, _ = dotted(n.comparators[0], self.aliases)
                if base == "os.environ":
                    env_nodes.add(id(n.comparators[0]))
                    self.env_name(n, n.left, "in os.environ")
            if isinstance(n, (ast.Attribute, ast.Name)) and isinstance(getattr(n, "ctx", None), ast.Load):
                name, bound = dotted(n, self.aliases)
                if isinstance(n, ast.Attribute) and n.attr in FRAME_ATTRS:
                    self.add(self.reach, n, "reads %s, another scope's state" % n.attr)
                if name in SYS_HOOKS and isinstance(n, ast.Attribute):
                    self.add(self.reach, n, "uses %s, through which any loaded module can be read or replaced" % name)
                    if name == "sys.modules":
                        self.add(self.probes, n, "reads sys.modules, which tells which modules (the test runner's) are loaded")
                if name in PROBE_ATTRS and isinstance(n, ast.Attribute):
                    self.add(self.probes, n, "reads %s (%s)" % (PROBE_ATTRS[name], name))
                if name == "__builtins__" and isinstance(n, ast.Name):
                    self.add(self.reach, n, "uses __builtins__, every module's builtins")
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                if self.place(n.value):
                    self.add(self.probes, n, "names %s, a path that tells where it runs" % json.dumps(n.value))
                elif n.value.startswith("SEALGATE_") or n.value == "PYTEST_CURRENT_TEST":
                    self.add(self.probes, n, "names the gate's variable %s" % n.value)
        # os.environ used whole.
        for n in ast.walk(self.s.tree):
            if isinstance(n, (ast.Attribute, ast.Name)) and id(n) not in env_nodes:
                if isinstance(n, ast.Name) and n.id not in self.aliases:
                    continue
                name, _ = dotted(n, self.aliases)
                if name == "os.environ":
                    self.add(self.probes, n, "reads the whole environment (os.environ)")
        return self

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
    a = Analysis(s, cfg).run()
    lines = set(req.get("lines") or [])
    return {"error": "", "reach": sorted(a.reach, key=lambda f: (f["line"], f["what"])),
            "probes": sorted(a.probes, key=lambda f: (f["line"], f["what"])),
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
        if req["kind"] == "source":
            results.append(source(req, cfg))
        else:
            results.append(test(req))
    json.dump({"results": results}, sys.stdout, sort_keys=True, ensure_ascii=True)


main()
