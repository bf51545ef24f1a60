"""Tasks queued by name when a transaction commits."""

from __future__ import annotations

import pytest
from django.db import transaction

from arena.core.queueing import task_queue_on_commit

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(
        "arena.core.queueing.current_app.send_task",
        lambda name, **options: calls.append((name, options)),
    )
    return calls


def test_a_task_is_sent_on_commit_with_no_result_to_wait_for(
    sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        task_queue_on_commit("arena.matches.run_match", 7)
        assert sent == []  # not before the commit
    # No result: a Redis result backend would otherwise subscribe to every match's.
    assert sent == [("arena.matches.run_match", {"args": (7,), "ignore_result": True})]


def _queue_then_fail() -> None:
    with transaction.atomic():
        task_queue_on_commit("arena.matches.run_match", 7)
        raise RuntimeError


def test_nothing_is_sent_for_a_transaction_that_rolls_back(
    sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        _queue_then_fail()
    assert sent == []
