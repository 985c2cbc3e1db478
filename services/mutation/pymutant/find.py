# find.py finds mutation sites in Python source for the Go package pymutant,
# which embeds it and runs it as `python -I -S -c <this file>`.
#
# Input on stdin: one line naming the requested lines as comma-separated
# ranges ("3,7-9"), a line feed, then the source bytes. The lines travel on
# stdin, not in argv, because a single argument is limited to 128 KiB on
# Linux and a large patch can name more lines than that holds.
#
# Output on stdout: {"sites": [...]}, every site with its byte span in the
# source and the first line of the statement it is in (see the Go package
# for the fields). Exit status 3 with one line
# "pymutant: ..." on stderr means the source was rejected (it does not
# parse, is not UTF-8, ...); any other failure exits non-zero too.
#
# Everything is located exactly or not offered: operator tokens come from
# tokenize, expressions and statements from ast, and each mutant is parsed
# again and must give the syntax tree the mutation means, then compiled:
# a mutant the compiler refuses (a continue outside a loop) is not offered,
# one whose bytecode is the original's is marked equivalent, and one whose
# bytecode is another mutant's is a duplicate and left out. The script
# deliberately avoids syntax newer than Python 3.0 so that an old
# interpreter reaches the version check below instead of failing to compile
# this file.
import sys

EXIT_SOURCE = 3
EXIT_INTERNAL = 4

if sys.version_info < (3, 8):
    sys.stderr.write("pymutant: Python 3.8 or later is needed (ast end positions); this is %d.%d\n"
                     % (sys.version_info[0], sys.version_info[1]))
    sys.exit(EXIT_INTERNAL)

import __future__
import ast
import bisect
import copy
import dis
import inspect
import io
import json
import marshal
import re
import tokenize
import types
import warnings

# Number literals longer than this are left alone; the Go side rejects
# longer ones, so the two limits must agree.
MAX_NUMBER_LEN = 100
# String literals longer than this are not changed: the replacement holds
# the whole literal.
MAX_STRING_LEN = 200
# Conditions longer than this are not negated: the replacement holds the
# whole condition.
MAX_CONDITION_LEN = 400

BOM = b"\xef\xbb\xbf"

LINE_END = re.compile(b"\r\n|\r|\n")

COMPARISON = {
    ast.Eq: ("==", "!=", ast.NotEq),
    ast.NotEq: ("!=", "==", ast.Eq),
    ast.Lt: ("<", ">=", ast.GtE),
    ast.GtE: (">=", "<", ast.Lt),
    ast.LtE: ("<=", ">", ast.Gt),
    ast.Gt: (">", "<=", ast.LtE),
}

# The comparison boundary moved both ways: < admits equality, <= no longer.
BOUNDARY = {
    ast.Lt: ("<", "<=", ast.LtE),
    ast.LtE: ("<=", "<", ast.Lt),
    ast.Gt: (">", ">=", ast.GtE),
    ast.GtE: (">=", ">", ast.Gt),
}

# Two-token operators are (first token, second token).
IDENTITY = {
    ast.Is: (("is",), "is not", ast.IsNot),
    ast.IsNot: (("is", "not"), "is", ast.Is),
}

MEMBERSHIP = {
    ast.In: (("in",), "not in", ast.NotIn),
    ast.NotIn: (("not", "in"), "in", ast.In),
}

ARITHMETIC = {
    ast.Add: ("+", "-", ast.Sub),
    ast.Sub: ("-", "+", ast.Add),
    ast.Mult: ("*", "/", ast.Div),
    ast.Div: ("/", "*", ast.Mult),
    ast.FloorDiv: ("//", "/", ast.Div),
    ast.Mod: ("%", "*", ast.Mult),
    ast.Pow: ("**", "*", ast.Mult),
}

AUGMENTED = {
    ast.Add: ("+=", "-=", ast.Sub),
    ast.Sub: ("-=", "+=", ast.Add),
    ast.Mult: ("*=", "/=", ast.Div),
    ast.Div: ("/=", "*=", ast.Mult),
    ast.FloorDiv: ("//=", "/=", ast.Div),
    ast.Mod: ("%=", "*=", ast.Mult),
}

# Comparisons whose one operator has an operator mutant that is already
# the negation: `if a == b` negated is `if a != b`.
NEGATED_BY_OPERATOR = tuple(COMPARISON) + tuple(IDENTITY) + tuple(MEMBERSHIP)

# Returned values by the type a literal gives them: the replacements, as
# written after "return ".
RETURN_VALUES = {
    "bool": ("True", "False"),
    "int": ("0",),
    "float": ("0.0",),
    "str": ('""',),
    "list": ("[]",),
    "dict": ("{}",),
    "tuple": ("()",),
}

# Methods whose call on a value gives a value of the same kind, so that
# dropping the call (s.strip(" ") → s) keeps the program meaningful.
# Calls without arguments are dropped whatever the method.
SAME_KIND_METHODS = frozenset([
    "strip", "lstrip", "rstrip", "replace", "removeprefix", "removesuffix",
    "ljust", "rjust", "center", "zfill", "expandtabs",
])

