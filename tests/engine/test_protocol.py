"""play_game speaking PROTOCOL.md: messages, hidden information, faults, debug."""

from __future__ import annotations

import json
import math

import pytest

import engine
from bots_examples import builtin_bots
from engine import BotFault
from tests.engine import rig
from tests.engine.rig import Script, drawer, kinds

TURN_KEYS = {
    "type",
    "seat",
    "turn",
    "hand",
    "top",
    "suit",
    "attack",
    "direction",
    "hands",
    "draw_pile",
    "discard_pile",
    "legal",
    "events",
}


def test_start_turn_and_end_messages_have_the_protocol_fields():
    a, b = Script("4D", "draw"), Script("draw", "draw")
    log = rig.run([a, b], [[], []], lead="5D", ruleset={"turn_limit": 4}, names=["ann", "bob"])
    start = a.messages[0]
    assert start == {
        "type": "start",
        "protocol": 1,
        "game": 0,
        "seat": 0,
        "players": 2,
        "names": ["ann", "bob"],
        "ruleset": log["ruleset"],
        "hand": log["deck"][0:14:2],
        "top": "5D",
    }
    turn = a.of_type("turn")[0]
    assert set(turn) == TURN_KEYS
    assert turn["legal"] == [c for c in turn["hand"] if c[1] == "D" or c[0] in "57"]
    assert turn["hands"] == [7, 7]
    assert turn["turn"] == 0
    assert turn["hand"] == start["hand"]
    # No clock in the engine: the sandbox adds time fields.
    assert not {"time_ms", "bank_ms"} & set(turn)
    end = a.of_type("end")[0]
    assert set(end) == {
        "type",
        "seat",
        "winner",
        "ranks",
        "hands",
        "adjudicated",
        "faults",
        "events",
    }
    assert end["adjudicated"] is True
    assert [m["type"] for m in b.messages] == ["start", "turn", "turn", "end"]


def test_cards_in_hand_and_piles_always_add_up():
    def check(message):
        if message["type"] == "turn":
            held = sum(n for n in message["hands"] if n is not None)
            assert held + message["draw_pile"] + message["discard_pile"] == 54
            assert len(message["hand"]) == message["hands"][message["seat"]]
        return drawer(message)

    rig.run([check, check, check], [[], [], []], ruleset={"turn_limit": 60})


def test_events_since_the_previous_message_hide_other_seats_cards():
    a, b = Script("draw", "draw"), Script("draw", "draw")
    rig.run([a, b], [[], []], draw=["4C", "8C", "9C"], ruleset={"turn_limit": 3})
    first_b = b.of_type("turn")[0]["events"]
    assert first_b == [{"seat": 0, "kind": "draw", "count": 1}]
    second_a = a.of_type("turn")[1]["events"]
    assert second_a == [
        {"seat": 0, "kind": "draw", "count": 1, "cards": ["4C"]},
        {"seat": 1, "kind": "draw", "count": 1},
    ]


def test_reshuffle_order_is_never_shown_to_bots():
    seen = []

    def watching(bot):
        def watch(message):
            seen.extend(message.get("events", []))
            return bot(message)

        return watch

    random_bot = builtin_bots()["random"]
    for seed in range(50):
        log = engine.play_game([watching(random_bot(seed)), watching(random_bot(-seed))], seed=seed)
        if any(e["kind"] == "reshuffle" for e in log["events"]):
            break
    reshuffles = [e for e in seen if e["kind"] == "reshuffle"]
    assert reshuffles
    assert all(set(e) == {"kind", "count"} for e in reshuffles)


def test_a_bot_mutating_its_messages_cannot_touch_the_game():
    def vandal(message):
        for event in message.get("events", []):
            event.clear()
        message.get("hand", []).clear()
        return drawer(message)

    log = rig.run([vandal, vandal], [[], []], ruleset={"turn_limit": 10})
    assert all("kind" in e for e in log["events"])


KINGS_TO_ONE = [["KD", "KH", "KS", "9S", "4C"], [], []]


def test_an_uncalled_one_card_is_offered_to_catch_in_turn_order():
    # Three kings keep seat 0 playing; 9S leaves it one card, and it does not call.
    a = Script("KD", "KH", "KS", {"action": "play", "card": "9S"}, "draw")
    b = Script("pass", "draw")
    c = Script("catch", "draw")
    log = rig.run([a, b, c], KINGS_TO_ONE, ruleset={"turn_limit": 5})
    assert kinds(log)[:7] == ["play", "play", "play", "play", "pass", "catch", "draw"]
    assert log["events"][5]["target"] == 0
    offer = b.of_type("catch")[0]
    assert set(offer) == TURN_KEYS | {"target"}
    assert offer["target"] == 0
    assert offer["legal"] == []
    assert offer["hands"] == [1, 5, 5]
    # Only the target sees the card it had to draw.
    catch_for_a = [e for e in a.of_type("end")[0]["events"] if e["kind"] == "catch"]
    catch_for_c = [e for e in c.of_type("end")[0]["events"] if e["kind"] == "catch"]
    assert catch_for_a[0]["cards"] == log["events"][5]["cards"]
    assert "cards" not in catch_for_c[0]


