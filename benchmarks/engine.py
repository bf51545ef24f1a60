"""Engine speed, side by side in one run (docs/benchmarks.md records the figures).

    python benchmarks/engine.py            # decisions/s and clone cost, 2 and 4 players
    python benchmarks/engine.py --bots 1000  # also the example bots' 2-player win rates

Decisions are counted, not games, since game lengths vary: (a) random play through
the state API (legal actions + apply, no messages), (b) play_game with full protocol
messages to in-process random bots, (c) the cost of GameState.clone(). OpenSpiel's
crazy_eights and RLCard's UNO are measured the same way when installed
(``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from engine import GameState


def timed(run: Callable[[], int], seconds: float) -> float:
    """Decisions per second of ``run`` (which returns how many it made), repeated
    for about ``seconds``."""
    count = 0
    start = time.perf_counter()
    while True:
        count += run()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def state_api(players: int, seconds: float) -> float:
    rng = random.Random(1)
    pick = rng.random
    seeds = iter(range(10**9))

    def one_game() -> int:
        state = GameState.new(players, seed=next(seeds))
        legal, apply = state.legal_actions, state.apply
        n = 0
        while state.phase != 2:
            actions = legal()
            apply(actions[int(pick() * len(actions))])
            n += 1
        return n

    return timed(one_game, seconds)


def random_message_bot(rng: random.Random) -> Callable[[dict[str, Any]], dict[str, Any]]:
    pick = rng.random

    def bot(message: dict[str, Any]) -> dict[str, Any]:
        kind = message["type"]
        if kind == "turn":
            legal = message["legal"]
            i = int(pick() * (len(legal) + 1))
            if i == len(legal):
                return {"action": "draw"}
            return {"action": "play", "card": legal[i], "suit": "SHDC"[i % 4], "call": True}
        if kind == "catch":
            return {"action": "catch"}
        return {}

    return bot


def protocol(players: int, seconds: float) -> float:
    rng = random.Random(2)
    bots = [random_message_bot(rng) for _ in range(players)]
    seeds = iter(range(10**9))

    def one_game() -> int:
        log = engine.play_game(bots, seed=next(seeds))
        # Every decision (turn or catch reply) logs at least one event; informational
        # events and reshuffles are not decisions.
        return sum(1 for e in log["events"] if e["kind"] not in _NOT_DECISIONS)

    return timed(one_game, seconds)


_NOT_DECISIONS = frozenset({"call", "skip", "reverse", "reshuffle", "fault"})


def clone_cost(players: int) -> float:
    """Mean µs per clone() over mid-game states."""
    rng = random.Random(3)
    states = []
    for seed in range(200):
        state = GameState.new(players, seed=seed)
        for _ in range(rng.randrange(5, 40)):
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    rounds = 100
    start = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            state.clone()
    return (time.perf_counter() - start) / (rounds * len(states)) * 1e6


def openspiel(players: int, seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(4)

    def one_game() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n

    return timed(one_game, seconds)


def rlcard_uno(seconds: float) -> float | None:
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 5})
    rng = random.Random(5)

    def one_game() -> int:
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
        return n

    return timed(one_game, seconds)


def win_rate(hero: str, rival: str, games: int) -> tuple[float, float]:
    """The hero's 2-player win rate with seats alternating, and a 95% Wilson half-width."""
    bots = engine.builtin_bots()
    wins = 0
    for game in range(games):
        seats = [bots[hero](game), bots[rival](game + 1)]
        hero_seat = game % 2
        if hero_seat:
            seats.reverse()
        wins += engine.play_game(seats, seed=10_000 + game)["result"]["winner"] == hero_seat
    p = wins / games
    return p, 1.96 * math.sqrt(p * (1 - p) / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--bots", type=int, default=0, help="also play N games per bot pair")
    args = parser.parse_args()
    print(f"engine benchmark, Python {sys.version.split()[0]}, {args.seconds:g}s each")
    print(f"{'':44} {'2 players':>12} {'4 players':>12}")
    rows: list[tuple[str, Callable[[int], float | None], str]] = [
        ("(a) state API, decisions/s", lambda p: state_api(p, args.seconds), "{:12,.0f}"),
        ("(b) play_game + messages, decisions/s", lambda p: protocol(p, args.seconds), "{:12,.0f}"),
        ("(c) clone(), µs", clone_cost, "{:12.2f}"),
        (
            "OpenSpiel crazy_eights (C++), decisions/s",
            lambda p: openspiel(p, args.seconds),
            "{:12,.0f}",
        ),
    ]
    for label, measure, shape in rows:
        cells = [measure(p) for p in (2, 4)]
        text = [shape.format(v) if v is not None else f"{'not installed':>12}" for v in cells]
        print(f"{label:44} {text[0]} {text[1]}")
    uno = rlcard_uno(args.seconds)
    shown = f"{uno:12,.0f}" if uno is not None else f"{'not installed':>12}"
    print(f"{'RLCard UNO env.step, decisions/s':44} {shown}")
    if args.bots:
        print(f"\nexample bots, {args.bots} two-player games each, seats alternating")
        for hero, rival in (("heuristic", "random"), ("heuristic", "greedy"), ("greedy", "random")):
            p, half = win_rate(hero, rival, args.bots)
            print(f"  {hero} vs {rival}: {p:.1%} ± {half:.1%}")


if __name__ == "__main__":
    main()
