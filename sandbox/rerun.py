"""Rerunning a logged game with a bot of one's own: the same messages, byte for
byte, until the bot answers otherwise than the logged one did.

The engine plays the game again from the log's deck, ruleset and reshuffles. The
opponents answer as the log says (``engine.seat_messages``); the rerun seat is a
real bot process, sent each message with the time fields the log recorded
(``docs/replay.md``, Time fields), so what it reads is what it read on the server.
At the first reply that means something else (another card, a draw instead of a
play, a fault that did not happen or one that did not happen then), the game has
left the log: the opponents become a built-in bot and the game is played out.

>>> canonical({"action": "play", "card": "QS", "call": True},
...           {"type": "turn", "legal": ["QS"], "hand": ["QS", "4D", "9C"]}, None)
('play', ('QS',), None, False)
>>> describe(("draw",)), describe(("play", ("7H",), "S", True)), describe("timeout")
('drew', 'played 7H naming S and called One Card', 'faulted (timeout)')
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from bots_examples import builtin_bots
from engine.bot import role
from engine.errors import BotFault
from sandbox.limits import Limits
from sandbox.seat import SandboxedBot

# A reply as the rules read it: ("draw",), ("catch",), ("pass",), ("answer",) for
# start and end, ("play", cards, suit or None, call); or a fault's reason.
Meaning = tuple[Any, ...] | str
Bot = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Deviation:
    """Where the local bot first answered otherwise than the logged one."""

    message: int  # index among the seat's messages
    kind: str
    turn: int | None
    logged: str
    local: str

    def sentence(self) -> str:
        where = f"turn {self.turn + 1}" if isinstance(self.turn, int) else f"the {self.kind}"
        if self.kind == "catch" and isinstance(self.turn, int):
            where = f"the catch offer at turn {self.turn + 1}"
        return (
            f"At {where} (message {self.message + 1}): the logged bot {self.logged};"
            f" yours {self.local}."
        )


@dataclass
class RerunReport:
    seat: int
    messages: int  # messages the local bot received
    same: int  # of them, the first `same` were the logged ones, byte for byte
    logged_messages: int
    deviation: Deviation | None
    clock_logged: bool  # False: the log kept no time fields; the defaults were sent
    result: dict[str, Any]
    opponent: str


def canonical(reply: Any, message: dict[str, Any], ruleset: dict[str, Any] | None) -> Meaning:
    """What a reply to ``message`` does under the rules, or "illegal"."""
    kind = message.get("type")
    if kind in ("start", "end"):
        return ("answer",) if isinstance(reply, dict) else "illegal"
    if not isinstance(reply, dict) or not isinstance(reply.get("action"), str):
        return "illegal"
    action = reply["action"]
    if kind == "catch":
        return (action,) if action in ("catch", "pass") else "illegal"
    if action == "draw":
        return ("draw",)
    if action != "play":
        return "illegal"
    multi = bool((ruleset or {}).get("multi_play")) and reply.get("cards") is not None
    cards = reply.get("cards") if multi else [reply.get("card")]
    if not isinstance(cards, list) or not 0 < len(cards) <= 4:
        return "illegal"
    if not all(isinstance(c, str) for c in cards) or cards[0] not in message.get("legal", []):
        return "illegal"
    left = len(message.get("hand", [])) - len(cards)
    suit = None
    if left > 0 and role(cards[-1], ruleset) == "wild":
        suit = reply.get("suit")
        if suit not in ("S", "H", "D", "C"):
            return "illegal"
    return ("play", tuple(cards), suit, left == 1 and reply.get("call") is True)


def describe(meaning: Meaning) -> str:
    if isinstance(meaning, str):
        return f"faulted ({meaning})"
    action = meaning[0]
    if action == "play":
        words = f"played {', '.join(meaning[1])}"
        if meaning[2]:
            words += f" naming {meaning[2]}"
        return words + (" and called One Card" if meaning[3] else "")
    return {"draw": "drew", "catch": "caught", "pass": "passed", "answer": "answered"}[action]


class _Clock:
    """The logged time fields of the rerun seat's messages, in order."""

    def __init__(self, runs: Any) -> None:
        self.values: list[tuple[int, int]] = []
        if isinstance(runs, list):
            for run in runs:
                if isinstance(run, list) and len(run) == 3 and all(type(x) is int for x in run):
                    self.values += [(run[1], run[2])] * run[0]
        self.logged = bool(self.values)
        self.position = 0
        self.following = True

    def __call__(self, message: dict[str, Any]) -> tuple[int, int] | None:
        position = self.position
        self.position += 1
        if not self.following or position >= len(self.values):
            return None
        return self.values[position]


