"""Per-ruleset lookup tables, computed once per ruleset and cached.

Legality on the hot path is one tuple index: ``play_ok[key][card]`` where ``key``
is the top card (0..53) or ``54 + suit`` while a 7's suit is in force, and
``counter_ok[last_value][card]`` while an attack is pending.
"""

from __future__ import annotations

from functools import lru_cache

from engine.cards import (
    DECK_SIZE,
    IS_JOKER,
    IS_RED,
    RANK_OF,
    SEVEN,
    SUIT_OF,
    THREE,
    attack_key,
)
from engine.ruleset import Ruleset

# Action ints: the card in bits 0-5, (declared suit + 1) in bits 6-8, the call flag
# in bit 9. The three non-play actions use card slots no card occupies.
DRAW = 54
CATCH = 55
PASS = 56
SUIT_SHIFT = 6
CALL = 1 << 9
CARD_MASK = 63


def play_action(card: int, suit: int = -1, call: bool = False) -> int:
    """The action int of playing ``card`` (declaring ``suit`` 0..3 for a 7)."""
    return card | ((suit + 1) << SUIT_SHIFT) | (CALL if call else 0)


def _playable_on(key: int, card: int, suited_jokers: bool) -> bool:
    """May ``card`` be played (no attack pending) on top card / declared suit ``key``?"""
    rank = RANK_OF[card]
    if key >= DECK_SIZE:  # a suit declared by a 7
        suit = key - DECK_SIZE
        if IS_JOKER[card]:
            return not suited_jokers or IS_RED[card] == (suit in (1, 2))
        return rank == SEVEN or SUIT_OF[card] == suit
    top = key
    if IS_JOKER[top]:
        if not suited_jokers:
            return True
        return rank == SEVEN or IS_JOKER[card] or IS_RED[card] == IS_RED[top]
    if IS_JOKER[card]:
        return not suited_jokers or IS_RED[card] == IS_RED[top]
    return rank == SEVEN or SUIT_OF[card] == SUIT_OF[top] or rank == RANK_OF[top]


class Tables:
    """Everything about a ruleset that the hot path needs, as tuples indexed by card."""

    __slots__ = ("acts", "acts_call", "attack", "counter_ok", "play_ok", "rules")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.attack: tuple[int, ...] = tuple(
            0 if (key := attack_key(c)) is None else rules.attack_value(key)
            for c in range(DECK_SIZE)
        )
        self.play_ok: tuple[tuple[bool, ...], ...] = tuple(
            tuple(_playable_on(key, c, rules.suited_jokers) for c in range(DECK_SIZE))
            for key in range(DECK_SIZE + 4)
        )
        self.counter_ok: dict[int, tuple[bool, ...]] = {}
        self.acts = tuple(self._card_actions(c, False) for c in range(DECK_SIZE))
        self.acts_call = tuple(self._card_actions(c, True) for c in range(DECK_SIZE))

    @staticmethod
    def _card_actions(card: int, call: bool) -> tuple[int, ...]:
        if RANK_OF[card] == SEVEN:
            return tuple(play_action(card, s, call) for s in range(4))
        return (play_action(card, -1, call),)

    def counters(self, last: int) -> tuple[bool, ...]:
        """Which cards answer an attack whose last value is ``last`` (counters and 3s)."""
        table = self.counter_ok.get(last)
        if table is None:
            attack = self.attack
            table = tuple(
                RANK_OF[c] == THREE or (attack[c] > 0 and attack[c] >= last)
                for c in range(DECK_SIZE)
            )
            self.counter_ok[last] = table
        return table


@lru_cache(maxsize=64)
def tables_for(rules: Ruleset) -> Tables:
    return Tables(rules)
