"""Invariants over many random games: cards conserved, logs replay, nothing leaks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import GameState
from engine.cards import CODES

# Every preset (pesten and finnish among them), and two dicts: one mixing
# variants, one moving every role to another rank and starting counterclockwise.
MOVED_ROLES = {
    "attack_values": {"A": 0, "AS": 0},
    "roles": {"wild": "9", "skip": None, "reverse": "A", "again": "J", "shield": "K"},
    "start_direction": -1,
    "multi_play": True,
}
RULESETS = [
    None,
    *sorted(engine.PRESETS),
    {"max_penalty": 6, "mirror_three": True},
    MOVED_ROLES,
]


class Unruly:
    """A random bot that now and then calls wrongly, skips calls, or misbehaves, and
    checks every message it gets against what it may know."""

    def __init__(self, seed: int, misbehave: float) -> None:
        self.rng = random.Random(seed)
        self.misbehave = misbehave
        self.seat = -1
        self.hand: list[str] = []

    def __call__(self, message: dict[str, Any]) -> Any:
        kind = message["type"]
        if kind == "start":
            self.seat = message["seat"]
            return {}
        assert message["seat"] == self.seat
        self.check(message)
        if kind == "end":
            return {}
        if self.rng.random() < self.misbehave:
            return self.rng.choice([None, {"action": "play", "card": "BJ"}, RuntimeError()])
        if kind == "catch":
            return {"action": self.rng.choice(["catch", "pass"])}
        legal = message["legal"]
        if legal and self.rng.random() < 0.85:
            card = self.rng.choice(legal)
            reply = {"action": "play", "card": card, "suit": self.rng.choice("SHDC")}
            if self.rng.random() < 0.7:
                reply["call"] = True
            return reply
        return {"action": "draw"}

    def check(self, message: dict[str, Any]) -> None:
        if message["type"] != "end":
            hands = message["hands"]
            held = sum(n for n in hands if n is not None)
            assert held + message["draw_pile"] + message["discard_pile"] == 54
            assert len(message["hand"]) == hands[self.seat]
            assert set(message["legal"]) <= set(message["hand"])
        for event in message["events"]:
            assert "order" not in event
            if event["kind"] in ("draw", "take", "fault"):
                assert ("cards" in event) == (event["seat"] == self.seat)
            if event["kind"] == "catch":
                assert ("cards" in event) == (event["target"] == self.seat)


def play_one(seed: int, players: int, ruleset: Any, misbehave: float) -> dict[str, Any]:
    bots = [Unruly(seed * 10 + s, misbehave) for s in range(players)]
    return engine.play_game(bots, seed=seed, ruleset=ruleset)


def check_log(log: dict[str, Any]) -> None:
    assert json.loads(json.dumps(log)) == log
    states = list(engine.replay(log))
    for state in states:
        held = [c for h in state.hands for c in h] + state.draw + state.discard
        assert sorted(held) == list(range(54))
    assert states[-1].result() == log["result"]
    result = log["result"]
    ranks = result["ranks"]
    assert ranks[result["winner"]] == 1
    assert ranks.count(1) == 1
    faulted = {f["seat"] for f in result["faults"]}
    assert all(result["hands"][s] == [] for s in faulted)
    standing = [ranks[s] for s in range(log["players"]) if s not in faulted]
    assert all(ranks[s] > max(standing) for s in faulted)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=8),
    ruleset=st.sampled_from(RULESETS),
    misbehave=st.sampled_from([0.0, 0.0, 0.01, 0.05]),
)
def test_random_games_replay_and_conserve_cards(seed, players, ruleset, misbehave):
    check_log(play_one(seed, players, ruleset, misbehave))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(2, 8))
def test_observations_match_the_state_and_hide_the_rest(seed, players):
    state = GameState.new(players, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        for seat in range(players):
            obs = state.observation(seat)
            assert obs["hand"] == [CODES[c] for c in state.hands[seat]]
            others = {CODES[c] for s, h in enumerate(state.hands) if s != seat for c in h}
            assert not others & set(json.dumps(obs).replace('"', " ").split())
        state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(2, 8),
    ruleset=st.sampled_from(RULESETS),
)
def test_clones_diverge_without_touching_the_original(seed, players, ruleset):
    state = GameState.new(players, ruleset, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(40)):
        if state.over:
            break
        state.apply(rng.choice(state.legal_actions()))
    snapshot = json.dumps([state.observation(s) for s in range(players)])
    twin = state.clone()
    while not twin.over:
        twin.apply(rng.choice(twin.legal_actions()))
    assert json.dumps([state.observation(s) for s in range(players)]) == snapshot


def finish_random_games(players: int, seeds: range) -> None:
    for seed in seeds:
        state = GameState.new(players, seed=seed, ruleset=RULESETS[seed % len(RULESETS)])
        rng = random.Random(seed)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        assert state.winner >= 0
        assert sorted(state.ranks())[0] == 1


@pytest.mark.parametrize("players", range(2, 9))
def test_seeded_random_games_finish_through_the_state_api(players):
    finish_random_games(players, range(300))


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_thousands_of_seeded_random_games_finish(players):
    finish_random_games(players, range(300, 2300))


@pytest.mark.parametrize("players", range(2, 9))
def test_seeded_protocol_games_replay(players):
    for seed in range(40):
        check_log(play_one(seed, players, RULESETS[seed % len(RULESETS)], 0.02))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(2, 8),
    ruleset=st.sampled_from(RULESETS),
)
def test_a_sampled_state_agrees_with_the_view_it_came_from(seed, players, ruleset):
    state = GameState.new(players, ruleset, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        if state.over or state.phase != 0:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.over or state.phase != 0:
        return
    seat = state.to_act
    view = state.observation(seat)
    guess = engine.sample_state(view, ruleset, seed=seed)
    assert guess.observation(seat) == view
    held = [c for h in guess.hands for c in h] + guess.draw + guess.discard
    assert sorted(held) == list(range(54))
    assert guess.legal_actions() == state.legal_actions()
    while not guess.over:  # and it plays on to the end
        guess.apply(rng.choice(guess.legal_actions()))


def test_sample_state_keeps_known_discards_and_refuses_bad_counts():
    state = GameState.new(2, seed=3)
    view = state.observation(0)
    with pytest.raises(ValueError, match="add up"):
        engine.sample_state({**view, "draw_pile": view["draw_pile"] + 1})
    with pytest.raises(ValueError, match="twice"):
        engine.sample_state(view, discard=[view["top"]])


def test_sample_state_leaves_known_discards_in_the_discard_pile():
    state = GameState.new(2, seed=8)
    rng = random.Random(8)
    while len(state.discard) < 4 or state.phase != 0:
        state.apply(rng.choice(state.legal_actions()))
    known = [CODES[c] for c in state.discard[:-1]]
    guess = engine.sample_state(state.observation(state.to_act), seed=1, discard=known)
    assert sorted(guess.discard[:-1]) == sorted(state.discard[:-1])


# ----------------------------------------------------------------------- roles


def attack_of(rules: engine.Ruleset, code: str) -> int:
    """RULES.md's ladder, read from the ruleset's dict as a bot would."""
    key = code if code in ("AS", "BJ", "CJ") else code[0] if code[0] in "2A" else None
    return rules.to_dict()["attack_values"][key] if key else 0


def role_of(rules: engine.Ruleset, code: str) -> str | None:
    if code in ("BJ", "CJ"):
        return None
    return {rank: role for role, rank in rules.to_dict()["roles"].items()}.get(code[0])


def expected_legal(state: GameState, rules: engine.Ruleset) -> list[str]:
    """RULES.md, A turn and The attack ladder, for the ruleset's roles (without
    suited jokers, whose colors this oracle leaves to test_variants)."""
    hand = [CODES[c] for c in state.hands[state.to_act]]
    top = CODES[state.discard[-1]]
    declared = "SHDC"[state.suit] if state.suit >= 0 else None
    out = []
    for code in hand:
        if state.atk_total:
            ok = role_of(rules, code) == "shield" or attack_of(rules, code) >= max(
                state.atk_last, 1
            )
        elif code in ("BJ", "CJ") or role_of(rules, code) == "wild" or top in ("BJ", "CJ"):
            ok = True
        elif declared:
            ok = code[1] == declared
        else:
            ok = code[0] == top[0] or code[1] == top[1]
        if ok and not (len(hand) == 1 and code in ("BJ", "CJ")):
            out.append(code)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(2, 6),
    ruleset=st.sampled_from([r for r in RULESETS if r != "classic"]),
)
def test_each_card_does_what_its_role_says(seed, players, ruleset):
    state = GameState.new(players, ruleset, seed=seed)
    rules = state.rules
    rng = random.Random(seed)
    while not state.over:
        if state.phase != 0:
            state.apply(rng.choice(state.legal_actions()))
            continue
        assert [CODES[c] for c in state.legal_cards()] == expected_legal(state, rules)
        action = rng.choice(state.legal_actions())
        seat, direction, extra = state.to_act, state.direction, state.extra
        attacked, total, alive = state.atk_total, state.atk_total, state.n_alive
        state.apply(action)
        card = action & 63
        if card >= 54 or state.over:
            continue
        code = CODES[card]
        role, value = role_of(rules, code), attack_of(rules, code)
        after = state.to_act
        assert state.direction == (
            -direction
            if (role == "reverse" and not attacked and alive > 2)
            or (role == "shield" and attacked and rules.mirror_three)
            else direction
        )
        step = state.next_seat(seat)
        if attacked and role == "shield":
            assert state.atk_total == (total if rules.mirror_three else 0)
            assert after == step
        elif value:
            cap = rules.max_penalty or 10**9
            assert (state.atk_total, state.atk_last) == (min(total + value, cap), value)
            assert after == step
        elif role == "skip" or (role == "reverse" and alive == 2):
            assert after == state.next_seat(seat, 2)
        elif role == "reverse":
            assert after == step
        elif role == "again" or extra:
            assert after == seat
        else:
            assert after == step
        assert (state.suit >= 0) == (role == "wild")
