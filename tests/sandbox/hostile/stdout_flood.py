"""Every reply is valid but near the line limit: the game's stdout budget runs out."""

import json
import sys

PADDING = "x" * 60000
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        print(json.dumps({"action": "draw", "debug": PADDING}), flush=True)
    elif message["type"] == "catch":
        print(json.dumps({"action": "pass", "debug": PADDING}), flush=True)
    else:
        print("{}", flush=True)
