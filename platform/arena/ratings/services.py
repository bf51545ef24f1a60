"""Writes to ratings: applying one rated game to the Elo ladder of its competition."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction

from arena.core import statements
from arena.matches.models import Game

from . import sql
from .ledger import Standing, game_outcome, initial_standing
from .locks import ratings_lock
from .models import Rating, RatingChange

logger = logging.getLogger(__name__)


class RatingError(ValueError):
    """A game that cannot be rated as it stands (a bot at two seats, bad ranks)."""


def standing_from_rating(rating: Rating, *, system: str, seats: int) -> Standing:
    """The standing a Rating row holds; a row with no game yet starts as `system`
    starts a bot at tables of `seats`."""
    if rating.games == 0:
        return initial_standing(system, seats=seats)
    return Standing(
        elo=rating.elo,
        games=rating.games,
        wins=rating.wins,
        rank_sum=rating.rank_sum,
        score_sum=rating.score_sum,
        last_played_at=rating.last_played_at,
        trend=tuple(rating.trend),
        mu=rating.mu,
        sigma=rating.sigma,
        version_id=rating.last_version_id,
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
    rating.mu = standing.mu
    rating.sigma = standing.sigma
    rating.last_version_id = standing.version_id


@dataclass(frozen=True, slots=True)
class SeatOfGame:
    index: int
    bot_id: int
    bot_version_id: int
    rank: int


class SeatOfMatch(NamedTuple):
    """Who sat at a seat of a rated match."""

    index: int
    bot_id: int
    bot_version_id: int


def game_seats_and_ranks(*, game: Game, seats: Sequence[SeatOfMatch]) -> list[SeatOfGame]:
    """Pair each seat (index, bot id, version id) of the match with its place in
    this game, checking the shapes."""
    ranks = game.ranks
    if not isinstance(ranks, list) or len(ranks) != len(seats):
        raise RatingError(f"game {game.pk}: {len(seats)} seats but ranks {ranks!r}")
    if len({bot_id for _, bot_id, _ in seats}) != len(seats):
        raise RatingError(f"game {game.pk}: a bot sits at two seats of a rated match")
    paired = []
    for index, bot_id, version_id in seats:
        rank = ranks[index]
        if not isinstance(rank, int) or not 1 <= rank <= len(seats):
            raise RatingError(f"game {game.pk}: bad rank {rank!r} for seat {index}")
        paired.append(SeatOfGame(index, bot_id, version_id, rank))
    return paired


def ratings_apply_match_games(*, games: Sequence[Game], seats: Sequence[SeatOfMatch]) -> None:
    """Apply finished games of one rated match, in the order given, to the
    competition's ratings; `seats` are the match's seats in index order
    (`arena.matches.selectors.match_seats_of` reads them).

    Runs inside the caller's transaction (the match result is written in the same
    one) and locks the Rating rows of the match's bots, ordered by bot id, so that
    two workers finishing matches with a common bot neither deadlock nor lose an
    update. Games that are not rated, or that already have their rating changes,
    are left alone, so that a retried result write cannot rate a game twice. A few
    small queries whatever the number of games: this runs for every match a worker
    records.
    """
    if not games:
        return
    match = games[0].match
    if any(game.match_id != match.pk for game in games):
        raise RatingError("ratings_apply_match_games takes the games of one match")
    if not match.rated or match.competition_id is None:
        return
    # Checked before any write, so that a refused game leaves the caller's
    # transaction usable.
    paired_by_game = [(game, game_seats_and_ranks(game=game, seats=seats)) for game in games]
    # No savepoint: the caller's transaction is the unit, and one is opened here
    # only when there is none (select_for_update needs it).
    with transaction.atomic(savepoint=False):
        rows = ratings_lock(
            competition_id=match.competition_id, bot_ids=[bot_id for _, bot_id, _ in seats]
        )
        # Read under the locks: a concurrent apply of the same games has
        # committed its changes by the time we hold the rows, and a switch of the
        # competition's system (ratings_switch_system) holds them too.
        system, table_size, rated = sql.rating_system_and_games_rated(
            competition_id=match.competition_id, game_ids=[game.pk for game in games]
        )
        standings = {
            bot_id: standing_from_rating(row, system=system, seats=table_size)
            for bot_id, row in rows.items()
        }
        changes = []
        for game, paired in paired_by_game:
            if game.pk in rated:
                logger.info("game %s already rated; not rating it again", game.pk)
                continue
            before = [standings[seat.bot_id] for seat in paired]
            after = game_outcome(
                before=before,
                ranks=[seat.rank for seat in paired],
                played_at=game.created_at,
                system=system,
                seats=table_size,
                versions=[seat.bot_version_id for seat in paired],
            )
            for seat, old, new in zip(paired, before, after, strict=True):
                changes.append(
                    RatingChange(
                        rating=rows[seat.bot_id],
                        game_id=game.pk,
                        bot_version_id=seat.bot_version_id,
                        before=old.elo,
                        after=new.elo,
                    )
                )
                standings[seat.bot_id] = new
        if not changes:
            return
        for bot_id, row in rows.items():
            rating_store_standing(rating=row, standing=standings[bot_id])
        _ratings_write(rows=list(rows.values()), changes=changes)


def _ratings_write(*, rows: list[Rating], changes: list[RatingChange]) -> None:
    """The new totals of the locked rows and their changes: one UPDATE per row and
    one INSERT, through arena.core.statements because every recorded match runs
    them. The changes keep no primary key."""
    statements.update_each(
        Rating,
        RATING_TOTAL_FIELDS,
        [(row.pk, [getattr(row, name) for name in RATING_TOTAL_FIELDS]) for row in rows],
    )
    statements.insert(changes, keys=False)


RATING_TOTAL_FIELDS = [
    "elo",
    "games",
    "wins",
    "rank_sum",
    "score_sum",
    "last_played_at",
    "trend",
    "mu",
    "sigma",
    "last_version_id",
]
