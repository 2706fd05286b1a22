"""The pygohcl adapter: pygohcl (PyPI; a c-shared Go build of hashicorp/hcl
v2.24.0 with go-cty v1.18.1) behind the hcl-conformance subprocess protocol
(runner/PROTOCOL.md and the issue #6 additions).

pygohcl parses a native configuration file with hashicorp/hcl's own parser
(hclparse.ParseHCL) and converts the result to a JSON map without
evaluating anything. It shows the suite how a newer hashicorp/hcl accepts
and rejects native files, and the values it gives literals.

What pygohcl's map loses, and how the adapter gets it back:

- Its map writes an expression as its source text and a string literal as
  its value, so `a = x` and `a = "x"` both come out as "x"; a string with
  interpolations comes out as rebuilt text. The map cannot tell a literal
  from an expression.
- Blocks are merged into nested maps keyed by type and labels (several
  blocks at one path become a list), so block order across types and the
  difference between a block and an object-valued attribute are lost.

So the adapter reads the structure of the file itself, but only of a file
hashicorp/hcl has accepted: a small scanner (below) finds the body items
(attribute names with their expression text, blocks with type, labels and
body) in source order, and a small literal grammar decides, from the
expression text, whether an attribute is a literal: a number, `-` and a
number, `true`, `false`, `null`, a quoted string without `${` or `%{`
(the escapes `$${` and `%%{` allowed), a heredoc with no `${` or `%{` in it
at all, or a tuple or object of literals with identifier, string or number
keys. The value of a literal is always hashicorp/hcl's, read from pygohcl's
map at the position the structure gives (numbers kept exact, as the decimal
text go-cty writes). Everything else is answered
`{"unevaluated": "not a literal: TEXT"}`.

Checks against adapter bugs: the structure the scanner finds, merged the
way pygohcl merges blocks, must have exactly the keys of pygohcl's map at
every level, and each literal's kind (string, number, bool, null, tuple
with its length, object) must be what pygohcl gives there; any mismatch
is an adapter bug, reported on stderr with a non-zero exit (a CRASH), never
as an answer. Where pygohcl's merging makes the position of a value
ambiguous (a block type that is also an attribute name, or blocks of one
type with different numbers of labels) the values there are answered
`unevaluated`, never guessed.

Decisions:

- Kinds: only `config`, native syntax (`syntax: json` is answered
  `unsupported`: pygohcl's loader reads HCL only). `expr` and `template`
  are not declared: `parse-only` would apply to `config` as well, and the
  config bodies are the useful answers.
- Features: `unevaluated-values`; `big-numbers`: numbers are
  hashicorp/hcl's arbitrary-precision literals, passed on as exact decimal
  text; `ranges`: a parse error carries the subject ranges of
  hashicorp/hcl's diagnostics, read from pygohcl's error text. No
  `exact-types`: the answers have only tuples and objects.
- A parse error is answered only when pygohcl reports hashicorp/hcl's parse
  diagnostics ("invalid HCL: ..."). When the parser accepted the file but
  pygohcl's conversion to a map failed, the body is answered with every
  value unevaluated. A recovered Go panic ("panic HCL: ...") or any Python
  exception is a CRASH (traceback on stderr, non-zero exit).
- A source holding a NUL character is answered `unsupported`: pygohcl
  hands the source to Go as a C string, which would cut it there.
"""

import json
import os
import re
import sys
from importlib.metadata import version

from pygohcl import ffi, lib

# The protocol's loop, shared by the Python adapters (scripts/adapters/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapter_protocol import serve  # noqa: E402

NAME = "pygohcl"


class AdapterBug(Exception):
    """The adapter's reading of the file disagrees with pygohcl's."""


class NotLiteral(Exception):
    """The expression text is not a literal."""


class Num(str):
    """A JSON number from pygohcl, kept as its exact decimal text."""


# ---------------------------------------------------------------------------
# Calling pygohcl
# ---------------------------------------------------------------------------


