"""Draws after sleeping `__SLEEP_S__` s per turn; reports the time it was given in `debug`.

Also writes one stderr line per decision naming the turn, and never answers `end`.
"""

import json
import sys
import time

SLEEP_S = float("__SLEEP_S__")

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "end":
        continue
    print(f"decision at turn {message.get('turn')}", file=sys.stderr, flush=True)
    clock = json.dumps({"time_ms": message["time_ms"], "bank_ms": message["bank_ms"]})
    if kind == "turn":
        time.sleep(SLEEP_S)
        reply = {"action": "draw", "debug": clock}
    elif kind == "catch":
        reply = {"action": "pass", "debug": clock}
    else:
        reply = {"debug": clock}
    print(json.dumps(reply), flush=True)
