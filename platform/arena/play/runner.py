"""Playing one match on a worker: claim, run in the sandbox, record."""

from __future__ import annotations

import enum
import logging
import time
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError

from arena.bots.models import Bot, BotVersion
from sandbox.errors import InfrastructureError

from .games import GameRecording
from .leases import (
    Claim,
    SeatToPlay,
    lease_heartbeat,
    match_claim,
    match_fail_claimed,
    match_release,
    worker_token,
)
from .live import LiveTable, live_pulse, live_table_open
from .recorder import ResultRecorder
from .results import match_record_result
from .sandboxing import Entrant, run_sandboxed_match
from .tables import person_seat, table_limits

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
    on (arena.play.recorder), and the outcome is RECORDING; so is each game as it
    ends (arena.play.games). Spectators follow the games as they are played
    (arena.play.live)."""
    claim = match_claim(match_id=match_id, token=worker_token())
    if claim is None:
        return Outcome.NOTHING_TO_DO
    deleted = [seat.bot_name for seat in claim.seats if not seat.is_person and not seat.code]
    if deleted:  # its owner deleted the bot, and its code, after the match was queued
        reason = f"Not played: {', '.join(deleted)} was deleted by its owner."
        return Outcome.FAILED if match_fail_claimed(claim=claim, reason=reason) else Outcome.LOST
    recording = GameRecording(claim=claim)
    table = live_table_open(match_id=match_id)
    try:
        with lease_heartbeat(claim=claim, every_seconds=settings.ARENA_MATCH_LEASE_SECONDS / 4):
            result = run_sandboxed_match(
                entrants=[_entrant(seat, match_id=match_id) for seat in claim.seats],
                games=claim.match.games_planned,
                seed=claim.match.seed,
                ruleset=claim.match.ruleset,
                watch=table.watch,
                progress=_game_ended(table, recording, recorder),
                limits=table_limits() if any(seat.is_person for seat in claim.seats) else None,
            )
    except InfrastructureError as error:
        logger.warning("match %s: sandbox unavailable: %s", match_id, error)
        return _released(claim, str(error))
    except Exception as error:
        # Not a bot's fault either (bots fault inside the logs, never here): our own
        # bug or a missing file. Give the match back at once rather than hold it
        # until the lease runs out; the attempt limit stops a repeating failure.
        logger.exception("match %s: could not be played", match_id)
        return _released(claim, f"{type(error).__name__}: {error}")
    finally:
        table.close()

    def record() -> Outcome:
        return _recorded(claim, result, recording)

    if recorder is None:
        return record()
    recorder.submit(match_id=match_id, write=record)
    return Outcome.RECORDING


def _game_ended(table: LiveTable, recording: GameRecording, recorder: ResultRecorder | None) -> Any:
    """The sandbox's `progress`: a finished game goes to its spectators, and its row
    is written behind the play (inline without a recorder) once the match has
    lasted ARENA_GAMES_PREVIEW_AFTER_SECONDS."""

    started = time.monotonic()

    def progress(game: int, log: dict[str, Any]) -> None:
        table.game_over(game, log)
        recording.add(game, log)
        # A match over within a few seconds shows up whole with its result, before
        # its page could have seen a game of it: no preview to write.
        if time.monotonic() - started < settings.ARENA_GAMES_PREVIEW_AFTER_SECONDS:
            return
        if recorder is None:
            recording.flush()
        else:
            recorder.behind(recording.flush)

    return progress


def _recorded(claim: Claim, result: Any, recording: GameRecording) -> Outcome:
    """Write a played match's result: DONE, or LOST if another worker holds the
    match now. A result that cannot be written is released with the reason."""
    try:
        recorded = match_record_result(
            claim=claim,
            games=result.games,
            backend=result.backend,
            stopped=getattr(result, "stopped", None),
            recording=recording,
        )
    except (OperationalError, InterfaceError):
        raise  # the database is away: tried again, and the lease covers the match
    except Exception as error:
        # The write rolled back as a whole (nothing is half-recorded); say why on
        # the match and play it again, up to the attempt limit.
        logger.exception("match %s: result could not be recorded", claim.match.pk)
        return _released(claim, f"recording failed: {type(error).__name__}: {error}")
    live_pulse()
    return Outcome.DONE if recorded is not None else Outcome.LOST


def _entrant(seat: SeatToPlay, *, match_id: int) -> Entrant:
    """What the sandbox needs of a seat: the bot's name and its stored code, or the
    person's seat (arena.play.tables)."""
    if seat.is_person:
        return Entrant(name=seat.bot_name, person=person_seat(match_id=match_id))
    bot = Bot.from_db(
        DEFAULT_DB_ALIAS,
        ["id", "name", "is_example"],
        [seat.bot_id, seat.bot_name, seat.is_example],
    )
    version = BotVersion.from_db(
        DEFAULT_DB_ALIAS,
        ["id", "bot_id", "kind", "code"],
        [seat.bot_version_id, seat.bot_id, seat.kind, seat.code],
    )
    version.bot = bot
    return Entrant(name=seat.bot_name, version=version)


def _released(claim: Claim, error: str) -> Outcome:
    verdict = match_release(claim=claim, error=error)
    return {"retry": Outcome.RETRY, "failed": Outcome.FAILED}.get(verdict, Outcome.LOST)
