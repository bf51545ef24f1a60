"""``play_game``: one game between bot callables, speaking PROTOCOL.md.

The engine has no clock: ``time_ms``/``bank_ms`` are added by the sandbox wrapper,
which owns time. Every reply is hostile until checked; nothing a bot returns or
raises can break the engine.

>>> from engine.tables import DRAW
>>> drawer = lambda message: {"action": "draw"}
>>> log = play_game([drawer, drawer], seed=3, ruleset={"turn_limit": 10})
>>> log["result"]["adjudicated"], len(log["events"])
(True, 10)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import CARD_OF, CODES, SUIT_INDEX
from engine.errors import FAULT_REASONS, BotFault, IllegalAction
from engine.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from engine.state import PHASE_CATCH, Event, GameState, deck_order
from engine.tables import CATCH, DRAW, PASS, WILD, play_action

Bot = Callable[[dict[str, Any]], Any]

LOG_FORMAT = "onecard-replay/1"
PROTOCOL_VERSION = 1
DEBUG_LIMIT = 1024
# Kinds whose ``cards`` only their owner may see (for a catch, the target).
_PRIVATE_KINDS = frozenset({"draw", "take", "catch", "fault"})


def play_game(
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    ruleset: Ruleset | str | dict[str, Any] | None = None,
    names: Sequence[str] | None = None,
    game: int = 0,
    orders: Sequence[Sequence[str]] | None = None,
    watch: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play one game and return its log (REPLAY.md).

    ``bots[s]`` answers seat ``s``'s messages. ``deck`` fixes the order (codes,
    index 0 = top); otherwise it is shuffled from ``seed``, which also drives
    reshuffles (a fresh seed is drawn and logged when None). ``orders`` gives the
    reshuffles' new draw piles instead (codes, top first, one per reshuffle), as a
    log does; a reshuffle they do not foresee raises ``IllegalAction``.

    ``watch``, if given, is called once, before the first message, with the log
    being written: its ``events`` and ``debug`` lists grow as the game is played
    and it has no ``result`` yet. It is for reading only (another thread may follow it); a
    spectator costs the game nothing per move.

    >>> seen = []
    >>> drawer = lambda message: {"action": "draw"}
    >>> log = play_game([drawer, drawer], seed=3, ruleset={"turn_limit": 4}, watch=seen.append)
    >>> seen[0]["events"] is log["events"], "result" in seen[0]
    (True, False)
    """
    players = len(bots)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"One-card is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int:
        raise ValueError(f"a seed is an int, not {seed!r}")
    names = _check_names(names, players)
    rules = Ruleset.from_value(ruleset)
    deck_codes = [CODES[c] for c in deck_order(deck, seed)]
    state = GameState.new(players, rules, deck=deck_codes, seed=seed, record=True)
    if orders is not None:
        try:
            state.orders = [[CARD_OF[code] for code in order] for order in orders]
        except (KeyError, TypeError):
            raise ValueError("a reshuffle order is a list of card codes") from None
    match = _Match(list(bots), state, list(names), game)
    log: dict[str, Any] = {
        "format": LOG_FORMAT,
        "ruleset": rules.to_dict(),
        "players": players,
        "names": list(names),
        "seed": seed,
        "deck": deck_codes,
        "game": game,
        "events": match.events,
        "debug": match.debug,
    }
    if watch is not None:
        watch(log)
    match.run()
    return {
        **log,
        "result": state.result(),
        "debug": match.debug,
        "start_faults": match.start_faults,
    }


def _check_names(names: Sequence[str] | None, players: int) -> list[str]:
    if names is None:
        return [f"seat{s}" for s in range(players)]
    if len(names) != players or not all(isinstance(name, str) for name in names):
        raise ValueError("names are one string per seat")
    return list(names)


