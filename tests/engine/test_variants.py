"""The Variants of RULES.md as ruleset options, and the Ruleset value itself."""

from __future__ import annotations

import pytest

import engine
from engine import PRESETS, IllegalAction, Ruleset, RulesetError
from engine.cards import CARD_OF, CODES
from engine.state import GameState
from tests.engine import rig
from tests.engine.rig import Script, draw, kinds, play


def legal(st: GameState) -> set[str]:
    return {CODES[c] for c in st.legal_cards()}


def cards(*codes: str) -> list[int]:
    return [CARD_OF[c] for c in codes]


# ----------------------------------------------------------------------- Ruleset


def test_default_is_korean_and_spells_every_option():
    rules = Ruleset.from_value(None)
    assert rules is PRESETS["korean"]
    assert rules.to_dict() == {
        "name": "korean",
        "attack_values": {"2": 2, "A": 3, "AS": 5, "BJ": 7, "CJ": 10},
        "taker_continues": False,
        "multi_play": False,
        "max_penalty": None,
        "mirror_three": False,
        "suited_jokers": False,
        "turn_limit": 1000,
        "roles": {"wild": "7", "skip": "J", "reverse": "Q", "again": "K", "shield": "3"},
        "start_direction": 1,
    }


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_round_trips_through_its_dict(name):
    rules = PRESETS[name]
    assert rules.name == name
    assert Ruleset.from_value(rules.to_dict()) == rules
    assert Ruleset.from_value(name) is rules


def test_presets_by_name():
    assert tuple(PRESETS) == engine.PRESET_NAMES
    assert engine.PRESET_NAMES[0] == "korean"
    for name in engine.PRESET_NAMES:
        assert Ruleset.preset(name) is PRESETS[name]
    with pytest.raises(RulesetError, match="presets: korean, flat_aces"):
        Ruleset.preset("no-such-preset")
    with pytest.raises(RulesetError, match="unknown ruleset"):
        Ruleset.from_value("no-such-preset")


def test_presets_are_read_only():
    with pytest.raises(TypeError):
        PRESETS["korean"] = PRESETS["capped"]  # type: ignore[index]


def test_a_dict_changes_only_the_options_it_names():
    rules = Ruleset.from_value({"max_penalty": 20, "attack_values": {"AS": 3}})
    assert rules.max_penalty == 20
    assert rules.attack_values == (2, 3, 3, 7, 10)
    assert rules.name == "custom"
    assert rules.turn_limit == 1000


def test_a_dict_named_after_a_preset_starts_from_it():
    rules = Ruleset.from_value({"name": "classic", "turn_limit": 50})
    assert rules.suited_jokers is True
    assert rules.turn_limit == 50
    assert rules.name == "classic"


@pytest.mark.parametrize(
    "value",
    [
        "nope",
        {"speed": 3},
        {"turn_limit": True},
        {"turn_limit": 0},
        {"turn_limit": "10"},
        {"max_penalty": -1},
        {"multi_play": 1},
        {"attack_values": {"3": 2}},
        {"attack_values": {"2": -1}},
        {"attack_values": [2, 3]},
        {"name": ""},
        42,
    ],
)
def test_bad_rulesets_raise_ruleset_error(value):
    with pytest.raises(RulesetError):
        Ruleset.from_value(value)
    assert issubclass(RulesetError, ValueError)


# ----------------------------------------------------------------------- attack_values


def test_custom_attack_values_and_flat_aces():
    st = rig.state([["AS"], ["AH"]], lead="5S", ruleset="flat_aces")
    play(st, "AS")
    assert (st.atk_total, st.atk_last) == (3, 3)
    assert "AH" in legal(st)  # an ordinary ace answers the ace of spades here
    st = rig.state([["2S"], []], lead="5S", ruleset={"attack_values": {"2": 4}})
    play(st, "2S")
    assert st.atk_total == 4


# ----------------------------------------------------------------------- taker_continues


def test_taker_continues_takes_a_normal_turn_after_taking():
    st = rig.state([["2S"], ["9S"]], lead="5S", ruleset="taker_continues")
    play(st, "2S")
    draw(st)
    assert st.to_act == 1
    assert st.atk_total == 0
    play(st, "9S")  # a normal turn on the 2: suit matches
    assert st.to_act == 0
    assert st.turn == 3


# ----------------------------------------------------------------------- multi_play

# The option alone: the finnish preset also plays counterclockwise.
MULTI = {"multi_play": True}


def test_multi_play_sheds_several_cards_of_one_rank():
    st = rig.state([["9D", "9S", "9C"], []], lead="5D", ruleset=MULTI, record=True)
    st.play_cards(cards("9D", "9S", "9C"))
    assert CODES[st.discard[-1]] == "9C"
    assert st.events[-1] == {"seat": 0, "kind": "play", "cards": ["9D", "9S", "9C"]}
    assert st.to_act == 1


def test_multi_play_first_card_must_be_legal_and_all_of_one_rank():
    st = rig.state([["9D", "9S", "8D"], []], lead="5D", ruleset=MULTI)
    with pytest.raises(IllegalAction):
        st.play_cards(cards("9S", "9D"))  # 9S alone does not match 5D
    with pytest.raises(IllegalAction):
        st.play_cards(cards("9D", "8D"))
    with pytest.raises(IllegalAction):
        st.play_cards(cards("9D", "9D"))


