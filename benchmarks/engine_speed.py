"""Our engine and OpenSpiel's crazy_eights, driven by the same loop in one run.

    .venv/bin/python benchmarks/engine_speed.py                        # about a minute
    .venv/bin/python benchmarks/engine_speed.py --rounds 20 --seconds 2  # steadier figures
    .venv/bin/python benchmarks/engine_speed.py --bots 1000  # also the example bots' win rates

OpenSpiel comes with the bench extra: ``pip install -e '.[bench]'``. Without it,
only our engine is measured.

The loop is the same on both sides. At each state: a chance node (OpenSpiel deals
and draws through them) gets an outcome sampled from its distribution, timed and
counted apart; any other state is a decision, a uniformly random legal action
applied. Our engine is driven through the state API a search bot uses
(``GameState.new``, ``legal_actions``, ``apply``, ``over``, ``clone``). It has no
chance nodes: it deals in ``GameState.new`` (timed as its deal, like OpenSpiel's
dealing chance nodes) and reshuffles inside ``apply`` (counted with the decisions).

Each round runs every measurement once, for 2 and 4 players, the engines' order
alternating from one round to the next, so that a shared machine's load falls on
both alike. Figures are medians over rounds; a ratio is the median of each round's
ratio. Every sentence printed is computed from this run's figures.
"""

from __future__ import annotations

import abc
import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from machine import machine

import engine
from engine import GameState

PLAYERS = (2, 4)
# Mid-game states for the clone measurements: enough to leave the CPU caches'
# favourite few behind, few enough to build in a blink.
POOL = 256


@dataclass
class Play:
    """One measurement of random play: counts and times of whole games."""

    games: int = 0
    decisions: int = 0
    chance: int = 0  # chance outcomes sampled (OpenSpiel's deal and draws)
    seconds: float = 0.0  # everything, from the new state to the terminal one
    setup_seconds: float = 0.0  # the deal: new state and chance nodes

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def us_per_decision(self) -> float:
        """Everything a random playout costs, per decision made."""
        return self.seconds / self.decisions * 1e6

    @property
    def us_per_decision_alone(self) -> float:
        """Decisions only: the deal and chance nodes left out."""
        return (self.seconds - self.setup_seconds) / self.decisions * 1e6

    @property
    def setup_us_per_game(self) -> float:
        return self.setup_seconds / self.games * 1e6


class Engine(abc.ABC):
    """One engine under the common loop."""

    name = ""

    @abc.abstractmethod
    def play(self, players: int, seconds: float) -> Play:
        """Random games until ``seconds`` have passed."""

    @abc.abstractmethod
    def pool(self, players: int) -> list[tuple[Any, int]]:
        """Mid-game states awaiting a decision, each with a legal action."""


class Ours(Engine):
    name = "ours"

    def __init__(self) -> None:
        self.pick = random.Random(1).random
        self.seeds = iter(range(10**9))

    def play(self, players: int, seconds: float) -> Play:
        pick, seeds, clock = self.pick, self.seeds, time.perf_counter
        done = Play()
        began = clock()
        while True:
            start = clock()
            state = GameState.new(players, "korean", seed=next(seeds))
            dealt = clock()
            legal, apply = state.legal_actions, state.apply
            n = 0
            while not state.over:
                actions = legal()
                apply(actions[int(pick() * len(actions))])
                n += 1
            end = clock()
            done.games += 1
            done.decisions += n
            done.seconds += end - start
            done.setup_seconds += dealt - start
            if end - began >= seconds:
                return done

    def pool(self, players: int) -> list[tuple[Any, int]]:
        rng = random.Random(3)
        found: list[tuple[Any, int]] = []
        seed = 0
        while len(found) < POOL:
            state = GameState.new(players, "korean", seed=seed)
            seed += 1
            for _ in range(rng.randrange(5, 40)):
                state.apply(rng.choice(state.legal_actions()))
                if state.over:
                    break
            if not state.over:
                found.append((state, rng.choice(state.legal_actions())))
        return found


def sample(outcomes: Sequence[tuple[int, float]], r: float) -> int:
    """The outcome at ``r`` (uniform in [0, 1)) on the cumulative distribution."""
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]


class OpenSpiel(Engine):
    name = "OpenSpiel"

    def __init__(self, pyspiel: Any) -> None:
        self.games = {p: pyspiel.load_game("crazy_eights", {"players": p}) for p in PLAYERS}
        self.pick = random.Random(2).random

    def play(self, players: int, seconds: float) -> Play:
        game, pick, clock = self.games[players], self.pick, time.perf_counter
        done = Play()
        began = clock()
        while True:
            start = clock()
            state = game.new_initial_state()
            is_chance, is_terminal = state.is_chance_node, state.is_terminal
            outcomes, legal, apply = state.chance_outcomes, state.legal_actions, state.apply_action
            n = chance = 0
            chance_s = 0.0
            while not is_terminal():
                if is_chance():
                    t = clock()
                    apply(sample(outcomes(), pick()))
                    chance_s += clock() - t
                    chance += 1
                else:
                    actions = legal()
                    apply(actions[int(pick() * len(actions))])
                    n += 1
            end = clock()
            done.games += 1
            done.decisions += n
            done.chance += chance
            done.seconds += end - start
            done.setup_seconds += chance_s
            if end - began >= seconds:
                return done

    def pool(self, players: int) -> list[tuple[Any, int]]:
        rng = random.Random(3)
        found: list[tuple[Any, int]] = []
        while len(found) < POOL:
            state = self.games[players].new_initial_state()
            decisions = rng.randrange(5, 40)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample(state.chance_outcomes(), rng.random()))
                elif decisions == 0:
                    found.append((state, rng.choice(state.legal_actions())))
                    break
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions -= 1
        return found