# Calls whose last positional argument is a default value returned (or
# stored) when what is looked up is missing, by how many positional
# arguments the call has then: next(it, None), getattr(o, n, None),
# d.get(k, 0), d.pop(k, None), d.setdefault(k, 0), os.getenv(k, "x").
DEFAULT_CALLS = {"next": 2, "getattr": 3, "get": 2, "pop": 2, "setdefault": 2, "getenv": 2}
# Of those, the ones whose default is None when it is left out: dropping a
# None there changes nothing.
NONE_BY_DEFAULT = frozenset(["get", "getenv"])

# Logging calls are not removed: what they write is rarely what a test
# checks, and their removal would be a survivor no honest test kills.
LOG_METHODS = frozenset(["debug", "info", "warning", "warn", "error", "exception", "critical", "log"])

# Nodes whose insides are not searched: before Python 3.12 tokenize sees an
# f-string as one STRING token, so operators inside cannot be located, and
# skipping them on every version keeps the output independent of it.
OPAQUE = tuple(t for t in (getattr(ast, "JoinedStr", None), getattr(ast, "TemplateStr", None)) if t)

INSIGNIFICANT = (tokenize.COMMENT, tokenize.NL)

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Module)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

CODE_FIELDS = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals",
               "co_stacksize", "co_flags", "co_code", "co_names", "co_varnames",
               "co_freevars", "co_cellvars", "co_name", "co_qualname", "co_exceptiontable")


class SourceError(Exception):
    """The source cannot be searched; the message is for the user."""


def parse_ranges(header, limit):
    """Parse "3,7-9" into the set of line numbers, clipped to limit."""
    want = set()
    if not header:
        return want
    for part in header.split(","):
        lo, sep, hi = part.partition("-")
        lo = int(lo)
        hi = int(hi) if sep else lo
        if lo < 1 or hi < lo:
            raise ValueError("bad line range %r" % part)
        want.update(range(lo, min(hi, limit) + 1))
    return want


def decode(raw):
    """Return (bytes to skip, text) for UTF-8 source, without the BOM."""
    skip = len(BOM) if raw.startswith(BOM) else 0
    try:
        return skip, raw[skip:].decode("utf-8")
    except UnicodeDecodeError as e:
        raise SourceError("source is not valid UTF-8 (byte %d)" % (skip + e.start))


def normalize(text):
    # The parser treats \r\n and a lone \r as line ends; so does tokenize
    # when it is given only \n.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check_encoding(raw):
    """Reject a source whose declared encoding reads it otherwise than
    UTF-8: the offsets would not be the ones Python sees."""
    try:
        enc = tokenize.detect_encoding(io.BytesIO(raw).readline)[0]
    except SyntaxError as e:
        decode(raw)  # a UTF-8 error is the better message
        raise SourceError("bad encoding declaration: %s" % e)
    if enc in ("utf-8", "utf-8-sig"):
        return
    try:
        same = raw.decode(enc) == raw.decode("utf-8")
    except (LookupError, UnicodeError):
        same = False
    if not same:
        raise SourceError("source declares encoding %s and is not the same in UTF-8; only UTF-8 is supported" % enc)


def parse(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text, "<source>")


def line_breaks(b):
    return len(LINE_END.findall(b))


