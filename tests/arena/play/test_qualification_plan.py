"""Qualification's plan and its reading of the logs, without a sandbox or a database.

The situation detectors are checked against what the engine really asked a seat:
a witness bot notes every attack, catch offer, reshuffle and adjudicated end it is
told of, and every play that leaves it one card. The plan is checked with a fake
sandbox whose games meet the situations a test scripts.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from arena.matches.defaults import KOREAN_RULESET
from arena.play import qualification
from arena.play.qualification import (
    ATTACK,
    CATCH,
    EXIT_AT_END,
    MAX_GAMES,
    ONE_CARD,
    RESHUFFLE,
    SITUATIONS,
    TIME_BUDGET_S,
    TURN_LIMIT,
    TURN_LIMIT_END,
    Run,
    Table,
    qualification_play,
    qualification_report,
    situations_met,
)
from bots_examples import builtin_bots
from sandbox.match import seating_for

EXAMPLES = builtin_bots()


class Witness:
    """Plays like `bot` and notes the situations the engine's messages put it in."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seen: set[str] = set()

    def __call__(self, message: dict[str, Any]) -> Any:
        kind = message["type"]
        if kind == "turn" and message["attack"]:
            self.seen.add(ATTACK)
        if kind == "catch":
            self.seen.add(CATCH)
        if any(event["kind"] == "reshuffle" for event in message.get("events", [])):
            self.seen.add(RESHUFFLE)
        if kind == "end" and message["adjudicated"]:
            self.seen.add(TURN_LIMIT_END)
        reply = self.bot(message)
        if kind == "turn" and reply.get("action") == "play" and len(message["hand"]) == 2:
            self.seen.add(ONE_CARD)
        return reply


def quitter(seed: int) -> Any:
    """Plays at random, then answers its sixth turn with nonsense (a fault): the
    game goes on without it."""
    bot = EXAMPLES["random"](seed)
    turns = 0

    def play(message: dict[str, Any]) -> Any:
        nonlocal turns
        turns += message["type"] == "turn"
        return {"action": "dance"} if turns == 6 else bot(message)

    return play


PLAYS = {**EXAMPLES, "quitter": quitter}

# (the witness's play, its seat, table size, ruleset, seed): short and long games,
# two and three seats, korean and pesten (no shield, other roles), and a seat that
# faults while the others play on to reshuffles and the turn limit.
CASES = [
    (candidate, seat, players, ruleset, seed)
    for candidate in ("heuristic", "random")
    for players in (2, 3)
    for seat in {0, players - 1}
    for ruleset in ({"turn_limit": 20}, {"turn_limit": 1000}, {"name": "pesten"})
    for seed in (0, 1)
] + [("quitter", 1, 3, {"turn_limit": 1000}, seed) for seed in (0, 1, 2)]


def witnessed_game(candidate: str, seat: int, players: int, ruleset: Any, seed: int):
    witness = Witness(PLAYS[candidate](seed))
    bots = [EXAMPLES["random"](seed + n) for n in range(1, players)]
    bots.insert(seat, witness)
    log = engine.play_game(bots, seed=seed, ruleset=ruleset)
    return log, [s for s in SITUATIONS if s in witness.seen]


def test_each_situation_is_read_from_the_log_as_the_engine_told_the_seat():
    present = dict.fromkeys(SITUATIONS, 0)
    for case in CASES:
        log, seen = witnessed_game(*case)
        assert situations_met(log, case[1], end_checked=True) == seen, case
        for situation in seen:
            present[situation] += 1
    # Every detector met logs that have its situation and logs that lack it.
    for situation, count in present.items():
        assert 0 < count < len(CASES), (situation, count)


def test_the_turn_limit_counts_only_when_the_end_was_checked():
    log, seen = witnessed_game("random", 0, 2, {"turn_limit": 20}, 0)
    assert log["result"]["adjudicated"]
    assert TURN_LIMIT_END in seen
    assert TURN_LIMIT_END in situations_met(log, 0, end_checked=True)
    assert TURN_LIMIT_END not in situations_met(log, 0, end_checked=False)


# -- the plan, with a fake sandbox ---------------------------------------------------


class FakeSandbox:
    """Plays a run as logs with nothing in them; `situations(run, game)` says what
    the candidate meets in each game, `fault(run, game)` whether it faults."""

    def __init__(self, situations=None, fault=None, clock=None, seconds_per_run=0.0):
        self.runs: list[Run] = []
        self.started: list[float] = []
        self.situations = situations or (lambda run, game: [])
        self.fault = fault or (lambda run, game: False)
        self.clock = clock
        self.seconds_per_run = seconds_per_run

    def __call__(self, run: Run) -> tuple[list[dict[str, Any]], str]:
        self.runs.append(run)
        if self.clock is not None:
            self.started.append(self.clock.now)
            self.clock.now += self.seconds_per_run
        logs = []
        for game in range(run.games):
            seating = seating_for(game, run.players)
            seat = seating.index(0)
            faults = [{"seat": seat, "reason": "crash"}] if self.fault(run, game) else []
            logs.append(
                {
                    "players": run.players,
                    "seating": seating,
                    "events": [],
                    "result": {
                        "winner": 0,
                        "ranks": list(range(1, run.players + 1)),
                        "adjudicated": False,
                        "faults": faults,
                    },
                    "timing": [{"startup_ms": 50.0 if game == 0 else None}] * run.players,
                    "met": self.situations(run, game),
                }
            )
        return logs, "fake"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def scripted_situations(monkeypatch):
    """The plan reads the situations the fake sandbox wrote into its logs (the
    detector tests above call the real one, imported before this patch)."""
    monkeypatch.setattr(qualification, "situations_met", lambda log, seat, end_checked: log["met"])