class _Match:
    """The message loop of one game: who is asked what, and what their reply does."""

    def __init__(self, bots: list[Bot], state: GameState, names: list[str], game: int) -> None:
        self.bots = bots
        self.state = state
        self.names = names
        self.game = game
        assert state.events is not None
        self.events: list[Event] = state.events
        self.seen = [0] * state.n  # how many events each seat has been shown
        self.debug: list[dict[str, Any]] = []
        # Seats that faulted answering ``start``: the events alone cannot tell
        # such a fault from one at the seat's first turn.
        self.start_faults: list[int] = []

    def run(self) -> None:
        state = self.state
        # Every seat hears ``start``, even after faults before it decided the game,
        # so that each seat that gets ``end`` got ``start`` first.
        for seat in range(state.n):
            faults = len(state.faults)
            reply = self._ask(seat, self._start_message(seat))
            if reply is not _FAULTED and not isinstance(reply, dict):
                self._fault(seat, "illegal")
            if len(state.faults) > faults:
                self.start_faults.append(seat)
        while not state.over:
            if state.phase == PHASE_CATCH:
                self._offer_catch(state.offers[0])
            else:
                self._turn(state.to_act)
        for seat in range(state.n):
            if state.alive[seat]:
                self._tell_end(seat)

    def _ask(self, seat: int, message: dict[str, Any]) -> Any:
        """The bot's reply, or _FAULTED when asking it faulted the seat."""
        try:
            reply = self.bots[seat](message)
        except BotFault as fault:
            reason = fault.reason if type(fault.reason) is str else "crash"
            reason = reason if reason in FAULT_REASONS else "crash"
            self._fault(seat, reason)
            return _FAULTED
        except (Exception, SystemExit):
            self._fault(seat, "crash")
            return _FAULTED
        if isinstance(reply, dict):
            self._keep_debug(seat, reply)
        return reply

    def _keep_debug(self, seat: int, reply: dict[Any, Any]) -> None:
        try:
            text = dict.get(reply, "debug")
        except Exception:  # a hostile key's __eq__; the reply is judged elsewhere
            return
        if type(text) is str and text:
            cut = text.encode("utf-8", "replace")[:DEBUG_LIMIT].decode("utf-8", "ignore")
            self.debug.append({"seat": seat, "event": len(self.events), "text": cut})

    def _fault(self, seat: int, reason: str) -> None:
        # Once the game is decided (the others faulted at start) a late fault
        # changes nothing.
        if not self.state.over:
            self.state.fault(seat, reason)

    def _events_for(self, seat: int) -> list[Event]:
        events = self.events
        start = self.seen[seat]
        self.seen[seat] = len(events)
        return [_event_view(e, seat) for e in events[start:]]

    def _start_message(self, seat: int) -> dict[str, Any]:
        state = self.state
        self.seen[seat] = len(self.events)  # a fault at start shows in the first turn
        return {
            "type": "start",
            "protocol": PROTOCOL_VERSION,
            "game": self.game,
            "seat": seat,
            "players": state.n,
            "names": list(self.names),
            "ruleset": state.rules.to_dict(),
            "hand": [CODES[c] for c in state.hands[seat]],
            "top": CODES[state.discard[-1]],
        }

    def _turn(self, seat: int) -> None:
        state = self.state
        message = state.observation(seat)
        message["events"] = self._events_for(seat)
        reply = self._ask(seat, message)
        if reply is _FAULTED:
            return
        try:
            cards, suit, call = self._read_turn_reply(reply)
        except Exception:  # whatever a hostile reply makes us trip over
            self._fault(seat, "illegal")
            return
        try:
            if not cards:
                state.apply(DRAW)
            elif len(cards) == 1:
                state.apply(play_action(cards[0], suit, call))
            else:
                state.play_cards(cards, suit, call)
        except IllegalAction:
            self._fault(seat, "illegal")

    def _read_turn_reply(self, reply: Any) -> tuple[list[int], int, bool]:
        """(cards played, declared suit or -1, call); no cards means draw/take."""
        state = self.state
        if not isinstance(reply, dict):
            raise _Malformed
        action = dict.get(reply, "action")
        if type(action) is not str:
            raise _Malformed
        if action == "draw":
            return [], -1, False
        if action != "play":
            raise _Malformed
        legal = state.legal_cards()
        many = dict.get(reply, "cards") if state.rules.multi_play else None
        if many is not None:
            if type(many) is not list or not 0 < len(many) <= 4:
                raise _Malformed
            cards = [_card(code) for code in many]
        else:
            cards = [_card(dict.get(reply, "card"))]
        if cards[0] not in legal:
            raise _Malformed
        suit = -1
        if state.t.role[cards[-1]] == WILD and len(state.hands[state.to_act]) > len(cards):
            declared = dict.get(reply, "suit")
            if type(declared) is not str or declared not in SUIT_INDEX:
                raise _Malformed
            suit = SUIT_INDEX[declared]
        return cards, suit, dict.get(reply, "call") is True

    def _offer_catch(self, seat: int) -> None:
        state = self.state
        message = state.observation(seat)
        message["type"] = "catch"
        message["target"] = state.lapse
        message["events"] = self._events_for(seat)
        reply = self._ask(seat, message)
        if reply is _FAULTED:
            return
        try:
            answer = dict.get(reply, "action") if isinstance(reply, dict) else None
        except Exception:
            answer = None
        if type(answer) is str and answer in ("catch", "pass"):
            state.apply(CATCH if answer == "catch" else PASS)
        else:
            self._fault(seat, "illegal")

    def _tell_end(self, seat: int) -> None:
        result = self.state.result()
        message = {"type": "end", "seat": seat, **result, "events": self._events_for(seat)}
        # The game is decided: an end reply that raises or is odd changes nothing.
        try:
            self.bots[seat](message)
        except (Exception, SystemExit):
            return


class _Malformed(Exception):
    """A reply that does not say anything the rules could accept."""


_FAULTED: Any = object()


def _card(code: Any) -> int:
    if type(code) is not str or code not in CARD_OF:
        raise _Malformed
    return CARD_OF[code]


def event_view(event: Event, seat: int | None) -> Event:
    """A copy of ``event`` as ``seat`` may see it, as the protocol shows it to a bot:
    other seats' drawn cards hidden, a reshuffle without its order. ``None`` is a
    spectator, who sees no seat's cards.

    >>> event_view({"seat": 1, "kind": "draw", "count": 1, "cards": ["4C"]}, None)
    {'seat': 1, 'kind': 'draw', 'count': 1}
    """
    return _event_view(event, -1 if seat is None else seat)


def _event_view(event: Event, seat: int) -> Event:
    """A copy of ``event`` as ``seat`` may see it: other seats' drawn cards hidden,
    a reshuffle without its order."""
    kind = event["kind"]
    if kind == "reshuffle":
        return {"kind": "reshuffle", "count": event["count"]}
    view = dict(event)
    if kind in _PRIVATE_KINDS:
        owner = event["target"] if kind == "catch" else event["seat"]
        if owner == seat:
            view["cards"] = list(event["cards"])
        else:
            del view["cards"]
    elif "cards" in view:
        view["cards"] = list(view["cards"])
    return view
