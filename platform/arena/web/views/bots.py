"""Submitting bots, one's own bots and versions, and the public bot page."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from arena.bots.models import BotVersion
from arena.bots.selectors import (
    bot_active_version,
    bot_get,
    bot_get_for_owner,
    bot_version_code_for_owner,
    bot_version_get_for_owner,
)
from arena.bots.services import (
    bot_delete,
    bot_version_activate,
    bot_version_retire,
    bot_version_upload,
)
from arena.core.throttles import throttle_allows
from arena.matches.selectors import match_list, promotion_progress, qualification_games_kept
from arena.matches.services import challenge_create
from arena.ratings.selectors import bots_not_separated_from, head_to_head, rating_history
from arena.web.charts import history_chart
from arena.web.forms import BotUploadForm, ChallengeForm
from arena.web.selectors import (
    bot_ratings,
    bots_with_versions_for_owner,
    competition_pick,
    qualification_fault_notes,
    tournament_entrant_choices,
)

BOT_PAGE_MATCHES = 15
# Qualification is still under way in these states: the version page keeps polling.
LIVE_STATUSES = frozenset(
    {BotVersion.Status.PENDING, BotVersion.Status.QUALIFYING, BotVersion.Status.TESTING}
)


@require_safe
@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    bots = bots_with_versions_for_owner(user=request.user)
    return render(request, "web/bots/my_bots.html", {"nav": "my-bots", "bots": bots})


@login_required
def bot_submit(request: HttpRequest) -> HttpResponse:
    initial = {"name": request.GET.get("name", "")}
    form = BotUploadForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and not throttle_allows(request, scope="uploads"):
        # The same count as the upload API: the form is no way around its limit.
        form.add_error(None, "Too many uploads in the last hour. Please try again later.")
        context = {"nav": "submit", "form": form}
        return render(request, "web/bots/submit.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            version = bot_version_upload(
                user=request.user,
                name=form.cleaned_data["name"],
                upload=form.cleaned_data["upload"],
                description=form.cleaned_data["description"],
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(
                request, f"{version.bot.name} version {version.number} is uploaded and queued."
            )
            return redirect("web:version-detail", pk=version.pk)
    return render(request, "web/bots/submit.html", {"nav": "submit", "form": form})


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
@login_required
def bot_delete_confirm(request: HttpRequest, name: str) -> HttpResponse:
    """GET: what deleting the bot does, and a button. POST: delete it."""
    bot = bot_get_for_owner(user=request.user, name=name)
    if request.method == "POST":
        try:
            deleted = bot_delete(user=request.user, bot=bot)
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
        else:
            messages.success(
                request,
                f"{name} is deleted: its code is gone, and its games stay under the name "
                f"{deleted.name}.",
            )
        return redirect("web:my-bots")
    return render(
        request,
        "web/bots/bot_delete.html",
        {"nav": "my-bots", "bot": bot, "versions": bot.versions.count()},
    )


@require_safe
@never_cache
@login_required
def version_detail(request: HttpRequest, pk: int) -> HttpResponse:
    version = bot_version_get_for_owner(user=request.user, pk=pk)
    qualification = version.qualification or {}
    kept = qualification_games_kept(version=version)
    return render(
        request,
        "web/bots/version_detail.html",
        {
            "nav": "my-bots",
            "version": version,
            "bot": version.bot,
            "live": version.status in LIVE_STATUSES,
            "qualification": {
                **qualification,
                "games": [
                    {
                        **game,
                        "replay_url": reverse(
                            "web:qualification-game-replay", args=[version.pk, game["game"]]
                        )
                        if game.get("game") in kept
                        else None,
                    }
                    for game in qualification.get("games", [])
                ],
            },
            "qualification_replays": bool(kept),
            "qualification_faults": qualification_fault_notes(
                version=version, report=qualification, kept=kept
            ),
            "promotion": promotion_progress(version=version),
        },
    )


@require_safe
@never_cache
@login_required
def version_status(request: HttpRequest, pk: int) -> JsonResponse:
    """What the version page polls while qualification runs."""
    version = bot_version_get_for_owner(user=request.user, pk=pk)
    promotion = promotion_progress(version=version)
    return JsonResponse(
        {
            # A new pair of promotion games changes the page too.
            "fingerprint": f"{version.status}:{promotion.pairs if promotion else ''}",
            "status": version.status,
            "label": version.get_status_display(),
            "reason": version.status_reason,
            "live": version.status in LIVE_STATUSES,
        }
    )


def _version_action(
    request: HttpRequest, pk: int, action: Callable[..., BotVersion], done: str
) -> HttpResponse:
    version = bot_version_get_for_owner(user=request.user, pk=pk)
    try:
        action(user=request.user, version=version)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
    else:
        messages.success(request, f"{version.bot.name} version {version.number} {done}.")
    if request.POST.get("back") == "version":
        return redirect("web:version-detail", pk=pk)
    return redirect("web:my-bots")


@require_POST
@login_required
def version_activate(request: HttpRequest, pk: int) -> HttpResponse:
    return _version_action(request, pk, bot_version_activate, "is now the active version")


@require_POST
@login_required
def version_retire(request: HttpRequest, pk: int) -> HttpResponse:
    return _version_action(request, pk, bot_version_retire, "is retired")


@require_safe
@never_cache
@login_required
def version_download(request: HttpRequest, pk: int) -> HttpResponse:
    version = bot_version_get_for_owner(user=request.user, pk=pk)
    code = bot_version_code_for_owner(user=request.user, version=version)
    suffix = "zip" if version.kind == BotVersion.Kind.ZIP else "py"
    response = HttpResponse(
        code,
        content_type="application/zip" if suffix == "zip" else "text/x-python; charset=utf-8",
    )
    filename = f"{version.bot.name}-v{version.number}.{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def bot_detail(request: HttpRequest, name: str) -> HttpResponse:
    bot = bot_get(name=name)
    ratings = list(bot_ratings(bot=bot))
    competition = competition_pick(slug=request.GET.get("competition"), ratings=ratings)
    history = list(rating_history(bot=bot, competition=competition)) if competition else []
    opponents = list(head_to_head(bot=bot, competition=competition)) if competition else []
    not_separated = bots_not_separated_from(bot=bot, competition=competition) if competition else []
    recent = list(match_list(bot=bot)[:BOT_PAGE_MATCHES])
    is_owner = request.user.is_authenticated and (
        request.user.is_staff or bot.owner_id == request.user.pk
    )
    challenge_form = None
    if request.user.is_authenticated and bot_active_version(bot=bot) is not None:
        challengers = tournament_entrant_choices(user=request.user).exclude(pk=bot.pk)
        challenge_form = ChallengeForm(challengers=challengers)
    return render(
        request,
        "web/bots/bot_detail.html",
        {
            "bot": bot,
            "is_owner": is_owner,
            "versions": bot.versions.order_by("-number"),
            "ratings": ratings,
            "competition": competition,
            "chart": history_chart(history),
            "opponents": opponents,
            "not_separated": not_separated,
            "recent": recent,
            "challenge_form": challenge_form,
        },
    )


@require_POST
@login_required
def bot_challenge(request: HttpRequest, name: str) -> HttpResponse:
    """An unrated match against this bot with one of the user's own bots."""
    opponent = bot_get(name=name)
    challengers = tournament_entrant_choices(user=request.user).exclude(pk=opponent.pk)
    form = ChallengeForm(request.POST, challengers=challengers)
    if not form.is_valid():
        messages.error(request, "Choose one of your bots that has an active version.")
        return redirect("web:bot-detail", name=opponent.name)
    try:
        match = challenge_create(user=request.user, bot=form.cleaned_data["bot"], opponent=opponent)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
        return redirect("web:bot-detail", name=opponent.name)
    messages.success(request, f"Challenge queued: {form.cleaned_data['bot'].name} vs {opponent}.")
    return redirect("web:match-detail", pk=match.pk)
