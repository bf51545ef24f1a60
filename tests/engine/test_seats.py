"""`seat_messages`: what a seat was told, rebuilt from the log, is what it was told live."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import BotFault, ReplayError, SeatExchange, seat_messages
from tests.engine import rig
from tests.engine.test_properties import RULESETS


class Recorder:
    """A random bot that sometimes skips its call, catches, answers badly or raises
    a fault, and keeps each message and its reply as it happened."""

    def __init__(self, seed: int, misbehave: float) -> None:
        self.rng = random.Random(seed)
        self.misbehave = misbehave
        self.seen: list[tuple[dict[str, Any], Any]] = []
        self.multi_play = False

    def __call__(self, message: dict[str, Any]) -> Any:
        kind = message["type"]
        reply: Any = {}
        if kind == "start":
            self.multi_play = message["ruleset"]["multi_play"]
        if kind == "start" and self.rng.random() < self.misbehave:
            reply = self.rng.choice(["not an object", BotFault("crash")])
        elif kind in ("turn", "catch") and self.rng.random() < self.misbehave:
            reply = self.rng.choice(
                [None, {"action": "play", "card": "BJ"}, BotFault("timeout"), BotFault("limit")]
            )
        elif kind == "catch":
            reply = {"action": self.rng.choice(["catch", "pass"])}
        elif kind == "turn":
            reply = self._turn(message)
        self.seen.append((copy.deepcopy(message), copy.deepcopy(reply)))
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def _turn(self, message: dict[str, Any]) -> dict[str, Any]:
        legal = message["legal"]
        if not legal or self.rng.random() < 0.15:
            return {"action": "draw"}
        card = self.rng.choice(legal)
        reply: dict[str, Any] = {"action": "play", "card": card, "suit": self.rng.choice("SHDC")}
        same = [c for c in message["hand"] if c[0] == card[0] and c != card]
        if self.multi_play and same and "J" not in (card[1], same[0][1]):
            reply = {"action": "play", "cards": [card, same[0]], "suit": "H"}
        if self.rng.random() < 0.7:
            reply["call"] = True
        return reply


def _live(seed: int, players: int, ruleset: Any, misbehave: float):
    bots = [Recorder(seed * 10 + s, misbehave) for s in range(players)]
    log = engine.play_game(bots, seed=seed, ruleset=ruleset, game=seed % 5)
    return json.loads(json.dumps(log)), bots


def _assert_same(log: dict[str, Any], bots: list[Recorder]) -> None:
    for seat, bot in enumerate(bots):
        exchanges = seat_messages(log, seat)
        assert [x.message for x in exchanges] == [message for message, _ in bot.seen]
        for exchange, (message, reply) in zip(exchanges, bot.seen, strict=True):
            kind = message["type"]
            event = None if exchange.event is None else log["events"][exchange.event]
            if isinstance(reply, BaseException) or not _accepted(reply, message):
                # A reply that faulted is not in the log; its fault is, unless the
                # other seats' faults at start had decided the game already.
                assert exchange.reply is None
                late = kind == "start" and seat not in log["start_faults"]
                assert late or (event is not None and event["kind"] == "fault")
                assert late or (event is not None and event["seat"] == seat)
            elif kind in ("start", "end"):
                assert exchange.reply is None
                assert exchange.event is None
            else:
                assert event is not None
                assert event["seat"] == seat
                assert _same_meaning(exchange.reply, reply, message)


def _accepted(reply: Any, message: dict[str, Any]) -> bool:
    if not isinstance(reply, dict):
        return False
    if message["type"] in ("start", "end"):
        return True
    if message["type"] == "catch":
        return reply.get("action") in ("catch", "pass")
    if reply.get("action") == "draw":
        return True
    first = (reply.get("cards") or [reply.get("card")])[0]
    return first in message["legal"]


def _same_meaning(rebuilt: Any, sent: dict[str, Any], message: dict[str, Any]) -> bool:
    """The rebuilt reply says what the sent one did (call and suit only where they count)."""
    assert isinstance(rebuilt, dict)
    if sent["action"] != "play":
        return bool(rebuilt == {"action": sent["action"]})
    cards = rebuilt.get("cards") or [rebuilt["card"]]
    sent_cards = sent.get("cards") or [sent["card"]]
    return cards[0] == sent_cards[0] and len(cards) in (1, len(sent_cards))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=8),
    ruleset=st.sampled_from(RULESETS),
    misbehave=st.sampled_from([0.0, 0.0, 0.02, 0.1]),
)
def test_rebuilt_messages_equal_what_each_seat_was_sent(seed, players, ruleset, misbehave):
    log, bots = _live(seed, players, ruleset, misbehave)
    _assert_same(log, bots)


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_every_preset_and_table_size(preset, players):
    for seed in range(3):
        log, bots = _live(seed * 7919 + players, players, preset, 0.02)
        _assert_same(log, bots)


def test_the_replies_say_what_the_log_shows():
    hands = rig.pad([["7H", "4S"], ["9D", "9S"]], avoid=["5H"])

    def player(message):
        if message["type"] == "turn" and "7H" in message["legal"]:
            return {"action": "play", "card": "7H", "suit": "S", "call": True, "debug": "x"}
        return {"action": "draw"} if message["type"] == "turn" else {}

    log = engine.play_game(
        [player, lambda m: {"action": "draw"} if m["type"] == "turn" else {}],
        deck=rig.deck(hands, "5H"),
        ruleset={"turn_limit": 3},
    )
    first_turn = seat_messages(log, 0)[1]
    assert first_turn == SeatExchange(first_turn.message, first_turn.reply, 0)
    assert first_turn.reply == {"action": "play", "card": "7H", "suit": "S"}
    assert "7H" in first_turn.message["legal"]


def test_a_fault_at_start_is_told_from_one_at_the_first_turn():
    def at_start(message):
        return "no" if message["type"] == "start" else {"action": "draw"}

    def at_turn(message):
        if message["type"] == "turn":
            raise BotFault("timeout")
        return {}

    drawer = rig.Script()
    for bad, types in ((at_start, ["start"]), (at_turn, ["start", "turn"])):
        log = engine.play_game([bad, drawer, rig.Script()], seed=4, ruleset={"turn_limit": 6})
        mine = seat_messages(log, 0)
        assert [x.message["type"] for x in mine] == types
        assert mine[-1].reply is None
        assert log["events"][mine[-1].event]["kind"] == "fault"
        # The seat after it sees that fault only when it came at a turn.
        second = seat_messages(log, 1)[1].message
        assert [e["kind"] for e in second["events"]][:1] == ([] if bad is at_start else ["fault"])


def test_a_log_without_start_faults_reads_leading_faults_as_start_faults():
    def at_start(message):
        return "no" if message["type"] == "start" else {}

    log = engine.play_game([at_start, rig.Script(), at_start], seed=2, ruleset={"turn_limit": 5})
    assert log["start_faults"] == [0, 2]
    old = {k: v for k, v in log.items() if k not in ("start_faults", "game")}
    assert [x.message for x in seat_messages(old, 1)] == [x.message for x in seat_messages(log, 1)]


def test_reshuffles_follow_the_logged_order_not_the_seed():
    logs = (_live(seed, 4, "korean", 0.0) for seed in range(200))
    log, bots = next((log, bots) for log, bots in logs if _reshuffles(log))
    changed = dict(log, seed=log["seed"] + 1)  # whose generator would reshuffle otherwise
    _assert_same(changed, bots)


def _reshuffles(log: dict[str, Any]) -> bool:
    return any(e["kind"] == "reshuffle" for e in log["events"])


@pytest.mark.parametrize(
    "spoil",
    [
        lambda log: log["events"].pop(),
        lambda log: next(e for e in log["events"] if e["kind"] == "play").update(card="XX"),
        lambda log: log["events"][0].update(seat=1 - log["events"][0]["seat"]),
        lambda log: log["result"].update(winner=1 - log["result"]["winner"]),
        lambda log: log.update(players=9),
        lambda log: log.update(deck=["AS"] * 54),
        lambda log: log["events"].append({"seat": 0, "kind": "draw", "count": 1, "cards": []}),
    ],
)
def test_a_log_that_does_not_replay_is_a_replay_error(spoil):
    log, _ = _live(3, 2, None, 0.0)
    spoil(log)
    with pytest.raises(ReplayError):
        seat_messages(log, 0)


def test_a_seat_that_is_not_in_the_game_is_a_replay_error():
    log, _ = _live(3, 2, None, 0.0)
    with pytest.raises(ReplayError, match="seat 2 is not one of the game's 2 seats"):
        seat_messages(log, 2)


def test_exchanges_are_frozen():
    log, _ = _live(3, 2, None, 0.0)
    exchange = seat_messages(log, 0)[0]
    with pytest.raises(AttributeError):
        exchange.reply = {}  # type: ignore[misc]