def logged_limits(log: dict[str, Any], seat: int) -> Limits:
    """The limits the seat's logged time fields show (the defaults where they do not)."""
    timing = log.get("timing")
    runs = timing[seat].get("clock") if isinstance(timing, list) and seat < len(timing) else None
    values = _Clock(runs).values
    if not values:
        return Limits()
    turns = [t for t, _ in values[1:]] or [values[0][0]]
    message_ms = max(set(turns), key=turns.count)
    return Limits(message_ms=message_ms, bank_ms=max(1, values[0][1]), first_start_ms=values[0][0])


def rerun_game(
    log: dict[str, Any],
    *,
    seat: int,
    launch: Callable[[Limits], Any],
    opponent: str = "heuristic",
) -> RerunReport:
    """Play the game of ``log`` again with the bot ``launch(limits)`` starts (a
    ``BotProcess``) at ``seat``. Raises ``engine.ReplayError`` for a log that does
    not replay."""
    logged = engine.seat_messages(log, seat)
    players = int(log["players"])
    others = {s: engine.seat_messages(log, s) for s in range(players) if s != seat}
    timing = log.get("timing")
    runs = timing[seat].get("clock") if isinstance(timing, list) and seat < len(timing) else None
    clock = _Clock(runs)
    limits = logged_limits(log, seat)
    deadline = time.monotonic() + limits.match_s
    mine = SandboxedBot(lambda: launch(limits), limits, match_deadline=deadline, clock=clock)
    state = _Rerun(logged, others, log, events=log.get("events") or [], opponent=opponent)
    try:
        mine.ensure_running()
        mine.begin_game()
        result = engine.play_game(
            [
                state.seat_bot(mine, clock) if s == seat else state.opponent_bot(s)
                for s in range(players)
            ],
            seed=log["seed"] if type(log.get("seed")) is int else 0,
            deck=log.get("deck"),
            ruleset=log.get("ruleset"),
            names=log.get("names"),
            game=log["game"] if type(log.get("game")) is int else 0,
            orders=[e.get("order") for e in log.get("events", []) if e.get("kind") == "reshuffle"],
        )
    finally:
        mine.end_game(faulted=None, last=True)
    if state.problem is not None:
        raise engine.ReplayError(f"the log does not replay exactly: {state.problem}")
    return RerunReport(
        seat=seat,
        messages=state.asked,
        same=state.same,
        logged_messages=len(logged),
        deviation=state.deviation,
        clock_logged=clock.logged,
        result=result["result"],
        opponent=opponent,
    )


class _Rerun:
    """The game as it goes: on the log until the rerun seat leaves it."""

    def __init__(
        self,
        logged: list[engine.SeatExchange],
        others: dict[int, list[engine.SeatExchange]],
        log: dict[str, Any],
        *,
        events: list[Any],
        opponent: str,
    ) -> None:
        self.logged = logged
        self.others = others
        self.events = events
        self.ruleset = engine.Ruleset.from_value(log.get("ruleset")).to_dict()
        self.factory = builtin_bots()[opponent]
        self.opponent = opponent
        self.deviation: Deviation | None = None
        self.asked = 0
        self.same = 0
        self.problem: str | None = None

    def _logged_meaning(self, exchange: engine.SeatExchange) -> Meaning:
        if exchange.reply is None and exchange.event is not None:
            return str(self.events[exchange.event].get("reason"))
        reply = exchange.reply if exchange.reply is not None else {}
        return canonical(reply, exchange.message, self.ruleset)

    def seat_bot(self, bot: SandboxedBot, clock: _Clock) -> Bot:
        def answer(message: dict[str, Any]) -> Any:
            index = self.asked
            self.asked += 1
            on_log = self.deviation is None and index < len(self.logged)
            if on_log and self.logged[index].message == message:
                self.same += 1
            elif on_log and self.problem is None:
                # Every reply so far meant what the logged one did, so the engine
                # should have built the logged message: the log is not this game's.
                self.problem = f"message {index + 1} is not the one in the log"
            fault: BotFault | None = None
            reply: Any = None
            try:
                reply = bot(message)
                local: Meaning = canonical(reply, message, self.ruleset)
            except BotFault as error:
                fault = error
                local = error.reason
            if on_log:
                expected = self._logged_meaning(self.logged[index])
                if local != expected:
                    self.deviation = Deviation(
                        message=index,
                        kind=str(message.get("type")),
                        turn=message.get("turn") if type(message.get("turn")) is int else None,
                        logged=describe(expected),
                        local=describe(local),
                    )
                    clock.following = False
            if fault is not None:
                raise fault
            return reply

        return answer

    def opponent_bot(self, seat: int) -> Bot:
        exchanges = self.others[seat]
        seen: list[dict[str, Any]] = []
        built: list[Bot] = []

        def answer(message: dict[str, Any]) -> Any:
            position = len(seen)
            seen.append(json.loads(json.dumps(message)))
            if self.deviation is None and position < len(exchanges):
                exchange = exchanges[position]
                if exchange.reply is None and exchange.event is not None:
                    raise BotFault(str(self.events[exchange.event].get("reason")))
                return dict(exchange.reply or {})
            if not built:
                # A built-in bot takes over mid-game: it hears the game's start first.
                built.append(self.factory(seat))
                built[0](seen[0])
            return built[0](message)

        return answer


