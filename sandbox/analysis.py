"""The search's verdict on each decision of a game, each seat's from that seat's
messages alone (`engine.seat_messages`): what the bot answered, what the search
prefers, and the chance of finishing first after each. `onecard analyse` prints
it as a table; the platform stores it beside a game's log (`arena.analysis`).

The search never sees the log: only the messages the engine built for the seat,
so nothing hidden from the seat (other hands, the draw pile's order) can reach
it. Its seed comes from the settings and the seat, never from the log's seed,
which would tell the deck.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import engine
from bots_examples import search_bot
from bots_examples.search_bot import SearchPlayer
from engine.bot import role
from engine.cards import CARD_OF

DECISION_TYPES = frozenset({"turn", "catch"})


def _search_version() -> str:
    """The search's version is its code: the bot's and the engine's it plays out
    with (sampling, playouts and reshuffles all come from the engine). Any change
    makes new analyses; the old ones stay under the version that computed them."""
    digest = hashlib.sha256()
    for path in [Path(search_bot.__file__), *sorted(Path(engine.__file__).parent.glob("*.py"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


SEARCH_VERSION = _search_version()


@dataclass(frozen=True)
class SearchSettings:
    """What makes two analyses of one game the same analysis."""

    iterations: int
    seed: int = 0
    version: str = SEARCH_VERSION

    @property
    def key(self) -> str:
        return f"search-{self.version}:iterations-{self.iterations}:seed-{self.seed}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    number: int
    seat: int
    event: int | None
    turn: int
    kind: str
    under_attack: bool
    taken: dict[str, Any] | None
    taken_win: float | None
    preferred: dict[str, Any]
    preferred_win: float | None
    loss: float | None
    agrees: bool
    candidates: int


def _seat_exchanges(log: dict[str, Any]) -> list[list[engine.SeatExchange]]:
    return [engine.seat_messages(log, seat) for seat in range(int(log["players"]))]


def _decision_order(exchanges: list[list[engine.SeatExchange]]) -> list[tuple[int, int]]:
    """(seat, index in its exchanges) of every decision, in the order they were
    made: by the event each produced (a reply that produced none goes last)."""
    order: list[tuple[float, int, int]] = []
    for seat, own in enumerate(exchanges):
        for index, exchange in enumerate(own):
            if exchange.message.get("type") in DECISION_TYPES:
                at = float("inf") if exchange.event is None else exchange.event
                order.append((at, seat, index))
    order.sort()
    return [(seat, index) for _, seat, index in order]


def decisions_count(log: dict[str, Any]) -> int:
    return len(_decision_order(_seat_exchanges(log)))


def reply_key(reply: Any, *, hand_size: int, rules: engine.Ruleset) -> tuple[Any, ...] | None:
    """What a reply does, so that equal moves compare equal (None: no move at all).

    A declared suit matters only for a wild card that is not the last card. The
    "One Card!" call is left out: the search always calls (not calling can only be
    caught), so a bot's play that forgets to is weighed as the same play, without
    the risk of being caught.
    """
    if not isinstance(reply, dict):
        return None
    action = reply.get("action")
    if action in ("draw", "catch", "pass"):
        return (action,)
    if action != "play":
        return None
    cards = reply.get("cards") or [reply.get("card")]
    if not isinstance(cards, list) or not all(
        isinstance(card, str) and card in CARD_OF for card in cards
    ):
        return None
    wild = role(cards[-1], rules) == "wild"
    suit = reply.get("suit") if wild and hand_size > len(cards) else None
    return ("play", tuple(cards), suit)


def _move(reply: dict[str, Any]) -> dict[str, Any]:
    """A candidate reply as stored: without the call, which every candidate makes."""
    return {field: value for field, value in reply.items() if field != "call"}


def _seed(settings: SearchSettings, seat: int) -> int:
    # crc32, not hash(): the same in every process, so an analysis is reproducible.
    return zlib.crc32(f"{settings.seed}:{seat}".encode())


def game_decisions(log: dict[str, Any], *, settings: SearchSettings) -> Iterator[Decision]:
    """Every decision of the game in the order it was made, each analysed by a
    search that has observed that seat's messages up to it and nothing else."""
    rules = engine.Ruleset.from_value(log["ruleset"])
    players = int(log["players"])
    exchanges = _seat_exchanges(log)
    # Every candidate gets as many playouts (no halving): the move that was made
    # needs an estimate as good as the preferred one's for the loss to mean anything.
    searches = [
        SearchPlayer(seed=_seed(settings, seat), iterations=settings.iterations, halving=False)
        for seat in range(players)
    ]
    observed = [0] * players
    for number, (seat, index) in enumerate(_decision_order(exchanges)):
        for exchange in exchanges[seat][observed[seat] : index + 1]:
            searches[seat].observe(exchange.message)
        observed[seat] = index + 1
        exchange = exchanges[seat][index]
        message = exchange.message
        values = searches[seat].analyse(message, iterations=settings.iterations)
        hand_size = len(message.get("hand") or [])
        best = values[0]
        taken_key = reply_key(exchange.reply, hand_size=hand_size, rules=rules)
        keys = [reply_key(value.reply, hand_size=hand_size, rules=rules) for value in values]
        # A forced reply (a draw with nothing to play) has no alternative to weigh:
        # the search plays nothing out, so neither chance is known and nothing is lost.
        forced = len(values) == 1
        taken = next((v for v, key in zip(values, keys, strict=True) if key == taken_key), None)
        if taken is None:
            loss = None
        elif forced:
            loss = 0.0
        else:
            loss = best.win - taken.win
        yield Decision(
            number=number,
            seat=seat,
            event=exchange.event,
            turn=int(message.get("turn", 0)),
            kind=str(message["type"]),
            under_attack=message.get("attack") is not None,
            # The search's spelling of the bot's move: what a bot sends beyond its move
            # (a debug text, its owner's alone; junk in fields that do not count) stays out.
            taken=None if taken is None else _move(taken.reply),
            taken_win=None if forced or taken is None else taken.win,
            preferred=_move(best.reply),
            preferred_win=None if forced else best.win,
            loss=loss,
            agrees=taken_key is not None and taken_key == keys[0],
            candidates=len(values),
        )


