"""A greedy bot: it plays whenever it can, its biggest attack card first.

It never keeps anything back: a 3 goes out like any card, a 7 names the suit it
holds most of. Under attack it counters if it can, then shields, then takes.
Run it as a process: ``python3 greedy_bot.py``. It needs nothing but the
standard library: the card helpers it uses are the few lines below.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

SUITS = "SHDC"
# How many cards each attack card makes the next player draw under the `korean`
# rules; a `start` message's ruleset says the values of the game being played.
KOREAN_ATTACK_VALUES = {"2": 2, "A": 3, "AS": 5, "BJ": 7, "CJ": 10}


def attack_value(code: str, ruleset: dict[str, Any] | None = None) -> int:
    """How many cards ``code`` makes the next player draw (0 for a card that does
    not attack), under the ruleset of a ``start`` message (default ``korean``).

    >>> attack_value("AS"), attack_value("AS", {"attack_values": {"AS": 3}}), attack_value("9D")
    (5, 3, 0)
    """
    key = code if code in ("AS", "BJ", "CJ") else code[0] if code[0] in "2A" else None
    if key is None:
        return 0
    values = (ruleset or {}).get("attack_values") or {}
    return int(values.get(key, KOREAN_ATTACK_VALUES[key]))


def suit(code: str) -> str | None:
    """``"S"``, ``"H"``, ``"D"`` or ``"C"``; None for a joker."""
    return None if code in ("BJ", "CJ") else code[1]


def longest_suit(hand: list[str], *, besides: str | None = None) -> str:
    """The suit ``hand`` holds most of (not counting ``besides``): a 7's best call.

    >>> longest_suit(["7H", "4S", "5S", "9H"], besides="7H")
    'S'
    """
    counts = dict.fromkeys(SUITS, 0)
    for code in hand:
        if code != besides and (s := suit(code)) is not None:
            counts[s] += 1
    return max(SUITS, key=lambda s: counts[s])


class GreedyBot:
    def __init__(self) -> None:
        self.ruleset: dict[str, Any] | None = None

    def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message["type"]
        if kind == "start":
            self.ruleset = message["ruleset"]
        if kind == "catch":
            return {"action": "catch"}
        if kind != "turn":
            return {}
        legal = message["legal"]
        if not legal:
            return {"action": "draw"}
        card = max(legal, key=lambda code: attack_value(code, self.ruleset))
        return {
            "action": "play",
            "card": card,
            "suit": longest_suit(message["hand"], besides=card),
            "call": True,
        }


def make_bot(seed: int | None = None) -> GreedyBot:
    return GreedyBot()


def run(decide: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """The protocol: one JSON message per line in, one JSON reply per line out."""
    for line in sys.stdin:
        if line.strip():
            try:
                print(json.dumps(decide(json.loads(line))), flush=True)
            except BrokenPipeError:  # the engine has gone; nothing is listening
                return


if __name__ == "__main__":
    run(GreedyBot())
