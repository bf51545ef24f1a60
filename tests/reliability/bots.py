"""Bot sources for the reliability tests: sound players whose pace the test sets."""

from __future__ import annotations


def paced_bot_source(delay_s: float) -> bytes:
    """A bot that plays its first legal card (or draws) after `delay_s` on each turn,
    so that a match lasts long enough to be interrupted in the middle."""
    return f"""import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    reply = {{}}
    if kind == "turn":
        time.sleep({delay_s!r})
        legal = message["legal"]
        if legal:
            reply = {{"action": "play", "card": legal[0], "suit": "S", "call": True}}
        else:
            reply = {{"action": "draw"}}
    elif kind == "catch":
        reply = {{"action": "catch"}}
    print(json.dumps(reply), flush=True)
""".encode()
