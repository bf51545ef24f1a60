"""The one place where Rating rows are locked.

Every writer locks the rows it needs in the same order (bot id) so that two
transactions that share bots wait for each other instead of deadlocking.

A row created in a transaction is as good as locked by it until it commits (a
second creator of the same row waits for it). So when some of a match's rows do
not exist yet (a bot's first rated game in a competition), the locking read
locks none of them, and they are then created and locked one at a time, in bot
id order: locking the existing rows first and creating a missing one with a
lower bot id afterwards would take them out of order, a deadlock between two
workers recording the first games of the same new bots.
"""

from __future__ import annotations

from collections.abc import Iterable

from .models import Rating
from .sql import ratings_select_all_or_none_for_update


def ratings_lock(*, competition_id: int, bot_ids: Iterable[int]) -> dict[int, Rating]:
    """Lock the ratings of `bot_ids` in a competition, creating the missing rows;
    returns them by bot id. Needs an open transaction. One query when the rows exist."""
    wanted = sorted(set(bot_ids))
    rows = _locked(competition_id=competition_id, bot_ids=wanted)
    if len(rows) == len(wanted):
        return rows
    # Rare (a bot's first game in the competition), and nothing is locked yet (the
    # locking read takes all of the rows or none). One bot at a time, in bot id
    # order: each missing row is inserted with ON CONFLICT DO NOTHING, so that two
    # workers creating the same new bot's rating both end up locking the one row.
    for bot_id in wanted:
        row = _locked(competition_id=competition_id, bot_ids=[bot_id])
        if not row:
            Rating.objects.bulk_create(
                [Rating(competition_id=competition_id, bot_id=bot_id)], ignore_conflicts=True
            )
            row = _locked(competition_id=competition_id, bot_ids=[bot_id])
        rows.update(row)
    return rows


def _locked(*, competition_id: int, bot_ids: list[int]) -> dict[int, Rating]:
    if not bot_ids:
        return {}
    return {
        row.bot_id: row
        for row in ratings_select_all_or_none_for_update(
            competition_id=competition_id, bot_ids=bot_ids
        )
    }
