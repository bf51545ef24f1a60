"""What the replay viewer's JavaScript reads: the frames of `engine.replay_frames`,
what each play does under the game's ruleset, and, per table seat, the bot's name
and the private output the user may see."""

from __future__ import annotations

from typing import Any

import engine
from arena.matches.logs import fault_notes
from engine.text import play_effect, ruleset_legend
from sandbox.stderr import dropped_count, dropped_marker, merge_dropped_markers


def replay_page_data(*, replay: dict[str, Any]) -> dict[str, Any]:
    """`replay` is `game_replay_for_user`'s answer (or a qualification game's),
    already stripped for this user, its seats under their bots' names."""
    log = replay["log"]
    players = int(log["players"])
    names = list(log.get("names") or [])
    table_seats = [
        {"seat": seat, "name": names[seat] if seat < len(names) else f"seat {seat}"}
        for seat in range(players)
    ]
    debug: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for entry in log.get("debug") or []:
        seat = entry.get("seat")
        if isinstance(seat, int) and 0 <= seat < players:
            debug[seat].append({"event": entry.get("event"), "text": str(entry.get("text", ""))})
    stderr = [_merged(entries or []) for entries in log.get("stderr") or [[]] * players]
    return {
        "frames": replay["frames"],
        "seats": table_seats,
        "stderr": stderr,
        "debug": debug,
        "result": log.get("result"),
        # Per fault event (by its index in the log), the fault in a sentence: the
        # log is already stripped, so a hidden seat's sentence tells only the public.
        "fault_sentences": {
            str(note["event"]): note["owner_sentence"] for note in fault_notes(log).values()
        },
        **_card_roles(log.get("ruleset"), replay["frames"]),
    }


def _merged(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A seat's stderr entries with its "lines dropped" markers merged: a flooding
    bot leaves one per decision, and entries of nothing but markers, whose counts
    go to the next entry's marker."""
    merged: list[dict[str, Any]] = []
    carried = 0
    for entry in entries:
        lines = merge_dropped_markers([str(line) for line in entry.get("lines", [])])
        if carried:
            lines = merge_dropped_markers([dropped_marker(carried), *lines])
            carried = 0
        if all(dropped_count(line) for line in lines):
            carried = sum(dropped_count(line) for line in lines)
            continue
        merged.append({**entry, "lines": lines})
    if carried:
        if merged:
            merged[-1] = {**merged[-1], "lines": [*merged[-1]["lines"], dropped_marker(carried)]}
        elif entries:
            merged.append({**entries[-1], "lines": [dropped_marker(carried)]})
    return merged


def _card_roles(ruleset: Any, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's ruleset told as the viewer says it: `legend` (which cards carry
    which role, and the attack ladder) and `effects`, per frame, what the play that
    led to it did (None for any other event). The engine's words, never the ranks':
    a J is wild under `pesten` and skips under `korean`."""
    try:
        rules = engine.Ruleset.from_value(ruleset)
    except engine.RulesetError:  # a log that does not replay has no frames either
        return {"ruleset_name": None, "legend": [], "effects": [None] * len(frames)}
    effects = []
    for frame in frames:
        event = frame["event"] or {}
        played = event.get("cards") or [event.get("card")]
        effects.append(play_effect(played, rules) if event.get("kind") == "play" else None)
    return {
        "ruleset_name": rules.name,
        "legend": [{"what": what, "cards": cards} for what, cards in ruleset_legend(rules)],
        "effects": effects,
    }
