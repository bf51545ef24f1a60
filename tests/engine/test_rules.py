"""RULES.md, rule by rule, on crafted decks through the state API."""

from __future__ import annotations

import pytest

import engine
from engine import CATCH, DRAW, PASS, GameState, IllegalAction
from engine.cards import CARD_OF, CODES
from tests.engine import rig
from tests.engine.rig import draw, hand, play


def legal(st: GameState) -> set[str]:
    return {CODES[c] for c in st.legal_cards()}


# ----------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (5, 5), (8, 5)])
def test_deal_one_card_at_a_time_seat_zero_first(players, size):
    order = list(CODES)
    st = GameState.new(players, deck=order)
    for seat in range(players):
        assert hand(st, seat) == [order[i * players + seat] for i in range(size)]
    assert st.to_act == 0
    assert st.direction == 1
    assert st.turn == 0


def test_special_lead_cards_are_buried_until_a_plain_card_leads():
    st = rig.state([[], []], lead="7H", draw=["2C", "JS", "9D", "4S"])
    assert CODES[st.discard[-1]] == "9D"
    # Each buried card went under the pile, so the last one buried is the bottom.
    assert [CODES[c] for c in st.draw[:3]] == ["JS", "2C", "7H"]
    assert CODES[st.draw[-1]] == "4S"
    assert len(st.draw) + 1 + 14 == 54


def test_no_plain_card_in_a_whole_pass_the_last_turned_leads_without_effect():
    plain = [c for c in CODES if c[0] in "45689T"]
    special = [c for c in CODES if c not in plain]
    # Eight players take all 24 plain cards and 16 specials; the 14 left are special.
    dealt = plain + special[:16]
    rest = special[16:]
    rest.remove("2C")
    rest.append("2C")  # turned last: an attack card that must not attack
    st = GameState.new(8, deck=dealt + rest)
    assert CODES[st.discard[-1]] == "2C"
    assert st.atk_total == 0
    assert [CODES[c] for c in st.draw[::-1]] == rest[:-1]


def test_a_seven_lead_after_a_whole_pass_declares_no_suit():
    plain = [c for c in CODES if c[0] in "456789T" and c[0] != "7"]
    special = [c for c in CODES if c not in plain]
    rest = [c for c in special[16:] if c != "7D"] + ["7D"]
    st = GameState.new(8, deck=plain + special[:16] + rest)
    assert CODES[st.discard[-1]] == "7D"
    assert st.suit == -1


def test_deck_must_hold_each_code_once():
    with pytest.raises(ValueError, match="exactly once"):
        GameState.new(2, deck=["AS"] * 54)
    with pytest.raises(ValueError, match="54"):
        GameState.new(2, deck=list(CODES)[:53])
    with pytest.raises(ValueError, match="codes"):
        GameState.new(2, deck=[*list(CODES)[:53], "ZZ"])


@pytest.mark.parametrize("players", [1, 9, 0])
def test_two_to_eight_players(players):
    with pytest.raises(ValueError, match="2 to 8"):
        GameState.new(players)


def test_the_table_sizes_are_the_engines_constants():
    # RULES.md's "2 to 8 players", defined once: the platform and the sandbox read them.
    assert (engine.MIN_PLAYERS, engine.MAX_PLAYERS) == (2, 8)
    bounds = f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS}"
    short = {"turn_limit": 3}
    for players in (engine.MIN_PLAYERS, engine.MAX_PLAYERS):
        log = engine.play_game([rig.drawer] * players, seed=1, ruleset=short)
        assert len(list(engine.replay(log))) == 3
    for players in (engine.MIN_PLAYERS - 1, engine.MAX_PLAYERS + 1):
        with pytest.raises(ValueError, match=bounds):
            GameState.new(players)
        with pytest.raises(ValueError, match=bounds):
            engine.play_game([rig.drawer] * players, seed=1)
        log = engine.play_game([rig.drawer] * engine.MIN_PLAYERS, seed=1, ruleset=short)
        log["players"] = players
        with pytest.raises(engine.ReplayError, match=f"players must be {bounds}"):
            list(engine.replay(log))


def test_the_same_seed_deals_the_same_game():
    a, b = GameState.new(4, seed=9), GameState.new(4, seed=9)
    assert a.hands == b.hands
    assert a.draw == b.draw
    assert GameState.new(4, seed=10).hands != a.hands


# ----------------------------------------------------------------------- matching


