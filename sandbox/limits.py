"""Resource and time limits of a sandboxed bot, each one a setting of a match."""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Limits:
    """What one bot may use. The defaults are the platform's limits.

    >>> Limits().message_ms, Limits(message_ms=200).message_ms
    (1000, 200)
    """

    # Time (PROTOCOL.md, Time): per reply, a bank per game, a longer first start.
    message_ms: int = 1000
    bank_ms: int = 10_000
    first_start_ms: int = 5000
    # Wall-clock cap on a whole match; decisions past it time out.
    match_s: float = 1800.0
    # How long a bot may take to exit after stdin is closed before it is killed.
    exit_grace_ms: int = 300

    # Machine resources.
    memory_bytes: int = 256 * MIB
    cpus: float = 1.0
    pids: int = 32
    open_files: int = 64
    tmpfs_bytes: int = 16 * MIB
    file_bytes: int = 8 * MIB
    shm_bytes: int = 1 * MIB

    # Output: one line per reply, bounded stdout per game, a bounded stderr tail.
    line_bytes: int = 64 * KIB
    stdout_bytes_per_game: int = 1 * MIB
    stderr_bytes_per_game: int = 64 * KIB

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value <= 0:
                raise ValueError(f"limit {name} must be positive, not {value!r}")
