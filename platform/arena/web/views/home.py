"""The home page, the example bot downloads and the starter kit."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from arena.matches.selectors import match_list, matches_live
from arena.ratings.selectors import leaderboard_list
from arena.web.examples import example_bot_get, example_bots, kit_only_examples
from arena.web.selectors import competition_default
from arena.web.starter_kit import FILENAME, starter_kit

HOME_LEADERS = 10
HOME_MATCHES = 8


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    competition = competition_default()
    leaders = leaderboard_list(competition=competition, limit=HOME_LEADERS) if competition else []
    return render(
        request,
        "web/home.html",
        {
            "competition": competition,
            "leaders": leaders,
            "live": list(matches_live()[:HOME_MATCHES]),
            "recent": list(match_list(state="done")[:HOME_MATCHES]),
            "examples": example_bots(),
            "kit_examples": kit_only_examples(),
        },
    )


@require_safe
def example_bot_download(request: HttpRequest, name: str) -> FileResponse:
    example = example_bot_get(name=name)
    if example is None:
        raise Http404("No such example bot.")
    return FileResponse(
        example.path.open("rb"),
        as_attachment=True,
        filename=example.filename,
        content_type="text/x-python; charset=utf-8",
    )


@require_safe
def starter_kit_download(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(starter_kit(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{FILENAME}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
