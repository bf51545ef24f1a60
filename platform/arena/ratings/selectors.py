"""Reads of the ladders: the leaderboard, one bot's rating history, head to head.

The leaderboard is read a page at a time: a narrow query picks the page (served by
the (competition, -elo, bot) index in rank order), then small queries read the
page's details and rank its bots against the whole competition, so that a search
keeps each bot's real rank.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import F, FloatField, QuerySet
from django.db.models.functions import Cast

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Competition, Game, Match, MatchSeat

from . import ledger
from .elo import Interval
from .models import Rating, RatingChange

# Rank order is Elo order; the bot id breaks ties so that pages never overlap.
LEADERBOARD_ORDERINGS: dict[str, list[Any]] = {
    "rank": ["-elo", "bot_id"],
    "-rank": ["elo", "-bot_id"],
    "name": ["bot__name"],
    "-name": ["-bot__name"],
    "games": ["games", "-elo", "bot_id"],
    "-games": ["-games", "-elo", "bot_id"],
    "win_rate": ["win_rate", "-elo", "bot_id"],
    "-win_rate": ["-win_rate", "-elo", "bot_id"],
    "last_played": [F("last_played_at").asc(nulls_first=True), "bot_id"],
    "-last_played": [F("last_played_at").desc(nulls_last=True), "bot_id"],
}


class LeaderboardOrderingError(ValueError):
    """An ordering the leaderboard does not offer."""


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    bot_id: int
    bot_name: str
    owner_name: str
    active: bool
    elo: float
    # The 95% interval (None before the first game): two bots whose intervals
    # overlap are not yet separable.
    interval_low: float | None
    interval_high: float | None
    # The ranks the bot could hold at 95% (band_low == band_high: separated from
    # every other bot); bots whose bands overlap are not yet separable.
    band_low: int
    band_high: int
    mu: float | None  # Plackett-Luce skill and uncertainty (None under Elo)
    sigma: float | None
    provisional: bool
    games: int
    wins: int
    win_rate: float
    average_rank: float | None
    score: float
    last_played_at: dt.datetime | None
    trend: list[float]


def leaderboard_queryset(
    *, competition: Competition, search: str = "", ordering: str = "rank"
) -> QuerySet[Rating]:
    """The competition's ratings, filtered by bot name and ordered: a narrow query
    meant to be sliced into pages and passed to `leaderboard_rows`.

    It reads only the columns that order a page, so that sorting the whole
    competition stays in memory and the rank order is read straight off the
    (competition, -elo, bot) index; `leaderboard_rows` fetches the rest of a page.
    """
    if ordering not in LEADERBOARD_ORDERINGS:
        raise LeaderboardOrderingError(
            f"unknown ordering {ordering!r}; one of {', '.join(LEADERBOARD_ORDERINGS)}"
        )
    ratings = Rating.objects.filter(competition=competition).only(
        "pk", "bot_id", "competition_id", "elo", "games", "wins", "last_played_at"
    )
    if ordering in ("win_rate", "-win_rate"):
        ratings = ratings.annotate(
            win_rate=Cast("wins", FloatField()) / Cast("games", FloatField())
        )
    if search:
        ratings = ratings.filter(bot__name__icontains=search)
    return ratings.order_by(*LEADERBOARD_ORDERINGS[ordering])


def competition_ranks(*, competition: Competition, elos: list[float]) -> dict[float, int]:
    """The rank of each Elo value in the whole competition: 1 + the number of bots
    rated strictly higher (equal ratings share a rank).

    A rank depends only on the ratings above it, so the window runs over the
    ratings from the lowest of `elos` up: an index range of about (page offset +
    page size) entries. Raw SQL because the ORM would apply the final `= ANY`
    before the window instead of after it. Runs on SQLite too.
    """
    if not elos:
        return {}
    table = connection.ops.quote_name(Rating._meta.db_table)
    distinct = sorted(set(elos))
    placeholders = ", ".join(["%s"] * len(distinct))
    sql = f"""
        SELECT elo, place FROM (
            SELECT elo, RANK() OVER (ORDER BY elo DESC) AS place
            FROM {table} WHERE competition_id = %s AND elo >= %s
        ) ranked
        WHERE elo IN ({placeholders})
    """  # noqa: S608  (the table name is ours, the values are parameters)
    with connection.cursor() as cursor:
        cursor.execute(sql, [competition.pk, distinct[0], *distinct])
        return {float(value): int(place) for value, place in cursor.fetchall()}


def leaderboard_rows(*, competition: Competition, ratings: list[Rating]) -> list[LeaderboardRow]:
    """Rows for a page read through `leaderboard_queryset`, in the page's order:
    three small queries (the page's ratings with bot and owner, which of their bots
    have an active version, and the ranks)."""
    ids = [rating.pk for rating in ratings]
    if not ids:
        return []
    details = Rating.objects.filter(pk__in=ids).select_related("bot__owner").in_bulk()
    active = set(
        BotVersion.objects.filter(
            bot_id__in=[r.bot_id for r in details.values()], status=BotVersion.Status.ACTIVE
        ).values_list("bot_id", flat=True)
    )
    ranks = competition_ranks(competition=competition, elos=[r.elo for r in details.values()])
    bounds = competition_interval_bounds(competition=competition)
    rows = []
    for pk in ids:
        if pk not in details:
            continue
        rating = details[pk]
        interval = rating_interval(rating=rating, competition=competition)
        rows.append(
            leaderboard_row(
                rating,
                competition=competition,
                rank=ranks[rating.elo],
                interval=interval,
                band=ledger.rank_band(interval, *bounds) if interval else (1, 1),
                active=rating.bot_id in active,
            )
        )
    return rows


def rating_interval(*, rating: Rating, competition: Competition) -> Interval | None:
    """The rating's 95% interval on the Elo scale (ledger.rating_interval)."""
    return ledger.rating_interval(
        system=competition.rating_system,
        elo_value=rating.elo,
        games=rating.games,
        score=rating.score_fraction,
        mu=rating.mu,
        sigma=rating.sigma,
        seats=competition.seats,
    )


