"""A greedy bot: it plays whenever it can, its biggest attack card first.

It never keeps anything back: a 3 goes out like any card, a 7 names the suit it
holds most of. Under attack it counters if it can, then shields, then takes.
Run it as a process: ``python3 bots_examples/greedy_bot.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

try:
    from engine.bot import attack_value, longest_suit, run
except ImportError:  # run from a checkout: the engine sits beside this folder
    sys.path.insert(1, str(Path(__file__).resolve().parent.parent))
    from engine.bot import attack_value, longest_suit, run


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


if __name__ == "__main__":
    run(GreedyBot())