def seat_for(log: dict[str, Any], name: str) -> int | None:
    """The seat a bot file's name plays in the log, if exactly one has that name."""
    names: Sequence[Any] = log.get("names") or []
    matching = [seat for seat, seat_name in enumerate(names) if seat_name == name]
    return matching[0] if len(matching) == 1 else None


class LogUnavailable(Exception):
    """A log that cannot be had: a missing file, an address the site does not
    know, a refused token. The message is a sentence for the user."""


_SITE_PATHS = (
    # (a page or API address of a game, the API address of its log)
    (
        re.compile(r"/(?:api/v1/)?matches/(\d+)/games/(\d+)(?:/.*)?$"),
        "/api/v1/matches/{}/games/{}/log/",
    ),
    (re.compile(r"/(?:api/v1/)?games/(\d+)(?:/.*)?$"), "/api/v1/games/{}/log/"),
    (
        re.compile(r"/(?:my/|api/v1/)versions/(\d+)/qualification/(\d+)(?:/.*)?$"),
        "/api/v1/versions/{}/qualification/{}/log/",
    ),
)


def log_address(url: str) -> str:
    """The API address that serves the log of the game a site address shows.

    >>> log_address("https://arena.example/matches/123/games/2/")
    'https://arena.example/api/v1/matches/123/games/2/log/'
    >>> log_address("http://localhost:8000/games/7/replay/#frame=12")
    'http://localhost:8000/api/v1/games/7/log/'
    """
    parts = urllib.parse.urlsplit(url)
    for pattern, api in _SITE_PATHS:
        found = pattern.search(parts.path)
        if found:
            return urllib.parse.urlunsplit(
                (parts.scheme, parts.netloc, api.format(*found.groups()), "", "")
            )
    raise LogUnavailable(
        f"{url} is not the address of a game: use a match's game "
        "(/matches/<id>/games/<n>/), a replay (/games/<id>/replay/) or a qualification game"
    )


def log_load(source: str, *, token: str | None = None, timeout_s: float = 30.0) -> dict[str, Any]:
    """A game log from a file, or from the site at ``source`` (an http(s) address),
    with the user's API token for what only they may see."""
    if not source.startswith(("http://", "https://")):
        try:
            with open(source, encoding="utf-8") as file:
                data = json.load(file)
        except OSError as error:
            raise LogUnavailable(f"cannot read {source}: {error.strerror or error}") from None
        except ValueError:
            raise LogUnavailable(f"{source} is not a JSON game log") from None
    else:
        # Only http(s) gets here (checked above), so no file: or custom scheme.
        request = urllib.request.Request(  # noqa: S310
            log_address(source), headers={"Accept": "application/json"}
        )
        if token:
            request.add_header("Authorization", f"Token {token}")
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as response:  # noqa: S310
                data = json.load(response)
        except urllib.error.HTTPError as error:
            raise LogUnavailable(_refused(error.code, token)) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise LogUnavailable(f"cannot fetch the log from {source}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != "onecard-replay/1":
        raise LogUnavailable(f"{source} is not a game log (onecard-replay/1)")
    return data


def _refused(code: int, token: str | None) -> str:
    if code == 401 and not token:
        return "this log is private: give your API token with --token (or ONECARD_TOKEN)"
    if code == 401:
        return "the site refused the token: copy your API token from your profile page"
    if code == 404 and not token:
        return "the site has no such game, or it is private: give your API token with --token"
    if code == 404:
        return "the site has no such game that this token's account may see"
    return f"the site answered {code}"