def clone_us(pool: list[tuple[Any, int]], seconds: float) -> float:
    """µs per clone() over the pool, repeated for about ``seconds``."""
    count, clock = 0, time.perf_counter
    began = clock()
    while True:
        for state, _ in pool:
            state.clone()
        count += len(pool)
        elapsed = clock() - began
        if elapsed >= seconds:
            return elapsed / count * 1e6


def clone_apply_us(pool: list[tuple[Any, int]], seconds: float) -> float:
    """µs per clone() and one apply of a legal action on the copy: a search step."""
    state_type = type(pool[0][0])
    apply = state_type.apply if state_type is GameState else state_type.apply_action
    count, clock = 0, time.perf_counter
    began = clock()
    while True:
        for state, action in pool:
            apply(state.clone(), action)
        count += len(pool)
        elapsed = clock() - began
        if elapsed >= seconds:
            return elapsed / count * 1e6


def protocol_decisions_per_s(players: int, seconds: float) -> float:
    """Our engine only: ``play_game`` with full messages to in-process random bots."""
    pick = random.Random(4).random
    answered = 0

    def bot(message: dict[str, Any]) -> dict[str, Any]:
        nonlocal answered
        kind = message["type"]
        if kind == "turn":
            answered += 1
            legal = message["legal"]
            i = int(pick() * (len(legal) + 1))
            if i == len(legal):
                return {"action": "draw"}
            return {"action": "play", "card": legal[i], "suit": "SHDC"[i % 4], "call": True}
        if kind == "catch":
            answered += 1
            return {"action": "catch"}
        return {}

    seed = 0
    began = time.perf_counter()
    while True:
        engine.play_game([bot] * players, seed=seed)
        seed += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return answered / elapsed


def win_rate(hero: str, rival: str, games: int) -> tuple[float, float]:
    """The hero's 2-player win rate with seats alternating, and a 95% half-width."""
    # Only --bots needs the example bots (whose registry lives with them, not in engine).
    from bots_examples import builtin_bots

    bots = builtin_bots()
    wins = 0
    for game in range(games):
        seats = [bots[hero](game), bots[rival](game + 1)]
        hero_seat = game % 2
        if hero_seat:
            seats.reverse()
        wins += engine.play_game(seats, seed=10_000 + game)["result"]["winner"] == hero_seat
    p = wins / games
    return p, 1.96 * math.sqrt(p * (1 - p) / games)


def ratio_word(ours: float, theirs: float, *, higher_is_better: bool) -> str:
    """'1.85x as fast' or '1.20x slower', from two figures of one kind."""
    speedup = ours / theirs if higher_is_better else theirs / ours
    if speedup >= 1:
        return f"{speedup:.2f}x as fast"
    return f"{1 / speedup:.2f}x slower"


@dataclass
class Results:
    """Every round's figures, by (engine name, players)."""

    plays: dict[tuple[str, int], list[Play]]
    clones: dict[tuple[str, int], list[float]]
    steps: dict[tuple[str, int], list[float]]
    protocol: dict[int, list[float]]


def measure(engines: list[Engine], rounds: int, seconds: float) -> Results:
    pools = {(e.name, p): e.pool(p) for e in engines for p in PLAYERS}
    results = Results({k: [] for k in pools}, {k: [] for k in pools}, {k: [] for k in pools}, {})
    results.protocol = {p: [] for p in PLAYERS}
    for number in range(rounds):
        order = engines if number % 2 == 0 else engines[::-1]
        for players in PLAYERS:
            for e in order:
                key = (e.name, players)
                results.plays[key].append(e.play(players, seconds))
                results.clones[key].append(clone_us(pools[key], seconds / 4))
                results.steps[key].append(clone_apply_us(pools[key], seconds / 4))
            results.protocol[players].append(protocol_decisions_per_s(players, seconds / 2))
    return results


# (label, figure, format, ratio shown): a ratio only where the two games' figures
# mean the same thing; games differ in length, so per game they do not.
PLAY_ROWS: list[tuple[str, Callable[[Play], float], str, bool]] = [
    ("games per second", lambda p: p.games_per_s, "{:,.0f}", False),
    ("decisions per second", lambda p: p.decisions_per_s, "{:,.0f}", True),
    ("µs per decision, all in", lambda p: p.us_per_decision, "{:.2f}", True),
    (
        "µs per decision, deal and chance left out",
        lambda p: p.us_per_decision_alone,
        "{:.2f}",
        True,
    ),
    ("deal and chance nodes, µs per game", lambda p: p.setup_us_per_game, "{:.1f}", False),
    ("decisions per game", lambda p: p.decisions / p.games, "{:.1f}", False),
    ("chance outcomes per game", lambda p: p.chance / p.games, "{:.1f}", False),
]


