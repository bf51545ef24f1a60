"""Re-running a game log (REPLAY.md): check it, and watch it state by state.

Each decision in the log (a play, shield, draw, take, catch, pass or fault) is
applied to a fresh state dealt from the log's deck; the events the state produces
must be the events the log holds, reshuffle orders coming from the log itself.
Anything else is a ReplayError naming the first bad event.

>>> from engine.game import play_game
>>> drawer = lambda message: {"action": "draw"}
>>> log = play_game([drawer, drawer], seed=5, ruleset={"turn_limit": 6})
>>> [state.turn for state in replay(log)]
[1, 2, 3, 4, 5, 6]
>>> replay_frames(log)[0]["event"] is None
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine.cards import CARD_OF, CODES, SUIT_INDEX, SUITS
from engine.errors import FAULT_REASONS, IllegalAction, ReplayError, RulesetError
from engine.game import LOG_FORMAT
from engine.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from engine.state import PHASE_CATCH, PHASE_TURN, Event, GameState
from engine.tables import CATCH, DRAW, PASS, play_action

# Kinds a replayer acts on; any other kind (skip, reverse, unknown) is informational.
CORE_KINDS = frozenset(
    {"play", "draw", "take", "shield", "call", "pass", "catch", "reshuffle", "fault"}
)
_DECISIONS = {"play", "shield", "draw", "take", "pass", "catch", "fault"}


def replay(log: dict[str, Any]) -> Iterator[GameState]:
    """The state after each event of ``log`` (independent copies), checking as it
    goes; raises ReplayError at the first event that does not replay."""
    for index, _event, state in _walk(log):
        if index >= 0:
            yield state.clone()


def replay_frames(log: dict[str, Any], *, unfinished: bool = False) -> list[dict[str, Any]]:
    """JSON snapshots for the replay viewer: frame 0 after the deal, frame i after
    event i-1.

    ``unfinished`` takes the log of a game still being played (no ``result``, the
    events so far, as ``play_game``'s ``watch`` sees it): its frames up to the last
    event. Events are checked as ever.

    >>> from engine.game import play_game
    >>> drawer = lambda message: {"action": "draw"}
    >>> log = play_game([drawer, drawer], seed=5, ruleset={"turn_limit": 6})
    >>> partial = {**log, "events": log["events"][:3]}
    >>> del partial["result"]
    >>> len(replay_frames(partial, unfinished=True)), len(replay_frames(log))
    (4, 7)
    """
    return [
        _frame(index + 1, event, state) for index, event, state in _walk(log, unfinished=unfinished)
    ]


def _frame(number: int, event: Event | None, state: GameState) -> dict[str, Any]:
    finished = state.over
    return {
        "index": number,
        "event": event,
        "hands": [
            [CODES[c] for c in hand] if alive else None
            for hand, alive in zip(state.hands, state.alive, strict=True)
        ],
        "top": CODES[state.discard[-1]],
        "suit": SUITS[state.suit] if state.suit >= 0 else None,
        "attack": ({"total": state.atk_total, "last": state.atk_last} if state.atk_total else None),
        "direction": state.direction,
        "to_act": None if finished else state.to_act,
        "turn": state.turn,
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "finished": finished,
    }


def _bad(index: int, event: Any, reason: str) -> ReplayError:
    try:
        shown = json.dumps(event, sort_keys=True)
    except (TypeError, ValueError):
        shown = repr(event)
    if len(shown) > 300:
        shown = shown[:300] + "..."
    return ReplayError(f"event {index} {shown}: {reason}")


def _start(log: Any, *, unfinished: bool = False) -> tuple[GameState, list[Any]]:
    if not isinstance(log, dict):
        raise ReplayError("a game log is a JSON object")
    if log.get("format") != LOG_FORMAT:
        raise ReplayError(f"format is not {LOG_FORMAT!r}")
    players = log.get("players")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ReplayError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    try:
        rules = Ruleset.from_value(log.get("ruleset"))
    except RulesetError as error:
        raise ReplayError(f"ruleset: {error}") from None
    deck = log.get("deck")
    if not isinstance(deck, list):
        raise ReplayError("deck must be the list of 54 card codes")
    events = log.get("events")
    if not isinstance(events, list):
        raise ReplayError("events must be a list")
    if not unfinished and not isinstance(log.get("result"), dict):
        raise ReplayError("result must be an object")
    try:
        state = GameState.new(players, rules, deck=deck, record=True)
    except (ValueError, TypeError) as error:
        raise ReplayError(f"deck: {error}") from None
    state.orders = []  # reshuffles come from the log, not from a generator
    return state, events


def _walk(
    log: dict[str, Any], *, unfinished: bool = False
) -> Iterator[tuple[int, Event | None, GameState]]:
    """(event index, event, state after it), starting with (-1, None, dealt state).

    The events of one decision (reshuffles before it, a call after it) all show
    the state after the whole decision. ``unfinished``: the game may go on after
    the last event, and there is no result to compare.
    """
    state, events = _start(log, unfinished=unfinished)
    produced = state.events
    assert produced is not None
    yield -1, None, state
    reshuffles: list[int] = []
    call_at = -1
    dealt = True  # still at the start, where any seat may fault
    for index, event in enumerate(events):
        if not isinstance(event, dict):
            raise _bad(index, event, "an event is an object")
        kind = event.get("kind")
        if index == call_at or kind not in CORE_KINDS:
            yield index, event, state
            continue
        if state.over:
            raise _bad(index, event, "the game was already over")
        if kind == "reshuffle":
            state.orders.append(_cards(index, event, "order"))  # type: ignore[union-attr]
            reshuffles.append(index)
            continue
        if kind == "call":
            raise _bad(index, event, "a call belongs right after its play")
        call_at = _call_index(events, index) if kind in ("play", "shield") else -1
        before = len(produced)
        try:
            _decide(state, event, kind, call=call_at >= 0, dealt=dealt)
        except IllegalAction as error:
            raise _bad(index, event, str(error)) from None
        dealt = dealt and kind == "fault"
        expected = [*reshuffles, index] + ([call_at] if call_at >= 0 else [])
        made = [e for e in produced[before:] if e["kind"] in CORE_KINDS]
        _compare(events, expected, made)
        if state.orders:
            raise _bad(reshuffles[-1], events[reshuffles[-1]], "a reshuffle that never happened")
        for at in reshuffles:
            yield at, events[at], state
        reshuffles = []
        yield index, event, state
    if unfinished:
        return  # a reshuffle at the end belongs to a draw not yet logged
    if reshuffles:
        raise _bad(reshuffles[0], events[reshuffles[0]], "a reshuffle that never happened")
    if not state.over:
        raise ReplayError(f"the events end after event {len(events) - 1} but the game goes on")
    result = state.result()
    logged = log["result"]
    for key, value in result.items():
        if logged.get(key) != value:
            raise ReplayError(f"result {key} is {logged.get(key)!r} but the events give {value!r}")


def _call_index(events: list[Any], index: int) -> int:
    """Where the call of the play at ``index`` is, or -1 when it made none."""
    for later in range(index + 1, len(events)):
        event = events[later]
        kind = event.get("kind") if isinstance(event, dict) else None
        if kind in CORE_KINDS:
            return later if kind == "call" else -1
    return -1


def _compare(events: list[Any], expected: list[int], made: list[Event]) -> None:
    for position, index in enumerate(expected):
        logged = events[index]
        if position >= len(made):
            raise _bad(index, logged, "the rules produce no such event here")
        mine = made[position]
        if any(logged.get(key) != value for key, value in mine.items()):
            raise _bad(index, logged, f"the rules give {json.dumps(mine)}")
    if len(made) > len(expected):
        index = expected[-1]
        raise _bad(index, events[index], f"missing the event {json.dumps(made[len(expected)])}")


def _decide(state: GameState, event: Event, kind: str, *, call: bool, dealt: bool) -> None:
    seat = event.get("seat")
    if kind == "fault":
        if type(seat) is not int or not 0 <= seat < state.n:
            raise IllegalAction("no such seat")
        if not dealt and seat != state.deciding:
            raise IllegalAction(f"seat {seat} was not asked anything")
        reason = event.get("reason")
        if reason not in FAULT_REASONS:
            raise IllegalAction(f"unknown fault reason {reason!r}")
        state.fault(seat, reason)
        return
    if seat != state.deciding:
        raise IllegalAction(f"it is seat {state.deciding}'s decision, not {seat!r}'s")
    if kind in ("pass", "catch"):
        if state.phase != PHASE_CATCH:
            raise IllegalAction("no catch is on offer")
        state.apply(CATCH if kind == "catch" else PASS)
        return
    if state.phase != PHASE_TURN:
        raise IllegalAction("a catch offer is pending, not a turn")
    if kind in ("draw", "take"):
        state.apply(DRAW)
        return
    if "cards" in event:
        codes = event["cards"]
        if not isinstance(codes, list):
            raise IllegalAction("cards must be a list of card codes")
        cards = [_card(code) for code in codes]
    else:
        cards = [_card(event.get("card"))]
    declared = event.get("suit")
    suit = SUIT_INDEX[declared] if isinstance(declared, str) and declared in SUIT_INDEX else -1
    if len(cards) == 1 and "cards" not in event:
        state.apply(play_action(cards[0], suit, call))
    else:
        state.play_cards(cards, suit, call)


def _card(code: Any) -> int:
    if not isinstance(code, str) or code not in CARD_OF:
        raise IllegalAction(f"{code!r} is not a card code")
    return CARD_OF[code]


def _cards(index: int, event: Event, key: str) -> list[int]:
    codes = event.get(key)
    if not isinstance(codes, list):
        raise _bad(index, event, f"{key} must be a list of card codes")
    try:
        return [_card(code) for code in codes]
    except IllegalAction as error:
        raise _bad(index, event, str(error)) from None
