"""engine.replay and engine.replay_frames: faithful re-runs, and tampering caught."""

from __future__ import annotations

import copy
import json

import pytest

import engine
from bots_examples import builtin_bots
from engine import ReplayError
from engine.cards import CODES
from tests.engine import rig


def random_bot(seed: int):
    return builtin_bots()["random"](seed)


@pytest.fixture(scope="module")
def log():
    """A 3-player game long enough to hold plays, draws, takes, calls and reshuffles."""
    for seed in range(200):
        game = engine.play_game([random_bot(seed + s) for s in range(3)], seed=seed)
        found = {e["kind"] for e in game["events"]}
        if {"reshuffle", "take", "catch", "pass", "call", "shield"} <= found:
            return json.loads(json.dumps(game))
    raise AssertionError("no seed gave a game with every kind of event")


def test_replay_yields_one_state_per_event_and_ends_over(log):
    states = list(engine.replay(log))
    assert len(states) == len(log["events"])
    assert states[-1].over
    assert states[-1].result() == log["result"]
    assert states[0] is not states[1]  # independent copies


def test_every_replayed_state_holds_all_54_cards(log):
    for state in engine.replay(log):
        held = [c for h in state.hands for c in h] + state.draw + state.discard
        assert sorted(held) == list(range(54))


FRAME_KEYS = {
    "index",
    "event",
    "hands",
    "top",
    "suit",
    "attack",
    "direction",
    "to_act",
    "turn",
    "draw_pile",
    "discard_pile",
    "finished",
}


def test_frames_have_exactly_the_viewer_keys(log):
    frames = engine.replay_frames(log)
    assert len(frames) == len(log["events"]) + 1
    assert frames[0]["event"] is None
    assert frames[0]["index"] == 0
    assert frames[0]["turn"] == 0
    assert frames[0]["to_act"] == 0
    for i, frame in enumerate(frames):
        assert set(frame) == FRAME_KEYS
        assert frame["index"] == i
        if i:
            assert frame["event"] == log["events"][i - 1]
        in_hands = sum(len(h) for h in frame["hands"] if h is not None)
        assert in_hands + frame["draw_pile"] + frame["discard_pile"] == 54
        assert frame["top"] in CODES
    assert frames[-1]["finished"] is True
    assert frames[-1]["to_act"] is None
    json.dumps(frames)


def test_frames_show_faulted_seats_as_none():
    def crash(message):
        if message["type"] == "turn":
            raise RuntimeError
        return {}

    game = rig.run([crash, rig.drawer, rig.drawer], [[], [], []], ruleset={"turn_limit": 3})
    frames = engine.replay_frames(game)
    assert frames[0]["hands"][0] is not None
    assert frames[1]["hands"][0] is None


def test_informational_events_may_be_dropped(log):
    trimmed = copy.deepcopy(log)
    trimmed["events"] = [e for e in log["events"] if e["kind"] not in ("skip", "reverse")]
    assert list(engine.replay(trimmed))[-1].result() == log["result"]


def test_unknown_event_kinds_are_ignored(log):
    extended = copy.deepcopy(log)
    extended["events"].insert(3, {"kind": "chat", "text": "gg"})
    assert list(engine.replay(extended))[-1].over


def first_index(log, kind):
    return next(i for i, e in enumerate(log["events"]) if e["kind"] == kind)


def tamper(log, index, **changes):
    bad = copy.deepcopy(log)
    bad["events"][index].update(changes)
    return bad


def expect_bad(log, index):
    with pytest.raises(ReplayError, match=rf"^event {index} "):
        list(engine.replay(log))


def test_a_changed_drawn_card_names_the_event(log):
    i = first_index(log, "draw")
    other = next(c for c in CODES if c not in log["events"][i]["cards"])
    expect_bad(tamper(log, i, cards=[other]), i)


def test_an_illegal_play_names_the_event(log):
    i = first_index(log, "play")
    bad = tamper(log, i, card="ZZ")
    expect_bad(bad, i)


def test_a_wrong_seat_names_the_event(log):
    i = first_index(log, "draw")
    expect_bad(tamper(log, i, seat=(log["events"][i]["seat"] + 1) % 3), i)


def test_a_changed_take_count_names_the_event(log):
    i = first_index(log, "take")
    expect_bad(tamper(log, i, count=log["events"][i]["count"] + 1), i)


def test_a_changed_reshuffle_order_is_caught(log):
    i = first_index(log, "reshuffle")
    order = log["events"][i]["order"]
    swapped = [order[1], order[0], *order[2:]]
    bad = tamper(log, i, order=swapped)
    with pytest.raises(ReplayError, match=r"^event \d+ "):
        list(engine.replay(bad))
    expect_bad(tamper(log, i, order=order[:-1]), i + 1)


def test_a_missing_event_is_caught(log):
    i = first_index(log, "pass")
    bad = copy.deepcopy(log)
    del bad["events"][i]
    with pytest.raises(ReplayError, match=r"^event \d+ "):
        list(engine.replay(bad))


def test_a_call_without_its_play_is_caught(log):
    bad = copy.deepcopy(log)
    bad["events"].insert(0, {"seat": 0, "kind": "call"})
    expect_bad(bad, 0)


def test_a_changed_result_is_caught(log):
    bad = copy.deepcopy(log)
    bad["result"]["ranks"] = list(reversed(bad["result"]["ranks"]))
    with pytest.raises(ReplayError, match="result ranks"):
        list(engine.replay(bad))


def test_events_after_the_end_are_caught(log):
    bad = copy.deepcopy(log)
    bad["events"].append({"seat": 0, "kind": "draw", "count": 1, "cards": ["AS"]})
    expect_bad(bad, len(log["events"]))


def test_a_truncated_log_is_caught(log):
    bad = copy.deepcopy(log)
    bad["events"] = bad["events"][:5]
    with pytest.raises(ReplayError, match="game goes on"):
        list(engine.replay(bad))


def test_a_fault_of_a_seat_not_asked_is_caught(log):
    bad = copy.deepcopy(log)
    seat = log["events"][0].get("seat", 0)
    bad["events"].insert(2, {"seat": (seat + 2) % 3, "kind": "fault", "reason": "crash"})
    with pytest.raises(ReplayError, match=r"^event 2 "):
        list(engine.replay(bad))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("format", "onecard-replay/9", "format"),
        ("players", 9, "players"),
        ("deck", ["AS"] * 54, "deck"),
        ("deck", None, "deck"),
        ("events", {}, "events"),
        ("ruleset", {"speed": 1}, "ruleset"),
        ("result", None, "result"),
    ],
)
def test_a_malformed_header_is_a_replay_error(log, field, value, message):
    bad = copy.deepcopy(log)
    bad[field] = value
    with pytest.raises(ReplayError, match=message):
        list(engine.replay(bad))


def test_not_a_dict_event_is_caught(log):
    bad = copy.deepcopy(log)
    bad["events"][1] = ["draw"]
    expect_bad(bad, 1)


def test_replay_error_is_a_value_error():
    assert issubclass(ReplayError, ValueError)
    with pytest.raises(ReplayError):
        list(engine.replay("not a log"))  # type: ignore[arg-type]
