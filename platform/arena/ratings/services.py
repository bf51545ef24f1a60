"""Writes to ratings: applying one rated game to the Elo ladder of its competition."""

from __future__ import annotations

import logging

from django.db import transaction

from arena.matches.models import Game, MatchSeat

from .ledger import Standing, game_outcome
from .locks import ratings_lock
from .models import Rating, RatingChange

logger = logging.getLogger(__name__)


class RatingError(ValueError):
    """A game that cannot be rated as it stands (a bot at two seats, bad ranks)."""


def standing_from_rating(rating: Rating) -> Standing:
    return Standing(
        elo=rating.elo,
        games=rating.games,
        wins=rating.wins,
        rank_sum=rating.rank_sum,
        score_sum=rating.score_sum,
        last_played_at=rating.last_played_at,
        trend=tuple(rating.trend),
    )


def rating_store_standing(*, rating: Rating, standing: Standing) -> None:
    """Copy a standing onto a Rating row (not saved)."""
    rating.elo = standing.elo
    rating.games = standing.games
    rating.wins = standing.wins
    rating.rank_sum = standing.rank_sum
    rating.score_sum = standing.score_sum
    rating.last_played_at = standing.last_played_at
    rating.trend = list(standing.trend)


def game_seats_and_ranks(*, game: Game, seats: list[MatchSeat]) -> list[tuple[MatchSeat, int]]:
    """Pair each seat of the match with its place in this game, checking the shapes."""
    ranks = game.ranks
    if not isinstance(ranks, list) or len(ranks) != len(seats):
        raise RatingError(f"game {game.pk}: {len(seats)} seats but ranks {ranks!r}")
    if len({seat.bot_id for seat in seats}) != len(seats):
        raise RatingError(f"game {game.pk}: a bot sits at two seats of a rated match")
    paired = []
    for seat in seats:
        rank = ranks[seat.index]
        if not isinstance(rank, int) or not 1 <= rank <= len(seats):
            raise RatingError(f"game {game.pk}: bad rank {rank!r} for seat {seat.index}")
        paired.append((seat, rank))
    return paired


def ratings_apply_game(*, game: Game) -> None:
    """Apply one finished game of a rated match to its competition's ratings.

    Runs inside the caller's transaction (the match result is written in the same
    one) and locks the Rating rows of the game's bots, ordered by bot id, so that two
    workers finishing matches with a common bot neither deadlock nor lose an update.
    A game that is not rated, or that already has its rating changes, is left alone,
    so that a retried result write cannot rate a game twice.
    """
    match = game.match
    if not match.rated or match.competition_id is None:
        return
    with transaction.atomic():
        seats = list(MatchSeat.objects.filter(match=match).order_by("index"))
        paired = game_seats_and_ranks(game=game, seats=seats)
        ratings = ratings_lock(
            competition_id=match.competition_id, bot_ids=[seat.bot_id for seat, _ in paired]
        )
        # Checked under the locks: a concurrent apply of the same game has committed
        # its changes by the time we hold the rows.
        if RatingChange.objects.filter(game=game).exists():
            logger.info("game %s already rated; not rating it again", game.pk)
            return
        rows = [ratings[seat.bot_id] for seat, _ in paired]
        after = game_outcome(
            before=[standing_from_rating(row) for row in rows],
            ranks=[rank for _, rank in paired],
            played_at=game.created_at,
        )
        changes = []
        for (seat, _), row, standing in zip(paired, rows, after, strict=True):
            changes.append(
                RatingChange(
                    rating=row,
                    game=game,
                    bot_version_id=seat.bot_version_id,
                    before=row.elo,
                    after=standing.elo,
                )
            )
            rating_store_standing(rating=row, standing=standing)
        Rating.objects.bulk_update(rows, RATING_TOTAL_FIELDS)
        RatingChange.objects.bulk_create(changes)


RATING_TOTAL_FIELDS = ["elo", "games", "wins", "rank_sum", "score_sum", "last_played_at", "trend"]