def go_parse(text):
    """(map, None) or (None, error text) from pygohcl's Parse."""
    source = ffi.new("char[]", text.encode("utf-8"))
    result = lib.Parse(source, 0)
    if result.err != ffi.NULL:
        err = ffi.string(result.err).decode("utf-8", "replace")
        lib.FreePtr(result.err)
        return None, err
    raw = ffi.string(result.json).decode("utf-8")
    lib.FreePtr(result.json)
    return json.loads(raw, parse_float=Num, parse_int=Num), None


# ---------------------------------------------------------------------------
# The structure scanner (for files hashicorp/hcl has accepted)
# ---------------------------------------------------------------------------


class Attr:
    def __init__(self, name, text):
        self.name = name
        self.text = text


class Block:
    def __init__(self, type_, labels, items):
        self.type = type_
        self.labels = labels
        self.items = items


def is_id_start(ch):
    return ch.isidentifier()


def is_id_continue(ch):
    return ch == "-" or ("a" + ch).isidentifier()


class Scanner:
    def __init__(self, src):
        self.s = src
        self.i = 1 if src.startswith("\ufeff") else 0

    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def starts(self, t):
        return self.s.startswith(t, self.i)

    def fail(self, what):
        line = self.s.count("\n", 0, self.i) + 1
        raise AdapterBug(f"scanner: {what} at line {line} (offset {self.i})")

    # -- whitespace and comments ------------------------------------------

    def skip_line_comment(self):
        while self.i < len(self.s) and self.s[self.i] != "\n":
            self.i += 1

    def skip_block_comment(self):
        end = self.s.find("*/", self.i + 2)
        if end < 0:
            self.fail("unterminated /* comment")
        self.i = end + 2

    def skip_space(self, newlines):
        """Skips blanks and comments; newlines too when `newlines`."""
        while self.i < len(self.s):
            ch = self.s[self.i]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.i += 1
            elif ch == "#" or self.starts("//"):
                self.skip_line_comment()
            elif self.starts("/*"):
                self.skip_block_comment()
            else:
                return

    # -- bodies -----------------------------------------------------------

    def body(self, nested):
        items = []
        while True:
            self.skip_space(newlines=True)
            if self.i >= len(self.s):
                if nested:
                    self.fail("end of file inside a block")
                return items
            if self.peek() == "}":
                if not nested:
                    self.fail("unexpected }")
                self.i += 1
                return items
            name = self.identifier()
            self.skip_space(newlines=False)
            if self.peek() == "=" and self.peek(1) != "=":
                self.i += 1
                start = self.i
                self.expression(stop_at_brace=nested)
                items.append(Attr(name, self.s[start : self.i].strip(" \t\r")))
                continue
            labels = []
            while True:
                self.skip_space(newlines=False)
                ch = self.peek()
                if ch == "{":
                    self.i += 1
                    break
                if ch == '"':
                    labels.append(self.string_label())
                elif ch and is_id_start(ch):
                    labels.append(self.identifier())
                else:
                    self.fail(f"unexpected {ch!r} in a block header")
            items.append(Block(name, labels, self.body(nested=True)))

    def identifier(self):
        start = self.i
        if not (self.peek() and is_id_start(self.peek())):
            self.fail(f"expected an identifier, found {self.peek()!r}")
        self.i += 1
        while self.peek() and is_id_continue(self.peek()):
            self.i += 1
        return self.s[start : self.i]

    def string_label(self):
        start = self.i
        self.quoted()
        try:
            return string_literal_value(self.s[start : self.i])
        except NotLiteral:
            self.fail("a block label that is not a literal string")

    # -- expressions --------------------------------------------------------

    def expression(self, stop_at_brace):
        """Moves to the end of an attribute's expression: a newline or (in a
        one-line block) a `}` outside any brackets, or the end of file."""
        stack = []
        while self.i < len(self.s):
            ch = self.s[self.i]
            if not stack and (ch == "\n" or (stop_at_brace and ch == "}")):
                return
            self.token(stack)

    def token(self, stack):
        """Consumes one piece of an expression, tracking brackets."""
        ch = self.s[self.i]
        if ch == "#" or self.starts("//"):
            self.skip_line_comment()
        elif self.starts("/*"):
            self.skip_block_comment()
        elif ch == '"':
            self.quoted()
        elif self.starts("<<"):
            self.heredoc()
        elif ch in "([{":
            stack.append(ch)
            self.i += 1
        elif ch in ")]}":
            if not stack:
                self.fail(f"unbalanced {ch!r}")
            stack.pop()
            self.i += 1
        else:
            self.i += 1

    def quoted(self):
        """Moves past a quoted template."""
        self.i += 1
        while True:
            if self.i >= len(self.s):
                self.fail("unterminated quoted template")
            ch = self.s[self.i]
            if ch == "\\":
                self.i += 2
            elif ch == '"':
                self.i += 1
                return
            else:
                self.template_part()

    def template_part(self):
        """Moves past one part of a template's text: an escaped `$${` or
        `%%{`, an interpolation or directive, or one character."""
        if self.starts("$${") or self.starts("%%{"):
            self.i += 3
        elif self.starts("${") or self.starts("%{"):
            self.i += 2
            self.interpolation()
        else:
            self.i += 1

    def interpolation(self):
        """Moves past the rest of an interpolation or directive."""
        stack = []
        while True:
            if self.i >= len(self.s):
                self.fail("unterminated interpolation")
            if self.s[self.i] == "}" and not stack:
                self.i += 1
                return
            self.token(stack)

    def heredoc(self):
        """Moves past a heredoc, to just after its closing marker."""
        self.i += 2
        if self.peek() == "-":
            self.i += 1
        marker = self.identifier()
        if self.starts("\r\n"):
            self.i += 2
        elif self.starts("\n"):
            self.i += 1
        else:
            self.fail("no newline after a heredoc marker")
        while True:
            if self.i >= len(self.s):
                self.fail("unterminated heredoc")
            eol = self.s.find("\n", self.i)
            eol = len(self.s) if eol < 0 else eol
            line = self.s[self.i : eol].rstrip("\r")
            if line.strip(" \t") == marker:
                self.i = self.s.index(marker, self.i) + len(marker)
                return
            while self.i < len(self.s) and self.s[self.i] != "\n":
                self.template_part()
            self.i += 1


