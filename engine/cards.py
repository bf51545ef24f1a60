"""Card codes and the tables the hot path looks cards up in.

Inside the engine a card is a small int: ``suit * 13 + rank`` for the 52 suited
cards, 52 for the black joker and 53 for the color joker. Codes (``"7H"``) only
appear at the message boundary.

>>> code_of(card_of("TD"))
'TD'
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
BLACK_JOKER = 52
COLOR_JOKER = 53
DECK_SIZE = 54

# Rank indexes of the ranks that attack (index into RANKS); what every other rank
# does is the ruleset's ``roles``.
ACE, TWO = 0, 1
JOKER_RANK = 13  # both jokers; they have no real rank
NO_SUIT = 4  # the jokers' suit index

CODES: tuple[str, ...] = (*(r + s for s in SUITS for r in RANKS), "BJ", "CJ")
CARD_OF: dict[str, int] = {code: i for i, code in enumerate(CODES)}
SUIT_OF: tuple[int, ...] = (*(i // 13 for i in range(52)), NO_SUIT, NO_SUIT)
RANK_OF: tuple[int, ...] = (*(i % 13 for i in range(52)), JOKER_RANK, JOKER_RANK)
IS_JOKER: tuple[bool, ...] = tuple(i >= BLACK_JOKER for i in range(DECK_SIZE))
# Red is hearts and diamonds, and the color joker; black is spades, clubs, black joker.
IS_RED: tuple[bool, ...] = (*(SUIT_OF[i] in (1, 2) for i in range(52)), False, True)
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}
ACE_OF_SPADES = CARD_OF["AS"]


def card_of(code: str) -> int:
    """The int of a card code; raises KeyError for anything else."""
    return CARD_OF[code]


def code_of(card: int) -> str:
    return CODES[card]


def codes(cards: list[int]) -> list[str]:
    return [CODES[c] for c in cards]


def attack_key(card: int) -> str | None:
    """The ``attack_values`` key of an attack card (``"2"``, ``"A"``, ``"AS"``, ``"BJ"``,
    ``"CJ"``), or None for a card that does not attack."""
    if card == ACE_OF_SPADES:
        return "AS"
    if card >= BLACK_JOKER:
        return CODES[card]
    rank = RANK_OF[card]
    if rank == TWO:
        return "2"
    if rank == ACE:
        return "A"
    return None


def standard_deck() -> list[str]:
    """The 54 codes in a fixed order (spades A..K, hearts, diamonds, clubs, BJ, CJ)."""
    return list(CODES)