def competition_intervals(*, competition: Competition) -> dict[int, Interval]:
    """Every rated bot's 95% interval in the competition, by bot id: one narrow
    query of plain values (bands are relative to the whole ladder)."""
    rows = Rating.objects.filter(competition=competition, games__gt=0).values_list(
        "bot_id", "elo", "games", "score_sum", "mu", "sigma"
    )
    return {
        bot_id: ledger.rating_interval(
            system=competition.rating_system,
            elo_value=elo_value,
            games=games,
            score=score_sum / games,
            mu=mu,
            sigma=sigma,
            seats=competition.seats,
        )
        for bot_id, elo_value, games, score_sum, mu, sigma in rows.iterator(chunk_size=5000)
    }


def competition_interval_bounds(*, competition: Competition) -> tuple[list[float], list[float]]:
    """The sorted low and high ends of every rated bot's interval: what a bot's band
    is counted against (ledger.rank_band). Computed over the whole ladder, about
    30 ms at 10,000 bots, so kept in the cache for ARENA_BAND_CACHE_SECONDS: a band
    may lag the ratings by that much, a page read never pays for it twice."""
    key = f"ratings:interval-bounds:{competition.pk}:{competition.rating_system}"
    bounds = cache.get(key)
    if bounds is None:
        intervals = list(competition_intervals(competition=competition).values())
        bounds = (
            sorted(interval.low for interval in intervals),
            sorted(interval.high for interval in intervals),
        )
        cache.set(key, bounds, settings.ARENA_BAND_CACHE_SECONDS)
    return bounds


def bots_not_separated_from(*, bot: Bot, competition: Competition) -> list[Bot]:
    """The bots whose 95% intervals overlap this bot's: not yet separable from it,
    strongest first."""
    intervals = competition_intervals(competition=competition)
    own = intervals.get(bot.pk)
    if own is None:
        return []
    overlapping = [
        bot_id
        for bot_id, interval in intervals.items()
        if bot_id != bot.pk and interval.overlaps(own)
    ]
    by_id = Bot.objects.in_bulk(overlapping)
    return [
        by_id[bot_id]
        for bot_id in sorted(overlapping, key=lambda b: -intervals[b].high)
        if bot_id in by_id
    ]


