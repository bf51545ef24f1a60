"""Tables: sit down against bots, and the table page where the person plays."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from arena.matches.models import Match
from arena.matches.selectors import match_get
from arena.matches.tables import (
    TableRequest,
    table_bots,
    table_create,
    table_leave_by,
    table_open_for,
    table_person_seat,
)
from arena.web.forms import TableForm
from arena.web.views.matches import LIVE_STATES


@login_required
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST or None, bots=table_bots())
    if request.method == "POST" and form.is_valid():
        try:
            match = table_create(
                user=request.user,
                request=TableRequest(
                    bots=form.opponents(),
                    preset=form.cleaned_data["preset"],
                    games=form.cleaned_data["games"],
                ),
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            return redirect("web:table", pk=match.pk)
    return render(
        request,
        "web/tables/table_new.html",
        {"nav": "play", "form": form, "open_table": table_open_for(user=request.user)},
    )


@never_cache
@login_required
def table(request: HttpRequest, pk: int) -> HttpResponse:
    """The person's own table while it is played; anyone else watches it live, and
    a table that is over is its match page."""
    match = match_get(pk=pk)
    seat = table_person_seat(match=match)
    if seat is None:
        return redirect("web:match-detail", pk=pk)
    if match.state not in LIVE_STATES:
        return redirect("web:match-detail", pk=pk)
    if seat.person_id != request.user.pk:
        return redirect("web:match-live", pk=pk)
    games = list(match.games.all())
    return render(
        request,
        "web/tables/table.html",
        {
            "nav": "play",
            "match": match,
            "seats": list(match.seats.all()),
            "games": games,
            "start_game": len(games),
            "move_seconds": settings.ARENA_TABLE_MOVE_SECONDS,
            "away_seconds": settings.ARENA_TABLE_AWAY_SECONDS,
        },
    )


@require_POST
@login_required
def table_leave(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk, kind=Match.Kind.TABLE)
    table_leave_by(user=request.user, match=match)
    return redirect("web:match-detail", pk=pk)
