"""Crafted decks and scripted bots for rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import engine
from engine.cards import CARD_OF, CODES, SUIT_INDEX
from engine.state import GameState, hand_size
from engine.tables import DRAW, play_action


def deck(
    hands: Sequence[Sequence[str]],
    lead: str = "5D",
    draw: Sequence[str] = (),
    *,
    size: int | None = None,
) -> list[str]:
    """A 54-card order dealing exactly ``hands`` (each ``size`` cards, default by
    player count), turning ``lead``, then ``draw`` on top of the draw pile; every
    other card follows in a fixed order."""
    players = len(hands)
    size = hand_size(players) if size is None else size
    assert all(len(h) == size for h in hands), "every hand must have the dealt size"
    order: list[str] = []
    for i in range(size):
        order += [hand[i] for hand in hands]
    order.append(lead)
    order += draw
    assert len(set(order)) == len(order), "a card appears twice"
    order += [c for c in CODES if c not in set(order)]
    return order


def pad(hands: Sequence[Sequence[str]], avoid: Sequence[str] = ()) -> list[list[str]]:
    """Each hand completed to the dealt size with plain filler cards (4s, 5s, 6s ...)
    that appear nowhere in ``hands`` or ``avoid``."""
    size = hand_size(len(hands))
    used = {c for h in hands for c in h} | set(avoid)
    filler = [r + s for r in "45689T" for s in "SHDC" if r + s not in used]
    out = []
    for h in hands:
        need = size - len(h)
        out.append(list(h) + filler[:need])
        del filler[:need]
    return out


def state(hands: Sequence[Sequence[str]], lead: str = "5D", draw: Sequence[str] = (), **kw: Any):
    """A dealt state; short hands are padded with plain filler (see ``pad``)."""
    full = pad(hands, [lead, *draw])
    return GameState.new(len(hands), kw.pop("ruleset", None), deck=deck(full, lead, draw), **kw)


def play(st: GameState, code: str, suit: str | None = None, call: bool = False) -> None:
    st.apply(play_action(CARD_OF[code], SUIT_INDEX[suit] if suit else -1, call))


def draw(st: GameState) -> None:
    st.apply(DRAW)


def hand(st: GameState, seat: int) -> list[str]:
    return [CODES[c] for c in st.hands[seat]]


class Script:
    """A bot answering ``turn`` and ``catch`` messages from a list, in order, and
    keeping every message it received. Running out of replies is a test error."""

    def __init__(self, *replies: dict[str, Any] | str) -> None:
        self.replies = [self._expand(r) for r in replies]
        self.messages: list[dict[str, Any]] = []

    @staticmethod
    def _expand(reply: dict[str, Any] | str) -> dict[str, Any]:
        if isinstance(reply, dict):
            return reply
        if reply in ("draw", "catch", "pass"):
            return {"action": reply}
        card, _, suit = reply.partition("/")
        out: dict[str, Any] = {"action": "play", "card": card, "call": True}
        if suit:
            out["suit"] = suit
        return out

    def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        self.messages.append(message)
        if message["type"] in ("start", "end"):
            return {}
        if not self.replies:
            raise AssertionError(f"script exhausted at {message}")
        return self.replies.pop(0)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]


def drawer(message: dict[str, Any]) -> dict[str, Any]:
    return {"action": "draw"} if message["type"] == "turn" else {"action": "pass"}


def kinds(log: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in log["events"]]


def run(bots: Sequence[Any], hands, lead="5D", draw=(), **kw: Any) -> dict[str, Any]:
    """play_game on a crafted deck; the log must replay."""
    full = pad(hands, [lead, *draw])
    log = engine.play_game(list(bots), deck=deck(full, lead, draw), seed=kw.pop("seed", 1), **kw)
    for _ in engine.replay(log):
        pass
    return log
