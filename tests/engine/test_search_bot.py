"""The search bot (bots_examples/search_bot.py) and its ISMCTS variant
(bots_examples/search_ismcts.py): the interface, the beliefs, that both play
legally and in time on every preset at every table size, and that their analysis
is a pure function of the seat's own messages."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from bots_examples import builtin_bots, heuristic_bot, search_bot, search_ismcts
from bots_examples.search_bot import ActionValue, SearchPlayer
from bots_examples.search_ismcts import IsmctsPlayer
from engine.cards import CARD_OF, CODES, SUITS
from engine.state import GameState
from engine.tables import CARD_MASK, DRAW, SUIT_SHIFT
from tests.support.benchmark_scripts import benchmark_script

REPO = Path(__file__).resolve().parents[2]
# Both methods, for the tests every search must pass.
METHODS = pytest.mark.parametrize("method", [SearchPlayer, IsmctsPlayer], ids=["pimc", "ismcts"])


class Recorder:
    """Plays like ``bot`` and keeps every message the seat was sent, with the CPU
    time each reply took on this thread: a loaded machine's waits are left out, and
    so is the work of threads earlier tests left in this process (a live server,
    the browser's driver), which ``time.process_time`` would count."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.messages: list[dict[str, Any]] = []
        self.seconds: list[float] = []

    def __call__(self, message: dict[str, Any]) -> Any:
        self.messages.append(json.loads(json.dumps(message)))
        started = time.thread_time()
        reply = self.bot(message)
        self.seconds.append(time.thread_time() - started)
        return reply


def seat_messages(seed: int, players: int = 3, ruleset: str = "korean") -> list[dict[str, Any]]:
    """The messages seat 0 (a heuristic bot) was sent in one game."""
    witness = Recorder(heuristic_bot.make_bot(0))
    bots = [witness, *(heuristic_bot.make_bot(s) for s in range(1, players))]
    engine.play_game(bots, seed=seed, ruleset=ruleset)
    return witness.messages


def analyse_all(
    messages: list[dict[str, Any]], method: type[SearchPlayer] = SearchPlayer, **options: Any
) -> list[list[ActionValue]]:
    player = method(seed=3, iterations=60, **options)
    out = []
    for message in messages:
        player.observe(message)
        if message["type"] in ("turn", "catch"):
            out.append(player.analyse(message))
    return out


def test_it_is_a_builtin_example():
    assert builtin_bots()["search"] is search_bot.make_bot
    assert isinstance(search_bot.make_bot(1), SearchPlayer)


@pytest.fixture
def heap_of_earlier_tests_frozen():
    """The objects earlier tests left in this process kept out of the collector's
    full passes, which would otherwise land inside a timed reply: the bot's own
    process holds only its own."""
    gc.freeze()
    yield
    gc.unfreeze()


@METHODS
@pytest.mark.parametrize("ruleset", engine.PRESET_NAMES)
@pytest.mark.usefixtures("heap_of_earlier_tests_frozen")
def test_it_plays_every_preset_at_every_table_size_legally_and_in_time(method, ruleset):
    budget_ms = 4
    for players in range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1):
        searcher = Recorder(method(seed=players, budget_ms=budget_ms, clock=time.thread_time))
        others = [heuristic_bot.make_bot(s) for s in range(players - 1)]
        seat = players // 2
        bots = [*others[:seat], searcher, *others[seat:]]
        log = engine.play_game(bots, seed=players, ruleset=ruleset)
        assert log["result"]["faults"] == [], (players, log["result"])
        decisions = [m for m in searcher.messages if m["type"] == "turn"]
        assert decisions, players
        # The budget and a little: the clock is read every few playouts, so a reply
        # is never a whole search late. (The sandbox tests hold it to wall time.)
        assert max(searcher.seconds) < budget_ms / 1000 + 0.05, (players, max(searcher.seconds))


