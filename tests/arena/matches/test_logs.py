"""arena.matches.logs: compressing a match's logs while it is played."""

from __future__ import annotations

import os
import threading

from arena.core import threads
from arena.core.threads import thread_of_process
from arena.matches.logs import LogsCompressedAsPlayed, log_compress, log_decompress
from tests.arena.factories import game_log_for


def test_logs_sent_as_games_end_come_back_compressed_as_the_result_write_would():
    played = LogsCompressedAsPlayed()
    first = game_log_for(ranks_by_index=[1, 2])
    second = game_log_for(ranks_by_index=[2, 1])
    played.game_ended(0, first)
    played.game_ended(1, second)
    assert played.compressed(0, first) == log_compress(first)
    assert log_decompress(played.compressed(1, second)) == second


def test_a_log_that_was_not_sent_is_compressed_when_asked_for():
    played = LogsCompressedAsPlayed()
    log = game_log_for(ranks_by_index=[1, 2])
    assert played.compressed(3, log) == log_compress(log)


def test_the_compressing_thread_is_made_again_in_a_forked_process(monkeypatch):
    before = thread_of_process("log-compressor")
    assert thread_of_process("log-compressor") is before  # one per process
    monkeypatch.setattr(threads, "_threads", dict(threads._threads))
    monkeypatch.setattr(os, "getpid", lambda: -1)  # as a Celery pool process sees it
    after = thread_of_process("log-compressor")
    assert after is not before
    seen = after.submit(lambda: threading.current_thread().name).result()
    assert seen.startswith("log-compressor")
