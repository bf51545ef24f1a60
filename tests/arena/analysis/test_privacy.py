"""A seat's analysis uses only what that seat could see: run again on the log with
every card hidden from it replaced, it is the same, decision for decision."""

from __future__ import annotations

import pytest

import engine
from arena.analysis.models import Analysis
from arena.analysis.services import analysis_request, analysis_run
from arena.matches.models import Match
from tests.arena.factories import StaffFactory

from .games import example_log, stored_game
from .hidden import cards_seen_by, log_with_hidden_cards_replaced

pytestmark = pytest.mark.django_db

FIELDS = (
    "number", "seat", "event", "turn", "kind", "under_attack", "taken", "taken_win",
    "preferred", "preferred_win", "loss", "agrees", "candidates",
)  # fmt: skip


def analysed(log, staff, capture) -> dict[int, list[tuple]]:
    """Run an analysis of the log; each seat's decisions, every stored field."""
    game = stored_game(log, kind=Match.Kind.LADDER)
    with capture():
        analysis = analysis_request(user=staff, game=game)
    analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.DONE, analysis.error
    by_seat: dict[int, list[tuple]] = {seat: [] for seat in range(log["players"])}
    for row in analysis.decisions.order_by("number").values_list(*FIELDS):
        by_seat[row[1]].append(row)
    return by_seat


def test_a_seats_analysis_is_the_same_when_the_cards_it_never_saw_are_others(
    django_capture_on_commit_callbacks,
):
    log = example_log(players=3, seed=1)
    staff = StaffFactory()
    original = analysed(log, staff, django_capture_on_commit_callbacks)
    for seat in range(log["players"]):
        replaced = log_with_hidden_cards_replaced(log, seat, seed=seat)
        list(engine.replay(replaced))  # still a game the rules allow
        unseen = [c for c in log["deck"] if c not in cards_seen_by(log, seat)]
        moved = {a for a, b in zip(log["deck"], replaced["deck"], strict=True) if a != b}
        assert moved == set(unseen), "every card the seat never saw is another card"
        again = analysed(replaced, staff, django_capture_on_commit_callbacks)
        assert again[seat] == original[seat], f"seat {seat}'s analysis changed"
        # The replacement changed the game for the seats that held those cards:
        # the check is one that a leak would fail.
        others = [s for s in range(log["players"]) if s != seat]
        assert any(again[s] != original[s] for s in others)
