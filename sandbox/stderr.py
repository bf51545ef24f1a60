"""A bot's stderr: drained all the time, kept bounded, handed out per decision.

A bot may flood stderr; if nobody read it the pipe would fill and the bot would
block, which looks like a timeout we caused. So a thread reads it continuously
and keeps only the newest bytes.
"""

from __future__ import annotations

import re
import select
import threading
from collections import deque
from collections.abc import Callable

# One line longer than this is cut: the tail is for reading, not for data.
MAX_LINE_CHARS = 2000
# At most this much is read in one `sync`: a bot writing all the time cannot keep
# the engine's thread reading its stderr forever.
SYNC_BYTES = 1 << 20


# Control characters other than tab, removed from every kept line: C0 (NUL cannot
# be stored in PostgreSQL text or jsonb; ESC would drive the terminal of whoever
# reads the log there; CR would hide what came before it on a line), DEL and C1.
_CONTROLS = dict.fromkeys([c for c in range(0x20) if c != ord("\t")] + [0x7F, *range(0x80, 0xA0)])


def _clean(raw: bytes) -> str:
    r"""A line as kept: valid UTF-8 (invalid bytes become U+FFFD), no control
    characters but tab, at most MAX_LINE_CHARS.

    >>> _clean(b"\x1b[31mred\x07\r \xff\x00ok\tdone")
    '[31mred \ufffdok\tdone'
    """
    text = raw.decode("utf-8", errors="replace").translate(_CONTROLS)
    if len(text) > MAX_LINE_CHARS:
        text = text[:MAX_LINE_CHARS] + " [cut]"
    return text


_DROPPED = re.compile(r"\[(\d+) earlier stderr lines dropped\]")


def dropped_marker(count: int) -> str:
    return f"[{count} earlier stderr lines dropped]"


def dropped_count(line: str) -> int:
    """How many lines a "lines dropped" marker stands for; 0 for any other line.

    >>> dropped_count("[12 earlier stderr lines dropped]"), dropped_count("hello")
    (12, 0)
    """
    marker = _DROPPED.fullmatch(line)
    return int(marker.group(1)) if marker else 0


def merge_dropped_markers(lines: list[str]) -> list[str]:
    """Runs of "[N earlier stderr lines dropped]" markers (one per decision of a
    flooding bot) as one marker with their sum.

    >>> merge_dropped_markers(["a", "[3 earlier stderr lines dropped]",
    ...                        "[4 earlier stderr lines dropped]", "b"])
    ['a', '[7 earlier stderr lines dropped]', 'b']
    """
    merged: list[str] = []
    pending = 0
    for line in lines:
        count = dropped_count(line)
        if count:
            pending += count
            continue
        if pending:
            merged.append(dropped_marker(pending))
            pending = 0
        merged.append(line)
    if pending:
        merged.append(dropped_marker(pending))
    return merged


class StderrTail:
    """Complete lines written since the last `take()`, at most `budget` bytes of them."""

    def __init__(self, budget: int) -> None:
        self._budget = budget
        self._lock = threading.Lock()
        self._lines: deque[bytes] = deque()
        self._size = 0
        self._partial = b""
        self._dropped = 0

    def feed(self, data: bytes) -> None:
        with self._lock:
            pieces = (self._partial + data).split(b"\n")
            self._partial = pieces.pop()
            if len(self._partial) > self._budget:
                pieces.append(self._partial)
                self._partial = b""
            for piece in pieces:
                self._lines.append(piece)
                self._size += len(piece) + 1
            while self._size > self._budget and self._lines:
                self._size -= len(self._lines.popleft()) + 1
                self._dropped += 1

    def take(self, *, flush_partial: bool = False) -> list[str]:
        """The lines since the last call, oldest first; a note says how many were lost."""
        with self._lock:
            raw = list(self._lines)
            if flush_partial and self._partial:
                raw.append(self._partial)
                self._partial = b""
            self._lines.clear()
            self._size = 0
            dropped, self._dropped = self._dropped, 0
        lines = [_clean(line) for line in raw]
        if dropped:
            lines.insert(0, dropped_marker(dropped))
        return lines


class StderrDrain:
    """Reads a stream into a `StderrTail` from a daemon thread, and on demand.

    `read` is non-blocking: bytes, b'' at end of stream, None when nothing is there.
    `sync()` takes in everything already written, so the lines a bot wrote
    before its reply are filed with that reply, not with a later one.
    """

    def __init__(
        self, fd: int, read: Callable[[], bytes | None], tail: StderrTail, name: str
    ) -> None:
        self._fd = fd
        self._read = read
        self._tail = tail
        self._lock = threading.Lock()
        self._ended = False
        # One poll object per thread (they are not to be shared), made once: `sync`
        # runs at every decision.
        self._poll_sync = self._poller()
        self._poll_thread = self._poller()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _poller(self) -> select.poll:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        return poller

    def _read_locked(self) -> int | None:
        """One read, the lock held: bytes taken in, or None once the stream has ended."""
        if self._ended:
            return None
        try:
            data = self._read()
        except (OSError, ValueError):  # closed under us by teardown
            data = b""
        if data is None:
            return 0
        if not data:
            self._ended = True
            return None
        self._tail.feed(data)
        return len(data)

    def _run(self) -> None:
        while not self._ended:
            try:
                ready = bool(self._poll_thread.poll(200))
            except (OSError, ValueError):
                return
            if ready:
                with self._lock:
                    if self._read_locked() is None:
                        return

    def sync(self) -> None:
        """Take in what is already written: bounded, as a bot may write without end.

        All under the lock: bytes the drain thread has just read from the pipe but
        not yet put in the tail would otherwise be in neither place when the caller
        takes this decision's lines, and land with the next decision's.
        """
        with self._lock:
            taken = 0
            while taken < SYNC_BYTES and not self._ended and self._poll_sync.poll(0):
                got = self._read_locked()
                if not got:
                    return
                taken += got

    def stop(self, timeout_s: float = 1.0) -> None:
        """Wait for the end of the stream (its writers are dead), then stop reading.

        Afterwards the caller may close the descriptor: the thread no longer uses it.
        """
        self._thread.join(timeout_s)
        with self._lock:
            self._ended = True
        self._thread.join()