def test_calling_one_card_prevents_the_window():
    a = Script("KD", "KH", "KS", "9S", "draw")
    b, c = Script("draw"), Script("draw")
    log = rig.run([a, b, c], KINGS_TO_ONE, ruleset={"turn_limit": 6})
    assert kinds(log)[3:6] == ["play", "call", "draw"]
    assert b.of_type("catch") == []


def test_a_catch_reply_must_be_catch_or_pass():
    a = Script("KD", "KH", "KS", {"action": "play", "card": "9S"}, "draw")
    b = Script({"action": "maybe"})
    c = Script("pass", "draw", "draw")
    log = rig.run([a, b, c], KINGS_TO_ONE, ruleset={"turn_limit": 6})
    assert log["result"]["faults"] == [{"seat": 1, "reason": "illegal"}]
    # The window goes on with the next seat, whose turn then comes (seat 1 is out).
    assert kinds(log)[4:7] == ["fault", "pass", "draw"]


@pytest.mark.parametrize(
    "reply",
    [
        None,
        [],
        "draw",
        42,
        {},
        {"action": None},
        {"action": "fold"},
        {"action": "play"},
        {"action": "play", "card": "ZZ"},
        {"action": "play", "card": ["9D"]},
        {"action": "play", "card": "4C"},  # a card not in legal
        {"action": "play", "card": "7H"},  # a 7 without a suit
        {"action": "play", "card": "7H", "suit": "X"},
        {"action": "play", "card": "7H", "suit": "s"},
        {"action": "play", "card": 10**400},
        {"action": "play", "card": math.nan},
        {"action": "play", "cards": ["9D"]},  # multi_play is off: cards is ignored
        {"action": "catch"},
    ],
)
def test_malformed_or_illegal_turn_replies_fault_the_seat_as_illegal(reply):
    def bot(message):
        return reply if message["type"] == "turn" else {}

    hands = [["9D", "7H", "4C"], []]
    log = rig.run([bot, drawer], hands, lead="5D")
    assert log["result"]["faults"] == [{"seat": 0, "reason": "illegal"}]
    assert log["result"]["winner"] == 1
    assert log["events"][0]["kind"] == "fault"


def test_a_dict_with_hostile_keys_is_an_illegal_reply_not_an_engine_error():
    class Evil:
        def __hash__(self):
            return hash("action")

        def __eq__(self, other):
            raise RuntimeError("boom")

    def bot(message):
        return {Evil(): 1} if message["type"] == "turn" else {}

    log = rig.run([bot, drawer], [[], []])
    assert log["result"]["faults"] == [{"seat": 0, "reason": "illegal"}]


@pytest.mark.parametrize(
    ("raised", "reason"),
    [
        (RuntimeError("bug"), "crash"),
        (ValueError("bug"), "crash"),
        (SystemExit(3), "crash"),
        (BotFault("timeout"), "timeout"),
        (BotFault("limit"), "limit"),
        (BotFault("crash"), "crash"),
        (BotFault("illegal"), "illegal"),
    ],
)
def test_a_raising_bot_faults_with_the_reason(raised, reason):
    def bot(message):
        if message["type"] == "turn":
            raise raised
        return {}

    log = rig.run([bot, drawer, drawer], [[], [], []], ruleset={"turn_limit": 5})
    assert log["result"]["faults"] == [{"seat": 0, "reason": reason}]


def test_bot_fault_rejects_unknown_reasons():
    with pytest.raises(ValueError, match="unknown fault reason"):
        BotFault("sulking")
    assert not isinstance(BotFault("crash"), ValueError)


def test_a_fault_sends_the_hand_to_the_bottom_and_ranks_below_everyone():
    def crash(message):
        if message["type"] == "turn":
            raise RuntimeError
        return {}

    b, c = Script("draw", "draw"), Script("draw", "draw")
    log = rig.run(
        [crash, b, c], [["4H", "9S", "8C", "6D", "TH"], [], []], ruleset={"turn_limit": 2}
    )
    fault = log["events"][0]
    assert fault == {
        "seat": 0,
        "kind": "fault",
        "reason": "crash",
        "cards": ["4H", "9S", "8C", "6D", "TH"],
    }
    assert log["result"]["hands"][0] == []
    assert log["result"]["ranks"][0] == 3
    # The faulted seat gets no end message and no more turns.
    assert [m["type"] for m in b.messages] == ["start", "turn", "end"]
    assert b.of_type("turn")[0]["hands"] == [None, 5, 5]


def test_faulted_hand_goes_under_the_draw_pile_in_held_order():
    st = rig.state([["4H", "9S", "8C", "6D", "TH"], [], []])
    bottom_before = st.draw[:]
    st.fault(0, "crash")
    top_first = [engine.cards.CODES[c] for c in st.draw[::-1]]
    assert top_first[-5:] == ["4H", "9S", "8C", "6D", "TH"]
    assert st.draw[5:] == bottom_before
    assert st.to_act == 1


