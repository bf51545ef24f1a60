"""`onecard`: local matches, replays and a game in the terminal.

    onecard match random greedy mybot.py --games 100 --seed 1 [--backend bwrap]
    onecard replay replays/game-0001.json
    onecard play --against heuristic --against random
    onecard analyse replays/game-0001.json --seat 0 --iterations 1000
    onecard rerun https://host/matches/123/games/2/ --bot my_bot.py [--seat 1]

Built-in bots (random, greedy, heuristic, search) play in-process; bot files run as
processes through the sandbox. A person's own files default to the `subprocess`
backend, which isolates nothing: say `--backend bwrap` or `docker` for others' bots.

The command needs only the standard library (it is the starter kit's runner):
the docker backend, which needs the `docker` package, loads only when asked for.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import engine
from bots_examples import builtin_bots
from engine.text import describe_event, parse_choice, render_game, render_view
from sandbox.analysis import SearchSettings, decision_table, game_decisions
from sandbox.errors import InfrastructureError
from sandbox.human import LEFT, HumanSeat
from sandbox.inprocess import InProcessBot
from sandbox.limits import Limits
from sandbox.match import Player, SeatReport, play_match, start_players, stop_players
from sandbox.process import BotProcess
from sandbox.program import BotProgram
from sandbox.rerun import LogUnavailable, log_load, rerun_game, seat_for
from sandbox.seat import SandboxedBot

# sandbox.backends.select.BACKENDS, spelled out so that `--help` needs no docker.
BACKENDS = ("docker", "bwrap", "subprocess")
TURN_KINDS = frozenset({"play", "shield", "draw", "take"})


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
    """
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def results_table(reports: Sequence[SeatReport], logs: Sequence[dict[str, Any]]) -> str:
    width = max(len("bot"), *(len(r.name) for r in reports))
    lines = [f"{'bot':<{width}}  games  wins  win rate  95% interval    faults"]
    for report in reports:
        low, high = wilson_interval(report.wins, report.games)
        rate = report.wins / report.games if report.games else 0.0
        faults = ", ".join(f"{n} {reason}" for reason, n in sorted(report.faults.items())) or "-"
        lines.append(
            f"{report.name:<{width}}  {report.games:>5}  {report.wins:>4}  {rate:>8.1%}"
            f"  {low:>6.1%}-{high:<6.1%}  {faults}"
        )
    if logs:
        turns = [sum(e.get("kind") in TURN_KINDS for e in log["events"]) for log in logs]
        lines.append(f"mean game length: {sum(turns) / len(turns):.1f} turns")
    return "\n".join(lines)


