"""`run_match`: several games between bot programs, each bot in its own sandbox.

Seats rotate over duplicate deals: with N bots, games come in blocks of N that
share one seed (so one deck and one reshuffle order) and the seating turns by one
each game, so no bot keeps a lucky seat or a lucky hand.
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import engine
from sandbox.backends.select import launcher_for, resolve_backend
from sandbox.limits import Limits
from sandbox.program import BotProgram
from sandbox.seat import GameRecord, SandboxedBot

Progress = Callable[[int, dict[str, Any]], None]


@dataclass
class SeatReport:
    """One bot's account of the match, in the order of `bots`."""

    name: str
    games: int = 0
    wins: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    startup_ms: list[float] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def latency(self) -> dict[str, float | None]:
        lat = sorted(self.latencies_ms)
        if not lat:
            return {"mean_ms": None, "p50_ms": None, "p95_ms": None, "max_ms": None}
        return {
            "mean_ms": statistics.fmean(lat),
            "p50_ms": lat[len(lat) // 2],
            "p95_ms": lat[min(len(lat) - 1, int(len(lat) * 0.95))],
            "max_ms": lat[-1],
        }


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


def _in_parallel(calls: Sequence[Callable[[], Any]]) -> None:
    """Run the calls at once (bot start-ups overlap) and re-raise the first error."""
    with ThreadPoolExecutor(max_workers=max(1, len(calls))) as pool:
        for future in [pool.submit(call) for call in calls]:
            future.result()


def run_match(
    bots: list[BotProgram],
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
) -> MatchResult:
    """Play `games` games between `bots` (2 to 8), one sandboxed process per bot.

    Raises InfrastructureError when the backend cannot run at all; a bot's own
    failure is a fault in the logs, never an exception here.
    """
    if not 2 <= len(bots) <= 8:
        raise ValueError("a match has 2 to 8 bots")
    if games < 0:
        raise ValueError("games cannot be negative")
    for program in bots:
        program.check()
    limits = limits or Limits()
    rules = engine.Ruleset.from_value(ruleset)
    chosen = resolve_backend(backend, allow_unsandboxed=allow_unsandboxed)
    match_deadline = time.monotonic() + limits.match_s
    players = len(bots)
    seats = [
        SandboxedBot(
            partial(launcher_for(chosen, image=image, runtime=runtime), program, limits),
            limits,
            match_deadline=match_deadline,
        )
        for program in bots
    ]
    reports = [SeatReport(name=program.name) for program in bots]
    logs: list[dict[str, Any]] = []
    stopped = None
    try:
        if chosen == "docker":
            # Container start-ups are mostly waiting on the daemon: overlap them.
            _in_parallel([seat.ensure_running for seat in seats])
        else:
            # Never from a helper thread: bwrap's --die-with-parent kills the sandbox
            # when the *thread* that forked it exits, so local bots are started here,
            # on the thread that plays the whole match.
            for sandboxed in seats:
                sandboxed.ensure_running()
        for game in range(games):
            if time.monotonic() >= match_deadline:
                stopped = "match time cap reached"
                break
            seating = seating_for(game, players)
            for index in seating:
                seats[index].begin_game()
            log = engine.play_game(
                [seats[index] for index in seating],
                seed=block_seed(seed, game // players),
                ruleset=rules,
                names=[bots[index].name for index in seating],
                game=game,
            )
            for seat_bot in seats:
                if seat_bot.infrastructure_error is not None:
                    raise seat_bot.infrastructure_error
            faults = {f["seat"]: f["reason"] for f in log["result"]["faults"]}
            records = [
                seats[index].end_game(faulted=faults.get(seat), last=game == games - 1)
                for seat, index in enumerate(seating)
            ]
            _annotate(log, seating, records)
            for seat, index in enumerate(seating):
                report, record = reports[index], records[seat]
                report.games += 1
                report.wins += log["result"]["winner"] == seat
                if record.fault is not None:
                    report.faults[record.fault] += 1
                if record.startup_ms is not None:
                    report.startup_ms.append(record.startup_ms)
                report.latencies_ms.extend(record.latencies_ms)
            logs.append(log)
            if progress is not None:
                progress(game, log)
    finally:
        _in_parallel([seat.stop for seat in seats])
    return MatchResult(games=logs, seats=reports, backend=chosen, stopped=stopped)
