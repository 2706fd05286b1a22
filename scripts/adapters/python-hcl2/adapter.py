"""The python-hcl2 adapter: python-hcl2 (PyPI) behind the hcl-conformance
subprocess protocol (runner/PROTOCOL.md and the issue #6 additions).

python-hcl2 parses the native syntax with a Lark grammar and turns a file
into a tree of rule objects; it evaluates nothing. What it can tell the
suite is whether a native configuration file is accepted, how the file's
structure (attributes, blocks, labels, nesting, order) is read, and the
value of attributes written as literals.

Decisions:

- Kinds: only `config`, native syntax (`syntax: json` is answered
  `unsupported`). `expr` and `template` are not declared: the protocol's
  `parse-only` feature applies to every one of `expr`, `template` and
  `config` at once, so declaring it would turn the config answers (bodies,
  the useful part) into bare accept/reject answers too. A template file
  cannot be expressed in python-hcl2 at all, and an `expr` case wrapped as
  `x = EXPR` would be graded as a value the adapter cannot give.
- Features: only `unevaluated-values`. python-hcl2 has no list/map/set
  distinction (tuples and objects only), so no `exact-types`; its numbers
  are Python ints and floats, so no `big-numbers`; no unknowns, no ranges.
- Literal or expression: python-hcl2's dict output writes expressions and
  strings with interpolations alike as "${...}" text, so this adapter does
  not read that output. It walks python-hcl2's rule tree (hcl2.parses)
  instead, where every construct has its own rule class, and calls an
  attribute a literal only when its expression is, without parentheses:
  a number (IntLitRule, FloatLitRule, or `-` applied directly to one, which
  python-hcl2 itself folds into a number), `true`, `false`, `null`
  (LiteralValueRule), a quoted string whose parts are all plain text or the
  `$${` / `%%{` escapes (no InterpolationRule, no directive), a heredoc whose
  text holds no `${` or `%{` at all (python-hcl2 does not parse inside
  heredocs, so any of those makes it uncertain, hence unevaluated), or a
  tuple or object built only of such literals, with object keys that are
  identifiers, literal strings or numbers. Everything else is answered
  `{"unevaluated": "not a literal: TEXT"}`.
- Values are the ones python-hcl2 gives in its value mode
  (`strip_string_quotes`, heredocs as plain strings, scientific notation as
  numbers), taken from the same rule objects' own serialization. One
  translation of representation: python-hcl2 keeps the escape tokens `$${`
  and `%%{` as they are written (in its output "${" marks an expression),
  so the adapter gives their value, `${` and `%{`; the rest of such a token
  is kept as python-hcl2 has it.
- Accept/reject: a parse error is answered only when python-hcl2 raised one
  of its rejections: a Lark UnexpectedInput from the parser, the
  transformer's "Unterminated template" errors, or the "already defined"
  error its loads() raises for a block named like an earlier attribute.
  Any other exception is an adapter or library bug: the adapter prints the
  traceback on stderr and exits non-zero, so the runner reports a CRASH.
- Duplicate attribute names are kept as python-hcl2's loads() keeps them:
  the last one wins.
"""

import json
import math
import os
import sys
from importlib.metadata import version

import hcl2
from hcl2.rules.base import AttributeRule, BlockRule, BodyRule
from hcl2.rules.containers import ObjectElemKeyRule, ObjectRule, TupleRule
from hcl2.rules.expressions import ExprTermRule, UnaryOpRule
from hcl2.rules.literal_rules import (
    FloatLitRule,
    IdentifierRule,
    IntLitRule,
    LiteralValueRule,
)
from hcl2.rules.strings import HeredocTemplateRule, StringRule
from hcl2.rules.whitespace import NewLineOrCommentRule
from hcl2.utils import SerializationOptions, process_escape_sequences
from lark.exceptions import UnexpectedInput, VisitError

# The protocol's loop, shared by the Python adapters (scripts/adapters/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapter_protocol import serve  # noqa: E402

NAME = "python-hcl2"

# python-hcl2's value mode: strings without quotes, heredocs as strings,
# numbers in scientific notation as numbers.
VALUE_OPTIONS = SerializationOptions(
    with_comments=False,
    explicit_blocks=False,
    preserve_heredocs=False,
    preserve_scientific_notation=False,
    strip_string_quotes=True,
)
# python-hcl2's default (round-trip) mode, used for the text of an
# unevaluated expression.
TEXT_OPTIONS = SerializationOptions(with_comments=False)


class NotLiteral(Exception):
    """The expression is not a literal python-hcl2 gives a value for."""


def hello(request):
    return {
        "id": request["id"],
        "name": NAME,
        "version": f"python-hcl2 {version('python-hcl2')}, lark {version('lark')}",
        "capabilities": {"kinds": ["config"], "features": ["unevaluated-values"]},
    }


def parse_error(request, summary, detail):
    return {
        "id": request["id"],
        "error": {
            "phase": "parse",
            "diagnostics": [{"severity": "error", "summary": summary, "detail": detail}],
        },
    }


def config(request):
    if request.get("syntax", "native") != "native":
        return {"id": request["id"], "unsupported": "python-hcl2 reads only the native syntax"}
    if request.get("extensions"):
        return {"id": request["id"], "unsupported": "python-hcl2 has no extensions (dynamic blocks)"}
    text = request["config"]
    try:
        tree = hcl2.parses(text)
        # hcl2.loads() is parses() + serialize() with the default options,
        # and serialize carries python-hcl2's own checks of a body: run it
        # as loads() does, for its rejections.
        hcl2.serialize(tree)
    except UnexpectedInput as e:
        return parse_error(request, "python-hcl2 rejected the source", f"{type(e).__name__}: {e}")
    except VisitError as e:
        if isinstance(e.orig_exc, RuntimeError) and str(e.orig_exc).startswith("Unterminated template"):
            return parse_error(request, "python-hcl2 rejected the source", str(e.orig_exc))
        raise
    except RuntimeError as e:
        if str(e).startswith("Attribute ") and str(e).endswith("is already defined."):
            return parse_error(request, "python-hcl2 rejected the source", str(e))
        print(f"{NAME} adapter: python-hcl2's loads() raised on this input:", file=sys.stderr)
        raise
    except Exception:
        print(f"{NAME} adapter: python-hcl2's loads() raised on this input:", file=sys.stderr)
        raise
    return {"id": request["id"], "body": body(tree.body)}


