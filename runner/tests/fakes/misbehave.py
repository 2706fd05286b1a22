#!/usr/bin/env python3
"""A fake implementation that misbehaves in one chosen way, for the runner's
robustness tests. It answers `hello` properly, then, for case requests,
does what MODE says. The flooding modes (`flood-no-newline`,
`flood-lines`), the long answers (`answers-60mib`, `answers-of SIZE`,
`numbers-of SIZE`) and the escapes (`escapes`) are the attacks of
runner/tests/hostile_implementation.rs.

Given a file after MODE, it first starts a helper process that sleeps in
the background (as an implementation's own helper might), and appends the
helper's process id and its own to that file: the tests check that the
runner leaves none of them running."""
import json
import os
import subprocess
import sys
import time

MODE = sys.argv[1]
# `answers-of` and `numbers-of` take the size of their answers, in bytes,
# first.
SIZE = 60 << 20
if MODE in ("answers-of", "numbers-of"):
    SIZE = int(sys.argv.pop(2))
KINDS = ["convert", "unify", "identical", "matches", "operation"]


if len(sys.argv) > 2:
    helper = subprocess.Popen(["sleep", "1000"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    with open(sys.argv[2], "a") as pids:
        pids.write("%d\n%d\n" % (helper.pid, os.getpid()))

if MODE == "mute":
    # Never answers, not even `hello`.
    time.sleep(3600)
if MODE == "close-before-hello":
    # Closes its output at once, and runs on.
    os.close(1)
    time.sleep(3600)


def flood(chunk):
    """Writes `chunk` again and again, for ever; once nobody reads, runs on
    (until killed)."""
    chunk = chunk * ((1 << 20) // len(chunk))
    try:
        while True:
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
    except BrokenPipeError:
        time.sleep(3600)


def error_answer(rid, summary):
    """A well-formed error answer with this summary: a wrong answer for a
    case that expects a value."""
    return {"id": rid, "error": {"phase": "eval", "diagnostics": [
        {"severity": "error", "summary": summary}]}}


def send_long(head, filler, tail):
    """Writes one line of about SIZE bytes: `head`, `filler` repeated,
    `tail`, without holding it whole (the fake stays small in memory)."""
    chunk = filler * ((1 << 20) // len(filler))
    left = SIZE - len(head) - len(tail)
    sys.stdout.write(head)
    while left > 0:
        sys.stdout.write(chunk[:left])
        left -= len(chunk)
    sys.stdout.write(tail + "\n")
    sys.stdout.flush()


def send(data):
    if isinstance(data, bytes):
        sys.stdout.buffer.write(data + b"\n")
    else:
        sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


count = 0
hello = False
for line in sys.stdin:
    request = json.loads(line)
    rid = request.get("id")
    if request.get("kind") == "hello":
        hello = True
        kinds = ["unify"] if MODE == "only-unify" else KINDS
        # In `escapes` mode its name sets the terminal's window title.
        name = "fake-" + MODE + ("\x1b]0;pwned\x07" if MODE == "escapes" else "")
        send({"id": rid, "name": name, "version": "0",
              "capabilities": {"kinds": kinds,
                               "features": ["exact-types", "big-numbers"]}})
        if MODE == "deaf":
            # Never reads its input again, and never exits.
            time.sleep(3600)
        if MODE == "close-after-hello":
            os.close(1)
            time.sleep(3600)
        continue
    count += 1
    if MODE in ("hang", "deaf"):
        time.sleep(3600)
    elif MODE == "close-after-hello":
        os.close(1)
        time.sleep(3600)
    elif MODE == "crash":
        sys.stderr.write("fake: something went very wrong\n")
        sys.stderr.flush()
        sys.exit(3)
    elif MODE == "crash-every-other":
        if count % 2 == 0:
            sys.exit(4)
        send({"id": rid, "unsupported": "only every other case"})
    elif MODE == "garbage":
        send(b"this is not JSON")
    elif MODE == "non-utf8":
        send(b'{"id": "\xff\xfe"}')
    elif MODE == "huge":
        sys.stdout.write('{"id": "' + rid + '", "x": "' + "a" * (70 << 20) + '"}\n')
        sys.stdout.flush()
    elif MODE in ("flood-no-newline", "flood-lines"):
        # The process that answered `hello` answers its first case, then
        # floods: one endless line, or endless lines that nobody asked for.
        # The others hang, while it floods.
        if not hello:
            time.sleep(3600)
        send({"id": rid, "unsupported": "fake"})
        flood(b"x" if MODE == "flood-no-newline" else b"flood\n")
    elif MODE in ("answers-60mib", "answers-of"):
        # Each answer is one long line: a well-formed error answer (a wrong
        # one) whose summary is a long string.
        head, tail = json.dumps(error_answer(rid, "")).split('""')
        send_long(head + '"', "a", '"' + tail)
    elif MODE == "numbers-of":
        # Each answer is a list of numbers, one long line: the most values
        # for its size.
        send_long('{"id": %s, "value": {"type": ["list", "number"], "value": [0'
                  % json.dumps(rid), ",0", "]}}")
    elif MODE == "escapes":
        # Terminal escapes in its standard error and in its answer's
        # summary: a colour, a window title ended by BEL, a screen clear, a
        # C1 CSI. Every other case it exits, for its standard error to be
        # shown.
        escapes = "\x1b[31mred\x1b]0;title\x07\x1b[2J\x9b1m"
        sys.stderr.write("stderr " + escapes + "\n")
        sys.stderr.flush()
        if count % 2 == 0:
            sys.exit(5)
        send(error_answer(rid, "summary " + escapes))
    elif MODE == "wrong-id":
        send({"id": "not-" + str(rid), "unsupported": "x"})
    elif MODE == "exit-early":
        sys.exit(0)
    elif MODE in ("only-unify", "unsupported"):
        send({"id": rid, "unsupported": "fake"})
    else:
        sys.exit("unknown mode " + MODE)
