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
    faults: list[dict[str, Any]]  # {"index", "seat", "reason"}


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
    faults = [
        {"index": seating[int(f["seat"])], "seat": int(f["seat"]), "reason": str(f["reason"])}
        for f in result.get("faults", [])
    ]
    turns = sum(1 for event in log.get("events", []) if event.get("kind") in _TURN_KINDS)
    return GameSummary(
        seating=seating,
        ranks=ranks,
        winner_index=None if winner is None else seating[int(winner)],
        turns=turns,
        adjudicated=bool(result.get("adjudicated", False)),
        faults=faults,
    )


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
    """A copy of the log without the stderr and debug output of `hidden_seats`.

    Both are the bot's private output, shown only to the bot's owner (PROTOCOL.md).
    """
    if not hidden_seats:
        return log
    visible = dict(log)
    if isinstance(log.get("stderr"), list):
        visible["stderr"] = [
            [] if seat in hidden_seats else entries for seat, entries in enumerate(log["stderr"])
        ]
    if isinstance(log.get("debug"), list):
        visible["debug"] = [
            entry for entry in log["debug"] if entry.get("seat") not in hidden_seats
        ]
    return visible
