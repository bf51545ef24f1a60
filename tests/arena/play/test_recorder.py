"""Results written behind the play (arena.play.recorder): on a thread, one at a
time, database outages tried again, nothing given up silently."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from django.db import OperationalError, connections

from arena.core import threads
from arena.core.threads import thread_of_process
from arena.matches.models import Game, Match
from arena.play.recorder import ResultRecorder
from arena.play.runner import Outcome, match_run
from arena.settings.env import REPO_ROOT
from tests.arena.factories import ActiveBotVersionFactory, default_competition, match_with_seats
from tests.support.worker import wait_for


def test_a_write_runs_on_the_recorders_thread_and_its_future_holds_the_outcome():
    recorder = ResultRecorder()
    caller = threading.get_ident()
    future = recorder.submit(match_id=1, write=lambda: threading.get_ident())
    assert recorder.wait(timeout=10)
    assert future.result() != caller


def test_a_write_waits_for_the_one_before_it():
    recorder = ResultRecorder()
    happened: list[str] = []

    def slow_first() -> None:
        time.sleep(0.2)
        happened.append("first written")

    recorder.submit(match_id=1, write=slow_first)
    # At most one result waits per process: the second submit returns only once
    # the first write is over.
    recorder.submit(match_id=2, write=lambda: happened.append("second written"))
    assert happened[0] == "first written"
    assert recorder.wait(timeout=10)
    assert happened == ["first written", "second written"]


def test_wait_says_when_a_write_is_still_running():
    recorder = ResultRecorder()
    release = threading.Event()
    recorder.submit(match_id=1, write=release.wait)
    assert recorder.wait(timeout=0.05) is False
    release.set()
    assert recorder.wait(timeout=10) is True
    assert recorder.wait() is True  # nothing pending any more


def test_a_database_outage_is_tried_again_until_it_passes(caplog):
    recorder = ResultRecorder(retry_delays=(0, 0, 0))
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("connection refused")
        return "written"

    with caplog.at_level(logging.WARNING, logger="arena.play.recorder"):
        assert recorder.submit(match_id=7, write=flaky).result(timeout=10) == "written"
    assert len(calls) == 3
    assert caplog.text.count("match 7: the database is away") == 2


def test_a_result_that_cannot_be_written_is_given_up_and_said(caplog):
    recorder = ResultRecorder(retry_delays=(0, 0))
    calls: list[int] = []

    def down() -> None:
        calls.append(1)
        raise OperationalError("connection refused")

    def broken() -> None:
        raise ValueError("a bug of ours")

    with caplog.at_level(logging.WARNING, logger="arena.play.recorder"):
        assert recorder.submit(match_id=8, write=down).result(timeout=10) is None
        assert recorder.submit(match_id=9, write=broken).result(timeout=10) is None
    assert len(calls) == 3  # the first try and one per delay
    assert "match 8: result not recorded, the database is away" in caplog.text
    assert "match 9: result not recorded" in caplog.text
    assert "ValueError: a bug of ours" in caplog.text


def test_a_forked_process_starts_its_own_thread_and_forgets_the_parents_write(monkeypatch):
    recorder = ResultRecorder()
    release = threading.Event()
    recorder.submit(match_id=1, write=release.wait)
    parent = thread_of_process("result-recorder")
    # As in a Celery pool process forked while the parent had a write pending.
    monkeypatch.setattr(threads, "_threads", dict(threads._threads))
    monkeypatch.setattr("arena.play.recorder.os.getpid", lambda: -1)
    assert recorder.wait(timeout=0) is True  # not this process's write
    assert recorder.submit(match_id=2, write=lambda: "child").result(timeout=10) == "child"
    assert thread_of_process("result-recorder") is not parent
    release.set()


@pytest.fixture
def recorder_connection_closed():
    """The recorder's thread outlives a test (one per process); the connection it
    opened must not, or the tests without a database would find it open."""
    yield
    thread_of_process("result-recorder").submit(connections.close_all).result(timeout=10)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("recorder_connection_closed")
def test_a_match_played_with_a_recorder_is_written_behind_once():
    source = (REPO_ROOT / "bots_examples" / "random_bot.py").read_bytes()
    versions = [ActiveBotVersionFactory(source=source) for _ in range(2)]
    match = match_with_seats(versions, games_planned=2, competition=default_competition())
    recorder = ResultRecorder()
    assert match_run(match_id=match.pk, recorder=recorder) is Outcome.RECORDING
    assert recorder.wait(timeout=60)
    match.refresh_from_db()
    assert match.state == Match.State.DONE, match.error
    assert Game.objects.filter(match=match).count() == 2
    # Played again (a redelivered message): nothing to do, nothing written twice.
    assert match_run(match_id=match.pk, recorder=recorder) is Outcome.NOTHING_TO_DO
    wait_for(lambda: recorder.wait(timeout=0), timeout=10, what="no write pending")
    assert Game.objects.filter(match=match).count() == 2
