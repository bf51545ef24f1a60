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
    the missing rows; returns them by bot id. Needs an open transaction.

    One query when the rows exist; none when `locked` holds the rows of
    `ratings_lock_send` for the same competition and bots, read in this
    transaction (the caller sent it with its other statements).
    """
    wanted = sorted(set(bot_ids))
    rows = (
        _locked_rows(competition_id=competition_id, bot_ids=wanted)
        if locked is None
        else _by_bot(locked)
    )
    if len(rows) == len(wanted):
        return rows
    # Rare (a bot's first game in the competition), and nothing is locked yet (the
    # locking read takes all of the rows or none). One bot at a time, in bot id
    # order: each missing row is inserted with ON CONFLICT DO NOTHING, so that two
    # workers creating the same new bot's rating both end up locking the one row.
    for bot_id in wanted:
        row = _locked_rows(competition_id=competition_id, bot_ids=[bot_id])
        if not row:
            Rating.objects.bulk_create(
                [Rating(competition_id=competition_id, bot_id=bot_id)], ignore_conflicts=True
            )
            row = _locked_rows(competition_id=competition_id, bot_ids=[bot_id])
        rows.update(row)
    return rows


def ratings_lock_send(*, competition_id: int, bot_ids: Iterable[int]) -> statements.Sent:
    """The locking read of `ratings_lock`, sent: in a `statements.pipelined()` block
    it travels with the statements before it. Its rows go to `ratings_lock`.

    It locks all of the rows, in bot id order, or none when one is missing (see
    the module's docstring): the count, a plain read, decides before any lock."""
    wanted = sorted(set(bot_ids))
    table = Rating._meta.db_table
    in_wanted = statements.placeholders(len(wanted))
    of_these_bots = f'"competition_id" = %s AND "bot_id" IN ({in_wanted})'
    # Written out (arena.core.statements): every recorded match runs it.
    return statements.send(
        f'SELECT {statements.columns(Rating)} FROM "{table}" WHERE {of_these_bots}'  # noqa: S608  (names are ours, the values are parameters)
        f' AND (SELECT COUNT(*) FROM "{table}" WHERE {of_these_bots}) = %s'
        f' ORDER BY "bot_id"{statements.lock_clause()}',
        [competition_id, *wanted, competition_id, *wanted, len(wanted)],
    )


def _locked_rows(*, competition_id: int, bot_ids: list[int]) -> dict[int, Rating]:
    if not bot_ids:
        return {}
    return _by_bot(ratings_lock_send(competition_id=competition_id, bot_ids=bot_ids).rows())


def _by_bot(rows: list[tuple[Any, ...]]) -> dict[int, Rating]:
    return {row.bot_id: row for row in statements.models_from_rows(Rating, rows)}
