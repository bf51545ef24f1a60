"""A bot with a plan: keep 3s as shields, answer attacks cheaply and press them
when the next player is close to going out, take free turns (K, and J or Q with two
players), name a 7's suit after its own hand, call One Card, catch every lapse.

Run it as a process: ``python3 heuristic_bot.py``. It needs nothing but the
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


def rank(code: str) -> str:
    """``"A"`` .. ``"K"`` (``"T"`` for ten), or ``"BJ"``/``"CJ"`` for a joker.

    >>> rank("TD"), rank("BJ")
    ('T', 'BJ')
    """
    return code if code in ("BJ", "CJ") else code[0]


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


class HeuristicBot:
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
        if message["attack"]:
            card = self._answer_attack(legal)
        else:
            card = max(legal, key=lambda code: self._worth(code, message))
        if card is None:
            return {"action": "draw"}
        return {
            "action": "play",
            "card": card,
            "suit": longest_suit(message["hand"], besides=card),
            "call": True,
        }

    def _answer_attack(self, legal: list[str]) -> str:
        # The cheapest counter passes the attack on and keeps the big cards for
        # later; a 3 is the fallback, so it is kept for when nothing else answers.
        counters = [c for c in legal if attack_value(c, self.ruleset)]
        if counters:
            return min(counters, key=lambda c: attack_value(c, self.ruleset))
        return legal[0]  # only 3s remain legal under attack

    def _worth(self, card: str, message: dict[str, Any]) -> float:
        hand = message["hand"]
        hands = message["hands"]
        alive = sum(1 for count in hands if count is not None)
        threat = _next_count(message)  # cards held by the player we pass to
        value = attack_value(card, self.ruleset)
        r = rank(card)
        worth = 1.0
        if value:
            if card in ("BJ", "CJ"):
                # Jokers are the best answers to attacks, but one must never be
                # the last card in hand: spend it before the end game.
                worth += 12 if len(hand) <= 3 else -3 + (value if threat <= 2 else 0)
            else:
                worth += 2 + (10 + value if threat <= 2 else 0)
        elif r == "3":
            worth -= 5
        elif r == "7":
            worth -= 4
        elif r == "K" or (r in ("J", "Q") and alive == 2):
            worth += 6  # a free turn: shed one more card
        elif r == "J":
            worth += 4 if threat <= 2 else 1
        # Staying in a suit we hold keeps the next turns playable.
        mine = suit(card)
        worth += 0.5 * sum(1 for other in hand if other != card and suit(other) == mine)
        return worth


def _next_count(message: dict[str, Any]) -> int:
    hands = message["hands"]
    seat = message["seat"]
    for _ in range(len(hands)):
        seat = (seat + message["direction"]) % len(hands)
        if hands[seat] is not None:
            return int(hands[seat])
    return 99


def make_bot(seed: int | None = None) -> HeuristicBot:
    return HeuristicBot()


def run(decide: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """The protocol: one JSON message per line in, one JSON reply per line out."""
    for line in sys.stdin:
        if line.strip():
            try:
                print(json.dumps(decide(json.loads(line))), flush=True)
            except BrokenPipeError:  # the engine has gone; nothing is listening
                return


if __name__ == "__main__":
    run(HeuristicBot())
