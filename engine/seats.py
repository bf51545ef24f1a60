"""What one seat was told in a logged game, message by message, with its replies.

A log (REPLAY.md) names every decision but not the messages: those follow from
the rules. ``seat_messages`` plays the game again through ``play_game`` with
scripted bots that answer as the log says (the log's deck, reshuffle orders,
ruleset, names and game number), and keeps what the engine sent the seat. So the
messages are the engine's own, not a second reading of the rules; and the run is
checked against the log event by event, so a log that does not replay is a
``ReplayError``, never a list of invented messages.

>>> from engine.game import play_game
>>> drawer = lambda message: {"action": "draw"}
>>> log = play_game([drawer, drawer], seed=5, ruleset={"turn_limit": 4})
>>> [(x.message["type"], x.reply, x.event) for x in seat_messages(log, 1)]
... # doctest: +NORMALIZE_WHITESPACE
[('start', None, None), ('turn', {'action': 'draw'}, 1), ('turn', {'action': 'draw'}, 3),
 ('end', None, None)]
>>> seat_messages(log, 1)[1].message["events"][0]["kind"]
'draw'
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any

from engine.errors import FAULT_REASONS, BotFault, ReplayError
from engine.game import play_game
from engine.replay import CORE_KINDS
from engine.ruleset import MAX_PLAYERS, MIN_PLAYERS
from engine.state import Event

_DECISIONS = frozenset({"play", "shield", "draw", "take", "pass", "catch", "fault"})


@dataclass(frozen=True)
class SeatExchange:
    """One message a seat received and what the log says it answered.

    ``reply`` is None where the log cannot know the reply: a ``start`` or ``end``
    (any object would do), or a reply that faulted. ``event`` is the index in
    ``log["events"]`` of the event the reply produced (the play, draw, catch,
    pass or fault), None when it produced none.
    """

    message: dict[str, Any]
    reply: dict[str, Any] | None
    event: int | None


@dataclass(frozen=True)
class _Decision:
    index: int
    reply: dict[str, Any] | None  # None: the seat faulted with ``fault``
    fault: str | None


def seat_messages(log: dict[str, Any], seat: int) -> list[SeatExchange]:
    """Every message ``seat`` received in the game of ``log``, in order, each with
    the reply the log shows for it.

    Raises ReplayError when the log does not replay, or ``seat`` is not one of its
    seats.
    """
    players = log.get("players") if isinstance(log, dict) else None
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ReplayError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    if type(seat) is not int or not 0 <= seat < players:
        raise ReplayError(f"seat {seat!r} is not one of the game's {players} seats")
    events = log.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ReplayError("events must be a list of objects")
    queues = _decisions(events, players)
    start_faults = _start_faults(log, events)
    script = _Script(queues, start_faults)
    watched: list[SeatExchange] = []

    def bot_for(at: int) -> Any:
        def bot(message: dict[str, Any]) -> Any:
            # A copy: what the engine sent, whatever happens to the message next.
            sent = json.loads(json.dumps(message))
            decision = script.answer(at, message["type"])
            if at == seat:
                reply = None if decision is None else decision.reply
                index = None if decision is None else decision.index
                watched.append(SeatExchange(sent, reply, index))
            if decision is None:
                return {}
            if decision.fault is not None:
                raise BotFault(decision.fault)
            return dict(decision.reply or {})

        return bot

    seed, game = log.get("seed"), log.get("game")
    try:
        replayed = play_game(
            [bot_for(at) for at in range(players)],
            seed=seed if isinstance(seed, int) else 0,
            deck=log.get("deck"),
            ruleset=log.get("ruleset"),
            names=log.get("names"),
            # Logs written before the game number was logged: their first game.
            game=game if isinstance(game, int) else 0,
            orders=[e.get("order") for e in events if e.get("kind") == "reshuffle"],
        )
    except (ValueError, TypeError) as error:  # IllegalAction is a ValueError
        raise ReplayError(f"the log does not replay: {error}") from None
    if script.problem is not None:
        raise ReplayError(script.problem)
    _check(events, replayed["events"], log.get("result"), replayed["result"])
    return watched


def _decisions(events: list[Event], players: int) -> list[deque[_Decision]]:
    """Per seat, its decisions in the order it made them, each as a reply."""
    queues: list[deque[_Decision]] = [deque() for _ in range(players)]
    for index, event in enumerate(events):
        kind = event.get("kind")
        if kind not in _DECISIONS:
            continue
        at = event.get("seat")
        if type(at) is not int or not 0 <= at < players:
            raise ReplayError(f"event {index}: no seat {at!r} in this game")
        if kind == "fault":
            reason = event.get("reason")
            if reason not in FAULT_REASONS:
                raise ReplayError(f"event {index}: unknown fault reason {reason!r}")
            queues[at].append(_Decision(index, None, reason))
        else:
            queues[at].append(_Decision(index, _reply(events, index, event), None))
    return queues


def _reply(events: list[Event], index: int, event: Event) -> dict[str, Any]:
    """The reply that made a decision event: the least a bot must have said."""
    kind = event["kind"]
    if kind in ("draw", "take"):
        return {"action": "draw"}
    if kind in ("catch", "pass"):
        return {"action": kind}
    reply: dict[str, Any] = {"action": "play"}
    if "cards" in event:
        reply["cards"] = event["cards"]
    else:
        reply["card"] = event.get("card")
    if "suit" in event:
        reply["suit"] = event["suit"]
    if _called(events, index):
        reply["call"] = True
    return reply


def _called(events: list[Event], index: int) -> bool:
    for event in events[index + 1 :]:
        if event.get("kind") in CORE_KINDS:
            return bool(event.get("kind") == "call")
    return False


def _start_faults(log: dict[str, Any], events: list[Event]) -> set[int]:
    """The seats that faulted at ``start``: as logged, or for a log that does not
    say, the faults before the first other decision in rising seat order (the
    order seats are asked to start)."""
    logged = log.get("start_faults")
    if isinstance(logged, list):
        return {s for s in logged if type(s) is int}
    seats: list[int] = []
    for event in events:
        kind = event.get("kind")
        if kind not in CORE_KINDS:
            continue
        if kind != "fault" or (seats and event.get("seat", -1) <= seats[-1]):
            break
        seats.append(event.get("seat", -1))
    return set(seats)


class _Script:
    """Answers each seat as the log does; notes the first thing the log lacks."""

    def __init__(self, queues: list[deque[_Decision]], start_faults: set[int]) -> None:
        self.queues = queues
        self.start_faults = start_faults
        self.problem: str | None = None

    def answer(self, seat: int, kind: str) -> _Decision | None:
        """The decision that answers ``seat``'s message of type ``kind``; None
        where any object will do (``start`` and ``end``)."""
        if kind == "end" or (kind == "start" and seat not in self.start_faults):
            return None
        queue = self.queues[seat]
        decision = queue.popleft() if queue else None
        if decision is None or (kind == "start" and decision.fault is None):
            if self.problem is None:
                self.problem = f"the log does not replay: seat {seat} has no reply for its {kind}"
            return _Decision(-1, None, "crash")
        return decision


def _check(logged: list[Event], made: list[Event], result: Any, made_result: Any) -> None:
    """The replayed game must be the logged one: every core event, field by field."""
    mine = [e for e in made if e["kind"] in CORE_KINDS]
    theirs = [(i, e) for i, e in enumerate(logged) if e.get("kind") in CORE_KINDS]
    for (index, event), produced in zip(theirs, mine, strict=False):
        if any(event.get(key) != value for key, value in produced.items()):
            raise ReplayError(
                f"event {index}: the log has {json.dumps(event, sort_keys=True)[:300]}"
                f" but the rules give {json.dumps(produced)[:300]}"
            )
    if len(mine) != len(theirs):
        raise ReplayError(f"the log has {len(theirs)} core events but the game gives {len(mine)}")
    if not isinstance(result, dict) or any(result.get(k) != v for k, v in made_result.items()):
        raise ReplayError("the log's result is not the one its events give")
