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
