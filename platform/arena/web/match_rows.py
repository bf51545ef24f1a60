"""A match's seats and games shaped for the match page (table seats mapped back to
the match's bots, fault reasons beside the bot that faulted)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.matches.models import Game, MatchSeat
from arena.matches.selectors import game_faults_for_user


@dataclass(frozen=True)
class SeatRow:
    seat: MatchSeat
    average_rank: float | None


@dataclass(frozen=True)
class GamePlace:
    name: str
    place: int
    winner: bool
    faults: list[str]


@dataclass(frozen=True)
class GameRow:
    game: Game
    places: list[GamePlace]  # in the match's bot order
    winner: str | None
    faults: list[dict[str, Any]]
    # Each fault in a sentence as this user may read it, with its bot's name and
    # the replay URL that opens at it.
    fault_notes: list[dict[str, Any]]


def seat_rows(seats: list[MatchSeat]) -> list[SeatRow]:
    return [
        SeatRow(seat=seat, average_rank=seat.rank_sum / seat.games if seat.games else None)
        for seat in seats
    ]


def game_rows(
    *, games: list[Game], seats: list[MatchSeat], owned: set[int] | frozenset[int] = frozenset()
) -> list[GameRow]:
    """`owned`: the bot indexes whose owner's fault sentences the user may read."""
    names = {seat.index: seat.player_name for seat in seats}
    rows = []
    for game in games:
        faults_by_index: dict[int, list[str]] = {}
        for fault in game.faults or []:
            index = fault.get("index")
            if index is None and isinstance(fault.get("seat"), int):
                index = game.seating[fault["seat"]]
            faults_by_index.setdefault(index, []).append(str(fault.get("reason", "fault")))
        places = [
            GamePlace(
                name=names.get(index, f"bot {index}"),
                place=place,
                winner=index == game.winner_index,
                faults=faults_by_index.get(index, []),
            )
            for index, place in enumerate(game.ranks)
        ]
        rows.append(
            GameRow(
                game=game,
                places=places,
                winner=names.get(game.winner_index) if game.winner_index is not None else None,
                faults=list(game.faults or []),
                fault_notes=[
                    {**note, "name": names.get(note["index"], f"bot {note['index']}")}
                    for note in game_faults_for_user(game=game, owned=set(owned))
                ],
            )
        )
    return rows
