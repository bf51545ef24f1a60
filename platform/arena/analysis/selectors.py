"""Reads on analyses: who may ask for one, and what a user may see of one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from arena.matches.models import Game, Match
from arena.replays.selectors import seat_views_for_user
from sandbox.analysis import SearchSettings, biggest_mistakes

from .models import Analysis, AnalysisDecision


def analysis_settings() -> SearchSettings:
    """The settings a new analysis runs under."""
    return SearchSettings(iterations=settings.ARENA_ANALYSIS_ITERATIONS)


def analysis_lease_seconds() -> int:
    # The time budget plus a margin: a worker that keeps to its budget finishes
    # within its lease, so a lease that ran out means the worker is gone.
    return settings.ARENA_ANALYSIS_GAME_SECONDS + 120


def analysis_request_refusal(*, user: Any, game: Game) -> str | None:
    """Why `user` may not ask for an analysis of `game`, or None if they may: the
    owner of any seat's bot (and staff) may, and anyone logged in for a ladder game."""
    if user is None or not user.is_authenticated:
        return "Log in to ask for an analysis."
    if user.is_staff or game.match.kind == Match.Kind.LADDER:
        return None
    if any(seat.owner_id == user.pk for seat in game.match.seats.all()):
        return None
    return (
        "Only the owners of this game's bots can ask for its analysis "
        "(anyone can for a ladder game)."
    )


def analyses_left_today(*, user: Any) -> int:
    """What is left of the user's daily quota (UTC days)."""
    start_of_day = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    used = Analysis.objects.filter(requested_by=user, created_at__gte=start_of_day).count()
    return max(0, settings.ARENA_ANALYSES_PER_DAY - used)


def analysis_current(*, game: Game) -> Analysis | None:
    """The game's analysis under the current settings, if anyone asked for one."""
    return Analysis.objects.filter(game=game, settings_key=analysis_settings().key).first()


def analysis_is_stalled(*, analysis: Analysis, now: datetime | None = None) -> bool:
    """Queued or running past its time: its worker died or its message was lost, and
    the sweeper (or a request) sends it again. `analyses_stalled` is the same rule
    as a query.

    A running analysis is stalled when its lease ran out. A queued one carries no
    lease until it has been sent again; then `lease_expires_at` is when to send it
    once more (services._analysis_resend), else a lease after it was created."""
    now = now or timezone.now()
    if analysis.state not in (Analysis.State.QUEUED, Analysis.State.RUNNING):
        return False
    if analysis.lease_expires_at is not None:
        return analysis.lease_expires_at < now
    if analysis.state == Analysis.State.RUNNING:
        return True
    return analysis.created_at < now - timedelta(seconds=analysis_lease_seconds())


def analyses_stalled(*, now: datetime | None = None) -> QuerySet[Analysis]:
    """Every stalled analysis (`analysis_is_stalled`, as a query)."""
    now = now or timezone.now()
    without_lease = Q(lease_expires_at__isnull=True) & (
        Q(state=Analysis.State.RUNNING)
        | Q(created_at__lt=now - timedelta(seconds=analysis_lease_seconds()))
    )
    return Analysis.objects.filter(
        Q(lease_expires_at__lt=now) | without_lease,
        state__in=(Analysis.State.QUEUED, Analysis.State.RUNNING),
    )


@dataclass(frozen=True)
class AnalysisView:
    """An analysis as one user may see it: the decisions of the seats whose view
    they may see, each seat's biggest mistakes marked."""

    analysis: Analysis
    decisions: list[AnalysisDecision]
    mistakes: set[int]  # decision numbers
    decisions_done: int
    stalled: bool

    @property
    def percent(self) -> int:
        total = self.analysis.decisions_total
        return round(100 * self.decisions_done / total) if total else 0

    @property
    def mistake_numbers(self) -> list[int]:
        return sorted(self.mistakes)

    @property
    def live(self) -> bool:
        return self.analysis.state in (Analysis.State.QUEUED, Analysis.State.RUNNING)


@dataclass(frozen=True)
class _Judged:
    number: int
    seat: int
    loss: float | None


def analysis_view_for_user(*, user: Any, game: Game, since: int = 0) -> AnalysisView | None:
    """The current analysis of the game as `user` may see it, or None; with
    `since`, only the decisions numbered from there (what a poll has not seen yet),
    the mistakes still judged over all of them."""
    analysis = analysis_current(game=game)
    if analysis is None:
        return None
    seats = seat_views_for_user(user=user, game=game)
    # Every decision's number, seat and loss (small), the full rows from `since` on.
    judged = [
        _Judged(number, seat, loss)
        for number, seat, loss in analysis.decisions.values_list("number", "seat", "loss")
    ]
    visible = [d for d in judged if d.seat in seats]
    rows = analysis.decisions.filter(number__gte=since, seat__in=seats).order_by("number")
    return AnalysisView(
        analysis=analysis,
        decisions=list(rows),
        mistakes=biggest_mistakes(visible),
        decisions_done=len(judged),
        stalled=analysis_is_stalled(analysis=analysis),
    )