class Source(object):
    def __init__(self, raw):
        self.raw = raw
        check_encoding(raw)
        self.skip, text = decode(raw)
        norm = normalize(text)
        try:
            self.tree = parse(norm)
        except SyntaxError as e:
            raise SourceError("source does not parse: line %s: %s" % (e.lineno, e.msg))
        except (ValueError, RecursionError, MemoryError) as e:
            raise SourceError("source cannot be parsed: %s: %s" % (type(e).__name__, e))
        # Byte offset of each line's start in raw, as the Go side counts.
        self.line_starts = [0] + [m.end() for m in LINE_END.finditer(raw)]
        # Where each line's text begins: line 1 after the BOM.
        self.content = list(self.line_starts)
        self.content[0] = self.skip
        self.lines = norm.split("\n")
        if len(self.lines) != len(self.content):
            raise RuntimeError("line tables disagree")
        try:
            self.tokens = self.tokenize(norm)
        except (tokenize.TokenError, SyntaxError, IndentationError) as e:
            raise SourceError("source cannot be tokenized: %s" % (e,))
        self.token_starts = [t[0] for t in self.tokens]
        self.token_at = {}
        for t in self.tokens:
            if t[2] not in INSIGNIFICANT:
                self.token_at[t[0]] = t
        self.parent = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        self.future = 0
        for stmt in self.tree.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                for a in stmt.names:
                    feature = getattr(__future__, a.name, None)
                    if feature is not None:
                        self.future |= feature.compiler_flag
        self.chunks = self.top_level_chunks()
        # The first line of the innermost statement on each line (1-based),
        # the line coverage.py reports a statement's execution on: a site
        # on a continuation line is run when its statement is.
        self.statement_line = list(range(len(self.lines) + 1))
        for node in ast.walk(self.tree):
            if isinstance(node, ast.stmt) and getattr(node, "end_lineno", None):
                for ln in range(node.lineno, min(node.end_lineno, len(self.lines)) + 1):
                    self.statement_line[ln] = node.lineno
        self.codes = {}
        self.signatures = Signatures()
        self.bindings_of = {}
        self.imported = self.module_imports()

    def top_level_chunks(self):
        """Byte ranges of the source that parse on their own: whole lines
        holding one or more top-level statements (with their decorators),
        as (start, end, statements), sorted. Each starts where the
        tokenizer starts afresh (a line start at indentation 0, outside any
        bracket) and ends after a line end, so a mutant of a chunk parses
        in the file exactly as alone. The one thing outside a chunk that
        changes how it parses is `from __future__ import barry_as_FLUFL`
        (<> for !=); with it there are no chunks. How it compiles depends
        on the file's other __future__ imports too, which compile() is
        given."""
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module == "__future__" and \
                    any(a.name == "barry_as_FLUFL" for a in node.names):
                return []
        groups = []  # [first line, last line, statements]
        for stmt in self.tree.body:
            first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
            if groups and first <= groups[-1][1]:
                groups[-1][1] = max(groups[-1][1], stmt.end_lineno)
                groups[-1][2].append(stmt)
            else:
                groups.append([first, stmt.end_lineno, [stmt]])
        chunks = []
        for first, last, stmts in groups:
            end = self.line_starts[last] if last < len(self.line_starts) else len(self.raw)
            chunks.append((self.content[first - 1], end, stmts))
        return chunks

    def chunk(self, start, end):
        """The chunk holding the byte span [start, end), or None."""
        i = bisect.bisect_right(self.chunks, (start, float("inf"))) - 1
        if i >= 0 and self.chunks[i][0] <= start and end <= self.chunks[i][1]:
            return self.chunks[i]
        return None

    def tok_off(self, row, col):
        if row - 1 >= len(self.lines):
            return len(self.raw)
        return self.content[row - 1] + len(self.lines[row - 1][:col].encode("utf-8"))

    def tokenize(self, norm):
        out = []
        skip = (tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE)
        for t in tokenize.generate_tokens(io.StringIO(norm).readline):
            if t.type in skip:
                continue
            out.append((self.tok_off(*t.start), self.tok_off(*t.end), t.type, t.string))
        return out

    def span(self, node):
        """Byte span of an ast node, or None."""
        if getattr(node, "end_lineno", None) is None or getattr(node, "lineno", None) is None:
            return None
        return (self.content[node.lineno - 1] + node.col_offset,
                self.content[node.end_lineno - 1] + node.end_col_offset)

    def body_span(self, stmts):
        """Byte span from the first statement of a body to the end of its
        last, or None."""
        if not stmts:
            return None
        a, b = self.span(stmts[0]), self.span(stmts[-1])
        if a is None or b is None:
            return None
        return a[0], b[1]

    def text(self, start, end):
        try:
            return self.raw[start:end].decode("utf-8")
        except UnicodeDecodeError:
            return None

    def between(self, a, b):
        """Significant tokens within [a, b), grouping parentheses left out."""
        out = []
        i = bisect.bisect_left(self.token_starts, a)
        while i < len(self.tokens) and self.tokens[i][0] < b:
            t = self.tokens[i]
            i += 1
            if t[1] > b:
                return None
            if t[2] in INSIGNIFICANT or (t[2] == tokenize.OP and t[3] in ("(", ")")):
                continue
            out.append(t)
        return out

    def tokens_in(self, a, b):
        """Every significant token within [a, b), parentheses included."""
        out = []
        i = bisect.bisect_left(self.token_starts, a)
        while i < len(self.tokens) and self.tokens[i][0] < b:
            t = self.tokens[i]
            i += 1
            if t[1] > b:
                return None
            if t[2] not in INSIGNIFICANT:
                out.append(t)
        return out

    def next_token(self, a):
        """The first significant token starting at or after a."""
        i = bisect.bisect_left(self.token_starts, a)
        while i < len(self.tokens):
            t = self.tokens[i]
            if t[2] not in INSIGNIFICANT:
                return t
            i += 1
        return None

    def operator(self, left, right, texts):
        """Span of the operator tokens texts between two nodes, or None."""
        ls, rs = self.span(left), self.span(right)
        if ls is None or rs is None:
            return None
        toks = self.between(ls[1], rs[0])
        if toks is None or [t[3] for t in toks] != list(texts):
            return None
        if any(t[2] not in (tokenize.OP, tokenize.NAME) for t in toks):
            return None
        return toks[0][0], toks[-1][1]

    def whole_token(self, node, kind, text=None):
        """Span of node if it is exactly one token of the kind, or None."""
        s = self.span(node)
        if s is None:
            return None
        t = self.token_at.get(s[0])
        if t is None or t[1] != s[1] or t[2] != kind or (text is not None and t[3] != text):
            return None
        return s

    def keyword_at(self, node, word):
        """Whether node's span starts with the keyword word."""
        s = self.span(node)
        if s is None:
            return False
        t = self.token_at.get(s[0])
        return t is not None and t[2] == tokenize.NAME and t[3] == word

    def is_docstring(self, node):
        p = self.parent.get(node)
        if not isinstance(p, ast.Expr):
            return False
        gp = self.parent.get(p)
        return isinstance(gp, FUNCTIONS + (ast.ClassDef, ast.Module)) and bool(gp.body) and gp.body[0] is p

    def in_message(self, node):
        """Whether node is part of a message: of an exception raised, an
        assertion, a warning or a logging call. Tests rarely compare
        messages, and a changed message is a survivor no honest test
        kills."""
        child, p = node, self.parent.get(node)
        while p is not None and not isinstance(p, ast.stmt):
            if isinstance(p, ast.Call) and child is not p.func and (is_logging(p) or call_name(p) == "warn"):
                return True
            child, p = p, self.parent.get(p)
        if isinstance(p, ast.Raise):
            return child is p.exc
        return isinstance(p, ast.Assert) and child is p.msg

    def scope_of(self, node):
        p = self.parent.get(node)
        while p is not None and not isinstance(p, SCOPES):
            p = self.parent.get(p)
        return p

    def bindings(self, scope):
        """How many times each name is bound in scope (not in the scopes
        nested in it): assignment targets, parameters, imports, def and
        class names, for, with and except targets, global and nonlocal
        declarations."""
        got = self.bindings_of.get(id(scope))
        if got is not None:
            return got
        count = {}

        def add(name):
            count[name] = count.get(name, 0) + 1
        if isinstance(scope, FUNCTIONS + (ast.Lambda,)):
            a = scope.args
            for arg in getattr(a, "posonlyargs", []) + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None:
                    add(arg.arg)
        stack = list(scope.body) if isinstance(scope.body, list) else [scope.body]
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                add(n.name)
                # Decorators and defaults belong to this scope; bodies not.
                stack.extend(n.decorator_list)
                if not isinstance(n, ast.ClassDef):
                    stack.extend(d for d in n.args.defaults + n.args.kw_defaults if d is not None)
                continue
            if isinstance(n, ast.Lambda):
                stack.extend(d for d in n.args.defaults + n.args.kw_defaults if d is not None)
                continue
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    add((a.asname or a.name).split(".")[0])
                continue
            if isinstance(n, ast.comprehension):
                # Its targets are the comprehension's own.
                stack.append(n.iter)
                stack.extend(n.ifs)
                continue
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                for name in n.names:
                    add(name)
                continue
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                add(n.id)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                add(n.name)
            stack.extend(ast.iter_child_nodes(n))
        self.bindings_of[id(scope)] = count
        return count

    def module_imports(self):
        """Names bound by module-level imports: modules, mostly."""
        names = set()
        for stmt in self.tree.body:
            if isinstance(stmt, ast.Import):
                for a in stmt.names:
                    names.add((a.asname or a.name).split(".")[0])
        return names

    def original(self, lo, hi, text, lines):
        """The signature of a chunk's (or the whole file's) code."""
        key = (lo, hi, lines)
        if key not in self.codes:
            self.codes[key] = self.signatures.of(compile_text(text, self.future), lines)
        return self.codes[key]


