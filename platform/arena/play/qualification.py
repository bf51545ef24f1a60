"""Qualifying a new version: a short plan of sandboxed matches against the example
random bot, read back for the situations the version met.

The version passes when it finishes every game without a fault (winning is not
required) and its process survives each `end` message that a later game can check.
The plan (docs/platform-core.md, Qualification):

1. ARENA_QUALIFICATION_GAMES games at 2 seats (one deal, the seats swapped) under
   the default competition's ruleset, from the qualification's own seed;
2. when that competition seats more than 2, two games at its table size, the
   other seats taken by random bots;
3. two games at 2 seats whose ruleset ends the game at turn TURN_LIMIT, so the
   game is adjudicated and the version takes the `end` of an undecided game;
4. for every other competition the version will play in (each ladder that is
   on), two games at 2 seats under its ruleset and two at its table size, each
   unless an earlier run already played that ruleset at that table size;
5. then, while a situation has not come up, two games more at a time (at the
   default competition's table size, or at the short turn limit when that is
   what is missing) until it has, or until MAX_GAMES games or TIME_BUDGET_S
   seconds.

A situation that never came up is reported as not met; it is not held against
the version, which could do nothing to bring it about.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse

import engine
from arena.bots import services
from arena.bots.models import BotVersion
from arena.matches.logs import fault_notes, game_summary, stderr_of_seat
from arena.matches.promotions import promotion_start
from arena.matches.selectors import competitions_entered
from arena.matches.services import qualification_games_replace
from engine.state import PHASE_CATCH, PHASE_TURN
from sandbox.errors import InfrastructureError
from sandbox.stderr import merge_dropped_markers

from .sandboxing import QUALIFIER_BOT, Entrant, run_sandboxed_match

CANDIDATE_INDEX = 0  # the version under test is the first bot of every match
_STDERR_LINES_KEPT = 50

# Small enough that most games reach it (the example heuristic bot wins before
# turn 20 in about one game in four), large enough for ten turns each. Random
# bots reach the default limit (1000) in most of their own games.
TURN_LIMIT = 20
# Games against the random bot are short for a strong bot (about 0.25 s each in
# bubblewrap), and it is rarely offered a catch at two seats (about one game in
# twenty): the example heuristic bot meets no catch offer in a third of its
# qualifications with 30 games, in half of them with 20.
MAX_GAMES = 30
# No further match starts after this much time, so that a slow bot's plan ends
# within a minute or so; the example bots need 1 to 10 s in all.
TIME_BUDGET_S = 40.0
GAMES_PER_RUN = 2  # one deal, the seats swapped (sandbox.run_match rotates them)

# -- the situations, read from the game logs -------------------------------------

ATTACK = "attack"  # asked to answer an attack pending on it
CATCH = "catch"  # offered to catch an opponent who did not call One Card
ONE_CARD = "one card"  # a play of its own left it one card: call, or be caught
RESHUFFLE = "reshuffle"  # the discard pile became the draw pile while it played
TURN_LIMIT_END = "turn limit"  # adjudicated at the limit, and it took the `end`
SITUATIONS = (ATTACK, CATCH, ONE_CARD, RESHUFFLE, TURN_LIMIT_END)

# Not an engine fault (PROTOCOL.md: a missing reply to `end` is none), but the
# bot's process did not last from one game of a match to the next.
EXIT_AT_END = "exit at end"


def situations_met(log: dict[str, Any], seat: int, *, end_checked: bool) -> list[str]:
    """The situations a seat met in a game, in the order of SITUATIONS.

    The log is replayed by the engine: the state after each event says whose
    decision comes next and under what (an attack, a catch offer), which is the
    next message the engine sends. `end_checked`: a later game of the same match
    showed the seat's process still running, so it took this game's `end`.
    """
    met: set[str] = set()
    for event, state in zip(log["events"], engine.replay(log), strict=True):
        kind = event["kind"]
        if kind == "reshuffle" and state.alive[seat]:
            met.add(RESHUFFLE)
        mine = event.get("seat") == seat
        if kind in ("play", "shield") and mine and len(state.hands[seat]) == 1:
            met.add(ONE_CARD)
        if state.over or state.deciding != seat:
            continue
        if state.phase == PHASE_CATCH:
            met.add(CATCH)
        elif state.phase == PHASE_TURN and state.atk_total:
            met.add(ATTACK)
    result = log["result"]
    faulted = {int(fault["seat"]) for fault in result["faults"]}
    if result["adjudicated"] and seat not in faulted and end_checked:
        met.add(TURN_LIMIT_END)
    return [situation for situation in SITUATIONS if situation in met]


def started_afresh(log: dict[str, Any], seat: int) -> bool:
    """Whether the sandbox started the seat's process for this game: true of a
    match's first game, and later only when the process ended after the previous
    game (a fault, or a crash or exit at its `end`)."""
    timing = log.get("timing") or []
    return seat < len(timing) and timing[seat].get("startup_ms") is not None


# -- the plan --------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One sandboxed match of the plan: the candidate and players - 1 random bots."""

    players: int
    games: int
    seed: int
    ruleset: dict[str, Any]
    note: str = ""  # how the ruleset differs from the competition's


