"""Ranking benchmark: how fast and how honestly the ladder finds a known order.

Populations of bots whose order is known by construction: the heuristic example
bot answering with the random bot's reply with probability epsilon (`spread`: eight
epsilons from 0 to 1; `close`: neighbours that score only 52-55% against each
other). Their strengths are measured once by a long round robin of duplicate
deals (the outcome banks in benchmarks/data/, made with `--build-bank`), fitted
by Bradley-Terry (Elo scale) and Plackett-Luce, with bootstrap standard errors.

A run is a simulated ladder: the platform's own candidates (as
`arena.play.matchmaking.ladder_candidates` builds them), table picks
(`arena.play.pairing.pick_table`) and rating updates (`arena.ratings.ledger`),
each match four games drawn from the bank for the table's bots. Reported as
functions of games played, for 2- and 4-seat ladders, over many runs: Kendall tau
to the true order, how often the best bot is shown first, how often the displayed
95% intervals contain the measured strengths, and how far the ratings of a
settled pool move when a strong and a weak bot join. docs/ranking.md has the
method and the figures.

    .venv/bin/python benchmarks/ranking.py --build-bank      # play the banks (~15 min CPU)
    .venv/bin/python benchmarks/ranking.py --quick           # one line per configuration
    .venv/bin/python benchmarks/ranking.py --chart docs/ranking.png   # the full report
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import datetime as dt
import gzip
import itertools
import json
import math
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import timeit
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]

# The rating and pairing modules load through the `arena` package, which needs
# Django's settings. Run as a script (or imported outside a configured Django), the
# benchmark gets the base settings with a throwaway database it never opens.
if __name__ == "__main__" or "DJANGO_SETTINGS_MODULE" not in os.environ:
    _SCRATCH = tempfile.mkdtemp(prefix="ranking-bench-")
    atexit.register(shutil.rmtree, _SCRATCH, ignore_errors=True)
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings.base"
    os.environ["DATABASE_URL"] = f"sqlite:///{_SCRATCH}/ranking-bench.sqlite3"
    os.environ["ARENA_VAR_DIR"] = _SCRATCH

import django  # noqa: E402

django.setup()

from machine import machine  # noqa: E402
from openskill.models import PlackettLuce  # noqa: E402

import engine  # noqa: E402
from arena.play.matchmaking import DEFAULT_ELO  # noqa: E402
from arena.play.pairing import Candidate, pick_table  # noqa: E402
from arena.ratings import elo, ledger, plackett_luce  # noqa: E402
from bots_examples import builtin_bots  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
RULESET = "korean"
POPULATIONS: dict[str, tuple[float, ...]] = {
    # The heuristic bot (epsilon 0) beats the random one (epsilon 1) in ~99% of games.
    "spread": (0.0, 0.15, 0.30, 0.45, 0.60, 0.75, 0.90, 1.0),
    # Near epsilon 0 a step of 0.05 costs the bot 20-30 Elo: 52-55% between neighbours.
    "close": (0.0, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35),
}
SEAT_COUNTS = (2, 4)
# Deals per table of the round robin: every pair (28 tables) or every 4 of the 8
# bots (70 tables), each deal played in every rotation of the seats.
BANK_DEALS = {2: 600, 4: 120}
GAMES_PER_MATCH = 4  # Competition.games_per_match's default


# --- the bots ----------------------------------------------------------------------


class EpsilonBot:
    """The heuristic bot, answering as the random bot would with probability epsilon.

    Both bots see every message, so that whichever answers has followed the whole
    game: the heuristic bot keeps only the start message's ruleset, the random bot
    its generator, which must advance the same way whether or not its reply is used.

    >>> bot = EpsilonBot(0.0, seed=1)
    >>> bot({"type": "catch"})
    {'action': 'catch'}
    """

    def __init__(self, epsilon: float, *, seed: int) -> None:
        bots = builtin_bots()
        self.epsilon = epsilon
        self.heuristic = bots["heuristic"](seed)
        self.random = bots["random"](seed)
        self.coin = random.Random(seed ^ 0x5EED)

    def __call__(self, message: dict[str, Any]) -> Any:
        planned = self.heuristic(message)
        rolled = self.random(message)
        return rolled if self.coin.random() < self.epsilon else planned


# --- the outcome banks -------------------------------------------------------------


@dataclass(frozen=True)
class Bank:
    """The round robin of one population at one table size. `tables[bots]` holds, for
    the sorted tuple of bot indices, its games deal by deal: `deals` consecutive
    blocks of `seats` games (the rotations of one deal), each game the ranks of the
    table's bots in `bots` order."""

    population: str
    epsilons: tuple[float, ...]
    seats: int
    deals: int
    tables: dict[tuple[int, ...], list[tuple[int, ...]]]

    @property
    def bots(self) -> int:
        return len(self.epsilons)

    def deal_games(self, table: tuple[int, ...], deal: int) -> list[tuple[int, ...]]:
        return self.tables[table][deal * self.seats : (deal + 1) * self.seats]


def bank_path(population: str, seats: int) -> Path:
    return DATA / f"ranking-{population}-{seats}seat.json.gz"


def _play_table(task: tuple[tuple[float, ...], tuple[int, ...], int]) -> list[list[int]]:
    """Every deal of one table in every seat rotation; each game's ranks by bot."""
    epsilons, table, deals = task
    seats = len(table)
    games = []
    for deal in range(deals):
        for rotation in range(seats):
            seated = [table[(seat + rotation) % seats] for seat in range(seats)]
            bots = [
                EpsilonBot(epsilons[bot], seed=((deal * 8 + bot) * 8 + rotation) * 1009 + seats)
                for bot in seated
            ]
            ranks = engine.play_game(bots, seed=deal, ruleset=RULESET)["result"]["ranks"]
            by_bot = dict(zip(seated, ranks, strict=True))
            games.append([by_bot[bot] for bot in table])
    return games


def _nice_worker() -> None:
    os.nice(10)


def build_banks(*, processes: int, deal_scale: float = 1.0) -> None:
    """Play every bank (all populations, both table sizes) and write them."""
    DATA.mkdir(parents=True, exist_ok=True)
    for population, epsilons in POPULATIONS.items():
        for seats in SEAT_COUNTS:
            deals = max(1, round(BANK_DEALS[seats] * deal_scale))
            tables = list(itertools.combinations(range(len(epsilons)), seats))
            started = time.monotonic()
            with multiprocessing.Pool(processes, initializer=_nice_worker) as pool:
                played = pool.map(_play_table, [(epsilons, t, deals) for t in tables], 1)
            document = {
                "population": population,
                "epsilons": list(epsilons),
                "seats": seats,
                "ruleset": RULESET,
                "deals": deals,
                "layout": "per table: deals x rotations games, each the ranks of `bots` in order",
                "tables": [
                    {"bots": list(t), "games": games}
                    for t, games in zip(tables, played, strict=True)
                ],
            }
            path = bank_path(population, seats)
            with gzip.open(path, "wt", encoding="ascii", compresslevel=9) as out:
                json.dump(document, out, separators=(",", ":"))
            games = sum(len(g) for g in played)
            print(
                f"bank {path.name}: {len(tables)} tables x {deals} deals x {seats} rotations"
                f" = {games} games in {time.monotonic() - started:.0f} s",
                flush=True,
            )


