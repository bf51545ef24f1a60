"""Plain text for people: a game log turn by turn, one seat's view of the table, and
a person's typed answer read back as a protocol reply (for ``onecard play``).

A card is told by what it does under the game's ruleset (its role or its attack
value), never by its rank: a J is wild in ``pesten`` and skips in ``korean``.

>>> describe_event({"seat": 1, "kind": "play", "card": "7H", "suit": "S"}, ["ann", "bob"])
'bob plays 7H (wild) and names S'
>>> describe_event({"seat": 1, "kind": "play", "card": "8S"}, ["ann", "bob"], ruleset="pesten")
'bob plays 8S (skips the next player)'
>>> turn = {"type": "turn", "hand": ["7H", "4S"], "legal": ["7H", "4S"]}
>>> parse_choice(turn, "1 s")
{'action': 'play', 'card': '7H', 'call': True, 'suit': 'S'}
>>> parse_choice(turn, "draw"), parse_choice(turn, "7h"), parse_choice(turn, "9C")
({'action': 'draw'}, None, None)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.bot import role as card_role
from engine.cards import CARD_OF, attack_key
from engine.replay import replay_frames
from engine.ruleset import ATTACK_KEYS, ROLE_KEYS, Ruleset

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# What each role does, as the legend of a game says it.
ROLE_TITLES = {
    "wild": "wild (always playable, names a suit)",
    "skip": "skip (the next player loses a turn)",
    "reverse": "reverse (the direction; a skip with two players)",
    "again": "another turn",
    "shield": "shield (cancels an attack)",
}

RulesetValue = Ruleset | str | dict[str, Any] | None


def play_effect(cards: Sequence[str], ruleset: RulesetValue = None) -> str | None:
    """What playing ``cards`` (one, or several of one rank) does outside an attack,
    by their role or attack value; None for cards that do nothing.

    >>> play_effect(["AS"]), play_effect(["AS"], "pesten"), play_effect(["3S"])
    ('an attack of 5', 'reverses the direction', None)
    >>> play_effect(["AS", "AH"]), play_effect(["KS", "KH"]), play_effect(["JS", "JD"])
    ('an attack of 8', '2 more turns', 'skips the next 2 players')
    """
    if not cards or not all(code in CARD_OF for code in cards):
        return None
    rules = Ruleset.from_value(ruleset)
    value = sum(rules.attack_value(key) for c in cards if (key := attack_key(CARD_OF[c])))
    if value:
        return f"an attack of {value}"
    count = len(cards)
    role = card_role(cards[0], rules)
    if role == "wild":
        return "wild"
    if role == "skip":
        return "skips the next player" if count == 1 else f"skips the next {count} players"
    if role == "reverse":
        return "reverses the direction" if count % 2 else "the reverses cancel out"
    if role == "again":
        return "another turn" if count == 1 else f"{count} more turns"
    return None  # a plain card, or a shield played without an attack to stop


def ruleset_legend(ruleset: RulesetValue = None) -> list[tuple[str, str]]:
    """(what, which cards) for every role and the attack ladder: the legend of a
    game under ``ruleset``.

    >>> for what, cards in ruleset_legend("pesten"):
    ...     print(f"{what}: {cards}")
    wild (always playable, names a suit): J
    skip (the next player loses a turn): 8
    reverse (the direction; a skip with two players): A
    another turn: 7
    shield (cancels an attack): none
    attack: 2 = 2, BJ = 5, CJ = 5
    """
    rules = Ruleset.from_value(ruleset)
    legend = [(ROLE_TITLES[role], rules.role_rank(role) or "none") for role in ROLE_KEYS]
    ladder = [
        f"{key} = {value}"
        for key, value in zip(ATTACK_KEYS, rules.attack_values, strict=True)
        if value
    ]
    legend.append(("attack", ", ".join(ladder) or "none"))
    return legend


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _cards(event: dict[str, Any]) -> str:
    cards = event.get("cards")
    return f" ({' '.join(cards)})" if cards else ""


def describe_event(
    event: dict[str, Any], names: Sequence[str], *, ruleset: RulesetValue = None
) -> str:
    """One line for one event, a play told with what its card does under
    ``ruleset`` (default ``korean``); hidden cards are shown only when the event
    has them."""
    kind = event.get("kind")
    who = _name(names, event.get("seat"))
    if kind == "play":
        cards = event.get("cards") or [event.get("card")]
        played = " ".join(map(str, cards))
        effect = play_effect(cards, ruleset)
        said = f" ({effect})" if effect else ""
        declared = f" and names {event['suit']}" if event.get("suit") else ""
        return f"{who} plays {played}{said}{declared}"
    if kind == "shield":
        return f"{who} shields with {event.get('card') or ' '.join(event.get('cards', []))}"
    if kind == "draw":
        count = event.get("count", 0)
        return f"{who} draws {count} card{'s' if count != 1 else ''}{_cards(event)}"
    if kind == "take":
        return f"{who} takes the attack: {event.get('count', 0)} cards{_cards(event)}"
    if kind == "call":
        return f"{who} calls One Card!"
    if kind == "catch":
        target = _name(names, event.get("target"))
        return f"{who} catches {target}, who draws {event.get('count', 0)}{_cards(event)}"
    if kind == "pass":
        return f"{who} lets {_name(names, event.get('target'))} off"
    if kind == "skip":
        return f"{who} is skipped"
    if kind == "reverse":
        return f"{who} reverses the direction"
    if kind == "reshuffle":
        return f"the discard pile is reshuffled into a new draw pile of {event.get('count')}"
    if kind == "fault":
        return f"{who} faults ({event.get('reason')}) and leaves the game"
    return f"{who}: {kind}"


def render_game(log: dict[str, Any]) -> Iterator[str]:
    """The game turn by turn, with the table after each decision (checks the log)."""
    names = log.get("names") or [f"seat{s}" for s in range(log.get("players", 0))]
    frames = replay_frames(log)
    rules = Ruleset.from_value(log["ruleset"])
    first = frames[0]
    yield f"{log['players']} players ({', '.join(names)}), ruleset {rules.name}"
    yield "  " + "; ".join(f"{what}: {cards}" for what, cards in ruleset_legend(rules))
    for seat, hand in enumerate(first["hands"]):
        yield f"  {_name(names, seat)} is dealt {' '.join(hand or [])}"
    yield f"  lead card {first['top']}; play goes {_arrow(first['direction'])}"
    for frame in frames[1:]:
        event = frame["event"]
        line = f"[turn {frame['turn']:>3}] {describe_event(event, names, ruleset=rules)}"
        if event.get("kind") in ("play", "shield", "draw", "take"):
            line += f"   | top {frame['top']}"
            if frame["suit"]:
                line += f", suit {frame['suit']}"
            if frame["attack"]:
                line += f", attack {frame['attack']['total']}"
        yield line
    result = log["result"]
    how = " on adjudication" if result["adjudicated"] else ""
    yield f"{_name(names, result['winner'])} wins{how}"
    for seat, place in sorted(enumerate(result["ranks"]), key=lambda pair: pair[1]):
        yield f"  {place}. {_name(names, seat)} ({len(result['hands'][seat])} cards left)"


def _arrow(direction: int) -> str:
    return "clockwise" if direction == 1 else "anticlockwise"


def render_view(
    message: dict[str, Any], names: Sequence[str], *, ruleset: RulesetValue = None
) -> str:
    """A ``turn`` or ``catch`` message as a person at that seat would see the table
    under ``ruleset`` (the ``start`` message's; default ``korean``); the legal cards
    are numbered for picking, each with what it does."""
    rules = Ruleset.from_value(ruleset)
    lines = []
    for seat, count in enumerate(message["hands"]):
        marker = " (you)" if seat == message["seat"] else ""
        held = "out" if count is None else f"{count} cards"
        lines.append(f"  {_name(names, seat)}{marker}: {held}")
    arrow = _arrow(message["direction"])
    table = f"top {message['top']}"
    if message.get("suit"):
        table += f" (suit {SUIT_NAMES[message['suit']]} declared)"
    lines.append(
        f"{table}; draw pile {message['draw_pile']}, discard pile "
        f"{message['discard_pile']}; play goes {arrow}"
    )
    if message.get("attack"):
        attack = message["attack"]
        shield = rules.role_rank("shield")
        lines.append(
            f"ATTACK on you: draw {attack['total']}, or counter with a value >= "
            f"{attack['last']}" + (f", or shield with a {shield}" if shield else "")
        )
    lines.append(f"your hand: {' '.join(message['hand'])}")
    if message.get("legal"):
        options = "  ".join(
            f"[{i}] {code}{_annotation(code, rules, attacked=bool(message.get('attack')))}"
            for i, code in enumerate(message["legal"], 1)
        )
        lines.append(f"you may play: {options}   [0] draw")
    return "\n".join(lines)


def _annotation(code: str, rules: Ruleset, *, attacked: bool) -> str:
    if attacked and card_role(code, rules) == "shield":
        return " (shield)"
    effect = play_effect([code], rules)
    return f" ({effect})" if effect else ""


_DRAW_WORDS = frozenset({"0", "d", "draw", "t", "take"})
_CATCH_WORDS = {"y": "catch", "yes": "catch", "c": "catch", "catch": "catch"}
_PASS_WORDS = {"n": "pass", "no": "pass", "p": "pass", "pass": "pass", "": "pass"}


def parse_choice(
    message: dict[str, Any], text: str, *, ruleset: RulesetValue = None
) -> dict[str, Any] | None:
    """A person's answer to a ``turn`` or ``catch`` message as a reply, or None when
    it says nothing usable (ask again).

    In a turn: ``0``/``d``/``draw`` draws (or takes an attack); a number picks that
    legal card, a card code names it; a wild card of ``ruleset`` (default
    ``korean``: the 7) that is not the last card needs a suit letter after it
    (``3 h``, ``7C S``). One Card is always called. In a catch window:
    ``y``/``catch`` or ``n``/``pass`` (just Enter passes).
    """
    words = text.strip().upper().split()
    if message["type"] == "catch":
        answer = {**_CATCH_WORDS, **_PASS_WORDS}.get(" ".join(words).lower())
        return {"action": answer} if answer else None
    if not words or words[0].lower() in _DRAW_WORDS:
        return {"action": "draw"} if words else None
    legal = message["legal"]
    pick = words[0]
    if pick.isdigit():
        index = int(pick) - 1
        if not 0 <= index < len(legal):
            return None
        card = legal[index]
    elif pick in legal:
        card = pick
    else:
        return None
    reply: dict[str, Any] = {"action": "play", "card": card, "call": True}
    if card_role(card, ruleset) == "wild" and len(message["hand"]) > 1:
        if len(words) < 2 or words[1] not in SUIT_NAMES:
            return None
        reply["suit"] = words[1]
    return reply