@METHODS
def test_a_turn_lists_every_legal_reply_best_first(method):
    messages = seat_messages(seed=2)
    player = method(seed=1, iterations=200)
    checked = 0
    for message in messages:
        player.observe(message)
        if message["type"] != "turn" or not message["legal"]:
            continue
        values = player.analyse(message)
        expected = {("draw", None, None)}
        for code in message["legal"]:
            if engine.bot.role(code) == "wild" and len(message["hand"]) > 1:
                expected |= {("play", code, s) for s in "SHDC"}
            else:
                expected.add(("play", code, None))
        got = {(v.reply["action"], v.reply.get("card"), v.reply.get("suit")) for v in values}
        assert got == expected
        assert values == sorted(values, key=method._rank)
        assert sum(v.visits for v in values) == 200
        assert all(0.0 <= v.win <= 1.0 for v in values)
        checked += 1
    assert checked >= 5


@METHODS
def test_a_catch_is_weighed_against_a_pass(method):
    start = {
        "type": "start",
        "seat": 1,
        "players": 2,
        "game": 0,
        "hand": ["5H", "9S", "4C", "8D", "TC", "6S", "KD"],
        "top": "6H",
        "ruleset": engine.PRESETS["korean"].to_dict(),
    }
    catch = {
        "type": "catch",
        "seat": 1,
        "target": 0,
        "turn": 6,
        "hand": start["hand"],
        "top": "8H",
        "suit": None,
        "attack": None,
        "direction": 1,
        "hands": [1, 7],
        "draw_pile": 33,
        "discard_pile": 13,
        "legal": [],
        "events": [],
    }
    player = method(seed=2, iterations=2000)
    player.observe(start)
    player.observe(catch)
    values = player.analyse(catch)
    assert [v.reply for v in values] == [{"action": "catch"}, {"action": "pass"}]
    # One card from a win, the target is likelier to win if it is not caught.
    assert values[0].win > values[1].win
    assert player(catch) == {"action": "catch"}


@METHODS
def test_with_iterations_the_analysis_depends_only_on_the_seed_and_the_messages(method):
    messages = seat_messages(seed=5)
    first = analyse_all(messages, method)
    assert analyse_all(messages, method) == first
    # A clock that would end the search at once changes nothing: iterations rule.
    assert analyse_all(messages, method, clock=iter(range(0, 10**9, 10**6)).__next__) == first
    other = method(seed=4, iterations=60)
    replies = []
    for message in messages:
        other.observe(message)
        if message["type"] == "turn":
            replies.append(other.analyse(message))
    assert replies != first


@METHODS
def test_the_analysis_sees_only_what_the_seat_saw(method):
    # Two deals that differ only in the cards seat 0 cannot see (the other two
    # hands swapped): seat 0's first message is the same, and so is its analysis.
    state = GameState.new(3, seed=11)
    deck = [CODES[c] for c in engine.state.deck_order(None, 11)]
    hands = [deck[s::3][:5] for s in range(3)]
    rest = deck[15:]
    order = []
    for i in range(5):
        order += [hands[0][i], hands[2][i], hands[1][i]]
    swapped = [*order, *rest]
    other = GameState.new(3, deck=swapped, seed=11)
    assert other.observation(0) == state.observation(0)
    assert other.hands[1] != state.hands[1]
    results = []
    for game in (state, other):
        view = game.observation(0)
        player = method(seed=9, iterations=150)
        player.observe(
            {
                "type": "start",
                "seat": 0,
                "players": 3,
                "game": 0,
                "hand": view["hand"],
                "top": view["top"],
                "ruleset": engine.PRESETS["korean"].to_dict(),
            }
        )
        player.observe(view)
        results.append(player.analyse(view))
    assert results[0] == results[1]


