"""A sandboxed bot as the engine sees it: a callable `bot(message) -> dict`.

It owns time (PROTOCOL.md, Time): each message gets `time_ms` and `bank_ms`, a
reply slower than `time_ms` spends the excess from the bank of the game, and the
first `start` of a process gets longer for imports. It records per decision the
latency and the stderr lines written meanwhile, and tears the bot down at its
first fault; `begin_game` starts it again for the next game.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import BotFault
from sandbox.errors import InfrastructureError
from sandbox.faults import STDERR_LINES, cut_reply, played_cards
from sandbox.limits import Limits
from sandbox.process import BotProcess
from sandbox.stderr import merge_dropped_markers
from sandbox.wire import encode_message, parse_reply

Launcher = Callable[[], BotProcess]
# A message's time fields chosen by the caller (a rerun sends the logged ones), or
# None: the seat's own accounting.
Clock = Callable[[dict[str, Any]], tuple[int, int] | None]


def latency_summary(latencies_ms: Sequence[float]) -> dict[str, float | None]:
    """Count, mean, median, 95th percentile and worst of some decision times.

    >>> latency_summary([1.0, 2.0, 3.0, 10.0])["p50_ms"]
    2.5
    """
    if not latencies_ms:
        return {"decisions": 0, "mean_ms": None, "p50_ms": None, "p95_ms": None, "max_ms": None}
    ordered = sorted(latencies_ms)
    return {
        "decisions": len(ordered),
        "mean_ms": round(statistics.fmean(ordered), 3),
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "max_ms": round(ordered[-1], 3),
    }


@dataclass
class GameRecord:
    """What one bot did in one game, beside the engine's log."""

    startup_ms: float | None = None
    latencies_ms: list[float] = field(default_factory=list)
    bank_left_ms: float = 0.0
    # {"event": index in the log of the first event after the message, "turn": n, "lines"}
    stderr: list[dict[str, Any]] = field(default_factory=list)
    stderr_bytes: int = 0
    fault: str | None = None
    # The log's ``fault`` event detail (sandbox.faults), once the seat faulted.
    fault_detail: dict[str, Any] | None = None
    # The time fields of every message sent, as runs [count, time_ms, bank_ms]: a
    # rerun sends the same bytes (docs/replay.md, Time fields).
    clock: list[list[int]] = field(default_factory=list)

    def timing(self) -> dict[str, Any]:
        return {
            "startup_ms": None if self.startup_ms is None else round(self.startup_ms, 1),
            "bank_left_ms": round(self.bank_left_ms, 1),
            "latency": latency_summary(self.latencies_ms),
            "latencies_ms": [round(x, 3) for x in self.latencies_ms],
            "clock": [list(run) for run in self.clock],
        }

    def sent(self, time_ms: int, bank_ms: int) -> None:
        clock = self.clock
        if clock and clock[-1][1] == time_ms and clock[-1][2] == bank_ms:
            clock[-1][0] += 1
        else:
            clock.append([1, time_ms, bank_ms])


