# imports.py lists what Python files import, for the Go package pymutant,
# which embeds it and runs it as `python -I -S -c <this file>`.
#
# Input on stdin: a JSON object {"root": DIR, "files": [PATH, ...]}, paths
# relative to DIR. Output on stdout: {"imports": {PATH: [[MODULE, LEVEL,
# [NAME, ...]], ...]}}, one entry per file that parses, with every import
# anywhere in it (in functions too): `import a.b` is ["a.b", 0, []],
# `from ..c import d` is ["c", 2, ["d"]], and importlib.import_module("x")
# or __import__("x") with a constant name is ["x", 0, []]. A file that
# cannot be read or parsed has no entry: it imports nothing the gate can
# see.
import sys

if sys.version_info < (3, 8):
    sys.stderr.write("pymutant: Python 3.8 or later is needed\n")
    sys.exit(4)

import ast
import json
import os
import warnings


def refs(tree):
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append([a.name, 0, []])
        elif isinstance(node, ast.ImportFrom):
            out.append([node.module or "", node.level, [a.name for a in node.names]])
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else None)
            if name in ("import_module", "__import__") and node.args and \
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                out.append([node.args[0].value, 0, []])
    return out


def main():
    req = json.load(sys.stdin)
    root = req["root"]
    out = {}
    for rel in req["files"]:
        try:
            with open(os.path.join(root, rel), "rb") as f:
                src = f.read()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(src, rel)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        out[rel] = refs(tree)
    sys.stdout.write(json.dumps({"imports": out}, sort_keys=True, separators=(",", ":")) + "\n")


try:
    main()
except SystemExit:
    raise
except BaseException as e:
    sys.stderr.write("pymutant: internal error: %s: %s\n" % (type(e).__name__, " ".join(str(e).split())))
    sys.exit(4)
