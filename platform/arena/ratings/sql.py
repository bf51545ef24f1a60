"""The hand-written statement of the ratings app: the locking read of a match's
ratings, run for every rated match a worker records (see arena.core.statements
for why it is written out)."""

from __future__ import annotations

from arena.core.statements import columns, fetch_all, lock_clause, models_from_rows, placeholders
from arena.core.statements import table as table_of

from .models import Rating


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
