"""Ignores every polite signal, and refuses to exit when its input ends.

It runs with `__MARKER__` on its command line (it execs itself once with the marker
as an extra argument), where the host's process list shows it, and says so:
`{"marked": true}` in its reply to `start`.
"""

import json
import os
import signal
import sys
import time

MARKER = "__MARKER__"
if MARKER not in sys.orig_argv:
    os.execv(sys.executable, [*sys.orig_argv, MARKER])

for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
    signal.signal(sig, signal.SIG_IGN)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        with open("/proc/self/cmdline", "rb") as cmdline:
            marked = MARKER.encode() in cmdline.read()
        print(json.dumps({"debug": json.dumps({"marked": marked})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)

while True:
    time.sleep(1)