class SandboxedBot:
    """One bot program for the length of a match, played through the engine's callable API."""

    def __init__(
        self, launch: Launcher, limits: Limits, *, match_deadline: float, clock: Clock | None = None
    ) -> None:
        self._launch = launch
        self._clock = clock
        self.limits = limits
        self.match_deadline = match_deadline
        self.process: BotProcess | None = None
        self._fresh = False  # the next `start` is the process's first: allow imports
        self._end_unanswered = False
        self._events_seen = 0
        self._bank_ms = float(limits.bank_ms)
        self._startup_ms: float | None = None  # of a launch not yet booked to a game
        self.record = GameRecord()
        self.infrastructure_error: InfrastructureError | None = None
        # The last message answered and its reply line: what an illegal fault the
        # engine judges (a card not in `legal`) is about.
        self._last: tuple[dict[str, Any], bytes] | None = None
        self._asked: dict[str, Any] = {}  # the message being (or last) asked

    # -- lifetime ------------------------------------------------------------------------

    def ensure_running(self) -> None:
        """Start the process if there is none (first game, or after a fault)."""
        if self.process is not None and not self.process.closed:
            return
        started = time.monotonic()
        self.process = self._launch()
        self._startup_ms = (time.monotonic() - started) * 1000
        self._fresh = True
        self._end_unanswered = False

    def begin_game(self) -> None:
        self.record = GameRecord()
        self.ensure_running()
        self.record.startup_ms, self._startup_ms = self._startup_ms, None
        self._bank_ms = float(self.limits.bank_ms)
        self._events_seen = 0
        assert self.process is not None
        self.process.new_game()
        if self._end_unanswered:
            self.process.discard_pending()
            self._end_unanswered = False

    def end_game(self, *, faulted: str | None, last: bool = False) -> GameRecord:
        """Close the game's books; a seat the engine faulted is restarted next game.

        After the last game of the match the bot is stopped first, so what it writes
        to stderr on its way out is still in this game's record.
        """
        record = self.record
        record.bank_left_ms = self._bank_ms
        if faulted is not None:
            record.fault = faulted
            self.stop(kill=True)
            record.fault_detail = self._fault_detail(faulted, record)
        elif last:
            self.stop()
        self.record = GameRecord()  # the returned one belongs to the log from now on
        self._last = None
        self._asked = {}
        return record

    def _fault_detail(self, reason: str, record: GameRecord) -> dict[str, Any]:
        detail = record.fault_detail
        if detail is None:
            detail = _where(self._asked)
            if reason == "illegal" and self._last is not None and self._last[0] is self._asked:
                # The engine judged the reply (a card not in `legal`, say).
                message, line = self._last
                detail["reply"] = cut_reply(line)
                detail.update(_legal_and_played(message, line))
        if reason == "crash" and self.process is not None:
            detail.update(self.process.exit_status)
        if reason in ("crash", "limit"):
            lines = [line for entry in record.stderr for line in entry["lines"]]
            detail["stderr"] = merge_dropped_markers(lines)[-STDERR_LINES:]
        return detail

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None:
            return
        process = self.process
        if kill:
            process.kill()
        else:
            process.close()
        self._keep_stderr(process.stderr_lines(flush_partial=True), turn=None)

    # -- the engine's callable -------------------------------------------------------------

    def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        try:
            return self._ask(message)
        except BotFault:
            raise
        except Exception as error:
            # The engine would book any exception as the bot's crash. Anything but a
            # BotFault comes from the platform (the daemon, or a bug of ours), never
            # from the bot, so it is kept for `run_match` to raise after the game.
            if not isinstance(error, InfrastructureError):
                error = InfrastructureError(f"sandbox failure: {error!r}")
            self.infrastructure_error = error
            raise BotFault("crash", "sandbox failure") from error

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message.get("type")
        self._asked = message
        if self.process is None or self.process.closed:
            raise BotFault("crash", "the bot is not running")
        self._events_seen += len(message.get("events") or ())
        fresh_start = kind == "start" and self._fresh
        time_ms = self.limits.first_start_ms if fresh_start else self.limits.message_ms
        bank = 0.0 if kind == "end" else self._bank_ms
        chosen = self._clock(message) if self._clock is not None else None
        if chosen is not None:
            time_ms, bank = chosen[0], float(chosen[1])
        payload = encode_message({**message, "time_ms": time_ms, "bank_ms": int(bank)})
        self.record.sent(time_ms, int(bank))
        started = time.monotonic()
        deadline = min(started + (time_ms + bank) / 1000, self.match_deadline)
        line: bytes | None = None
        try:
            line = self.process.exchange(payload, deadline)
            elapsed_ms = (time.monotonic() - started) * 1000
            reply = parse_reply(line)
        except BotFault as fault:
            if kind == "end" and fault.reason == "timeout":
                # A missing reply to `end` is no fault; a late one is dropped next game.
                self._end_unanswered = True
                return {}
            # Teardown at every fault, so nothing of the bot runs on while the game goes on.
            self.process.kill()
            if kind == "end":  # an odd reply to `end` is no fault either
                return {}
            self.record.fault = fault.reason
            took_ms = (time.monotonic() - started) * 1000
            self.record.fault_detail = self._detail_now(
                fault, message, line, took_ms=took_ms, time_ms=time_ms, bank_ms=int(bank)
            )
            raise
        finally:
            lines = self.process.stderr_lines(flush_partial=self.process.closed)
            self._keep_stderr(lines, turn=message.get("turn"))
        self._last = (message, line)
        if kind == "start":
            self._fresh = False
        if kind != "end":
            self._bank_ms = max(0.0, self._bank_ms - max(0.0, elapsed_ms - time_ms))
            self.record.latencies_ms.append(elapsed_ms)
        return reply

    def _detail_now(
        self,
        fault: BotFault,
        message: dict[str, Any],
        line: bytes | None,
        *,
        took_ms: float,
        time_ms: int,
        bank_ms: int,
    ) -> dict[str, Any]:
        """The detail of a fault the sandbox saw itself (sandbox.faults)."""
        detail: dict[str, Any] = _where(message)
        if fault.reason == "timeout":
            detail.update(took_ms=round(took_ms, 1), time_ms=time_ms, bank_ms=bank_ms)
        elif fault.reason == "illegal":
            detail["why"] = fault.detail
            if line is not None:
                detail["reply"] = cut_reply(line)
            detail.update(_legal_and_played(message, line))
        elif fault.reason == "limit" and self.process and self.process.limit_hit:
            detail["limit"] = self.process.limit_hit
        return detail

    def _keep_stderr(self, lines: list[str], *, turn: Any) -> None:
        if not lines:
            return
        record = self.record
        record.stderr.append(
            {
                "event": self._events_seen,
                "turn": turn if type(turn) is int else None,
                "lines": lines,
            }
        )
        record.stderr_bytes += sum(len(line.encode()) + 1 for line in lines)
        # Keep the newest lines of the game within the budget.
        while record.stderr_bytes > self.limits.stderr_bytes_per_game and record.stderr:
            oldest = record.stderr[0]
            dropped = oldest["lines"].pop(0)
            record.stderr_bytes -= len(dropped.encode()) + 1
            if not oldest["lines"]:
                record.stderr.pop(0)


def _where(message: dict[str, Any]) -> dict[str, Any]:
    turn = message.get("turn")
    return {"message": message.get("type"), "turn": turn if type(turn) is int else None}


def _legal_and_played(message: dict[str, Any], line: bytes | None) -> dict[str, Any]:
    if message.get("type") != "turn":
        return {}
    try:
        reply = parse_reply(line) if line is not None else None
    except BotFault:
        reply = None
    return {"legal": list(message.get("legal") or []), "played": played_cards(reply)}