# ---------------------------------------------------------------------------
# The literal grammar
# ---------------------------------------------------------------------------

ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def string_literal_value(text):
    """The value of a quoted string literal's source text (for labels)."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise NotLiteral()
    s = text[1:-1]
    out = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\":
            nxt = s[i + 1 : i + 2]
            if nxt in ESCAPES:
                out.append(ESCAPES[nxt])
                i += 2
            elif nxt in ("u", "U"):
                width = 4 if nxt == "u" else 8
                digits = s[i + 2 : i + 2 + width]
                try:
                    out.append(chr(int(digits, 16)))
                except ValueError:
                    raise NotLiteral()
                i += 2 + width
            else:
                raise NotLiteral()
        elif s.startswith("$${", i) or s.startswith("%%{", i):
            out.append(s[i + 1 : i + 3])
            i += 3
        elif s.startswith("${", i) or s.startswith("%{", i):
            raise NotLiteral()
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class Literal:
    """Reads one literal from expression text: raises NotLiteral otherwise.
    Returns a shape: "string", "number", "bool", "null", ("tuple", [shapes])
    or ("object", n) with n the number of items."""

    def __init__(self, text):
        self.sc = Scanner(text)
        self.sc.i = 0

    def whole(self):
        shape = self.value()
        self.space()
        if self.sc.i != len(self.sc.s):
            raise NotLiteral()
        return shape

    def space(self):
        try:
            self.sc.skip_space(newlines=True)
        except AdapterBug:
            raise NotLiteral()

    def value(self):
        self.space()
        sc = self.sc
        ch = sc.peek()
        if ch == "-":
            sc.i += 1
            self.space()
            if not sc.peek().isdigit():
                raise NotLiteral()
            self.number()
            return "number"
        if ch.isdigit():
            self.number()
            return "number"
        if ch == '"':
            start = sc.i
            try:
                sc.quoted()
            except AdapterBug:
                raise NotLiteral()
            body = sc.s[start + 1 : sc.i - 1].replace("$${", "").replace("%%{", "")
            if "${" in body or "%{" in body:
                raise NotLiteral()
            return "string"
        if sc.starts("<<"):
            start = sc.i
            try:
                sc.heredoc()
            except AdapterBug:
                raise NotLiteral()
            if "${" in sc.s[start : sc.i] or "%{" in sc.s[start : sc.i]:
                raise NotLiteral()
            return "string"
        if ch == "[":
            return self.tuple()
        if ch == "{":
            return self.object()
        if ch and is_id_start(ch):
            word = sc.identifier()
            if word in ("true", "false"):
                return "bool"
            if word == "null":
                return "null"
        raise NotLiteral()

    def number(self):
        sc = self.sc
        while sc.peek().isdigit():
            sc.i += 1
        if sc.peek() == "." and sc.peek(1).isdigit():
            sc.i += 1
            while sc.peek().isdigit():
                sc.i += 1
        if sc.peek() in ("e", "E"):
            j = sc.i + 1
            if sc.s[j : j + 1] in ("+", "-"):
                j += 1
            if not sc.s[j : j + 1].isdigit():
                raise NotLiteral()
            sc.i = j
            while sc.peek().isdigit():
                sc.i += 1

    def tuple(self):
        sc = self.sc
        sc.i += 1
        shapes = []
        while True:
            self.space()
            if sc.peek() == "]":
                sc.i += 1
                return ("tuple", shapes)
            shapes.append(self.value())
            self.space()
            if sc.peek() == ",":
                sc.i += 1
            elif sc.peek() != "]":
                raise NotLiteral()

    def object(self):
        sc = self.sc
        sc.i += 1
        n = 0
        while True:
            self.space()
            if sc.peek() == "}":
                sc.i += 1
                return ("object", n)
            ch = sc.peek()
            if ch == '"':
                start = sc.i
                try:
                    sc.quoted()
                except AdapterBug:
                    raise NotLiteral()
                string_literal_value(sc.s[start : sc.i])
            elif ch.isdigit():
                self.number()
            elif ch and is_id_start(ch):
                sc.identifier()
            else:
                raise NotLiteral()
            self.space()
            if sc.peek() not in ("=", ":") or sc.peek(1) == "=":
                raise NotLiteral()
            sc.i += 1
            self.value()
            n += 1
            self.space()
            if sc.peek() == ",":
                sc.i += 1


def literal_shape(text):
    try:
        return Literal(text).whole()
    except NotLiteral:
        return None


# ---------------------------------------------------------------------------
# Answers
# ---------------------------------------------------------------------------


def typed(v):
    """A protocol value (with its type) for a value from pygohcl's map."""
    if v is None:
        return "dynamic", None
    if isinstance(v, bool):
        return "bool", v
    if isinstance(v, Num):
        if "." not in v and "e" not in v.lower() and abs(int(v)) < 2**53:
            return "number", int(v)
        return "number", str(v)
    if isinstance(v, str):
        return "string", v
    if isinstance(v, list):
        items = [typed(x) for x in v]
        return ["tuple", [t for t, _ in items]], [x for _, x in items]
    if isinstance(v, dict):
        items = {k: typed(x) for k, x in v.items()}
        return ["object", {k: t for k, (t, _) in items.items()}], {k: x for k, (_, x) in items.items()}
    raise AdapterBug(f"unexpected value in pygohcl's map: {v!r}")


