"""`run_match`: several games between bot programs, each bot in its own sandbox.

Seats rotate over duplicate deals: with N bots, games come in blocks of N that
share one seed (so one deck and one reshuffle order) and the seating turns by one
each game, so no bot keeps a lucky seat or a lucky hand.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import engine
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.program import BotProgram
from sandbox.seat import GameRecord, SandboxedBot, latency_summary

Progress = Callable[[int, dict[str, Any]], None]
# (game number, seating, the log being written): see engine.play_game's `watch`.
Watch = Callable[[int, list[int], dict[str, Any]], None]


class Player(Protocol):
    """A seat-taker for a whole match: a sandboxed program or an in-process built-in."""

    infrastructure_error: InfrastructureError | None

    def ensure_running(self) -> None: ...
    def begin_game(self) -> None: ...
    def end_game(self, *, faulted: str | None, last: bool = False) -> GameRecord: ...
    def stop(self) -> None: ...
    def __call__(self, message: dict[str, Any]) -> Any: ...


@dataclass(frozen=True)
class Seated:
    """A player already at the table, not a program to start: a person's seat
    (sandbox.human.HumanSeat). It runs in the caller's process, unsandboxed, as
    the code that asks the person is the platform's own."""

    name: str
    player: Player


@dataclass
class SeatReport:
    """One bot's account of the match, in the order of `bots`."""

    name: str
    games: int = 0
    wins: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    startup_ms: list[float] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    def add(self, record: GameRecord, *, won: bool) -> None:
        self.games += 1
        self.wins += won
        if record.fault is not None:
            self.faults[record.fault] += 1
        if record.startup_ms is not None:
            self.startup_ms.append(record.startup_ms)
        self.latencies_ms.extend(record.latencies_ms)

    @property
    def latency(self) -> dict[str, float | None]:
        return latency_summary(self.latencies_ms)


@dataclass
class MatchResult:
    games: list[dict[str, Any]]
    seats: list[SeatReport]
    backend: str
    # Why the match stopped before `games` games (the match time cap), or None.
    stopped: str | None = None


