"""Plain-text rendering: a game log turn by turn, and one seat's view for a person.

>>> describe_event({"seat": 1, "kind": "play", "card": "7H", "suit": "S"}, ["ann", "bob"])
'bob plays 7H and names S'
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