@dataclass(frozen=True)
class PlayedGame:
    run: Run
    log: dict[str, Any]
    seat: int  # the candidate's
    faults: list[str]
    situations: list[str]


# run -> (its game logs, the sandbox backend that played them)
Play = Callable[[Run], tuple[list[dict[str, Any]], str]]


@dataclass(frozen=True)
class Table:
    """A competition the version will play in, as far as the plan cares."""

    name: str
    seats: int
    ruleset: dict[str, Any]


@dataclass
class Qualifying:
    games: list[PlayedGame]
    backends: list[str]
    seconds: float

    def met(self) -> set[str]:
        return {situation for game in self.games for situation in game.situations}


def run_seed(seed: int, run: int) -> int:
    """The seed of the plan's run number `run`: the qualification's own for the
    first, a stable function of it for the others (a report's seed replays them all).

    >>> run_seed(7, 0), run_seed(7, 1) == run_seed(7, 1) != run_seed(7, 2)
    (7, True)
    """
    if run == 0:
        return seed
    digest = hashlib.sha256(f"qualification:{seed}:{run}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def with_turn_limit(ruleset: dict[str, Any], limit: int) -> dict[str, Any]:
    """The ruleset with a lower turn limit, every option spelled out.

    >>> with_turn_limit({"name": "korean"}, 20)["turn_limit"]
    20
    """
    rules = engine.Ruleset.from_value(ruleset)
    return dataclasses.replace(rules, turn_limit=min(limit, rules.turn_limit)).to_dict()


def qualification_play(
    *,
    play: Play,
    seats: int,
    ruleset: dict[str, Any],
    seed: int,
    first_games: int,
    others: Sequence[Table] = (),
    clock: Callable[[], float] = time.monotonic,
) -> Qualifying:
    """Play the plan (the module's docstring): the fixed runs, under `ruleset` at
    `seats` (the default competition's) and then under each of the `others`, then
    runs aimed at the situations still missing, within MAX_GAMES games and
    TIME_BUDGET_S. Once the candidate has a fault the verdict is known, and no run
    is added."""
    started = clock()
    # The runs' shapes; each is seeded when it is played.
    full = Run(players=seats, games=GAMES_PER_RUN, seed=0, ruleset=ruleset)
    short_rules = with_turn_limit(ruleset, TURN_LIMIT)
    short = Run(
        players=2,
        games=GAMES_PER_RUN,
        seed=0,
        ruleset=short_rules,
        note=f"turn limit {short_rules['turn_limit']}",
    )
    fixed = [Run(players=2, games=first_games, seed=0, ruleset=ruleset)]
    if seats > 2:
        fixed.append(full)
    fixed.append(short)
    fixed += _other_rulesets(others, played=fixed)
    done = Qualifying(games=[], backends=[], seconds=0.0)
    previous: Run | None = None
    for number in itertools.count():
        if number < len(fixed):
            run = fixed[number]
        else:
            missing = [s for s in SITUATIONS if s not in done.met()]
            if (
                not missing
                or any(game.faults for game in done.games)
                or len(done.games) + GAMES_PER_RUN > MAX_GAMES
                or clock() - started >= TIME_BUDGET_S
            ):
                break
            # Short games meet the turn limit and little else: while other
            # situations are missing too, they alternate with full ones.
            aim_short = TURN_LIMIT_END in missing and (len(missing) == 1 or previous is not short)
            run = short if aim_short else full
        previous = run
        run = dataclasses.replace(run, seed=run_seed(seed, number))
        logs, backend = play(run)
        done.games.extend(_read_run(run, logs))
        done.backends.append(backend)
    done.seconds = clock() - started
    return done


def _other_rulesets(others: Sequence[Table], *, played: Sequence[Run]) -> list[Run]:
    """The runs that play each other competition's ruleset at 2 seats and at its
    table size, leaving out a ruleset and table size some run already plays."""
    seen = {(run.players, _canonical(run.ruleset)) for run in played}
    runs = []
    for table in others:
        for players in dict.fromkeys((2, table.seats)):
            key = (players, _canonical(table.ruleset))
            if key not in seen:
                seen.add(key)
                runs.append(
                    Run(
                        players=players,
                        games=GAMES_PER_RUN,
                        seed=0,
                        ruleset=table.ruleset,
                        note=f"{table.name} rules",
                    )
                )
    return runs


def _canonical(ruleset: dict[str, Any]) -> engine.Ruleset:
    return engine.Ruleset.from_value(ruleset)


def _read_run(run: Run, logs: list[dict[str, Any]]) -> Iterable[PlayedGame]:
    """The candidate's games of one run. The end of every game but the last is
    checked: the next game shows whether its process was still running."""
    seats = [game_summary(log).seating.index(CANDIDATE_INDEX) for log in logs]
    for number, log in enumerate(logs):
        seat = seats[number]
        summary = game_summary(log)
        faults = [f["reason"] for f in summary.faults if f["index"] == CANDIDATE_INDEX]
        end_checked = number + 1 < len(logs) and not faults
        if end_checked and started_afresh(logs[number + 1], seats[number + 1]):
            faults.append(EXIT_AT_END)
        situations = situations_met(log, seat, end_checked=end_checked)
        yield PlayedGame(run=run, log=log, seat=seat, faults=faults, situations=situations)


# -- the report and the service --------------------------------------------------


def qualification_report(qualifying: Qualifying, *, seed: int) -> dict[str, Any]:
    """What the owner sees (BotVersion.qualification): per game the table, the
    candidate's seat, place, faults, situations and stderr tail; the situations
    met and not met; the seed that replays the plan."""
    games = []
    for number, game in enumerate(qualifying.games):
        summary = game_summary(game.log)
        games.append(
            {
                "game": number,
                "players": game.run.players,
                "rules": game.run.note,
                "seat": game.seat,
                "rank": summary.ranks[CANDIDATE_INDEX],
                "turns": summary.turns,
                "faults": game.faults,
                "fault_notes": _candidate_fault_notes(game),
                "situations": game.situations,
                "stderr": merge_dropped_markers(stderr_of_seat(game.log, game.seat))[
                    -_STDERR_LINES_KEPT:
                ],
            }
        )
    met = qualifying.met()
    return {
        "seed": seed,
        "backend": ", ".join(dict.fromkeys(qualifying.backends)),
        "seconds": round(qualifying.seconds, 1),
        "games": games,
        "faults": [fault for game in games for fault in game["faults"]],
        "situations": {
            "met": [s for s in SITUATIONS if s in met],
            "not_met": [s for s in SITUATIONS if s not in met],
        },
    }


def _game_of(report: dict[str, Any], note: dict[str, Any]) -> int:
    return next(g["game"] for g in report["games"] if note in g["fault_notes"])


def _candidate_fault_notes(game: PlayedGame) -> list[dict[str, Any]]:
    """The candidate's faults in sentences, as its owner reads them, with the event
    the replay opens at; and the process that did not last to the next game."""
    notes = []
    note = fault_notes(game.log).get(game.seat)
    if note is not None:
        reason = next((f for f in game.faults if f != EXIT_AT_END), "fault")
        notes.append(
            {
                "reason": reason,
                "sentence": note["owner_sentence"],
                "event": note["event"],
                "turn": note["turn"],
            }
        )
    if EXIT_AT_END in game.faults:
        notes.append(
            {
                "reason": EXIT_AT_END,
                "sentence": "The bot's process ended after this game's end message; it must"
                " keep reading stdin, as the next game of a match comes on the same process.",
                "event": len(game.log["events"]) - 1,
                "turn": None,
            }
        )
    return notes


def bot_version_qualify(*, version_id: int, seed: int | None = None) -> BotVersion | None:
    """Run the qualification plan of a pending version and record the verdict.

    `seed` replays a qualification (its report keeps it); by default a new one.
    Raises sandbox.InfrastructureError (after putting the version back to pending)
    when the sandbox cannot run: that is never the bot's fault.
    """
    version = services.bot_version_qualification_start(version_id=version_id)
    if version is None:
        return None
    competition, *others = competitions_entered()
    seed = secrets.randbits(48) if seed is None else seed

    def play(run: Run) -> tuple[list[dict[str, Any]], str]:
        randoms = [
            Entrant(name="qualifier-random" + (f"-{n}" if n > 1 else ""), path=QUALIFIER_BOT)
            for n in range(1, run.players)
        ]
        result = run_sandboxed_match(
            entrants=[Entrant(name=version.bot.name, version=version), *randoms],
            games=run.games,
            seed=run.seed,
            ruleset=run.ruleset,
        )
        return result.games, result.backend

    try:
        qualifying = qualification_play(
            play=play,
            seats=competition.seats,
            ruleset=competition.ruleset,
            seed=seed,
            first_games=settings.ARENA_QUALIFICATION_GAMES,
            others=[Table(name=c.name, seats=c.seats, ruleset=c.ruleset) for c in others],
        )
    except InfrastructureError as error:
        services.bot_version_qualification_postpone(version_id=version_id, reason=str(error))
        raise
    report = qualification_report(qualifying, seed=seed)
    passed = not report["faults"] and len(qualifying.games) > 0
    qualification_games_replace(
        version_id=version_id, games=[(game.seat, game.log) for game in qualifying.games]
    )
    for game in report["games"]:
        replay = reverse("web:qualification-game-replay", args=[version_id, game["game"]])
        for note in game["fault_notes"]:
            note["replay_url"] = f"{replay}#frame={note['event'] + 1}"
    reason = ""
    if not passed:
        reason = "Qualification failed: " + (
            ", ".join(sorted(set(report["faults"]))) or "no game was played"
        )
        reason += "."
        first = next((n for g in report["games"] for n in g["fault_notes"]), None)
        if first is not None:
            reason += f" Game {_game_of(report, first) + 1}: {first['sentence']}"
        reason += " See the qualification games for the replay and the bot's stderr."
    version = services.bot_version_qualification_finish(
        version_id=version_id, passed=passed, reason=reason, report=report
    )
    if version is not None and version.status == BotVersion.Status.TESTING:
        promotion_start(candidate=version, competition=competition)
    return version