def check_shape(shape, v, name):
    ok = {
        "string": lambda: isinstance(v, str) and not isinstance(v, Num),
        "number": lambda: isinstance(v, Num),
        "bool": lambda: isinstance(v, bool),
        "null": lambda: v is None,
    }
    if isinstance(shape, str):
        good = ok[shape]()
    elif shape[0] == "tuple":
        good = isinstance(v, list) and len(v) == len(shape[1])
        if good:
            for s, x in zip(shape[1], v):
                check_shape(s, x, name)
    else:
        good = isinstance(v, dict) and len(v) <= shape[1]
    if not good:
        raise AdapterBug(f"attribute {name}: the adapter read a literal {shape!r}, pygohcl gives {v!r}")


def unevaluated(reason):
    return {"unevaluated": reason}


def body_answer(items, m, why_not):
    """The body answer for scanned `items`, reading values from pygohcl's
    map `m` (None: no values, `why_not` says why)."""
    attrs = [it for it in items if isinstance(it, Attr)]
    blocks = [it for it in items if isinstance(it, Block)]
    names = {a.name for a in attrs}
    label_counts = {}
    for b in blocks:
        label_counts.setdefault(b.type, set()).add(len(b.labels))
    ambiguous = {t for t, counts in label_counts.items() if len(counts) > 1 or t in names}
    if m is not None:
        if not isinstance(m, dict):
            raise AdapterBug(f"pygohcl gives {m!r} where the adapter read a body")
        if set(m) != names | set(label_counts):
            raise AdapterBug(
                f"pygohcl's keys {sorted(m)} differ from the adapter's {sorted(names | set(label_counts))}"
            )
    attributes = {}
    for a in attrs:
        shape = literal_shape(a.text)
        if shape is None:
            attributes[a.name] = unevaluated(f"not a literal: {a.text}")
        elif m is None:
            attributes[a.name] = unevaluated(why_not)
        elif a.name in ambiguous:
            attributes[a.name] = unevaluated(
                "pygohcl merges a block of the same name into this attribute's value"
            )
        else:
            check_shape(shape, m[a.name], a.name)
            t, v = typed(m[a.name])
            attributes[a.name] = {"type": t, "value": v}
    # The blocks at one type and label path, in source order.
    groups = {}
    for b in blocks:
        groups.setdefault((b.type, tuple(b.labels)), []).append(b)
    if m is not None:
        for t in set(label_counts) - ambiguous:
            check_label_tree(m[t], [k for k in groups if k[0] == t], groups)
    out_blocks = []
    seen = {}
    for b in blocks:
        key = (b.type, tuple(b.labels))
        index = seen.get(key, 0)
        seen[key] = index + 1
        if m is None:
            inner, why = None, why_not
        elif b.type in ambiguous:
            inner = None
            why = "pygohcl merges blocks of this type with different label counts or with an attribute"
        else:
            node = m[b.type]
            for label in b.labels:
                node = node[label]
            inner = node[index] if len(groups[key]) > 1 else node
            why = why_not
        out_blocks.append({"type": b.type, "labels": b.labels, "body": body_answer(b.items, inner, why)})
    return {"attributes": attributes, "blocks": out_blocks}


