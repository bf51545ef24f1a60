from __future__ import annotations

import os
import threading

from sandbox.stderr import MAX_LINE_CHARS, StderrDrain, StderrTail


def test_lines_come_out_once_in_order() -> None:
    tail = StderrTail(budget=1000)
    tail.feed(b"one\ntw")
    tail.feed(b"o\nthree")
    assert tail.take() == ["one", "two"]
    assert tail.take(flush_partial=True) == ["three"]
    assert tail.take() == []


def test_only_the_newest_bytes_are_kept_and_the_loss_is_said() -> None:
    tail = StderrTail(budget=100)
    for i in range(1000):
        tail.feed(f"line {i}\n".encode())
    lines = tail.take()
    assert lines[-1] == "line 999"
    assert lines[0].startswith("[")
    assert "dropped" in lines[0]
    assert sum(len(line) + 1 for line in lines[1:]) <= 100


def test_a_flood_without_newline_stays_bounded() -> None:
    tail = StderrTail(budget=1000)
    for _ in range(100):
        tail.feed(b"x" * 4096)
    lines = tail.take(flush_partial=True)
    assert all(len(line) <= MAX_LINE_CHARS + len(" [cut]") for line in lines)


def test_lines_are_safe_to_store() -> None:
    tail = StderrTail(budget=1000)
    tail.feed(b"bad \xff utf8 and \x00 nul\n")
    (line,) = tail.take()
    assert "\x00" not in line
    line.encode("utf-8")


def test_sync_waits_for_bytes_the_drain_thread_holds() -> None:
    # The drain thread has read a line from the pipe but not yet put it in the tail
    # when the engine asks for this decision's lines: `sync` must wait for it, or the
    # line lands with the next decision.
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    holding, release = threading.Event(), threading.Event()

    def read() -> bytes | None:
        try:
            data = os.read(read_end, 65536)
        except BlockingIOError:
            return None
        if data and threading.current_thread().name == "held-drain":
            holding.set()
            release.wait(5)
        return data

    tail = StderrTail(10_000)
    drain = StderrDrain(read_end, read, tail, "held-drain")
    try:
        os.write(write_end, b"decision at turn 3\n")
        assert holding.wait(5)
        threading.Timer(0.2, release.set).start()
        drain.sync()
        assert tail.take() == ["decision at turn 3"]
    finally:
        release.set()
        os.close(write_end)
        drain.stop()
        os.close(read_end)


def test_control_characters_are_stripped_from_kept_lines() -> None:
    """A log line shown to the bot's owner cannot move a cursor, clear a screen, ring a
    bell or hide its start behind a carriage return; a tab stays."""
    tail = StderrTail(budget=1000)
    tail.feed(b"\x1b[2J\x1b]0;title\x07secret\rshown\tcolumn \xc2\x9b31m\x7fend\n")
    (line,) = tail.take()
    assert line == "[2J]0;titlesecretshown\tcolumn 31mend"
    assert all(ch == "\t" or ch.isprintable() for ch in line)
