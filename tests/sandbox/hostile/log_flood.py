"""Writes `__MIB__` MiB to stderr before its first reply, then plays on by drawing.

The sandbox keeps 64 KiB of a bot's stderr; nothing of the rest may land on the
host's disk (a container engine's log file, for one). Its reply to `start` says how
much it wrote.
"""

import json
import sys

LINE = b"flood " * 10922 + b"\n"  # 64 KiB
MIB = int("__MIB__")

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        written = 0
        while written < MIB * 1024 * 1024:
            sys.stderr.buffer.write(LINE)
            written += len(LINE)
        sys.stderr.buffer.flush()
        print(json.dumps({"debug": json.dumps({"written": written})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