def test_match_by_suit_or_rank_only():
    st = rig.state([["5H", "9D", "9S", "3C"], []], lead="9H")
    assert {"5H", "9D", "9S"} <= legal(st)
    assert "3C" not in legal(st)
    with pytest.raises(IllegalAction):
        play(st, "3C")
    play(st, "9S")
    assert CODES[st.discard[-1]] == "9S"
    assert st.to_act == 1


def test_a_three_without_attack_is_an_ordinary_card():
    st = rig.state([["3D", "3S"], []], lead="5D")
    assert "3D" in legal(st)
    assert "3S" not in legal(st)
    play(st, "3D")
    assert st.atk_total == 0
    assert st.to_act == 1


def test_a_card_not_in_hand_cannot_be_played():
    st = rig.state([[], ["5H"]], lead="5D")
    with pytest.raises(IllegalAction):
        play(st, "5H")


def test_drawing_is_always_allowed_and_ends_the_turn():
    st = rig.state([["5H"], []], lead="5D", draw=["KC"])
    assert st.legal_actions()[-1] == DRAW
    draw(st)
    assert hand(st, 0)[-1] == "KC"
    assert st.to_act == 1
    assert st.turn == 1


def test_seven_is_wild_and_the_declared_suit_binds_the_next_player():
    st = rig.state([["7C"], ["9S", "5D", "7H", "BJ", "6C"]], lead="4H")
    assert "7C" in legal(st)
    with pytest.raises(IllegalAction, match="suit"):
        play(st, "7C")
    play(st, "7C", suit="S")
    assert st.suit == 0
    # Suit or another 7 or a joker; the top card's own suit and rank no longer match.
    assert {"9S", "7H", "BJ"} <= legal(st)
    assert not {"5D", "6C"} & legal(st)
    play(st, "9S")
    assert st.suit == -1


def test_seven_may_name_its_own_suit_and_the_suit_lasts_until_a_card_is_played():
    st = rig.state([["7C"], ["9S"]], lead="5D", draw=["8H", "8D"])
    play(st, "7C", suit="C")
    draw(st)  # seat 1 draws: nothing was played, the suit stays
    assert st.suit == 3
    assert st.to_act == 0


def test_joker_plays_on_anything_and_anything_plays_on_a_joker():
    st = rig.state([["BJ"], ["KH", "4S"]], lead="5D")
    assert "BJ" in legal(st)
    play(st, "BJ")
    draw(st)  # seat 1 takes the joker's attack
    assert st.atk_total == 0
    play(st, rig.hand(st, 0)[0])  # seat 0 plays anything of its filler: on a joker
    assert CODES[st.discard[-1]] != "BJ"