def load_bank(population: str, seats: int) -> Bank:
    with gzip.open(bank_path(population, seats), "rt", encoding="ascii") as source:
        document = json.load(source)
    return Bank(
        population=document["population"],
        epsilons=tuple(document["epsilons"]),
        seats=document["seats"],
        deals=document["deals"],
        tables={
            tuple(table["bots"]): [tuple(game) for game in table["games"]]
            for table in document["tables"]
        },
    )


# --- the truth ---------------------------------------------------------------------

# A choice: the chosen bot and the set it was chosen from (a Plackett-Luce stage; a
# pairwise game is a stage of two). Both models are fitted from these counts.
Choice = tuple[tuple[int, ...], int]


def pairwise_choices(ranks_by_bot: dict[int, int]) -> list[tuple[Choice, float]]:
    """The game as Elo scores it: every pair once, the better place winning, a
    shared place half a win each."""
    choices = []
    for a, b in itertools.combinations(sorted(ranks_by_bot), 2):
        pair = (a, b)
        if ranks_by_bot[a] == ranks_by_bot[b]:
            choices += [((pair, a), 0.5), ((pair, b), 0.5)]
        else:
            winner = a if ranks_by_bot[a] < ranks_by_bot[b] else b
            choices.append(((pair, winner), 1.0))
    return choices


