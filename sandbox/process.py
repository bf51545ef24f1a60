"""A running bot, whatever isolates it: write a message, read one line back.

Backends supply the raw byte movement (`_recv`, `_write_some`) and the teardown; this
class owns what every backend must judge the same way: deadlines, the 64 KiB
line, the stdout budget of a game, lines nobody asked for, and what a dead
process means (`crash`, or `limit` when it died of a resource limit).
"""

from __future__ import annotations

import signal
import time
from abc import ABC, abstractmethod
from typing import Protocol

from engine.errors import BotFault
from sandbox.limits import Limits
from sandbox.stderr import StderrTail

# After stdout closes, how long to wait for the exit status that tells a crash
# from a resource kill.
_EXIT_STATUS_WAIT_S = 0.5


class Drain(Protocol):
    """What keeps a bot's stderr flowing while nobody waits for a reply."""

    def sync(self) -> None:
        """Take in everything the bot has written so far."""

    def stop(self, timeout_s: float = 1.0) -> None:
        """Wait for the end of the stream (at most `timeout_s`), then stop reading."""


def exit_status(code: int | None) -> dict[str, int | str]:
    """An exit status as the owner reads it: a signal by name where the status says
    the bot was killed (negative, or 128 + N as bwrap and Docker report it).

    >>> exit_status(1), exit_status(-11), exit_status(137), exit_status(None)
    ({'exit_code': 1}, {'signal': 'SIGSEGV'}, {'signal': 'SIGKILL'}, {})
    """
    if code is None:
        return {}
    number = -code if code < 0 else code - 128 if 128 < code < 128 + 65 else 0
    if number:
        try:
            return {"signal": signal.Signals(number).name}
        except ValueError:
            return {"signal": f"signal {number}"}
    return {"exit_code": code}


class BotProcess(ABC):
    """One bot process (or container) for a whole match. Use it as a context manager."""

    backend: str = ""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.stderr = StderrTail(limits.stderr_bytes_per_game)
        self._buffer = bytearray()
        self._stdout_used = 0
        self._eof = False
        self.closed = False
        self.drain: Drain | None = None
        # How the bot ended, once it did of its own accord: {"exit_code": n} or
        # {"signal": "SIGSEGV"}, and the limit it hit ("memory", "output", ...).
        self.exit_status: dict[str, int | str] = {}
        self.limit_hit: str | None = None

    # -- what a backend provides -------------------------------------------------

    @abstractmethod
    def _recv(self, timeout_s: float) -> bytes | None:
        """Stdout bytes: None if nothing came within `timeout_s`, b'' at end of stream."""

    @abstractmethod
    def _write_some(self, data: bytes | memoryview) -> int | None:
        """Write what fits now without blocking: bytes written, None if the bot is gone."""

    @abstractmethod
    def _wait_writable(self, timeout_s: float) -> None:
        """Block until the bot's input has room again, or `timeout_s` passed."""

    @abstractmethod
    def _close_stdin(self) -> None: ...

    @abstractmethod
    def _wait_exit(self, timeout_s: float) -> bool:
        """Wait for the bot to exit; True if it has."""

    @abstractmethod
    def _died_of_limit(self) -> str | None:
        """After exit: the resource limit it was killed for (or died of), if any:
        "memory", "processes", "cpu time", "file size"."""

    def _exit_code(self) -> int | None:
        """After exit: the raw status (negative: killed by that signal), if known."""
        return None

    @abstractmethod
    def _teardown(self) -> None:
        """Kill every process of the bot and remove everything it left. Idempotent."""

    # -- the protocol --------------------------------------------------------------

    def new_game(self) -> None:
        """Reset the per-game stdout budget."""
        self._stdout_used = 0

    def exchange(self, payload: bytes, deadline: float) -> bytes:
        """Send one message and return the one line that answers it (without newline)."""
        if self._buffer or (not self._eof and self._output_waiting()):
            self._refuse_unsolicited()
        if not self._send(payload, deadline):
            raise self._death_fault()
        return self.read_line(deadline)

    def read_line(self, deadline: float) -> bytes:
        buffer = self._buffer
        while True:
            if buffer:
                newline = buffer.find(b"\n")
                if newline >= 0:
                    line = bytes(buffer[:newline])
                    del buffer[: newline + 1]
                    if len(line) > self.limits.line_bytes:
                        raise BotFault("illegal", "reply line longer than the limit")
                    return line
                if len(buffer) > self.limits.line_bytes:
                    raise BotFault("illegal", "reply line longer than the limit")
            if self._eof:
                raise self._death_fault()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFault("timeout")
            data = self._recv(remaining)
            if data and not buffer and data.find(b"\n") == len(data) - 1:
                # The usual reply: one whole line in one read. No copy into the buffer.
                self._count_stdout(len(data))
                if len(data) > self.limits.line_bytes + 1:
                    raise BotFault("illegal", "reply line longer than the limit")
                return data[:-1]
            self._take(data)

    def discard_pending(self) -> None:
        """Forget output already here (a late reply to `end`, which is allowed)."""
        self._take(self._recv(0))
        self._buffer.clear()

    def _output_waiting(self) -> bool:
        """Might the bot have written something since its last reply? A backend with
        a cheap test (a poll) says no when it can; this default always reads."""
        return True

    def _refuse_unsolicited(self) -> None:
        if not self._eof:
            self._take(self._recv(0))
        if self._buffer:
            raise BotFault("illegal", "output that no message asked for")

    def _count_stdout(self, size: int) -> None:
        self._stdout_used += size
        if self._stdout_used > self.limits.stdout_bytes_per_game:
            self.limit_hit = "output"
            raise BotFault("limit", "stdout budget of the game exceeded")

    def _take(self, data: bytes | None) -> None:
        if data is None:
            return
        if not data:
            self._eof = True
            return
        self._count_stdout(len(data))
        self._buffer += data

    def _send(self, data: bytes, deadline: float) -> bool:
        """Write all of `data`; False if the bot is gone. A bot that stops reading its
        input only stalls itself, until the deadline: then it is a `timeout`."""
        view: bytes | memoryview = data
        while True:
            written = self._write_some(view)  # almost always all of it, at once
            if written is None:
                return False
            if written == len(view):
                return True
            view = memoryview(view)[written:]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFault("timeout", "the bot stopped reading its input")
            self._wait_writable(remaining)

    def stderr_lines(self, *, flush_partial: bool = False) -> list[str]:
        """Stderr lines written since the last call, including any just written."""
        if self.drain is not None:
            self.drain.sync()
        return self.stderr.take(flush_partial=flush_partial)

    def _death_fault(self) -> BotFault:
        self._eof = True
        if self._wait_exit(_EXIT_STATUS_WAIT_S):
            self.exit_status = exit_status(self._exit_code())
            self.limit_hit = self._died_of_limit()
            if self.limit_hit is not None:
                return BotFault("limit", f"killed by a resource limit ({self.limit_hit})")
        return BotFault("crash", "the bot exited or closed stdout")

    # -- lifetime --------------------------------------------------------------------

    def close(self) -> None:
        """End of match: close stdin, give the bot a short grace to exit, then kill all."""
        if self.closed:
            return
        self.closed = True
        try:
            self._close_stdin()
            self._wait_exit(self.limits.exit_grace_ms / 1000)
        finally:
            self._teardown()

    def kill(self) -> None:
        """After a fault: no grace."""
        self.closed = True
        self._teardown()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
