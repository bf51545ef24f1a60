"""Watching live: a match's table as it is played, and the pulse that tells the
pages listing matches (home, leaderboard, bot) to refresh their lists."""

from __future__ import annotations

import time
from collections.abc import Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from arena.matches.live import live_pulse_get
from arena.matches.models import Match
from arena.matches.selectors import match_get
from arena.replays.live import KEEPALIVE_SECONDS, match_viewer_for_user, sse

# How often a pulse stream reads the live store, and the shortest time between two
# refreshes it asks for: a busy ladder ends a match every second.
PULSE_POLL_SECONDS = 1.0
PULSE_MIN_GAP_SECONDS = 5.0


@require_safe
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_get(pk=pk)
    games = list(match.games.all())
    if match.state not in (Match.State.QUEUED, Match.State.RUNNING):
        return redirect("web:match-detail", pk=pk)
    viewer = match_viewer_for_user(user=request.user, match=match)
    return render(
        request,
        "web/matches/live.html",
        {
            "match": match,
            "seats": list(match.seats.all()),
            "games": games,
            # The games already over are listed; the table starts at the one in play.
            "start_game": len(games),
            "delay": viewer.delay,
            "own": bool(viewer.own_indexes),
        },
    )


@require_safe
def live_pulse(request: HttpRequest) -> StreamingHttpResponse:
    """`changed` whenever a match has started or ended (at most every few seconds):
    one stream per open page instead of every page polling."""
    response = StreamingHttpResponse(
        _pulse_events(seconds=settings.ARENA_LIVE_STREAM_SECONDS),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def _pulse_events(*, seconds: float) -> Iterator[str]:
    seen = live_pulse_get()
    yield "retry: 5000\n\n"
    ends = time.monotonic() + seconds
    told, kept_alive = 0.0, time.monotonic()
    while time.monotonic() < ends:
        time.sleep(PULSE_POLL_SECONDS)
        now = live_pulse_get()
        if now != seen and time.monotonic() - told >= PULSE_MIN_GAP_SECONDS:
            seen, told = now, time.monotonic()
            yield sse("changed", {"at": now})
        elif time.monotonic() - kept_alive >= KEEPALIVE_SECONDS:
            # A browser that went away is noticed when a write fails.
            kept_alive = time.monotonic()
            yield ": keep-alive\n\n"
