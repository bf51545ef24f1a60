"""Plays correctly while writing megabytes to stderr: it must neither block nor fault."""

import json
import sys

NOISE = "noise " * 1000 + "\n"
for line in sys.stdin:
    message = json.loads(line)
    for _ in range(300):  # about 2 MB per message
        sys.stderr.write(NOISE)
    sys.stderr.write("last words of this decision\n")
    sys.stderr.flush()
    if message["type"] == "turn":
        legal = message["legal"]
        reply = {"action": "play", "card": legal[0], "suit": "S"} if legal else {"action": "draw"}
        print(json.dumps(reply), flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
