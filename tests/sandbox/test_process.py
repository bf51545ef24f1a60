"""BotProcess on the subprocess backend: the protocol rules every backend shares."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.errors import BotFault
from sandbox.backends.local import launch_subprocess
from sandbox.limits import Limits
from sandbox.program import BotProgram


def bot(tmp_path: Path, code: str) -> BotProgram:
    path = tmp_path / "bot.py"
    path.write_text(code)
    return BotProgram("bot", path)


def test_input_the_bot_never_reads_ends_in_timeout_not_a_hang(tmp_path: Path) -> None:
    sleeper = bot(tmp_path, "import time\ntime.sleep(60)\n")
    with launch_subprocess(sleeper, Limits()) as process:
        started = time.monotonic()
        with pytest.raises(BotFault) as fault:
            process.exchange(b"x" * (4 << 20) + b"\n", time.monotonic() + 0.3)
        assert fault.value.reason == "timeout"
        assert "reading" in fault.value.detail
        assert time.monotonic() - started < 2


def test_a_line_nobody_asked_for_is_illegal(tmp_path: Path) -> None:
    chatty = bot(tmp_path, "import sys, time\nprint('{}', flush=True)\ntime.sleep(60)\n")
    with launch_subprocess(chatty, Limits()) as process:
        time.sleep(0.3)  # the line is there before any message
        with pytest.raises(BotFault) as fault:
            process.exchange(b"{}\n", time.monotonic() + 1)
        assert fault.value.reason == "illegal"


def test_stdout_budget_is_per_game(tmp_path: Path) -> None:
    echo = bot(
        tmp_path,
        "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n",
    )
    limits = Limits(stdout_bytes_per_game=10_000)
    line = b'{"pad": "' + b"x" * 3000 + b'"}\n'
    with launch_subprocess(echo, limits) as process:
        for _ in range(3):
            process.exchange(line, time.monotonic() + 5)
        process.new_game()
        for _ in range(3):
            process.exchange(line, time.monotonic() + 5)
        with pytest.raises(BotFault) as fault:
            process.exchange(line, time.monotonic() + 5)
        assert fault.value.reason == "limit"


def test_an_exit_is_a_crash_and_a_memory_error_a_limit(tmp_path: Path) -> None:
    quitter = bot(tmp_path, "import sys\nsys.stdin.readline()\n")
    with launch_subprocess(quitter, Limits()) as process:
        with pytest.raises(BotFault) as fault:
            process.exchange(b"{}\n", time.monotonic() + 5)
        assert fault.value.reason == "crash"
    hoarder = bot(tmp_path, "import sys\nsys.stdin.readline()\nx = bytearray(1 << 30)\n")
    with launch_subprocess(hoarder, Limits()) as process:
        with pytest.raises(BotFault) as fault:
            process.exchange(b"{}\n", time.monotonic() + 5)
        assert fault.value.reason == "limit"


# The usual reply (one whole line in one read) takes a path of its own that skips the
# buffer; these pin that it judges lines exactly as the general path does.

REPLY_OF_SIZE = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    size = int(line)\n"
    "    sys.stdout.write('x' * size + '\\n')\n"
    "    sys.stdout.flush()\n"
)


@pytest.mark.parametrize(("extra", "ok"), [(0, True), (1, False)])
def test_a_reply_line_at_the_limit_passes_and_one_byte_more_is_illegal(
    tmp_path: Path, extra: int, ok: bool
) -> None:
    limits = Limits(line_bytes=1000)
    with launch_subprocess(bot(tmp_path, REPLY_OF_SIZE), limits) as process:
        payload = f"{1000 + extra}\n".encode()
        if ok:
            assert process.exchange(payload, time.monotonic() + 5) == b"x" * 1000
        else:
            with pytest.raises(BotFault) as fault:
                process.exchange(payload, time.monotonic() + 5)
            assert fault.value.reason == "illegal"


def test_a_reply_written_in_pieces_is_one_line(tmp_path: Path) -> None:
    slow_writer = bot(
        tmp_path,
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    for piece in ('{\"act', 'ion\": \"dr', 'aw\"}\\n'):\n"
        "        sys.stdout.write(piece)\n"
        "        sys.stdout.flush()\n"
        "        time.sleep(0.02)\n",
    )
    with launch_subprocess(slow_writer, Limits()) as process:
        for _ in range(2):
            assert process.exchange(b"{}\n", time.monotonic() + 5) == b'{"action": "draw"}'


def test_two_lines_in_one_write_make_the_second_unsolicited(tmp_path: Path) -> None:
    doubler = bot(
        tmp_path,
        "import sys\n"
        "for line in sys.stdin:\n"
        "    sys.stdout.write('{}\\n{\"extra\": 1}\\n')\n"
        "    sys.stdout.flush()\n",
    )
    with launch_subprocess(doubler, Limits()) as process:
        assert process.exchange(b"{}\n", time.monotonic() + 5) == b"{}"
        with pytest.raises(BotFault) as fault:
            process.exchange(b"{}\n", time.monotonic() + 5)
        assert fault.value.reason == "illegal"
        assert "no message asked for" in fault.value.detail
