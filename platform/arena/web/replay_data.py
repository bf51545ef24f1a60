"""What the replay viewer's JavaScript reads: the frames of `engine.replay_frames`
and, per table seat, the bot's name and the private output the user may see."""

from __future__ import annotations

from typing import Any

from arena.matches.models import Game


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
    }
