"""Reads of tournaments: list, standings, crosstable, progress.

Standings and the crosstable count the games of finished (`done`) matches only, so
they are meaningful while the tournament runs and final once it is done.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from django.db.models import Count, Max, Q, QuerySet

from arena.matches.models import Game, Match, MatchSeat

from . import scheduling
from .models import Tournament, TournamentEntry
from .standings import PlayedGame, Tally, performance_ratings, tally_games


def tournament_list(*, state: str | None = None) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.select_related("created_by").annotate(
        entrant_count=Count("entries", distinct=True)
    )
    if state:
        tournaments = tournaments.filter(state=state)
    return tournaments.order_by("-created_at", "-id")


def tournament_entries(*, tournament: Tournament) -> list[TournamentEntry]:
    return list(
        tournament.entries.select_related("bot", "bot__owner", "bot_version").order_by("pk")
    )


@dataclass(frozen=True, slots=True)
class Tables:
    """A tournament's scheduled tables: all of them, those with a match done, and the
    last failed match of each table that is over unplayed (no match done or waiting)."""

    total: int
    done: int
    unplayed: list[int]

    @property
    def finished(self) -> int:
        return self.done + len(self.unplayed)


def tournament_tables(*, tournament: Tournament) -> Tables:
    """Each table of a schedule has its own seed, which a match played again keeps
    (arena.tournaments.services.tournament_match_rerun): the tables are the seeds."""
    rows = (
        Match.objects.filter(tournament=tournament)
        .values("seed")
        .annotate(
            done=Count("id", filter=Q(state=Match.State.DONE)),
            waiting=Count("id", filter=Q(state__in=[Match.State.QUEUED, Match.State.RUNNING])),
            last=Max("id"),
        )
        .order_by()
    )
    total = done = 0
    unplayed = []
    for row in rows:
        total += 1
        if row["done"]:
            done += 1
        elif not row["waiting"]:
            unplayed.append(row["last"])
    return Tables(total=total, done=done, unplayed=sorted(unplayed))


def tournament_progress(*, tournament: Tournament) -> tuple[int, int]:
    """(finished tables, all tables); before the schedule exists, the total it will
    have. A table lost to the infrastructure and waiting to be played again is not
    finished."""
    tables = tournament_tables(tournament=tournament)
    if tables.total:
        return tables.finished, tables.total
    if tournament.state != Tournament.State.PENDING:
        return 0, 0
    planned = scheduling.schedule_size(
        format=tournament.format,
        entrants=tournament.entries.count(),
        seats=tournament.seats,
        rounds=tournament.rounds,
    )
    return 0, planned


def tournament_tally(*, tournament: Tournament) -> Tally:
    """Pairwise totals of every game of the tournament's finished matches, keyed by
    bot id; every entrant appears, played or not."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, index, bot_id in MatchSeat.objects.filter(
        match__tournament=tournament, match__state=Match.State.DONE
    ).values_list("match_id", "index", "bot_id"):
        seats[match_id][index] = bot_id
    games = []
    for match_id, ranks in (
        Game.objects.filter(match__tournament=tournament, match__state=Match.State.DONE)
        .order_by("id")
        .values_list("match_id", "ranks")
    ):
        table = seats[match_id]
        order = sorted(table)
        games.append(
            PlayedGame(entrants=[table[i] for i in order], ranks=[ranks[i] for i in order])
        )
    entrants = tournament.entries.values_list("bot_id", flat=True)
    return tally_games(entrants=entrants, games=games)


@dataclass(frozen=True, slots=True)
class StandingRow:
    position: int
    bot_id: int
    bot_name: str
    owner_name: str
    version_number: int
    games: int
    points: float
    # Points per pairwise game (0..1): comparable between entrants who played a
    # different number of games (a failed match, an odd balanced field).
    score: float
    wins: int
    average_rank: float | None
    performance: float


def tournament_standings(*, tournament: Tournament) -> list[StandingRow]:
    """Ordered by score (points per pairwise game), then wins, then average rank;
    entrants level on all three share a position."""
    return standings_from_tally(
        tournament=tournament, tally=tournament_tally(tournament=tournament)
    )


def standings_from_tally(*, tournament: Tournament, tally: Tally) -> list[StandingRow]:
    entries = {entry.bot_id: entry for entry in tournament_entries(tournament=tournament)}
    performance = performance_ratings(tally)
    rows = []
    for bot_id, entry in entries.items():
        totals = tally.totals[bot_id]
        rows.append(
            StandingRow(
                position=0,
                bot_id=bot_id,
                bot_name=entry.bot.name,
                owner_name=entry.bot.owner.get_username(),
                version_number=entry.bot_version.number,
                games=totals.games,
                points=totals.points,
                score=totals.points / totals.pairings if totals.pairings else 0.0,
                wins=totals.wins,
                average_rank=totals.average_rank,
                performance=performance[bot_id],
            )
        )

    def key(row: StandingRow) -> tuple[float, int, float]:
        average = row.average_rank if row.average_rank is not None else float("inf")
        return (-row.score, -row.wins, average)

    rows.sort(key=lambda row: (*key(row), row.bot_name))
    placed = []
    for i, row in enumerate(rows):
        shared = i > 0 and key(row) == key(rows[i - 1])
        position = placed[-1].position if shared else i + 1
        placed.append(replace(row, position=position))
    return placed


@dataclass(frozen=True, slots=True)
class CrosstableCell:
    games: int
    points: float


@dataclass(frozen=True, slots=True)
class Crosstable:
    """`bots[i]` against `bots[j]` is `cells[i][j]` (None on the diagonal and for
    pairs that have not met), in standings order."""

    bots: list[tuple[int, str]]
    cells: list[list[CrosstableCell | None]]


def tournament_crosstable(*, tournament: Tournament) -> Crosstable:
    tally = tournament_tally(tournament=tournament)
    standings = standings_from_tally(tournament=tournament, tally=tally)
    order = [row.bot_id for row in standings]
    cells: list[list[CrosstableCell | None]] = []
    for a in order:
        line: list[CrosstableCell | None] = []
        for b in order:
            cell = tally.cells.get((a, b)) if a != b else None
            line.append(CrosstableCell(cell.games, cell.points) if cell else None)
        cells.append(line)
    return Crosstable(bots=[(row.bot_id, row.bot_name) for row in standings], cells=cells)
