"""Tournaments: the list, creating one, and the detail page with live progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

import engine
from arena.matches.archives import archive_response
from arena.matches.models import Match
from arena.matches.selectors import match_list
from arena.tournaments.models import Tournament
from arena.tournaments.selectors import (
    tournament_crosstable,
    tournament_progress,
    tournament_standings,
)
from arena.tournaments.services import tournament_create
from arena.web.forms import TournamentForm
from arena.web.selectors import tournament_entrant_choices, tournament_list_with_progress

PAGE_SIZE = 20
LIVE_STATES = frozenset({Tournament.State.PENDING, Tournament.State.RUNNING})


def _percent(done: int, total: int) -> int:
    return round(100 * done / total) if total else 0


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(tournament_list_with_progress(), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "web/tournaments/tournament_list.html",
        {"nav": "tournaments", "page": page, "tournaments": page.object_list},
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(
        request.POST or None, entrants=tournament_entrant_choices(user=request.user)
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournament_create(
                user=request.user,
                name=data["name"],
                format=data["format"],
                ruleset=engine.Ruleset.from_value(data["ruleset"]).to_dict(),
                seats=data["seats"],
                games_per_match=data["games_per_match"],
                bots=list(data["bots"]),
                rounds=data["rounds"],
            )
        except ValidationError as error:
            form.add_service_errors(error)
        except PermissionDenied as error:
            form.add_error("bots", str(error) or "You may enter only your own bots.")
        else:
            messages.success(request, f"Tournament “{tournament.name}” is scheduled.")
            return redirect("web:tournament-detail", pk=tournament.pk)
    return render(
        request, "web/tournaments/tournament_new.html", {"nav": "tournaments", "form": form}
    )


@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("created_by"), pk=pk)
    done, total = tournament_progress(tournament=tournament)
    crosstable = (
        tournament_crosstable(tournament=tournament)
        if tournament.format == Tournament.Format.ROUND_ROBIN
        else None
    )
    return render(
        request,
        "web/tournaments/tournament_detail.html",
        {
            "nav": "tournaments",
            "tournament": tournament,
            "done": done,
            "total": total,
            "percent": _percent(done, total),
            "live": tournament.state in LIVE_STATES,
            "standings": tournament_standings(tournament=tournament),
            "crosstable": crosstable,
            "crosstable_rows": (
                [
                    {"name": name, "cells": cells}
                    for (_, name), cells in zip(crosstable.bots, crosstable.cells, strict=True)
                ]
                if crosstable
                else []
            ),
            "matches": list(match_list(tournament=tournament)),
        },
    )


@require_safe
@never_cache
def tournament_progress_view(request: HttpRequest, pk: int) -> JsonResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    done, total = tournament_progress(tournament=tournament)
    return JsonResponse(
        {
            "state": tournament.state,
            "done": done,
            "total": total,
            "percent": _percent(done, total),
            "label": f"{done} of {total} matches finished",
            "live": tournament.state in LIVE_STATES,
            # The standings are final once the state leaves pending/running.
            "fingerprint": tournament.state,
        }
    )


@require_safe
def tournament_logs_download(request: HttpRequest, pk: int) -> HttpResponse:
    """Every game log of the tournament as one zip, as this user may see each."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return archive_response(
        user=request.user,
        matches=Match.objects.filter(tournament=tournament),
        title=f"Tournament {tournament.name}",
        filename=f"tournament-{tournament.pk}-logs.zip",
    )
