"""The one place where Rating rows are locked.

Every writer locks the rows it needs in the same order (bot id) so that two
transactions that share bots wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Iterable

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
    rows = (
        Rating.objects.select_for_update()
        .filter(competition_id=competition_id, bot_id__in=bot_ids)
        .order_by("bot_id")
    )
    return {row.bot_id: row for row in rows}
