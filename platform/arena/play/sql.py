"""The hand-written statements of playing a match: the claim, the seats, the
result's lease check, and the worker host's counts. Each runs once for every
match a worker plays (see arena.core.statements for why they are written out);
names come from the models, values are parameters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model

from arena.bots.models import Bot, BotVersion
from arena.core.statements import (
    Row,
    columns,
    db_time,
    execute,
    fetch_all,
    models_from_rows,
    placeholders,
    table,
)
from arena.matches.models import Game, Match, MatchSeat

from .models import WorkerHost


def match_claim_update(
    *, match_id: int, token: str, now: datetime, lease_until: datetime, max_attempts: int
) -> Match | None:
    """Claim a queued match, or a running one whose lease ran out, in one conditional
    UPDATE, atomic by itself: of two workers claiming at once, the second finds the
    row no longer claimable. None when the row was not claimable."""
    rows = fetch_all(
        f"UPDATE {table(Match)} SET state = %s, attempts = attempts + 1, worker = %s,"  # noqa: S608
        " lease_expires_at = %s, started_at = %s"
        " WHERE id = %s AND attempts < %s"
        " AND (state = %s OR (state = %s AND lease_expires_at <= %s))"
        f" RETURNING {columns(Match)}",
        [
            Match.State.RUNNING,
            token,
            db_time(lease_until),
            db_time(now),
            match_id,
            max_attempts,
            Match.State.QUEUED,
            Match.State.RUNNING,
            db_time(now),
        ],
    )
    return models_from_rows(Match, rows)[0] if rows else None


def match_seats_to_play(*, match_id: int) -> list[Row]:
    """(seat id, index, bot id, bot name, is_example, version id, kind, code, person
    id, person's user name) per seat, in index order: what the sandbox and the result
    write need of them. A person's seat (a table's) has no bot: NULLs there."""
    user = get_user_model()
    return fetch_all(
        'SELECT s."id", s."index", b."id", b."name", b."is_example", v."id", v."kind", v."code",'  # noqa: S608
        ' s."person_id", u."username"'
        f" FROM {table(MatchSeat)} s"
        f' LEFT JOIN {table(Bot)} b ON b."id" = s."bot_id"'
        f' LEFT JOIN {table(BotVersion)} v ON v."id" = s."bot_version_id"'
        f' LEFT JOIN {table(user)} u ON u."id" = s."person_id"'
        ' WHERE s."match_id" = %s ORDER BY s."index"',
        [match_id],
    )


def match_finish_if_held(*, match_id: int, token: str, now: datetime, backend: str) -> Match | None:
    """Mark the match done if this worker still holds it, locking its row until the
    transaction ends; None when the lease is no longer this worker's."""
    rows = fetch_all(
        f"UPDATE {table(Match)} SET state = %s, lease_expires_at = NULL, finished_at = %s,"  # noqa: S608
        " backend = %s WHERE id = %s AND state = %s AND worker = %s"
        f" RETURNING {columns(Match)}",
        [Match.State.DONE, db_time(now), backend, match_id, Match.State.RUNNING, token],
    )
    return models_from_rows(Match, rows)[0] if rows else None


_COUNTS = ("matches", "faulted", "failures")


@cache
def _worker_host_count_sql() -> str:
    host = table(WorkerHost)
    added = ", ".join(
        f'"{column}" = {host}."{column}" + EXCLUDED."{column}",'
        f' "total_{column}" = {host}."total_{column}" + EXCLUDED."{column}"'
        for column in _COUNTS
    )
    return (
        f'INSERT INTO {host} ("name", "matches", "faulted", "failures", "total_matches",'  # noqa: S608  (names are ours, the values are parameters)
        ' "total_faulted", "total_failures", "quarantine_reason", "first_seen_at",'
        " \"last_seen_at\") VALUES (%s, %s, %s, %s, %s, %s, %s, '', %s, %s)"
        f' ON CONFLICT ("name") DO UPDATE SET {added}, "last_seen_at" = EXCLUDED."last_seen_at"'
        ' RETURNING "quarantined_at" IS NOT NULL'
    )


def worker_host_count(
    *, name: str, now: datetime, matches: int, faulted: int, failures: int
) -> bool:
    """Add to a worker host's counts, creating its row on its first match, in one
    statement; True when the host is quarantined."""
    at = db_time(now)
    rows = fetch_all(
        _worker_host_count_sql(),
        [name, matches, faulted, failures, matches, faulted, failures, at, at],
    )
    return bool(rows[0][0])


def match_lock_if_held(*, match_id: int, token: str) -> bool:
    """Lock the match's row until the transaction ends if this worker still holds
    it; False when the lease is no longer this worker's."""
    rows = fetch_all(
        f"UPDATE {table(Match)} SET worker = worker"  # noqa: S608
        " WHERE id = %s AND state = %s AND worker = %s RETURNING id",
        [match_id, Match.State.RUNNING, token],
    )
    return bool(rows)


def games_delete_unkept(
    *, match_id: int, keep: Sequence[int], only: Sequence[int] | None = None
) -> None:
    """Delete the game rows an earlier attempt at a match left: those numbered in
    `only` (all when None), except those in `keep`. Such rows were never rated (a
    rated match is done and never played again), so nothing refers to them."""
    sql = f'DELETE FROM {table(Game)} WHERE "match_id" = %s'  # noqa: S608
    params: list[Any] = [match_id]
    if only is not None:
        sql += f' AND "number" IN ({placeholders(len(only))})'
        params += list(only)
    if keep:
        sql += f' AND "number" NOT IN ({placeholders(len(keep))})'
        params += list(keep)
    execute(sql, params)