def compile_text(text, future):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(text, "<chunk>", "exec", flags=future, dont_inherit=True)


HASCONST = frozenset(dis.hasconst)
EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]


def used_constants(code):
    """The indices of the constants code loads. Wordcode: an opcode and an
    argument byte, EXTENDED_ARG prefixes for larger arguments."""
    b = code.co_code
    used, ext = set(), 0
    for i in range(0, len(b) - 1, 2):
        op, arg = b[i], b[i + 1] | ext
        if op == EXTENDED_ARG:
            ext = arg << 8
            continue
        ext = 0
        if op in HASCONST:
            used.add(arg)
    return used


class Signatures(object):
    """What of compiled code decides what it does, as bytes to compare:
    the code objects with their bytecode, names, flags and the constants
    they load (nested code objects the same way, recursively), without
    the file name, the column positions (they only change where a
    traceback points) and, unless lines is true, the line numbers.
    Unchanged functions of a mutant compile to the same bytes as the
    original's, so their signatures are computed once."""

    def __init__(self):
        self.memo = {}

    def of(self, code, lines):
        k = (marshal.dumps(code), lines)
        got = self.memo.get(k)
        if got is None:
            got = self.strip(code, lines)
            self.memo[k] = got
        return got

    def strip(self, code, lines):
        used = used_constants(code)
        if code.co_flags & inspect.CO_OPTIMIZED:
            used.add(0)  # a function's first constant is its docstring
        consts = []
        for i, c in enumerate(code.co_consts):
            if i not in used:
                consts.append(None)
            elif isinstance(c, types.CodeType):
                consts.append(("code", self.of(c, lines)))
            else:
                consts.append(c)
        changes = {"co_consts": tuple(consts), "co_filename": ""}
        if not lines:
            changes["co_firstlineno"] = 1
            if hasattr(code, "co_linetable"):
                changes["co_linetable"] = b""
            else:
                changes["co_lnotab"] = b""
        return marshal.dumps(code.replace(**changes))


