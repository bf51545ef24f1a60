"""How strong the search bot is: it against the heuristic bot, over duplicate deals
with rotated seats, in process, with 95% intervals.

    nice -n 10 .venv/bin/python benchmarks/search_strength.py --games 200 --cpu-time
    .venv/bin/python benchmarks/search_strength.py --lines two --games 40 --iterations 200

Lines (``--lines``, comma-separated; all by default):

- ``two``: 2 seats, search against heuristic; the search bot's win rate.
- ``four``: 4 seats, one search bot against three heuristic ones (fair share 25%).
- ``reverse``: 4 seats, one heuristic bot against three search bots; the
  heuristic bot's win rate (fair share 25%).
- ``budgets``: the ``two`` line at 25, 50, 100 and 200 ms per move (``--budgets``),
  each budget after the first compared with the one before it, deal by deal.
- ``oracle``: the ``two`` line for a search bot that sees every hand and the pile
  order (it deals the true state instead of a sample): how far the game's luck
  lets any bot go against the heuristic one.
- ``versus``: 2 seats, the ISMCTS search (``search_ismcts.IsmctsPlayer``) against
  the flat one (PIMC, ``SearchPlayer``) at the same budget; ISMCTS's win rate,
  and a sentence on which method the interval says is stronger, if either.
- ``ismcts``: the ``two`` line for the ISMCTS search.

``--lines two,ismcts,versus`` compares the two methods in one run.

Duplicate deals: every deal is played once with the bot under test in each seat
of the table, so each line's games come in groups of as many games as seats, on
the same deck and seed. ``--cpu-time`` measures each move's budget on the bot's
own CPU time (``time.process_time``), so that a loaded machine slows the games but
does not weaken the bot; otherwise the budget is wall time, as in the sandbox.

``--record FILE`` keeps every finished deal as a JSON line and counts the deals
already there instead of playing them again, so a line of thousands of games can
be played in several sittings (or several processes, each on its own ``--seed``
range). A deal counts only under the same line, budget, clock, code of the bots
and engine and, for a time budget, the same CPU model: a change to any of them
starts the line afresh.

    nice -n 19 .venv/bin/python benchmarks/search_strength.py --lines two --games 2000 \
        --cpu-time --record benchmarks/data/search_strength.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from machine import cpu_identity

import engine
from bots_examples import heuristic_bot
from bots_examples.search_bot import SearchPlayer, _Beliefs
from bots_examples.search_ismcts import IsmctsPlayer
from engine.cards import CARD_OF, CODES, SUIT_INDEX
from engine.state import GameState
from engine.tables import CATCH, DRAW, PASS, play_action
from sandbox.cli import wilson_interval

LINES = ("two", "four", "reverse", "budgets", "oracle", "versus", "ismcts")
BUDGETS_MS = (25, 50, 100, 200)
Bot = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Line:
    label: str
    players: int
    # factory(seed) for the seat under test, and for every other seat
    tested: Callable[[int], Bot]
    other: Callable[[int], Bot]
    tested_name: str
    # A head-to-head of the two search methods: its interval gets a verdict.
    methods_compared: bool = False
    # A line of the budgets sweep: compared deal by deal with the budget before it.
    budget_ms: int | None = None


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    seconds: float = 0.0
    recorded: int = 0  # of the games, those counted from the record
    by_deal: dict[int, int] = field(default_factory=dict)  # deal seed -> tested wins


def code_digest() -> str:
    """What the bots play with: the engine and the example bots this run imported
    (``PYTHONPATH=CHECKOUT`` plays another checkout's)."""
    root = Path(engine.__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*root.glob("engine/*.py"), *root.glob("bots_examples/*.py")]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


class Record:
    """Finished deals as JSON lines, each under the settings it was played with."""

    def __init__(self, path: Path, settings: dict[str, Any]) -> None:
        self.path, self.settings = path, settings
        self.deals: dict[tuple[str, int], int] = {}  # (line, deal seed) -> tested wins
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            return
        for number, row in enumerate(path.read_text().splitlines(), start=1):
            try:
                entry = json.loads(row)
                if entry["settings"] == settings:
                    self.deals[(entry["line"], int(entry["deal"]))] = int(entry["wins"])
            except (ValueError, KeyError, TypeError):
                raise SystemExit(f"{path}:{number}: not a deal of this benchmark") from None

    def wins(self, line: Line, deal_seed: int) -> int | None:
        return self.deals.get((line.label, deal_seed))

    def add(self, line: Line, deal_seed: int, wins: int) -> None:
        entry = {"line": line.label, "deal": deal_seed, "wins": wins, "settings": self.settings}
        with self.path.open("a") as out:  # one write per deal: a crash loses one deal
            out.write(json.dumps(entry, sort_keys=True) + "\n")


def play_line(
    line: Line,
    *,
    games: int,
    seed: int,
    progress: bool,
    record: Record | None = None,
    count_only: bool = False,
) -> Tally:
    """``games`` games (rounded up to whole deals), the tested seat rotating round
    the table on each deal; deals in ``record`` are counted, not played. With
    ``count_only`` a deal missing from the record is an error: the record's code is
    not the code this run would play with."""
    tally = Tally()
    deals = -(-games // line.players)
    started = time.perf_counter()
    for deal in range(deals):
        deal_seed = seed + deal
        known = record.wins(line, deal_seed) if record is not None else None
        if known is not None:
            tally.games += line.players
            tally.wins += known
            tally.recorded += line.players
            tally.by_deal[deal_seed] = known
            continue
        if count_only:
            raise SystemExit(
                f"deal {deal_seed} of {line.label!r} is not in the record under that code:"
                " --code counts, it never plays"
            )
        wins_before = tally.wins
        deck = [CODES[c] for c in engine.state.deck_order(None, deal_seed)]
        for seat in range(line.players):
            bots = [
                line.tested(deal_seed * 8 + s) if s == seat else line.other(deal_seed * 8 + s)
                for s in range(line.players)
            ]
            log = engine.play_game(bots, seed=deal_seed, deck=deck)
            if log["result"]["faults"]:
                raise SystemExit(f"a fault in {line.label}: {log['result']['faults']}")
            tally.games += 1
            tally.wins += log["result"]["winner"] == seat
        tally.by_deal[deal_seed] = deal_wins = tally.wins - wins_before
        if record is not None:
            record.add(line, deal_seed, deal_wins)
        if progress:
            rate = tally.wins / tally.games
            print(
                f"\r{line.label}: {tally.wins} wins in {tally.games}"
                f"/{deals * line.players} games, {rate:.1%}",
                end="",
                file=sys.stderr,
                flush=True,
            )
    if progress:
        print(file=sys.stderr)
    tally.seconds = time.perf_counter() - started
    return tally


class Mirror:
    """The true game, followed from one seat's messages: the deck and seed are
    known, and every action shows in the events (a reshuffle comes from the seed)."""

    def __init__(self, players: int, rules: engine.Ruleset, deck: list[str], seed: int) -> None:
        self.state = GameState.new(players, rules, deck=deck, seed=seed)

    def follow(self, events: Sequence[dict[str, Any]]) -> None:
        state = self.state
        for index, event in enumerate(events):
            kind = event["kind"]
            if kind in ("play", "shield"):
                cards = [CARD_OF[c] for c in event.get("cards") or [event["card"]]]
                suit = SUIT_INDEX[event["suit"]] if event.get("suit") else -1
                called = index + 1 < len(events) and events[index + 1]["kind"] == "call"
                if len(cards) > 1:
                    state.play_cards(cards, suit, called)
                else:
                    state.apply(play_action(cards[0], suit, called))
            elif kind in ("draw", "take"):
                state.apply(DRAW)
            elif kind == "catch":
                state.apply(CATCH)
            elif kind == "pass":
                state.apply(PASS)
            elif kind == "fault":
                state.fault(event["seat"], event["reason"])


class OracleBeliefs(_Beliefs):
    """Beliefs that are the truth: every deal is the true state."""

    mirror: Mirror

    def dealer(self, message: dict[str, Any], rng: Any) -> Callable[[Any], GameState]:
        truth = self.mirror.state

        def deal(rng: Any) -> GameState:
            state = truth.clone()
            state.rng_state = rng.getrandbits(63)  # the future reshuffles are unknown
            return state

        return deal


class OraclePlayer(SearchPlayer):
    """The search bot dealing the true state: it sees every hand and the pile."""

    def __init__(self, *, deck: list[str], deal_seed: int, **options: Any) -> None:
        super().__init__(**options)
        self.deck = deck
        self.deal_seed = deal_seed
        self.mirror: Mirror | None = None

    def observe(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "start":
            beliefs = OracleBeliefs(message)
            self.mirror = Mirror(message["players"], beliefs.rules, self.deck, self.deal_seed)
            beliefs.mirror = self.mirror
            self.beliefs = beliefs
        elif kind in ("turn", "catch") and self.mirror is not None:
            self.mirror.follow(message.get("events") or [])
        elif kind == "end":
            self.beliefs = self.mirror = None


def oracle_line(label: str, *, budget: dict[str, Any]) -> Line:
    def tested(bot_seed: int) -> Bot:
        deal_seed = bot_seed // 8
        deck = [CODES[c] for c in engine.state.deck_order(None, deal_seed)]
        return OraclePlayer(deck=deck, deal_seed=deal_seed, seed=bot_seed, **budget)

    return Line(label, 2, tested, heuristic_bot.make_bot, "oracle search")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per line (whole deals)")
    parser.add_argument("--budget-ms", type=int, default=100, help="per move, but for budgets")
    parser.add_argument("--cpu-time", action="store_true", help="budgets in process CPU time")
    parser.add_argument("--iterations", type=int, help="playouts per move instead of a clock")
    parser.add_argument("--lines", default=",".join(LINES))
    parser.add_argument(
        "--budgets",
        default=",".join(map(str, BUDGETS_MS)),
        help="the budgets line's per-move budgets in ms, comma-separated",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument(
        "--record", type=Path, help="JSON lines of finished deals: kept, and counted again"
    )
    parser.add_argument(
        "--cpu",
        help="the CPU a time budget's deals are keyed under (default: this machine's model"
        " name, family, model and stepping); a recorded line's CPU counts its deals",
    )
    parser.add_argument(
        "--code",
        metavar="DIGEST",
        help="count the deals the record holds for this code of the bots and engine"
        " instead of this checkout's; plays nothing",
    )
    parser.add_argument(
        "--baseline-code",
        metavar="DIGEST",
        help="compare each line, deal by deal, with its deals in the record played by"
        " these bots and engine (another checkout's, run with PYTHONPATH=CHECKOUT)",
    )
    args = parser.parse_args(argv)
    if args.baseline_code and not args.record:
        parser.error("--baseline-code compares with a record: give --record too")
    if args.code and not args.record:
        parser.error("--code counts a record: give --record too")
    chosen = args.lines.split(",")
    unknown = set(chosen) - set(LINES)
    if unknown:
        parser.error(f"unknown lines {sorted(unknown)}; lines: {', '.join(LINES)}")
    clock = time.process_time if args.cpu_time else time.perf_counter

    def budget(ms: int) -> dict[str, Any]:
        if args.iterations:
            return {"iterations": args.iterations}
        return {"budget_ms": ms, "clock": clock}

    def search(ms: int) -> Callable[[int], Bot]:
        return lambda bot_seed: SearchPlayer(seed=bot_seed, **budget(ms))

    def ismcts(ms: int) -> Callable[[int], Bot]:
        return lambda bot_seed: IsmctsPlayer(seed=bot_seed, **budget(ms))

    def per_move(ms: int) -> str:
        return f"{args.iterations} playouts" if args.iterations else f"{ms} ms"

    heuristic = heuristic_bot.make_bot
    ms = args.budget_ms
    lines: list[Line] = []
    for name in chosen:
        if name == "two":
            lines.append(Line(f"2 seats, {per_move(ms)}", 2, search(ms), heuristic, "search"))
        elif name == "four":
            label = f"4 seats, 1 search v 3, {per_move(ms)}"
            lines.append(Line(label, 4, search(ms), heuristic, "search"))
        elif name == "reverse":
            lines.append(
                Line(
                    f"4 seats, 1 heuristic v 3, {per_move(ms)}",
                    4,
                    heuristic,
                    search(ms),
                    "heuristic",
                )
            )
        elif name == "budgets":
            lines += [
                Line(f"2 seats, {per_move(b)}", 2, search(b), heuristic, "search", budget_ms=b)
                for b in map(int, args.budgets.split(","))
            ]
        elif name == "oracle":
            lines.append(oracle_line(f"2 seats, oracle, {per_move(ms)}", budget=budget(ms)))
        elif name == "versus":
            label = f"2 seats, ISMCTS v PIMC, {per_move(ms)}"
            lines.append(Line(label, 2, ismcts(ms), search(ms), "ismcts", methods_compared=True))
        elif name == "ismcts":
            label = f"2 seats, ISMCTS, {per_move(ms)}"
            lines.append(Line(label, 2, ismcts(ms), heuristic, "ismcts"))
    clock_name = (
        f"{args.iterations} playouts per move"
        if args.iterations
        else "CPU time per move"
        if args.cpu_time
        else "wall time per move"
    )
    checkout_code = code_digest()
    settings: dict[str, Any] = {"clock": clock_name, "code": args.code or checkout_code}
    if not args.iterations:
        settings["cpu"] = args.cpu or cpu_identity()
    record = Record(args.record, settings) if args.record else None
    baseline = (
        Record(args.record, {**settings, "code": args.baseline_code})
        if args.record and args.baseline_code
        else None
    )
    print(f"{args.games} games per line over duplicate deals from seed {args.seed}; {clock_name}")
    from_record = f", from the record (this checkout's: {checkout_code})" if args.code else ""
    print(f"bots and engine: code {settings['code']}{from_record}")
    if record is not None:
        print(f"record {args.record}: {len(record.deals)} deals played before with these settings")
    print(
        f"{'line':<34} {'bot':<14} {'games':>5} {'wins':>5} {'win rate':>8}  95% interval"
        + ("  of them recorded" if record is not None else "")
    )
    previous: tuple[Line, Tally] | None = None
    for line in lines:
        tally = play_line(
            line,
            games=args.games,
            seed=args.seed,
            progress=not args.quiet,
            record=record,
            count_only=bool(args.code),
        )
        low, high = wilson_interval(tally.wins, tally.games)
        print(
            f"{line.label:<34} {line.tested_name:<14} {tally.games:>5} {tally.wins:>5}"
            f" {tally.wins / tally.games:>8.1%}  {low:.1%}-{high:.1%}"
            + (f"  {tally.recorded:>5}" if record is not None else ""),
            flush=True,
        )
        if line.methods_compared:
            print(f"  {verdict(low, high)}", flush=True)
        if line.budget_ms is not None and previous is not None:
            said = paired_difference(
                (previous[0].label, previous[1]), (line.label, tally), seats=line.players
            )
            print(f"  {said}", flush=True)
        if baseline is not None:
            base = Tally(
                by_deal={
                    deal: wins
                    for (label, deal), wins in baseline.deals.items()
                    if label == line.label
                }
            )
            before = f"code {args.baseline_code}"
            after = f"code {args.code}" if args.code else "this code"
            said = paired_difference((before, base), (after, tally), seats=line.players)
            print(f"  {said}", flush=True)
        previous = (line, tally) if line.budget_ms is not None else None
    return 0


def paired_difference(before: tuple[str, Tally], after: tuple[str, Tally], *, seats: int) -> str:
    """The win rate ``after`` adds over ``before`` (a budget over the one before
    it, a checkout's bots over another's), deal by deal on the deals both played
    (each deal's luck falls on both), with a normal 95% interval."""
    (first, one), (second, other) = before, after
    deals = sorted(set(one.by_deal) & set(other.by_deal))
    if len(deals) < 2:
        return f"{second} against {first}: too few common deals to compare"
    gains = [(other.by_deal[d] - one.by_deal[d]) / seats for d in deals]
    mean = statistics.fmean(gains)
    margin = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
    return (
        f"{second} against {first}, paired over {len(deals)} common deals:"
        f" {100 * mean:+.1f} points ({100 * (mean - margin):+.1f} to {100 * (mean + margin):+.1f})"
    )


def verdict(low: float, high: float) -> str:
    """What a head-to-head interval of ISMCTS's win rate says of the two methods."""
    if low > 0.5:
        return f"ISMCTS is stronger: its win rate's interval ({low:.1%}-{high:.1%}) is above 50%."
    if high < 0.5:
        return (
            f"PIMC is stronger: ISMCTS's win rate's interval ({low:.1%}-{high:.1%}) is below 50%."
        )
    return f"Neither is clearly stronger: the interval ({low:.1%}-{high:.1%}) holds 50%."


if __name__ == "__main__":
    sys.exit(main())
