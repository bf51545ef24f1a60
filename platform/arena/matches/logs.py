"""Reading a game log (REPLAY.md plus the sandbox's extra keys) in match terms.

A log speaks of table seats; the platform speaks of a match's bot indexes
(MatchSeat.index). `log["seating"][seat]` is the index of the bot at that seat.
Logs are stored zlib-compressed: they are mostly repeated JSON keys and shrink
severalfold.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from sandbox.faults import PRIVATE_KEYS, fault_sentence, public_detail

# Game counts as turns what RULES.md counts (a play, shield, draw or take).
_TURN_KINDS = frozenset({"play", "shield", "draw", "take"})


# zlib level 3 rather than the default 6: a little more storage for much less
# compression work, on every match played.
LOG_COMPRESSION_LEVEL = 3


def log_compress(log: dict[str, Any]) -> bytes:
    # orjson: a small fraction of the standard encoder's CPU for a match's logs, on
    # every match played. Non-string keys are written as strings, as the standard
    # encoder does.
    return zlib.compress(orjson.dumps(log, option=orjson.OPT_NON_STR_KEYS), LOG_COMPRESSION_LEVEL)


def log_decompress(blob: bytes | memoryview) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(zlib.decompress(bytes(blob)))
    return data


@dataclass(frozen=True)
class GameSummary:
    seating: list[int]  # seat -> bot index
    ranks: list[int]  # bot index -> place
    winner_index: int | None
    turns: int
    adjudicated: bool
    # {"index", "seat", "reason", "event", "turn", "sentence", "owner_sentence"}:
    # `event` indexes the log's fault event (the replay opens at frame event + 1);
    # `owner_sentence` tells the bot's own output and is for its owner only.
    faults: list[dict[str, Any]]


def seating_of(log: dict[str, Any]) -> list[int]:
    seating = log.get("seating")
    if seating is None:
        return list(range(int(log["players"])))
    return [int(index) for index in seating]


def game_summary(log: dict[str, Any]) -> GameSummary:
    seating = seating_of(log)
    result = log["result"]
    ranks = [0] * len(seating)
    for seat, place in enumerate(result["ranks"]):
        ranks[seating[seat]] = int(place)
    winner = result.get("winner")
    notes, turns = _fault_notes_and_turns(log)
    faults = [
        {
            "index": seating[int(f["seat"])],
            "seat": int(f["seat"]),
            "reason": str(f["reason"]),
            **notes.get(int(f["seat"]), {}),
        }
        for f in result.get("faults", [])
    ]
    return GameSummary(
        seating=seating,
        ranks=ranks,
        winner_index=None if winner is None else seating[int(winner)],
        turns=turns,
        adjudicated=bool(result.get("adjudicated", False)),
        faults=faults,
    )


def fault_notes(log: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Per faulted table seat: where its fault event is, the turn, and the fault in
    a sentence, as anyone may read it and as the bot's owner may (sandbox.faults).

    A log without the sandbox's detail (an in-process game) still gets the turn,
    counted from the events.
    """
    return _fault_notes_and_turns(log)[0]


def _fault_notes_and_turns(log: dict[str, Any]) -> tuple[dict[int, dict[str, Any]], int]:
    """`fault_notes`, and the game's turns, in one pass over its events."""
    notes: dict[int, dict[str, Any]] = {}
    turns = 0
    for index, event in enumerate(log.get("events", [])):
        kind = event.get("kind")
        if kind in _TURN_KINDS:
            turns += 1
        if kind != "fault" or not isinstance(event.get("seat"), int):
            continue
        detail = event.get("detail")
        if not isinstance(detail, dict):
            detail = {"message": "turn", "turn": turns}
        reason = str(event.get("reason"))
        turn = detail.get("turn")
        notes[event["seat"]] = {
            "event": index,
            "turn": turn if isinstance(turn, int) else None,
            "sentence": fault_sentence(reason, public_detail(detail)),
            "owner_sentence": fault_sentence(reason, detail),
        }
    return notes, turns


def stderr_of_seat(log: dict[str, Any], seat: int) -> list[str]:
    """The stderr lines the sandbox kept for a table seat, oldest first.

    The sandbox stores, per seat, entries `{"event", "turn", "lines"}` that tie the
    lines to the point of the game where they were written.
    """
    per_seat = log.get("stderr") or []
    if not 0 <= seat < len(per_seat):
        return []
    lines: list[str] = []
    for entry in per_seat[seat] or []:
        lines.extend(str(line) for line in entry.get("lines", []))
    return lines


def log_without_private(log: dict[str, Any], *, hidden_seats: set[int]) -> dict[str, Any]:
    """A copy of the log without the stderr and debug output of `hidden_seats`, nor
    what their fault events' detail tells of their output (the reply, stderr).

    All of it is the bot's private output, shown only to the bot's owner (PROTOCOL.md).
    """
    if not hidden_seats:
        return log
    visible = dict(log)
    if isinstance(log.get("events"), list):
        visible["events"] = [
            _without_private_detail(event) if event.get("seat") in hidden_seats else event
            for event in log["events"]
        ]
    if isinstance(log.get("stderr"), list):
        visible["stderr"] = [
            [] if seat in hidden_seats else entries for seat, entries in enumerate(log["stderr"])
        ]
    if isinstance(log.get("debug"), list):
        visible["debug"] = [
            entry for entry in log["debug"] if entry.get("seat") not in hidden_seats
        ]
    return visible


def _without_private_detail(event: dict[str, Any]) -> dict[str, Any]:
    detail = event.get("detail")
    if event.get("kind") != "fault" or not isinstance(detail, dict):
        return event
    if not any(key in detail for key in PRIVATE_KEYS):
        return event
    return {**event, "detail": public_detail(detail)}