def boolop_flip(node, i):
    """The tree that flipping the i-th and/or token of node gives."""
    vals = node.values
    if isinstance(node.op, ast.And):
        def group(vs):
            return vs[0] if len(vs) == 1 else ast.BoolOp(op=ast.And(), values=vs)
        return ast.BoolOp(op=ast.Or(), values=[group(vals[:i + 1]), group(vals[i + 1:])])
    mid = ast.BoolOp(op=ast.And(), values=[vals[i], vals[i + 1]])
    rest = vals[:i] + [mid] + vals[i + 2:]
    return mid if len(rest) == 1 else ast.BoolOp(op=ast.Or(), values=rest)


def flatten(node, target, repl):
    """Values of a BoolOp with nested same-operator BoolOps merged: and/or
    are associative, and the parser flattens a chain it reads as one."""
    op = type(node.op)
    out = []
    stack = list(reversed(node.values))
    while stack:
        v = stack.pop()
        if v is target:
            v = repl
        if isinstance(v, ast.BoolOp) and type(v.op) is op:
            stack.extend(reversed(v.values))
        else:
            out.append(v)
    return out


class Edit(object):
    """Where an edit lies, in lines: statements of the file outside
    [first, last] keep their text, so in the mutant they only move, by
    shift lines when they follow the edit; base is the file's line before
    the text parsed (a chunk's first line minus one)."""

    def __init__(self, first, last, shift, base):
        self.first, self.last, self.shift, self.base = first, last, shift, base

    def touches(self, stmt):
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
        return first <= self.last and stmt.end_lineno >= self.first

    def moved(self, a, b):
        """Whether b is where a's text lies in the mutant."""
        d = (self.shift if a.lineno > self.last else 0) - self.base
        return (b.lineno, b.col_offset, b.end_lineno, b.end_col_offset) == \
            (a.lineno + d, a.col_offset, a.end_lineno + d, a.end_col_offset)


def same_tree(want, got, target, repl, edit=None):
    """Whether got is want with target replaced by repl, ignoring positions.
    Iterative: deep trees must not exhaust the Python stack. With an edit,
    a statement on lines the edit does not touch is the same when it is
    where its unchanged text lies: the same text at the start of a
    statement parses the same, so only the statements holding the edit
    are compared node by node (a site in a large class costs its method,
    not the class)."""
    stack = [(want, got)]
    while stack:
        x, y = stack.pop()
        if x is target:
            x = repl
        if isinstance(x, ast.AST):
            if type(x) is not type(y):
                return False
            if isinstance(x, ast.BoolOp):
                if type(x.op) is not type(y.op):
                    return False
                xs, ys = flatten(x, target, repl), flatten(y, None, None)
                if len(xs) != len(ys):
                    return False
                stack.extend(zip(xs, ys))
                continue
            for f in x._fields:
                stack.append((getattr(x, f, None), getattr(y, f, None)))
        elif isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return False
            if edit is not None and x and isinstance(x[0], ast.stmt):
                for a, b in zip(x, y):
                    if a is target or getattr(a, "end_lineno", None) is None or edit.touches(a):
                        stack.append((a, b))
                    elif type(a) is not type(b) or not edit.moved(a, b):
                        return False
                continue
            stack.extend(zip(x, y))
        elif type(x) is not type(y) or x != y:
            return False
    return True


def candidates(src):
    """Yield (start, end, replacement, operator, target node, new node)."""
    stack = [src.tree]
    while stack:
        node = stack.pop()
        if isinstance(node, OPAQUE):
            continue
        stack.extend(ast.iter_child_nodes(node))
        for c in node_candidates(src, node):
            yield c


def node_candidates(src, node):
    if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
        text, repl, new = ARITHMETIC[type(node.op)]
        sp = src.operator(node.left, node.right, (text,))
        if sp:
            yield sp + (repl, "arithmetic", node, ast.BinOp(left=node.left, op=new(), right=node.right))
    elif isinstance(node, ast.Compare):
        left = node.left
        for i, (op, right) in enumerate(zip(node.ops, node.comparators)):
            for table, name in ((COMPARISON, "comparison"), (BOUNDARY, "boundary"), (IDENTITY, "identity"), (MEMBERSHIP, "membership")):
                if type(op) in table:
                    texts, repl, new = table[type(op)]
                    if isinstance(texts, str):
                        texts = (texts,)
                    sp = src.operator(left, right, texts)
                    if sp:
                        ops = list(node.ops)
                        ops[i] = new()
                        yield sp + (repl, name, node, ast.Compare(left=node.left, ops=ops, comparators=node.comparators))
            left = right
    elif isinstance(node, ast.BoolOp):
        text, repl = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        for i in range(len(node.values) - 1):
            sp = src.operator(node.values[i], node.values[i + 1], (text,))
            if sp:
                yield sp + (repl, "boolean", node, boolop_flip(node, i))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        s = src.span(node)
        if s is None:
            return
        t = src.token_at.get(s[0])
        if t is None or t[2] != tokenize.NAME or t[3] != "not":
            return
        nxt = src.next_token(t[1])
        os_ = src.span(node.operand)
        if nxt is None or os_ is None or nxt[0] > os_[0]:
            return
        yield (s[0], nxt[0], "", "not", node, node.operand)
    elif isinstance(node, ast.AugAssign):
        if type(node.op) in AUGMENTED:
            text, repl, new = AUGMENTED[type(node.op)]
            sp = src.operator(node.target, node.value, (text,))
            if sp:
                yield sp + (repl, "augmented", node, ast.AugAssign(target=node.target, op=new(), value=node.value))
        for c in statement_removal(src, node):
            yield c
    elif isinstance(node, ast.Constant):
        for c in constant_candidates(src, node):
            yield c
    elif isinstance(node, ast.Return):
        for c in return_candidates(src, node):
            yield c
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
        for c in condition_candidates(src, node):
            yield c
        if isinstance(node, ast.If):
            for c in branch_candidates(src, node):
                yield c
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Delete)):
        for c in statement_removal(src, node):
            yield c
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            for c in assignment_candidates(src, node):
                yield c
    elif isinstance(node, ast.Lambda):
        body = node.body
        s = src.span(body)
        if s and not (isinstance(body, ast.Constant) and body.value is None):
            yield s + ("None", "lambda", body, ast.Constant(value=None, kind=None))
    elif isinstance(node, ast.Raise):
        s = src.span(node)
        if s and src.keyword_at(node, "raise"):
            yield s + ("pass", "raise", node, ast.Pass())
    elif isinstance(node, (ast.Break, ast.Continue)):
        word, repl, new = ("break", "continue", ast.Continue) if isinstance(node, ast.Break) else ("continue", "break", ast.Break)
        s = src.whole_token(node, tokenize.NAME, word)
        if s:
            yield s + (repl, "loop-control", node, new())
    elif isinstance(node, ast.ExceptHandler):
        if len(node.body) == 1 and isinstance(node.body[0], ast.Raise) and node.body[0].exc is None:
            return
        sp = src.body_span(node.body)
        if sp:
            yield sp + ("raise", "except", node, ast.ExceptHandler(type=node.type, name=node.name,
                                                                  body=[ast.Raise(exc=None, cause=None)]))
    elif isinstance(node, ast.Call):
        for c in call_candidates(src, node):
            yield c


