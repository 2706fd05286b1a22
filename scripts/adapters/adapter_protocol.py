"""The subprocess protocol's loop (runner/PROTOCOL.md), written once for the
Python adapters that answer requests one at a time: read a request line,
answer it with one line, until standard input ends.

Answers go to a private copy of standard output; anything else written
there (by a library, Python or native code) goes to standard error, so that
it cannot break an answer line. A request the adapter fails on ends the
adapter with its traceback (the runner counts it a crash of that case); a
runner that stops reading ends it quietly.
"""

import json
import os
import sys
import traceback


def serve(name, answers_by_kind):
    """Answers every request on standard input: `answers_by_kind` maps a
    request kind to the function that answers it; other kinds are answered
    `unsupported`."""
    sys.setrecursionlimit(20000)
    sys.stdin.reconfigure(encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            kind = request.get("kind")
            how = answers_by_kind.get(kind)
            if how is None:
                result = {"id": request["id"], "unsupported": f"{name} does not answer {kind!r} requests"}
            else:
                result = how(request)
        except Exception:
            print(f"{name} adapter: request {request.get('id')!r} failed:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            sys.exit(1)
        try:
            answers.write(json.dumps(result, allow_nan=False) + "\n")
            answers.flush()
        except BrokenPipeError:
            return  # the runner stopped reading
