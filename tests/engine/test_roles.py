"""RULES.md's ``roles`` and ``start_direction``, and the presets built from them:
``pesten`` (the roles moved to other ranks) and ``finnish`` (counterclockwise)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import engine
from bots_examples import builtin_bots
from engine import PRESETS, GameState, IllegalAction, RoleConflictError, Ruleset, RulesetError
from engine.cards import CARD_OF, CODES
from engine.tables import play_action
from tests.engine import rig
from tests.engine.rig import Script, draw, play

LOGS = Path(__file__).parent / "logs" / "rulesets_without_roles.jsonl"
NO_ROLES = {"roles": dict.fromkeys(("wild", "skip", "reverse", "again", "shield"))}


def legal(st: GameState) -> set[str]:
    return {CODES[c] for c in st.legal_cards()}


# ----------------------------------------------------------------------- the options


def test_korean_spells_out_its_roles_and_direction():
    spelled = Ruleset.preset("korean").to_dict()
    assert spelled["roles"] == {
        "wild": "7",
        "skip": "J",
        "reverse": "Q",
        "again": "K",
        "shield": "3",
    }
    assert spelled["start_direction"] == 1
    assert list(spelled)[-2:] == ["roles", "start_direction"]


def test_the_pesten_and_finnish_presets_are_rules_md_s():
    assert PRESETS["pesten"].to_dict() == {
        "name": "pesten",
        "attack_values": {"2": 2, "A": 0, "AS": 0, "BJ": 5, "CJ": 5},
        "taker_continues": False,
        "multi_play": False,
        "max_penalty": None,
        "mirror_three": False,
        "suited_jokers": False,
        "turn_limit": 1000,
        "roles": {"wild": "J", "skip": "8", "reverse": "A", "again": "7", "shield": None},
        "start_direction": 1,
    }
    finnish = PRESETS["finnish"]
    assert (finnish.multi_play, finnish.start_direction) == (True, -1)
    assert replace(finnish, name="korean", multi_play=False, start_direction=1) == PRESETS["korean"]


def test_roles_and_direction_round_trip_through_the_dict():
    rules = Ruleset.from_value(
        {
            "attack_values": {"A": 0, "AS": 0, "2": 0},
            "roles": {"wild": "9", "skip": None, "reverse": "A", "again": "2", "shield": "K"},
            "start_direction": -1,
        }
    )
    assert rules.roles == ("9", None, "A", "2", "K")
    assert rules.start_direction == -1
    assert Ruleset.from_value(json.loads(json.dumps(rules.to_dict()))) == rules


def test_a_roles_dict_changes_only_the_roles_it_names():
    rules = Ruleset.from_value({"roles": {"again": None}})
    assert rules.roles == ("7", "J", "Q", None, "3")
    assert Ruleset.from_value({"name": "pesten", "turn_limit": 50}).roles == PRESETS["pesten"].roles


@pytest.mark.parametrize(
    ("roles", "rank", "pair"),
    [
        ({"skip": "7"}, "7", "wild and skip"),
        ({"shield": "K"}, "K", "again and shield"),
        ({"wild": "8", "reverse": "8"}, "8", "wild and reverse"),
    ],
)
def test_one_rank_with_two_roles_is_refused(roles, rank, pair):
    with pytest.raises(RoleConflictError, match=f"rank {rank} is given two roles, {pair}"):
        Ruleset.from_value({"roles": roles})
    with pytest.raises(RoleConflictError):
        Ruleset.from_value({"name": "pesten", "roles": {"skip": "J"}})  # J is pesten's wild
    assert issubclass(RoleConflictError, RulesetError)


def test_a_ruleset_value_cannot_be_made_with_two_roles_on_one_rank():
    with pytest.raises(RoleConflictError):
        replace(PRESETS["korean"], roles=("7", "J", "Q", "K", "7"))
    with pytest.raises(RoleConflictError):
        Ruleset(roles=("9", "9", None, None, None))


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"roles": {"reverse": "A"}}, "A"),  # korean's aces attack
        ({"roles": {"wild": "2"}}, "2"),
        ({"attack_values": {"A": 0}, "roles": {"reverse": "A"}}, "AS"),
    ],
)
def test_a_role_on_a_rank_that_attacks_is_refused(options, key):
    with pytest.raises(RoleConflictError, match=rf"attack_values\[{key}\]"):
        Ruleset.from_value(options)


def test_a_rank_that_no_longer_attacks_may_take_a_role():
    rules = Ruleset.from_value({"attack_values": {"A": 0, "AS": 0}, "roles": {"reverse": "A"}})
    assert rules.rank_role("A") == "reverse"
    assert rules.rank_role("Q") is None


@pytest.mark.parametrize(
    "value",
    [
        {"roles": {"jump": "8"}},
        {"roles": {"skip": "X"}},
        {"roles": {"skip": "BJ"}},
        {"roles": {"skip": 8}},
        {"roles": ["8"]},
        {"roles": None},
        {"start_direction": 0},
        {"start_direction": 2},
        {"start_direction": True},
        {"start_direction": "1"},
        {"attack_values": {"2": -1}},
        {"attack_values": {"AS": None}},
    ],
)
def test_malformed_roles_and_directions_are_ruleset_errors_not_conflicts(value):
    with pytest.raises(RulesetError) as refused:
        Ruleset.from_value(value)
    assert type(refused.value) is RulesetError


def test_a_dict_spelled_out_before_roles_existed_loads_as_it_did():
    # Competitions and logs store every option there was; the two options they
    # lack take the only values there were, korean's, even under a preset's name.
    spelled = {
        k: v
        for k, v in PRESETS["korean"].to_dict().items()
        if k not in ("roles", "start_direction")
    }
    assert Ruleset.from_value(spelled) == PRESETS["korean"]
    old_finnish = {**spelled, "name": "finnish", "multi_play": True}
    rules = Ruleset.from_value(old_finnish)
    assert (rules.multi_play, rules.start_direction, rules.roles) == (
        True,
        1,
        PRESETS["korean"].roles,
    )
    # A dict that leaves other options out still starts from its preset.
    assert Ruleset.from_value({"name": "finnish", "turn_limit": 50}).start_direction == -1


def test_logs_whose_ruleset_has_no_roles_replay_to_their_results():
    logs = [json.loads(line) for line in LOGS.read_text().splitlines()]
    assert {log["ruleset"]["name"] for log in logs} >= {"korean", "finnish", "classic", "mirror"}
    for log in logs:
        assert "roles" not in log["ruleset"]
        states = list(engine.replay(log))
        assert states[-1].result() == log["result"]
        assert states[0].rules.start_direction == 1


# ----------------------------------------------------------------------- lead cards


@pytest.mark.parametrize(
    ("lead", "buried"),
    [
        ("KS", False),
        ("QS", False),
        ("3S", False),
        ("8S", True),
        ("JS", True),
        ("7S", True),
        ("AS", True),
        ("2S", True),
        ("BJ", True),
    ],
)
def test_pesten_buries_the_lead_cards_with_a_role_or_an_attack(lead, buried):
    st = rig.state([[], []], lead=lead, draw=["9D"], ruleset="pesten")
    assert CODES[st.discard[-1]] == ("9D" if buried else lead)


def test_with_no_roles_only_attack_cards_and_jokers_are_buried():
    st = rig.state([[], []], lead="JS", draw=["9D"], ruleset=NO_ROLES)
    assert CODES[st.discard[-1]] == "JS"
    st = rig.state([[], []], lead="2S", draw=["9D"], ruleset=NO_ROLES)
    assert CODES[st.discard[-1]] == "9D"


# ----------------------------------------------------------------------- skip


def test_skip_is_the_rank_the_ruleset_names():
    st = rig.state([["8D"], [], []], lead="5D", ruleset="pesten", record=True)
    play(st, "8D")
    assert st.to_act == 2
    assert st.events[-1] == {"seat": 1, "kind": "skip"}
    st = rig.state([["JD"], [], []], lead="5D", ruleset="pesten")
    play(st, "JD", suit="S")
    assert st.to_act == 1  # a J is pesten's wild card, not a skip


def test_skip_with_two_players_gives_the_same_player_another_turn():
    st = rig.state([["8D", "9D"], []], lead="5D", ruleset="pesten")
    play(st, "8D")
    assert st.to_act == 0


def test_several_skips_at_once_skip_one_seat_each():
    st = rig.state(
        [["8D", "8S"], [], [], []], lead="5D", ruleset={"name": "pesten", "multi_play": True}
    )
    st.play_cards([CARD_OF["8D"], CARD_OF["8S"]])
    assert st.to_act == 3


# ----------------------------------------------------------------------- reverse


def test_reverse_is_the_rank_the_ruleset_names_and_does_not_attack():
    st = rig.state([["AD"], [], []], lead="5D", ruleset="pesten", record=True)
    play(st, "AD")
    assert (st.direction, st.to_act, st.atk_total) == (-1, 2, 0)
    assert st.events[-1] == {"seat": 0, "kind": "reverse"}
    st = rig.state([["QD"], [], []], lead="5D", ruleset="pesten")
    play(st, "QD")
    assert (st.direction, st.to_act) == (1, 1)  # the Q is plain in pesten


def test_the_ace_of_spades_reverses_too():
    st = rig.state([["AS"], [], []], lead="5S", ruleset="pesten")
    play(st, "AS")
    assert (st.direction, st.atk_total) == (-1, 0)


def test_reverse_with_two_players_is_a_skip_and_keeps_the_direction():
    st = rig.state([["AD", "9D"], []], lead="5D", ruleset="pesten", record=True)
    play(st, "AD")
    assert (st.direction, st.to_act) == (1, 0)
    assert st.events[-1] == {"seat": 1, "kind": "skip"}


# ----------------------------------------------------------------------- again


def test_again_is_the_rank_the_ruleset_names():
    st = rig.state([["7D", "9D", "9S"], [], []], lead="5D", ruleset="pesten")
    play(st, "7D")
    assert st.to_act == 0
    play(st, "9D")
    assert st.to_act == 1
    st = rig.state([["KD", "9D"], [], []], lead="5D", ruleset="pesten")
    play(st, "KD")
    assert st.to_act == 1  # the K is plain in pesten


def test_again_then_a_draw_passes_play_on():
    st = rig.state([["7D", "9S"], [], []], lead="5D", ruleset="pesten")
    play(st, "7D")
    draw(st)
    assert st.to_act == 1


# ----------------------------------------------------------------------- wild


def test_wild_is_always_playable_and_names_a_suit():
    hands = [
        ["JS", "7S", "9H", "4S", "6H", "TS", "3C"],
        ["9C", "4D", "6S", "TH", "3H", "KS", "QH"],
    ]
    st = rig.state(hands, lead="5D", ruleset="pesten")
    assert legal(st) == {"JS"}  # the 7 does not match 5D and is not wild here
    actions = [a for a in st.legal_actions() if a & 63 == CARD_OF["JS"]]
    assert len(actions) == 4  # one per suit
    with pytest.raises(IllegalAction, match="suit"):
        play(st, "JS")
    play(st, "JS", suit="C")
    assert st.suit == 3
    assert legal(st) == {"9C"}


def test_a_wild_card_may_be_played_on_a_declared_suit():
    hands = [
        ["JS", "4S", "6S", "9S", "TS", "3S", "KS"],
        ["JH", "9D", "4H", "6H", "TH", "QH", "KH"],
    ]
    st = rig.state(hands, lead="5D", ruleset="pesten")
    play(st, "JS", suit="C")
    assert legal(st) == {"JH"}


def test_a_wild_card_is_never_legal_under_attack():
    st = rig.state([["2D"], ["JD", "2S"]], lead="5D", ruleset="pesten")
    play(st, "2D")
    assert legal(st) == {"2S"}


def test_the_protocol_asks_a_suit_of_the_wild_card_only():
    greedy = builtin_bots()["greedy"]
    no_suit = Script({"action": "play", "card": "JD"})
    log = rig.run([no_suit, greedy(1)], [["JD"], []], ruleset="pesten")
    assert log["result"]["faults"] == [{"seat": 0, "reason": "illegal"}]
    seven = Script({"action": "play", "card": "7D"}, "9D", "draw")
    short = {"name": "pesten", "turn_limit": 4}
    log = rig.run([seven, rig.drawer], [["7D", "9D"], []], ruleset=short)
    assert log["events"][0] == {"seat": 0, "kind": "play", "card": "7D"}
    assert log["result"]["faults"] == []


# ----------------------------------------------------------------------- shield


def test_without_a_shield_only_counters_answer_an_attack():
    st = rig.state([["2D"], ["3D", "2S", "BJ"]], lead="5D", ruleset="pesten")
    play(st, "2D")
    assert legal(st) == {"2S", "BJ"}


def test_the_shield_is_the_rank_the_ruleset_names():
    rules = {"roles": {"shield": "4", "again": None}}
    st = rig.state([["2D"], ["3D", "4S", "KS"]], lead="5D", ruleset=rules, record=True)
    play(st, "2D")
    assert legal(st) == {"4S"}
    play(st, "4S")
    assert st.atk_total == 0
    assert st.events[-1] == {"seat": 1, "kind": "shield", "card": "4S"}


def test_a_shield_without_an_attack_is_an_ordinary_card():
    st = rig.state([["4D"], ["9D"]], lead="5D", ruleset={"roles": {"shield": "4"}}, record=True)
    play(st, "4D")
    assert st.events[-1] == {"seat": 0, "kind": "play", "card": "4D"}
    assert st.to_act == 1


# ----------------------------------------------------------------------- none


def test_with_no_roles_every_card_but_the_attacks_is_ordinary():
    st = rig.state([["7S", "JD", "QD", "KD", "3D"], [], []], lead="5D", ruleset=NO_ROLES)
    assert legal(st) == {"JD", "QD", "KD", "3D"}  # the 7 of spades is no longer wild
    for code in ("JD", "QD", "KD"):
        trial = st.clone()
        play(trial, code)
        assert (trial.to_act, trial.direction) == (1, 1)
    with pytest.raises(IllegalAction):
        rig.state([["7S"], []], lead="5D", ruleset=NO_ROLES).apply(play_action(CARD_OF["7S"], 0))
    st = rig.state([["2D"], ["3D", "2S"]], lead="5D", ruleset=NO_ROLES)
    play(st, "2D")
    assert legal(st) == {"2S"}


# ----------------------------------------------------------------------- the attacks


def test_pesten_attacks_with_twos_and_jokers_only():
    st = rig.state([["BJ"], ["CJ", "AD", "2D"]], lead="5D", ruleset="pesten")
    play(st, "BJ")
    assert (st.atk_total, st.atk_last) == (5, 5)
    assert legal(st) == {"CJ"}  # the 2 is below the last value, the ace does not attack
    play(st, "CJ")
    assert st.atk_total == 10


# ----------------------------------------------------------------------- start_direction


def test_finnish_play_goes_counterclockwise_from_seat_zero():
    st = rig.state([["9D"], [], [], []], lead="5D", ruleset="finnish")
    assert (st.to_act, st.direction) == (0, -1)
    assert st.observation(2)["direction"] == -1
    play(st, "9D")
    assert st.to_act == 3


def test_a_reverse_turns_counterclockwise_play_clockwise():
    st = rig.state([["QD"], [], []], lead="5D", ruleset="finnish")
    play(st, "QD")
    assert (st.direction, st.to_act) == (1, 1)


def test_the_deal_still_goes_seat_zero_first_in_seat_order():
    order = list(CODES)
    st = GameState.new(3, "finnish", deck=order)
    assert [CODES[c] for c in st.hands[1]] == [order[i * 3 + 1] for i in range(5)]


def test_counterclockwise_skips_follow_the_direction():
    st = rig.state([["JD"], [], [], []], lead="5D", ruleset="finnish", record=True)
    play(st, "JD")
    assert st.events[-1] == {"seat": 3, "kind": "skip"}
    assert st.to_act == 2


def test_counterclockwise_catch_windows_follow_the_direction():
    st = rig.state([["9D", "8D"], [], [], []], lead="5D", ruleset="finnish")
    # Seat 0 holds two cards (the rest of its deal back under the draw pile) and
    # goes down to one without calling: the offers go round counterclockwise.
    rest = [c for c in st.hands[0] if CODES[c] not in ("9D", "8D")]
    st.hands[0] = [CARD_OF["9D"], CARD_OF["8D"]]
    st.draw[:0] = rest
    play(st, "9D")
    assert st.deciding == 3
    assert st.offers == [3, 2, 1]


def test_seat_zero_faulting_at_the_start_hands_play_counterclockwise():
    st = GameState.new(4, "finnish", seed=3)
    st.fault(0, "crash")
    assert st.to_act == 3


def test_adjudication_ties_go_counterclockwise():
    st = rig.state([[], [], []], lead="5D", ruleset={"name": "finnish", "turn_limit": 1})
    draw(st)  # seat 0 draws: seats 2 and 1 tie on the fewest cards
    assert st.over
    assert st.adjudicated
    assert st.winner == 2


# ----------------------------------------------------------------------- whole games


@pytest.mark.parametrize("ruleset", ["pesten", "finnish"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_example_bots_play_the_presets_without_a_fault(ruleset, players):
    factories = builtin_bots()
    kinds = ["heuristic", "greedy", "random"]
    for seed in range(6):
        bots = [factories[kinds[(seed + s) % 3]](seed * 10 + s) for s in range(players)]
        log = engine.play_game(bots, seed=seed, ruleset=ruleset)
        assert log["result"]["faults"] == []
        assert log["ruleset"] == PRESETS[ruleset].to_dict()
        assert list(engine.replay(log))[-1].result() == log["result"]


def test_random_pesten_games_use_every_role_the_ruleset_gives():
    rng = random.Random(5)
    kinds: set[str] = set()
    declared_by: set[str] = set()
    for seed in range(30):
        st = GameState.new(3, "pesten", seed=seed, record=True)
        while not st.over:
            st.apply(rng.choice(st.legal_actions()))
        kinds |= {e["kind"] for e in st.events}
        declared_by |= {e["card"][0] for e in st.events if e["kind"] == "play" and "suit" in e}
    assert {"skip", "reverse", "take"} <= kinds
    assert "shield" not in kinds
    assert declared_by == {"J"}
