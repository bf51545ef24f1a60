"""Forks until the kernel refuses, reports how far it got, and leaves the children running.

It runs with `__MARKER__` on its command line (it execs itself once with the marker
as an extra argument), and so does every child it forks: the host's process list
shows any that outlive the match.
"""

import json
import os
import sys
import time

MARKER = "__MARKER__"
if MARKER not in sys.orig_argv:
    os.execv(sys.executable, [*sys.orig_argv, MARKER])


def bomb():
    forked = 0
    for _ in range(2000):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            while True:  # every child lives on and tries to fork too
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.05)
        forked += 1
    return forked


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps({"forked": bomb()})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