class ProgressBar:
    """A one-line bar on stderr, redrawn after each game."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total = total
        self.stream = stream
        self.started = time.monotonic()
        self.drawn = 0.0

    def __call__(self, game: int, log: dict[str, Any]) -> None:
        done = game + 1
        now = time.monotonic()
        if done < self.total and now - self.drawn < 0.1:
            return  # a redraw per game would cost more than a fast game
        self.drawn = now
        filled = 30 * done // max(1, self.total)
        rate = done / max(1e-9, time.monotonic() - self.started)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} games {rate:.1f}/s"
        )
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


Launch = Callable[[BotProgram, Limits], BotProcess]


def backend_for_files(name: str) -> tuple[str, Launch]:
    """The backend bot files run with, and its launcher: `sandbox.backends.select`'s
    choice when the `docker` package is installed; without it (a bare Python with
    the starter kit) bwrap or subprocess, which need only the standard library."""
    try:
        from sandbox.backends import select
    except ModuleNotFoundError as missing:
        if (missing.name or "").partition(".")[0] not in ("docker", "requests"):
            raise
        return _backend_without_docker(name)
    chosen = select.resolve_backend(name, allow_unsandboxed=True)
    return chosen, select.launcher_for(chosen, image=None, runtime=None)


def _backend_without_docker(name: str) -> tuple[str, Launch]:
    from sandbox.backends.bwrap import bwrap_path, launch_bwrap
    from sandbox.backends.local import launch_subprocess

    if name == "docker":
        raise InfrastructureError("the docker backend needs the Python package docker")
    if name in ("auto", "bwrap") and bwrap_path() is not None:
        return "bwrap", launch_bwrap
    if name == "bwrap":
        raise InfrastructureError("bubblewrap (bwrap) is not installed")
    return "subprocess", launch_subprocess


def _players(
    specs: Sequence[str], *, backend: str, limits: Limits, seed: int, deadline: float
) -> tuple[list[Player], list[str], str | None]:
    """Players for bot arguments: built-in names in-process, anything else a bot file."""
    builtins = builtin_bots()
    backend_chosen: tuple[str, Launch] | None = None
    players: list[Player] = []
    names: list[str] = []
    for index, spec in enumerate(specs):
        if spec in builtins:
            players.append(InProcessBot(builtins[spec](seed + index)))
            names.append(spec)
            continue
        path = Path(spec)
        program = BotProgram(path.stem if path.is_file() else path.name, path)
        program.check()
        if backend_chosen is None:
            backend_chosen = backend_for_files(backend)
            if backend_chosen[0] == "subprocess":
                print(
                    "note: bot files run with the subprocess backend, NOT isolated from this "
                    "machine; use --backend bwrap or docker for bots you did not write",
                    file=sys.stderr,
                )
        launch = partial(backend_chosen[1], program, limits)
        players.append(SandboxedBot(launch, limits, match_deadline=deadline))
        names.append(program.name)
    return players, names, backend_chosen[0] if backend_chosen else None


def command_match(args: argparse.Namespace) -> int:
    limits = Limits()
    deadline = time.monotonic() + limits.match_s
    try:
        players, names, backend = _players(
            args.bots, backend=args.backend, limits=limits, seed=args.seed, deadline=deadline
        )
    except (ValueError, InfrastructureError) as error:
        print(f"onecard: {error}", file=sys.stderr)
        return 2
    names = _distinct(names)
    progress = ProgressBar(args.games)
    try:
        start_players(players, parallel=backend == "docker")
        logs, reports, stopped = play_match(
            players,
            names,
            games=args.games,
            seed=args.seed,
            ruleset=args.ruleset,
            deadline=deadline,
            progress=progress,
        )
    except (engine.RulesetError, InfrastructureError) as error:
        print(f"\nonecard: {error}", file=sys.stderr)
        return 2
    finally:
        stop_players(players)
    if args.replays:
        directory = Path(args.replays)
        directory.mkdir(parents=True, exist_ok=True)
        for number, log in enumerate(logs, 1):
            (directory / f"game-{number:04d}.json").write_text(json.dumps(log, indent=1))
    print(results_table(reports, logs))
    if stopped:
        print(f"stopped early: {stopped}")
    return 0


def _distinct(names: list[str]) -> list[str]:
    """`greedy greedy` becomes `greedy#1 greedy#2`, so the table can tell them apart."""
    if len(set(names)) == len(names):
        return names
    return [f"{name}#{i}" if names.count(name) > 1 else name for i, name in enumerate(names, 1)]


def command_replay(args: argparse.Namespace) -> int:
    try:
        log = json.loads(Path(args.file).read_text())
        for line in render_game(log):
            print(line)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"onecard: cannot replay {args.file}: {error}", file=sys.stderr)
        return 2
    return 0


def command_analyse(args: argparse.Namespace) -> int:
    """The search bot's verdict on every decision, each from its seat's own view."""
    try:
        log = json.loads(Path(args.file).read_text())
        search = SearchSettings(iterations=args.iterations, seed=args.seed)
        decisions = [
            decision
            for decision in game_decisions(log, settings=search)
            if args.seat is None or decision.seat == args.seat
        ]
        names = [str(name) for name in log.get("names") or range(int(log["players"]))]
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"onecard: cannot analyse {args.file}: {error}", file=sys.stderr)
        return 2
    for line in decision_table(decisions, names):
        print(line)
    return 0


class TerminalDesk:
    """A person at the keyboard, as a `sandbox.human.Desk`: the table printed, the
    moves typed. End of input (Ctrl-D) leaves the table."""

    def __init__(self, names: list[str], read: Callable[[str], str] = input) -> None:
        self.names = names
        self.read = read

    def _show_events(self, message: dict[str, Any]) -> None:
        for event in message.get("events", []):
            print(f"  {describe_event(event, self.names, ruleset=message.get('ruleset'))}")

    def tell(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        self._show_events(message)
        if kind == "start":
            print(f"you are {self.names[message['seat']]}; lead card {message['top']}")
        elif kind == "end":
            winner = message["winner"]
            print("you win!" if winner == message["seat"] else f"{self.names[winner]} wins")

    def ask(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any] | str | None:
        # The terminal has no clock: a person at their own keyboard takes their time.
        ruleset = message.get("ruleset")
        if "problem" not in message:
            self._show_events(message)
            print(render_view(message, self.names, ruleset=ruleset))
        else:
            print(f"  {message['problem']}")
        kind = message["type"]
        prompt = "catch? [y/N] " if kind == "catch" else "your move (number, card, or 0 to draw): "
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                print("\nbye")
                return LEFT
            reply = parse_choice(message, text, ruleset=ruleset)
            if reply is not None:
                return reply
            print("  not a move here; try again")


def terminal_seat(names: list[str], read: Callable[[str], str] = input) -> HumanSeat:
    """The person at the keyboard as a seat: the same contract a browser's seat
    uses (sandbox.human), without a clock."""
    return HumanSeat(TerminalDesk(names, read), move_seconds=None)


def command_play(args: argparse.Namespace) -> int:
    builtins = builtin_bots()
    opponents = args.against or ["heuristic"]
    unknown = [name for name in opponents if name not in builtins]
    if unknown:
        print(f"onecard: unknown bots {unknown}; built-ins: {sorted(builtins)}", file=sys.stderr)
        return 2
    names = _distinct(["you", *opponents])
    bots: list[Callable[[dict[str, Any]], Any]] = [terminal_seat(names)]
    bots += [builtins[name](args.seed + i) for i, name in enumerate(opponents)]
    log = engine.play_game(bots, seed=args.seed, ruleset=args.ruleset, names=names)
    for seat, place in sorted(enumerate(log["result"]["ranks"]), key=lambda pair: pair[1]):
        print(f"{place}. {names[seat]}")
    return 0


def command_rerun(args: argparse.Namespace) -> int:
    token = args.token or os.environ.get("ONECARD_TOKEN") or None
    try:
        log = log_load(args.source, token=token)
    except LogUnavailable as error:
        print(f"onecard: {error}", file=sys.stderr)
        return 2
    path = Path(args.bot)
    program = BotProgram(path.stem if path.is_file() else path.name, path)
    try:
        program.check()
    except ValueError as error:
        print(f"onecard: {error}", file=sys.stderr)
        return 2
    seat = args.seat if args.seat is not None else seat_for(log, program.name)
    players = log.get("players")
    if seat is None or type(players) is not int or not 0 <= seat < players:
        seats = ", ".join(f"{s} {name}" for s, name in enumerate(log.get("names") or []))
        print(
            f"onecard: say which seat your bot plays with --seat N (seats: {seats})",
            file=sys.stderr,
        )
        return 2
    try:
        backend, launch = backend_for_files(args.backend)
    except InfrastructureError as error:
        print(f"onecard: {error}", file=sys.stderr)
        return 2
    names = log.get("names") or []
    print(
        f"rerunning game {int(log.get('game') or 0) + 1} (seed {log.get('seed')},"
        f" {(log.get('ruleset') or {}).get('name', 'korean')}, {players} seats)"
        f" with {path} at seat {seat} ({names[seat] if seat < len(names) else '?'});"
        f" backend {backend}"
    )
    try:
        report = rerun_game(log, seat=seat, launch=partial(launch, program), opponent=args.opponent)
    except engine.ReplayError as error:
        print(f"onecard: the log does not replay: {error}", file=sys.stderr)
        return 2
    except InfrastructureError as error:
        print(f"onecard: {error}", file=sys.stderr)
        return 2
    if not report.clock_logged:
        print("note: the log keeps no time fields; time_ms and bank_ms are the defaults")
    if report.deviation is None:
        print(
            f"same game: your bot received the {report.same} messages it received in the log,"
            " byte for byte, and answered each as the logged bot did"
        )
    else:
        print(
            f"your bot received the same {report.same} messages as in the log, then answered"
            " otherwise:"
        )
        print(report.deviation.sentence())
        print(
            f"from there the opponents are the built-in {report.opponent} bot, and the game"
            " was played out locally"
        )
    place = report.result["ranks"][seat]
    print(f"the game ended with your bot in place {place} of {players}")
    return 0 if report.deviation is None else 1


def _positive(text: str) -> int:
    """An argument that counts something: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="onecard", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True)

    match = commands.add_parser("match", help="play a match between bots")
    match.add_argument("bots", nargs="+", help="built-in names or bot files/directories")
    match.add_argument(
        "--games",
        type=_positive,
        default=100,
        help="games to play (default 100); seats rotate, so a multiple of the bots is fairest",
    )
    match.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the deals' seed (default 0): the same seed deals the same cards",
    )
    match.add_argument("--ruleset", default=None, help="a preset name, e.g. korean")
    match.add_argument(
        "--backend",
        default="subprocess",
        choices=["auto", *BACKENDS],
        help="how bot files run (default: subprocess, not isolated)",
    )
    match.add_argument("--replays", default=None, help="write every game log to this folder")
    match.set_defaults(run=command_match)

    replay = commands.add_parser("replay", help="show a game log turn by turn")
    replay.add_argument("file")
    replay.set_defaults(run=command_replay)

    analyse = commands.add_parser(
        "analyse", help="what the search bot would have played at each decision of a game"
    )
    analyse.add_argument("file")
    analyse.add_argument("--seat", type=int, default=None, help="one seat (default: every seat)")
    analyse.add_argument(
        "--iterations", type=_positive, default=1000, help="playouts per decision (default 1000)"
    )
    analyse.add_argument("--seed", type=int, default=0, help="the search's seed")
    analyse.set_defaults(run=command_analyse)

    play = commands.add_parser("play", help="play against built-in bots in the terminal")
    play.add_argument("--against", action="append", help="a built-in bot (repeatable)")
    play.add_argument("--seed", type=int, default=None, help="the deal's seed (default: random)")
    play.add_argument("--ruleset", default=None, help="a preset name, e.g. korean")
    play.set_defaults(run=command_play)

    rerun = commands.add_parser(
        "rerun", help="replay a logged game with your bot and find where it answers otherwise"
    )
    rerun.add_argument("source", help="a downloaded log, or the site's address of the game")
    rerun.add_argument("--bot", required=True, help="your bot file (or folder with main.py)")
    rerun.add_argument("--seat", type=int, default=None, help="your bot's seat in the log")
    rerun.add_argument(
        "--token", default=None, help="your API token (or ONECARD_TOKEN), for private logs"
    )
    rerun.add_argument("--opponent", default="heuristic", choices=sorted(builtin_bots()))
    rerun.add_argument("--backend", default="subprocess", choices=["auto", *BACKENDS])
    rerun.set_defaults(run=command_rerun)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "seed", 0) is None:
        args.seed = int(time.time())
    if args.command == "match" and not engine.MIN_PLAYERS <= len(args.bots) <= engine.MAX_PLAYERS:
        print(
            f"onecard: a match has {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} bots",
            file=sys.stderr,
        )
        return 2
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
