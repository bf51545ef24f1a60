"""What a bot needs and nothing more: the stdin/stdout loop and pure card helpers.

A complete bot::

    from engine.bot import run

    def decide(message):
        if message["type"] == "turn" and message["legal"]:
            return {"action": "play", "card": message["legal"][0], "suit": "S", "call": True}
        if message["type"] == "turn":
            return {"action": "draw"}
        return {"action": "catch"} if message["type"] == "catch" else {}

    run(decide)

>>> attack_value("AS"), attack_value("AS", {"attack_values": {"AS": 3}}), attack_value("9D")
(5, 3, 0)
>>> role("JD"), role("JD", {"name": "pesten"}), role("9D"), role("BJ")
('skip', 'wild', None, None)
>>> legal_plays(["9D", "3S", "AH"], top="2H", suit=None, attack={"total": 2, "last": 2})
['3S', 'AH']
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from engine.cards import CARD_OF, IS_JOKER, RANK_OF, RANKS, SUIT_INDEX, SUIT_OF, SUITS, attack_key
from engine.ruleset import Ruleset
from engine.tables import Tables, tables_for

Message = dict[str, Any]


def run(
    decide: Callable[[Message], Message | None],
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> None:
    """Answer every message line with ``decide(message)`` until stdin closes.

    A ``None`` answer is sent as ``{}`` (enough for ``start`` and ``end``).
    """
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    for line in source:
        if not line.strip():
            continue
        reply = decide(json.loads(line))
        try:
            sink.write(json.dumps({} if reply is None else reply) + "\n")
            sink.flush()
        except BrokenPipeError:  # the engine has gone; nothing is listening
            return


def _tables(ruleset: Ruleset | str | dict[str, Any] | None) -> Tables:
    return tables_for(Ruleset.from_value(ruleset))


def attack_value(code: str, ruleset: dict[str, Any] | None = None) -> int:
    """How many cards ``code`` makes the next player draw (0 for a non-attack card),
    under the ruleset of a ``start`` message (default ``korean``)."""
    key = attack_key(CARD_OF[code])
    if key is None:
        return 0
    return _tables(ruleset).attack[CARD_OF[code]]


def role(code: str, ruleset: Ruleset | str | dict[str, Any] | None = None) -> str | None:
    """What ``code`` does under the ruleset of a ``start`` message (default
    ``korean``): ``"wild"``, ``"skip"``, ``"reverse"``, ``"again"``, ``"shield"``,
    or None (a plain card, an attack card or a joker)."""
    card = CARD_OF[code]
    if IS_JOKER[card]:  # the jokers have no rank, so no role
        return None
    return Ruleset.from_value(ruleset).rank_role(RANKS[RANK_OF[card]])


def rank(code: str) -> str:
    """``"A"`` .. ``"K"``, or ``"BJ"``/``"CJ"`` for a joker."""
    card = CARD_OF[code]
    return RANKS[RANK_OF[card]] if card < 52 else code


def suit(code: str) -> str | None:
    card = CARD_OF[code]
    return SUITS[SUIT_OF[card]] if card < 52 else None


def legal_plays(
    hand: Iterable[str],
    *,
    top: str,
    suit: str | None,
    attack: dict[str, int] | None,
    ruleset: dict[str, Any] | None = None,
) -> list[str]:
    """The cards of ``hand`` that may be played on this table (what ``legal`` says
    in a ``turn`` message), for a bot that looks ahead."""
    hand = list(hand)
    tables = _tables(ruleset)
    if attack:
        ok = tables.counters(attack["last"])
    elif suit is not None:
        ok = tables.play_ok[54 + SUIT_INDEX[suit]]
    else:
        ok = tables.play_ok[CARD_OF[top]]
    cards = [CARD_OF[code] for code in hand]
    if len(cards) == 1 and cards[0] >= 52:  # a joker is never the last card
        return []
    return [code for code, card in zip(hand, cards, strict=True) if ok[card]]


def longest_suit(hand: Iterable[str], *, besides: str | None = None) -> str:
    """The suit ``hand`` holds most of (not counting ``besides``): a wild card's best call."""
    counts = dict.fromkeys(SUITS, 0)
    for code in hand:
        if code != besides and (s := suit(code)) is not None:
            counts[s] += 1
    return max(SUITS, key=lambda s: counts[s])
