"""The person the browser test plays as, and the deals on which they meet what the
test must see: a 7 whose suit they name, and a catch they make.

The bots at the test's table replay a deal exactly (the example bots decide from
the messages alone, the random one seeded by its deal), so the test can play the
deal here first, in-process, and pick a seed on which this person meets both.
"""

from __future__ import annotations

import random
from typing import Any

from bots_examples import heuristic_bot, random_bot
from sandbox.inprocess import InProcessBot
from sandbox.match import play_match

SUIT = "H"  # the suit the person names for a 7


def person_move(message: dict[str, Any]) -> dict[str, Any]:
    """The first playable card in hand order, a 7 before any other; draw when
    nothing fits; never call One Card; catch every lapse."""
    if message["type"] == "catch":
        return {"action": "catch"}
    legal = set(message["legal"])
    playable = [card for card in message["hand"] if card in legal]
    if not playable:
        return {"action": "draw"}
    sevens = [card for card in playable if card.startswith("7")]
    card = (sevens or playable)[0]
    return {"action": "play", "card": card, "suit": SUIT}


class _RandomAsProcess:
    """random_bot.py as its process plays: reseeded by each game's deal."""

    def __init__(self) -> None:
        self.rng = random.Random()

    def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "start":
            self.rng.seed(random_bot.deal_seed(message))
        return random_bot.decide(message, self.rng)


def meets_both(seed: int, *, bots: list[str], person_index: int) -> bool:
    """Whether the person, at `person_index` among `bots` ("heuristic", "random"),
    names a 7's suit and makes a catch in game 0 of a match with `seed`, and the
    game ends without a fault."""
    seen = {"suit": False, "catch": False}

    def person(message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] not in ("turn", "catch"):
            return {}
        reply = person_move(message)
        if reply.get("card", "").startswith("7") and len(message["hand"]) > 1:
            seen["suit"] = True
        if reply["action"] == "catch":
            seen["catch"] = True
        return reply

    makers = {"heuristic": heuristic_bot.make_bot, "random": lambda: _RandomAsProcess()}
    order = list(bots)
    order.insert(person_index, "person")
    players = [InProcessBot(person if name == "person" else makers[name]()) for name in order]
    logs, _, _ = play_match(players, order, games=1, seed=seed, ruleset="korean")
    return seen["suit"] and seen["catch"] and not logs[0]["result"]["faults"]


def seed_where_person_meets_both(*, bots: list[str], person_index: int) -> int:
    for seed in range(5000):
        if meets_both(seed, bots=bots, person_index=person_index):
            return seed
    raise AssertionError("no deal in 5000 gives the person a 7 and a catch")