def test_anything_is_legal_on_a_joker_top_after_the_attack_is_taken():
    st = rig.state(
        [["CJ"], ["KH", "4S"]],
        lead="5D",
        draw=["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "AH"],
    )
    play(st, "CJ")
    st.apply(DRAW)  # seat 1 takes 10
    assert st.to_act == 0
    assert set(hand(st, 0)) == legal(st)


def test_a_joker_is_never_the_last_card():
    st = rig.state([["BJ", "9H"], []], lead="9D")
    st.hands[0] = [CARD_OF["BJ"], CARD_OF["9H"]]
    play(st, "9H", call=True)
    draw(st)
    assert hand(st, 0) == ["BJ"]
    assert st.legal_cards() == []
    assert st.legal_actions() == [DRAW]
    with pytest.raises(IllegalAction, match="joker"):
        play(st, "BJ")


# ----------------------------------------------------------------------- J, Q, K


def test_jack_skips_the_next_player():
    st = rig.state([["JD"], [], []], lead="5D")
    play(st, "JD")
    assert st.to_act == 2


def test_jack_with_two_players_gives_the_same_player_another_turn():
    st = rig.state([["JD"], []], lead="5D")
    play(st, "JD")
    assert st.to_act == 0
    assert st.turn == 1


def test_queen_reverses_the_direction():
    st = rig.state([["QD"], [], []], lead="5D")
    play(st, "QD")
    assert st.direction == -1
    assert st.to_act == 2


def test_queen_with_two_players_is_a_skip_and_keeps_the_direction():
    st = rig.state([["QD"], []], lead="5D")
    play(st, "QD")
    assert st.direction == 1
    assert st.to_act == 0


def test_king_gives_another_turn_at_once_then_play_passes():
    st = rig.state([["KD", "9D"], [], []], lead="5D")
    play(st, "KD")
    assert st.to_act == 0
    play(st, "9D")
    assert st.to_act == 1
    assert st.turn == 2


def test_king_extra_turn_may_be_a_draw():
    st = rig.state([["KD"], [], []], lead="5D", draw=["4C"])
    play(st, "KD")
    draw(st)
    assert st.to_act == 1


def test_two_players_means_two_seats_still_in_the_game():
    st = rig.state([["JD", "QD"], [], [], []], lead="5D")
    st.fault(2, "crash")
    st.fault(3, "crash")
    play(st, "JD")
    assert st.to_act == 0  # J with two seats left: the same player again
    play(st, "QD")
    assert st.to_act == 0
    assert st.direction == 1


# ----------------------------------------------------------------------- attacks


def test_attack_values_follow_the_ladder():
    values = {}
    for code in ("2H", "AH", "AS", "BJ", "CJ"):
        st = rig.state([[code], []], lead="5" + (code[1] if code[1] in "SHDC" else "H"))
        play(st, code)
        values[code] = (st.atk_total, st.atk_last)
    assert values == {"2H": (2, 2), "AH": (3, 3), "AS": (5, 5), "BJ": (7, 7), "CJ": (10, 10)}


def test_an_attack_card_must_be_played_legally_to_start_an_attack():
    st = rig.state([["2C"], []], lead="5D")
    assert "2C" not in legal(st)


def test_under_attack_only_counters_and_threes_are_legal():
    st = rig.state([["2D"], ["7H", "JD", "QD", "KD", "6D", "2S", "3C"]], lead="5D")
    play(st, "2D")
    assert legal(st) == {"2S", "3C"}
    for code in ("7H", "JD", "QD", "KD", "6D"):
        with pytest.raises(IllegalAction):
            play(st, code)


def test_counter_compares_with_the_last_value_not_the_total():
    st = rig.state(
        [["2D", "2H", "AC"], ["2S", "2C", "9C"]], lead="5D"
    )  # three 2s stacked make 6, an ace (3) still answers the last 2
    play(st, "2D")
    play(st, "2S")
    play(st, "2H")
    assert (st.atk_total, st.atk_last) == (6, 2)
    play(st, "2C")
    assert (st.atk_total, st.atk_last) == (8, 2)
    assert st.to_act == 0
    play(st, "AC")
    assert (st.atk_total, st.atk_last) == (11, 3)
    assert "9C" not in legal(st)


def test_the_ladder_hierarchy():
    def answers(first: str, hand_: list[str]) -> set[str]:
        st = rig.state([[first], hand_], lead="5H" if first != "AS" else "5S")
        play(st, first)
        return legal(st)

    assert answers("2H", ["2S", "AD", "AS", "BJ", "CJ"]) == {"2S", "AD", "AS", "BJ", "CJ"}
    assert answers("AH", ["2S", "AD", "AS", "BJ", "CJ"]) == {"AD", "AS", "BJ", "CJ"}
    assert answers("AS", ["2S", "AD", "BJ", "CJ"]) == {"BJ", "CJ"}
    assert answers("BJ", ["2S", "AD", "AS", "CJ"]) == {"CJ"}
    assert answers("CJ", ["2S", "AD", "AS", "BJ", "3D"]) == {"3D"}


def test_counter_ignores_suit_and_top_card():
    st = rig.state([["2H"], ["AC"]], lead="5H")
    play(st, "2H")
    assert "AC" in legal(st)


def test_three_shields_the_whole_attack():
    st = rig.state([["AS"], ["3D"], []], lead="5S")
    play(st, "AS")
    before = [len(h) for h in st.hands]
    play(st, "3D")
    assert st.atk_total == 0
    assert st.suit == -1
    assert CODES[st.discard[-1]] == "3D"
    assert st.to_act == 2
    assert [len(h) for h in st.hands] == [before[0], before[1] - 1, before[2]]


def test_taking_draws_the_total_and_the_attack_card_stays_as_an_ordinary_top():
    st = rig.state([["2H", "2S"], ["9H", "9C"]], lead="5H", draw=["4D", "8D", "9D", "TD"])
    play(st, "2H")
    draw(st)  # seat 1 takes 2
    assert hand(st, 1)[-2:] == ["4D", "8D"]
    assert st.atk_total == 0
    assert st.to_act == 0
    # The 2 on top is an ordinary card now: suit or rank matches it, nothing attacks.
    assert "2S" in legal(st)
    play(st, "2S")
    assert (st.atk_total, st.atk_last) == (2, 2)


def test_joker_counter_as_last_card_is_illegal():
    st = rig.state([[], []], lead="5H")
    st.hands[0] = [CARD_OF[c] for c in ("9H", "AC", "4S")]
    st.hands[1] = [CARD_OF[c] for c in ("9C", "BJ")]
    play(st, "9H")
    play(st, "9C", call=True)
    play(st, "AC", call=True)
    assert hand(st, 1) == ["BJ"]
    assert legal(st) == set()
    with pytest.raises(IllegalAction, match="joker"):
        play(st, "BJ")


# ----------------------------------------------------------------------- winning


@pytest.mark.parametrize("last", ["KD", "JD", "QD", "2D", "AD", "7D", "3D"])
def test_emptying_the_hand_by_a_legal_play_wins_whatever_the_card(last):
    st = rig.state([[last, "9D"], []], lead="5D")
    st.hands[0] = [CARD_OF[last], CARD_OF["9D"]]
    play(st, "9D", call=True)
    draw(st)
    play(st, last)
    assert st.over
    assert st.winner == 0
    assert not st.adjudicated
    assert st.result()["ranks"] == [1, 2]


def test_ranks_by_cards_left_with_competition_ranking():
    # Cards left 0, 4, 4, 6 give places 1, 2, 2, 4.
    st = rig.state([["9D"], [], [], []], lead="5D")
    st.hands[0] = [CARD_OF["9D"]]
    st.hands[1] = st.hands[1][:4]
    st.hands[2] = st.hands[2][:4]
    play(st, "9D")
    assert st.result()["ranks"] == [1, 2, 2, 4]


def test_turn_limit_adjudicates_fewest_cards():
    st = rig.state([["9D"], [], []], lead="5D", ruleset={"turn_limit": 2})
    play(st, "9D")  # seat 0: 4 cards
    draw(st)  # seat 1: 6 cards; that is the limit
    assert st.over
    assert st.adjudicated
    assert st.winner == 0
    assert st.result()["ranks"] == [1, 3, 2]


def test_adjudication_tie_goes_to_the_seat_that_would_act_soonest():
    st = rig.state([[], [], []], lead="5D", ruleset={"turn_limit": 3})
    draw(st)
    draw(st)
    draw(st)  # everyone has 6; seat 0 would act next
    assert st.winner == 0
    assert st.result()["ranks"] == [1, 2, 2]
    st = rig.state([["QD"], [], ["9D"]], lead="5D", ruleset={"turn_limit": 2})
    play(st, "QD")  # now anticlockwise: seat 2 acts
    play(st, "9D")  # seats 0 and 2 both hold 4; seat 1 would act next, then 0
    assert st.winner == 0
    assert st.result()["ranks"] == [1, 3, 2]


def test_a_draw_of_nothing_counts_as_a_turn():
    st = rig.state([[], []], lead="5D", ruleset={"turn_limit": 100})
    st.draw.clear()
    draw(st)
    assert st.turn == 1
    assert len(st.hands[0]) == 7


# ----------------------------------------------------------------------- empty piles


def test_empty_draw_pile_reshuffles_the_discard_beneath_its_top():
    st = rig.state([["9D", "9H"], ["9S", "9C"]], lead="5D", seed=3)
    play(st, "9D")
    play(st, "9S")
    play(st, "9H")
    st.draw.clear()
    draw(st)  # seat 1 needs a card: 5D 9D 9S become the new pile, 9H stays on top
    assert CODES[st.discard[-1]] == "9H"
    assert len(st.discard) == 1
    assert len(st.draw) == 2
    assert {CODES[c] for c in st.draw} | {hand(st, 1)[-1]} == {"5D", "9D", "9S"}


def test_both_piles_empty_forgives_the_rest_of_the_penalty():
    st = rig.state([["AD", "9D"], []], lead="5D")
    play(st, "9D")
    draw(st)
    play(st, "AD")
    st.draw[:] = st.draw[-1:]  # one card left to draw, and nothing to reshuffle
    del st.discard[:-1]
    draw(st)  # seat 1 should take 3: one from the pile, then both piles are empty
    assert len(st.hands[1]) == 9
    assert st.atk_total == 0
    assert st.to_act == 0


def test_a_multi_card_draw_reshuffles_mid_draw():
    st = rig.state([["9D", "9H", "AH"], ["9S"]], lead="5D", seed=4)
    play(st, "9D")
    play(st, "9S")
    play(st, "9H")
    st.draw[:] = st.draw[-2:]
    draw(st)  # seat 1 draws one of the last two cards
    last = CODES[st.draw[-1]]
    play(st, "AH")
    st.events = []
    draw(st)  # 3 to take: the last card, then 5D 9D 9S 9H reshuffled, two more
    assert [e["kind"] for e in st.events] == ["reshuffle", "take"]
    assert st.events[0]["count"] == 4
    take = st.events[1]
    assert take["count"] == 3
    assert take["cards"][0] == last
    assert set(take["cards"][1:]) <= {"5D", "9D", "9S", "9H"}


# ----------------------------------------------------------------------- one card


def test_a_play_to_one_card_may_call():
    st = rig.state([["9D", "9H"], []], lead="5D", record=True)
    st.hands[0] = [CARD_OF["9D"], CARD_OF["9H"]]
    play(st, "9D", call=True)
    assert [e["kind"] for e in st.events] == ["play", "call"]
    assert st.phase == 0
    assert st.to_act == 1


def test_no_call_opens_a_catch_window_in_turn_order_before_the_next_turn():
    st = rig.state([["9D", "9H"], [], [], []], lead="5D", record=True)
    st.hands[0] = [CARD_OF["9D"], CARD_OF["9H"]]
    play(st, "9D")
    assert st.phase == 1
    assert st.offers == [1, 2, 3]
    assert st.lapse == 0
    st.apply(PASS)
    assert st.deciding == 2
    st.apply(CATCH)
    assert len(st.hands[0]) == 2
    assert st.phase == 0
    assert st.to_act == 1
    assert [e["kind"] for e in st.events] == ["play", "pass", "catch"]


def test_catch_window_follows_the_current_direction():
    st = rig.state([["QD", "9H"], [], [], []], lead="5D")
    st.hands[0] = [CARD_OF["QD"], CARD_OF["9H"]]
    play(st, "QD")
    assert st.offers == [3, 2, 1]


def test_all_declining_changes_nothing():
    st = rig.state([["9D", "9H"], [], []], lead="5D")
    st.hands[0] = [CARD_OF["9D"], CARD_OF["9H"]]
    play(st, "9D")
    st.apply(PASS)
    st.apply(PASS)
    assert len(st.hands[0]) == 1
    assert st.phase == 0
    assert st.to_act == 1


def test_no_window_while_the_same_player_acts_again():
    st = rig.state([["JD", "9D"], []], lead="5D")
    st.hands[0] = [CARD_OF["JD"], CARD_OF["9D"]]
    play(st, "JD")
    assert st.phase == 0
    assert st.to_act == 0
    play(st, "9D")
    assert st.over
    assert st.winner == 0


def test_window_after_a_king_chain_only_if_still_one_card():
    st = rig.state([["KD", "9H"], []], lead="5D", draw=["4C"])
    st.hands[0] = [CARD_OF["KD"], CARD_OF["9H"]]
    play(st, "KD")
    draw(st)  # two cards now: no window
    assert st.phase == 0
    assert st.to_act == 1


def test_a_shield_is_a_play_that_may_leave_one_card():
    st = rig.state([["2D"], ["3S", "9C"]], lead="5D", record=True)
    st.hands[1] = [CARD_OF["3S"], CARD_OF["9C"]]
    play(st, "2D")
    play(st, "3S")
    assert st.phase == 1
    assert st.offers == [0]
    st.apply(CATCH)
    assert len(st.hands[1]) == 2


# ----------------------------------------------------------------------- clone


def test_clone_is_independent():
    st = GameState.new(3, seed=5)
    copy = st.clone()
    copy.apply(copy.legal_actions()[0])
    assert st.turn == 0
    assert copy.turn == 1
    assert st.hands != copy.hands or st.discard != copy.discard


# ----------------------------------------------------------------------- faults


def test_the_next_player_faulting_in_a_catch_window_cancels_its_attack_and_turn():
    st = rig.state([["2D", "9H"], [], []], lead="5D")
    st.hands[0] = [CARD_OF["2D"], CARD_OF["9H"]]
    play(st, "2D")  # one card left, no call; the attack is on seat 1
    assert st.offers == [1, 2]
    st.fault(1, "timeout")
    assert st.offers == [2]
    assert st.atk_total == 0
    assert st.to_act == 2
    st.apply(PASS)
    assert st.phase == 0
    assert st.to_act == 2


def test_a_fault_in_a_king_sequence_passes_play_on():
    st = rig.state([["KD"], [], []], lead="5D")
    play(st, "KD")
    st.fault(0, "crash")
    assert st.to_act == 1
    assert st.extra == 0