def body(rule):
    """A body answer: attributes by name, blocks in source order."""
    if not isinstance(rule, BodyRule):
        raise TypeError(f"expected a body rule, got {rule!r}")
    attributes = {}
    blocks = []
    for child in rule.children:
        if isinstance(child, AttributeRule):
            attributes[child.identifier.serialize(VALUE_OPTIONS)] = attribute_value(child.expression)
        elif isinstance(child, BlockRule):
            # python-hcl2 reads a newline before the `{` into the labels.
            type_rule, *label_rules = [
                r for r in child.labels if not isinstance(r, NewLineOrCommentRule)
            ]
            blocks.append(
                {
                    "type": type_rule.serialize(VALUE_OPTIONS),
                    "labels": [label(lr) for lr in label_rules],
                    "body": body(child.body),
                }
            )
    return {"attributes": attributes, "blocks": blocks}


def label(rule):
    if isinstance(rule, IdentifierRule):
        return rule.serialize(VALUE_OPTIONS)
    if isinstance(rule, StringRule):
        try:
            return string_value(rule)
        except NotLiteral:
            # python-hcl2 accepts a template as a label; give its text as
            # python-hcl2 has it.
            return rule.serialize(VALUE_OPTIONS)
    raise TypeError(f"unexpected block label rule {rule!r}")


def attribute_value(expr):
    try:
        return literal(expr)
    except NotLiteral:
        return {"unevaluated": f"not a literal: {expression_text(expr)}"}


def expression_text(expr):
    text = expr.serialize(TEXT_OPTIONS)
    return text if isinstance(text, str) else json.dumps(text)


def literal(expr):
    """The typed protocol value of a literal expression, or NotLiteral."""
    if isinstance(expr, ExprTermRule):
        if expr.parentheses:
            raise NotLiteral()
        return literal(expr.expression)
    if isinstance(expr, (IntLitRule, FloatLitRule)):
        return number(expr.serialize(VALUE_OPTIONS))
    if isinstance(expr, UnaryOpRule):
        # python-hcl2 folds `-` applied directly to a number into a number.
        operand = expr.expr_term
        if (
            expr.operator.strip() == "-"
            and isinstance(operand, ExprTermRule)
            and not operand.parentheses
            and isinstance(operand.expression, (IntLitRule, FloatLitRule))
        ):
            return number(expr.serialize(VALUE_OPTIONS))
        raise NotLiteral()
    if isinstance(expr, LiteralValueRule):
        v = expr.serialize(VALUE_OPTIONS)
        if v is None:
            return {"type": "dynamic", "value": None}
        if isinstance(v, bool):
            return {"type": "bool", "value": v}
        raise TypeError(f"unexpected literal value {v!r}")
    if isinstance(expr, StringRule):
        return {"type": "string", "value": string_value(expr)}
    if isinstance(expr, HeredocTemplateRule):  # also HeredocTrimTemplateRule
        raw = str(expr.heredoc.value)
        if "${" in raw or "%{" in raw:
            raise NotLiteral()
        v = expr.serialize(VALUE_OPTIONS)
        if not isinstance(v, str):
            raise TypeError(f"unexpected heredoc value {v!r}")
        return {"type": "string", "value": v}
    if isinstance(expr, TupleRule):
        items = [literal(e) for e in expr.elements]
        return {
            "type": ["tuple", [i["type"] for i in items]],
            "value": [i["value"] for i in items],
        }
    if isinstance(expr, ObjectRule):
        entries = {}
        for elem in expr.elements:
            entries[object_key(elem.key)] = literal(elem.expression)
        return {
            "type": ["object", {k: v["type"] for k, v in entries.items()}],
            "value": {k: v["value"] for k, v in entries.items()},
        }
    raise NotLiteral()


def object_key(key):
    if not isinstance(key, ObjectElemKeyRule):
        raise NotLiteral()  # an expression key, e.g. (k) or "${k}"
    inner = key.value
    if isinstance(inner, StringRule):
        return string_value(inner)
    if isinstance(inner, (IdentifierRule, IntLitRule, FloatLitRule)):
        return str(key.serialize(VALUE_OPTIONS))
    raise NotLiteral()


def string_value(rule):
    """The value of a quoted string without interpolations or directives."""
    out = []
    for part in rule.string_parts:
        content = getattr(part, "content", None)
        kind = content.lark_name() if content is not None else None
        if kind == "STRING_CHARS":
            out.append(process_escape_sequences(str(content.value)))
        elif kind in ("ESCAPED_INTERPOLATION", "ESCAPED_DIRECTIVE"):
            # `$${...}` / `%%{...}`: the escape's value starts `${` / `%{`.
            out.append(str(content.value)[1:])
        else:
            raise NotLiteral()
    return "".join(out)


def number(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"unexpected number value {v!r}")
    if isinstance(v, float) and math.isinf(v):
        return {"type": "number", "value": "+Inf" if v > 0 else "-Inf"}
    return {"type": "number", "value": v}


if __name__ == "__main__":
    serve(NAME, {"hello": hello, "config": config})
