"""Ladder matchmaking: which free bots play next, run every few seconds by beat.

For each competition: take the bots with an active version that are not in a
queued or running match and seat them table by table with the policy of
ARENA_MATCHMAKING_POLICY (`arena.play.pairing`: by default the longest-waiting
bot anchors, uncertain ratings waiting faster, and its opponents are those the
table is likeliest to put in their right order). The number of ladder matches
queued or running stays under a bound per worker, so a slow worker pool never
builds up a backlog.
"""

from __future__ import annotations

import random
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Competition, Match
from arena.matches.selectors import ACTIVE_STATES, bots_busy_ids, default_competition
from arena.matches.services import match_create
from arena.ratings.models import Rating
from arena.ratings.selectors import rating_interval

from .pairing import Candidate, pick_table

DEFAULT_ELO = 1500.0


def ladder_backlog_limit() -> int:
    return settings.ARENA_WORKER_COUNT * settings.ARENA_LADDER_BACKLOG_PER_WORKER


def ladder_candidates(
    *, competition: Competition, busy: set[int], now: datetime | None = None
) -> list[Candidate]:
    """The free bots of a competition, with what the pairing policies weigh."""
    now = now or timezone.now()
    versions = list(
        BotVersion.objects.filter(status=BotVersion.Status.ACTIVE)
        .exclude(bot_id__in=busy)
        .select_related("bot")
    )
    ratings = {
        row.bot_id: row
        for row in Rating.objects.filter(
            competition=competition, bot_id__in=[v.bot_id for v in versions]
        )
    }
    candidates = []
    for version in versions:
        rating = ratings.get(version.bot_id)
        if rating is None or rating.games == 0:
            candidates.append(Candidate(version=version, elo=DEFAULT_ELO, games=0))
            continue
        interval = rating_interval(rating=rating, competition=competition)
        candidates.append(
            Candidate(
                version=version,
                elo=rating.elo,
                games=rating.games,
                skill=(interval.low + interval.high) / 2 if interval else None,
                uncertainty=interval.half_width if interval else None,
                waited=(
                    (now - rating.last_played_at).total_seconds() if rating.last_played_at else None
                ),
            )
        )
    return candidates


def ladders_matchmake(*, rng: random.Random | None = None) -> list[Match]:
    """Queue ladder matches for every competition with its ladder on.

    One transaction holds all competition rows locked (in primary-key order), so
    two overlapping runs cannot seat a bot twice: the second waits and then sees
    the first one's matches as busy.
    """
    rng = rng or random.Random()
    created: list[Match] = []
    default_competition()  # the default ladder always exists (restored if deleted)
    with transaction.atomic():
        competitions = list(
            Competition.objects.select_for_update().filter(ladder_enabled=True).order_by("pk")
        )
        room = (
            ladder_backlog_limit()
            - Match.objects.filter(kind=Match.Kind.LADDER, state__in=ACTIVE_STATES).count()
        )
        busy = bots_busy_ids()
        for competition in rng.sample(competitions, len(competitions)):
            candidates = ladder_candidates(competition=competition, busy=busy)
            while room > 0 and len(candidates) >= competition.seats:
                table = pick_table(
                    candidates, competition.seats, rng, policy=settings.ARENA_MATCHMAKING_POLICY
                )
                created.append(
                    match_create(
                        kind=Match.Kind.LADDER,
                        versions=[c.version for c in table],
                        ruleset=competition.ruleset,
                        games=competition.games_per_match,
                        competition=competition,
                        rated=True,
                    )
                )
                room -= 1
                for chosen in table:
                    candidates.remove(chosen)
                    busy.add(chosen.version.bot_id)
    return created