def test_a_player_that_drew_is_dealt_no_card_it_could_have_played():
    start = {
        "type": "start",
        "seat": 0,
        "players": 2,
        "game": 0,
        "hand": ["5S", "9S", "4C", "8D", "TC", "6S", "KD"],
        "top": "6H",
        "ruleset": engine.PRESETS["korean"].to_dict(),
    }
    turn = {
        "type": "turn",
        "seat": 0,
        "turn": 2,
        "hand": ["9S", "4C", "8D", "TC", "6S", "KD"],
        "top": "5S",
        "suit": None,
        "attack": None,
        "direction": 1,
        "hands": [6, 8],
        "draw_pile": 38,
        "discard_pile": 2,
        "legal": ["9S", "6S"],
        "events": [
            {"seat": 0, "kind": "play", "card": "5S"},
            {"seat": 1, "kind": "draw", "count": 1},
        ],
    }
    player = SearchPlayer(seed=1)
    player.observe(start)
    player.observe(turn)
    assert player.beliefs is not None
    playable = {
        code for code in CODES if code[-1] == "S" or code[0] in "57" or code in ("BJ", "CJ")
    }
    for seed in range(30):
        state = player.beliefs.deal(turn, random.Random(seed))
        held = [CODES[c] for c in state.hands[1]]
        assert len(held) == 8
        # Seven of the eight were held when it drew instead of playing on 5S; the
        # card drawn may be anything.
        assert sum(code in playable for code in held) <= 1, held
        assert state.discard == [CARD_OF["6H"], CARD_OF["5S"]]


def test_finnish_offers_plays_of_several_cards():
    rules = engine.PRESETS["finnish"]
    state = GameState.new(2, rules, seed=1)
    state.hands[0] = [CARD_OF[c] for c in ("5D", "5S", "5C", "9H", "KD", "TC", "4S")]
    state.discard = [CARD_OF["5H"]]
    moves = search_bot._moves(state)
    multiples = [m for m in moves if isinstance(m, tuple)]
    # Any of the three fives first, then either other five, or both in either order.
    assert len(multiples) == 3 * (2 + 2)
    for cards, _suit, _call in multiples:
        trial = state.clone()
        trial.play_cards(cards)
        assert trial.discard[-1] == cards[-1]


def test_it_runs_as_a_process_next_to_the_engine(tmp_path):
    start = {
        "type": "start",
        "seat": 0,
        "players": 2,
        "game": 0,
        "hand": ["5H", "AS", "7C", "QD", "3S", "9H", "BJ"],
        "top": "6H",
        "ruleset": engine.PRESETS["korean"].to_dict(),
        "time_ms": 5000,
        "bank_ms": 10000,
    }
    turn = {
        **GameState.new(2, seed=1).observation(0),
        "hand": start["hand"],
        "top": "6H",
        "legal": ["5H", "7C", "9H", "BJ"],
        "time_ms": 200,
        "bank_ms": 10000,
    }
    # As the starter kit unpacks it: the bot file one folder below the engine,
    # started from anywhere with nothing on the path but the standard library.
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(REPO / "bots_examples" / "search_bot.py")],
        input=f"{json.dumps(start)}\n{json.dumps(turn)}\n",
        cwd=tmp_path,
        env={},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    start_reply, turn_reply = (json.loads(line) for line in done.stdout.splitlines())
    assert start_reply == {}
    assert turn_reply["action"] == "draw" or turn_reply["card"] in turn["legal"]


def swapped_hidden_cards(log: dict[str, Any], seat: int) -> dict[str, Any]:
    """The log with two cards ``seat`` never saw swapped everywhere (deck, draws,
    reshuffles, the final hands): the same game for that seat, other hands for
    the rest."""
    seen: set[str] = set()
    for exchange in engine.seat_messages(log, seat):
        message = exchange.message
        if message["type"] in ("turn", "catch"):
            seen |= {*message["hand"], message["top"]}
            for event in message["events"]:
                seen |= set(event.get("cards", [])) | {event.get("card")}
    unseen = [code for code in CODES if code not in seen]
    # One of them held by another seat at the end, so that the hands differ.
    held = {code: s for s, hand in enumerate(log["result"]["hands"]) for code in hand}
    x = next(code for code in unseen if code in held)
    y = next(code for code in unseen if held.get(code) != held[x])
    text = json.dumps(log)
    text = text.replace(f'"{x}"', '"@@"').replace(f'"{y}"', f'"{x}"').replace('"@@"', f'"{y}"')
    return json.loads(text)


