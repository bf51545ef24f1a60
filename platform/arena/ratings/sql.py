"""The hand-written statements of the ratings app, run for every rated match a
worker records (see arena.core.statements for why they are written out): the
locking read of a match's ratings, and the competition's rating system and table
size with the games already rated."""

from __future__ import annotations

from arena.core.statements import columns, fetch_all, lock_clause, models_from_rows, placeholders
from arena.core.statements import table as table_of
from arena.matches.models import Competition

from .models import Rating, RatingChange


def ratings_select_all_or_none_for_update(
    *, competition_id: int, bot_ids: list[int]
) -> list[Rating]:
    """The Rating rows of `bot_ids` (sorted, distinct) in a competition, locked in bot
    id order, or none at all (nothing locked) when one of them is missing: the
    count, a plain read, decides before any lock (arena.ratings.locks says why)."""
    table = table_of(Rating)
    of_these_bots = f'"competition_id" = %s AND "bot_id" IN ({placeholders(len(bot_ids))})'
    rows = fetch_all(
        f"SELECT {columns(Rating)} FROM {table} WHERE {of_these_bots}"  # noqa: S608  (names are ours, the values are parameters)
        f" AND (SELECT COUNT(*) FROM {table} WHERE {of_these_bots}) = %s"
        f' ORDER BY "bot_id"{lock_clause()}',
        [competition_id, *bot_ids, competition_id, *bot_ids, len(bot_ids)],
    )
    return models_from_rows(Rating, rows)


def rating_system_and_games_rated(
    *, competition_id: int, game_ids: list[int]
) -> tuple[str, int, set[int]]:
    """The rating system a competition rates its games with, its table size, and
    which of these games already have their rating changes: one round trip, one
    row per rated game (one row with a NULL game when none is)."""
    rated = (
        f'SELECT DISTINCT "game_id" FROM {table_of(RatingChange)}'  # noqa: S608  (names are ours, the values are parameters)
        f' WHERE "game_id" IN ({placeholders(len(game_ids))})'
        if game_ids
        else 'SELECT NULL AS "game_id"'
    )
    rows = fetch_all(
        f'SELECT c."rating_system", c."seats", r."game_id" FROM {table_of(Competition)} c'  # noqa: S608  (names are ours, the values are parameters)
        f' LEFT JOIN ({rated}) r ON 1 = 1 WHERE c."id" = %s',
        [*game_ids, competition_id],
    )
    system, seats = rows[0][0], rows[0][1]
    return str(system), int(seats), {game_id for _, _, game_id in rows if game_id is not None}
