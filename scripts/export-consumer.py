#!/usr/bin/env python3
"""Runs the suite's JSON export (`hcl-conformance export --out DIR`) against
an implementation behind the protocol, without the runner: an example of
what a harness in any language does with the export (README.md § The suite
as data). Python 3 standard library only.

usage: export-consumer.py EXPORT-DIR --impl COMMAND [--profile spec]
                          [--json] [FILTER]

For each case of EXPORT-DIR/index.json (whose id contains FILTER): the case
is unsupported when the implementation's `hello` answer lacks what the
case's `needs` name; otherwise its `request` is sent and the answer is
graded against its `expect` under the profile, as the export's schema
(runner/schema/export-case.schema.json) and runner/PROTOCOL.md § Grading what an implementation can say
describe. Prints each failure and a summary, or with --json one object,
{case id: {"status": passed|failed|unsupported, "reason": ...}}. Exits 1
when a case failed, 2 on a usage error.
"""
import argparse
import json
import shlex
import subprocess
import sys
import unicodedata
from decimal import MAX_PREC, Decimal, InvalidOperation, localcontext
from pathlib import Path


class Broken(Exception):
    """An answer the harness cannot read, or no answer: the case fails."""


class Implementation:
    """The implementation's process, started again when it exits."""

    def __init__(self, command):
        self.command = command
        self.process = None
        self.capabilities = None

    def start(self):
        self.process = subprocess.Popen(
            shlex.split(self.command), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def ask(self, request):
        if self.process is None or self.process.poll() is not None:
            self.start()
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except OSError as e:
            raise Broken(f"the implementation stopped: {e}") from e
        if not line:
            self.process = None
            raise Broken("the implementation exited without answering")
        try:
            answer = json.loads(line, parse_float=Decimal)
        except ValueError as e:
            raise Broken(f"an answer that is not JSON: {e}") from e
        if not isinstance(answer, dict) or answer.get("id") != request["id"]:
            raise Broken("an answer with another id")
        return answer

    def hello(self, request):
        answer = self.ask(request)
        self.capabilities = answer.get("capabilities", {})
        return answer


def missing_needs(needs, capabilities, parse_only_kinds):
    """What the case needs and the implementation did not declare."""
    missing = []
    if needs["kind"] not in capabilities.get("kinds", []):
        missing.append(f"kind {needs['kind']}")
    syntaxes = capabilities.get("syntaxes")
    if "syntax" in needs and syntaxes is not None and needs["syntax"] not in syntaxes:
        missing.append(f"syntax {needs['syntax']}")
    features = capabilities.get("features", [])
    if "parse-only" in features and needs["kind"] in parse_only_kinds:
        return missing
    return missing + [f for f in needs["features"] if f not in features]


# Values: a type, a JSON value, unknown marks and (expected values only)
# approximation marks, read together into a tree of
# (kind, payload): ("null",), ("unknown",), ("string", s), ("number", d),
# ("approx", d, tolerance), ("bool", b), ("seq", items, is_set), ("map", {k: v}).

def number(json_value):
    if isinstance(json_value, bool) or not isinstance(json_value, (int, Decimal, str)):
        raise Broken(f"a number is a JSON number or a decimal string, not {json_value!r}")
    try:
        return Decimal(str(json_value))
    except InvalidOperation as e:
        raise Broken(f"not a number: {json_value!r}") from e


def mark_at(marks, key):
    if isinstance(marks, list):
        return marks[key] if isinstance(key, int) and key < len(marks) else False
    if isinstance(marks, dict):
        return marks.get(key, False)
    return False


def read(ty, value, unknown=False, approx=None):
    """A typed value as a tree; Broken when the value does not fit its type."""
    if unknown is True:
        return ("unknown",)
    if value is None:
        return ("null",)
    if approx not in (None, False) and not isinstance(approx, (list, dict)):
        return ("approx", number(value), number(approx))
    if ty == "string" and isinstance(value, str):
        return ("string", unicodedata.normalize("NFC", value))
    if ty == "number":
        return ("number", number(value))
    if ty == "bool" and isinstance(value, bool):
        return ("bool", value)
    if isinstance(ty, list) and ty and isinstance(value, list):
        if ty[0] in ("list", "set"):
            types = [ty[1]] * len(value)
        elif ty[0] == "tuple" and len(ty[1]) == len(value):
            types = ty[1]
        else:
            raise Broken(f"a value of type {json.dumps(ty)} is not an array of that length")
        items = [read(t, v, mark_at(unknown, i), mark_at(approx, i))
                 for i, (t, v) in enumerate(zip(types, value))]
        if ty[0] == "set":
            # Equal known elements are one element of a set.
            unique = []
            for item in items:
                if item not in unique or "unknown" in repr(item):
                    unique.append(item)
            items = unique
        return ("seq", items, ty[0] == "set")
    if isinstance(ty, list) and ty and isinstance(value, dict):
        nfc = {unicodedata.normalize("NFC", k): (k, v) for k, v in value.items()}
        if ty[0] == "map":
            types = {k: ty[1] for k in nfc}
        elif ty[0] == "object" and set(ty[1]) == set(nfc):
            types = ty[1]
        else:
            raise Broken(f"a value of type {json.dumps(ty)} does not have its keys")
        return ("map", {k: read(types[k], v, mark_at(unknown, raw), mark_at(approx, raw))
                        for k, (raw, v) in nfc.items()})
    raise Broken(f"a value of type {json.dumps(ty)} is not {json.dumps(value, default=str)}")


def answer_value(typed):
    if not isinstance(typed, dict) or "type" not in typed:
        raise Broken("a value is an object with `type` and `value`")
    return read(typed["type"], typed.get("value"), typed.get("unknown", False))


def expected_value(typed):
    return read(typed["type"], typed["value"], typed.get("unknown", False),
                typed.get("approx"))


def compare(expected, actual, path="", any_order=False):
    """The first difference between two value trees, or None."""
    e, a = expected[0], actual[0]
    at = f"{path}: " if path else ""
    if e in ("unknown", "null") or a in ("unknown", "null"):
        return None if e == a else f"{at}expected {e}, got {a}"
    if e == a and e in ("string", "bool") and expected[1] == actual[1]:
        return None
    if e == "number" and a == "number" and expected[1] == actual[1]:
        return None
    if e == "approx" and a == "number":
        try:
            with localcontext(prec=MAX_PREC):
                near = abs(actual[1] - expected[1]) <= expected[2]
        except InvalidOperation:
            near = False
        return None if near else f"{at}expected ~{expected[1]}, got {actual[1]}"
    if e == "seq" and a == "seq":
        items, got = expected[1], actual[1]
        if len(items) != len(got):
            return f"{at}expected {len(items)} elements, got {len(got)}"
        if actual[2] or any_order:
            used = [False] * len(got)
            for i, item in enumerate(items):
                j = next((j for j in range(len(got))
                          if not used[j] and compare(item, got[j]) is None), None)
                if j is None:
                    return f"{path}[{i}]: not among the actual elements"
                used[j] = True
            return None
        for i, (item, g) in enumerate(zip(items, got)):
            difference = compare(item, g, f"{path}[{i}]")
            if difference:
                return difference
        return None
    if e == "map" and a == "map":
        if set(expected[1]) != set(actual[1]):
            return f"{at}expected the keys {sorted(expected[1])}, got {sorted(actual[1])}"
        for k, item in expected[1].items():
            difference = compare(item, actual[1][k], f"{path}[{k!r}]")
            if difference:
                return difference
        return None
    return f"{at}expected {e} {expected[1:]!r}, got {a} {actual[1:]!r}"


def canonical_type(ty):
    """A type as the information model has it: go-cty writes an object type
    constraint's optional attributes as a third element, which it drops."""
    if isinstance(ty, list) and len(ty) >= 2:
        inner = ty[1]
        if isinstance(inner, dict):
            return [ty[0], {k: canonical_type(t) for k, t in inner.items()}]
        if isinstance(inner, list):
            return [ty[0], [canonical_type(t) for t in inner]]
        return [ty[0], canonical_type(inner)]
    return ty


def compare_typed(expect, typed, grading, path="", any_order=False):
    if not isinstance(typed, dict):
        raise Broken("a value is an object with `type` and `value`")
    if grading["exact-types"] and canonical_type(typed.get("type")) != expect["type"]:
        return f"{path}: expected type {json.dumps(expect['type'])}, got {json.dumps(typed.get('type'))}"
    return compare(expected_value(expect), answer_value(typed), path, any_order)


def compare_body(expect, body, grading, path="body"):
    if not isinstance(body, dict):
        raise Broken("a body is an object")
    attributes = body.get("attributes", {})
    if set(expect.get("attributes", {})) != set(attributes):
        return f"{path}: expected the attributes {sorted(expect.get('attributes', {}))}, got {sorted(attributes)}"
    for name, value in expect.get("attributes", {}).items():
        got = attributes[name]
        if isinstance(got, dict) and "unevaluated" in got:
            if grading["unevaluated-values"]:
                continue
            return f"{path}.{name}: not evaluated, without the feature unevaluated-values"
        difference = compare_typed(value, got, grading, f"{path}.{name}")
        if difference:
            return difference
    blocks, got = expect.get("blocks", []), body.get("blocks", [])
    if len(blocks) != len(got):
        return f"{path}: expected {len(blocks)} blocks, got {len(got)}"
    for i, (e, a) in enumerate(zip(blocks, got)):
        at = f"{path}.blocks[{i}]"
        if e["type"] != a.get("type") or e.get("labels", []) != a.get("labels", []):
            return f"{at}: expected {e['type']} {e.get('labels', [])}, got {a.get('type')} {a.get('labels', [])}"
        difference = compare_body(e["body"], a.get("body", {}), grading, f"{at}.body")
        if difference:
            return difference
    if ("remain" in expect) != (body.get("remain") is not None):
        return f"{path}: expected {'a' if 'remain' in expect else 'no'} remaining body"
    if "remain" in expect:
        return compare_body(expect["remain"], body["remain"], grading, f"{path}.remain")
    return None


def ranges(error):
    for d in error.get("diagnostics", []):
        r = d.get("range")
        if r:
            yield (r["start"]["line"], r["start"]["column"], r["end"]["line"], r["end"]["column"])


def first_difference(expect, answer, kind, grading):
    """How the answer misses the expectation, or None when it meets it."""
    if "one_of" in expect:
        misses = [first_difference(o, answer, kind, grading) for o in expect["one_of"]]
        return None if None in misses else "none of the accepted results: " + "; ".join(misses)
    error = answer.get("error")
    if grading["parse-only"]:
        if "error" in expect and expect["error"]["phase"] == "parse":
            pass  # graded as any error, below
        elif answer.get("parsed") is True and error is None:
            return None
        else:
            return "expected the source to parse (`parsed: true`)"
    if "error" in expect:
        if error is None:
            return f"expected an error in phase {expect['error']['phase']}"
        if error.get("phase") != expect["error"]["phase"]:
            return f"expected an error in phase {expect['error']['phase']}, got {error.get('phase')}"
        wanted = expect["error"].get("range")
        got = list(ranges(error))
        if wanted and grading["ranges"] and got:
            w = (wanted["start"]["line"], wanted["start"]["column"],
                 wanted["end"]["line"], wanted["end"]["column"])
            if w not in got:
                return f"expected an error at {w}, got {got}"
        return None
    if error is not None:
        return f"expected a result, got an error in phase {error.get('phase')}"
    if "value" in expect:
        if "value" not in answer:
            raise Broken(f"an answer to a `{kind}` request has `value`")
        difference = compare_typed(expect["value"], answer["value"], grading, "",
                                   expect.get("any_order", False))
        if difference or not grading["safety"] or "safety" not in expect:
            return difference
        if answer.get("safety") != expect["safety"]:
            return f"expected the conversion to be {expect['safety']}, got {answer.get('safety')}"
        return None
    if "body" in expect:
        if "body" not in answer:
            raise Broken("an answer to a `config` request has `body`")
        return compare_body(expect["body"], answer["body"], grading)
    if "type" in expect:
        if canonical_type(answer.get("type")) == expect["type"]:
            return None
        return f"expected type {json.dumps(expect['type'])}, got {json.dumps(answer.get('type'))}"
    for member in ("result", "list", "map", "call", "traversal"):
        if member in expect:
            if answer.get(member) == expect[member]:
                return None
            return f"expected {member} {json.dumps(expect[member])}, got {json.dumps(answer.get(member), default=str)}"
    raise Broken(f"an expectation this harness does not know: {sorted(expect)}")


def judge(case, profile, implementation, parse_only_kinds):
    """(status, reason) of one case."""
    wanted = case["profiles"][profile]
    capabilities = implementation.capabilities
    missing = missing_needs(wanted["needs"], capabilities, parse_only_kinds)
    if missing:
        return "unsupported", "needs " + ", ".join(missing)
    features = set(capabilities.get("features", []))
    kind = case["request"]["kind"]
    grading = {f: f in features for f in ("exact-types", "safety", "ranges", "unevaluated-values")}
    grading["parse-only"] = "parse-only" in features and kind in parse_only_kinds
    try:
        answer = implementation.ask(case["request"])
        if answer.get("malformed") is not None:
            return "failed", f"malformed: {answer['malformed']}"
        if answer.get("unsupported") is not None:
            return "unsupported", f"answered unsupported: {answer['unsupported']}"
        difference = first_difference(wanted["expect"], answer, kind, grading)
    except Broken as e:
        return "failed", f"broken answer: {e}"
    return ("failed", difference) if difference else ("passed", "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export", type=Path, help="the export's folder (hcl-conformance export --out)")
    parser.add_argument("--impl", required=True, help="the implementation's command")
    parser.add_argument("--profile", default="spec")
    parser.add_argument("--json", action="store_true", help="print every verdict as JSON")
    parser.add_argument("filter", nargs="?", default="", help="only case ids containing this")
    args = parser.parse_args()
    try:
        index = json.loads((args.export / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        parser.exit(2, f"{args.export / 'index.json'}: cannot read the export's index ({e}); "
                       "write it with hcl-conformance export --out DIR\n")
    if args.profile not in index["profiles"]:
        parser.exit(2, f"unknown profile {args.profile}; the export has {index['profiles']}\n")
    implementation = Implementation(args.impl)
    try:
        implementation.hello(index["hello"])
    except Broken as e:
        parser.exit(2, f"{args.impl}: no answer to hello: {e}\n")
    verdicts = {}
    for entry in index["cases"]:
        if args.filter not in entry["id"]:
            continue
        case = json.loads((args.export / entry["path"]).read_text(encoding="utf-8"))
        status, reason = judge(case, args.profile, implementation, index["parse_only_kinds"])
        verdicts[entry["id"]] = {"status": status, "reason": reason}
        if status == "failed" and not args.json:
            print(f"FAILED {entry['id']}: {reason}")
    if args.json:
        print(json.dumps(verdicts, indent=1))
    counts = {s: sum(v["status"] == s for v in verdicts.values())
              for s in ("passed", "failed", "unsupported")}
    print(f"{len(verdicts)} cases: " + ", ".join(f"{n} {s}" for s, n in counts.items()),
          file=sys.stderr)
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
