"""The one place where Rating rows are locked.

Every writer locks the rows it needs in the same order (bot id) so that two
transactions that share bots wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.core import statements

from .models import Rating


def ratings_lock(
    *,
    competition_id: int,
    bot_ids: Iterable[int],
    locked: list[tuple[Any, ...]] | None = None,
) -> dict[int, Rating]:
    """Lock (select_for_update) the ratings of `bot_ids` in a competition, creating
    the missing rows first; returns them by bot id. Needs an open transaction.

    One query when the rows exist; none when `locked` holds the rows of
    `ratings_lock_send` for the same competition and bots, read in this
    transaction (the caller sent it with its other statements). Missing rows are
    inserted with ON CONFLICT DO NOTHING, so two workers creating the same new
    bot's rating at once both end up locking the one row.
    """
    wanted = sorted(set(bot_ids))
    rows = (
        _locked_rows(competition_id=competition_id, bot_ids=wanted)
        if locked is None
        else _by_bot(locked)
    )
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


def ratings_lock_send(*, competition_id: int, bot_ids: Iterable[int]) -> statements.Sent:
    """The locking read of `ratings_lock`, sent: in a `statements.pipelined()` block
    it travels with the statements before it. Its rows go to `ratings_lock`."""
    wanted = sorted(set(bot_ids))
    # Written out (arena.core.statements): every recorded match runs it.
    return statements.send(
        f'SELECT {statements.columns(Rating)} FROM "{Rating._meta.db_table}"'  # noqa: S608  (names are ours, the values are parameters)
        f' WHERE "competition_id" = %s AND "bot_id" IN ({statements.placeholders(len(wanted))})'
        f' ORDER BY "bot_id"{statements.lock_clause()}',
        [competition_id, *wanted],
    )


def _locked_rows(*, competition_id: int, bot_ids: list[int]) -> dict[int, Rating]:
    if not bot_ids:
        return {}
    return _by_bot(ratings_lock_send(competition_id=competition_id, bot_ids=bot_ids).rows())


def _by_bot(rows: list[tuple[Any, ...]]) -> dict[int, Rating]:
    return {row.bot_id: row for row in statements.models_from_rows(Rating, rows)}
