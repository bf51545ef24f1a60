"""What a user may see of a game: the log, with other people's bots' private output
(stderr and debug) removed, and the frames the replay viewer steps through."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

import engine
from arena.bots.selectors import bot_version_get_for_owner
from arena.matches.logs import log_decompress, log_without_private
from arena.matches.models import Game, QualificationGame
from arena.matches.selectors import game_log


def hidden_seats_for_user(*, user: Any, game: Game) -> set[int]:
    """Table seats of this game whose bot the user does not own (staff own all)."""
    if user is not None and user.is_authenticated and user.is_staff:
        return set()
    user_id = user.pk if user is not None and user.is_authenticated else None
    owner_by_index = {seat.index: seat.owner_id for seat in game.match.seats.all()}
    return {seat for seat, index in enumerate(game.seating) if owner_by_index.get(index) != user_id}


def seat_views_for_user(*, user: Any, game: Game) -> set[int]:
    """Table seats whose view (its hand, what it drew) the user may see.

    Every one, for everybody: a replay shows every hand face up once the game is
    played. Whatever is derived from one seat's view (its analysis) follows this
    rule, so a game whose hands become private changes here alone.
    """
    return set(range(len(game.seating or game.ranks)))


def game_replay_for_user(*, user: Any, game: Game) -> dict[str, Any]:
    """{"log": the visible log, "frames": engine.replay_frames(log), "error": ...}.

    A stored log that does not replay (it should never happen: the engine wrote
    it) still shows its log, with no frames and the reason in "error".
    """
    hidden = hidden_seats_for_user(user=user, game=game)
    log = log_without_private(game_log(game=game), hidden_seats=hidden)
    # Each seat under its bot's name now, not the name stored when it was played:
    # a deleted bot's games show its neutral name everywhere, downloads included.
    name_by_index = {seat.index: seat.player_name for seat in game.match.seats.all()}
    if all(index in name_by_index for index in game.seating):
        log = {**log, "names": [name_by_index[index] for index in game.seating]}
    # The game number the bots were told, which a rerun tells them again (logs
    # written before the engine kept it lack it).
    log = {**log, "game": log.get("game", game.number)}
    return _with_frames(log)


def qualification_game_get_for_owner(
    *, user: Any, version_pk: int, number: int
) -> QualificationGame:
    """A game of a version's qualification, for the version's owner (or staff) only;
    Http404 otherwise."""
    version = bot_version_get_for_owner(user=user, pk=version_pk)
    return get_object_or_404(
        QualificationGame.objects.select_related("version__bot"), version=version, number=number
    )


def qualification_game_replay(*, game: QualificationGame) -> dict[str, Any]:
    """`game_replay_for_user`'s answer for a qualification game, which only the
    version's owner may open: the other seats are the platform's random bots,
    whose output is not shown."""
    log = log_decompress(game.log_compressed)
    hidden = {seat for seat in range(int(log["players"])) if seat != game.seat}
    log = log_without_private(log, hidden_seats=hidden)
    log = {**log, "game": log.get("game", 0)}
    names = list(log.get("names") or [])
    if 0 <= game.seat < len(names):
        names[game.seat] = game.version.bot.name
        log = {**log, "names": names}
    return _with_frames(log)


def _with_frames(log: dict[str, Any]) -> dict[str, Any]:
    try:
        frames = engine.replay_frames(log)
    except engine.ReplayError as error:
        return {"log": log, "frames": [], "error": str(error)}
    return {"log": log, "frames": frames, "error": None}
