"""Ignores every polite signal, and refuses to exit when its input ends."""

import json
import signal
import sys
import time

# __MARKER__
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
    signal.signal(sig, signal.SIG_IGN)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)

while True:
    time.sleep(1)
