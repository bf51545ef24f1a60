"""A match as a stream of Server-Sent Events: its games' events as they are played,
each with the viewer's frame, then the match's result.

The worker leaves the game being played in the live store (arena.matches.live);
games already over are read from their rows. What a user sees of a game still
being played is public information only: every hand as a count, other seats'
drawn cards hidden, reshuffles without their order, and that late by
ARENA_LIVE_PUBLIC_DELAY_SECONDS. The owner of a seat's bot (and staff) sees that
seat's hand and draws without delay. Once a game is over, everyone may see it all
(the replay, without other owners' stderr and debug).

Events (`event:` name, `data:` JSON, `id:` "game.frame" for Last-Event-ID):
- `game`: a game begins: {"game", "players", "names", "ruleset", "legend"};
- `move`: {"game", "frame": engine.replay_frames' frame as the user may see it,
  its "event" the replay log's event, "effect": what a play did, or null, "over":
  whether the game had ended (then the frame is the whole truth), "debug": the
  notes ({"seat", "text"}) the user's own bots wrote deciding it};
- `game-over`: {"game", "result", "replay": the replay page, or null};
- `result`: the match is over: {"state", "seats": [{"bot", "wins", "games",
  "faults"}], "error", "url", "replays": each game's replay page}; the stream ends.

At a table (arena.matches.tables), the person's own stream also says that their
page is open, and brings what they are asked:
- `question`: {"number", "message": the protocol's `turn` or `catch` message for
  their seat (with the ruleset, and "problem" when a reply was refused), "deadline":
  when their clock runs out (epoch seconds), "answer": where to POST the reply};
  "seconds": its clock's time left as sent, "needs_suit": the legal cards whose
  play must name a suit; `question` with null data: nothing is asked any more.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.urls import reverse

import engine
from arena.matches.live import (
    WATCHING_EVERY,
    live_game_get,
    live_watching_touch,
    table_question_get,
    table_seen_touch,
)
from arena.matches.logs import log_without_private
from arena.matches.models import Game, Match
from arena.matches.selectors import game_log
from engine.text import play_effect, ruleset_legend
from sandbox.human import names_a_suit

# How often a stream looks at the live store, and at the match's row.
POLL_SECONDS = 0.25
MATCH_CHECK_SECONDS = 1.0
KEEPALIVE_SECONDS = 15.0


@dataclass(frozen=True)
class Viewer:
    """Who watches: the match's indexes whose hands they may see, and their lag;
    `person` is set for the person of a table on their own stream."""

    own_indexes: frozenset[int]
    delay: float
    staff: bool = False
    person: bool = False


def match_viewer_for_user(*, user: Any, match: Match) -> Viewer:
    """The owner of a seat's bot, and a table's person, see that seat at once; staff
    see every seat's bots (never a person's hand but their own)."""
    seats = list(match.seats.all())
    user_id = user.pk if user is not None and user.is_authenticated else None
    person = frozenset(seat.index for seat in seats if user_id and seat.person_id == user_id)
    if user_id and user.is_staff:
        bots = frozenset(seat.index for seat in seats if not seat.is_person)
        return Viewer(own_indexes=bots | person, delay=0, staff=True, person=bool(person))
    own = frozenset(
        seat.index for seat in seats if user_id and seat.bot and seat.bot.owner_id == user_id
    )
    return Viewer(
        own_indexes=own | person,
        delay=0 if own or person else settings.ARENA_LIVE_PUBLIC_DELAY_SECONDS,
        person=bool(person),
    )


def sse(event: str, data: Any, *, id: str | None = None) -> str:
    """One Server-Sent Event."""
    head = f"id: {id}\n" if id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@dataclass
class _Position:
    game: int
    frames: int = 0  # frames of `game` sent
    announced: bool = False


@dataclass
class _Clock:
    now: Callable[[], float] = time.time
    sleep: Callable[[float], None] = time.sleep
    monotonic: Callable[[], float] = time.monotonic


def match_events_stream(
    *,
    user: Any,
    match: Match,
    start_game: int = 0,
    start_frame: int = 0,
    seconds: float | None = None,
    clock: _Clock | None = None,
) -> Iterator[str]:
    """The match's events from `start_game` (its frames from `start_frame`), for
    `seconds` at most (ARENA_LIVE_STREAM_SECONDS); a client reconnects after that
    with Last-Event-ID and goes on where it was."""
    clock = clock or _Clock()
    viewer = match_viewer_for_user(user=user, match=match)
    names = {seat.index: seat.player_name for seat in match.seats.all()}
    ends = clock.monotonic() + (seconds or settings.ARENA_LIVE_STREAM_SECONDS)
    position = _Position(game=max(0, start_game), frames=max(0, start_frame))
    state = match.state
    checked = kept_alive = clock.monotonic()
    yield "retry: 2000\n\n"
    rows_checked = -MATCH_CHECK_SECONDS
    watching = -WATCHING_EVERY
    asked = None  # the number of the question last sent to a table's person
    while clock.monotonic() < ends:
        if state in _LIVE and clock.monotonic() - watching >= WATCHING_EVERY:
            watching = clock.monotonic()
            live_watching_touch(match_id=match.pk)
            if viewer.person:
                table_seen_touch(match_id=match.pk)
        sent = False
        if viewer.person and state in _LIVE:
            question = table_question_get(match_id=match.pk)
            number = question["number"] if question else None
            if number != asked:
                asked, sent = number, True
                yield _question_event(match.pk, question)
        # The game's row is looked for once a second at most (the live store, a
        # cache read, at every poll): a crowd of spectators must not load the database.
        rows = clock.monotonic() - rows_checked >= MATCH_CHECK_SECONDS
        if rows:
            rows_checked = clock.monotonic()
        for chunk in _game_events(match, viewer, names, position, clock.now(), rows=rows):
            sent = True
            yield chunk
        if sent:
            kept_alive = clock.monotonic()
            continue
        if clock.monotonic() - checked >= MATCH_CHECK_SECONDS or state not in _LIVE:
            checked = clock.monotonic()
            state = Match.objects.filter(pk=match.pk).values_list("state", flat=True).first()
            recorded = Game.objects.filter(match_id=match.pk, number__gte=position.game).exists()
            if state not in _LIVE and not recorded:
                yield _result_event(match.pk)
                return
        if clock.monotonic() - kept_alive >= KEEPALIVE_SECONDS:
            kept_alive = clock.monotonic()
            yield ": keep-alive\n\n"
        clock.sleep(POLL_SECONDS)


_LIVE = frozenset({Match.State.QUEUED, Match.State.RUNNING})


def _question_event(match_id: int, question: dict[str, Any] | None) -> str:
    """The `question` event of what a table asks its person now (None: nothing)."""
    data = None
    if question is not None:
        message = question["message"]
        deadline = question.get("deadline")
        data = {
            **question,
            # The browser counts down from here: its clock need not agree with ours.
            "seconds": None if deadline is None else max(0.0, deadline - time.time()),
            "needs_suit": _cards_needing_a_suit(message),
            "answer": reverse("api-table-move", args=[match_id]),
        }
    return sse("question", data)


def _cards_needing_a_suit(message: dict[str, Any]) -> list[str]:
    """The legal cards whose play must name a suit."""
    if message.get("type") != "turn":
        return []
    return [card for card in message.get("legal") or [] if names_a_suit(message, card)]


def _game_events(
    match: Match,
    viewer: Viewer,
    names: dict[int, str],
    position: _Position,
    now: float,
    *,
    rows: bool,
) -> Iterator[str]:
    """What is new of the game at `position` for this viewer; moves `position` on
    to the next game once this one's end is sent. `rows`: look for the game's row
    even while the live store has the game in play."""
    number = position.game
    live = live_game_get(match_id=match.pk, game=number)
    row = None
    if rows or (live is not None and live["over"]):
        row = Game.objects.filter(match_id=match.pk, number=number).first()
    if row is not None:
        hidden = _hidden_seats(viewer, row.seating)
        log = log_without_private(game_log(game=row), hidden_seats=hidden)
        seating, over, visible_events = row.seating, True, None
    elif live is not None:
        log, seating, over = live["log"], live["seating"], live["over"]
        visible_events = _visible_events(live["marks"], viewer.delay, now)
        if over and visible_events is not None and visible_events < len(log["events"]):
            over = False  # its end is not public yet
        if not over:
            log = {key: value for key, value in log.items() if key != "result"}
        else:
            log = log_without_private(log, hidden_seats=_hidden_seats(viewer, seating))
    else:
        return
    table_names = [names.get(index, f"seat {seat}") for seat, index in enumerate(seating)]
    if not position.announced:
        position.announced = True
        yield sse(
            "game", _game_header(number, log, table_names), id=f"{number}.{position.frames - 1}"
        )
    frames = _frames(match.pk, number, log, over=over, events=visible_events)
    visible = set() if over else _visible_table_seats(viewer, seating)
    rules = _rules(log)
    debug = _debug_by_event(log, seats=None if over else visible)
    for frame in frames[position.frames :]:
        shown = frame if over else _public_frame(frame, visible)
        effect = _effect(frame["event"], rules)
        yield sse(
            "move",
            {
                "game": number,
                "frame": shown,
                "effect": effect,
                "over": over,
                "debug": debug.get(frame["index"] - 1, []),
            },
            id=f"{number}.{frame['index']}",
        )
        position.frames = frame["index"] + 1
    if over:
        result = dict(log.get("result") or {})
        yield sse(
            "game-over",
            {
                "game": number,
                "result": result,
                "replay": reverse("web:game-replay", args=[row.pk]) if row is not None else None,
                "stderr": log.get("stderr"),
            },
            id=f"{number}.{position.frames - 1}",
        )
        position.game, position.frames, position.announced = number + 1, 0, False


def _debug_by_event(
    log: dict[str, Any], *, seats: set[int] | None
) -> dict[int, list[dict[str, Any]]]:
    """The bots' `debug` notes by the event they were written before, of `seats`
    only (None: those left in the log, which is stripped for the user already)."""
    notes: dict[int, list[dict[str, Any]]] = {}
    for entry in log.get("debug") or []:
        seat, event = entry.get("seat"), entry.get("event")
        if isinstance(event, int) and (seats is None or seat in seats):
            notes.setdefault(event, []).append({"seat": seat, "text": str(entry.get("text", ""))})
    return notes


def _visible_events(marks: list[list[float]], delay: float, now: float) -> int | None:
    """How many events a viewer `delay` seconds behind may see; None: all of them."""
    if delay <= 0:
        return None
    shown = 0
    for at, count in marks:
        if at <= now - delay:
            shown = int(count)
    return shown


def _hidden_seats(viewer: Viewer, seating: list[int]) -> set[int]:
    return {seat for seat, index in enumerate(seating) if index not in viewer.own_indexes}


def _visible_table_seats(viewer: Viewer, seating: list[int]) -> set[int]:
    return {seat for seat, index in enumerate(seating) if index in viewer.own_indexes}


def _game_header(number: int, log: dict[str, Any], names: list[str]) -> dict[str, Any]:
    rules = _rules(log)
    return {
        "game": number,
        "players": log.get("players"),
        "names": names,
        "ruleset": rules.name if rules else None,
        "legend": [{"what": w, "cards": c} for w, c in ruleset_legend(rules)] if rules else [],
    }


def _rules(log: dict[str, Any]) -> engine.Ruleset | None:
    try:
        return engine.Ruleset.from_value(log.get("ruleset"))
    except engine.RulesetError:
        return None


def _effect(event: dict[str, Any] | None, rules: engine.Ruleset | None) -> str | None:
    if not event or event.get("kind") != "play" or rules is None:
        return None
    return play_effect(event.get("cards") or [event.get("card")], rules)


def _public_frame(frame: dict[str, Any], visible: set[int]) -> dict[str, Any]:
    """A frame as a spectator sees it: hands of seats not in `visible` as counts, the
    event without the cards they may not see."""
    hands = [
        hand if hand is None or seat in visible else len(hand)
        for seat, hand in enumerate(frame["hands"])
    ]
    event = frame["event"]
    if event is not None:
        owner = event.get("target") if event.get("kind") == "catch" else event.get("seat")
        own_cards = owner in visible and event.get("kind") != "reshuffle"
        event = dict(event) if own_cards else engine.event_view(event, None)
    return {**frame, "hands": hands, "event": event}


# Frames of a game so far, shared by the streams of one process: every spectator of
# a table asks for the same few.
_frames_cache: OrderedDict[tuple[int, int, int, bool], list[dict[str, Any]]] = OrderedDict()
_frames_lock = threading.Lock()
_FRAMES_KEPT = 64


def _frames(
    match_id: int, number: int, log: dict[str, Any], *, over: bool, events: int | None
) -> list[dict[str, Any]]:
    count = len(log["events"]) if events is None else min(events, len(log["events"]))
    key = (match_id, number, count, over)
    with _frames_lock:
        cached = _frames_cache.get(key)
        if cached is not None:
            _frames_cache.move_to_end(key)
            return cached
    frames = _frames_of(log, count=count, over=over)
    with _frames_lock:
        _frames_cache[key] = frames
        while len(_frames_cache) > _FRAMES_KEPT:
            _frames_cache.popitem(last=False)
    return frames


def _frames_of(log: dict[str, Any], *, count: int, over: bool) -> list[dict[str, Any]]:
    if over:
        try:
            return engine.replay_frames(log)
        except engine.ReplayError:
            return []
    # The worker may have published between a play and its "One Card!" call, which
    # the engine logs as one decision: a few events fewer always replay.
    for cut in range(count, max(-1, count - 4), -1):
        try:
            return engine.replay_frames({**log, "events": log["events"][:cut]}, unfinished=True)
        except engine.ReplayError:
            continue
    return []


def _result_event(match_id: int) -> str:
    match = Match.objects.get(pk=match_id)
    return sse(
        "result",
        {
            "state": match.state,
            "seats": [
                {
                    "bot": seat.player_name,
                    "wins": seat.wins,
                    "games": seat.games,
                    "faults": seat.faults,
                }
                for seat in match.seats.select_related("bot", "person").order_by("index")
            ],
            "error": match.error or None,
            "url": reverse("web:match-detail", args=[match_id]),
            "replays": [
                reverse("web:game-replay", args=[pk])
                for pk in match.games.order_by("number").values_list("pk", flat=True)
            ],
        },
    )


@dataclass
class StreamStart:
    """Where a stream starts: a game, and the frames of it already seen."""

    game: int = 0
    frame: int = 0
    notes: list[str] = field(default_factory=list)


def stream_start_parse(*, last_event_id: str | None, game: str | None) -> StreamStart:
    """From the browser's Last-Event-ID ("game.frame", the last one received) or a
    `game` query parameter; anything malformed starts at the beginning."""
    if last_event_id:
        number, _, frame = last_event_id.partition(".")
        try:
            return StreamStart(game=max(0, int(number)), frame=max(0, int(frame) + 1))
        except ValueError:
            pass
    if game:
        try:
            return StreamStart(game=max(0, int(game)))
        except ValueError:
            pass
    return StreamStart()
