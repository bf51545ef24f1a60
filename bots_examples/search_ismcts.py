"""The search bot with an information-set tree instead of flat playouts:
single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) over the same
beliefs, deals, playout policy and clock as ``search_bot.SearchPlayer``.

Each iteration deals one state from the beliefs, descends a tree of this seat's
information sets choosing by UCB1 among the moves legal in that deal (each move's
exploration term counts the visits in which it was available), adds one move to
the tree, plays the rest of the game out with the playout policy and counts the
win on every move it passed through.

Only this seat's decisions are in the tree. The opponents' moves, the cards drawn
and the catches are played by the playout policy, inside the tree as in the
playouts: a node is the seat's next decision as it would see it (its hand, the
table, every hand's size), reached through whatever the others did. A tree node
for an opponent chosen by UCB1 on the dealt state would let that opponent see the
searching seat's hand and every other, and play as no real opponent can; a tree
of its own for each opponent (multiple-observer ISMCTS) would need that
opponent's beliefs, and at a tenth of a second a move its trees would stay a few
nodes deep. The policy is the opponent model the flat search uses too, so the two
methods differ only in how they spend their playouts.

>>> from bots_examples.search_ismcts import IsmctsPlayer
>>> bot = IsmctsPlayer(seed=1, iterations=50)
>>> bot({"type": "start", "seat": 0, "players": 2, "hand": ["5H", "9S"], "top": "6H",
...      "ruleset": {"name": "korean"}, "game": 0})
{}
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bots_examples.search_bot import (
    PLAYOUT_TURNS,
    ActionValue,
    Move,
    SearchPlayer,
    Worths,
    _apply,
    _Beliefs,
    _fewest,
    _moves,
    playout,
    policy_action,
)
from engine.state import PHASE_CATCH, PHASE_OVER, GameState
from engine.tables import CATCH

# UCB1's exploration weight for win rates in [0, 1].
EXPLORATION = 0.7

# What the seat sees at its turn: its hand, the top card, the declared suit, the
# attack pending, the direction, and every hand's size.
Key = tuple[object, ...]


class _Edge:
    """One move from an information set: its wins and visits, how many visits to
    the set found it legal, and the sets it has led to."""

    __slots__ = ("available", "children", "visits", "wins")

    def __init__(self) -> None:
        self.wins = 0
        self.visits = 0
        self.available = 0
        self.children: dict[Key, dict[Move, _Edge]] = {}


def _key(state: GameState, seat: int) -> Key:
    return (
        tuple(sorted(state.hands[seat])),
        state.discard[-1],
        state.suit,
        state.atk_total,
        state.atk_last,
        state.direction,
        tuple(len(hand) for hand in state.hands),
    )


def _advance(state: GameState, seat: int, rng: random.Random, worths: Worths, limit: int) -> bool:
    """Play the others, and this seat's catches, by the playout policy until this
    seat's next turn; False if the game ends (or reaches ``limit``) first."""
    while state.phase != PHASE_OVER:
        if state.phase == PHASE_CATCH:
            state.apply(CATCH)
        elif state.turn >= limit:
            return False
        elif state.to_act == seat:
            return True
        else:
            state.apply(policy_action(state, rng, worths))
    return False


def _select(edges: dict[Move, _Edge], legal: list[Move]) -> tuple[Move, _Edge, bool]:
    """The move to follow among ``legal``: the first not yet tried, else UCB1 with
    each move's availability in place of its parent's visits; and whether it is new."""
    for move in legal:
        edge = edges.get(move)
        if edge is None:
            edge = edges[move] = _Edge()
        edge.available += 1
    best: Move = legal[0]
    best_score = -1.0
    for move in legal:
        edge = edges[move]
        if not edge.visits:
            return move, edge, True
        score = edge.wins / edge.visits + EXPLORATION * math.sqrt(
            math.log(edge.available) / edge.visits
        )
        if score > best_score:
            best, best_score = move, score
    return best, edges[best], False


class IsmctsPlayer(SearchPlayer):
    """``SearchPlayer`` searching an information-set tree (see the module's
    docstring); the same options, messages and analysis, best first by visits."""

    def _search(
        self,
        moves: list[Move],
        deal: Callable[[random.Random], GameState],
        rng: random.Random,
        *,
        beliefs: _Beliefs,
        iterations: int,
        deadline: float | None,
    ) -> tuple[list[int], list[int], list[int]]:
        seat = beliefs.seat
        worths = beliefs.worths
        root: dict[Move, _Edge] = {}
        clock = self.clock
        path: list[_Edge] = []
        for done in range(iterations):
            if deadline is not None and done % 4 == 0 and clock() >= deadline:
                break
            state = deal(rng)
            policy_rng = random.Random(rng.getrandbits(64))
            limit = state.turn + PLAYOUT_TURNS
            edges, legal = root, moves
            path.clear()
            winner = -1
            while True:
                move, edge, new = _select(edges, legal)
                path.append(edge)
                _apply(state, move)
                if new:
                    break
                if not _advance(state, seat, policy_rng, worths, limit):
                    winner = state.winner if state.phase == PHASE_OVER else _fewest(state)
                    break
                key = _key(state, seat)
                child = edge.children.get(key)
                if child is None:
                    child = edge.children[key] = {}
                edges, legal = child, _moves(state)
            if winner < 0:
                winner = playout(state, policy_rng, worths)
            won = winner == seat
            for edge in path:
                edge.visits += 1
                edge.wins += won
        visited = [root.get(move) for move in moves]
        return (
            [edge.wins if edge else 0 for edge in visited],
            [edge.visits if edge else 0 for edge in visited],
            [1] * len(moves),  # one round: every move stays in the running
        )

    @staticmethod
    def _rank(value: ActionValue) -> tuple[float, float, float]:
        """Best first: the most visited (UCB1 follows the best so far, and a move
        tried a few times can be lucky), then the highest win rate."""
        return (-value.visits, -value.win, 0.0)


def make_bot(seed: int | None = None) -> IsmctsPlayer:
    return IsmctsPlayer(seed=seed)