def check_label_tree(node, keys, groups):
    """pygohcl's nesting under one block type must hold exactly the label
    paths the adapter read, with a list where several blocks share one."""
    depth = len(keys[0][1])
    paths = {k[1] for k in keys}

    def walk(n, prefix):
        if len(prefix) == depth:
            count = len(groups[(keys[0][0], prefix)])
            if count > 1 and not (isinstance(n, list) and len(n) == count):
                raise AdapterBug(f"pygohcl gives {n!r} for {count} blocks at {prefix}")
            return
        if not isinstance(n, dict):
            raise AdapterBug(f"pygohcl gives {n!r} where the adapter read labels after {prefix}")
        expected = {p[len(prefix)] for p in paths if p[: len(prefix)] == prefix}
        if set(n) != expected:
            raise AdapterBug(f"pygohcl's labels {sorted(n)} after {prefix} differ from {sorted(expected)}")
        for k in n:
            walk(n[k], prefix + (k,))

    walk(node, ())


def go_dependency_versions():
    """hashicorp/hcl's and go-cty's versions, from the Go build information
    inside pygohcl's shared library."""
    import sysconfig
    from pathlib import Path

    import pygohcl

    path = Path(pygohcl.__file__).parent.parent / f"pygohcl{sysconfig.get_config_var('EXT_SUFFIX')}"
    try:
        data = path.read_bytes()
    except OSError:
        return "hashicorp/hcl and go-cty versions unknown"
    found = []
    for module, label in ((rb"github.com/hashicorp/hcl/v2", "hashicorp/hcl"), (rb"github.com/zclconf/go-cty", "go-cty")):
        m = re.search(rb"\ndep\t" + re.escape(module) + rb"\t(v[0-9A-Za-z.+-]+)", data)
        found.append(f"{label} {m.group(1).decode() if m else 'unknown'}")
    return ", ".join(found)


