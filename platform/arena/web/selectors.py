"""Reads the pages need that no other app offers, each with a fixed number of
queries so that pages stay flat as the site grows."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse

from arena.bots.models import Bot, BotVersion
from arena.bots.selectors import bot_list_for_owner
from arena.matches.models import Competition, Match
from arena.matches.selectors import competition_get, default_competition
from arena.ratings.models import Rating
from arena.tournaments.models import Tournament


def competition_default() -> Competition | None:
    """The default ladder, or None on a site whose migrations created none."""
    try:
        return default_competition()
    except Competition.DoesNotExist:
        return None


def competition_for_page(*, slug: str | None) -> Competition | None:
    """The competition named in the URL (404 if unknown), else the default one."""
    return competition_get(slug=slug) if slug else competition_default()


def bot_ratings(*, bot: Bot) -> QuerySet[Rating]:
    """The bot's rating in every competition it has played, most played first."""
    return Rating.objects.filter(bot=bot).select_related("competition").order_by("-games", "pk")


def competition_pick(*, slug: str | None, ratings: list[Rating]) -> Competition | None:
    """Which ladder the bot page charts: the one asked for if the bot has a rating
    there, else the bot's most played, else the default."""
    by_slug = {rating.competition.slug: rating.competition for rating in ratings}
    if slug and slug in by_slug:
        return by_slug[slug]
    if ratings:
        return ratings[0].competition
    return competition_default()


def bots_with_versions_for_owner(*, user: Any) -> QuerySet[Bot]:
    """The user's bots with every version, newest first: two queries in all."""
    return bot_list_for_owner(user=user).prefetch_related(
        Prefetch("versions", queryset=BotVersion.objects.order_by("-number"))
    )


def tournament_entrant_choices(*, user: Any) -> QuerySet[Bot]:
    """Bots the user may enter in a tournament: their own with an active version
    (staff: anyone's). The service checks again; this only shapes the form."""
    bots = Bot.objects.filter(versions__status=BotVersion.Status.ACTIVE).select_related("owner")
    if not user.is_staff:
        bots = bots.filter(owner=user)
    return bots.distinct().order_by("name")


def tournament_list_with_progress() -> QuerySet[Tournament]:
    """Tournaments newest first with entrant and match counts: one query."""
    finished = Q(matches__state__in=(Match.State.DONE, Match.State.FAILED))
    return (
        Tournament.objects.select_related("created_by")
        .annotate(
            entrant_count=Count("entries", distinct=True),
            match_count=Count("matches", distinct=True),
            matches_finished=Count("matches", filter=finished, distinct=True),
        )
        .order_by("-created_at", "-pk")
    )


def qualification_fault_notes(
    *, version: Any, report: dict[str, Any], kept: set[int]
) -> list[dict[str, Any]]:
    """The faults of a version's qualification games in sentences (the owner's),
    each with the replay URL that opens at it when the game's log is kept."""
    notes = []
    for game in report.get("games", []):
        number = game.get("game")
        for note in game.get("fault_notes") or []:
            url = None
            if number in kept:
                url = reverse("web:qualification-game-replay", args=[version.pk, number])
                if isinstance(note.get("event"), int):
                    url += f"#frame={note['event'] + 1}"
            notes.append(
                {
                    "reason": note.get("reason"),
                    "name": f"Game {number + 1}",
                    "sentence": note.get("sentence"),
                    "replay_url": url,
                }
            )
    return notes
