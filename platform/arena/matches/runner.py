"""Playing one match on a worker: claim, run in the sandbox, record."""

from __future__ import annotations

import enum
import logging
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError

from arena.bots.models import Bot, BotVersion
from arena.core import statements
from arena.core.sandboxing import Entrant, run_sandboxed_match
from sandbox.errors import InfrastructureError

from . import lifecycle
from .models import Match, MatchSeat
from .recorder import ResultRecorder

logger = logging.getLogger(__name__)


class Outcome(enum.Enum):
    NOTHING_TO_DO = "nothing to do"  # gone, finished, or held by a live lease
    DONE = "done"
    RETRY = "retry"  # infrastructure trouble; queued again
    FAILED = "failed"  # out of attempts
    LOST = "lost"  # another worker took the match over meanwhile
    RECORDING = "recording"  # played; its result is being written behind


def match_run(*, match_id: int, recorder: ResultRecorder | None = None) -> Outcome:
    """Play a queued match and record its result. Safe to call twice for one match:
    a match already done (or held by another worker) is left alone.

    With a `recorder`, the result is written on its thread while the caller goes
    on (arena.matches.recorder), and the outcome is RECORDING."""
    token = lifecycle.worker_token()
    # The claim and the seats in one round trip; the seats are read either way and
    # used only when the claim succeeded. The claim need not wait for the disk: if
    # a crash of the database loses it, the match is queued again as far as the
    # database knows, and `matches_resend_queued` sends it again.
    with statements.pipelined():
        statements.commit_asynchronously()
        claim = lifecycle.match_claim_send(match_id=match_id, token=token)
        seats_sent = _seats_send(match_id)
        claimed, seat_rows = claim.rows(), seats_sent.rows()
    match = lifecycle.match_claim_outcome(match_id=match_id, rows=claimed)
    if match is None:
        return Outcome.NOTHING_TO_DO
    seats, entrants = _seats_to_play(seat_rows)
    renew_every = settings.ARENA_MATCH_LEASE_SECONDS / 4
    try:
        with lifecycle.lease_heartbeat(match_id=match_id, token=token, every_seconds=renew_every):
            result = run_sandboxed_match(
                entrants=entrants,
                games=match.games_planned,
                seed=match.seed,
                ruleset=match.ruleset,
            )
    except InfrastructureError as error:
        logger.warning("match %s: sandbox unavailable: %s", match_id, error)
        return _released(match_id, token, str(error))
    except Exception as error:
        # Not a bot's fault either (bots fault inside the logs, never here): our own
        # bug or a missing file. Give the match back at once rather than hold it
        # until the lease runs out; the attempt limit stops a repeating failure.
        logger.exception("match %s: could not be played", match_id)
        return _released(match_id, token, f"{type(error).__name__}: {error}")

    def record() -> Outcome:
        return _recorded(match_id, token, result=result, seats=seats, claimed=match)

    if recorder is None:
        return record()

    def record_behind() -> Outcome:
        # The recorder's connection runs only result writes, whose COMMIT need not
        # wait for the disk (`_result_write`): said once for its session.
        statements.commit_asynchronously_in_this_session()
        return record()

    recorder.submit(match_id=match_id, write=record_behind)
    return Outcome.RECORDING


def _recorded(
    match_id: int,
    token: str,
    *,
    result: Any,
    seats: list[lifecycle.SeatRef],
    claimed: Match,
) -> Outcome:
    """Write a played match's result: DONE, or LOST if another worker holds the
    match now. A result that cannot be written is released with the reason."""
    try:
        recorded = lifecycle.match_record_result(
            match_id=match_id,
            token=token,
            games=result.games,
            backend=result.backend,
            stopped=getattr(result, "stopped", None),
            seats=seats,
            claimed=claimed,
        )
    except (OperationalError, InterfaceError):
        raise  # the database is away: tried again, and the lease covers the match
    except Exception as error:
        # The write rolled back as a whole (nothing is half-recorded); say why on
        # the match and play it again, up to the attempt limit.
        logger.exception("match %s: result could not be recorded", match_id)
        return _released(match_id, token, f"recording failed: {type(error).__name__}: {error}")
    return Outcome.DONE if recorded is not None else Outcome.LOST


def _seats_send(match_id: int) -> statements.Sent:
    """The match's seats in index order, with their bots and what the sandbox needs
    of them: one hand-written join (arena.core.statements), as every played match
    runs it."""
    return statements.send(
        'SELECT s."id", s."index", b."id", b."name", b."is_example", v."id", v."kind", v."code"'  # noqa: S608  (table names are ours, the values are parameters)
        f' FROM "{MatchSeat._meta.db_table}" s'
        f' JOIN "{Bot._meta.db_table}" b ON b."id" = s."bot_id"'
        f' JOIN "{BotVersion._meta.db_table}" v ON v."id" = s."bot_version_id"'
        ' WHERE s."match_id" = %s ORDER BY s."index"',
        [match_id],
    )


def _seats_to_play(
    rows: list[tuple[Any, ...]],
) -> tuple[list[lifecycle.SeatRef], list[Entrant]]:
    """The seats (for the result write) and the entrants (for the sandbox) from the
    rows of `_seats_send`."""
    seats, entrants = [], []
    for seat_id, index, bot_id, name, is_example, version_id, kind, code in rows:
        seats.append(lifecycle.SeatRef(seat_id, index, bot_id, version_id))
        bot = Bot.from_db(
            DEFAULT_DB_ALIAS, ["id", "name", "is_example"], [bot_id, name, bool(is_example)]
        )
        version = BotVersion.from_db(
            DEFAULT_DB_ALIAS, ["id", "bot_id", "kind", "code"], [version_id, bot_id, kind, code]
        )
        version.bot = bot
        entrants.append(Entrant(name=name, version=version))
    return seats, entrants


def _released(match_id: int, token: str, error: str) -> Outcome:
    verdict = lifecycle.match_release(match_id=match_id, token=token, error=error)
    return {"retry": Outcome.RETRY, "failed": Outcome.FAILED}.get(verdict, Outcome.LOST)
