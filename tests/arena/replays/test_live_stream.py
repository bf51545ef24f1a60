"""A match streamed as it is played: what spectators see, and that no spectator or
store slows a match down."""

from __future__ import annotations

import json
import threading
import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from arena.matches.live import live_game_get, live_watching_touch
from arena.matches.models import Match
from arena.play.runner import Outcome, match_run
from arena.replays.live import _visible_events, match_events_stream, stream_start_parse
from tests.arena.factories import ActiveBotVersionFactory, UserFactory, match_with_seats
from tests.support.live import live_store_clear

# Plays the first legal card, catches whenever it can, notes the turn as its debug;
# 10 ms per decision, so that a two-game match lasts long enough to be watched.
SLOW_BOT = b"""
import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    reply = {}
    if kind == "turn":
        time.sleep(0.01)
        legal = message["legal"]
        reply = {"action": "draw"}
        if legal:
            reply = {"action": "play", "card": legal[0], "suit": "S", "call": True}
        reply["debug"] = "turn %d" % message["turn"]
    elif kind == "catch":
        reply = {"action": "catch"}
    print(json.dumps(reply), flush=True)
"""


def parse(chunks):
    """(event name, data, id) of each SSE chunk with data."""
    events = []
    for chunk in chunks:
        fields = dict(
            line.split(": ", 1)
            for line in chunk.strip().splitlines()
            if ": " in line and not line.startswith(":")
        )
        if "event" in fields:
            events.append((fields["event"], json.loads(fields["data"]), fields.get("id")))
    return events


@pytest.fixture(autouse=True)
def _fresh_live_store():
    live_store_clear()
    yield
    live_store_clear()


# A deal whose game SLOW_BOT plays in 182 events, about 2 s, so that a stream that
# looks every POLL_SECONDS sees it being played; the factory's seeds, which follow
# the tests that ran before, deal games of as few as 17 events (0.2 s).
LONG_DEAL = 26


def slow_match(owner=None, games=2):
    versions = [
        ActiveBotVersionFactory(source=SLOW_BOT, **({"bot__owner": owner} if owner else {})),
        ActiveBotVersionFactory(source=SLOW_BOT),
    ]
    return match_with_seats(versions, rated=False, games_planned=games, seed=LONG_DEAL)


class Played:
    """A match played on a thread of its own, as a worker would."""

    def __init__(self, match: Match) -> None:
        self.outcome: Outcome | None = None
        self.ended_at: float | None = None
        self.started_at = time.monotonic()
        self.thread = threading.Thread(target=self._run, args=(match.pk,))
        self.thread.start()

    def _run(self, match_id: int) -> None:
        from django.db import connection

        try:
            self.outcome = match_run(match_id=match_id)
        finally:
            self.ended_at = time.monotonic()
            connection.close()

    @property
    def seconds(self) -> float:
        assert self.ended_at is not None
        return self.ended_at - self.started_at

    def join(self) -> None:
        self.thread.join(60)
        assert self.outcome is Outcome.DONE


@pytest.mark.django_db(transaction=True)
def test_spectators_see_moves_while_the_match_runs_and_public_information_only():
    match = slow_match()
    played = Played(match)
    chunks = []
    moves_while_running = 0
    for chunk in match_events_stream(user=AnonymousUser(), match=match, seconds=60):
        chunks.append(chunk)
        if "event: move" in chunk and played.ended_at is None:
            moves_while_running += 1
    played.join()
    events = parse(chunks)
    assert moves_while_running > 10
    assert len([m for name, m, _ in events if name == "move" and not m["over"]]) > 10
    kinds = [name for name, _, _ in events]
    assert kinds[0] == "game"
    assert kinds[-1] == "result"
    assert kinds.count("game") == 2
    assert kinds.count("game-over") == 2
    moves = [data for name, data, _ in events if name == "move"]
    live = [m for m in moves if not m["over"]]
    # A game being played: every hand a count, nobody's drawn cards.
    assert all(isinstance(hand, int) for m in live for hand in m["frame"]["hands"])
    draws = [
        m["frame"]["event"]
        for m in live
        if m["frame"]["event"] and m["frame"]["event"]["kind"] == "draw"
    ]
    assert draws
    assert all("cards" not in event for event in draws)
    assert not any(m["debug"] for m in live)  # nobody's bot is this viewer's
    # The same events a replay log holds, in order, game by game.
    match.refresh_from_db()
    for game in match.games.all():
        from arena.matches.selectors import game_log

        logged = game_log(game=game)["events"]
        streamed = [
            m["frame"]["event"] for m in moves if m["game"] == game.number and m["frame"]["event"]
        ]
        assert [e["kind"] for e in streamed] == [e["kind"] for e in logged]
    result = events[-1][1]
    assert result["state"] == "done"
    assert sum(seat["games"] for seat in result["seats"]) == 4


