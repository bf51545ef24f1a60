"""Recording a played match: games, seat totals, fault streaks, ratings and the
tournament's progress, in ONE transaction, only while this worker holds the lease;
then the worker host's counts (arena.play.workers).

A worker whose lease was taken over must not write a second result: the first
statement marks the match done only if its row still names this worker's lease
token, and everything else is written after it in the same transaction, which
rolls back as a whole if it does not.

The COMMIT is durable (synchronous) unless ARENA_RESULTS_COMMIT_ASYNCHRONOUSLY is
set; see docs/platform-core.md for what that trades.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from arena.bots.models import Bot
from arena.bots.services import bot_versions_faults_record
from arena.core import statements
from arena.matches.models import Game, Match, MatchSeat
from arena.matches.promotions import promotion_record_match
from arena.notifications.models import Kind as NotificationKind
from arena.notifications.services import notification_send
from arena.ratings.services import SeatOfMatch, ratings_apply_match_games
from arena.tournaments.services import tournament_match_finished

from .games import GameRecording
from .leases import Claim, SeatToPlay, match_append_error
from .sql import games_delete_unkept, match_finish_if_held
from .workers import worker_host_match_recorded, worker_host_of

logger = logging.getLogger(__name__)

_SEAT_TOTAL_FIELDS = ["games", "wins", "faults", "rank_sum", "fault_reasons"]


@dataclass(slots=True)
class _SeatTotals:
    """A seat of the match being recorded, and its totals over the match's games."""

    seat: SeatToPlay
    games: int = 0
    wins: int = 0
    faults: int = 0
    rank_sum: int = 0
    fault_reasons: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class _PlayedMatch:
    """What a played match's logs say, ready to be written."""

    games: list[Game]  # one per log, in order
    totals: list[_SeatTotals]  # one per seat, in index order
    written: set[int]  # numbers of the games already written as they ended
    stale_rows: bool  # rows may exist that are not this attempt's games

    def faults_by_version(self) -> dict[int, list[str]]:
        # A person's seat has no version, and a person's absence is no bot's fault.
        return {
            total.seat.bot_version_id: [entry["reason"] for entry in total.fault_reasons]
            for total in self.totals
            if total.seat.bot_version_id is not None
        }


def match_record_result(
    *,
    claim: Claim,
    games: list[dict[str, Any]],
    backend: str,
    stopped: str | None = None,
    recording: GameRecording | None = None,
) -> Match | None:
    """Write a claimed match's played games (REPLAY.md logs with the sandbox's keys)
    as its result; returns the finished match, or None when this worker no longer
    holds it (nothing is written then). `stopped` says why the sandbox ended the
    match early, if it did. `recording` holds the games written as they ended
    (arena.play.games): they are not written again.

    A worker runs this on its result recorder's thread (arena.play.recorder) while
    it plays its next match.
    """
    # Worked out before the transaction: a malformed log fails before anything is
    # written, and the transaction holds its locks for less time.
    played = _played_match(
        claim=claim, logs=games, recording=recording or GameRecording(claim=claim)
    )
    try:
        match = _result_write(claim=claim, played=played, backend=backend, stopped=stopped)
    except _LeaseLost:
        pass
    except DatabaseError:
        # A statement after the lease check failed. If the match is no longer this
        # worker's, that is why (its new holder has written its games).
        if _holds(claim):
            raise
    else:
        faults = played.faults_by_version()
        worker_host_match_recorded(
            host=worker_host_of(claim.token),
            versions=sorted(faults),
            faulted=any(faults.values()),
        )
        return match
    logger.warning("match %s: result discarded, lease no longer held", claim.match.pk)
    return None


class _LeaseLost(Exception):
    """Rolls back a result write whose worker no longer holds the match."""


def _holds(claim: Claim) -> bool:
    return Match.objects.filter(
        pk=claim.match.pk, state=Match.State.RUNNING, worker=claim.token
    ).exists()


def _result_write(
    *, claim: Claim, played: _PlayedMatch, backend: str, stopped: str | None
) -> Match:
    with transaction.atomic():
        if settings.ARENA_RESULTS_COMMIT_ASYNCHRONOUSLY:
            statements.commit_asynchronously()
        # In the lock order: the Match row (this UPDATE holds it until the end),
        # BotVersion rows (the streaks), Rating rows, the tournament.
        match = match_finish_if_held(
            match_id=claim.match.pk, token=claim.token, now=timezone.now(), backend=backend[:16]
        )
        if match is None:
            raise _LeaseLost
        # The seats' totals are written once, here: the UPDATE above says that no
        # result was written before.
        statements.update_each(
            MatchSeat,
            _SEAT_TOTAL_FIELDS,
            [
                (total.seat.id, [getattr(total, name) for name in _SEAT_TOTAL_FIELDS])
                for total in played.totals
            ],
        )
        bot_versions_faults_record(faults_by_version=played.faults_by_version())
        if played.stale_rows:  # rows left that are not this attempt's games
            games_delete_unkept(match_id=match.pk, keep=sorted(played.written))
        statements.insert([game for game in played.games if game.number not in played.written])
        for game in played.games:
            game.match = match
        if stopped:  # the sandbox ended the match early (its time cap): say so
            match_append_error(
                match=match, message=f"Stopped after {len(played.games)} games: {stopped}."
            )
            match.save(update_fields=["error"])
        if match.rated and match.competition_id is not None and played.games:
            ratings_apply_match_games(
                games=played.games,
                seats=[
                    SeatOfMatch(seat.index, seat.bot_id, seat.bot_version_id)
                    for seat in claim.seats
                ],
            )
        if match.tournament_id is not None:
            tournament_match_finished(match=match)
        if match.kind == Match.Kind.PROMOTION:
            promotion_record_match(match=match, games=played.games)
        if match.kind == Match.Kind.CHALLENGE:
            _challenge_played_notify(match=match, claim=claim, played=played)
    return match


def _challenge_played_notify(*, match: Match, claim: Claim, played: _PlayedMatch) -> None:
    """Tell the challenger and the owners of the seated bots how it went."""
    owners = Bot.objects.filter(pk__in=[seat.bot_id for seat in claim.seats]).values_list(
        "owner_id", flat=True
    )
    notification_send(
        user_ids=[match.created_by_id, *owners],
        kind=NotificationKind.CHALLENGE_PLAYED,
        title="Challenge played: " + " vs ".join(seat.bot_name for seat in claim.seats),
        body=", ".join(f"{total.seat.bot_name} won {total.wins}" for total in played.totals)
        + f" of {len(played.games)} games.",
        url=reverse("web:match-detail", args=[match.pk]),
        payload={"match_id": match.pk, "wins": [total.wins for total in played.totals]},
    )


def _played_match(
    *, claim: Claim, logs: list[dict[str, Any]], recording: GameRecording
) -> _PlayedMatch:
    totals = [_SeatTotals(seat) for seat in claim.seats]
    games = recording.games_for_result(logs)
    for game in games:
        for total in totals:
            index = total.seat.index
            total.games += 1
            total.rank_sum += game.ranks[index]
            total.wins += game.winner_index == index
            reasons = [f["reason"] for f in game.faults if f["index"] == index]
            if reasons:
                total.faults += 1
                total.fault_reasons += [{"game": game.number, "reason": r} for r in reasons]
    return _PlayedMatch(
        games=games,
        totals=totals,
        written=set(recording.written),
        stale_rows=recording.stale_rows,
    )
