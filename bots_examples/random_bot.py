"""A bot that plays at random, speaking the raw protocol with the standard library only.

Run it as a process: ``python3 bots_examples/random_bot.py``. Each line on stdin is
one JSON message from the engine; each reply is one JSON line on stdout, flushed.

Its choices are random but drawn from a generator seeded by each game's deal (game
number, seat, hand, top card), so a deal is always played the same way: a match
against it replays exactly from the match's seed, as one against the other
example bots does.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

SUITS = "SHDC"


def decide(message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    kind = message["type"]
    if kind == "turn":
        # Drawing is always allowed, so it is one more choice among the legal plays.
        choice = rng.choice([*message["legal"], None])
        if choice is None:
            return {"action": "draw"}
        return {
            "action": "play",
            "card": choice,
            "suit": rng.choice(SUITS),  # ignored unless the card is a 7
            "call": rng.random() < 0.5,
        }
    if kind == "catch":
        return {"action": rng.choice(["catch", "pass"])}
    return {}  # start and end need no particular answer


def make_bot(seed: int | None = None) -> Any:
    """An in-process callable playing like this process would."""
    rng = random.Random(seed)
    return lambda message: decide(message, rng)


def deal_seed(start: dict[str, Any]) -> str:
    """What seeds the choices of one game: its deal, as this seat sees it."""
    return json.dumps([start.get(key) for key in ("game", "seat", "hand", "top")])


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        if line.strip():
            message = json.loads(line)
            if message.get("type") == "start":
                rng.seed(deal_seed(message))
            reply = decide(message, rng)
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
