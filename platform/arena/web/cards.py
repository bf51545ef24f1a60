"""How a card code looks on the page: rank label, suit symbol, colour, spoken name.

Presentation only; the rules live in `engine`. `static/web/cards.js` draws the same
markup in the browser for the replay viewer, so both must stay in step.
"""

from __future__ import annotations

from dataclasses import dataclass

RANK_LABELS = {"T": "10"}
RANK_NAMES = {
    "A": "Ace",
    "2": "Two",
    "3": "Three",
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
JOKERS = {"BJ": "Black joker", "CJ": "Colour joker"}


class UnknownCardError(ValueError):
    """A string that is not one of the 54 card codes."""


@dataclass(frozen=True)
class CardFace:
    code: str
    label: str  # "10", "A", or "" for a joker
    symbol: str  # "♠", or "★" for a joker
    red: bool
    name: str  # what a screen reader says: "Ten of hearts"

    @property
    def is_joker(self) -> bool:
        return self.code in JOKERS


def card_face(code: str) -> CardFace:
    """The face of one card code.

    >>> card_face("TH").name
    'Ten of hearts'
    """
    if code in JOKERS:
        return CardFace(code=code, label="", symbol="★", red=code == "CJ", name=JOKERS[code])
    if len(code) != 2 or code[0] not in RANK_NAMES or code[1] not in SUIT_SYMBOLS:
        raise UnknownCardError(f"not a card code: {code!r}")
    rank, suit = code[0], code[1]
    return CardFace(
        code=code,
        label=RANK_LABELS.get(rank, rank),
        symbol=SUIT_SYMBOLS[suit],
        red=suit in RED_SUITS,
        name=f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}",
    )


def suit_symbol(suit: str) -> tuple[str, bool]:
    """(symbol, is red) of a suit letter."""
    if suit not in SUIT_SYMBOLS:
        raise UnknownCardError(f"not a suit: {suit!r}")
    return SUIT_SYMBOLS[suit], suit in RED_SUITS
