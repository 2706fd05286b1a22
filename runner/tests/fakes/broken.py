#!/usr/bin/env python3
"""A broken implementation, for the tests that the export's consumer
(scripts/export-consumer.py) and the composite action's script
(scripts/ci-action.sh) reach the runner's verdicts: it forwards every
request to the reference interpreter (hcl-ref) and alters about a third of
the answers, chosen by a hash of the request (its id left out, so that the
runner and the consumer, which number requests differently, get the same
answers), in one of several ways: answered unsupported, a value's first
number, string or bool changed, elements reversed, an error's phase or
range moved, a result turned into an error, a block or attribute dropped,
the answer's member left out.

usage: broken.py HCL-REF
"""
import hashlib
import json
import subprocess
import sys

reference = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)


def ask(request):
    reference.stdin.write(json.dumps(request) + "\n")
    reference.stdin.flush()
    return json.loads(reference.stdout.readline())


def change_leaf(value):
    """The value with its first known number, string or bool changed; None
    when it has none."""
    def walk(v, ty):
        if isinstance(v, bool):
            return True, not v
        if ty == "number" and isinstance(v, (str, int, float)):
            text = str(v)
            return True, "7" if text != "7" else "8"
        if isinstance(v, str):
            return True, v + "!"
        if isinstance(v, list):
            types = ty[1] if isinstance(ty, list) and ty[0] == "tuple" else [ty[1] if isinstance(ty, list) else None] * len(v)
            for i, item in enumerate(v):
                changed, new = walk(item, types[i])
                if changed:
                    return True, v[:i] + [new] + v[i + 1:]
        if isinstance(v, dict):
            for k in sorted(v):
                t = ty[1].get(k) if isinstance(ty, list) and ty[0] == "object" else (ty[1] if isinstance(ty, list) else None)
                changed, new = walk(v[k], t)
                if changed:
                    return True, dict(v, **{k: new})
        return False, v
    if value.get("unknown"):
        return None
    changed, new = walk(value.get("value"), value.get("type"))
    return dict(value, value=new) if changed else None


def first_attribute(body):
    for name in sorted(body.get("attributes", {})):
        return body["attributes"], name
    for block in body.get("blocks", []):
        found = first_attribute(block["body"])
        if found:
            return found
    return None


def alter(answer, way):
    rid = answer["id"]
    if way == 0:
        return {"id": rid, "unsupported": "a broken fake declines"}
    if "error" in answer:
        error = answer["error"]
        if way in (1, 2):
            phases = ["parse", "eval"]
            error["phase"] = phases[1] if error["phase"] == phases[0] else phases[0]
        elif way in (3, 4):
            for d in error.get("diagnostics", []):
                if d.get("range"):
                    d["range"]["start"]["line"] += 5
                    d["range"]["end"]["line"] += 5
        else:
            return {"id": rid, "parsed": True} if way == 5 else {"id": rid}
        return answer
    if way == 1:
        return {"id": rid, "error": {"phase": "eval", "diagnostics": [
            {"severity": "error", "summary": "a broken fake fails"}]}}
    if way == 2:
        return {"id": rid}
    if "value" in answer:
        value = answer["value"]
        if way == 3 and isinstance(value.get("value"), list) and not value.get("unknown"):
            value["value"] = value["value"][::-1]
            if isinstance(value.get("type"), list) and value["type"][0] == "tuple":
                value["type"] = [value["type"][0], value["type"][1][::-1]]
            return answer
        changed = change_leaf(value)
        if changed is not None:
            answer["value"] = changed
        if way == 5 and "safety" in answer:
            answer["safety"] = "safe" if answer["safety"] == "unsafe" else "unsafe"
        return answer
    if "body" in answer:
        body = answer["body"]
        if way == 3 and body.get("blocks"):
            body["blocks"].pop()
            return answer
        found = first_attribute(body)
        if found and way == 4:
            attributes, name = found
            del attributes[name]
        elif found:
            attributes, name = found
            if "value" in attributes[name]:
                attributes[name] = change_leaf(attributes[name]) or {"type": "string", "value": "x"}
        return answer
    if "result" in answer:
        answer["result"] = not answer["result"]
        return answer
    if "type" in answer:
        answer["type"] = "string" if answer["type"] != "string" else "number"
        return answer
    for member in ("list", "traversal"):
        if member in answer:
            answer[member] = answer[member][1:] or ["x"]
    return answer


def respond(request):
    answer = ask(request)
    if request.get("kind") == "hello":
        return answer
    content = json.dumps({k: v for k, v in request.items() if k != "id"}, sort_keys=True)
    digest = int(hashlib.sha256(content.encode()).hexdigest(), 16)
    if digest % 3:
        return answer
    return alter(answer, (digest // 3) % 7)


for line in sys.stdin:
    sys.stdout.write(json.dumps(respond(json.loads(line))) + "\n")
    sys.stdout.flush()
