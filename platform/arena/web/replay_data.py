"""What the replay viewer's JavaScript reads: the frames of `engine.replay_frames`,
what each play does under the game's ruleset, and, per table seat, the bot's name
and the private output the user may see."""

from __future__ import annotations

from typing import Any

import engine
from arena.matches.models import Game
from engine.text import play_effect, ruleset_legend


def replay_page_data(*, game: Game, replay: dict[str, Any]) -> dict[str, Any]:
    """`replay` is `game_replay_for_user`'s answer, already stripped for this user."""
    log = replay["log"]
    seats_by_index = {seat.index: seat for seat in game.match.seats.all()}
    players = int(log["players"])
    seating = game.seating or list(range(players))
    table_seats = []
    for seat in range(players):
        match_seat = seats_by_index.get(seating[seat])
        name = match_seat.bot.name if match_seat else log["names"][seat]
        table_seats.append({"seat": seat, "name": name})
    debug: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for entry in log.get("debug") or []:
        seat = entry.get("seat")
        if isinstance(seat, int) and 0 <= seat < players:
            debug[seat].append({"event": entry.get("event"), "text": str(entry.get("text", ""))})
    stderr = log.get("stderr") or [[] for _ in range(players)]
    return {
        "frames": replay["frames"],
        "seats": table_seats,
        "stderr": stderr,
        "debug": debug,
        "result": log.get("result"),
        **_card_roles(log.get("ruleset"), replay["frames"]),
    }


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
