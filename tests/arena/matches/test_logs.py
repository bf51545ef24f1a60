"""arena.matches.logs: stored logs compress and come back as they were; a game's
summary counts its turns; the per-process helper threads (arena.core.threads)
survive a fork."""

from __future__ import annotations

import os
import threading
import zlib

import orjson

from arena.core import threads
from arena.core.threads import thread_of_process
from arena.matches.logs import (
    LOG_COMPRESSION_LEVEL,
    fault_notes,
    game_summary,
    log_compress,
    log_decompress,
)
from tests.arena.factories import game_log_for


def test_a_compressed_log_comes_back_as_it_was():
    log = game_log_for(ranks_by_index=[2, 1])
    stored = log_compress(log)
    assert log_decompress(stored) == log
    assert log_decompress(memoryview(stored)) == log  # as the database hands it back


def test_logs_stored_at_another_level_still_read():
    """Logs compressed at another level (6, zlib's default) still read: zlib
    decompresses any level's output, so the level can change without a migration."""
    log = game_log_for(ranks_by_index=[1, 2])
    assert LOG_COMPRESSION_LEVEL == 3
    older = zlib.compress(orjson.dumps(log), 6)
    assert log_decompress(older) == log


def test_the_summary_counts_the_turns_and_places_a_fault_at_its_turn():
    """Plays, shields, draws and takes are turns; deals, faults and the rest are not.
    A fault without the sandbox's detail is placed at the turns counted before it."""
    log = {
        "players": 2,
        "events": [
            {"kind": "deal"},
            {"kind": "play", "seat": 0},
            {"kind": "draw", "seat": 1},
            {"kind": "shield", "seat": 0},
            {"kind": "take", "seat": 1},
            {"kind": "fault", "seat": 1, "reason": "timeout"},
            {"kind": "play", "seat": 0},
        ],
        "result": {"ranks": [1, 2], "winner": 0, "faults": [{"seat": 1, "reason": "timeout"}]},
    }
    summary = game_summary(log)
    assert summary.turns == 5
    [fault] = summary.faults
    assert (fault["index"], fault["event"], fault["turn"]) == (1, 5, 4)
    assert fault_notes(log)[1]["turn"] == 4


def test_a_helper_thread_is_made_again_in_a_forked_process(monkeypatch):
    before = thread_of_process("test-helper")
    assert thread_of_process("test-helper") is before  # one per process
    monkeypatch.setattr(threads, "_threads", dict(threads._threads))
    monkeypatch.setattr(os, "getpid", lambda: -1)  # as a Celery pool process sees it
    after = thread_of_process("test-helper")
    assert after is not before
    seen = after.submit(lambda: threading.current_thread().name).result()
    assert seen.startswith("test-helper")
