"""The mutable state of one game and the rules that move it (RULES.md).

A state knows nothing of bots or messages: it lists legal actions, applies one,
and describes any seat's view. ``play_game`` drives it with bots, ``replay``
with a log, and a search bot with its own simulations.

>>> state = GameState.new(2, seed=7)
>>> state.to_act, len(state.hands[0]), len(state.hands[1])
(0, 7, 7)
>>> state.apply(state.legal_actions()[-1])  # the last action is always DRAW
>>> state.turn, len(state.hands[0])
(1, 8)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import CARD_OF, CODES, DECK_SIZE, IS_JOKER, RANK_OF, SUITS, codes
from engine.errors import IllegalAction
from engine.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from engine.tables import (
    AGAIN,
    CALL,
    CARD_MASK,
    CATCH,
    DRAW,
    PASS,
    REVERSE,
    SHIELD,
    SKIP,
    SUIT_SHIFT,
    WILD,
    Tables,
    tables_for,
)

PHASE_TURN = 0  # ``to_act`` plays or draws
PHASE_CATCH = 1  # ``offers[0]`` may catch ``lapse``, who did not call One Card
PHASE_OVER = 2

Event = dict[str, Any]


# Reshuffles draw from a 64-bit linear congruential generator whose whole state is
# one int: a clone copies it for nothing, and a reshuffle needs no generator set up
# (seeding a random.Random for each one cost more than the shuffle itself).
_LCG_MULTIPLIER = 6364136223846793005
_LCG_INCREMENT = 1442695040888963407
_MASK64 = (1 << 64) - 1


def lcg_shuffle(cards: list[int], state: int) -> int:
    """Shuffle ``cards`` in place (Fisher-Yates) from the generator state ``state``;
    the state after. An index is the high half of a step scaled to the range.

    >>> pile = list(range(6))
    >>> after = lcg_shuffle(pile, 7)
    >>> sorted(pile) == list(range(6)), lcg_shuffle(list(range(6)), 7) == after
    (True, True)
    """
    x = state & _MASK64
    for i in range(len(cards) - 1, 0, -1):
        x = (x * _LCG_MULTIPLIER + _LCG_INCREMENT) & _MASK64
        j = ((x >> 32) * (i + 1)) >> 32
        cards[i], cards[j] = cards[j], cards[i]
    return x


def hand_size(players: int) -> int:
    return 7 if players == 2 else 5


def deck_order(deck: Sequence[str] | None, seed: int) -> list[int]:
    """The deck as card ints, index 0 = top: the given codes, or shuffled from ``seed``."""
    if deck is None:
        cards = list(range(DECK_SIZE))
        random.Random(seed).shuffle(cards)
        return cards
    if isinstance(deck, str | bytes) or len(deck) != DECK_SIZE:
        raise ValueError("a deck is a list of the 54 card codes")
    try:
        cards = [CARD_OF[code] for code in deck]
    except (KeyError, TypeError):
        raise ValueError("a deck holds only card codes such as 'AS', 'TD', 'BJ'") from None
    if len(set(cards)) != DECK_SIZE:
        raise ValueError("a deck holds each of the 54 codes exactly once")
    return cards


class GameState:
    """One game in progress. Cards are ints (``engine.cards``), actions are ints
    (``engine.tables``: a card with suit and call bits, or DRAW, CATCH, PASS).

    ``events`` is None unless someone wants the log: search clones skip the cost.
    """

    __slots__ = (
        "adjudicated",
        "alive",
        "atk_last",
        "atk_total",
        "direction",
        "discard",
        "draw",
        "events",
        "extra",
        "faults",
        "hands",
        "lapse",
        "n",
        "n_alive",
        "offers",
        "orders",
        "phase",
        "rng_state",
        "rules",
        "suit",
        "t",
        "to_act",
        "turn",
        "winner",
    )

    rules: Ruleset
    t: Tables
    n: int
    hands: list[list[int]]
    draw: list[int]  # top of the draw pile at the END (pop() draws)
    discard: list[int]  # top card at the end
    suit: int  # declared suit 0..3, or -1
    atk_total: int
    atk_last: int
    direction: int
    to_act: int
    turn: int
    alive: list[bool]
    n_alive: int
    phase: int
    lapse: int  # the seat holding one uncalled card, or -1
    offers: list[int]  # seats still to be offered the catch, current first
    extra: int  # extra turns still owed to ``to_act`` (the ``again`` role)
    winner: int
    adjudicated: bool
    faults: list[tuple[int, str]]
    rng_state: int
    orders: list[list[int]] | None  # reshuffle orders given by a replayed log
    events: list[Event] | None

    @classmethod
    def new(
        cls,
        players: int,
        ruleset: Ruleset | str | dict[str, Any] | None = None,
        *,
        deck: Sequence[str] | None = None,
        seed: int = 0,
        record: bool = False,
    ) -> GameState:
        """Deal a new game: ``deck`` (codes, top first) or a deck shuffled from ``seed``.

        ``seed`` also drives every reshuffle; ``record`` keeps the omniscient event log.
        """
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"One-card is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
        rules = Ruleset.from_value(ruleset)
        order = deck_order(deck, seed)
        self = cls.__new__(cls)
        self.rules = rules
        self.t = tables_for(rules)
        self.n = players
        self.hands = [[] for _ in range(players)]
        self.draw = order[::-1]
        self.suit = -1
        self.atk_total = self.atk_last = 0
        self.direction = rules.start_direction
        self.to_act = 0
        self.turn = 0
        self.alive = [True] * players
        self.n_alive = players
        self.phase = PHASE_TURN
        self.lapse = -1
        self.offers = []
        self.extra = 0
        self.winner = -1
        self.adjudicated = False
        self.faults = []
        # Reshuffles draw from their own generator so that a given deck still
        # reshuffles the same way for the same seed.
        self.rng_state = random.Random(seed).getrandbits(63) ^ 0x5EED
        self.orders = None
        self.events = [] if record else None
        self._deal()
        return self

    def _deal(self) -> None:
        draw = self.draw
        for _ in range(hand_size(self.n)):
            for hand in self.hands:
                hand.append(draw.pop())
        # Bury special lead cards under the pile until a plain card leads; after a
        # whole pass without one, the card turned last leads (RULES.md, Setup).
        plain = self.t.plain
        passes = len(draw)
        for i in range(passes):
            card = draw.pop()
            if plain[card] or i == passes - 1:
                self.discard = [card]
                return
            draw.insert(0, card)

    def clone(self) -> GameState:
        """An independent copy for simulation (without the event log)."""
        other = GameState.__new__(GameState)
        other.rules = self.rules
        other.t = self.t
        other.n = self.n
        other.hands = [h[:] for h in self.hands]
        other.draw = self.draw[:]
        other.discard = self.discard[:]
        other.suit = self.suit
        other.atk_total = self.atk_total
        other.atk_last = self.atk_last
        other.direction = self.direction
        other.to_act = self.to_act
        other.turn = self.turn
        other.alive = self.alive[:]
        other.n_alive = self.n_alive
        other.phase = self.phase
        other.lapse = self.lapse
        other.offers = self.offers[:]
        other.extra = self.extra
        other.winner = self.winner
        other.adjudicated = self.adjudicated
        other.faults = self.faults[:]
        other.rng_state = self.rng_state
        other.orders = None
        other.events = None
        return other

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def deciding(self) -> int:
        """The seat whose decision is awaited (the catch offeree in a window), or -1."""
        if self.phase == PHASE_TURN:
            return self.to_act
        if self.phase == PHASE_CATCH:
            return self.offers[0]
        return -1

    def _legal_table(self) -> tuple[bool, ...]:
        if self.atk_total:
            return self.t.counters(self.atk_last)
        if self.suit >= 0:
            return self.t.play_ok[DECK_SIZE + self.suit]
        return self.t.play_ok[self.discard[-1]]

    def legal_cards(self) -> list[int]:
        """The cards ``to_act`` may play now, in hand order (the ``legal`` of a turn)."""
        if self.phase != PHASE_TURN:
            return []
        hand = self.hands[self.to_act]
        # _legal_table, inlined: this and legal_actions are a playout's hottest calls.
        if self.atk_total:
            ok = self.t.counters(self.atk_last)
        else:
            ok = self.t.play_ok[DECK_SIZE + self.suit if self.suit >= 0 else self.discard[-1]]
        if len(hand) == 1:
            card = hand[0]
            return [card] if ok[card] and not IS_JOKER[card] else []
        return [c for c in hand if ok[c]]

    def legal_actions(self) -> list[int]:
        """Every legal action; a play that leaves one card always calls One Card
        (not calling can only be caught), and DRAW is last."""
        phase = self.phase
        if phase != PHASE_TURN:
            return [CATCH, PASS] if phase == PHASE_CATCH else []
        hand = self.hands[self.to_act]
        if self.atk_total:
            ok = self.t.counters(self.atk_last)
        else:
            ok = self.t.play_ok[DECK_SIZE + self.suit if self.suit >= 0 else self.discard[-1]]
        if len(hand) == 1:
            card = hand[0]
            # The last card: a wild card names no suit, a joker may not go out.
            return [card, DRAW] if ok[card] and not IS_JOKER[card] else [DRAW]
        acts = self.t.acts_call if len(hand) == 2 else self.t.acts
        # A loop, not a comprehension: Python 3.11 runs a comprehension in a
        # frame of its own. A random decision (benchmarks/engine_speed.py) took
        # 1.78 µs with the loop, 2.02 with the comprehension; OpenSpiel's 1.84.
        out: list[int] = []
        for c in hand:
            if ok[c]:
                out += acts[c]
        out.append(DRAW)
        return out

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction, among
        the seats still in the game."""
        n = self.n
        if self.n_alive == n:
            return (seat + self.direction * steps) % n
        alive = self.alive
        d = self.direction
        while steps:
            seat = (seat + d) % n
            if alive[seat]:
                steps -= 1
        return seat

    # ----------------------------------------------------------------- actions

    def apply(self, action: int) -> None:
        """Apply one action of the seat whose decision is awaited (``deciding``)."""
        phase = self.phase
        if phase == PHASE_CATCH:
            self._answer_catch(action)
            return
        if phase == PHASE_OVER:
            raise IllegalAction("the game is over")
        card = action & CARD_MASK
        if card == DRAW:
            if action != DRAW:
                raise IllegalAction(f"malformed action {action}")
            self._draw_turn(self.to_act)
        elif card < DECK_SIZE:
            self._play(self.to_act, (card,), (action >> SUIT_SHIFT & 7) - 1, bool(action & CALL))
        else:
            raise IllegalAction(f"action {action} is not legal in a turn")

    def play_cards(self, cards: Sequence[int], suit: int = -1, call: bool = False) -> None:
        """Play several cards of one rank at once (the ``multi_play`` variant);
        with one card this is the same as ``apply``."""
        if self.phase != PHASE_TURN:
            raise IllegalAction("no turn is being played")
        if len(cards) > 1 and not self.rules.multi_play:
            raise IllegalAction("this ruleset plays one card at a time")
        if not cards or any(type(c) is not int or not 0 <= c < DECK_SIZE for c in cards):
            raise IllegalAction("a play is of one or more cards")
        self._play(self.to_act, tuple(cards), suit, call)

    def _play(self, seat: int, cards: tuple[int, ...], suit: int, call: bool) -> None:
        hand = self.hands[seat]
        first = cards[0]
        last = cards[-1]
        if not self._legal_table()[first] or first not in hand:
            raise IllegalAction(f"{CODES[first]} cannot be played now")
        count = len(cards)
        if count > 1:
            rank = RANK_OF[first]
            if IS_JOKER[first] or len(set(cards)) != count:
                raise IllegalAction("a multiple play is of distinct cards of one rank")
            for c in cards[1:]:
                if c not in hand or RANK_OF[c] != rank:
                    raise IllegalAction("a multiple play is of cards of one rank from the hand")
        # Cards of one rank share a role.
        role = self.t.role[first]
        left = len(hand) - count
        if left == 0 and IS_JOKER[last]:
            raise IllegalAction("a joker cannot be the last card")
        if role == WILD and left and not 0 <= suit <= 3:
            raise IllegalAction("a wild card must name a suit")
        if count == 1:
            hand.remove(first)
        else:
            for c in cards:
                hand.remove(c)
        self.discard += cards
        attacked = self.atk_total > 0
        events = self.events
        if events is not None:
            kind = "shield" if attacked and role == SHIELD else "play"
            event: Event = {"seat": seat, "kind": kind}
            if count == 1:
                event["card"] = CODES[first]
            else:
                event["cards"] = [CODES[c] for c in cards]
            if role == WILD and left:
                event["suit"] = SUITS[suit]
            events.append(event)
        self.suit = -1
        if left == 1:
            if call:
                self.lapse = -1
                if events is not None:
                    events.append({"seat": seat, "kind": "call"})
            else:
                self.lapse = seat
        elif left == 0:
            self.turn += 1
            self._finish(seat, adjudicated=False)
            return
        attack = self.t.attack
        if attacked:
            if role == SHIELD:
                if self.rules.mirror_three:
                    # The attack goes back the way it came, unchanged.
                    self.direction = -self.direction
                    if events is not None:
                        events.append({"seat": seat, "kind": "reverse"})
                else:
                    self.atk_total = self.atk_last = 0
            else:
                self._add_attack(cards)
            self._end_turn(seat, self.next_seat(seat), keep_extra=False)
            return
        if attack[first]:
            self._add_attack(cards)
            self._end_turn(seat, self.next_seat(seat), keep_extra=False)
        elif role == WILD:
            if left:
                self.suit = suit
            self._end_turn(seat, self.next_seat(seat), keep_extra=True)
        elif role == SKIP:
            self._skip(seat, count)
        elif role == REVERSE:
            if count % 2 == 0:  # pairs of reverses cancel out
                self._end_turn(seat, self.next_seat(seat), keep_extra=False)
            elif self.n_alive == 2:
                self._skip(seat, 1)
            else:
                self.direction = -self.direction
                if events is not None:
                    events.append({"seat": seat, "kind": "reverse"})
                self._end_turn(seat, self.next_seat(seat), keep_extra=False)
        elif role == AGAIN:
            self.extra += count
            self._end_turn(seat, self.next_seat(seat), keep_extra=True)
        else:
            self._end_turn(seat, self.next_seat(seat), keep_extra=True)

    def _add_attack(self, cards: tuple[int, ...]) -> None:
        attack = self.t.attack
        total = self.atk_total
        for c in cards:
            total += attack[c]
        cap = self.rules.max_penalty
        self.atk_total = total if cap is None or total < cap else cap
        self.atk_last = attack[cards[-1]]

    def _skip(self, seat: int, count: int) -> None:
        """Skip ``count`` seats after ``seat`` (a skip card each; a reverse with two
        players)."""
        events = self.events
        skipped = seat
        for _ in range(count):
            skipped = self.next_seat(skipped)
            if events is not None:
                events.append({"seat": skipped, "kind": "skip"})
        self._end_turn(seat, self.next_seat(skipped), keep_extra=False)

    def _draw_turn(self, seat: int) -> None:
        total = self.atk_total
        if total:
            cards = self._draw_cards(seat, total)
            self.atk_total = self.atk_last = 0
            if self.events is not None:
                self.events.append(
                    {"seat": seat, "kind": "take", "count": len(cards), "cards": codes(cards)}
                )
            if self.rules.taker_continues:
                self._end_turn(seat, seat, keep_extra=False)
                return
        else:
            cards = self._draw_cards(seat, 1)
            if self.events is not None:
                self.events.append(
                    {"seat": seat, "kind": "draw", "count": len(cards), "cards": codes(cards)}
                )
        self._end_turn(seat, self.next_seat(seat), keep_extra=True)

    def _draw_cards(self, seat: int, count: int) -> list[int]:
        """Move up to ``count`` cards from the draw pile to the hand, reshuffling the
        discard pile beneath its top card whenever the pile runs out; what cannot be
        drawn from two empty piles is forgiven."""
        hand = self.hands[seat]
        draw = self.draw
        if len(draw) >= count:
            got = draw[-count:]
            del draw[-count:]
            got.reverse()
        else:
            got = []
            for _ in range(count):
                if not draw:
                    if not self._reshuffle():
                        break
                    draw = self.draw
                got.append(draw.pop())
        hand += got
        return got

    def _reshuffle(self) -> bool:
        pile = self.discard[:-1]
        if not pile:
            return False
        del self.discard[:-1]
        if self.orders is not None:
            if not self.orders:
                raise IllegalAction("a reshuffle happens here but the log has none")
            order = self.orders.pop(0)
            if sorted(order) != sorted(pile):
                raise IllegalAction("the reshuffled order is not the discard pile")
            pile = order
        else:
            self.rng_state = lcg_shuffle(pile, self.rng_state)
        self.draw = pile[::-1]
        if self.events is not None:
            self.events.append({"kind": "reshuffle", "count": len(pile), "order": codes(pile)})
        return True

    def _end_turn(self, seat: int, nxt: int, *, keep_extra: bool) -> None:
        """Count the turn, settle extra turns (``again``), then hand play on (maybe
        through a catch window). An attack, skip or reverse ends any remaining
        extra turns."""
        self.turn += 1
        if self.extra:
            if keep_extra:
                self.extra -= 1
                nxt = seat
            else:
                self.extra = 0
        self.to_act = nxt
        if self.turn >= self.rules.turn_limit:
            self._finish(self._adjudicated_winner(), adjudicated=True)
            return
        if nxt != seat and self.lapse >= 0:
            self._open_catch_window(nxt)

    def _open_catch_window(self, nxt: int) -> None:
        target = self.lapse
        self.lapse = -1
        if len(self.hands[target]) != 1 or not self.alive[target]:
            return
        offers = [nxt]
        seat = self.next_seat(nxt)
        while seat != nxt:
            if seat != target:
                offers.append(seat)
            seat = self.next_seat(seat)
        self.offers = offers
        self.lapse = target
        self.phase = PHASE_CATCH

    def _answer_catch(self, action: int) -> None:
        seat = self.offers[0]
        target = self.lapse
        if action == CATCH:
            cards = self._draw_cards(target, 1)
            if self.events is not None:
                self.events.append(
                    {
                        "seat": seat,
                        "kind": "catch",
                        "target": target,
                        "count": len(cards),
                        "cards": codes(cards),
                    }
                )
            self._close_catch_window()
        elif action == PASS:
            if self.events is not None:
                self.events.append({"seat": seat, "kind": "pass", "target": target})
            del self.offers[0]
            if not self.offers:
                self._close_catch_window()
        else:
            raise IllegalAction("a catch offer is answered by CATCH or PASS")

    def _close_catch_window(self) -> None:
        self.offers = []
        self.lapse = -1
        self.phase = PHASE_TURN

    def fault(self, seat: int, reason: str) -> None:
        """Take a faulted seat out of the game (RULES.md, Faults)."""
        if self.phase == PHASE_OVER or not self.alive[seat]:
            raise IllegalAction(f"seat {seat} is not in the game")
        hand = self.hands[seat]
        if self.events is not None:
            self.events.append(
                {"seat": seat, "kind": "fault", "reason": reason, "cards": codes(hand)}
            )
        # Held order, first card first, ends up at the very bottom of the pile.
        self.draw[:0] = hand[::-1]
        hand.clear()
        self.alive[seat] = False
        self.n_alive -= 1
        self.faults.append((seat, reason))
        if seat in self.offers:
            self.offers.remove(seat)
        if self.lapse == seat:
            self._close_catch_window()
        if self.to_act == seat:
            self.atk_total = self.atk_last = 0
            self.extra = 0
            self.to_act = self.next_seat(seat)
        if self.n_alive == 1:
            self._finish(self.alive.index(True), adjudicated=False)
        elif self.phase == PHASE_CATCH and not self.offers:
            self._close_catch_window()

    # ----------------------------------------------------------------- the end

    def _adjudicated_winner(self) -> int:
        """Fewest cards; ties go to the seat that would act soonest."""
        best = seat = self.to_act
        for _ in range(self.n_alive - 1):
            seat = self.next_seat(seat)
            if len(self.hands[seat]) < len(self.hands[best]):
                best = seat
        return best

    def _finish(self, winner: int, *, adjudicated: bool) -> None:
        self.winner = winner
        self.adjudicated = adjudicated
        self.phase = PHASE_OVER
        self.offers = []
        self.lapse = -1

    def ranks(self) -> list[int]:
        """Places: the winner 1, the others by cards left (competition ranking) from
        2, then faulted seats, an earlier fault lower."""
        counts = [len(h) for h in self.hands]
        ranks = [0] * self.n
        others = [s for s in range(self.n) if self.alive[s] and s != self.winner]
        for s in others:
            ranks[s] = 2 + sum(1 for o in others if counts[o] < counts[s])
        if self.winner >= 0:
            ranks[self.winner] = 1
        survivors = self.n_alive
        for order, (seat, _) in enumerate(reversed(self.faults)):
            ranks[seat] = survivors + 1 + order
        return ranks

    def result(self) -> dict[str, Any]:
        """The log's ``result`` (only meaningful once the game is over)."""
        return {
            "winner": self.winner,
            "ranks": self.ranks(),
            "hands": [codes(h) for h in self.hands],
            "adjudicated": self.adjudicated,
            "faults": [{"seat": s, "reason": r} for s, r in self.faults],
        }

    # ----------------------------------------------------------------- views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: the fields of a ``turn`` message (``events`` empty).

        >>> obs = GameState.new(3, seed=1).observation(2)
        >>> obs["hands"], obs["legal"], obs["attack"]
        ([5, 5, 5], [], None)
        """
        mine = seat == self.to_act and self.phase != PHASE_OVER
        return {
            "type": "turn",
            "seat": seat,
            "turn": self.turn,
            "hand": codes(self.hands[seat]),
            "top": CODES[self.discard[-1]],
            "suit": SUITS[self.suit] if self.suit >= 0 else None,
            "attack": (
                {"total": self.atk_total, "last": self.atk_last}
                if mine and self.atk_total
                else None
            ),
            "direction": self.direction,
            "hands": [len(h) if a else None for h, a in zip(self.hands, self.alive, strict=True)],
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "legal": codes(self.legal_cards()) if mine else [],
            "events": [],
        }