@pytest.mark.django_db(transaction=True)
def test_the_owner_of_a_seat_sees_its_hand_and_no_other():
    owner = UserFactory()
    match = slow_match(owner=owner, games=1)
    played = Played(match)
    chunks = list(match_events_stream(user=owner, match=match, seconds=60))
    played.join()
    moves = [data for name, data, _ in parse(chunks) if name == "move" and not data["over"]]
    assert moves
    games = list(match.games.all())
    own_seat = games[0].seating.index(0)  # where the owner's bot (index 0) sat
    for move in moves:
        hands = move["frame"]["hands"]
        assert isinstance(hands[own_seat], list)
        assert isinstance(hands[1 - own_seat], int)
    # The owner's bot's debug notes come with its moves; the other bot's never.
    notes = [note for move in moves for note in move["debug"]]
    assert notes
    assert {note["seat"] for note in notes} == {own_seat}


def test_public_delay_counts_only_the_events_published_long_enough_ago():
    marks = [[100.0, 3], [101.0, 10], [102.0, 25]]
    assert _visible_events(marks, 0, 103.0) is None
    assert _visible_events(marks, 2, 103.0) == 10
    assert _visible_events(marks, 5, 103.0) == 0


def test_last_event_id_resumes_after_the_last_frame():
    assert (
        stream_start_parse(last_event_id="2.17", game=None).game,
        stream_start_parse(last_event_id="2.17", game=None).frame,
    ) == (2, 18)
    assert stream_start_parse(last_event_id="nonsense", game="3").game == 3
    assert stream_start_parse(last_event_id=None, game="x").game == 0


@pytest.mark.django_db(transaction=True)
def test_a_slow_subscriber_does_not_slow_the_match():
    """One spectator reads its first event and stalls until the match is over;
    another match of the same bots is played with nobody watching."""
    alone = Played(slow_match())
    alone.join()
    match = slow_match()
    stream = match_events_stream(user=AnonymousUser(), match=match, seconds=60)
    next(stream)
    played = Played(match)
    played.join()  # nobody read the stream meanwhile
    assert played.seconds < alone.seconds * 1.5 + 0.5
    rest = parse(list(stream))  # the stalled spectator still gets the whole match
    assert rest[-1][0] == "result"


@pytest.mark.django_db(transaction=True)
def test_a_subscriber_that_disconnects_leaves_the_match_alone_and_can_resume():
    match = slow_match()
    played = Played(match)
    stream = match_events_stream(user=AnonymousUser(), match=match, seconds=60)
    first = []
    for chunk in stream:
        first.append(chunk)
        if len(parse(first)) >= 5:
            break
    stream.close()  # the browser went away
    played.join()
    last_id = parse(first)[-1][2]
    start = stream_start_parse(last_event_id=last_id, game=None)
    rest = parse(
        list(
            match_events_stream(
                user=AnonymousUser(),
                match=match,
                start_game=start.game,
                start_frame=start.frame,
                seconds=60,
            )
        )
    )
    frames = [
        data["frame"]["index"]
        for name, data, _ in parse(first) + rest
        if name == "move" and data["game"] == 0
    ]
    assert frames == list(range(len(frames)))  # nothing lost, nothing twice
    assert rest[-1][0] == "result"


@pytest.mark.django_db(transaction=True)
def test_a_slow_or_broken_live_store_never_holds_a_match(monkeypatch):
    """Nobody waits on the store: the match is played while a write hangs until it
    is over, or while every write fails."""
    from arena.play import live

    published, returned = [], []
    match_over = threading.Event()

    def hanging(**kwargs):
        published.append(kwargs["game"])
        match_over.wait(30)  # a worker that waited on the store would wait here
        returned.append(kwargs["game"])

    monkeypatch.setattr(live, "live_game_publish", hanging)
    match = slow_match(games=1)
    live_watching_touch(match_id=match.pk)  # somebody watches: the worker publishes
    played = Played(match)
    try:
        played.join()
        assert published  # the store was written to during the game
        assert not returned  # and the match was over before that write came back
    finally:
        match_over.set()  # the process's publishing thread serves the next tests

    def broken(**kwargs):
        raise ConnectionError("the store is gone")

    monkeypatch.setattr(live, "live_game_publish", broken)
    monkeypatch.setattr(live, "live_match_played", broken)
    match = slow_match(games=1)
    live_watching_touch(match_id=match.pk)
    played = Played(match)
    played.join()


@pytest.mark.django_db
def test_the_events_endpoint_streams_and_is_in_the_schema(client):
    match = match_with_seats(state=Match.State.DONE)
    response = client.get(
        reverse("api-match-events", args=[match.pk]), HTTP_ACCEPT="text/event-stream"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    body = b"".join(response.streaming_content).decode()
    assert parse([body])[-1][0] == "result"
    missing = client.get(
        reverse("api-match-events", args=[999999]), HTTP_ACCEPT="text/event-stream"
    )
    assert missing.status_code == 404
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/matches/{id}/events/"]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]


@pytest.mark.django_db(transaction=True)
def test_a_match_nobody_watches_is_not_published():
    match = slow_match(games=1)
    Played(match).join()
    time.sleep(0.2)  # a publishing round or more
    assert live_game_get(match_id=match.pk, game=0) is None
