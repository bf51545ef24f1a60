"""The seat contract of a person: a clock that draws instead of faulting, a
person who never moves or leaves, and a table's bound on its whole length."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import engine
from bots_examples import builtin_bots
from sandbox.human import LEFT, HumanSeat, reply_problem


class ScriptedDesk:
    """Answers from a script: a reply, None (the clock ran out) or LEFT."""

    def __init__(self, answers: Iterator[Any]) -> None:
        self.answers = answers
        self.told: list[str] = []
        self.asked: list[dict[str, Any]] = []

    def tell(self, message: dict[str, Any]) -> None:
        self.told.append(message["type"])

    def ask(self, message: dict[str, Any], timeout: float | None) -> Any:
        self.asked.append(message)
        return next(self.answers)


def heuristic() -> Any:
    return builtin_bots()["heuristic"](1)


def test_a_person_who_never_moves_draws_then_is_taken_as_gone() -> None:
    def never() -> Iterator[Any]:
        while True:
            yield None

    desk = ScriptedDesk(never())
    seat = HumanSeat(desk, move_seconds=0.01, patience=3)
    log = engine.play_game([seat, heuristic()], seed=4)
    events = log["events"]
    mine = [e for e in events if e.get("seat") == 0 and e["kind"] != "call"]
    # Two timeouts are draws (or passes), the third is the end of the seat's game.
    # (a draw under attack is a take; a catch not made, a pass)
    assert {e["kind"] for e in mine[:2]} <= {"draw", "take", "pass"}
    assert len(mine) == 3
    assert mine[-1]["kind"] == "fault"
    assert log["result"]["faults"] == [{"seat": 0, "reason": "timeout"}]
    assert log["result"]["winner"] == 1


def test_a_person_who_leaves_mid_game_ends_their_game_cleanly() -> None:
    def plays_then_leaves() -> Iterator[Any]:
        yield {"action": "draw"}
        yield {"action": "draw"}
        yield LEFT

    desk = ScriptedDesk(plays_then_leaves())
    seat = HumanSeat(desk, move_seconds=5)
    bots = [seat, heuristic(), builtin_bots()["random"](2)]
    started = time.monotonic()
    log = engine.play_game(bots, seed=9)
    assert time.monotonic() - started < 5  # nobody waited on the person who left
    assert log["result"]["faults"] == [{"seat": 0, "reason": "timeout"}]
    assert log["result"]["ranks"][0] == 3  # the others played on to the end
    assert list(engine.replay(log))  # a whole, replayable game


def test_the_table_s_deadline_bounds_a_person_who_answers_slowly() -> None:
    class Slow(ScriptedDesk):
        def ask(self, message: dict[str, Any], timeout: float | None) -> Any:
            assert timeout is not None
            assert timeout <= 0.2
            time.sleep(timeout)
            return None

    seat = HumanSeat(
        Slow(iter(())), move_seconds=60, patience=1000, deadline=time.monotonic() + 0.2
    )
    started = time.monotonic()
    log = engine.play_game([seat, heuristic()], seed=2)
    assert time.monotonic() - started < 1
    assert log["result"]["faults"] == [{"seat": 0, "reason": "timeout"}]


def test_a_move_the_rules_cannot_take_is_asked_again_not_faulted() -> None:
    turn = {"type": "turn", "legal": ["7S", "4S"], "hand": ["7S", "4S", "9H"]}
    assert reply_problem(turn, {"action": "play", "card": "9H"}) == "9H cannot be played now."
    assert reply_problem(turn, {"action": "play", "card": "7S"}) == "Name a suit for the 7S."
    assert reply_problem({"type": "catch"}, {"action": "maybe"}) == "Catch or pass."

    def fumbles() -> Iterator[Any]:
        yield {"action": "play", "card": "9H"}
        yield {"action": "play", "card": "4S", "call": True}

    desk = ScriptedDesk(fumbles())
    seat = HumanSeat(desk, move_seconds=5)
    seat({"type": "start", "seat": 0, "ruleset": engine.Ruleset.from_value(None).to_dict()})
    assert seat(turn) == {"action": "play", "card": "4S", "call": True}
    assert desk.asked[1]["problem"] == "9H cannot be played now."
