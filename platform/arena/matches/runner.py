"""Playing one match on a worker: claim, run in the sandbox, record."""

from __future__ import annotations

import enum
import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError

from arena.core.sandboxing import Entrant, run_sandboxed_match
from sandbox.errors import InfrastructureError

from . import lifecycle
from .models import MatchSeat

logger = logging.getLogger(__name__)


class Outcome(enum.Enum):
    NOTHING_TO_DO = "nothing to do"  # gone, finished, or held by a live lease
    DONE = "done"
    RETRY = "retry"  # infrastructure trouble; queued again
    FAILED = "failed"  # out of attempts
    LOST = "lost"  # another worker took the match over meanwhile


def match_run(*, match_id: int) -> Outcome:
    """Play a queued match and record its result. Safe to call twice for one match:
    a match already done (or held by another worker) is left alone."""
    token = lifecycle.worker_token()
    match = lifecycle.match_claim(match_id=match_id, token=token)
    if match is None:
        return Outcome.NOTHING_TO_DO
    seats = list(
        MatchSeat.objects.filter(match_id=match_id)
        .select_related("bot", "bot_version")
        # What the sandbox needs, not the versions' qualification reports.
        .only(
            "index",
            "bot__name",
            "bot__is_example",
            "bot_version__kind",
            "bot_version__code",
            "bot_version__sha256",
            "bot_version__bot",
        )
        .order_by("index")
    )
    for seat in seats:
        seat.bot_version.bot = seat.bot  # the same bot: no query for it later
    renew_every = settings.ARENA_MATCH_LEASE_SECONDS / 4
    renew = lifecycle.lease_renewer(match_id=match_id, token=token, every_seconds=renew_every)
    try:
        with lifecycle.lease_heartbeat(match_id=match_id, token=token, every_seconds=renew_every):
            result = run_sandboxed_match(
                entrants=[Entrant(name=seat.bot.name, version=seat.bot_version) for seat in seats],
                games=match.games_planned,
                seed=match.seed,
                ruleset=match.ruleset,
                progress=renew,
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
    try:
        recorded = lifecycle.match_record_result(
            match_id=match_id,
            token=token,
            games=result.games,
            backend=result.backend,
            stopped=getattr(result, "stopped", None),
        )
    except (OperationalError, InterfaceError):
        raise  # the database is away: the task retries, the lease covers the match
    except Exception as error:
        # The write rolled back as a whole (nothing is half-recorded); say why on
        # the match and play it again, up to the attempt limit.
        logger.exception("match %s: result could not be recorded", match_id)
        return _released(match_id, token, f"recording failed: {type(error).__name__}: {error}")
    return Outcome.DONE if recorded is not None else Outcome.LOST


def _released(match_id: int, token: str, error: str) -> Outcome:
    verdict = lifecycle.match_release(match_id=match_id, token=token, error=error)
    return {"retry": Outcome.RETRY, "failed": Outcome.FAILED}.get(verdict, Outcome.LOST)
