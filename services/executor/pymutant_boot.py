# The pytest plugin that applies a Python mutant in memory. The executor
# writes it, with the run's table below filled in, into the output
# directory of every process of a mutant job (outside the tree), puts that
# directory on PYTHONPATH and loads it with `-p <name>`; the name is new for
# every run, so the tree cannot shadow it, and pytest imports -p plugins
# before entry-point plugins, conftest.py files and test modules: before
# any code of the tree runs.
#
# The switch is the environment variable TABLE["var"], "<token> <marker
# path>". The plugin reads it and removes it, so the code under test does
# not see it; it hashes the token and looks the hash up in TABLE["mutants"]
# (SHA-256 of a token → the mutant's edit). A reference run carries a
# token that matches nothing: it looks the same to the code, and runs the
# original program. Every module whose file is one of TABLE["files"] is
# loaded by this plugin's loader in every run, compiled from its source
# on disk — with the active mutant's edit made, when it is in that file,
# and a call to TABLE["hit"] (a name bound in the module in every run)
# inserted before the innermost statement holding the edit: the first
# time the mutated code runs, the token is appended to the marker file,
# which the gate reads after the process ends. The file on disk is never
# changed.
#
# Every test report (node id, phase, outcome) is appended to
# reports.jsonl beside this file. With a mutant active, the session stops
# after the first test that fails in its call phase.
import ast
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import sys

TABLE = json.loads(TABLE_JSON)

_LINE_END = re.compile(b"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"


def _position(src, offset):
    """The (line, column) ast gives the byte at offset of src."""
    starts = [0] + [m.end() for m in _LINE_END.finditer(src)]
    line = 0
    lo, hi = 0, len(starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            line, lo = mid, mid + 1
        else:
            hi = mid
    col = offset - starts[line]
    if line == 0 and src.startswith(_BOM):
        col -= len(_BOM)
    return line + 1, col


def _first(stmt):
    lines = [(stmt.lineno, stmt.col_offset)]
    for d in getattr(stmt, "decorator_list", []):
        lines.append((d.lineno, d.col_offset))
    return min(lines)


def _bodies(stmt):
    out = []
    for f in ("body", "orelse", "finalbody"):
        v = getattr(stmt, f, None)
        if isinstance(v, list):
            out.append(v)
    for h in getattr(stmt, "handlers", []):
        out.append(h.body)
    for c in getattr(stmt, "cases", []):
        out.append(c.body)
    return out


def _instrument(tree, first, last, hit):
    """Insert `hit()` before the innermost statement holding the
    positions first to last; False when no statement holds them."""
    where = None
    lists = [tree.body]
    while lists:
        found = None
        for body in lists:
            for i, s in enumerate(body):
                if _first(s) <= first and last <= (s.end_lineno, s.end_col_offset):
                    found = (body, i, s)
                    break
            if found is not None:
                break
        if found is None:
            break
        where = found
        lists = _bodies(found[2])
    if where is None:
        return False
    body, i, s = where
    call = ast.Expr(value=ast.Call(func=ast.Name(id=hit, ctx=ast.Load()), args=[], keywords=[]))
    body.insert(i, ast.copy_location(call, s))
    ast.fix_missing_locations(tree)
    return True


class _Loader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname, path, rel, switch):
        super().__init__(fullname, path)
        self._rel = rel
        self._switch = switch

    def get_code(self, fullname):
        source = self.get_data(self.path)
        return self._switch.compile(self._rel, source, self.path)

    def exec_module(self, module):
        module.__dict__[TABLE["hit"]] = self._switch.hit
        super().exec_module(module)


class _Switch(object):
    def __init__(self):
        value = os.environ.pop(TABLE["var"], "")
        token, _, self._marker = value.partition(" ")
        self._token = token
        digest = hashlib.sha256(token.encode("ascii", "replace")).hexdigest()
        self.active = TABLE["mutants"].get(digest)
        root = os.getcwd()
        self._files = {}
        self._names = set()
        for rel in TABLE["files"]:
            self._files[os.path.realpath(os.path.join(root, rel))] = rel
            parts = rel.split("/")
            name = parts[-2] if parts[-1] == "__init__.py" and len(parts) > 1 else parts[-1][:-3]
            self._names.add(name)
        self._hit = False
        self._reports = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reports.jsonl")

    def hit(self):
        if self._hit:
            return
        self._hit = True
        try:
            with open(self._marker, "a") as f:
                f.write(self._token + "\n")
        except OSError:
            pass

    def compile(self, rel, source, path):
        m = self.active
        if m is None or m["path"] != rel:
            return compile(source, path, "exec", dont_inherit=True)
        start, end = m["start"], m["end"]
        repl = m["replacement"].encode("utf-8")
        if source[start:end] != m["original"].encode("utf-8"):
            # Not the file the mutant was planned for: the original runs,
            # and the marker stays empty.
            return compile(source, path, "exec", dont_inherit=True)
        mutated = source[:start] + repl + source[end:]
        tree = ast.parse(mutated, path)
        first = _position(mutated, start)
        last = _position(mutated, start + len(repl))
        if not _instrument(tree, first, last, TABLE["hit"]):
            return compile(source, path, "exec", dont_inherit=True)
        return compile(tree, path, "exec", dont_inherit=True)

    def find_spec(self, fullname, path=None, target=None):
        if fullname.rpartition(".")[2] not in self._names:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.origin or not spec.has_location:
            return None
        rel = self._files.get(os.path.realpath(spec.origin))
        if rel is None:
            return None
        loader = _Loader(fullname, spec.origin, rel, self)
        return importlib.util.spec_from_file_location(
            fullname, spec.origin, loader=loader,
            submodule_search_locations=spec.submodule_search_locations)

    def report(self, nodeid, when, outcome):
        try:
            with open(self._reports, "a") as f:
                f.write(json.dumps({"nodeid": nodeid, "when": when, "outcome": outcome}, sort_keys=True) + "\n")
        except OSError:
            pass

    def invalidate_caches(self):
        pass


_SWITCH = _Switch()
sys.meta_path.insert(0, _SWITCH)
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
os.environ.pop("PYTHONPATH", None)
_SESSION = []


def pytest_sessionstart(session):
    _SESSION.append(session)


def pytest_runtest_logreport(report):
    _SWITCH.report(report.nodeid, report.when, report.outcome)
    if _SWITCH.active is not None and report.when == "call" and report.failed and _SESSION:
        _SESSION[0].shouldfail = "a test failed with the mutant"