def seat_analyses(
    log: dict[str, Any], *, seat: int, iterations: int, method: type[SearchPlayer] = SearchPlayer
) -> list[list[ActionValue]]:
    """What a search fed ``seat``'s messages, and nothing else, makes of each of
    its decisions."""
    player = method(seed=0, iterations=iterations)
    analyses = []
    for exchange in engine.seat_messages(log, seat):
        player.observe(exchange.message)
        if exchange.message["type"] in ("turn", "catch") and exchange.reply is not None:
            analyses.append(player.analyse(exchange.message))
    return analyses


@METHODS
def test_a_games_analysis_uses_only_what_the_seat_saw(method):
    bots = [heuristic_bot.make_bot(s) for s in range(3)]
    log = engine.play_game(bots, seed=8)
    other = swapped_hidden_cards(log, seat=0)
    assert other["deck"] != log["deck"]
    assert other["result"]["hands"] != log["result"]["hands"]
    first = seat_analyses(log, seat=0, iterations=40, method=method)
    assert seat_analyses(other, seat=0, iterations=40, method=method) == first
    # The swap is real: some other seat was told of other cards.
    assert any(
        [x.message for x in engine.seat_messages(other, seat)]
        != [x.message for x in engine.seat_messages(log, seat)]
        for seat in (1, 2)
    )


def test_ismcts_follows_only_moves_legal_in_the_deal_and_counts_their_availability():
    edges: dict[Any, search_ismcts._Edge] = {}
    # Every legal move is tried once before any is tried again, in order.
    for expected in (1, 2):
        move, edge, new = search_ismcts._select(edges, [1, 2])
        assert (move, new) == (expected, True)
        edge.visits, edge.wins = 1, expected - 1
    # A move known from other deals, where it looked the best, but not legal in
    # this one is neither followed nor counted as available.
    edges[3] = search_ismcts._Edge()
    edges[3].visits = edges[3].wins = 1
    edges[3].available = 50
    for _ in range(200):
        move, edge, new = search_ismcts._select(edges, [1, 2])
        assert move in (1, 2)
        assert not new
        edge.visits += 1
        edge.wins += move == 2
    assert edges[3].available == 50
    assert edges[1].available == edges[2].available == 202
    # UCB1 on the availability: the winning move most, the other still tried.
    assert edges[2].visits > edges[1].visits > 1


def test_ismcts_searches_a_tree_of_the_seats_own_decisions(monkeypatch):
    messages = seat_messages(seed=2, players=2)
    player = IsmctsPlayer(seed=1, iterations=300)
    calls: list[tuple[list[Any], bool]] = []
    select = search_ismcts._select

    def recorded(edges: Any, legal: list[Any]) -> Any:
        move, edge, new = select(edges, legal)
        calls.append((legal, new))
        return move, edge, new

    monkeypatch.setattr(search_ismcts, "_select", recorded)
    for message in messages:
        player.observe(message)
        if message["type"] == "turn" and len(message["legal"]) > 1:
            break
    values = player.analyse(message)
    assert sum(v.visits for v in values) == 300
    root = {repr(v.reply) for v in values}
    # Each iteration adds one move to the tree: the root's moves once each, then
    # moves of the seat's later decisions, where its hand and the table differ.
    assert sum(new for _, new in calls) > 250  # the others end the game on the way
    assert len(calls) > 2 * 300
    deeper = [legal for legal, _ in calls[len(root) :] if len(legal) != len(root)]
    assert deeper


class _NoNoise(random.Random):
    """A generator whose every float is 0: the playout policy without its noise."""

    def random(self) -> float:
        return 0.0


def _policy_reply(
    message: dict[str, Any], rng: random.Random
) -> tuple[str, str | None, str | None]:
    """The playout policy's choice in the turn a message describes."""
    rules = engine.Ruleset.from_value(message["ruleset"])
    state = engine.sample_state(message, rules, seed=0)
    action = search_bot.policy_action(state, rng, search_bot._worths(rules))
    if action == DRAW:
        return ("draw", None, None)
    suit = (action >> SUIT_SHIFT & 7) - 1
    return ("play", CODES[action & CARD_MASK], SUITS[suit] if suit >= 0 else None)