def table(results: Results, with_spiel: bool) -> list[str]:
    """One markdown row per figure and player count: ours, OpenSpiel's, their ratio."""
    lines = ["| measure | players | ours |" + (" OpenSpiel | ours / OpenSpiel |" * with_spiel)]
    lines.append("|---|---|---:|" + ("---:|---:|" * with_spiel))

    def row(
        label: str, players: int, ours: list[float], theirs: list[float], shape: str, compare: bool
    ) -> None:
        cells = [shape.format(statistics.median(ours))]
        if with_spiel:
            ratios = [a / b for a, b in zip(ours, theirs, strict=True) if b]
            ratio = f"{statistics.median(ratios):.2f}" if ratios and compare else ""
            cells += [shape.format(statistics.median(theirs)), ratio]
        lines.append(f"| {label} | {players} | " + " | ".join(cells) + " |")

    for label, figure, shape, compare in PLAY_ROWS:
        for players in PLAYERS:
            ours = [figure(p) for p in results.plays[("ours", players)]]
            theirs = [figure(p) for p in results.plays.get(("OpenSpiel", players), [])]
            row(label, players, ours, theirs, shape, compare)
    for label, samples in (
        ("µs per clone()", results.clones),
        ("µs per clone() + apply()", results.steps),
    ):
        for players in PLAYERS:
            row(
                label,
                players,
                samples[("ours", players)],
                samples.get(("OpenSpiel", players), []),
                "{:.2f}",
                True,
            )
    for players in PLAYERS:
        shown = f"{statistics.median(results.protocol[players]):,.0f}"
        lines.append(
            f"| `play_game` with messages, decisions per second | {players} | {shown} |"
            + (" | |" * with_spiel)
        )
    return lines


def sentences(results: Results) -> list[str]:
    """What the table says, one sentence per player count, from its own figures."""
    said = []
    for players in PLAYERS:
        ours, theirs = ("ours", players), ("OpenSpiel", players)
        ours_dps = statistics.median(p.decisions_per_s for p in results.plays[ours])
        spiel_dps = statistics.median(p.decisions_per_s for p in results.plays[theirs])
        ours_us = statistics.median(p.us_per_decision for p in results.plays[ours])
        spiel_us = statistics.median(p.us_per_decision for p in results.plays[theirs])
        ours_step = statistics.median(results.steps[ours])
        spiel_step = statistics.median(results.steps[theirs])
        said.append(
            f"- {players} players: our engine makes {ours_dps:,.0f} random decisions a second "
            f"and OpenSpiel {spiel_dps:,.0f} ({ours_us:.2f} against {spiel_us:.2f} µs per "
            f"decision, all in): ours is "
            f"{ratio_word(ours_dps, spiel_dps, higher_is_better=True)}. A search step (clone() "
            f"and one apply) costs {ours_step:.2f} µs on ours and {spiel_step:.2f} µs on "
            f"OpenSpiel's: ours is {ratio_word(ours_step, spiel_step, higher_is_better=False)}."
        )
    return said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="interleaved rounds (default 8)")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="seconds per play measurement (default 1)"
    )
    parser.add_argument("--bots", type=int, default=0, help="also play N games per bot pair")
    args = parser.parse_args()

    engines: list[Engine] = [Ours()]
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        spiel = "OpenSpiel is not installed (`pip install -e '.[bench]'`): our engine only."
    else:
        engines.append(OpenSpiel(pyspiel))
        spiel = (
            f"OpenSpiel {metadata.version('open_spiel')} `crazy_eights` (default parameters) "
            "against our engine's `korean` rules."
        )
    results = measure(engines, args.rounds, args.seconds)

    command = ".venv/bin/python benchmarks/engine_speed.py"
    if (args.rounds, args.seconds) != (8, 1.0):
        command += f" --rounds {args.rounds} --seconds {args.seconds:g}"
    print(f"`{command}`: {args.rounds} interleaved rounds, medians; {machine()}.")
    print(spiel)
    print()
    print("\n".join(table(results, len(engines) > 1)))
    print()
    print(
        "All in: from the new state to the terminal one, the deal and chance nodes "
        "included (OpenSpiel's chance outcomes are sampled in Python from "
        "`chance_outcomes()`). A ratio is the median of the rounds' ratios. The last rows "
        "are our engine alone: `play_game` sending full protocol messages to in-process "
        "random bots."
    )
    if len(engines) > 1:
        print()
        print("\n".join(sentences(results)))
    if args.bots:
        print(f"\nExample bots, {args.bots} two-player games each, seats alternating:")
        for hero, rival in (("heuristic", "random"), ("heuristic", "greedy"), ("greedy", "random")):
            p, half = win_rate(hero, rival, args.bots)
            print(f"- {hero} against {rival}: {p:.1%} ± {half:.1%}")


if __name__ == "__main__":
    main()
