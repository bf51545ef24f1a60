"""The one place where Rating rows are locked.

Every writer locks the rows it needs in the same order (bot id) so that two
transactions that share bots wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.core import statements

from .models import Rating


def ratings_lock(*, competition_id: int, bot_ids: Iterable[int]) -> dict[int, Rating]:
    """Lock (select_for_update) the ratings of `bot_ids` in a competition, creating
    the missing rows first; returns them by bot id. Needs an open transaction.

    One query when the rows exist. Missing rows are inserted with ON CONFLICT DO
    NOTHING, so two workers creating the same new bot's rating at once both end up
    locking the one row.
    """
    wanted = sorted(set(bot_ids))
    rows = _locked_rows(competition_id=competition_id, bot_ids=wanted)
    missing = [bot_id for bot_id in wanted if bot_id not in rows]
    if missing:
        # Rare (a bot's first game in the competition): insert, then lock them all
        # again, still in bot id order.
        Rating.objects.bulk_create(
            [Rating(competition_id=competition_id, bot_id=bot_id) for bot_id in missing],
            ignore_conflicts=True,
        )
        rows = _locked_rows(competition_id=competition_id, bot_ids=wanted)
    return rows


def _locked_rows(*, competition_id: int, bot_ids: list[int]) -> dict[int, Rating]:
    # Written out (arena.core.statements): every recorded match runs it.
    if not bot_ids:
        return {}
    rows = statements.fetch_all(
        f'SELECT {statements.columns(Rating)} FROM "{Rating._meta.db_table}"'  # noqa: S608  (names are ours, the values are parameters)
        f' WHERE "competition_id" = %s AND "bot_id" IN ({statements.placeholders(len(bot_ids))})'
        f' ORDER BY "bot_id"{statements.lock_clause()}',
        [competition_id, *bot_ids],
    )
    return {row.bot_id: row for row in statements.models_from_rows(Rating, rows)}
