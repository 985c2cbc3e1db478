# find.py finds mutation sites in Python source for the Go package pymutant,
# which embeds it and runs it as `python -I -S -c <this file>`.
#
# Input on stdin: one line naming the requested lines as comma-separated
# ranges ("3,7-9"), a line feed, then the source bytes. The lines travel on
# stdin, not in argv, because a single argument is limited to 128 KiB on
# Linux and a large patch can name more lines than that holds.
#
# Output on stdout: {"sites": [...]}, every site with its byte span in the
# source (see the Go package for the fields). Exit status 3 with one line
# "pymutant: ..." on stderr means the source was rejected (it does not
# parse, is not UTF-8, ...); any other failure exits non-zero too.
#
# Everything is located exactly or not offered: operator tokens come from
# tokenize, expressions from ast, and each mutant is parsed again and must
# give the syntax tree the mutation means. The script deliberately avoids
# syntax newer than Python 3.0 so that an old interpreter reaches the
# version check below instead of failing to compile this file.
import sys

EXIT_SOURCE = 3
EXIT_INTERNAL = 4

if sys.version_info < (3, 8):
    sys.stderr.write("pymutant: Python 3.8 or later is needed (ast end positions); this is %d.%d\n"
                     % (sys.version_info[0], sys.version_info[1]))
    sys.exit(EXIT_INTERNAL)

import ast
import bisect
import io
import json
import re
import tokenize
import warnings

# Number literals longer than this are left alone; the Go side rejects
# longer ones, so the two limits must agree.
MAX_NUMBER_LEN = 100

BOM = b"\xef\xbb\xbf"

COMPARISON = {
    ast.Eq: ("==", "!=", ast.NotEq),
    ast.NotEq: ("!=", "==", ast.Eq),
    ast.Lt: ("<", ">=", ast.GtE),
    ast.GtE: (">=", "<", ast.Lt),
    ast.LtE: ("<=", ">", ast.Gt),
    ast.Gt: (">", "<=", ast.LtE),
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

# Nodes whose insides are not searched: before Python 3.12 tokenize sees an
# f-string as one STRING token, so operators inside cannot be located, and
# skipping them on every version keeps the output independent of it.
OPAQUE = tuple(t for t in (getattr(ast, "JoinedStr", None), getattr(ast, "TemplateStr", None)) if t)

INSIGNIFICANT = (tokenize.COMMENT, tokenize.NL)


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
        self.line_starts = [0] + [m.end() for m in re.finditer(b"\r\n|\r|\n", raw)]
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
        self.chunks = self.top_level_chunks()

    def top_level_chunks(self):
        """Byte ranges of the source that parse on their own: whole lines
        holding one or more top-level statements (with their decorators),
        as (start, end, statements), sorted. Each starts where the
        tokenizer starts afresh (a line start at indentation 0, outside any
        bracket) and ends after a line end, so a mutant of a chunk parses
        in the file exactly as alone. The one thing outside a chunk that
        changes how it parses is `from __future__ import barry_as_FLUFL`
        (<> for !=); with it there are no chunks."""
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


def same_tree(want, got, target, repl):
    """Whether got is want with target replaced by repl, ignoring positions.
    Iterative: deep trees must not exhaust the Python stack."""
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
            for table, name in ((COMPARISON, "comparison"), (IDENTITY, "identity"), (MEMBERSHIP, "membership")):
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
    elif isinstance(node, ast.AugAssign) and type(node.op) in AUGMENTED:
        text, repl, new = AUGMENTED[type(node.op)]
        sp = src.operator(node.target, node.value, (text,))
        if sp:
            yield sp + (repl, "augmented", node, ast.AugAssign(target=node.target, op=new(), value=node.value))
    elif isinstance(node, ast.Constant):
        v = node.value
        if type(v) is bool:
            sp = src.whole_token(node, tokenize.NAME, str(v))
            if sp:
                yield sp + (str(not v), "boolean-literal", node, ast.Constant(value=not v, kind=None))
        elif type(v) in (int, float):
            sp = src.whole_token(node, tokenize.NUMBER)
            if not sp or sp[1] - sp[0] > MAX_NUMBER_LEN:
                return
            if type(v) is int:
                new = v + 1
                repl = str(new)
            else:
                new = v + 1.0
                if new == v or new - new != 0:  # no change, or not finite
                    return
                repl = repr(new)
            yield sp + (repl, "number", node, ast.Constant(value=new, kind=None))
    elif isinstance(node, ast.Return):
        v = node.value
        if v is None or (isinstance(v, ast.Constant) and v.value is None):
            return
        s = src.span(node)
        if s is None:
            return
        t = src.token_at.get(s[0])
        if t is None or t[2] != tokenize.NAME or t[3] != "return":
            return
        yield s + ("return None", "return-none", node, ast.Return(value=ast.Constant(value=None, kind=None)))


def verify(src, start, end, repl, target, new):
    """Whether the mutant parses to the tree the mutation means. Only the
    chunk of top-level statements around the site is parsed again when
    there is one: parsing the whole file for every site made a large file
    take minutes."""
    c = src.chunk(start, end)
    lo, hi, want = (c[0], c[1], c[2]) if c else (0, len(src.raw), src.tree)
    text = src.raw[lo:start] + repl.encode("utf-8") + src.raw[end:hi]
    try:
        tree = parse(normalize(text.decode("utf-8") if c else decode(text)[1]))
        return same_tree(want, tree.body if c else tree, target, new)
    except (SyntaxError, ValueError, RecursionError, MemoryError, SourceError, UnicodeDecodeError):
        return False


def find(raw, header):
    src = Source(raw)
    want = parse_ranges(header, len(src.line_starts))
    sites = {}
    if not want:
        return []
    for start, end, repl, op, target, new in candidates(src):
        line = bisect.bisect_right(src.line_starts, start)
        if line not in want or (start, op, repl) in sites:
            continue
        try:
            original = raw[start:end].decode("utf-8")
        except UnicodeDecodeError:
            continue
        if original == repl or not verify(src, start, end, repl, target, new):
            continue
        sites[(start, op, repl)] = {
            "line": line,
            "col": start - src.line_starts[line - 1] + 1,
            "start": start,
            "end": end,
            "original": original,
            "replacement": repl,
            "operator": op,
        }
    return [sites[k] for k in sorted(sites)]


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
