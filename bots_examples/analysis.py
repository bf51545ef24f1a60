"""What the search bot thinks of every decision in a logged game.

For one seat, the game is played again message by message as that seat received
it (``engine.seat_messages``: the seat's own view, never the hidden hands); at each
turn and catch offer the search bot (``SearchPlayer.analyse``, a fixed number of
playouts, so the same log and settings always give the same figures) estimates the
chance that the seat goes on to win after each reply it could have made. The
decision is then the reply taken, the reply the search prefers, the chance of
each, and what the taken one lost.

>>> import engine
>>> from bots_examples import heuristic_bot
>>> log = engine.play_game([heuristic_bot.make_bot(0), heuristic_bot.make_bot(1)], seed=3)
>>> first = game_analysis(log, seat=0, iterations=40)[0]
>>> first.kind, 0.0 <= first.taken_win <= 1.0, first.loss >= 0.0
('turn', True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bots_examples.search_bot import ActionValue, SearchPlayer

DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, as the search judges it.

    ``taken`` is the reply the log shows and ``taken_value`` the candidate it is,
    ``best`` the candidate the search prefers, ``loss`` the difference in win
    chance (0 when the seat played the preferred reply). ``uncalled`` marks a play
    that left one card without calling One Card: it is judged as the play with the
    call, which the search always makes. ``event`` is the index in the log's
    events of what the reply did.
    """

    seat: int
    turn: int
    kind: str  # "turn" or "catch"
    event: int | None
    taken: dict[str, Any]
    taken_value: ActionValue
    best: ActionValue
    values: list[ActionValue]
    uncalled: bool

    @property
    def taken_win(self) -> float:
        return self.taken_value.win

    @property
    def preferred(self) -> bool:
        """Whether the seat made the reply the search prefers."""
        return self.taken_value == self.best

    @property
    def loss(self) -> float:
        return max(0.0, self.best.win - self.taken_value.win)


def game_analysis(
    log: dict[str, Any],
    *,
    seat: int,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> list[Decision]:
    """The search's judgement of each decision ``seat`` made in the game of ``log``.

    Raises ``engine.ReplayError`` when the log does not replay.
    """
    player = SearchPlayer(seed=seed, iterations=iterations)
    decisions = []
    for exchange in engine.seat_messages(log, seat):
        message = exchange.message
        player.observe(message)
        if message["type"] not in ("turn", "catch") or exchange.reply is None:
            continue
        values = player.analyse(message)
        taken, uncalled = _candidate(values, exchange.reply)
        decisions.append(
            Decision(
                seat=seat,
                turn=message["turn"],
                kind=message["type"],
                event=exchange.event,
                taken=exchange.reply,
                taken_value=taken,
                best=values[0],
                values=values,
                uncalled=uncalled,
            )
        )
    return decisions


def _candidate(values: list[ActionValue], reply: dict[str, Any]) -> tuple[ActionValue, bool]:
    """The candidate that is ``reply``, and whether the reply left out a call the
    candidate makes. A suit only counts where the candidate names one (a wild card
    that is not the last)."""
    for value in values:
        candidate = value.reply
        if candidate["action"] != reply.get("action"):
            continue
        if candidate["action"] != "play":
            return value, False
        if _cards(candidate) != _cards(reply):
            continue
        if "suit" in candidate and candidate["suit"] != reply.get("suit"):
            continue
        return value, bool(candidate.get("call")) and reply.get("call") is not True
    raise engine.ReplayError(f"the logged reply {reply} is not one the search weighed")


def _cards(reply: dict[str, Any]) -> list[Any]:
    cards = reply.get("cards")
    return list(cards) if isinstance(cards, list) else [reply.get("card")]
