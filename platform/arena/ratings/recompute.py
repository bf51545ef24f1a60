"""Rebuilding a competition's ratings from its stored game results.

The games are replayed through the same `ledger.game_outcome` as the incremental
updates, in the order in which those updates were applied. That order is the game
id order when matches finish one after another; when two workers finish matches at
the same time, a match with lower game ids may commit its ratings second (the row
locks serialise the two). The first RatingChange id of each game records the order
the locks imposed, so games are replayed by that id and, for games never rated yet,
by game id after all the others. Games that share no bot commute, so any order the
locks allowed gives the same floats.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, Min, Q

from arena.matches.models import Competition, Game, Match, MatchSeat

from .ledger import Standing, game_outcome, initial_standing
from .locks import ratings_lock
from .models import Rating, RatingChange
from .services import RATING_TOTAL_FIELDS, rating_store_standing, standing_from_rating

BATCH = 5000


@dataclass(frozen=True, slots=True)
class SeatOfMatch:
    index: int
    bot_id: int
    version_id: int


@dataclass(frozen=True, slots=True)
class ReplayedChange:
    game_id: int
    bot_id: int
    version_id: int
    before: float
    after: float


@dataclass
class RecomputeReport:
    competition: str
    games: int = 0
    # (bot id, stored standing, replayed standing) for every mismatch; None = no row.
    differences: list[tuple[int, Standing | None, Standing | None]] = field(default_factory=list)
    history_differs: bool = False

    @property
    def matches_stored(self) -> bool:
        return not self.differences and not self.history_differs


def rated_games_in_order(
    *, competition: Competition
) -> list[tuple[int, int, list[int], dt.datetime]]:
    """(game id, match id, ranks, created_at) of every rated game, in applied order."""
    games = (
        Game.objects.filter(match__competition=competition, match__rated=True)
        .annotate(first_change=Min("rating_changes__id"))
        .filter(Q(match__state=Match.State.DONE) | Q(first_change__isnull=False))
        .order_by(F("first_change").asc(nulls_last=True), "id")
        .values_list("id", "match_id", "ranks", "created_at")
    )
    return list(games.iterator(chunk_size=BATCH))


def seats_by_match(*, competition: Competition) -> dict[int, list[SeatOfMatch]]:
    seats: dict[int, list[SeatOfMatch]] = defaultdict(list)
    rows = (
        MatchSeat.objects.filter(match__competition=competition, match__rated=True)
        .order_by("match_id", "index")
        .values_list("match_id", "index", "bot_id", "bot_version_id")
    )
    for match_id, index, bot_id, version_id in rows.iterator(chunk_size=BATCH):
        seats[match_id].append(SeatOfMatch(index, bot_id, version_id))
    return seats


def replay_competition(
    *, competition: Competition
) -> tuple[dict[int, Standing], list[ReplayedChange], int]:
    """Every bot's standing after all rated games, and every change, in order."""
    seats = seats_by_match(competition=competition)
    standings: dict[int, Standing] = {}
    changes: list[ReplayedChange] = []
    games = rated_games_in_order(competition=competition)
    system = competition.rating_system
    for game_id, match_id, ranks, created_at in games:
        match_seats = seats[match_id]
        before = [
            standings.get(s.bot_id) or initial_standing(system, seats=competition.seats)
            for s in match_seats
        ]
        after = game_outcome(
            before=before,
            ranks=[ranks[s.index] for s in match_seats],
            played_at=created_at,
            system=system,
            seats=competition.seats,
            versions=[s.version_id for s in match_seats],
        )
        for seat, old, new in zip(match_seats, before, after, strict=True):
            standings[seat.bot_id] = new
            changes.append(ReplayedChange(game_id, seat.bot_id, seat.version_id, old.elo, new.elo))
    return standings, changes, len(games)


def stored_history(*, competition: Competition) -> list[tuple[int, int, int, float, float]]:
    rows = (
        RatingChange.objects.filter(rating__competition=competition)
        .order_by("id")
        .values_list("game_id", "rating__bot_id", "bot_version_id", "before", "after")
    )
    return list(rows.iterator(chunk_size=BATCH))


def history_by_bot(
    history: list[tuple[int, int, int, float, float]],
) -> dict[int, list[tuple[int, int, float, float]]]:
    """Each bot's changes in order. Compared bot by bot, because two matches that
    share no bot commit at the same time and their changes' ids interleave: the
    global id order is not the replay's, while every bot's own order is."""
    chains: dict[int, list[tuple[int, int, float, float]]] = defaultdict(list)
    for game_id, bot_id, version_id, before, after in history:
        chains[bot_id].append((game_id, version_id, before, after))
    return dict(chains)


def ratings_recompute(*, competition: Competition, write: bool) -> RecomputeReport:
    """Replay a competition's rated games and compare with the stored ratings; with
    `write`, store the replayed ratings and history in their place.

    Locks every Rating row of the competition (by bot id) for the duration, so that
    no incremental update interleaves with the rebuild.
    """
    report = RecomputeReport(competition=competition.slug)
    with transaction.atomic():
        bot_ids = set(
            Rating.objects.filter(competition=competition).values_list("bot_id", flat=True)
        )
        ratings_lock(competition_id=competition.pk, bot_ids=bot_ids)
        standings, changes, report.games = replay_competition(competition=competition)
        rows = ratings_lock(competition_id=competition.pk, bot_ids=[*bot_ids, *standings.keys()])
        for bot_id, row in rows.items():
            stored = (
                standing_from_rating(row, system=competition.rating_system, seats=competition.seats)
                if bot_id in bot_ids
                else None
            )
            # A row that no game supports differs from the replay, which has none.
            replayed = standings.get(bot_id)
            if stored != replayed:
                report.differences.append((bot_id, stored, replayed))
        replayed_history = [(c.game_id, c.bot_id, c.version_id, c.before, c.after) for c in changes]
        report.history_differs = history_by_bot(
            stored_history(competition=competition)
        ) != history_by_bot(replayed_history)
        if write and not report.matches_stored:
            rating_rows_replace(rows=rows, standings=standings, changes=changes)
    return report


def rating_rows_replace(
    *, rows: dict[int, Rating], standings: dict[int, Standing], changes: list[ReplayedChange]
) -> None:
    """Overwrite locked Rating rows and their whole change history; a row that no
    game supports is deleted, so that every rating has played at least one game."""
    RatingChange.objects.filter(rating__in=list(rows.values())).delete()
    unsupported = [row.pk for bot_id, row in rows.items() if bot_id not in standings]
    Rating.objects.filter(pk__in=unsupported).delete()
    kept = [row for bot_id, row in rows.items() if bot_id in standings]
    for row in kept:
        rating_store_standing(rating=row, standing=standings[row.bot_id])
    Rating.objects.bulk_update(kept, RATING_TOTAL_FIELDS, batch_size=BATCH)
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                rating=rows[c.bot_id],
                game_id=c.game_id,
                bot_version_id=c.version_id,
                before=c.before,
                after=c.after,
            )
            for c in changes
        ],
        batch_size=BATCH,
    )


def ratings_switch_system(*, competition: Competition, system: str) -> RecomputeReport:
    """Rate a competition with another system from now on: its games are replayed in
    it and its ratings and history rewritten, in one transaction."""
    with transaction.atomic():
        locked = Competition.objects.select_for_update().get(pk=competition.pk)
        locked.rating_system = system
        locked.save(update_fields=["rating_system"])
        return ratings_recompute(competition=locked, write=True)
