"""Plays the first legal card (or draws; always catches) and appends every line it
reads, byte for byte, to __RECORD__. At its __DRAW_AT__th turn message of a game it
draws instead of playing (a changed bot), and at its __SLOW_AT__th it takes 0.45 s
(spending from its bank); -1 never."""

import json
import sys
import time

RECORD = "__RECORD__"
DRAW_AT = int("__DRAW_AT__")
SLOW_AT = int("__SLOW_AT__")

turns = 0
with open(RECORD, "ab") as record:
    for line in sys.stdin.buffer:
        record.write(line)
        record.flush()
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            turns = 0
        if kind == "turn":
            turns += 1
            if turns == SLOW_AT:
                time.sleep(0.45)
            if message["legal"] and turns != DRAW_AT:
                reply = {"action": "play", "card": message["legal"][0], "suit": "S", "call": True}
            else:
                reply = {"action": "draw"}
        elif kind == "catch":
            reply = {"action": "catch"}
        else:
            reply = {}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
