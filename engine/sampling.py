"""A full game state consistent with one seat's view, for bots that search.

A bot sees its own hand, the table and how many cards everyone holds, never the
others' cards or the pile order. ``sample_state`` deals the unseen cards at random
into the other hands, the draw pile and the discard pile beneath its top, so a bot
can simulate on the sample (and on several samples, to average over what it
cannot know).

>>> from engine.state import GameState
>>> real = GameState.new(3, seed=4)
>>> guess = sample_state(real.observation(0), seed=1)
>>> guess.hands[0] == real.hands[0], [len(h) for h in guess.hands]
(True, [5, 5, 5])
>>> sorted(guess.legal_actions()) == sorted(real.legal_actions())
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import CARD_OF, DECK_SIZE, SUIT_INDEX
from engine.ruleset import Ruleset
from engine.state import PHASE_TURN, GameState
from engine.tables import tables_for


def sample_state(
    observation: dict[str, Any],
    ruleset: Ruleset | str | dict[str, Any] | None = None,
    *,
    seed: int = 0,
    discard: Sequence[str] = (),
) -> GameState:
    """A state where it is ``observation["seat"]``'s turn, matching everything that
    seat sees (a ``turn`` message or ``GameState.observation``).

    ``discard`` lists cards the bot knows are in the discard pile beneath the top
    (it saw them played); they stay there instead of being dealt at random.
    Pending extra turns (``again``) and uncalled One Cards are not visible, so the
    sample has none. Raises ValueError when the counts do not add up.
    """
    seat = observation["seat"]
    counts = observation["hands"]
    own = [CARD_OF[code] for code in observation["hand"]]
    top = CARD_OF[observation["top"]]
    buried = [CARD_OF[code] for code in discard]
    seen = {*own, top, *buried}
    if len(seen) != len(own) + 1 + len(buried):
        raise ValueError("a card is named twice in the hand, top and discard")
    unseen = [c for c in range(DECK_SIZE) if c not in seen]
    rng = random.Random(seed)
    rng.shuffle(unseen)
    beneath = observation["discard_pile"] - 1 - len(buried)
    others = sum(n for s, n in enumerate(counts) if n is not None and s != seat)
    if beneath < 0 or others + beneath + observation["draw_pile"] != len(unseen):
        raise ValueError("the observation's counts do not add up to 54 cards")

    state = GameState.__new__(GameState)
    rules = Ruleset.from_value(ruleset)
    state.rules = rules
    state.t = tables_for(rules)
    state.n = len(counts)
    state.hands = []
    for s, count in enumerate(counts):
        if s == seat:
            state.hands.append(own)
        else:
            state.hands.append(unseen[:count] if count else [])
            del unseen[: count or 0]
    # Top card last; the known discards anywhere beneath it.
    state.discard = [*buried, *unseen[:beneath], top]
    del unseen[:beneath]
    state.draw = unseen
    state.suit = SUIT_INDEX[observation["suit"]] if observation["suit"] else -1
    attack = observation["attack"]
    state.atk_total = attack["total"] if attack else 0
    state.atk_last = attack["last"] if attack else 0
    state.direction = observation["direction"]
    state.to_act = seat
    state.turn = observation["turn"]
    state.alive = [count is not None for count in counts]
    state.n_alive = sum(state.alive)
    state.phase = PHASE_TURN
    state.lapse = -1
    state.offers = []
    state.extra = 0
    state.winner = -1
    state.adjudicated = False
    state.faults = []  # who faulted, and in which order, is not in the view
    state.rng_state = rng.getrandbits(63)
    state.orders = None
    state.events = None
    return state
