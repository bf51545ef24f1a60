"""The match page (live while it runs), the replay viewer and the log download."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
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
from arena.matches.archives import match_archive_response
from arena.matches.models import Game, Match, QualificationGame
from arena.matches.selectors import game_get, match_get, match_indexes_owned
from arena.replays.selectors import (
    game_replay_for_user,
    qualification_game_get_for_owner,
)
from arena.replays.selectors import qualification_game_replay as qualification_game_replay_data
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
    rows = game_rows(
        games=games, seats=seats, owned=match_indexes_owned(user=request.user, seats=seats)
    )
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
            "games": rows,
            "fault_notes": [
                {**note, "game": row.game.number + 1} for row in rows for note in row.fault_notes
            ],
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
    data = replay_page_data(replay=replay)
    match = game.match
    analysis = analysis_view_for_user(user=request.user, game=game)
    refusal = analysis_request_refusal(user=request.user, game=game)
    return render(
        request,
        "web/matches/replay.html",
        {
            "heading": f"Replay of game {game.number + 1}",
            "title": f"Replay: match {match.pk}, game {game.number + 1}",
            "crumbs": [(reverse("web:match-detail", args=[match.pk]), f"Match {match.pk}")],
            "crumb": f"Game {game.number + 1}",
            "turns": game.turns,
            "adjudicated": game.adjudicated,
            "download_url": reverse("web:game-log", args=[game.pk]),
            "download_name": f"match-{match.pk}-game-{game.number + 1}.json",
            "game": game,
            "match": match,
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
@login_required
def qualification_game_replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A game of a version's qualification, for the version's owner only."""
    game = qualification_game_get_for_owner(user=request.user, version_pk=pk, number=number)
    data = replay_page_data(replay=qualification_game_replay_data(game=game))
    version = game.version
    label = f"{version.bot.name} v{version.number}"
    return render(
        request,
        "web/matches/replay.html",
        {
            "nav": "my-bots",
            "heading": f"Qualification game {number + 1}",
            "title": f"Replay: {label}, qualification game {number + 1}",
            "crumbs": [
                (reverse("web:my-bots"), "My bots"),
                (
                    reverse("web:version-detail", args=[version.pk]),
                    f"{version.bot.name} v{version.number}",
                ),
            ],
            "crumb": f"Qualification game {number + 1}",
            "turns": None,
            "adjudicated": bool((data.get("result") or {}).get("adjudicated")),
            "download_url": reverse("web:qualification-game-log", args=[version.pk, number]),
            "download_name": _qualification_filename(game),
            "table_seats": data["seats"],
            "replay_data": data,
        },
    )


@require_safe
@gzip_page
@login_required
def qualification_game_log_download(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = qualification_game_get_for_owner(user=request.user, version_pk=pk, number=number)
    log = qualification_game_replay_data(game=game)["log"]
    response = HttpResponse(
        json.dumps(log, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_qualification_filename(game)}"'
    return response


def _qualification_filename(game: QualificationGame) -> str:
    version = game.version
    return f"{version.bot.name}-v{version.number}-qualification-{game.number + 1}.json"


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


@require_safe
def match_game_by_number(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A match's game by the number the match page shows (1 for the first): its replay."""
    game = get_object_or_404(Game.objects.only("pk"), match_id=pk, number=number - 1)
    return redirect("web:game-replay", pk=game.pk)


@require_safe
def match_logs_download(request: HttpRequest, pk: int) -> HttpResponse:
    """Every game log of the match as one zip, as this user may see each."""
    match = get_object_or_404(Match, pk=pk)
    return match_archive_response(user=request.user, match=match)
