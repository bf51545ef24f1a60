from __future__ import annotations

from sandbox.stderr import MAX_LINE_CHARS, StderrTail


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
