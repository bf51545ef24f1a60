"""A well-behaved bot: the first legal card, or a draw; always catches; logs to stderr."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "turn":
        print(f"turn {message['turn']}: {len(message['legal'])} legal", file=sys.stderr, flush=True)
        if message["legal"]:
            reply = {"action": "play", "card": message["legal"][0], "suit": "S", "call": True}
        else:
            reply = {"action": "draw"}
    elif kind == "catch":
        reply = {"action": "catch"}
    else:
        reply = {}
    print(json.dumps(reply), flush=True)
