#!/usr/bin/env python3
"""A weaker implementation, for the tests of the runner's capability-aware
grading: it forwards every request to the reference interpreter (hcl-ref)
and changes the answers as MODE says, declaring the FEATURES and KINDS it is
given.

usage: weak.py HCL-REF FEATURES KINDS MODE [SYNTAXES]
  FEATURES, KINDS: comma-separated lists ("" for none)
  SYNTAXES: a comma-separated list declared as `syntaxes`; absent, none is
            declared (the implementation reads both)
  MODE:
    honest          forward the answers unchanged
    retype          objects become maps, tuples lists (when their elements
                    share one type): the same structure, other types
    parse           answer `parsed: true`, or the reference's parse error
    parse-always    answer `parsed: true`, whatever the source
    unevaluated     every attribute of a body becomes {"unevaluated": ...}
    unevaluated-drop  the same, and the first attribute is left out
    as-native       read every source text as native syntax, as a parser
                    that knows no JSON syntax would
    no-ranges       errors keep their phase but lose their diagnostics'
                    ranges
"""
import json
import subprocess
import sys

HCL_REF, FEATURES, KINDS, MODE = sys.argv[1:5]
SYNTAXES = sys.argv[5] if len(sys.argv) > 5 else None
features = [f for f in FEATURES.split(",") if f]
kinds = [k for k in KINDS.split(",") if k]
reference = subprocess.Popen([HCL_REF], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)


def ask(request):
    reference.stdin.write(json.dumps(request) + "\n")
    reference.stdin.flush()
    return json.loads(reference.stdout.readline())


def retype_type(ty, value):
    """The type with objects as maps and tuples as lists, where possible."""
    if isinstance(ty, list) and ty[0] == "object" and value is not None:
        types = {k: retype_type(t, value.get(k)) for k, t in ty[1].items()}
        distinct = {json.dumps(t) for t in types.values()}
        if len(distinct) == 1:
            return ["map", next(iter(types.values()))]
        return ["object", types]
    if isinstance(ty, list) and ty[0] == "tuple" and value is not None:
        types = [retype_type(t, v) for t, v in zip(ty[1], value)]
        distinct = {json.dumps(t) for t in types}
        if len(distinct) == 1:
            return ["list", types[0]]
        return ["tuple", types]
    return ty


def retype(v):
    return dict(v, type=retype_type(v["type"], v.get("value")))


def unevaluate(body, drop):
    names = sorted(body.get("attributes", {}))
    attributes = {k: {"unevaluated": "a fake that does not evaluate"}
                  for k in names[1 if drop else 0:]}
    blocks = [dict(b, body=unevaluate(b["body"], drop)) for b in body.get("blocks", [])]
    return {"attributes": attributes, "blocks": blocks}


def respond(request):
    rid = request.get("id")
    if request.get("kind") == "hello":
        capabilities = {"kinds": kinds, "features": features}
        if SYNTAXES is not None:
            capabilities["syntaxes"] = [s for s in SYNTAXES.split(",") if s]
        return {"id": rid, "name": "weak-" + MODE, "version": "0",
                "capabilities": capabilities}
    if MODE == "as-native" and "syntax" in request:
        request = dict(request, syntax="native")
    answer = ask(request)
    kind = request.get("kind")
    if MODE == "retype" and "value" in answer:
        answer["value"] = retype(answer["value"])
    elif MODE in ("parse", "parse-always") and kind in ("expr", "template", "config"):
        error = answer.get("error")
        if MODE == "parse-always" or not error or error.get("phase") != "parse":
            answer = {"id": rid, "parsed": True}
    elif MODE == "no-ranges" and "error" in answer:
        for diagnostic in answer["error"].get("diagnostics", []):
            diagnostic.pop("range", None)
    elif MODE.startswith("unevaluated") and "body" in answer:
        answer["body"] = unevaluate(answer["body"], MODE == "unevaluated-drop")
    return answer


for line in sys.stdin:
    sys.stdout.write(json.dumps(respond(json.loads(line))) + "\n")
    sys.stdout.flush()