def leaderboard_row(
    rating: Rating,
    *,
    competition: Competition,
    rank: int,
    interval: Interval | None,
    band: tuple[int, int],
    active: bool,
) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        bot_id=rating.bot_id,
        bot_name=rating.bot.name,
        owner_name=rating.bot.owner.get_username(),
        active=active,
        elo=rating.elo,
        interval_low=interval.low if interval else None,
        interval_high=interval.high if interval else None,
        band_low=band[0],
        band_high=band[1],
        mu=rating.mu,
        sigma=rating.sigma,
        provisional=ledger.is_provisional(
            system=competition.rating_system, games=rating.games, sigma=rating.sigma
        ),
        games=rating.games,
        wins=rating.wins,
        win_rate=rating.wins / rating.games if rating.games else 0.0,
        average_rank=rating.rank_sum / rating.games if rating.games else None,
        score=rating.score_fraction,
        last_played_at=rating.last_played_at,
        trend=list(rating.trend),
    )


def leaderboard_list(
    *,
    competition: Competition,
    search: str = "",
    ordering: str = "rank",
    offset: int = 0,
    limit: int | None = 50,
) -> list[LeaderboardRow]:
    """One page of the leaderboard (all of it with limit=None); four queries.

    Every Rating row has at least one game: rows are created by the first rated
    game and the rebuild drops rows that no game supports.
    """
    ratings = leaderboard_queryset(competition=competition, search=search, ordering=ordering)
    page = ratings[offset:] if limit is None else ratings[offset : offset + limit]
    return leaderboard_rows(competition=competition, ratings=list(page))


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    game_id: int
    match_id: int
    at: dt.datetime
    before: float
    after: float
    version_id: int
    version_number: int
    # True on the first game of a new version (and on the very first game).
    version_changed: bool


def rating_history(
    *, bot: Bot, competition: Competition, limit: int | None = None
) -> list[HistoryPoint]:
    """The bot's rating after each rated game, oldest first (the latest `limit`)."""
    changes = (
        RatingChange.objects.filter(rating__bot=bot, rating__competition=competition)
        .select_related("bot_version", "game")
        .only(
            "before",
            "after",
            "game__id",
            "game__match_id",
            "game__created_at",
            "bot_version__id",
            "bot_version__number",
        )
        .order_by("-id")
    )
    if limit is not None:
        changes = changes[:limit]
    rows = list(changes)[::-1]
    points = []
    previous_version: int | None = None
    if rows and limit is not None:
        earlier = (
            RatingChange.objects.filter(
                rating__bot=bot, rating__competition=competition, id__lt=rows[0].pk
            )
            .order_by("-id")
            .values_list("bot_version_id", flat=True)
            .first()
        )
        previous_version = earlier
    for change in rows:
        points.append(
            HistoryPoint(
                game_id=change.game.pk,
                match_id=change.game.match_id,
                at=change.game.created_at,
                before=change.before,
                after=change.after,
                version_id=change.bot_version.pk,
                version_number=change.bot_version.number,
                version_changed=change.bot_version_id != previous_version,
            )
        )
        previous_version = change.bot_version_id
    return points


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent_id: int
    opponent_name: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """The bot's pairwise score against this opponent (0..1)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def head_to_head(*, bot: Bot, competition: Competition) -> list[HeadToHead]:
    """The bot's record against each opponent in the competition's rated games,
    counted pairwise from the ranks (as the ratings are), most played first."""
    own_seats = dict(
        MatchSeat.objects.filter(
            bot=bot,
            match__competition=competition,
            match__rated=True,
            match__state=Match.State.DONE,
        ).values_list("match_id", "index")
    )
    if not own_seats:
        return []
    opponents: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for match_id, index, opponent_id in (
        MatchSeat.objects.filter(match_id__in=own_seats.keys())
        .exclude(bot=bot)
        .values_list("match_id", "index", "bot_id")
    ):
        opponents[match_id].append((index, opponent_id))
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for match_id, ranks in Game.objects.filter(match_id__in=own_seats.keys()).values_list(
        "match_id", "ranks"
    ):
        mine = ranks[own_seats[match_id]]
        for index, opponent_id in opponents[match_id]:
            theirs = ranks[index]
            counts = tally[opponent_id]
            counts[0] += 1
            counts[1 if mine < theirs else 2 if mine == theirs else 3] += 1
    names = dict(Bot.objects.filter(pk__in=tally.keys()).values_list("pk", "name"))
    rows = [
        HeadToHead(
            opponent_id=opponent_id,
            opponent_name=names.get(opponent_id, "?"),
            games=games,
            wins=wins,
            draws=draws,
            losses=losses,
        )
        for opponent_id, (games, wins, draws, losses) in tally.items()
    ]
    return sorted(rows, key=lambda row: (-row.games, row.opponent_name))
