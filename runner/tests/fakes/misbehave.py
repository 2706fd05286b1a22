#!/usr/bin/env python3
"""A fake implementation that misbehaves in one chosen way, for the runner's
robustness tests. It answers `hello` properly, then, for case requests,
does what MODE says.

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


def send(data):
    if isinstance(data, bytes):
        sys.stdout.buffer.write(data + b"\n")
    else:
        sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


count = 0
for line in sys.stdin:
    request = json.loads(line)
    rid = request.get("id")
    if request.get("kind") == "hello":
        kinds = ["unify"] if MODE == "only-unify" else KINDS
        send({"id": rid, "name": "fake-" + MODE, "version": "0",
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
    elif MODE == "wrong-id":
        send({"id": "not-" + str(rid), "unsupported": "x"})
    elif MODE == "exit-early":
        sys.exit(0)
    elif MODE in ("only-unify", "unsupported"):
        send({"id": rid, "unsupported": "fake"})
    else:
        sys.exit("unknown mode " + MODE)
