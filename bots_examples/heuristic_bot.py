"""A bot with a plan: keep 3s as shields, answer attacks cheaply and press them
when the next player is close to going out, take free turns (K, and J or Q with two
players), name a 7's suit after its own hand, call One Card, catch every lapse.

Run it as a process: ``python3 bots_examples/heuristic_bot.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

try:
    from engine.bot import attack_value, longest_suit, rank, run, suit
except ImportError:  # run from a checkout: the engine sits beside this folder
    sys.path.insert(1, str(Path(__file__).resolve().parent.parent))
    from engine.bot import attack_value, longest_suit, rank, run, suit


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


if __name__ == "__main__":
    run(HeuristicBot())
