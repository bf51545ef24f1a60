"""The hand-written statements of the ratings app, run for every rated match a
worker records (see arena.core.statements for why they are written out): the
locking read of a match's ratings, the check for games already rated, and the
competition's rating system and table size."""

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


def games_rated(*, game_ids: list[int]) -> set[int]:
    """Which of these games already have their rating changes."""
    if not game_ids:
        return set()
    rows = fetch_all(
        f'SELECT DISTINCT "game_id" FROM {table_of(RatingChange)}'  # noqa: S608  (names are ours, the values are parameters)
        f' WHERE "game_id" IN ({placeholders(len(game_ids))})',
        game_ids,
    )
    return {game_id for (game_id,) in rows}


def competition_rating_system(*, competition_id: int) -> tuple[str, int]:
    """The rating system a competition rates its games with, and its table size."""
    rows = fetch_all(
        f'SELECT "rating_system", "seats" FROM {table_of(Competition)} WHERE "id" = %s',  # noqa: S608  (names are ours, the values are parameters)
        [competition_id],
    )
    return str(rows[0][0]), int(rows[0][1])
