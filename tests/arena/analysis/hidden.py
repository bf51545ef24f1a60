"""A log with every card one seat could not see replaced by another, consistently:
the same game for that seat, a different one for the others.

What the seat saw is read from the omniscient log, independently of the messages
the engine builds (`engine.seat_messages`), so a leak there cannot hide itself
here: its hand after the deal, the lead card, every card played or shielded, and
the cards it drew, took or was made to draw when caught. Every other card (the
other hands, the draw pile below what it drew, a faulted seat's hand) is renamed
by a permutation that moves each of them, in the deck, the events and the result.
Cards that were seen keep their places, so every play stays legal and every
reshuffle (of played cards only) stays as it was. A plain card is renamed to a
plain card and a card with an effect to one with an effect: the deal buries the
latter when turned for the lead, unseen, and the log must still be that deal.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import engine
from engine.cards import CARD_OF
from engine.tables import tables_for


def cards_seen_by(log: dict[str, Any], seat: int) -> set[str]:
    deal = engine.replay_frames(log)[0]
    seen = set(deal["hands"][seat]) | {deal["top"]}
    for event in log["events"]:
        kind = event["kind"]
        # A catch makes its target draw.
        drawer = event.get("target") if kind == "catch" else event.get("seat")
        if kind in ("play", "shield"):
            seen.update(event.get("cards") or [event["card"]])
        elif kind in ("draw", "take", "catch") and drawer == seat:
            seen.update(event.get("cards", []))
    return seen


def log_with_hidden_cards_replaced(log: dict[str, Any], seat: int, *, seed: int) -> dict[str, Any]:
    """The log with every card `seat` never saw renamed (each to another card), and
    another seed, so that nothing of the deck's order survives but what it saw."""
    seen = cards_seen_by(log, seat)
    plain = tables_for(engine.Ruleset.from_value(log["ruleset"])).plain
    rng = random.Random(seed)
    rename: dict[str, str] = {}
    for kind in (True, False):
        hidden = sorted(c for c in log["deck"] if c not in seen and plain[CARD_OF[c]] is kind)
        rng.shuffle(hidden)
        # A cycle through the shuffled cards: every hidden card becomes another one.
        if len(hidden) > 1:
            rename.update({hidden[i]: hidden[(i + 1) % len(hidden)] for i in range(len(hidden))})
    if not rename:
        raise ValueError("the seat saw nearly every card: nothing to replace")

    def swap(code: str) -> str:
        return rename.get(code, code)

    other = copy.deepcopy(log)
    other["seed"] = log["seed"] + 1
    other["deck"] = [swap(code) for code in log["deck"]]
    for event in other["events"]:
        if "cards" in event:
            event["cards"] = [swap(code) for code in event["cards"]]
        if "card" in event:
            event["card"] = swap(event["card"])
    other["result"]["hands"] = [
        None if hand is None else [swap(code) for code in hand] for hand in other["result"]["hands"]
    ]
    return other