def test_earlier_faults_rank_lower_and_the_last_seat_standing_wins():
    def crash(message):
        if message["type"] == "turn":
            raise RuntimeError
        return {}

    log = rig.run([crash, crash, Script()], [[], [], []])
    assert log["result"]["winner"] == 2
    assert log["result"]["ranks"] == [3, 2, 1]
    assert log["result"]["adjudicated"] is False


def test_a_fault_cancels_the_attack_pending_on_the_seat():
    def crash(message):
        if message["type"] == "turn":
            raise RuntimeError
        return {}

    a = Script("2D", "draw")
    c = Script("draw")
    log = rig.run([a, crash, c], [["2D"], [], []], ruleset={"turn_limit": 3})
    assert kinds(log)[:3] == ["play", "fault", "draw"]
    assert log["events"][2]["seat"] == 2
    assert log["events"][2]["count"] == 1  # a plain draw: the attack went with seat 1


@pytest.mark.parametrize("reply", [None, [], "ok", 3])
def test_a_start_reply_that_is_not_an_object_is_illegal(reply):
    def bot(message):
        return reply if message["type"] == "start" else drawer(message)

    log = rig.run([bot, drawer, drawer], [[], [], []], ruleset={"turn_limit": 3})
    assert log["events"][0]["kind"] == "fault"
    assert log["result"]["faults"] == [{"seat": 0, "reason": "illegal"}]
    assert log["events"][1]["seat"] == 1  # seat 1 acts first once seat 0 is out


def test_an_end_reply_that_raises_is_ignored():
    def grumpy(message):
        if message["type"] == "end":
            raise RuntimeError("sore loser")
        return drawer(message)

    log = rig.run([grumpy, drawer], [[], []], ruleset={"turn_limit": 2})
    assert log["result"]["faults"] == []


def test_debug_is_kept_beside_its_decision_and_cut_to_one_kib():
    def chatty(message):
        reply = drawer(message)
        if message["type"] == "turn":
            reply["debug"] = "é" * 2000
        return reply

    log = rig.run([chatty, drawer], [[], []], ruleset={"turn_limit": 4})
    assert [d["event"] for d in log["debug"]] == [0, 2]
    assert all(d["seat"] == 0 for d in log["debug"])
    assert all(len(d["text"].encode()) <= 1024 for d in log["debug"])
    assert log["events"][0]["seat"] == 0


def test_log_is_json_and_carries_the_replay_fields():
    log = rig.run([drawer, drawer], [[], []], ruleset={"turn_limit": 4}, seed=77)
    assert json.loads(json.dumps(log)) == log
    assert log["format"] == "onecard-replay/1"
    assert log["seed"] == 77
    assert log["names"] == ["seat0", "seat1"]
    assert log["players"] == 2
    assert sorted(log["deck"]) == sorted(engine.cards.CODES)


def test_game_number_reaches_the_start_message():
    a = Script()
    engine.play_game([a, drawer], seed=1, game=3, ruleset={"turn_limit": 1})
    assert a.messages[0]["game"] == 3


def test_a_seed_without_a_deck_shuffles_reproducibly():
    one = engine.play_game([drawer, drawer], seed=5, ruleset={"turn_limit": 30})
    two = engine.play_game([drawer, drawer], seed=5, ruleset={"turn_limit": 30})
    assert one == two
    other = engine.play_game([drawer, drawer], seed=6, ruleset={"turn_limit": 30})
    assert other["deck"] != one["deck"]


def test_no_seed_draws_one_and_logs_it():
    log = engine.play_game([drawer, drawer], ruleset={"turn_limit": 30})
    assert isinstance(log["seed"], int)
    again = engine.play_game([drawer, drawer], seed=log["seed"], ruleset={"turn_limit": 30})
    assert again["events"] == log["events"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"bots": [drawer]},
        {"bots": [drawer] * 9},
        {"bots": [drawer] * 2, "names": ["only one"]},
        {"bots": [drawer] * 2, "seed": "seven"},
        {"bots": [drawer] * 2, "ruleset": "no-such-preset"},
        {"bots": [drawer] * 2, "deck": ["AS"] * 54},
    ],
)
def test_bad_arguments_are_value_errors(kwargs):
    bots = kwargs.pop("bots")
    with pytest.raises(ValueError):
        engine.play_game(bots, **kwargs)


def test_every_seat_hears_start_even_when_faults_decide_the_game_first():
    def bad_start(message):
        return "no" if message["type"] == "start" else {}

    survivor = Script()
    log = rig.run([bad_start, survivor], [[], []])
    assert log["result"]["winner"] == 1
    assert [m["type"] for m in survivor.messages] == ["start", "end"]
    assert log["events"] == [
        {"seat": 0, "kind": "fault", "reason": "illegal", "cards": log["deck"][0:14:2]}
    ]


@pytest.mark.parametrize("forged", ["bribe", ["timeout"], None])
def test_a_bot_fault_with_a_forged_reason_is_a_crash(forged):
    class Forged(BotFault):
        pass

    def bot(message):
        if message["type"] == "turn":
            fault = Forged("timeout")
            fault.reason = forged
            raise fault
        return {}

    log = rig.run([bot, drawer], [[], []])
    assert log["result"]["faults"] == [{"seat": 0, "reason": "crash"}]
