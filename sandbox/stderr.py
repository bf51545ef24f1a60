"""A bot's stderr: drained all the time, kept bounded, handed out per decision.

A bot may flood stderr; if nobody read it the pipe would fill and the bot would
block, which looks like a timeout we caused. So a thread reads it continuously
and keeps only the newest bytes.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

# One line longer than this is cut: the tail is for reading, not for data.
MAX_LINE_CHARS = 2000


def _clean(raw: bytes) -> str:
    # NUL cannot be stored in PostgreSQL text or jsonb; decoding with "replace"
    # already turns invalid UTF-8 into U+FFFD.
    text = raw.decode("utf-8", errors="replace").replace("\x00", "\ufffd")
    if len(text) > MAX_LINE_CHARS:
        text = text[:MAX_LINE_CHARS] + " [cut]"
    return text


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
            lines.insert(0, f"[{dropped} earlier stderr lines dropped]")
        return lines


def start_drain(read: Callable[[], bytes], tail: StderrTail, name: str) -> threading.Thread:
    """Feed `tail` from `read` (returns b'' at end of stream) in a daemon thread."""

    def drain() -> None:
        while True:
            try:
                data = read()
            except (OSError, ValueError):  # closed under us by teardown
                return
            if not data:
                return
            tail.feed(data)

    thread = threading.Thread(target=drain, name=name, daemon=True)
    thread.start()
    return thread
