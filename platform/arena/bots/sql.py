"""The hand-written statement of the bots app: the fault streaks, updated for every
match a worker records (see arena.core.statements for why it is written out)."""

from __future__ import annotations

from arena.core.statements import Row, fetch_all, placeholders, table

from .models import BotVersion


def fault_streaks_update(*, played: list[int], faulted: list[int]) -> list[Row]:
    """Streak + 1 for the `faulted` versions, 0 for the other `played` ones (both in
    id order); returns (id, new streak, status) of the rows it changed.

    It touches only the rows whose streak changes (none after a clean match between
    clean bots), with FOR NO KEY UPDATE row locks (it changes no key) taken in one
    scan, so two workers lock shared versions in the same order. A plain FOR UPDATE
    would also block the foreign-key checks of rows that merely refer to a version
    (a new match's seats): a deadlock with matchmaking.
    """
    if faulted:
        in_faulted = f'"id" IN ({placeholders(len(faulted))})'
        streak = f'CASE WHEN {in_faulted} THEN "consecutive_faulted_matches" + 1 ELSE 0 END'
        changing = f'({in_faulted} OR "consecutive_faulted_matches" <> 0)'
        params = [*faulted, *played, *faulted]
    else:
        streak, changing, params = "0", '"consecutive_faulted_matches" <> 0', list(played)
    return fetch_all(
        f'UPDATE {table(BotVersion)} SET "consecutive_faulted_matches" = {streak}'  # noqa: S608  (names are ours, the values are parameters)
        f' WHERE "id" IN ({placeholders(len(played))}) AND {changing}'
        ' RETURNING "id", "consecutive_faulted_matches", "status"',
        params,
    )
