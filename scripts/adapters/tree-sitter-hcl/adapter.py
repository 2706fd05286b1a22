#!/usr/bin/env python3
"""tree-sitter-hcl behind the hcl-conformance subprocess protocol.

tree-sitter-hcl is a grammar, not an evaluator, so this adapter answers in
the `parse-only` mode of the protocol (runner/PROTOCOL.md, and the protocol
additions of issue #6): for a native-syntax `config` or an `expr` request it
answers `{"id": ID, "parsed": true}` when tree-sitter's tree has no ERROR and
no MISSING node, and a `parse` error otherwise.

- `expr` requests are parsed as the one-attribute configuration
  `x = EXPR`: the grammar has no entry point for a lone expression. No
  newline is added after the expression (the grammar accepts an attribute
  at the end of the file without one), so a heredoc whose closing marker
  ends the text stays unterminated, as it is in the expression alone. The
  wrapping accepts and rejects what the expression alone would, except for
  a newline outside brackets (which ends the attribute in a configuration,
  while hashicorp/hcl ignores it in a standalone expression; the suite does
  not test such newlines in standalone expressions).
- `template` requests are unsupported: the grammar has no template-file
  entry point, and wrapping a template in a heredoc would change what it
  means.
- JSON-syntax configurations are unsupported: the grammar is native only.
- A `config` request that asks for an extension (`dynblock`) is parsed like
  any other: extensions work on the parsed body and change nothing about
  which files parse.

The diagnostics carry the range of the first ERROR or MISSING node, mapped
to the request's own text (line, column in Unicode characters, byte). The
adapter does not declare the `ranges` feature: where tree-sitter puts an
error is not where HCL puts it.

The adapter answers one request per line until standard input closes and
prints nothing else on standard output. An unexpected exception ends the
process with a non-zero status and the trace on standard error, so the
runner reports CRASH, never a rejection.
"""

import importlib.metadata
import json
import sys

import tree_sitter
import tree_sitter_hcl

#: What `expr` sources are wrapped in: a configuration with one attribute.
EXPR_PREFIX = b"x = "

#: The UTF-8 byte order mark.
BOM = "\ufeff".encode("utf-8")

NAME = "tree-sitter-hcl"
KINDS = ["config", "expr"]
FEATURES = ["parse-only"]


def version_text():
    """The pinned package versions, as the hello answer reports them."""
    grammar = importlib.metadata.version("tree-sitter-hcl")
    binding = importlib.metadata.version("tree-sitter")
    return f"tree-sitter-hcl {grammar}, py-tree-sitter {binding}"


def encode(text):
    """Source text as UTF-8 bytes; a lone surrogate (which JSON can carry
    but UTF-8 cannot) is kept byte for byte rather than failing."""
    return text.encode("utf-8", errors="surrogatepass")


def first_error(node):
    """The first ERROR or MISSING node in document order, or None.

    Iterative (a stack, not recursion) so that deeply nested sources cannot
    exhaust Python's recursion limit."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            return current
        if current.has_error:
            stack.extend(reversed(current.children))
    return None


def position(source, offset):
    """The protocol position (1-based line and column, column counting
    Unicode characters, 0-based byte) of byte `offset` of `source`."""
    offset = max(0, min(offset, len(source)))
    line_start = source.rfind(b"\n", 0, offset) + 1
    line = source.count(b"\n", 0, offset) + 1
    prefix = source[line_start:offset].decode("utf-8", errors="replace")
    return {"line": line, "column": len(prefix) + 1, "byte": offset}


def diagnostic(source, to_source, node):
    """A diagnostic for the error node `node`; `to_source` maps a byte
    offset of the parsed text to one of `source` (the request's own text)."""
    if node.is_missing:
        summary = f"tree-sitter: missing {node.type}"
    else:
        summary = "tree-sitter: syntax error (ERROR node)"
    start = to_source(node.start_byte)
    end = max(start, to_source(node.end_byte))
    return {
        "severity": "error",
        "summary": summary,
        "range": {"start": position(source, start), "end": position(source, end)},
    }


class Adapter:
    """One parser, reused for every request."""

    def __init__(self):
        self.parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_hcl.language()))

    def check(self, request_id, source, prefix=b""):
        """Parse `prefix + source` and answer for `source`.

        A byte order mark that starts `source` stays at the start of the
        parsed text (before `prefix`), where tree-sitter skips it, so that
        an expression starting with one is read as it would be alone."""
        lead = BOM if prefix and source.startswith(BOM) else b""
        tree_source = lead + prefix + source[len(lead):]

        def to_source(offset):
            # An offset inside the prefix maps to where the prefix stands.
            if offset < len(lead):
                return offset
            if offset < len(lead) + len(prefix):
                return len(lead)
            return min(offset - len(prefix), len(source))

        tree = self.parser.parse(tree_source)
        if not tree.root_node.has_error:
            return {"id": request_id, "parsed": True}
        node = first_error(tree.root_node)
        diagnostics = []
        if node is not None:
            diagnostics.append(diagnostic(source, to_source, node))
        else:
            diagnostics.append({"severity": "error", "summary": "tree-sitter: syntax error"})
        return {"id": request_id, "error": {"phase": "parse", "diagnostics": diagnostics}}

    def answer(self, request):
        request_id = request.get("id")
        kind = request.get("kind")
        if kind == "hello":
            return {
                "id": request_id,
                "name": NAME,
                "version": version_text(),
                "capabilities": {"kinds": KINDS, "features": FEATURES},
            }
        if kind == "expr":
            return self.check(request_id, encode(request["expr"]), EXPR_PREFIX)
        if kind == "config":
            syntax = request.get("syntax", "native")
            if syntax != "native":
                return {"id": request_id, "unsupported": f"{syntax} syntax: the grammar is native-syntax only"}
            # An extension (`dynblock`) works on the parsed body: it does not
            # change what parses, so the answer is the same with or without.
            return self.check(request_id, encode(request["config"]))
        if kind == "template":
            return {"id": request_id, "unsupported": "template files: the grammar has no template entry point"}
        return {"id": request_id, "unsupported": f"kind {kind!r}: tree-sitter-hcl only parses"}


def main():
    adapter = Adapter()
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        out.write(json.dumps(adapter.answer(request)) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
