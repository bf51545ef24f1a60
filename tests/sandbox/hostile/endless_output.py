"""Plays correctly while a thread writes to __STREAM__ without end, as fast as it can."""

import json
import sys
import threading

STREAM = sys.stdout if "__STREAM__" == "stdout" else sys.stderr
CHUNK = "{}\n" * 20000


def flood():
    while True:
        STREAM.write(CHUNK)
        STREAM.flush()


for number, line in enumerate(sys.stdin):
    message = json.loads(line)
    if number == 0:
        threading.Thread(target=flood, daemon=True).start()
    if message["type"] == "turn":
        legal = message["legal"]
        reply = {"action": "play", "card": legal[0], "suit": "S"} if legal else {"action": "draw"}
        print(json.dumps(reply), flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
