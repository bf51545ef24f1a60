"""Per-ruleset lookup tables, computed once per ruleset and cached.

Legality on the hot path is one tuple index: ``play_ok[key][card]`` where ``key``
is the top card (0..53) or ``54 + suit`` while a wild card's suit is in force, and
``counters(last_value)[card]`` while an attack is pending. What a card does is
``role[card]``, built from the ruleset's ``roles``: the rules never ask a card's
rank.

>>> from engine.cards import CARD_OF
>>> t = tables_for(Ruleset.preset("pesten"))
>>> t.role[CARD_OF["8S"]] == SKIP, t.role[CARD_OF["7S"]] == AGAIN, t.plain[CARD_OF["KS"]]
(True, True, True)
"""

from __future__ import annotations

from functools import lru_cache

from engine.cards import (
    DECK_SIZE,
    IS_JOKER,
    IS_RED,
    RANK_OF,
    RANKS,
    SUIT_OF,
    attack_key,
)
from engine.ruleset import ROLE_KEYS, Ruleset

# Action ints: the card in bits 0-5, (declared suit + 1) in bits 6-8, the call flag
# in bit 9. The three non-play actions use card slots no card occupies.
DRAW = 54
CATCH = 55
PASS = 56
SUIT_SHIFT = 6
CALL = 1 << 9
CARD_MASK = 63

# A card's role (``Tables.role``): NO_ROLE, or 1 + the role's index in ROLE_KEYS.
NO_ROLE = 0
WILD, SKIP, REVERSE, AGAIN, SHIELD = (
    1 + ROLE_KEYS.index(role) for role in ("wild", "skip", "reverse", "again", "shield")
)


def play_action(card: int, suit: int = -1, call: bool = False) -> int:
    """The action int of playing ``card`` (declaring ``suit`` 0..3 for a wild card)."""
    return card | ((suit + 1) << SUIT_SHIFT) | (CALL if call else 0)


def _playable_on(key: int, card: int, wild: bool, suited_jokers: bool) -> bool:
    """May ``card`` (``wild`` if it carries the wild role) be played, no attack
    pending, on top card / declared suit ``key``?"""
    if key >= DECK_SIZE:  # a suit declared by a wild card
        suit = key - DECK_SIZE
        if IS_JOKER[card]:
            return not suited_jokers or IS_RED[card] == (suit in (1, 2))
        return wild or SUIT_OF[card] == suit
    top = key
    if IS_JOKER[top]:
        if not suited_jokers:
            return True
        return wild or IS_JOKER[card] or IS_RED[card] == IS_RED[top]
    if IS_JOKER[card]:
        return not suited_jokers or IS_RED[card] == IS_RED[top]
    return wild or SUIT_OF[card] == SUIT_OF[top] or RANK_OF[card] == RANK_OF[top]


class Tables:
    """Everything about a ruleset that the hot path needs, as tuples indexed by card."""

    __slots__ = ("acts", "acts_call", "attack", "counter_ok", "plain", "play_ok", "role", "rules")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.attack: tuple[int, ...] = tuple(
            0 if (key := attack_key(c)) is None else rules.attack_value(key)
            for c in range(DECK_SIZE)
        )
        role_of_rank = [NO_ROLE] * len(RANKS)
        for number, rank in enumerate(rules.roles, 1):
            if rank is not None:
                role_of_rank[RANKS.index(rank)] = number
        # The jokers have no rank, so no role.
        self.role: tuple[int, ...] = tuple(
            NO_ROLE if IS_JOKER[c] else role_of_rank[RANK_OF[c]] for c in range(DECK_SIZE)
        )
        # RULES.md, Setup: a plain card may lead; a card with an effect is buried.
        self.plain: tuple[bool, ...] = tuple(
            not IS_JOKER[c] and not self.attack[c] and self.role[c] == NO_ROLE
            for c in range(DECK_SIZE)
        )
        self.play_ok: tuple[tuple[bool, ...], ...] = tuple(
            tuple(
                _playable_on(key, c, self.role[c] == WILD, rules.suited_jokers)
                for c in range(DECK_SIZE)
            )
            for key in range(DECK_SIZE + 4)
        )
        self.counter_ok: dict[int, tuple[bool, ...]] = {}
        self.acts = tuple(self._card_actions(c, False) for c in range(DECK_SIZE))
        self.acts_call = tuple(self._card_actions(c, True) for c in range(DECK_SIZE))

    def _card_actions(self, card: int, call: bool) -> tuple[int, ...]:
        if self.role[card] == WILD:
            return tuple(play_action(card, s, call) for s in range(4))
        return (play_action(card, -1, call),)

    def counters(self, last: int) -> tuple[bool, ...]:
        """Which cards answer an attack whose last value is ``last`` (counters and
        shields)."""
        table = self.counter_ok.get(last)
        if table is None:
            attack = self.attack
            role = self.role
            table = tuple(
                role[c] == SHIELD or (attack[c] > 0 and attack[c] >= last) for c in range(DECK_SIZE)
            )
            self.counter_ok[last] = table
        return table


@lru_cache(maxsize=64)
def tables_for(rules: Ruleset) -> Tables:
    return Tables(rules)