def constant_candidates(src, node):
    v = node.value
    if type(v) is bool:
        sp = src.whole_token(node, tokenize.NAME, str(v))
        if sp:
            yield sp + (str(not v), "boolean-literal", node, ast.Constant(value=not v, kind=None))
    elif type(v) in (int, float):
        sp = src.whole_token(node, tokenize.NUMBER)
        if not sp or sp[1] - sp[0] > MAX_NUMBER_LEN:
            return
        for delta in (1, -1):
            if type(v) is int:
                new = v + delta
                repl = str(new)
            else:
                new = v + float(delta)
                if new == v or new - new != 0:  # no change, or not finite
                    continue
                repl = repr(new)
            if new < 0:
                # A negative literal is the unary minus of a positive one.
                yield sp + (repl, "number", node, ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-new, kind=None)))
            else:
                yield sp + (repl, "number", node, ast.Constant(value=new, kind=None))
    elif type(v) in (str, bytes):
        if src.is_docstring(node) or src.in_message(node):
            return
        sp = src.whole_token(node, tokenize.STRING)
        if not sp or sp[1] - sp[0] > MAX_STRING_LEN:
            return
        lit = src.text(sp[0], sp[1])
        if lit is None:
            return
        m = re.match(r"([rRbBuU]{0,2})('''|\"\"\"|'|\")", lit)
        if not m or not lit.endswith(m.group(2)) or len(lit) < len(m.group(0)) + len(m.group(2)):
            return
        head, tail = m.group(0), m.group(2)
        body = lit[len(head):len(lit) - len(tail)]
        repl = head + "XX" + body + "XX" + tail
        new = ("XX" + v + "XX") if type(v) is str else (b"XX" + v + b"XX")
        yield sp + (repl, "string", node, ast.Constant(value=new, kind=node.kind))


def return_type(src, node):
    """The type of the value return statement node gives, when a literal
    says it: the value itself, the function's annotation, or the literals
    its other return statements give; else None."""
    v = node.value

    def literal_type(e):
        if isinstance(e, ast.Constant) and type(e.value) in (bool, int, float, str):
            return type(e.value).__name__
        if isinstance(e, ast.List):
            return "list"
        if isinstance(e, ast.Dict):
            return "dict"
        if isinstance(e, ast.Tuple):
            return "tuple"
        return None

    def boolish(e):
        if isinstance(e, ast.Compare) or (isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not)):
            return True
        return isinstance(e, ast.BoolOp) and all(boolish(x) for x in e.values)
    if boolish(v):
        return "bool"
    lt = literal_type(v)
    if lt is not None:
        return lt
    fn = src.scope_of(node)
    if not isinstance(fn, FUNCTIONS):
        return None
    ann = fn.returns
    if isinstance(ann, ast.Subscript):
        ann = ann.value
    if isinstance(ann, ast.Name) and ann.id in RETURN_VALUES:
        return ann.id
    seen = set()
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Return) and n is not node and n.value is not None:
            # A literal: a constant, or an empty display.
            e = n.value
            if isinstance(e, ast.Constant) or isinstance(e, (ast.List, ast.Tuple)) and not e.elts or isinstance(e, ast.Dict) and not e.keys:
                t = literal_type(e)
                if t is not None:
                    seen.add(t)
        stack.extend(ast.iter_child_nodes(n))
    if len(seen) == 1:
        return seen.pop()
    return None