# The mistakes marked per seat: its worst decisions, at most this many, each losing
# at least MISTAKE_MIN_LOSS of its chance to finish first.
MISTAKES_PER_SEAT = 3
MISTAKE_MIN_LOSS = 0.05


class Judged(Protocol):
    """A decision as stored anywhere (a `Decision`, a database row)."""

    @property
    def number(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def loss(self) -> float | None: ...


def biggest_mistakes(decisions: Iterable[Judged]) -> set[int]:
    """The numbers of each seat's worst decisions (MISTAKES_PER_SEAT at most, each
    losing MISTAKE_MIN_LOSS or more), worst first, earlier first among equals."""
    costly: dict[int, list[tuple[float, int]]] = {}
    for d in decisions:
        if d.loss is not None and d.loss >= MISTAKE_MIN_LOSS:
            costly.setdefault(d.seat, []).append((-d.loss, d.number))
    return {number for own in costly.values() for _, number in sorted(own)[:MISTAKES_PER_SEAT]}


def move_text(reply: dict[str, Any] | None, *, under_attack: bool) -> str:
    """A reply as a short phrase: "7S naming H", "draw", "take the attack"."""
    if reply is None:
        return "no move"
    action = reply.get("action")
    if action == "play":
        text = " ".join(reply.get("cards") or [reply["card"]])
        return text + (f" naming {reply['suit']}" if reply.get("suit") else "")
    if action == "draw":
        return "take the attack" if under_attack else "draw"
    return str(action)


def _percent(win: float | None) -> str:
    return "-" if win is None else f"{round(100 * win)}%"


def decision_table(decisions: Sequence[Decision], names: Sequence[str]) -> list[str]:
    """The analysis as lines of text: per decision the turn, the seat, the move
    made and its chance, the search's move and its chance, the loss; "!" marks a
    seat's biggest mistakes, "=" a move the search agrees with."""
    marked = biggest_mistakes(decisions)
    rows = [("#", "turn", "seat", "played", "win", "search prefers", "win", "loss", "")]
    for d in decisions:
        rows.append(
            (
                str(d.number + 1),
                str(d.turn),
                names[d.seat],
                move_text(d.taken, under_attack=d.under_attack),
                _percent(d.taken_win),
                "=" if d.agrees else move_text(d.preferred, under_attack=d.under_attack),
                _percent(d.preferred_win),
                "-" if d.loss is None else f"{round(100 * d.loss)}",
                "!" if d.number in marked else "",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