def test_multi_play_is_refused_without_the_option():
    st = rig.state([["9D", "9S"], []], lead="5D")
    with pytest.raises(IllegalAction, match="one card"):
        st.play_cards(cards("9D", "9S"))


def test_multi_play_jacks_skip_one_player_each():
    st = rig.state([["JD", "JS"], [], [], []], lead="5D", ruleset=MULTI)
    st.play_cards(cards("JD", "JS"))
    assert st.to_act == 3


def test_multi_play_two_queens_cancel():
    st = rig.state([["QD", "QS"], [], []], lead="5D", ruleset=MULTI)
    st.play_cards(cards("QD", "QS"))
    assert st.direction == 1
    assert st.to_act == 1


def test_multi_play_each_king_one_more_turn():
    st = rig.state([["KD", "KS", "9S", "8S"], [], []], lead="5D", ruleset=MULTI)
    st.play_cards(cards("KD", "KS"))
    assert st.to_act == 0
    play(st, "9S")
    assert st.to_act == 0
    play(st, "8S")
    assert st.to_act == 1


def test_multi_play_attack_values_add_and_last_is_one_card():
    st = rig.state([["2D", "2S"], ["AH"]], lead="5D", ruleset=MULTI)
    st.play_cards(cards("2D", "2S"))
    assert (st.atk_total, st.atk_last) == (4, 2)
    assert "AH" in legal(st)


def test_multi_play_sevens_declare_a_suit():
    st = rig.state([["7D", "7S"], []], lead="5D", ruleset=MULTI)
    with pytest.raises(IllegalAction, match="suit"):
        st.play_cards(cards("7D", "7S"))
    st.play_cards(cards("7D", "7S"), suit=1)
    assert st.suit == 1


def test_multi_play_through_the_protocol_and_replay():
    a = Script({"action": "play", "cards": ["9D", "9S"]}, "draw")
    log = rig.run([a, rig.drawer], [["9D", "9S"], []], ruleset="finnish", seed=2)
    assert log["events"][0] == {"seat": 0, "kind": "play", "cards": ["9D", "9S"]}
    assert log["ruleset"]["multi_play"] is True


# ----------------------------------------------------------------------- max_penalty


def test_max_penalty_caps_the_total_but_counters_stay_legal():
    st = rig.state([["BJ"], ["CJ"], ["3S"]], lead="5D", ruleset={"max_penalty": 12})
    play(st, "BJ")
    assert st.atk_total == 7
    play(st, "CJ")  # 7 + 10 is capped
    assert (st.atk_total, st.atk_last) == (12, 10)
    st = rig.state([["2D"], ["2S"], ["2H"]], lead="5D", ruleset={"max_penalty": 3})
    play(st, "2D")
    play(st, "2S")
    assert st.atk_total == 3
    assert "2H" in legal(st)  # the cap does not stop counters


# ----------------------------------------------------------------------- mirror_three


def test_mirror_three_sends_the_attack_back_and_reverses():
    st = rig.state([["2D"], ["3D"], []], lead="5D", ruleset="mirror", record=True)
    play(st, "2D")
    play(st, "3D")
    assert (st.atk_total, st.atk_last) == (2, 2)
    assert st.direction == -1
    assert st.to_act == 0
    assert [e["kind"] for e in st.events] == ["play", "shield", "reverse"]


# ----------------------------------------------------------------------- suited_jokers


def test_suited_jokers_follow_their_color():
    st = rig.state([["CJ", "BJ"], []], lead="5D", ruleset={"suited_jokers": True})
    assert "CJ" in legal(st)
    assert "BJ" not in legal(st)


def test_suited_jokers_on_a_declared_suit():
    st = rig.state([["7D"], ["CJ", "BJ"]], lead="5D", ruleset={"suited_jokers": True})
    play(st, "7D", suit="C")
    assert "BJ" in legal(st)
    assert "CJ" not in legal(st)


def test_on_a_suited_joker_only_its_color_a_seven_or_the_other_joker():
    st = rig.state(
        [["CJ"], ["9H", "9S", "7S", "BJ"]],
        lead="5D",
        draw=["4D", "8D", "9D", "TD", "6H", "8H", "4H", "5H", "6D", "TH"],
        ruleset={"suited_jokers": True},
    )
    play(st, "CJ")
    draw(st)  # seat 1 takes ten; the color joker stays on top as an ordinary card
    st.to_act = 1  # look at seat 1's options on the joker
    assert {"9H", "7S", "BJ"} <= legal(st)
    assert "9S" not in legal(st)


def test_suited_jokers_counter_ignoring_suit():
    st = rig.state([["2H"], ["BJ"]], lead="5H", ruleset={"suited_jokers": True})
    play(st, "2H")
    assert "BJ" in legal(st)


def test_preset_names_reach_the_log():
    log = engine.play_game([rig.drawer] * 2, seed=1, ruleset="classic")
    assert log["ruleset"]["name"] == "classic"
    assert log["ruleset"]["suited_jokers"] is True
    assert kinds(log)