# pygohcl joins hashicorp/hcl's error diagnostics as "invalid HCL: D, D, ..."
# with each D written "FILE:RANGE: SUMMARY; DETAIL" and RANGE "L,C-C" (one
# line) or "L,C-L,C". Only a range at the start of a diagnostic counts: a
# detail may name another range ("already set at tmp.hcl:1,1-2").
DIAGNOSTIC_RANGE = re.compile(r"(?:^invalid HCL: |, )tmp\.hcl:(\d+),(\d+)-(?:(\d+),)?(\d+): ")


def error_ranges(err, text):
    ranges = []
    for m in DIAGNOSTIC_RANGE.finditer(err):
        sl, sc = int(m.group(1)), int(m.group(2))
        el = int(m.group(3)) if m.group(3) else sl
        ec = int(m.group(4))
        ranges.append({"start": position(text, sl, sc), "end": position(text, el, ec)})
    return ranges


def position(text, line, column):
    """A protocol position; the byte offset counts `column - 1` characters
    into the line (hashicorp/hcl counts grapheme clusters, so it is exact
    only where they are single characters)."""
    lines = text.split("\n")
    offset = sum(len(x.encode("utf-8")) + 1 for x in lines[: line - 1])
    if line - 1 < len(lines):
        offset += len(lines[line - 1][: column - 1].encode("utf-8"))
    return {"line": line, "column": column, "byte": offset}


def hello(request):
    return {
        "id": request["id"],
        "name": NAME,
        "version": f"pygohcl {version('pygohcl')} ({go_dependency_versions()})",
        "capabilities": {"kinds": ["config"], "features": ["unevaluated-values", "big-numbers", "ranges"]},
    }


def config(request):
    rid = request["id"]
    if request.get("syntax", "native") != "native":
        return {"id": rid, "unsupported": "pygohcl reads only the native syntax"}
    if request.get("extensions"):
        return {"id": rid, "unsupported": "pygohcl has no extensions (dynamic blocks)"}
    text = request["config"]
    if "\0" in text:
        return {"id": rid, "unsupported": "pygohcl passes the source as a C string, which a NUL would cut"}
    m, err = go_parse(text)
    if err is not None and err.startswith("invalid HCL:"):
        diagnostics = [
            {"severity": "error", "summary": "hashicorp/hcl rejected the source", "range": r}
            for r in error_ranges(err, text)
        ] or [{"severity": "error", "summary": "hashicorp/hcl rejected the source"}]
        diagnostics[0]["detail"] = err
        return {"id": rid, "error": {"phase": "parse", "diagnostics": diagnostics}}
    if err is not None and err.startswith("panic HCL:"):
        raise RuntimeError(f"pygohcl recovered a Go panic: {err}")
    why_not = f"pygohcl could not convert the file: {err}" if err is not None else None
    items = Scanner(text).body(nested=False)
    return {"id": rid, "body": body_answer(items, None if err is not None else m, why_not)}


if __name__ == "__main__":
    serve(NAME, {"hello": hello, "config": config})
