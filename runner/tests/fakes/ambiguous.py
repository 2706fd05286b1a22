#!/usr/bin/env python3
"""A fake implementation whose answers are JSON but ambiguous, for the
runner's strict reading of answers. It answers `hello` properly, then
answers every `expr` request (it evaluates nothing: the tests ask for `1`)
as MODE says:

- good: the value 1, the control
- value-and-error: the value 1 and an error both
- value-and-unsupported: the value 1, and `unsupported`
- null-error: the value 1, and `"error": null` (null counts as absent)
- duplicate-id: the value 1, the id written twice
- duplicate-type: the value 1, with its `type` written twice
- duplicate-nested: an object value with a member written twice
- duplicate-hello: its answer to `hello` names `name` twice"""
import json
import sys

MODE = sys.argv[1]
VALUE = '{"type": "number", "value": "1"}'
ERROR = ('{"phase": "eval", "diagnostics": [{"severity": "error", '
         '"summary": "Something"}]}')

for line in sys.stdin:
    request = json.loads(line)
    rid = json.dumps(request.get("id"))
    if request.get("kind") == "hello":
        answer = json.dumps({"id": request.get("id"), "name": "fake-" + MODE,
                             "version": "0",
                             "capabilities": {"kinds": ["expr"]}})
        if MODE == "duplicate-hello":
            answer = answer.replace('"name": ', '"name": "other", "name": ', 1)
    elif MODE == "good":
        answer = '{"id": %s, "value": %s}' % (rid, VALUE)
    elif MODE == "value-and-error":
        answer = '{"id": %s, "value": %s, "error": %s}' % (rid, VALUE, ERROR)
    elif MODE == "value-and-unsupported":
        answer = '{"id": %s, "value": %s, "unsupported": "no"}' % (rid, VALUE)
    elif MODE == "null-error":
        answer = '{"id": %s, "value": %s, "error": null}' % (rid, VALUE)
    elif MODE == "duplicate-id":
        answer = '{"id": %s, "id": %s, "value": %s}' % (rid, rid, VALUE)
    elif MODE == "duplicate-type":
        answer = ('{"id": %s, "value": {"type": "number", "type": "number", '
                  '"value": "1"}}' % rid)
    elif MODE == "duplicate-nested":
        answer = ('{"id": %s, "value": {"type": ["object", {"a": "number"}], '
                  '"value": {"a": "1", "a": "2"}}}' % rid)
    else:
        sys.exit("unknown mode " + MODE)
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()