def return_candidates(src, node):
    v = node.value
    if v is None or (isinstance(v, ast.Constant) and v.value is None):
        return
    s = src.span(node)
    if s is None or not src.keyword_at(node, "return"):
        return
    yield s + ("return None", "return-none", node, ast.Return(value=ast.Constant(value=None, kind=None)))
    if isinstance(v, ast.Constant):
        return  # the literal's own operators change it
    t = return_type(src, node)
    empty = isinstance(v, (ast.List, ast.Tuple)) and not v.elts or isinstance(v, ast.Dict) and not v.keys
    for text in RETURN_VALUES.get(t, ()):
        if empty:
            continue  # nothing to empty
        value = {"True": True, "False": False, "0": 0, "0.0": 0.0, '""': ""}.get(text)
        if text == "[]":
            new = ast.List(elts=[], ctx=ast.Load())
        elif text == "{}":
            new = ast.Dict(keys=[], values=[])
        elif text == "()":
            new = ast.Tuple(elts=[], ctx=ast.Load())
        else:
            new = ast.Constant(value=value, kind=None)
        yield s + ("return " + text, "return-value", node, ast.Return(value=new))


def condition_candidates(src, node):
    test = node.test
    if isinstance(test, ast.Constant):
        return  # a literal condition is the literal's to change
    s = src.span(test)
    if s is None:
        return
    text = src.text(s[0], s[1])
    if text is None:
        return
    single = isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], NEGATED_BY_OPERATOR)
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if not single and not negated and len(text) <= MAX_CONDITION_LEN:
        # The operand is a copy: the original is the node replaced.
        yield s + ("not (" + text + ")", "negation", test, ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(test)))
    values = (False,) if isinstance(node, ast.While) else (True, False)
    for v in values:
        yield s + (str(v), "condition", test, ast.Constant(value=v, kind=None))


def branch_candidates(src, node):
    """Remove the body of an if that has an else (without one, replacing
    the condition with False is the same mutant), and a plain else's
    body."""
    if not node.orelse:
        return
    sp = src.body_span(node.body)
    if sp:
        yield sp + ("pass", "branch", node, ast.If(test=node.test, body=[ast.Pass()], orelse=node.orelse))
    first = node.orelse[0]
    if len(node.orelse) == 1 and isinstance(first, ast.If) and src.keyword_at(first, "elif"):
        return  # an elif: its own condition and branches are its sites
    sp = src.body_span(node.orelse)
    if sp:
        yield sp + ("pass", "branch", node, ast.If(test=node.test, body=node.body, orelse=[ast.Pass()]))


def call_name(call):
    f = call.func
    return f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else None)


def is_logging(call):
    f = call.func
    if isinstance(f, ast.Name):
        return f.id == "print"
    if not isinstance(f, ast.Attribute) or f.attr not in LOG_METHODS:
        return False
    r = f.value
    name = r.id if isinstance(r, ast.Name) else (r.attr if isinstance(r, ast.Attribute) else "")
    return "log" in name.lower()


def stored_names(target, out):
    if isinstance(target, ast.Name):
        out.append(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for e in target.elts:
            stored_names(e, out)
    elif isinstance(target, ast.Starred):
        stored_names(target.value, out)
    return out


def statement_removal(src, node):
    """Replace a statement with pass: a call, an await or a yield as a
    statement, an assignment that leaves every name it binds bound (to an
    attribute or an item, or a name bound elsewhere in its scope: removing
    the only binding of a local would only raise NameError), an augmented
    assignment, a del."""
    if isinstance(node, ast.Expr):
        v = node.value
        if not isinstance(v, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)):
            return
        if isinstance(v, ast.Call) and is_logging(v):
            return
    elif isinstance(node, (ast.Assign, ast.AnnAssign)):
        if node.value is None:
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = []
        for t in targets:
            stored_names(t, names)
        if names:
            count = src.bindings(src.scope_of(node))
            for n in set(names):
                if count.get(n, 0) - names.count(n) < 1:
                    return
    s = src.span(node)
    if s:
        yield s + ("pass", "statement", node, ast.Pass())


def assignment_candidates(src, node):
    """The assigned value → None (None → ""), as mutmut does: not for a
    literal, whose own operators change it, nor for a dunder name (the
    module's __all__, __version__ and the like)."""
    v = node.value
    if v is None:
        return
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    if any(n.startswith("__") and n.endswith("__") for t in targets for n in stored_names(t, [])):
        return
    s = src.span(v)
    if s is None:
        return
    if isinstance(v, ast.Constant):
        if v.value is None:
            yield s + ('""', "assignment", v, ast.Constant(value="", kind=None))
        return
    yield s + ("None", "assignment", v, ast.Constant(value=None, kind=None))


