"""The match page (live while it runs), the replay viewer and the log download."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe

from arena.analysis.api.serializers import AnalysisSerializer
from arena.analysis.selectors import (
    analyses_left_today,
    analysis_request_refusal,
    analysis_settings,
    analysis_view_for_user,
)
from arena.analysis.services import analysis_request
from arena.matches.models import Match
from arena.matches.selectors import game_get, match_get
from arena.replays.selectors import game_replay_for_user
from arena.web.match_rows import game_rows, seat_rows
from arena.web.replay_data import replay_page_data

LIVE_STATES = frozenset({Match.State.QUEUED, Match.State.RUNNING})


def match_fingerprint(match: Match, games: int) -> str:
    # The page is stale when the state changes or a game is added.
    return f"{match.state}:{games}"


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_get(pk=pk)
    seats = list(match.seats.all())
    games = list(match.games.all())
    live = match.state in LIVE_STATES
    duration = (
        (match.finished_at - match.started_at).total_seconds()
        if match.started_at and match.finished_at
        else None
    )
    return render(
        request,
        "web/matches/match_detail.html",
        {
            "match": match,
            "seats": seat_rows(seats),
            "games": game_rows(games=games, seats=seats),
            "live": live,
            "duration": duration,
            "fingerprint": match_fingerprint(match, len(games)),
        },
    )


@require_safe
@never_cache
def match_status(request: HttpRequest, pk: int) -> JsonResponse:
    match = match_get(pk=pk)
    games = len(match.games.all())
    return JsonResponse(
        {
            "state": match.state,
            "games": games,
            "games_planned": match.games_planned,
            "percent": round(100 * games / match.games_planned) if match.games_planned else 0,
            "label": f"{games} of {match.games_planned} games played",
            "live": match.state in LIVE_STATES,
            "fingerprint": match_fingerprint(match, games),
        }
    )


# A long game's frames are a few hundred KiB of JSON that compress about tenfold.
# (Django masks the CSRF token in each response, so compression does not expose it.)
@require_safe
@gzip_page
def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_get(pk=pk)
    replay = game_replay_for_user(user=request.user, game=game)
    data = replay_page_data(game=game, replay=replay)
    analysis = analysis_view_for_user(user=request.user, game=game)
    refusal = analysis_request_refusal(user=request.user, game=game)
    return render(
        request,
        "web/matches/replay.html",
        {
            "game": game,
            "match": game.match,
            "table_seats": data["seats"],
            "replay_data": data,
            "analysis": analysis,
            "analysis_data": None if analysis is None else AnalysisSerializer(analysis).data,
            "analysis_refusal": refusal,
            "analysis_settings": analysis_settings(),
            "analyses_left": None if refusal else analyses_left_today(user=request.user),
        },
    )


@require_POST
@login_required
def game_analysis_request(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay's "Analyse" button: the analysis is queued (or was already), and
    the replay shows its progress."""
    game = game_get(pk=pk)
    try:
        analysis_request(user=request.user, game=game)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
    return redirect(reverse("web:game-replay", args=[game.pk]) + "#analysis")


@require_safe
@gzip_page
def game_log_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The log as this user may see it: other owners' stderr and debug removed."""
    game = game_get(pk=pk)
    log = game_replay_for_user(user=request.user, game=game)["log"]
    response = HttpResponse(
        json.dumps(log, indent=1), content_type="application/json; charset=utf-8"
    )
    filename = f"match-{game.match_id}-game-{game.number + 1}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