@pytest.mark.parametrize("noise", [False, True], ids=["exact", "noisy"])
def test_without_noise_the_playout_policy_plays_as_the_heuristic_bot(noise):
    # The playouts' opponent model, and what the beliefs read the others' plays
    # by: the heuristic bot's own choices, card for card and suit for suit. With
    # noise (a positive control) near ties go either way.
    differ = checked = 0
    for players in (2, 3, 4):
        for seed in range(1, 13):
            messages = seat_messages(seed, players=players)
            bot = heuristic_bot.make_bot(0)
            for message in messages:
                reply = bot(message)
                if message["type"] != "turn" or not message["legal"]:
                    continue
                turn = {**message, "ruleset": messages[0]["ruleset"]}
                rng = random.Random(message["turn"]) if noise else _NoNoise()
                action, card, suit = _policy_reply(turn, rng)
                named = suit if card and engine.bot.role(card) == "wild" else None
                expected_suit = reply.get("suit") if named else None
                differ += (action, card, named) != (
                    reply["action"],
                    reply.get("card"),
                    expected_suit,
                )
                checked += 1
    assert checked > 300
    assert (differ > 0) if noise else (differ == 0), (differ, checked)


def _turn_with_candidates(least: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Seat 0's messages up to the first turn with at least ``least`` replies."""
    for seed in range(1, 50):
        messages = seat_messages(seed, players=2)
        for index, message in enumerate(messages):
            if message["type"] == "turn" and len(message["legal"]) >= least:
                return messages[: index + 1], message
    raise AssertionError("no such turn")


def test_halving_gives_the_close_contenders_most_of_the_playouts():
    messages, turn = _turn_with_candidates(5)
    values = {}
    for halving in (True, False):
        player = SearchPlayer(seed=1, iterations=400, halving=halving)
        for message in messages:
            player.observe(message)
        values[halving] = player.analyse(turn)
    halved, even = values[True], values[False]
    count = len(halved)
    assert count >= 6  # the draw besides the plays, a wild card once per suit
    rounds = (count - 1).bit_length()
    assert sum(v.visits for v in halved) == sum(v.visits for v in even) == 400
    # Even: one round, as many playouts each (one more for the first few).
    assert {v.rounds for v in even} == {1}
    assert max(v.visits for v in even) - min(v.visits for v in even) <= 1
    # Halved: two moves play every round, best first, on more playouts than even.
    assert [v.rounds for v in halved[:2]] == [rounds, rounds]
    assert all(v.rounds < rounds for v in halved[2:])
    assert halved[0].win >= halved[1].win
    assert min(v.visits for v in halved[:2]) > 2 * max(v.visits for v in even)
    assert [v.rounds for v in halved] == sorted((v.rounds for v in halved), reverse=True)


def _excluded_after_a_play(*, held: int) -> set[str]:
    """The cards every slot of seat 1 excludes once it has played 5H on 6H, at two
    seats, seat 0 holding ``held`` cards then."""
    beliefs = search_bot._Beliefs(
        {
            "type": "start",
            "seat": 0,
            "players": 2,
            "game": 0,
            "hand": ["9S", "4C", "8D", "TC", "6S", "KD", "3C"],
            "top": "6H",
            "ruleset": engine.PRESETS["korean"].to_dict(),
        }
    )
    beliefs.held = held  # as if seat 0 had played down to it
    beliefs.see([{"seat": 1, "kind": "play", "card": "5H"}])
    slots = beliefs.slots[1]
    assert len(slots) == 6
    return {code for card, code in enumerate(CODES) if all(slot >> card & 1 for slot in slots)}


def test_a_player_that_played_is_dealt_no_card_it_would_rather_have_played():
    # With two players a king, a queen or a jack gives another turn: the heuristic
    # bot plays a playable one before a plain five, whatever its suits. An attack
    # card it keeps while the next player holds many cards...
    assert _excluded_after_a_play(held=7) == {"KH", "QH", "JH"}
    # ...and presses on one about to finish; a joker too.
    assert _excluded_after_a_play(held=2) == {"KH", "QH", "JH", "2H", "AH", "BJ", "CJ"}


def test_an_answer_to_an_attack_says_no_cheaper_one_was_held():
    beliefs = search_bot._Beliefs(
        {
            "type": "start",
            "seat": 0,
            "players": 2,
            "game": 0,
            "hand": ["9S", "4C", "8D", "TC", "6S", "KD", "3C"],
            "top": "6H",
            "ruleset": engine.PRESETS["korean"].to_dict(),
        }
    )
    beliefs.see(
        [{"seat": 0, "kind": "play", "card": "2H"}, {"seat": 1, "kind": "play", "card": "AH"}]
    )
    # It answered a 2 with an ace, so it held no 2 (the cheapest counter).
    twos = {"2S", "2H", "2D", "2C"}
    excluded = {
        code for c, code in enumerate(CODES) if all(slot >> c & 1 for slot in beliefs.slots[1])
    }
    assert excluded == twos
    beliefs.see(
        [{"seat": 0, "kind": "play", "card": "AS"}, {"seat": 1, "kind": "shield", "card": "3S"}]
    )
    # A shield against the ace of spades (5): no counter of 5 or more either (the
    # ace of spades itself among them, which is on the pile anyway).
    excluded = {
        code for c, code in enumerate(CODES) if all(slot >> c & 1 for slot in beliefs.slots[1])
    }
    assert excluded == twos | {"AS", "BJ", "CJ"}


def _fits(slots: list[int], hand: list[int]) -> bool:
    """Whether every card of ``hand`` can go to its own slot, none to a slot that
    excludes it (a bipartite matching)."""
    card_in: dict[int, int] = {}  # slot -> card

    def place(card: int, tried: set[int]) -> bool:
        for slot, mask in enumerate(slots):
            if not mask >> card & 1 and slot not in tried:
                tried.add(slot)
                if slot not in card_in or place(card_in[slot], tried):
                    card_in[slot] = card
                    return True
        return False

    return len(slots) == len(hand) and all(place(card, set()) for card in hand)


class _BeliefsChecker:
    """Seat 0, a heuristic bot whose messages also feed a search bot's beliefs;
    at each decision those beliefs are checked against the true hands. A check
    that fails is kept in ``wrong``: an exception in a bot is only its fault."""

    def __init__(self, truth: Any) -> None:
        self.truth = truth  # the benchmark's Mirror: the true game from the events
        self.bot = heuristic_bot.make_bot(0)
        self.beliefs: search_bot._Beliefs | None = None
        self.checked = self.constrained = 0
        self.wrong: list[tuple[int, int]] = []  # (turn, seat) where a hand does not fit

    def __call__(self, message: dict[str, Any]) -> Any:
        if message["type"] == "start":
            self.beliefs = search_bot._Beliefs(message)
        elif message["type"] in ("turn", "catch"):
            assert self.beliefs is not None
            events = message.get("events") or []
            self.beliefs.see(events)
            self.beliefs.sync(message)
            self.truth.follow(events)
            for seat in range(1, self.beliefs.players):
                slots = self.beliefs.slots[seat]
                if not _fits(slots, self.truth.state.hands[seat]):
                    self.wrong.append((message["turn"], seat))
                self.checked += 1
                self.constrained += any(slots)
        return self.bot(message)


def test_against_heuristic_bots_the_beliefs_always_admit_the_true_hands():
    # The draws and plays are read as the heuristic bot makes them, so against it
    # every inference holds: the true hand always fits the slots, card to slot.
    checked = constrained = 0
    with benchmark_script("search_strength") as benchmark:
        for players in (2, 3, 4):
            for seed in range(1, 61):
                deck = [CODES[c] for c in engine.state.deck_order(None, seed)]
                seat0 = _BeliefsChecker(
                    benchmark.Mirror(players, engine.PRESETS["korean"], deck, seed)
                )
                bots = [seat0, *(heuristic_bot.make_bot(s) for s in range(1, players))]
                log = engine.play_game(bots, seed=seed, deck=deck)
                assert log["result"]["faults"] == [], (players, seed)
                assert seat0.wrong == [], (players, seed)
                checked += seat0.checked
                constrained += seat0.constrained
    assert checked > 4000
    assert constrained > checked / 2
