"""A person at the table: one seat contract for every way a person plays.

The engine asks a seat the protocol's messages (PROTOCOL.md); `HumanSeat` answers
them for a person through a `Desk`, which shows the message and brings back the
person's reply: the terminal's (`onecard play`) or any other. The seat owns the
person's clock and their absence, so that a person can neither hold a table
forever nor be faulted for thinking slowly:

- each decision gets `move_seconds`; when the time runs out the seat draws (or,
  offered a catch, passes), as the person might have, rather than faulting, which
  would be too harsh for a person who looked away;
- after `patience` timeouts in a row the person is taken as gone: the seat faults
  with `timeout`, as a bot that stops answering, and the game goes on without it;
- a person who leaves (the desk says `LEFT`) faults the seat at once, with the
  same reason: the game ends cleanly for the others;
- nothing waits past `deadline` (time.monotonic()), the table's bound on its
  whole length.

A reply the rules cannot take is asked again (the desk is told why), not faulted.

>>> class Sleepy:
...     def tell(self, message): pass
...     def ask(self, message, timeout): return None
>>> seat = HumanSeat(Sleepy(), move_seconds=0.01, patience=2)
>>> turn = {"type": "turn", "legal": ["5S"], "hand": ["5S", "9H"]}
>>> seat(turn)
{'action': 'draw'}
>>> seat(turn)
Traceback (most recent call last):
...
engine.errors.BotFault: timeout: the player stopped answering
"""

from __future__ import annotations

import time
from typing import Any, Final, Protocol

from engine.bot import role as card_role
from engine.errors import BotFault
from sandbox.errors import InfrastructureError
from sandbox.seat import GameRecord

LEFT: Final = "left"  # what a desk answers when the person has left the table
DEFAULT_MOVE_SECONDS: Final = 60.0
DEFAULT_PATIENCE: Final = 3
SUITS: Final = ("S", "H", "D", "C")


class Desk(Protocol):
    """Where a person sees the table and answers it."""

    def tell(self, message: dict[str, Any]) -> None:
        """A message that needs no answer (start, end), or one just answered."""

    def ask(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any] | str | None:
        """The person's reply to a turn or catch message; None when `timeout`
        seconds passed first (None: wait as long as it takes); LEFT when they left."""


def reply_problem(message: dict[str, Any], reply: Any) -> str | None:
    """Why the rules would not take `reply` to `message`, in a sentence; None if
    they would. A person is asked again instead of being faulted.

    >>> turn = {"type": "turn", "legal": ["7S"], "hand": ["7S", "4H"]}
    >>> reply_problem(turn, {"action": "play", "card": "7S"})
    'Name a suit for the 7S.'
    >>> reply_problem(turn, {"action": "play", "card": "7S", "suit": "H"}) is None
    True
    """
    if not isinstance(reply, dict):
        return "That is not a move."
    action = reply.get("action")
    if message.get("type") == "catch":
        return None if action in ("catch", "pass") else "Catch or pass."
    if action == "draw":
        return None
    if action != "play":
        return "Play a card or draw."
    card = reply.get("card")
    if card not in message.get("legal", []):
        return f"{card} cannot be played now."
    if names_a_suit(message, str(card)) and reply.get("suit") not in SUITS:
        return f"Name a suit for the {card}."
    return None


def names_a_suit(message: dict[str, Any], card: str) -> bool:
    """Whether playing `card`, one of the legal cards of the turn `message`, must
    name a suit: a wild card (a 7 in the korean rules) that is not the last in hand.

    >>> names_a_suit({"hand": ["7S", "4H"], "ruleset": None}, "7S")
    True
    >>> names_a_suit({"hand": ["7S"], "ruleset": None}, "7S")
    False
    """
    return len(message.get("hand", [])) > 1 and card_role(card, message.get("ruleset")) == "wild"


class HumanSeat:
    """A person as a match player (sandbox.match.Player) and a bot callable."""

    infrastructure_error: InfrastructureError | None = None

    def __init__(
        self,
        desk: Desk,
        *,
        move_seconds: float | None = DEFAULT_MOVE_SECONDS,
        patience: int = DEFAULT_PATIENCE,
        deadline: float | None = None,
    ) -> None:
        self.desk = desk
        self.move_seconds = move_seconds
        self.patience = patience
        self.deadline = deadline
        self.timeouts = 0  # in a row
        self.ruleset: dict[str, Any] | None = None
        self.record = GameRecord()

    # -- a match player: a person has no process to start or stop ---------------------

    def ensure_running(self) -> None:
        return None

    def begin_game(self) -> None:
        self.record = GameRecord()
        self.timeouts = 0

    def end_game(self, *, faulted: str | None, last: bool = False) -> GameRecord:
        record, self.record = self.record, GameRecord()
        record.fault = faulted
        return record

    def stop(self) -> None:
        return None

    # -- the engine's callable ---------------------------------------------------------

    def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message.get("type")
        if kind == "start":
            self.ruleset = message.get("ruleset")
        if kind not in ("turn", "catch"):
            self.desk.tell(message)
            return {}
        asked = {**message, "ruleset": self.ruleset}
        started = time.monotonic()
        while True:
            reply = self.desk.ask(asked, self._timeout(started))
            if reply == LEFT:
                raise self._gone(message, "left the table")
            if reply is None:
                return self._timed_out(message, started)
            problem = reply_problem(asked, reply)
            if problem is None:
                self.timeouts = 0
                self.record.latencies_ms.append((time.monotonic() - started) * 1000)
                assert isinstance(reply, dict)
                return reply
            asked = {**asked, "problem": problem}

    def _timeout(self, started: float) -> float | None:
        limits = []
        if self.move_seconds is not None:
            limits.append(started + self.move_seconds)
        if self.deadline is not None:
            limits.append(self.deadline)
        return max(0.0, min(limits) - time.monotonic()) if limits else None

    def _gone(self, message: dict[str, Any], what: str) -> BotFault:
        """The fault of a person who is gone; the log's fault event says `what`
        became of them (sandbox.faults)."""
        self.record.fault_detail = {
            "message": message.get("type"),
            "turn": message.get("turn"),
            "person": what,
        }
        return BotFault("timeout", f"the player {what}")

    def _timed_out(self, message: dict[str, Any], started: float) -> dict[str, Any]:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise self._gone(message, "ran out of the table's time")
        self.timeouts += 1
        if self.timeouts >= self.patience:
            raise self._gone(message, "stopped answering")
        self.record.latencies_ms.append((time.monotonic() - started) * 1000)
        return {"action": "pass"} if message.get("type") == "catch" else {"action": "draw"}
