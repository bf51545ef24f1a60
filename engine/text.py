"""Plain text for people: a game log turn by turn, one seat's view of the table, and
a person's typed answer read back as a protocol reply (for ``onecard play``).

>>> describe_event({"seat": 1, "kind": "play", "card": "7H", "suit": "S"}, ["ann", "bob"])
'bob plays 7H and names S'
>>> turn = {"type": "turn", "hand": ["7H", "4S"], "legal": ["7H", "4S"]}
>>> parse_choice(turn, "1 s")
{'action': 'play', 'card': '7H', 'call': True, 'suit': 'S'}
>>> parse_choice(turn, "draw"), parse_choice(turn, "7h"), parse_choice(turn, "9C")
({'action': 'draw'}, None, None)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.replay import replay_frames

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _cards(event: dict[str, Any]) -> str:
    cards = event.get("cards")
    return f" ({' '.join(cards)})" if cards else ""


def describe_event(event: dict[str, Any], names: Sequence[str]) -> str:
    """One line for one event; hidden cards are shown only when the event has them."""
    kind = event.get("kind")
    who = _name(names, event.get("seat"))
    if kind == "play":
        played = event.get("card") or " ".join(event.get("cards", []))
        declared = f" and names {event['suit']}" if event.get("suit") else ""
        return f"{who} plays {played}{declared}"
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
    first = frames[0]
    yield f"{log['players']} players ({', '.join(names)}), ruleset {log['ruleset']['name']}"
    for seat, hand in enumerate(first["hands"]):
        yield f"  {_name(names, seat)} is dealt {' '.join(hand or [])}"
    yield f"  lead card {first['top']}"
    for frame in frames[1:]:
        event = frame["event"]
        line = f"[turn {frame['turn']:>3}] {describe_event(event, names)}"
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


def render_view(message: dict[str, Any], names: Sequence[str]) -> str:
    """A ``turn`` or ``catch`` message as a person at that seat would see the table;
    the legal cards are numbered for picking."""
    lines = []
    for seat, count in enumerate(message["hands"]):
        marker = " (you)" if seat == message["seat"] else ""
        held = "out" if count is None else f"{count} cards"
        lines.append(f"  {_name(names, seat)}{marker}: {held}")
    arrow = "clockwise" if message["direction"] == 1 else "anticlockwise"
    table = f"top {message['top']}"
    if message.get("suit"):
        table += f" (suit {SUIT_NAMES[message['suit']]} declared)"
    lines.append(
        f"{table}; draw pile {message['draw_pile']}, discard pile "
        f"{message['discard_pile']}; play goes {arrow}"
    )
    if message.get("attack"):
        attack = message["attack"]
        lines.append(
            f"ATTACK on you: draw {attack['total']}, or counter with a value >= "
            f"{attack['last']}, or shield with a 3"
        )
    lines.append(f"your hand: {' '.join(message['hand'])}")
    if message.get("legal"):
        options = "  ".join(f"[{i}] {code}" for i, code in enumerate(message["legal"], 1))
        lines.append(f"you may play: {options}   [0] draw")
    return "\n".join(lines)


_DRAW_WORDS = frozenset({"0", "d", "draw", "t", "take"})
_CATCH_WORDS = {"y": "catch", "yes": "catch", "c": "catch", "catch": "catch"}
_PASS_WORDS = {"n": "pass", "no": "pass", "p": "pass", "pass": "pass", "": "pass"}


def parse_choice(message: dict[str, Any], text: str) -> dict[str, Any] | None:
    """A person's answer to a ``turn`` or ``catch`` message as a reply, or None when
    it says nothing usable (ask again).

    In a turn: ``0``/``d``/``draw`` draws (or takes an attack); a number picks that
    legal card, a card code names it; a 7 that is not the last card needs a suit
    letter after it (``3 h``, ``7C S``). One Card is always called. In a catch
    window: ``y``/``catch`` or ``n``/``pass`` (just Enter passes).
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
    if card[0] == "7" and len(message["hand"]) > 1:
        if len(words) < 2 or words[1] not in SUIT_NAMES:
            return None
        reply["suit"] = words[1]
    return reply