def play(sandbox: FakeSandbox, *, seats: int = 2, clock=None, others=()):
    return qualification_play(
        play=sandbox,
        seats=seats,
        ruleset=KOREAN_RULESET,
        seed=1234,
        first_games=2,
        others=others,
        **({"clock": clock} if clock else {}),
    )


def test_the_plan_opens_with_the_old_match_then_the_table_then_the_turn_limit():
    everything = FakeSandbox(situations=lambda run, game: list(SITUATIONS))
    done = play(everything, seats=4)
    first, table, short = everything.runs
    # The first run is the match qualification used to be: same seed, 2 seats.
    assert (first.players, first.games, first.seed, first.ruleset) == (2, 2, 1234, KOREAN_RULESET)
    assert (table.players, table.games, table.ruleset) == (4, 2, KOREAN_RULESET)
    assert (short.players, short.ruleset["turn_limit"]) == (2, TURN_LIMIT)
    assert short.note == f"turn limit {TURN_LIMIT}"
    assert {key: v for key, v in short.ruleset.items() if key != "turn_limit"} == {
        key: v for key, v in KOREAN_RULESET.items() if key != "turn_limit"
    }
    assert len({run.seed for run in everything.runs}) == 3
    assert len(done.games) == 6  # every situation met: nothing more is played


def test_a_two_seat_competition_plays_no_table_run():
    everything = FakeSandbox(situations=lambda run, game: list(SITUATIONS))
    play(everything, seats=2)
    assert [run.players for run in everything.runs] == [2, 2]


def test_every_other_competitions_ruleset_is_played_at_two_seats_and_its_table_size():
    everything = FakeSandbox(situations=lambda run, game: list(SITUATIONS))
    pesten = engine.PRESETS["pesten"].to_dict()
    done = play(
        everything,
        seats=4,
        others=[
            Table(name="Pesten, 2 seats", seats=2, ruleset=pesten),
            Table(name="Pesten, 3 seats", seats=3, ruleset=pesten),
            # The default's rules at its table size and at 2 are played already.
            Table(name="Korean, 4 seats again", seats=4, ruleset=KOREAN_RULESET),
            Table(name="Korean, 3 seats", seats=3, ruleset=KOREAN_RULESET),
        ],
    )
    played = [(run.players, run.ruleset["name"], run.note) for run in everything.runs]
    assert played[3:] == [
        (2, "pesten", "Pesten, 2 seats rules"),
        (3, "pesten", "Pesten, 3 seats rules"),
        (3, "korean", "Korean, 3 seats rules"),
    ]
    assert len({run.seed for run in everything.runs}) == len(everything.runs)
    assert len(done.games) == 2 * len(everything.runs)


def test_missing_situations_bring_more_games_until_they_come_up():
    # The catch offer comes up in the fourth run's second game.
    late_catch = FakeSandbox(
        situations=lambda run, game: (
            [ATTACK, ONE_CARD, RESHUFFLE, TURN_LIMIT_END]
            + ([CATCH] if len(late_catch.runs) == 4 and game == 1 else [])
        )
    )
    done = play(late_catch, seats=3)
    assert len(late_catch.runs) == 4
    assert late_catch.runs[3].players == 3  # extra games at the competition's table size
    assert done.met() == set(SITUATIONS)


def test_the_plan_stays_within_its_game_budget_and_aims_at_the_turn_limit():
    nothing = FakeSandbox()
    done = play(nothing)
    assert len(done.games) == MAX_GAMES
    report = qualification_report(done, seed=1234)
    assert report["situations"] == {"met": [], "not_met": list(SITUATIONS)}
    assert report["faults"] == []  # what never came up is not held against the bot
    # With the turn limit missing among others, short and full runs alternate.
    short = f"turn limit {TURN_LIMIT}"
    assert [run.note for run in nothing.runs] == [
        short if number % 2 else "" for number in range(MAX_GAMES // 2)
    ]


def test_the_plan_stays_within_its_time_budget():
    clock = Clock()
    slow = FakeSandbox(clock=clock, seconds_per_run=15.0)
    done = play(slow, clock=clock)
    # Every run started within the budget; the next one would not have.
    assert len(slow.runs) < MAX_GAMES // 2
    assert all(start - 1000.0 < TIME_BUDGET_S for start in slow.started)
    assert done.seconds >= TIME_BUDGET_S
    assert done.seconds < TIME_BUDGET_S + 15.0


def test_no_more_games_once_the_bot_has_a_fault():
    crashes_early = FakeSandbox(fault=lambda run, game: game == 0)
    done = play(crashes_early)
    assert len(crashes_early.runs) == 2  # the fixed runs, and nothing aimed
    assert [game.faults for game in done.games] == [["crash"], [], ["crash"], []]


def test_a_process_started_again_after_a_game_it_did_not_fault_lost_that_end():
    class LosesItsFirstEnd(FakeSandbox):
        def __call__(self, run):
            logs, backend = super().__call__(run)
            logs[1]["timing"] = [{"startup_ms": 40.0}] * run.players
            return logs, backend

    done = play(LosesItsFirstEnd())
    assert [game.faults for game in done.games] == [[EXIT_AT_END], [], [EXIT_AT_END], []]
    report = qualification_report(done, seed=1)
    assert report["faults"] == [EXIT_AT_END, EXIT_AT_END]
