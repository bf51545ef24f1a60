"""A bot that searches: for every move it could make, it plays the rest of the game
out many times on deals consistent with what it has seen, and makes the move that
won most often.

Run it as a process (``python3 search_bot.py``) with the engine beside it: it is in
the starter kit, not a single-file download, because it simulates with the rules
engine (``engine``). In the sandbox the engine is always importable.

How it searches (determinized Monte Carlo, "PIMC"): each deal gives the cards
this seat cannot see at random, but only in ways its observations allow (cards
seen played stay in the discard pile, a player who drew instead of playing is
taken to hold no card that was playable then, and one that played a card none it
would rather have played), then plays every candidate move still in the running
on that deal and the game to its end with a fast playout policy for every seat
(the heuristic bot's judgement as tables), the same playout seed for each move.
After each of a few rounds the better half of the candidates stays in the running
(sequential halving), so that the closest get most of the playouts.
``SearchPlayer.analyse`` returns every candidate with its estimated chance that
this seat wins; with ``iterations`` fixed it is deterministic and uses only the
seat's own messages, so a replay's decisions can be analysed afterwards.

>>> bot = make_bot(1)
>>> bot({"type": "start", "seat": 0, "players": 2, "hand": ["5H", "9S"], "top": "6H",
...      "ruleset": {"name": "korean"}, "game": 0})
{}
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import engine
except ImportError:  # run as a file from the starter kit: the engine is one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import engine

from engine.bot import run
from engine.cards import CARD_OF, CODES, DECK_SIZE, IS_JOKER, RANK_OF, SUIT_INDEX, SUIT_OF, SUITS
from engine.ruleset import Ruleset
from engine.state import PHASE_CATCH, PHASE_OVER, PHASE_TURN, GameState
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
    tables_for,
)

Message = dict[str, Any]
# A candidate move: an engine action int, or (cards, suit, call) for a multiple play.
Move = int | tuple[tuple[int, ...], int, bool]

# Playouts stop here and the fewest cards wins, as at the turn limit; a playout
# this long is a drawing loop, and its end says little about the first move.
PLAYOUT_TURNS = 400
# Of the per-move budget, what is kept back for the reply's own costs.
SAFETY_MS = 5
# Never more iterations than this in one decision, whatever the clock says.
MAX_ITERATIONS = 20_000


@dataclass(frozen=True)
class ActionValue:
    """One candidate reply, its estimated chance that the seat wins the game
    (finishes first) if it makes it, and how many playouts that estimate rests on."""

    reply: dict[str, Any]
    win: float
    visits: int
    rounds: int = 1  # the rounds of sequential halving it stayed in for (1: no halving)


class _Beliefs:
    """What one seat knows of the cards it cannot see, kept from its messages.

    Each opponent's hand is a list of slots, one per card, each slot a bit mask of
    the cards it cannot be: when a player draws with no attack pending, every card
    it then held is taken to be one that was not playable (a bot draws when it has
    nothing to play); when it plays one card, none it then held is one the
    playout policy would have played instead, however the hand's suits fall (the
    others are taken to play as the policy does: the cheapest counter to an
    attack, a shield only without one); the cards it draws are unconstrained.
    """

    def __init__(self, start: Message) -> None:
        self.seat: int = start["seat"]
        self.players: int = start["players"]
        self.rules = Ruleset.from_value(start.get("ruleset"))
        self.tables = tables_for(self.rules)
        self.worths = _worths(self.rules)
        self.game = start.get("game", 0)
        hand = len(start["hand"])
        self.slots: list[list[int]] = [
            [] if s == self.seat else [0] * hand for s in range(self.players)
        ]
        self.discard: list[int] = []  # seen played, beneath the top, since the last reshuffle
        self.top = CARD_OF[start["top"]]
        self.suit = -1
        self.attacked = False
        self.attack_last = 0
        self.held = hand  # this seat's own cards, followed through the events

    def see(self, events: Sequence[Message]) -> None:
        for event in events:
            kind = event.get("kind")
            seat = event.get("seat", -1)
            if kind in ("play", "shield"):
                cards = [CARD_OF[c] for c in event.get("cards") or [event["card"]]]
                outplayed = 0
                if len(cards) == 1 and seat != self.seat:
                    if self.attacked:
                        outplayed = self._cheaper_answers_mask(cards[0], shield=kind == "shield")
                    elif kind == "play":
                        outplayed = self._outplayed_mask(seat, cards[0])
                self._played(seat, cards, event.get("suit"), shield=kind == "shield")
                if outplayed:
                    self._constrain(seat, outplayed)
            elif kind == "draw":
                if seat != self.seat:
                    self._constrain(seat, self._playable_mask())
                    self._add(seat, event.get("count", 1))
                else:
                    self.held += event.get("count", 1)
            elif kind == "take":
                if seat != self.seat:
                    self._constrain(seat, self._counter_mask())
                    self._add(seat, event.get("count", 0))
                else:
                    self.held += event.get("count", 0)
                self.attacked = False
                self.attack_last = 0
            elif kind == "catch":
                target = event.get("target", -1)
                if target != self.seat:
                    self._add(target, event.get("count", 1))
                else:
                    self.held += event.get("count", 1)
            elif kind == "reshuffle":
                self.discard = []
            elif kind == "fault" and 0 <= seat < self.players:
                self.slots[seat] = []

    def _played(self, seat: int, cards: list[int], suit: str | None, *, shield: bool) -> None:
        self.discard.append(self.top)
        self.discard += cards[:-1]
        self.top = cards[-1]
        self.suit = SUIT_INDEX[suit] if suit else -1
        if seat == self.seat:
            self.held -= len(cards)
        elif 0 <= seat < self.players:
            for card in cards:
                self._remove(seat, card)
        attack = self.tables.attack[cards[-1]]
        if shield:
            if not self.rules.mirror_three:
                self.attacked = False
        elif attack:
            self.attacked = True
            self.attack_last = attack

    def _remove(self, seat: int, card: int) -> None:
        slots = self.slots[seat]
        if not slots:
            return
        # Take the most constrained slot the card fits, so that what is left stays
        # as permissive as the facts allow.
        best = -1
        for i, mask in enumerate(slots):
            if not mask >> card & 1 and (best < 0 or mask.bit_count() > slots[best].bit_count()):
                best = i
        if best < 0:  # the inference was wrong (it drew with a playable card)
            best = max(range(len(slots)), key=lambda i: slots[i].bit_count())
        del slots[best]

    def _add(self, seat: int, count: int) -> None:
        if 0 <= seat < self.players and seat != self.seat:
            self.slots[seat] += [0] * count

    def _constrain(self, seat: int, mask: int) -> None:
        if 0 <= seat < self.players:
            self.slots[seat] = [slot | mask for slot in self.slots[seat]]

    def _playable_mask(self) -> int:
        key = DECK_SIZE + self.suit if self.suit >= 0 else self.top
        ok = self.tables.play_ok[key]
        return sum(1 << c for c in range(DECK_SIZE) if ok[c])

    def _outplayed_mask(self, seat: int, played: int) -> int:
        """The cards ``seat`` cannot have held when it played ``played`` with no
        attack pending, if it plays as the playout policy does (the heuristic
        bot's judgement): every card then playable that the policy would have
        preferred however the hand's suits fall. A card's score is its worth plus
        half a point for each card of its suit in the hand; the played card's
        suit can add at most half a point for each other card of the hand but
        the one it is compared with."""
        if not 0 <= seat < self.players or seat == self.seat:
            return 0
        size = len(self.slots[seat])  # before the play: the played card is still in
        two = 2 if self.players == 2 else 0
        # Two players: the player it passes to is this seat, whose count is known;
        # more: the worth under either reading of the threat, the lower.
        tables = [self.worths[two + (self.held <= 2)]] if two else self.worths[:2]
        slack = 0.5 * (size - 2)
        ok = self._playable_table()
        mask = 0
        for card in range(DECK_SIZE):
            if not ok[card] or card == played:
                continue
            if all(
                self._score(worth, card, size) - self._score(worth, played, size) > slack
                for worth in tables
            ):
                mask |= 1 << card
        return mask

    def _cheaper_answers_mask(self, played: int, *, shield: bool) -> int:
        """The cards a player cannot have held when it answered the attack with
        ``played``: the policy answers with the cheapest counter, a shield only
        when it has none. So a shield says it held no counter; a counter, none
        cheaper."""
        attack = self.tables.attack
        last = self.attack_last
        ceiling = 1 << 30 if shield else attack[played]
        return sum(
            1 << card
            for card in range(DECK_SIZE)
            if last <= attack[card] < ceiling and attack[card]
        )

    @staticmethod
    def _score(worth: tuple[float, ...], card: int, size: int) -> float:
        return 13.0 if size <= 3 and IS_JOKER[card] else worth[card]

    def _playable_table(self) -> Sequence[bool]:
        return self.tables.play_ok[DECK_SIZE + self.suit if self.suit >= 0 else self.top]

    def _counter_mask(self) -> int:
        if not self.attacked:
            return 0
        ok = self.tables.counters(self.attack_last)
        return sum(1 << c for c in range(DECK_SIZE) if ok[c])

    def sync(self, message: Message) -> None:
        """Make the slots agree with the counts a message gives (a missed event, a
        fault): extra slots go, the most constrained first; missing ones are free."""
        for seat, count in enumerate(message["hands"]):
            if seat == self.seat:
                continue
            slots = self.slots[seat]
            count = count or 0
            if len(slots) > count:
                slots.sort(key=int.bit_count)
                del slots[count:]
            elif len(slots) < count:
                slots += [0] * (count - len(slots))
        self.held = len(message["hand"])
        top = CARD_OF[message["top"]]
        if top != self.top:  # lost track (a message we never saw): start again from here
            self.top = top
            self.discard = []
        self.suit = SUIT_INDEX[message["suit"]] if message.get("suit") else -1

    def known_discard(self, message: Message) -> list[str]:
        """The cards seen played that are still beneath the top, as far as the
        message's count allows."""
        room = message["discard_pile"] - 1
        own = set(message["hand"])
        known = [CODES[c] for c in self.discard if CODES[c] not in own]
        return known[-room:] if room > 0 else []

    def deal(self, message: Message, rng: random.Random) -> GameState:
        """A full state consistent with the message and these beliefs."""
        return self.dealer(message, rng)(rng)

    def dealer(self, message: Message, rng: random.Random) -> Callable[[random.Random], GameState]:
        """Deals of full states consistent with the message and these beliefs, each
        from the generator it is given: the unseen cards shuffled, then handed to
        the opponents' slots, each slot the first card it may be."""
        known = self.known_discard(message)
        template = engine.sample_state(
            _as_turn(message), self.rules, seed=rng.getrandbits(32), discard=known
        )
        if message["type"] == "catch":
            _open_catch(template, message)
        me = self.seat
        sizes = [len(hand) for hand in template.hands]
        buried = template.discard[: len(known)]
        top = template.discard[-1]
        beneath = len(template.discard) - 1 - len(known)
        unseen: list[int] = []
        for seat in range(template.n):
            if seat != me:
                unseen += template.hands[seat]
        unseen += template.discard[len(known) : -1]
        unseen += template.draw
        # The most constrained slots choose first; free slots take what comes.
        slots = sorted(
            (
                (mask, seat)
                for seat in range(template.n)
                if seat != me
                for mask in self.slots[seat][: sizes[seat]]
                if mask
            ),
            key=lambda slot: -slot[0].bit_count(),
        )
        shuffle = random.Random.shuffle

        def deal(rng: random.Random) -> GameState:
            state = template.clone()
            pool = unseen[:]
            shuffle(rng, pool)
            hands = state.hands
            for seat in range(state.n):
                if seat != me:
                    hands[seat] = []
            for mask, seat in slots:
                # The first card the slot may be; if none fits, the beliefs were
                # wrong and any card will do.
                pick = next((i for i, card in enumerate(pool) if not mask >> card & 1), 0)
                hands[seat].append(pool.pop(pick))
            for seat in range(state.n):
                if seat != me:
                    hand = hands[seat]
                    missing = sizes[seat] - len(hand)
                    if missing:
                        hand += pool[-missing:]
                        del pool[-missing:]
            state.discard = [*buried, *pool[:beneath], top]
            state.draw = pool[beneath:]
            state.rng_state = rng.getrandbits(63)  # each deal reshuffles its own way
            return state

        return deal


def _as_turn(message: Message) -> Message:
    """A catch message read as the turn view ``sample_state`` expects."""
    if message["type"] == "turn":
        return message
    return {**message, "type": "turn"}


def _open_catch(state: GameState, message: Message) -> None:
    """Put the sampled state in the catch window the message offers. Who acts after
    the window is not in the view: the seat under attack (it is this one, if the
    message shows an attack), else the target's next seat."""
    seat = message["seat"]
    target = message["target"]
    state.to_act = seat if message.get("attack") else state.next_seat(target)
    offers = [seat]
    other = state.next_seat(seat)
    while other != state.to_act and other != seat:
        if other != target:
            offers.append(other)
        other = state.next_seat(other)
    state.phase = PHASE_CATCH
    state.lapse = target
    state.offers = offers


def _moves(state: GameState) -> list[Move]:
    """Every move of the seat to act: the engine's actions, and under ``multi_play``
    each play of several cards of one rank (the first legal, any last card)."""
    moves: list[Move] = list(state.legal_actions())
    if state.phase != PHASE_TURN or not state.rules.multi_play:
        return moves
    hand = state.hands[state.to_act]
    for first in state.legal_cards():
        if IS_JOKER[first]:
            continue
        mates = [c for c in hand if c != first and RANK_OF[c] == RANK_OF[first]]
        for size in range(1, len(mates) + 1):
            for group in _groups(mates, size):
                cards = (first, *group)
                left = len(hand) - len(cards)
                call = left == 1
                if state.t.role[first] == WILD and left:
                    moves += [(cards, s, call) for s in range(4)]
                else:
                    moves.append((cards, -1, call))
    return moves


def _groups(cards: list[int], size: int) -> list[tuple[int, ...]]:
    """Ordered picks of ``size`` cards where only the last one's place matters
    (it is the new top): each subset once per choice of its last card."""
    out: list[tuple[int, ...]] = []
    n = len(cards)

    def subsets(start: int, chosen: list[int]) -> None:
        if len(chosen) == size:
            for last in chosen:
                out.append((*(c for c in chosen if c != last), last))
            return
        for i in range(start, n):
            subsets(i + 1, [*chosen, cards[i]])

    subsets(0, [])
    return out


def _apply(state: GameState, move: Move) -> None:
    if isinstance(move, tuple):
        cards, suit, call = move
        state.play_cards(cards, suit, call)
    else:
        state.apply(move)


def _reply(move: Move) -> dict[str, Any]:
    if isinstance(move, tuple):
        cards, suit, call = move
        reply: dict[str, Any] = {"action": "play", "cards": [CODES[c] for c in cards]}
        if suit >= 0:
            reply["suit"] = SUITS[suit]
        reply["call"] = call
        return reply
    if move == DRAW:
        return {"action": "draw"}
    if move == CATCH:
        return {"action": "catch"}
    if move == PASS:
        return {"action": "pass"}
    card = move & CARD_MASK
    reply = {"action": "play", "card": CODES[card]}
    suit = (move >> SUIT_SHIFT & 7) - 1
    if suit >= 0:
        reply["suit"] = SUITS[suit]
    reply["call"] = bool(move & CALL)
    return reply


Worths = tuple[tuple[float, ...], ...]


def _worths(rules: Ruleset) -> Worths:
    """What the playout policy thinks of playing each card: the heuristic bot's
    judgement as four tables, for more than two players and for two, each without
    and with the next player close to going out (two cards or fewer). Shields and
    wild cards are kept for later, attacks pressed on a player about to finish,
    free turns taken."""
    t = tables_for(rules)
    out = []
    for two_players in (False, True):
        calm = [1.0] * DECK_SIZE
        threat = [1.0] * DECK_SIZE
        for card in range(DECK_SIZE):
            role = t.role[card]
            value = t.attack[card]
            if IS_JOKER[card]:
                calm[card], threat[card] = -2.0, -2.0 + value
            elif value:
                calm[card], threat[card] = 3.0, 13.0 + value
            elif role == SHIELD:
                calm[card] = threat[card] = -4.0
            elif role == WILD:
                calm[card] = threat[card] = -3.0
            elif role == AGAIN or (two_players and role in (SKIP, REVERSE)):
                calm[card] = threat[card] = 7.0
            elif role == SKIP:
                calm[card], threat[card] = 2.0, 5.0
        out += [tuple(calm), tuple(threat)]
    return tuple(out)


def policy_action(state: GameState, rng: random.Random, worths: Worths) -> int:
    """The playout policy's action for the seat to act in a turn: answer an attack
    with the cheapest counter (a shield last), else play the card the heuristic
    tables like best, favouring the suit the hand holds most of, with a random
    bonus below one on each card's score (without it, the heuristic bot's own
    choice); draw only when nothing is legal. A wild card names that suit; a play
    that leaves one card calls."""
    cards = state.legal_cards()
    if not cards:
        return DRAW
    seat = state.to_act
    hand = state.hands[seat]
    call = CALL if len(hand) == 2 else 0
    t = state.t
    if state.atk_total:
        attack = t.attack
        best = cards[0]
        cheapest = 1000
        for card in cards:
            value = attack[card] or 999
            if value < cheapest:
                best, cheapest = card, value
        return best | call
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[SUIT_OF[card]] += 1
    index = 2 if state.n_alive == 2 else 0
    if len(state.hands[state.next_seat(seat)]) <= 2:
        index += 1
    worth = worths[index]
    last_cards = len(hand) <= 3
    random_float = rng.random
    best = cards[0]
    best_score = -1e9
    for card in cards:
        # A joker can never be the last card: near the end it is spent first.
        base = 13.0 if last_cards and IS_JOKER[card] else worth[card]
        score = base + 0.5 * counts[SUIT_OF[card]] + random_float()
        if score > best_score:
            best, best_score = card, score
    if t.role[best] == WILD and len(hand) > 1:
        counts[SUIT_OF[best]] -= 1
        named = max(range(4), key=counts.__getitem__)
        return best | (named + 1) << SUIT_SHIFT | call
    return best | call


def playout(state: GameState, rng: random.Random, worths: Worths) -> int:
    """Play ``state`` to its end with the playout policy for every seat
    (``policy_action``; every lapse caught); the winner's seat."""
    limit = state.turn + PLAYOUT_TURNS
    while state.phase != PHASE_OVER:
        if state.phase == PHASE_CATCH:
            state.apply(CATCH)
            continue
        if state.turn >= limit:
            return _fewest(state)
        state.apply(policy_action(state, rng, worths))
    return state.winner


def _fewest(state: GameState) -> int:
    best = state.to_act
    for seat in range(state.n):
        if state.alive[seat] and len(state.hands[seat]) < len(state.hands[best]):
            best = seat
    return best


class SearchPlayer:
    """One seat's search bot: ``observe`` every message, ``analyse`` a decision,
    or call it with a message for its reply.

    ``budget_ms`` is the time per decision (the message's ``time_ms`` may make it
    smaller); ``iterations``, when given, replaces the clock with a fixed number
    of playouts, which makes every decision a pure function of ``seed`` and the
    messages. ``clock`` is what the budget is measured on (``time.process_time``
    measures the bot's own CPU time, whatever else the machine is doing).
    ``halving`` spends the playouts by sequential halving (``_search``); without
    it every candidate has as many, which the analysis of a replay wants: it
    reports the win chance of the move that was made, however poor.
    """

    def __init__(
        self,
        *,
        budget_ms: int = 100,
        seed: int | None = None,
        iterations: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        halving: bool = True,
    ) -> None:
        self.budget_ms = budget_ms
        self.halving = halving
        self.seed = random.randrange(1 << 62) if seed is None else seed
        self.iterations = iterations
        self.clock = clock
        self.beliefs: _Beliefs | None = None

    def observe(self, message: Message) -> None:
        """Take in any protocol message: beliefs only, no decision."""
        kind = message.get("type")
        if kind == "start":
            self.beliefs = _Beliefs(message)
        elif kind in ("turn", "catch") and self.beliefs is not None:
            self.beliefs.see(message.get("events") or [])
            self.beliefs.sync(message)
        elif kind == "end":
            self.beliefs = None

    def analyse(
        self,
        message: Message,
        *,
        iterations: int | None = None,
        budget_ms: int | None = None,
    ) -> list[ActionValue]:
        """Every candidate reply to a turn or catch message already observed, with
        its estimated chance that this seat wins, best first."""
        started = self.clock()
        beliefs = self.beliefs
        if beliefs is None:
            raise ValueError("analyse needs the game's start message observed first")
        if message.get("type") not in ("turn", "catch"):
            raise ValueError("only a turn or a catch message asks for a decision")
        iterations = iterations if iterations is not None else self.iterations
        deadline = None
        if iterations is None:
            deadline = started + self._budget(message, budget_ms) / 1000
            iterations = MAX_ITERATIONS
        rng = random.Random(f"{self.seed}:{beliefs.game}:{message['type']}:{message['turn']}")
        deal = beliefs.dealer(message, rng)
        moves = _moves(deal(rng))
        wins, visits, rounds = self._search(
            moves, deal, rng, beliefs=beliefs, iterations=iterations, deadline=deadline
        )
        values = [
            ActionValue(
                _reply(move), wins[i] / visits[i] if visits[i] else 0.0, visits[i], rounds[i]
            )
            for i, move in enumerate(moves)
        ]
        # Stable: among equal estimates the engine's order (plays first, draw last) stays.
        return sorted(values, key=self._rank)

    @staticmethod
    def _rank(value: ActionValue) -> tuple[float, float, float]:
        """Best first: the moves still in the running at the end, then the highest
        win rate (the moves of one round have as many playouts)."""
        return (-value.rounds, -value.win, -value.visits)

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
        """Wins and playouts of each move, and the rounds it played in:
        ``iterations`` playouts, fewer if the clock reaches ``deadline`` first.

        With ``halving`` (sequential halving) the budget is cut into rounds, as
        many as halvings take the moves down to two; each round has its share of
        the playouts (or of the time) and after it the better half of the moves
        stays in the running, so the close contenders get most of the playouts.
        Otherwise every move has as many playouts, one round."""
        seat = beliefs.seat
        worths = beliefs.worths
        count = len(moves)
        wins = [0] * count
        visits = [0] * count
        rounds_played = [0] * count
        running = list(range(count))
        rounds = max(1, (count - 1).bit_length()) if self.halving else 1
        # Every move is played out on the same deal with the same playout seed
        # (common random numbers): the luck of the deal then falls on all of them
        # alike, and their differences show with far fewer playouts. A forced move
        # is played out too: its win chance is still worth knowing.
        done = 0
        clock = self.clock
        started = clock()
        for round_ in range(rounds):
            share = (round_ + 1) / rounds
            round_iterations = int(iterations * share)
            round_deadline = None if deadline is None else started + (deadline - started) * share
            while done < round_iterations:
                world = deal(rng)
                playout_seed = rng.getrandbits(64)
                for index in running:
                    if done >= round_iterations or (
                        round_deadline is not None and done % 4 == 0 and clock() >= round_deadline
                    ):
                        round_iterations = done
                        break
                    trial = world.clone()
                    _apply(trial, moves[index])
                    visits[index] += 1
                    wins[index] += playout(trial, random.Random(playout_seed), worths) == seat
                    done += 1
            for index in running:
                rounds_played[index] = round_ + 1
            if round_ + 1 < rounds:
                running.sort(key=lambda i: -wins[i] / visits[i] if visits[i] else 0.0)
                running = sorted(running[: (len(running) + 1) // 2])
        return wins, visits, rounds_played

    def _budget(self, message: Message, budget_ms: int | None) -> float:
        """Milliseconds to think: the budget, at most a third of the reply's
        ``time_ms`` (the bank is left alone: it is for the unexpected)."""
        budget = float(self.budget_ms if budget_ms is None else budget_ms)
        time_ms = message.get("time_ms")
        if isinstance(time_ms, int | float) and time_ms > 0:
            budget = min(budget, time_ms / 3)
        return max(1.0, budget - SAFETY_MS)

    def __call__(self, message: Message) -> dict[str, Any]:
        self.observe(message)
        kind = message.get("type")
        if kind == "catch":
            return {"action": "catch"}  # making an opponent draw never hurts
        if kind != "turn" or self.beliefs is None:
            return {}
        if not message["legal"]:
            return {"action": "draw"}
        return self.analyse(message)[0].reply


def make_bot(seed: int | None = None) -> SearchPlayer:
    return SearchPlayer(seed=seed)


if __name__ == "__main__":
    run(SearchPlayer())