def order_choices(ranks_by_bot: dict[int, int]) -> list[tuple[Choice, float]]:
    """The game as Plackett-Luce reads it: the winner chosen from everyone, the
    second from the rest, and so on. Bots sharing a place are taken in every order
    among themselves, equally weighted."""
    places = sorted(set(ranks_by_bot.values()))
    groups = [sorted(b for b, r in ranks_by_bot.items() if r == place) for place in places]
    orders = [
        [bot for block in blocks for bot in block]
        for blocks in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    weight = 1.0 / len(orders)
    choices = []
    for order in orders:
        for stage in range(len(order) - 1):
            choices.append(((tuple(sorted(order[stage:])), order[stage]), weight))
    return choices


def fit_log_worths(counts: dict[Choice, float], bots: int) -> list[float]:
    """Maximum-likelihood log-worths of the choice model (Bradley-Terry for pairs,
    Plackett-Luce for orders) by Hunter's minorise-maximise iteration, centred on 0.

    >>> counts = {((0, 1), 0): 3.0, ((0, 1), 1): 1.0}
    >>> [round(x / math.log(3), 3) for x in fit_log_worths(counts, 2)]
    [0.5, -0.5]
    """
    wins = [0.0] * bots
    by_set: dict[tuple[int, ...], float] = {}
    for (members, winner), weight in counts.items():
        wins[winner] += weight
        by_set[members] = by_set.get(members, 0.0) + weight
    sets = list(by_set.items())
    worths = [1.0] * bots
    for _ in range(20000):
        denominators = [0.0] * bots
        for members, weight in sets:
            share = weight / sum(worths[m] for m in members)
            for m in members:
                denominators[m] += share
        updated = [wins[b] / denominators[b] for b in range(bots)]
        scale = math.exp(statistics.fmean(math.log(w) for w in updated))
        updated = [w / scale for w in updated]
        change = max(abs(math.log(u / w)) for u, w in zip(updated, worths, strict=True))
        worths = updated
        if change < 1e-10:
            break
    return [math.log(w) for w in worths]


# Elo points per unit of log-worth: Bradley-Terry's logistic curve on Elo's scale.
ELO_PER_LOG_WORTH = elo.SCALE / math.log(10.0)


def pl_elo_per_log_worth(seats: int) -> float:
    """Elo-equivalents per unit of Plackett-Luce log-worth at `seats` seats. openskill
    chooses a winner with odds exp(mu / c), c = sqrt(sum of sigma^2 + BETA^2) over the
    table: sqrt(seats) * BETA once sigmas are small, so a log-worth is c mu (which
    the platform's per-table-size scale makes one logit, Bradley-Terry's unit)."""
    return plackett_luce.elo_per_mu(seats) * math.sqrt(seats) * plackett_luce.BETA


@dataclass(frozen=True)
class Truth:
    """A population's measured strengths under one model, on the Elo scale (mean 0),
    with the bootstrap resamples' strengths (none unless asked for)."""

    model: str  # "bradley_terry" (what Elo estimates) or "plackett_luce"
    strength: tuple[float, ...]
    samples: tuple[tuple[float, ...], ...] = ()

    @property
    def order(self) -> list[int]:
        """The bots, best first."""
        return sorted(range(len(self.strength)), key=lambda b: -self.strength[b])

    def stderr(self, bot: int) -> float:
        return statistics.stdev(s[bot] - statistics.fmean(s) for s in self.samples)

    def p_above(self, a: int, b: int) -> float:
        """The share of resamples in which `a` is stronger than `b`."""
        return sum(s[a] > s[b] for s in self.samples) / len(self.samples)


@dataclass(frozen=True)
class _Deals:
    """One table's deals, each as the indices of its rotations' games among the
    table's distinct game outcomes, and each distinct outcome read as choices: few
    outcomes recur, so reading each once makes fits and resamples cheap."""

    games_of_deal: list[tuple[int, ...]]
    choices: list[list[tuple[Choice, float]]]


def _table_deals(
    bank: Bank, reading: Callable[[dict[int, int]], list[tuple[Choice, float]]]
) -> list[_Deals]:
    tables = []
    for table in bank.tables:
        index: dict[tuple[int, ...], int] = {}
        choices: list[list[tuple[Choice, float]]] = []
        games_of_deal = []
        for deal in range(bank.deals):
            ids = []
            for game in bank.deal_games(table, deal):
                if game not in index:
                    index[game] = len(choices)
                    choices.append(reading(dict(zip(table, game, strict=True))))
                ids.append(index[game])
            games_of_deal.append(tuple(ids))
        tables.append(_Deals(games_of_deal, choices))
    return tables


def _count(tables: list[_Deals], drawn: list[list[int]]) -> dict[Choice, float]:
    """The choices of the deals drawn from each table (deal indices, repeats allowed)."""
    counts: dict[Choice, float] = {}
    for deals, draws in zip(tables, drawn, strict=True):
        times = [0] * len(deals.choices)
        for deal in draws:
            for game in deals.games_of_deal[deal]:
                times[game] += 1
        for game, n in enumerate(times):
            if n:
                for choice, weight in deals.choices[game]:
                    counts[choice] = counts.get(choice, 0.0) + n * weight
    return counts


def measure_truth(bank: Bank, model: str, *, resamples: int = 0, seed: int = 1) -> Truth:
    """The strengths the bank shows under `model`; with `resamples`, bootstrap over the
    deals of each table (a deal's rotations stay together) for their confidence."""
    if model == "bradley_terry":
        reading, per_log_worth = pairwise_choices, ELO_PER_LOG_WORTH
    else:
        reading, per_log_worth = order_choices, pl_elo_per_log_worth(bank.seats)
    tables = _table_deals(bank, reading)

    def strengths(drawn: list[list[int]]) -> tuple[float, ...]:
        counts = _count(tables, drawn)
        return tuple(per_log_worth * x for x in fit_log_worths(counts, bank.bots))

    every = list(range(bank.deals))
    point = strengths([every] * len(tables))
    rng = random.Random(seed)
    samples = tuple(
        strengths([[rng.randrange(bank.deals) for _ in every] for _ in tables])
        for _ in range(resamples)
    )
    return Truth(model=model, strength=point, samples=samples)


def head_to_head(bank: Bank, a: int, b: int) -> float:
    """a's pairwise score against b over every bank game in which both played."""
    points = games = 0.0
    for table, played in bank.tables.items():
        if a in table and b in table:
            i, j = table.index(a), table.index(b)
            for game in played:
                points += elo.pair_score(game[i], game[j])
                games += 1
    return points / games


# --- a simulated ladder ------------------------------------------------------------

EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
# Where the runs are measured; the tables show the main ones, games_to_tau90 uses all.
CHECKPOINTS = (50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000, 6000)
SHOWN_CHECKPOINTS = (50, 100, 200, 400, 800, 1500, 3000, 6000)
FULL_BUDGET, QUICK_BUDGET = 6000, 1500
DRIFT_GAMES = 3000


class Ladder:
    """One competition's ratings, played by the platform's own rules: candidates
    built as `arena.play.matchmaking.ladder_candidates` builds them, tables from
    `pick_table`, each game applied by `ledger.game_outcome`. Time is counted in
    tables (a bot's wait is the number of tables since it last played), and every
    table is one match of GAMES_PER_MATCH games drawn from the bank."""

    def __init__(self, *, bank: Bank, system: str, policy: str, seed: int) -> None:
        self.bank = bank
        self.system = system
        self.policy = policy
        self.rng = random.Random(seed)
        self.standings: dict[int, ledger.Standing] = {}
        self.last_table: dict[int, int] = {}
        # A bot whose games are drawn as another bank bot's (its strength changed).
        self.plays_as: dict[int, int] = {}
        self.tables = 0
        self.games = 0

    def fork(self) -> Ladder:
        """An independent copy that goes on from here (the bank shared)."""
        twin = Ladder(bank=self.bank, system=self.system, policy=self.policy, seed=0)
        twin.rng.setstate(self.rng.getstate())
        twin.standings = dict(self.standings)
        twin.last_table = dict(self.last_table)
        twin.plays_as = dict(self.plays_as)
        twin.tables, twin.games = self.tables, self.games
        return twin

    def join(self, bots: Iterable[int]) -> None:
        for bot in bots:
            self.standings[bot] = ledger.initial_standing(self.system, seats=self.bank.seats)

    def interval(self, bot: int) -> elo.Interval | None:
        """The displayed 95% interval, as arena.ratings.selectors.rating_interval."""
        s = self.standings[bot]
        return ledger.rating_interval(
            system=self.system,
            elo_value=s.elo,
            games=s.games,
            score=s.score_sum / s.games if s.games else 0.5,  # Rating.score_fraction
            mu=s.mu,
            sigma=s.sigma,
            seats=self.bank.seats,
        )

    def point(self, bot: int) -> float:
        """The rating's estimate of the bot's strength (not the ordering value)."""
        s = self.standings[bot]
        if s.mu is None:
            return s.elo
        return plackett_luce.to_elo_scale(s.mu, seats=self.bank.seats)

    def candidates(self) -> list[Candidate]:
        candidates = []
        for bot, s in self.standings.items():
            if s.games == 0:
                candidates.append(Candidate(version=bot, elo=DEFAULT_ELO, games=0))
                continue
            interval = self.interval(bot)
            candidates.append(
                Candidate(
                    version=bot,
                    elo=s.elo,
                    games=s.games,
                    skill=(interval.low + interval.high) / 2 if interval else None,
                    uncertainty=interval.half_width if interval else None,
                    waited=float(self.tables - self.last_table[bot]),
                )
            )
        return candidates

    def play(
        self,
        until: int,
        observe: Callable[[Ladder], None] | None = None,
        *,
        watch: Callable[[Ladder], bool] | None = None,
    ) -> None:
        """Play tables until `until` games in all, calling `observe` at each checkpoint,
        and `watch` after every game: the ladder stops when it says so."""
        while self.games < until:
            table = [
                c.version
                for c in pick_table(
                    self.candidates(), self.bank.seats, self.rng, policy=self.policy
                )
            ]
            drawn_as = [self.plays_as.get(bot, bot) for bot in table]
            key = tuple(sorted(drawn_as))
            where = [key.index(bot) for bot in drawn_as]
            outcomes = self.bank.tables[key]
            played_at = EPOCH + dt.timedelta(minutes=self.tables)
            for _ in range(GAMES_PER_MATCH):
                game = self.rng.choice(outcomes)
                after = ledger.game_outcome(
                    before=[self.standings[bot] for bot in table],
                    ranks=[game[i] for i in where],
                    played_at=played_at,
                    system=self.system,
                    seats=self.bank.seats,
                    versions=table,
                )
                self.standings.update(zip(table, after, strict=True))
                self.games += 1
                if observe is not None and self.games in CHECKPOINTS:
                    observe(self)
                if watch is not None and watch(self):
                    return
                if self.games >= until:
                    break
            self.tables += 1
            for bot in table:
                self.last_table[bot] = self.tables


def narrow_interval(s: ledger.Standing) -> elo.Interval | None:
    """The Elo interval of the performance error alone (the wobble of a K-factor
    rating left out), as the leaderboard showed it before the wobble term."""
    if s.games <= 0:
        return None
    p = min(max(s.score_sum / s.games, 0.1), 0.9)
    half = elo.Z_95 * elo.SCALE / (math.log(10.0) * math.sqrt(s.games * p * (1.0 - p)))
    return elo.Interval(low=s.elo - half, high=s.elo + half)


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b between two scorings of the same items.

    >>> kendall_tau([1, 2, 3], [10, 20, 30]), kendall_tau([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    concordant = discordant = ties_x = ties_y = 0
    for i, j in itertools.combinations(range(len(xs)), 2):
        dx, dy = xs[i] - xs[j], ys[i] - ys[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    pairs_x = concordant + discordant + ties_y
    pairs_y = concordant + discordant + ties_x
    if not pairs_x or not pairs_y:
        return 0.0
    return (concordant - discordant) / math.sqrt(pairs_x * pairs_y)


@dataclass
class Snapshot:
    """One run at one checkpoint: tau and top1 for the displayed order, and per
    interval kind how many bots' intervals held their aligned true strength."""

    tau: float
    top1: bool
    covered: dict[str, tuple[int, int, float]]  # interval kind -> (covered, bots, half-width)
    error: float  # root mean square of the point estimates' errors, aligned
    scale: float  # the point estimates' standard deviation over the truth's


def snapshot(ladder: Ladder, truth: Truth, interval_kinds: Sequence[str]) -> Snapshot:
    """Measure a ladder against the truth. The truth's mean is moved onto the mean of
    the ladder's point estimates (a rating scale has no fixed origin), then each
    rated bot's displayed interval either holds its true strength or not."""
    bots = sorted(ladder.standings)
    shown = [ladder.standings[b].elo for b in bots]
    true = [truth.strength[b] for b in bots]
    best = max(bots, key=lambda b: truth.strength[b])
    top = max(shown)
    top1 = ladder.standings[best].elo == top and shown.count(top) == 1
    rated = [b for b in bots if ladder.standings[b].games > 0]
    shift = statistics.fmean(ladder.point(b) for b in rated) - statistics.fmean(
        truth.strength[b] for b in rated
    )
    error = math.sqrt(
        statistics.fmean((ladder.point(b) - truth.strength[b] - shift) ** 2 for b in rated)
    )
    scale = statistics.pstdev(ladder.point(b) for b in rated) / statistics.pstdev(
        truth.strength[b] for b in rated
    )
    covered = {}
    for kind in interval_kinds:
        hits, widths = 0, 0.0
        for b in rated:
            interval = (
                narrow_interval(ladder.standings[b]) if kind == "narrow" else ladder.interval(b)
            )
            assert interval is not None
            hits += interval.low <= truth.strength[b] + shift <= interval.high
            widths += interval.half_width
        covered[kind] = (hits, len(rated), widths / len(rated))
    return Snapshot(
        tau=kendall_tau(shown, true),
        top1=top1,
        covered=covered,
        error=error,
        scale=scale,
    )


# --- the experiment ----------------------------------------------------------------

POLICIES = ("similar", "information")
# What is reported: a rating system and the interval it displays. `elo-narrow` is
# the same Elo ratings shown with the performance error alone.
VARIANTS = ("elo", "elo-narrow", "plackett_luce")
SIMULATED = {"elo": ("elo", "elo-narrow"), "plackett_luce": ("plackett_luce",)}
TRUTH_MODEL = {"elo": "bradley_terry", "plackett_luce": "plackett_luce"}
INTERVAL_KIND = {"elo": "displayed", "elo-narrow": "narrow", "plackett_luce": "displayed"}


@dataclass(frozen=True)
class Config:
    population: str
    seats: int
    variant: str
    policy: str

    @property
    def name(self) -> str:
        return f"{self.population}-{self.seats}seat-{self.variant}-{self.policy}"


class Row(NamedTuple):
    tau: float
    top1: bool
    covered: int
    bots: int
    error: float
    scale: float
    half_width: float


@dataclass
class Runs:
    """Every run of one configuration: its snapshots by checkpoint, run by run."""

    by_checkpoint: dict[int, list[Row]] = field(default_factory=dict)

    def add(self, checkpoint: int, shot: Snapshot, kind: str) -> None:
        covered, bots, half_width = shot.covered[kind]
        self.by_checkpoint.setdefault(checkpoint, []).append(
            Row(shot.tau, shot.top1, covered, bots, shot.error, shot.scale, half_width)
        )

    def taus(self, checkpoint: int) -> list[float]:
        return [row.tau for row in self.by_checkpoint[checkpoint]]

    def mean_tau(self, checkpoint: int) -> float:
        return statistics.fmean(self.taus(checkpoint))

    def tau_sd(self, checkpoint: int) -> float:
        taus = self.taus(checkpoint)
        return statistics.stdev(taus) if len(taus) > 1 else 0.0

    def tau_range(self, checkpoint: int) -> tuple[float, float]:
        """The 10th and 90th percentiles of tau over the runs."""
        deciles = statistics.quantiles(self.taus(checkpoint), n=10, method="inclusive")
        return deciles[0], deciles[-1]

    def top1(self, checkpoint: int) -> float:
        return statistics.fmean(row.top1 for row in self.by_checkpoint[checkpoint])

    def coverage(self, checkpoint: int) -> float:
        rows = self.by_checkpoint[checkpoint]
        return sum(r.covered for r in rows) / sum(r.bots for r in rows)

    def coverage_sd(self, checkpoint: int) -> float:
        shares = [r.covered / r.bots for r in self.by_checkpoint[checkpoint]]
        return statistics.stdev(shares) if len(shares) > 1 else 0.0

    @property
    def checkpoints(self) -> list[int]:
        return sorted(self.by_checkpoint)

    def error(self, checkpoint: int) -> float:
        """The point estimates' RMS error, pooled over the runs."""
        rows = self.by_checkpoint[checkpoint]
        return math.sqrt(statistics.fmean(r.error**2 for r in rows))

    def scale(self, checkpoint: int) -> float:
        return statistics.fmean(r.scale for r in self.by_checkpoint[checkpoint])

    def half_width(self, checkpoint: int) -> float:
        return statistics.fmean(r.half_width for r in self.by_checkpoint[checkpoint])

    def games_to_tau90(self) -> int | None:
        """The first checkpoint at which the mean tau over the runs is >= 0.9."""
        return next((c for c in self.checkpoints if self.mean_tau(c) >= 0.9), None)

    def median_run_games_to_tau90(self) -> float | None:
        """The median over runs of each run's first checkpoint with tau >= 0.9 (a run
        that never gets there counts as beyond the budget)."""
        firsts = []
        runs = len(self.by_checkpoint[self.checkpoints[0]])
        for run in range(runs):
            first = next(
                (c for c in self.checkpoints if self.by_checkpoint[c][run].tau >= 0.9), math.inf
            )
            firsts.append(first)
        median = statistics.median(firsts)
        return None if math.isinf(median) else median


def simulate(
    *,
    bank: Bank,
    truths: dict[str, Truth],
    system: str,
    policy: str,
    runs: int,
    budget: int,
    results: dict[Config, Runs],
) -> None:
    """`runs` ladders of the whole population from scratch, up to `budget` games."""
    truth = truths[TRUTH_MODEL[system]]
    variants = SIMULATED[system]
    kinds = sorted({INTERVAL_KIND[v] for v in variants})
    configs = {v: Config(bank.population, bank.seats, v, policy) for v in variants}
    for config in configs.values():
        results.setdefault(config, Runs())

    def observe(ladder: Ladder) -> None:
        shot = snapshot(ladder, truth, kinds)
        for variant, config in configs.items():
            results[config].add(ladder.games, shot, INTERVAL_KIND[variant])

    for run in range(runs):
        seed = hash_seed(bank.population, bank.seats, system, policy, run)
        ladder = Ladder(bank=bank, system=system, policy=policy, seed=seed)
        ladder.join(range(bank.bots))
        ladder.play(budget, observe)


@dataclass(frozen=True)
class WhatIf:
    """Plackett-Luce with other arithmetic than the platform's: another drift `tau`,
    another prior `sigma`, or openskill's default variance update (gamma = sigma / c)
    instead of the platform's whole-information one."""

    tau: float = plackett_luce.TAU
    sigma: float = plackett_luce.SIGMA
    whole_information: bool = True

    @property
    def label(self) -> str:
        gamma = "1" if self.whole_information else "sigma/c"
        return f"TAU {self.tau:.4f}, sigma {self.sigma:.2f}, gamma {gamma}"


PLATFORM = WhatIf()
# openskill's defaults, as the platform first rated with them (its TAU aside).
OPENSKILL_DEFAULTS = WhatIf(sigma=plackett_luce.MU / 3, whole_information=False)
# Other drifts (openskill's default, twice the platform's, none), then the prior and
# the variance update back to openskill's defaults, together and one at a time.
WHAT_IFS = (
    WhatIf(tau=25 / 300),
    WhatIf(tau=25 / 500),
    WhatIf(tau=0.0),
    OPENSKILL_DEFAULTS,
    WhatIf(sigma=plackett_luce.MU / 3),
    WhatIf(whole_information=False),
)


@contextlib.contextmanager
def plackett_luce_what_if(what_if: WhatIf) -> Iterator[None]:
    """The platform's Plackett-Luce update with other arithmetic. The update is
    still the platform's code; only the openskill model it calls and the prior it
    starts from are swapped, for the duration (the module reads both at every
    update)."""
    saved = plackett_luce._MODEL, plackett_luce.SIGMA
    options: dict[str, Any] = {"gamma": plackett_luce.full_information}
    if not what_if.whole_information:
        options = {}
    plackett_luce._MODEL = PlackettLuce(
        mu=plackett_luce.MU,
        sigma=what_if.sigma,
        beta=plackett_luce.BETA,
        tau=what_if.tau,
        **options,
    )
    plackett_luce.SIGMA = what_if.sigma
    try:
        yield
    finally:
        plackett_luce._MODEL, plackett_luce.SIGMA = saved


def hash_seed(*parts: object) -> int:
    """A run's seed from what it is (stable across processes, unlike hash())."""
    return int.from_bytes(json.dumps(parts).encode(), "big") % (2**61 - 1)


@dataclass(frozen=True)
class Drift:
    """How far the settled bots' mean point estimate moved (Elo-equivalents) over the
    second phase, with the two newcomers and, as a reference, without them."""

    with_newcomers: tuple[float, ...]
    without: tuple[float, ...]


def drift(*, bank: Bank, truths: dict[str, Truth], system: str, policy: str, runs: int) -> Drift:
    """Settle the six middle bots for DRIFT_GAMES games, then either add the
    strongest and the weakest (held out till then) or not, and play DRIFT_GAMES more."""
    order = truths[TRUTH_MODEL[system]].order
    settled, newcomers = order[1:-1], (order[0], order[-1])
    moved: dict[bool, list[float]] = {True: [], False: []}
    for run in range(runs):
        seed = hash_seed("drift", bank.population, bank.seats, system, policy, run)
        settling = Ladder(bank=bank, system=system, policy=policy, seed=seed)
        settling.join(settled)
        settling.play(DRIFT_GAMES)
        before = statistics.fmean(settling.point(b) for b in settled)
        for join in (True, False):
            ladder = settling.fork()
            if join:
                ladder.join(newcomers)
            ladder.play(2 * DRIFT_GAMES)
            moved[join].append(statistics.fmean(ladder.point(b) for b in settled) - before)
    return Drift(with_newcomers=tuple(moved[True]), without=tuple(moved[False]))


# A settled bot whose strength changes without a new version (its author's server
# side, a dependency, a time limit it starts to hit): on the spread population it
# plays as the bank's bot CHANGE_FROM (epsilon 0.60), then, after CHANGE_AFTER
# games, as CHANGE_TO (epsilon 0.15), which is kept out of the ladder. The rating
# sees the same bot and version throughout, so only the drift TAU (or Elo's fixed
# K) lets it move.
CHANGE_FROM, CHANGE_TO = 4, 1
CHANGE_AFTER = 3000
CHANGE_BUDGET = 6000  # ladder games after the change
FOLLOW_SHARE = 0.9


@dataclass(frozen=True)
class Follow:
    """How a ladder followed the changed bot, per run, in the bot's own games after
    the change (inf: not within CHANGE_BUDGET ladder games): until its point
    estimate, relative to the others' mean, had made FOLLOW_SHARE of the way from
    where it stood to its new strength; and until the displayed order first put it
    in its new place among the others."""

    jump: float  # its new strength less its old one (Elo-equivalents)
    to_estimate: tuple[float, ...]
    to_place: tuple[float, ...]
    games_per_ladder_game: float  # its share of the ladder's games after the change


def follow(*, bank: Bank, truths: dict[str, Truth], system: str, policy: str, runs: int) -> Follow:
    """Settle the ladder with the changing bot at its old strength, change it, and
    count the games the rating takes to follow."""
    truth = truths[TRUTH_MODEL[system]].strength
    others = [b for b in range(bank.bots) if b not in (CHANGE_FROM, CHANGE_TO)]
    runs_followed = []
    for run in range(runs):
        seed = hash_seed("follow", bank.population, bank.seats, system, policy, run)
        ladder = Ladder(bank=bank, system=system, policy=policy, seed=seed)
        ladder.join([CHANGE_FROM, *others])
        ladder.play(CHANGE_AFTER)
        runs_followed.append(_follow_run(ladder, truth=truth, others=others))
    return Follow(
        jump=truth[CHANGE_TO] - truth[CHANGE_FROM],
        to_estimate=tuple(estimate for estimate, _, _ in runs_followed),
        to_place=tuple(place for _, place, _ in runs_followed),
        games_per_ladder_game=statistics.fmean(share for _, _, share in runs_followed),
    )


def _follow_run(
    ladder: Ladder, *, truth: Sequence[float], others: Sequence[int]
) -> tuple[float, float, float]:
    """Change the settled ladder's CHANGE_FROM bot and play on: the bot's own games
    until its estimate follows and until it is shown in its place, and its share
    of the games played meanwhile."""
    changer = CHANGE_FROM
    true_target = truth[CHANGE_TO] - statistics.fmean(truth[b] for b in others)
    true_place = sum(truth[b] > truth[CHANGE_TO] for b in others)

    def relative() -> float:
        return ladder.point(changer) - statistics.fmean(ladder.point(b) for b in others)

    start, own_start, ladder_start = relative(), ladder.standings[changer].games, ladder.games
    ladder.plays_as[changer] = CHANGE_TO
    reached: dict[str, float] = {}

    def watch(ladder: Ladder) -> bool:
        own = ladder.standings[changer].games - own_start
        moved = relative() - start
        if "estimate" not in reached and moved >= FOLLOW_SHARE * (true_target - start):
            reached["estimate"] = own
        shown = ladder.standings[changer].elo
        if (
            "place" not in reached
            and sum(ladder.standings[b].elo > shown for b in others) == true_place
        ):
            reached["place"] = own
        return len(reached) == 2

    ladder.play(ladder_start + CHANGE_BUDGET, watch=watch)
    share = (ladder.standings[changer].games - own_start) / (ladder.games - ladder_start)
    return reached.get("estimate", math.inf), reached.get("place", math.inf), share


# --- what openskill's player ids cost ---------------------------------------------


def openskill_id_cost() -> list[str]:
    """openskill gives every rating object a uuid4 (one when the update builds the
    seats' ratings, one more when it copies them): how many one update draws, and
    their share of its time."""
    lines = []
    for seats in SEAT_COUNTS:
        skills = [(plackett_luce.MU + seat, 2.0) for seat in range(seats)]
        ranks = list(range(1, seats + 1))
        drawn = _ids_drawn(skills, ranks)

        def update(skills: list[tuple[float, float]] = skills, ranks: list[int] = ranks) -> None:
            plackett_luce.game_update(ratings=skills, ranks=ranks)

        per_update = min(timeit.repeat(update, number=2000, repeat=5)) / 2000
        per_id = min(timeit.repeat(lambda: uuid.uuid4().hex, number=20000, repeat=5)) / 20000
        lines.append(
            f"- {seats} seats: {drawn} uuid4 per game update; the update "
            f"{1e6 * per_update:.0f} µs, the ids {1e6 * drawn * per_id:.0f} µs of it "
            f"({drawn * per_id / per_update:.0%}), "
            f"{1e6 * GAMES_PER_MATCH * drawn * per_id:.0f} µs per {GAMES_PER_MATCH}-game match"
        )
    return lines


def _ids_drawn(skills: list[tuple[float, float]], ranks: list[int]) -> int:
    drawn = 0
    real = uuid.uuid4

    def counting() -> uuid.UUID:
        nonlocal drawn
        drawn += 1
        return real()

    with mock.patch("uuid.uuid4", counting):
        plackett_luce.game_update(ratings=skills, ranks=ranks)
    return drawn


# --- the report --------------------------------------------------------------------


def _pm(mean: float, sd: float, digits: int = 3) -> str:
    return f"{mean:.{digits}f} ± {sd:.{digits}f}"


def _games(value: float | None, budget: int) -> str:
    return f">{budget}" if value is None else f"{value:g}"


def truth_table(bank: Bank, truths: dict[str, Truth]) -> list[str]:
    """The measured strengths in epsilon order, with their confidence."""
    bt, pl = truths["bradley_terry"], truths["plackett_luce"]
    lines = [
        f"#### {bank.population}, {bank.seats} seats: {len(bank.tables)} tables x "
        f"{bank.deals} deals x {bank.seats} rotations, {len(bt.samples)} bootstrap resamples",
        "",
        "| bot | ε | Bradley-Terry (Elo) | P(above next) | Plackett-Luce (Elo-eq.) "
        "| P(above next) | score vs next |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for b in range(bank.bots):
        last = b == bank.bots - 1
        lines.append(
            f"| {b} | {bank.epsilons[b]:.2f} | {bt.strength[b]:+.0f} ± {bt.stderr(b):.0f} "
            f"| {'' if last else f'{bt.p_above(b, b + 1):.3f}'} "
            f"| {pl.strength[b]:+.0f} ± {pl.stderr(b):.0f} "
            f"| {'' if last else f'{pl.p_above(b, b + 1):.3f}'} "
            f"| {'' if last else f'{head_to_head(bank, b, b + 1):.3f}'} |"
        )
    for truth in (bt, pl):
        order = truth.order
        agrees = order == list(range(bank.bots))
        lines.append("")
        lines.append(
            f"{truth.model} order: {' > '.join(map(str, order))}"
            + (" (the epsilon order)" if agrees else " (differs from the epsilon order)")
        )
    return lines


def metric_table(
    title: str,
    configs: list[Config],
    results: dict[Config, Runs],
    cell: Callable[[Runs, int], str],
    checkpoints: Sequence[int],
) -> list[str]:
    lines = [
        title,
        "",
        "| configuration | " + " | ".join(str(c) for c in checkpoints) + " |",
        "|---|" + "---:|" * len(checkpoints),
    ]
    for config in configs:
        runs = results[config]
        lines.append(
            f"| {config.variant} / {config.policy} | "
            + " | ".join(cell(runs, c) for c in checkpoints)
            + " |"
        )
    return lines


def population_report(
    population: str, seats: int, results: dict[Config, Runs], budget: int
) -> list[str]:
    checkpoints = [c for c in SHOWN_CHECKPOINTS if c <= budget]
    every = [Config(population, seats, v, p) for v in VARIANTS for p in POLICIES]
    ordered = [c for c in every if c.variant != "elo-narrow"]
    runs = len(results[every[0]].by_checkpoint[checkpoints[0]])
    lines = [f"### {population}, {seats} seats ({runs} runs per configuration)", ""]
    lines += metric_table(
        "Kendall τ to the true order, mean ± sd over runs:",
        ordered,
        results,
        lambda r, c: _pm(r.mean_tau(c), r.tau_sd(c), 2),
        checkpoints,
    )
    lines += [""]
    lines += metric_table(
        "Best bot shown first, share of runs:",
        ordered,
        results,
        lambda r, c: f"{r.top1(c):.2f}",
        checkpoints,
    )
    lines += [""]
    lines += metric_table(
        "Displayed 95% intervals holding the measured strength, share of bots x runs "
        "(± sd of the runs' shares):",
        every,
        results,
        lambda r, c: _pm(r.coverage(c), r.coverage_sd(c), 2),
        checkpoints,
    )
    lines += [""]
    lines += metric_table(
        "RMS error of the point estimates against the aligned truth (Elo-equivalents):",
        ordered,
        results,
        lambda r, c: f"{r.error(c):.0f}",
        checkpoints,
    )
    lines += [""]
    lines += metric_table(
        "Spread of the point estimates over the truth's (standard deviations; above 1: "
        "they overshoot), mean over runs:",
        ordered,
        results,
        lambda r, c: f"{r.scale(c):.2f}",
        checkpoints,
    )
    lines += [""]
    lines += metric_table(
        "Mean half-width of the displayed 95% intervals (Elo-equivalents):",
        every,
        results,
        lambda r, c: f"{r.half_width(c):.0f}",
        checkpoints,
    )
    lines += [
        "",
        "Games until τ ≥ 0.9: the first checkpoint at which the mean τ is ≥ 0.9, and the "
        "median over runs of each run's first such checkpoint; τ's 10-90% range at "
        f"{budget} games:",
        "",
        "| configuration | mean τ ≥ 0.9 at | median run at | τ 10-90% at the end |",
        "|---|---:|---:|---:|",
    ]
    for config in ordered:
        r = results[config]
        low, high = r.tau_range(budget)
        lines.append(
            f"| {config.variant} / {config.policy} | {_games(r.games_to_tau90(), budget)} "
            f"| {_games(r.median_run_games_to_tau90(), budget)} | {low:.2f}-{high:.2f} |"
        )
    return lines


def drift_table(drifts: dict[Config, Drift]) -> list[str]:
    lines = [
        f"Drift: the six middle bots' mean point estimate (Elo-equivalents) over "
        f"{DRIFT_GAMES} more games after {DRIFT_GAMES} alone, mean ± sd over runs:",
        "",
        "| population | seats | system / policy | strongest and weakest join | nobody joins |",
        "|---|---:|---|---:|---:|",
    ]
    for config, d in drifts.items():
        lines.append(
            f"| {config.population} | {config.seats} | {config.variant} / {config.policy} "
            f"| {_pm(statistics.fmean(d.with_newcomers), _sd(d.with_newcomers), 1)} "
            f"| {_pm(statistics.fmean(d.without), _sd(d.without), 1)} |"
        )
    return lines


def _sd(values: Sequence[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def verdicts(results: dict[Config, Runs], drifts: dict[Config, Drift], budget: int) -> list[str]:
    """The targets, each checked against what was measured."""
    at = min(3000, budget)
    lines = [f"Targets (spread population, Plackett-Luce, information policy, {at} games):", ""]
    for seats in SEAT_COUNTS:
        r = results[Config("spread", seats, "plackett_luce", "information")]
        tau, top1, coverage = r.mean_tau(at), r.top1(at), r.coverage(at)
        lines.append(
            f"- {seats} seats: mean τ {tau:.3f} ({'met' if tau >= 0.99 else 'not met'}: ≥ 0.99);"
            f" best first in {top1:.0%} of runs ({'met' if top1 >= 0.97 else 'not met'}: ≥ 97%);"
            f" coverage {coverage:.1%} "
            f"({'met' if 0.90 <= coverage <= 0.98 else 'not met'}: 90-98%)"
        )
        d = drifts.get(Config("spread", seats, "plackett_luce", "information"))
        if d is not None:
            moved = statistics.fmean(d.with_newcomers)
            worst = max(abs(x) for x in d.with_newcomers)
            lines.append(
                f"- {seats} seats: newcomers move the pool by {moved:+.1f} Elo-eq. on average"
                f" (largest run {worst:.1f}; {'met' if abs(moved) < 10 else 'not met'}: < 10)"
            )
    lines += ["", "Games to mean τ ≥ 0.9 on the close population:", ""]
    for seats in SEAT_COUNTS:
        for variant in ("elo", "plackett_luce"):
            for policy in POLICIES:
                r = results[Config("close", seats, variant, policy)]
                lines.append(
                    f"- {seats} seats, {variant} / {policy}: {_games(r.games_to_tau90(), budget)}"
                )
    return lines


def chart(results: dict[Config, Runs], path: Path, budget: int) -> None:
    """Mean tau against games, one panel per population and table size, the 10-90%
    range of the runs shaded."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(
        len(POPULATIONS), len(SEAT_COUNTS), figsize=(11, 8), sharex=True, sharey=True
    )
    styles = {
        ("elo", "similar"): ("tab:orange", "--"),
        ("elo", "information"): ("tab:orange", "-"),
        ("plackett_luce", "similar"): ("tab:blue", "--"),
        ("plackett_luce", "information"): ("tab:blue", "-"),
    }
    for row, population in enumerate(POPULATIONS):
        for column, seats in enumerate(SEAT_COUNTS):
            ax = axes[row][column]
            for (variant, policy), (color, line) in styles.items():
                r = results[Config(population, seats, variant, policy)]
                xs = [c for c in r.checkpoints if c <= budget]
                ranges = [r.tau_range(c) for c in xs]
                ax.plot(
                    xs,
                    [r.mean_tau(c) for c in xs],
                    line,
                    color=color,
                    label=f"{variant} / {policy}",
                )
                ax.fill_between(
                    xs, [lo for lo, _ in ranges], [hi for _, hi in ranges], color=color, alpha=0.08
                )
            ax.axhline(0.9, color="grey", linewidth=0.6, linestyle=":")
            ax.axhline(0.99, color="grey", linewidth=0.6, linestyle=":")
            ax.set_xscale("log")
            ax.set_title(f"{population} population, {seats} seats")
            ax.set_ylim(0.0, 1.02)
            ax.grid(True, which="both", alpha=0.2)
            if row == len(POPULATIONS) - 1:
                ax.set_xlabel("games played")
            if column == 0:
                ax.set_ylabel("Kendall τ to the true order")
    axes[0][0].legend(loc="lower right", fontsize=8)
    figure.suptitle("Mean τ over runs (shaded: 10-90% of runs)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


# --- the command -------------------------------------------------------------------


@dataclass
class Measured:
    banks: dict[tuple[str, int], Bank] = field(default_factory=dict)
    truths: dict[tuple[str, int], dict[str, Truth]] = field(default_factory=dict)
    results: dict[Config, Runs] = field(default_factory=dict)
    drifts: dict[Config, Drift] = field(default_factory=dict)
    # Plackett-Luce with the information policy under other arithmetic.
    what_if: dict[WhatIf, dict[Config, Runs]] = field(default_factory=dict)
    # Following a bot whose strength changes, by seats: Elo, then Plackett-Luce's.
    follows: dict[int, dict[str, Follow]] = field(default_factory=dict)


def run_all(
    *, runs: int, budget: int, full: bool, resamples: int, log: Callable[[str], None]
) -> Measured:
    """Every configuration; in full, also the drift and the what-if drifts."""
    measured = Measured()
    for population in POPULATIONS:
        for seats in SEAT_COUNTS:
            bank = measured.banks[population, seats] = load_bank(population, seats)
            truths = measured.truths[population, seats] = {
                model: measure_truth(bank, model, resamples=resamples)
                for model in ("bradley_terry", "plackett_luce")
            }
            for system in SIMULATED:
                for policy in POLICIES:
                    started = time.monotonic()
                    simulate(
                        bank=bank,
                        truths=truths,
                        system=system,
                        policy=policy,
                        runs=runs,
                        budget=budget,
                        results=measured.results,
                    )
                    if full:
                        measured.drifts[Config(population, seats, system, policy)] = drift(
                            bank=bank, truths=truths, system=system, policy=policy, runs=runs
                        )
                    log(
                        f"{population} {seats} seats {system} {policy}: "
                        f"{time.monotonic() - started:.0f} s"
                    )
            for what_if in WHAT_IFS if full else ():
                started = time.monotonic()
                with plackett_luce_what_if(what_if):
                    simulate(
                        bank=bank,
                        truths=truths,
                        system="plackett_luce",
                        policy="information",
                        runs=runs,
                        budget=budget,
                        results=measured.what_if.setdefault(what_if, {}),
                    )
                log(
                    f"{population} {seats} seats {what_if.label}: "
                    f"{time.monotonic() - started:.0f} s"
                )
            if full and population == "spread":
                started = time.monotonic()
                measured.follows[seats] = follows(bank=bank, truths=truths, runs=runs)
                log(f"{population} {seats} seats follow: {time.monotonic() - started:.0f} s")
    return measured


def follows(*, bank: Bank, truths: dict[str, Truth], runs: int) -> dict[str, Follow]:
    """The changing bot followed by Elo and by Plackett-Luce at each drift and with
    openskill's defaults, all with the information policy."""
    measured = {
        "elo": follow(bank=bank, truths=truths, system="elo", policy="information", runs=runs)
    }
    for what_if in (PLATFORM, *(w for w in WHAT_IFS if w.tau != PLATFORM.tau), OPENSKILL_DEFAULTS):
        with plackett_luce_what_if(what_if):
            measured[f"plackett_luce, {what_if.label}"] = follow(
                bank=bank, truths=truths, system="plackett_luce", policy="information", runs=runs
            )
    return measured


def follow_table(measured: Measured) -> list[str]:
    before, after = (POPULATIONS["spread"][bot] for bot in (CHANGE_FROM, CHANGE_TO))
    lines = [
        f"A settled bot changes strength without a new version (ε {before:.2f} to "
        f"{after:.2f} after {CHANGE_AFTER} games, spread population, information policy);"
        " its own games until the rating follows, median over runs [10-90%], and the runs"
        f" that had not within {CHANGE_BUDGET} more ladder games:",
        "",
        f"| seats | rating | jump | estimate {FOLLOW_SHARE:.0%} of the way "
        "| shown in its new place | its share of the games |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for seats, by_rating in measured.follows.items():
        for rating, f in by_rating.items():
            lines.append(
                f"| {seats} | {rating} | {f.jump:+.0f} | {_follow_cell(f.to_estimate)} "
                f"| {_follow_cell(f.to_place)} | {f.games_per_ladder_game:.2f} |"
            )
    return lines


def _follow_cell(games: Sequence[float]) -> str:
    deciles = statistics.quantiles(games, n=10, method="inclusive")
    missed = sum(math.isinf(g) for g in games)
    low, median, high = (
        _games_or_never(g) for g in (deciles[0], statistics.median(games), deciles[-1])
    )
    cell = f"{median} [{low}-{high}]"
    return cell + (f", {missed} of {len(games)} not yet" if missed else "")


def _games_or_never(games: float) -> str:
    return "never" if math.isinf(games) else f"{games:.0f}"


def what_if_table(measured: Measured, budget: int) -> list[str]:
    at = [c for c in (3000, budget) if c <= budget]
    lines = [
        "Plackett-Luce with the information policy under other arithmetic (the platform's: "
        f"{PLATFORM.label}), same runs; figures at {' and '.join(map(str, at))} games:",
        "",
        "| population | seats | arithmetic | mean τ | best first | coverage | RMS error "
        "| mean τ ≥ 0.9 at | median run at |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for population, seats in measured.banks:
        key = Config(population, seats, "plackett_luce", "information")
        rows = {PLATFORM: measured.results[key]}
        rows.update((w, by_config[key]) for w, by_config in measured.what_if.items())
        for what_if, r in rows.items():
            lines.append(
                f"| {population} | {seats} | {what_if.label} "
                f"| {' / '.join(f'{r.mean_tau(c):.3f}' for c in at)} "
                f"| {' / '.join(f'{r.top1(c):.2f}' for c in at)} "
                f"| {' / '.join(f'{r.coverage(c):.2f}' for c in at)} "
                f"| {' / '.join(f'{r.error(c):.0f}' for c in at)} "
                f"| {_games(r.games_to_tau90(), budget)} "
                f"| {_games(r.median_run_games_to_tau90(), budget)} |"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-bank", action="store_true", help="play the outcome banks")
    parser.add_argument("--processes", type=int, default=2, help="for --build-bank")
    parser.add_argument("--bank-scale", type=float, default=1.0, help=argparse.SUPPRESS)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"fewer runs, {QUICK_BUDGET} games, one line per configuration",
    )
    parser.add_argument("--runs", type=int, help="runs per configuration (20 full, 10 quick)")
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap resamples")
    parser.add_argument("--chart", type=Path, help="write the tau chart (PNG) here")
    parser.add_argument(
        "--openskill-ids", action="store_true", help="only what openskill's uuid4 ids cost"
    )
    args = parser.parse_args(argv)
    if args.openskill_ids:
        print("\n".join(openskill_id_cost()))
        return
    if args.build_bank:
        build_banks(processes=args.processes, deal_scale=args.bank_scale)
        return
    if args.quick:
        measured = run_all(
            runs=args.runs or 10, budget=QUICK_BUDGET, full=False, resamples=0, log=print_nothing
        )
        for config, r in measured.results.items():
            print(
                f"ranking: {config.name} tau={r.mean_tau(QUICK_BUDGET):.3f} "
                f"top1={r.top1(QUICK_BUDGET):.2f} coverage={r.coverage(QUICK_BUDGET):.3f} "
                f"games_to_tau90={_games(r.games_to_tau90(), QUICK_BUDGET)}",
                flush=True,
            )
        return
    started = time.monotonic()
    measured = run_all(
        runs=args.runs or 20,
        budget=FULL_BUDGET,
        full=True,
        resamples=args.resamples,
        log=lambda line: print(f"<!-- {line} -->", file=sys.stderr, flush=True),
    )
    out = [f"Machine: {machine()}. Wall time {time.monotonic() - started:.0f} s.", ""]
    out += ["### The measured strengths", ""]
    for key, bank in measured.banks.items():
        out += [*truth_table(bank, measured.truths[key]), ""]
    for population, seats in measured.banks:
        out += [*population_report(population, seats, measured.results, FULL_BUDGET), ""]
    out += [*drift_table(measured.drifts), ""]
    out += [*what_if_table(measured, FULL_BUDGET), ""]
    out += [*follow_table(measured), ""]
    out += ["What openskill's player ids cost:", "", *openskill_id_cost(), ""]
    out += verdicts(measured.results, measured.drifts, FULL_BUDGET)
    print("\n".join(out))
    if args.chart:
        chart(measured.results, args.chart, FULL_BUDGET)


def print_nothing(line: str) -> None:
    pass


if __name__ == "__main__":
    main()