def call_candidates(src, node):
    f = node.func
    # Drop a method call on a value: x.copy() → x, s.strip(" ") → s.
    if isinstance(f, ast.Attribute) and (not node.args and not node.keywords or f.attr in SAME_KIND_METHODS):
        recv = f.value
        p = src.parent.get(node)
        skip = isinstance(p, ast.Expr)  # statement removal's
        skip = skip or (isinstance(recv, ast.Name) and recv.id in src.imported)
        skip = skip or (isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "super")
        rs, cs = src.span(recv), src.span(node)
        if not skip and rs and cs:
            toks = src.tokens_in(rs[1], cs[1])
            i = 0
            while toks and i < len(toks) and toks[i][3] == ")":
                i += 1  # the receiver's closing parentheses
            if toks and i + 2 < len(toks) and toks[i][3] == "." and toks[i + 1][3] == f.attr and toks[i + 2][3] == "(" and toks[-1][3] == ")":
                yield (toks[i][0], cs[1], "", "method-call", node, recv)
    # Drop the default of a lookup: next(it, None) → next(it).
    name = call_name(node)
    n = DEFAULT_CALLS.get(name)
    if n is None or node.keywords or len(node.args) != n or any(isinstance(a, ast.Starred) for a in node.args):
        return
    last, prev = node.args[-1], node.args[-2]
    if not isinstance(last, ast.Constant) or (last.value is None and name in NONE_BY_DEFAULT):
        return
    ps, ls = src.span(prev), src.span(last)
    if ps is None or ls is None:
        return
    toks = src.tokens_in(ps[1], ls[0])
    if toks is None or len(toks) != 1 or toks[0][3] != ",":
        return
    new = ast.Call(func=f, args=node.args[:-1], keywords=[])
    yield (toks[0][0], ls[1], "", "call-default", node, new)


def mutant_text(src, start, end, repl):
    """The text to parse for a mutant: its chunk, or the whole file."""
    c = src.chunk(start, end)
    lo, hi, want = (c[0], c[1], c[2]) if c else (0, len(src.raw), src.tree)
    text = src.raw[lo:start] + repl.encode("utf-8") + src.raw[end:hi]
    orig = src.raw[lo:hi]
    if c:
        return lo, hi, want, normalize(text.decode("utf-8")), normalize(orig.decode("utf-8")), True
    return lo, hi, want, normalize(decode(text)[1]), normalize(decode(orig)[1]), False


def check(src, start, end, repl, target, new):
    """Whether the mutant parses to the tree the mutation means and
    compiles: (chunk start, signature of the mutant's code, whether it is
    the original's), or None. Only the chunk of top-level statements around
    the site is parsed and compiled again when there is one: parsing the
    whole file for every site made a large file take minutes."""
    try:
        lo, hi, want, text, orig, chunked = mutant_text(src, start, end, repl)
        tree = parse(text)
        shift = line_breaks(repl.encode("utf-8")) - line_breaks(src.raw[start:end])
        base = bisect.bisect_right(src.line_starts, lo) - 1 if chunked else 0
        edit = Edit(bisect.bisect_right(src.line_starts, start), bisect.bisect_right(src.line_starts, end - 1), shift, base)
        if not same_tree(want, tree.body if chunked else tree, target, new, edit):
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = compile(tree, "<chunk>", "exec", flags=src.future, dont_inherit=True)
        lines = shift != 0
        sig = src.signatures.of(code, lines)
        return lo, sig, sig == src.original(lo, hi, orig, lines)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError, SourceError, UnicodeDecodeError):
        return None


def find(raw, header):
    src = Source(raw)
    want = parse_ranges(header, len(src.line_starts))
    if not want:
        return []
    found = {}
    for start, end, repl, op, target, new in candidates(src):
        line = bisect.bisect_right(src.line_starts, start)
        if line not in want or (start, op, repl) in found:
            continue
        original = src.text(start, end)
        if original is None or original == repl:
            continue
        found[(start, op, repl)] = (end, target, new, line, original)
    sites, edits, seen = [], set(), set()
    for key in sorted(found):
        start, op, repl = key
        end, target, new, line, original = found[key]
        if (start, end, repl) in edits:
            continue  # the same edit by another operator
        checked = check(src, start, end, repl, target, new)
        if checked is None:
            continue
        lo, sig, equivalent = checked
        if not equivalent:
            if (lo, sig) in seen:
                continue  # the same program as an earlier mutant
            seen.add((lo, sig))
        edits.add((start, end, repl))
        sites.append({
            "line": line,
            "col": start - src.line_starts[line - 1] + 1,
            "start": start,
            "end": end,
            "original": original,
            "replacement": repl,
            "operator": op,
            "equivalent": equivalent,
            "statement_line": src.statement_line[line] if line < len(src.statement_line) else line,
        })
    return sites


def main():
    data = sys.stdin.buffer.read()
    header, sep, raw = data.partition(b"\n")
    if not sep:
        raise ValueError("no line header on stdin")
    header = header.decode("ascii")
    try:
        sites = find(raw, header)
    except SourceError as e:
        sys.stderr.write("pymutant: %s\n" % " ".join(str(e).split()))
        sys.exit(EXIT_SOURCE)
    sys.stdout.write(json.dumps({"sites": sites}, sort_keys=True, separators=(",", ":")) + "\n")


try:
    main()
except SystemExit:
    raise
except BaseException as e:
    sys.stderr.write("pymutant: internal error: %s: %s\n" % (type(e).__name__, " ".join(str(e).split())))
    sys.exit(EXIT_INTERNAL)
