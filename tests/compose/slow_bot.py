"""A sound bot that thinks for a while in long matches: the first legal card (or a
draw), after 300 ms from a match's third game on. Qualification plays matches of two
games, so it qualifies at full speed; a ladder match (four games) then lasts long
enough to kill its worker in the middle of it."""

import json
import sys
import time

game = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "start":
        game = message["game"]
    if kind == "turn":
        if game >= 2:
            time.sleep(0.3)
        if message["legal"]:
            reply = {"action": "play", "card": message["legal"][0], "suit": "S", "call": True}
        else:
            reply = {"action": "draw"}
    elif kind == "catch":
        reply = {"action": "catch"}
    else:
        reply = {}
    print(json.dumps(reply), flush=True)