def block_seed(seed: int, block: int) -> int:
    """The seed of a block of games: a stable function of the match seed and block number.

    >>> block_seed(7, 0) == block_seed(7, 0) != block_seed(7, 1)
    True
    """
    digest = hashlib.sha256(f"onecard-match:{seed}:{block}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seating_for(game: int, players: int) -> list[int]:
    """seat -> index of the bot in `bots`, turned by one each game of a block.

    >>> [seating_for(g, 3) for g in range(3)]
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    shift = game % players
    return [(seat + shift) % players for seat in range(players)]


def _start_fault_offset(events: list[dict[str, Any]], seat: int) -> int:
    """Events a seat never sees: faults at `start` of the seats asked before it."""
    offset = 0
    for event in events:
        if event.get("kind") != "fault":
            break
        if event.get("seat", seat) < seat:
            offset += 1
    return offset


def _annotate(log: dict[str, Any], seating: list[int], records: list[GameRecord]) -> None:
    log["seating"] = seating
    log["timing"] = [record.timing() for record in records]
    stderr = []
    for seat, record in enumerate(records):
        offset = _start_fault_offset(log["events"], seat)
        last = len(log["events"])
        stderr.append(
            [
                {
                    **entry,
                    "event": min(entry["event"] + offset, last),
                    "lines": list(entry["lines"]),
                }
                for entry in record.stderr
            ]
        )
    log["stderr"] = stderr
    for event in log["events"]:
        if event.get("kind") == "fault":
            detail = records[event["seat"]].fault_detail
            if detail is not None:
                event["detail"] = detail


def _in_parallel(calls: Sequence[Callable[[], Any]]) -> None:
    """Run the calls at once (bot start-ups overlap) and re-raise the first error."""
    with ThreadPoolExecutor(max_workers=max(1, len(calls))) as pool:
        for future in [pool.submit(call) for call in calls]:
            future.result()


def _check_table(bots: int) -> None:
    if not engine.MIN_PLAYERS <= bots <= engine.MAX_PLAYERS:
        raise ValueError(f"a match has {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} bots")


def play_match(
    players: Sequence[Player],
    names: Sequence[str],
    *,
    games: int,
    seed: int,
    ruleset: Any = None,
    deadline: float | None = None,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> tuple[list[dict[str, Any]], list[SeatReport], str | None]:
    """The games of a match between started players: (logs, reports, why it stopped early).

    The caller starts the players and stops them afterwards, whatever happens.
    `progress` hears of each game when it ends; `watch` sees each as it starts.
    """
    _check_table(len(players))
    if games < 0:
        raise ValueError("games cannot be negative")
    rules = engine.Ruleset.from_value(ruleset)
    count = len(players)
    reports = [SeatReport(name=name) for name in names]
    logs: list[dict[str, Any]] = []
    for game in range(games):
        if deadline is not None and time.monotonic() >= deadline:
            return logs, reports, "match time cap reached"
        seating = seating_for(game, count)
        for index in seating:
            players[index].begin_game()
        log = engine.play_game(
            [players[index] for index in seating],
            seed=block_seed(seed, game // count),
            ruleset=rules,
            names=[names[index] for index in seating],
            game=game,
            watch=None if watch is None else partial(watch, game, seating),
        )
        for player in players:
            if player.infrastructure_error is not None:
                raise player.infrastructure_error
        faults = {f["seat"]: f["reason"] for f in log["result"]["faults"]}
        records = [
            players[index].end_game(faulted=faults.get(seat), last=game == games - 1)
            for seat, index in enumerate(seating)
        ]
        _annotate(log, seating, records)
        for seat, index in enumerate(seating):
            reports[index].add(records[seat], won=log["result"]["winner"] == seat)
        logs.append(log)
        if progress is not None:
            progress(game, log)
    return logs, reports, None


def run_match(
    bots: Sequence[BotProgram | Seated],
    *,
    games: int,
    seed: int,
    ruleset: Any = None,
    backend: str = "auto",
    limits: Limits | None = None,
    allow_unsandboxed: bool = False,
    image: str | None = None,
    runtime: str | None = None,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> MatchResult:
    """Play `games` games between `bots` (engine.MIN_PLAYERS to engine.MAX_PLAYERS),
    one sandboxed process per bot (a `Seated` player takes its seat as it is).

    Raises InfrastructureError when the backend cannot run at all; a bot's own
    failure is a fault in the logs, never an exception here. Call it from a thread
    that lives as long as the match (see `start_players`).
    """
    # Here, not at the top: the docker backend needs the `docker` package, and the
    # local command (sandbox.cli) plays through `play_match` on the standard library.
    from sandbox.backends.select import launcher_for, resolve_backend

    _check_table(len(bots))
    for program in bots:
        if isinstance(program, BotProgram):
            program.check()
    limits = limits or Limits()
    engine.Ruleset.from_value(ruleset)  # a bad ruleset fails before any bot starts
    chosen = resolve_backend(backend, allow_unsandboxed=allow_unsandboxed)
    deadline = time.monotonic() + limits.match_s
    launch = launcher_for(chosen, image=image, runtime=runtime)
    players: list[Player] = [
        program.player
        if isinstance(program, Seated)
        else SandboxedBot(partial(launch, program, limits), limits, match_deadline=deadline)
        for program in bots
    ]
    try:
        start_players(players, parallel=chosen == "docker")
        logs, reports, stopped = play_match(
            players,
            [program.name for program in bots],
            games=games,
            seed=seed,
            ruleset=ruleset,
            deadline=deadline,
            progress=progress,
            watch=watch,
        )
    finally:
        stop_players(players)
    return MatchResult(games=logs, seats=reports, backend=chosen, stopped=stopped)


def start_players(players: Sequence[Player], *, parallel: bool) -> None:
    """Start every player; `parallel` only for containers.

    Local sandboxes are started on the calling thread: bwrap's --die-with-parent
    kills the sandbox when the *thread* that forked it exits, so a helper thread
    would take the bot down with it.
    """
    if parallel:
        # Container start-ups are mostly waiting on the daemon: overlap them.
        _in_parallel([player.ensure_running for player in players])
    else:
        for player in players:
            player.ensure_running()


def stop_players(players: Sequence[Player]) -> None:
    """Stop every player at once: each may wait out its exit grace."""
    _in_parallel([player.stop for player in players])
