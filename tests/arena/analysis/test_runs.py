"""The run: every decision analysed from its seat's messages, stored as it comes,
within the game's time budget; a failure says why (on the real database)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

import engine
from arena.analysis import services
from arena.analysis.models import Analysis, AnalysisDecision
from arena.analysis.services import analysis_request, analysis_run
from arena.matches.models import Match
from bots_examples import builtin_bots
from sandbox.analysis import reply_key
from tests.arena.factories import StaffFactory

from .games import example_log, stored_game

pytestmark = pytest.mark.django_db


def requested(log, django_capture_on_commit_callbacks) -> Analysis:
    game = stored_game(log, kind=Match.Kind.LADDER)
    with django_capture_on_commit_callbacks():
        return analysis_request(user=StaffFactory(), game=game)


def decision_exchanges(log):
    """(seat, exchange) of every turn and catch message of the game."""
    return [
        (seat, exchange)
        for seat in range(log["players"])
        for exchange in engine.seat_messages(log, seat)
        if exchange.message["type"] in ("turn", "catch")
    ]


def test_every_decision_is_analysed_and_stored_in_the_order_played(
    django_capture_on_commit_callbacks,
):
    log = example_log(players=3, seed=1)
    analysis = requested(log, django_capture_on_commit_callbacks)
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.DONE, analysis.error
    assert analysis.finished_at is not None
    assert analysis.error == ""
    decisions = list(analysis.decisions.order_by("number"))
    exchanges = decision_exchanges(log)
    assert len(decisions) == analysis.decisions_total == len(exchanges)
    assert [d.number for d in decisions] == list(range(len(decisions)))
    events = [d.event for d in decisions]
    assert events == sorted(events), "in the order the game was played"
    by_event = {exchange.event: (seat, exchange) for seat, exchange in exchanges}
    for decision in decisions:
        seat, exchange = by_event[decision.event]
        assert decision.seat == seat == log["events"][decision.event]["seat"]
        assert decision.kind == exchange.message["type"]
        assert decision.turn == exchange.message["turn"]
        assert decision.taken["action"] == exchange.reply["action"]
        assert "debug" not in decision.taken
        assert decision.candidates >= 1
        if decision.candidates == 1:  # forced: nothing to weigh, nothing lost
            assert decision.agrees
            assert (decision.preferred_win, decision.taken_win, decision.loss) == (None, None, 0)
            continue
        assert 0.0 <= decision.preferred_win <= 1.0
        assert decision.taken_win is not None, "every example bot's reply is legal"
        assert decision.loss == pytest.approx(decision.preferred_win - decision.taken_win)
        assert decision.loss >= 0.0, "the search's preferred move is its best"
        if decision.agrees:
            assert decision.loss == 0.0
    for decision in decisions:
        event = log["events"][decision.event]
        if event["kind"] == "play":
            assert decision.taken["card"] == event["card"]
        assert (decision.taken["action"] == "draw") == (event["kind"] in ("draw", "take"))


@pytest.mark.django_db(transaction=True)
def test_decisions_are_committed_as_they_are_computed(
    monkeypatch, django_capture_on_commit_callbacks
):
    # Committed for real here: the task is not sent to a broker nobody reads.
    monkeypatch.setattr(services, "task_queue_on_commit", lambda name, *ids: None)
    analysis = requested(example_log(players=2, seed=3), django_capture_on_commit_callbacks)
    seen: list[tuple[int, str, int, bool]] = []
    computing = services.game_decisions

    def watched(log, *, settings):
        for decision in computing(log, settings=settings):
            row = Analysis.objects.get(pk=analysis.pk)
            stored = AnalysisDecision.objects.filter(analysis=analysis).count()
            seen.append((decision.number, row.state, stored, connection.in_atomic_block))
            yield decision

    monkeypatch.setattr(services, "game_decisions", watched)
    analysis_run(analysis_id=analysis.pk)
    assert seen, "the game has decisions"
    # Before each decision is computed, every earlier one is stored, outside any
    # transaction: committed, so the viewer (another connection) sees it.
    assert [(number, stored) for number, _, stored, _ in seen] == [(n, n) for n, *_ in seen]
    assert {state for _, state, _, _ in seen} == {Analysis.State.RUNNING}
    assert not any(atomic for *_, atomic in seen)
    assert Analysis.objects.get(pk=analysis.pk).decisions_total == len(seen)


def test_a_game_over_its_time_budget_stops_and_says_so(
    settings, django_capture_on_commit_callbacks
):
    settings.ARENA_ANALYSIS_GAME_SECONDS = 0
    analysis = requested(example_log(players=2, seed=3), django_capture_on_commit_callbacks)
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.FAILED
    assert analysis.error == (
        f"Stopped at its time budget of 0 s, after 1 of {analysis.decisions_total} decisions."
    )
    assert analysis.decisions.count() == 1, "what was computed is kept"


def test_a_log_the_search_cannot_read_fails_with_the_reason(django_capture_on_commit_callbacks):
    log = example_log(players=2, seed=3)
    log["events"][2]["seat"] = 1 - log["events"][2]["seat"]  # not whose turn it was
    analysis = requested(log, django_capture_on_commit_callbacks)
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.FAILED
    assert analysis.error.startswith("Could not analyse decision 1: event 2: the log has ")


def test_an_analysis_asked_for_under_another_search_version_is_not_run(
    django_capture_on_commit_callbacks,
):
    analysis = requested(example_log(players=2, seed=3), django_capture_on_commit_callbacks)
    Analysis.objects.filter(pk=analysis.pk).update(
        settings={**analysis.settings, "version": "an-older-one"}
    )
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.FAILED
    assert "changed since this analysis was asked for" in analysis.error
    assert not analysis.decisions.exists()


def test_a_run_held_by_a_live_worker_or_finished_is_left_alone(django_capture_on_commit_callbacks):
    analysis = requested(example_log(players=2, seed=3), django_capture_on_commit_callbacks)
    later = timezone.now() + timedelta(minutes=5)
    Analysis.objects.filter(pk=analysis.pk).update(
        state=Analysis.State.RUNNING, attempts=1, lease_expires_at=later
    )
    analysis_run(analysis_id=analysis.pk)
    assert Analysis.objects.get(pk=analysis.pk).attempts == 1
    assert not AnalysisDecision.objects.exists()
    Analysis.objects.filter(pk=analysis.pk).update(state=Analysis.State.DONE)
    analysis_run(analysis_id=analysis.pk)
    analysis_run(analysis_id=analysis.pk + 1000)  # gone: nothing to do
    assert not AnalysisDecision.objects.exists()


def test_a_run_after_a_dead_worker_starts_over_and_gives_up_after_three(
    django_capture_on_commit_callbacks,
):
    analysis = requested(example_log(players=2, seed=3), django_capture_on_commit_callbacks)
    analysis_run(analysis_id=analysis.pk)
    first = list(analysis.decisions.values_list("preferred", "preferred_win", "taken_win"))
    expired = timezone.now() - timedelta(seconds=1)
    Analysis.objects.filter(pk=analysis.pk).update(
        state=Analysis.State.RUNNING, lease_expires_at=expired
    )
    AnalysisDecision.objects.filter(analysis=analysis, number__gt=3).delete()
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.DONE
    assert analysis.attempts == 2
    again = list(analysis.decisions.values_list("preferred", "preferred_win", "taken_win"))
    assert again == first, "the same settings give the same analysis"
    Analysis.objects.filter(pk=analysis.pk).update(
        state=Analysis.State.RUNNING, lease_expires_at=expired, attempts=services.MAX_ATTEMPTS
    )
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.FAILED
    assert analysis.error == "The analysis stopped 3 times without finishing."


def faulting(inner, *, after_turn: int):
    """Plays like `inner`, then answers a card it does not hold: an illegal fault."""

    def bot(message):
        if message["type"] == "turn" and message["turn"] >= after_turn:
            return {"action": "play", "card": "ZZ", "debug": "a private note"}
        return inner(message)

    return bot


def test_a_faulting_reply_is_a_decision_without_a_move(django_capture_on_commit_callbacks):
    factories = builtin_bots()
    bots = [factories["greedy"](1), faulting(factories["random"](2), after_turn=6)]
    bots.append(factories["heuristic"](3))
    log = engine.play_game(bots, seed=11)
    log["seating"], log["stderr"] = [0, 1, 2], [[], [], []]
    fault = next(i for i, e in enumerate(log["events"]) if e["kind"] == "fault")
    analysis = requested(log, django_capture_on_commit_callbacks)
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.DONE, analysis.error
    faulted = analysis.decisions.get(event=fault)
    assert faulted.seat == 1
    assert (faulted.taken, faulted.taken_win, faulted.loss, faulted.agrees) == (
        None,
        None,
        None,
        False,
    )
    assert faulted.preferred["action"] in ("play", "draw")
    assert not analysis.decisions.filter(seat=1, event__gt=fault).exists()


@pytest.mark.parametrize("ruleset", ["pesten", "finnish"])
def test_every_preset_is_analysed(ruleset, django_capture_on_commit_callbacks):
    """pesten's roles (a J is wild) and finnish's multiple plays (`cards`)."""
    factories = builtin_bots()
    bots = [factories["heuristic"](1), factories["random"](2), factories["greedy"](3)]
    log = engine.play_game(bots, seed=5, ruleset=ruleset)
    log["seating"], log["stderr"] = [0, 1, 2], [[], [], []]
    analysis = requested(log, django_capture_on_commit_callbacks)
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.DONE, analysis.error
    decisions = list(analysis.decisions.all())
    assert len(decisions) == analysis.decisions_total > 0
    # Every example bot's reply is a legal move the search weighed.
    assert all(d.taken is not None for d in decisions)


def test_hostile_replies_are_no_move_and_break_nothing():
    rules = engine.Ruleset.from_value("korean")
    hostile = [
        None, "draw", [], {}, {"action": "dance"}, {"action": "play"},
        {"action": "play", "card": "ZZ"}, {"action": "play", "card": ["7S"]},
        {"action": "play", "cards": "7S"}, {"action": "play", "cards": [{"x": 1}]},
        {"action": "play", "card": 7},
    ]  # fmt: skip
    for reply in hostile:
        assert reply_key(reply, hand_size=5, rules=rules) is None, reply
    # A suit counts for a wild card that is not the last one, and the call never.
    play = {"action": "play", "card": "7S", "suit": "H", "call": True}
    assert reply_key(play, hand_size=3, rules=rules) == ("play", ("7S",), "H")
    assert reply_key({**play, "call": False}, hand_size=3, rules=rules) == ("play", ("7S",), "H")
    assert reply_key(play, hand_size=1, rules=rules) == ("play", ("7S",), None)
    assert reply_key({**play, "card": "5S"}, hand_size=3, rules=rules) == ("play", ("5S",), None)
