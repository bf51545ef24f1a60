"""Ladder matchmaking: which free bots play next, run every few seconds by beat.

For each competition: take the bots with an active version that are not in a
queued or running match, pick an anchor favouring bots with few games, then fill
the table with opponents of similar rating, both choices randomized so that the
same pairs do not repeat forever. The number of ladder matches queued or running
stays under a bound per worker, so a slow worker pool never builds up a backlog.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from arena.bots.models import BotVersion
from arena.matches.models import Competition, Match
from arena.matches.selectors import ACTIVE_STATES, bots_busy_ids, default_competition
from arena.matches.services import match_create
from arena.ratings.models import Rating

DEFAULT_ELO = 1500.0
# Opponent weight halves every SIMILARITY_SCALE * ln 2 Elo points of difference.
SIMILARITY_SCALE = 200.0


@dataclass(frozen=True)
class Candidate:
    version: BotVersion
    elo: float
    games: int


def ladder_backlog_limit() -> int:
    return settings.ARENA_WORKER_COUNT * settings.ARENA_LADDER_BACKLOG_PER_WORKER


def pick_table(candidates: list[Candidate], seats: int, rng: random.Random) -> list[Candidate]:
    """One table: an anchor favouring few games, then opponents of similar rating.

    >>> v = [Candidate(version=None, elo=1500 + 10 * i, games=i) for i in range(4)]
    >>> len(pick_table(v, 2, random.Random(1)))
    2
    """
    pool = list(candidates)
    anchor = rng.choices(pool, weights=[1.0 / (1 + c.games) for c in pool])[0]
    pool.remove(anchor)
    table = [anchor]
    while len(table) < seats:
        weights = [math.exp(-abs(c.elo - anchor.elo) / SIMILARITY_SCALE) + 1e-6 for c in pool]
        chosen = rng.choices(pool, weights=weights)[0]
        pool.remove(chosen)
        table.append(chosen)
    rng.shuffle(table)  # seat order does not favour the anchor
    return table


def ladder_candidates(*, competition: Competition, busy: set[int]) -> list[Candidate]:
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
        candidates.append(
            Candidate(
                version=version,
                elo=rating.elo if rating else DEFAULT_ELO,
                games=rating.games if rating else 0,
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
                table = pick_table(candidates, competition.seats, rng)
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
