"""A person at a table against bots, through the site: sitting down, answering what
the table asks, leaving, and never moving. The worker plays the table on a thread
of its own, as a worker process would; the person answers over the API."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from arena.matches.live import table_question_get, table_seen_touch
from arena.matches.logs import log_decompress
from arena.matches.models import Match
from arena.play.runner import Outcome, match_run
from arena.settings.env import REPO_ROOT
from tests.arena.factories import ActiveBotVersionFactory, BotVersionFactory, UserFactory
from tests.support.live import live_store_clear

HEURISTIC = (REPO_ROOT / "bots_examples" / "heuristic_bot.py").read_bytes()


@pytest.fixture(autouse=True)
def _clean_store():
    live_store_clear()
    yield
    live_store_clear()


def heuristic(name: str = "heuristic"):
    return ActiveBotVersionFactory(bot__name=name, bot__is_example=True, source=HEURISTIC)


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def sit_down(client: APIClient, bots: list[str], **fields) -> Match:
    response = client.post(reverse("api-tables"), {"bots": bots, **fields}, format="json")
    assert response.status_code == 201, response.content
    return Match.objects.get(pk=response.json()["id"])


class Worker:
    """The table played on its own thread, as a worker process would."""

    def __init__(self, match: Match) -> None:
        self.outcome: Outcome | None = None
        self.thread = threading.Thread(target=self._run, args=(match.pk,))
        self.started = time.monotonic()
        self.seconds: float | None = None
        self.thread.start()

    def _run(self, match_id: int) -> None:
        try:
            self.outcome = match_run(match_id=match_id)
        finally:
            self.seconds = time.monotonic() - self.started
            connection.close()

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def join(self, timeout: float = 60) -> Outcome | None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the worker is still held by the table"
        return self.outcome


def first_legal(question: dict) -> dict:
    """A person who plays the first card they may (naming spades for a 7), catches
    every lapse and calls One Card."""
    message = question["message"]
    if message["type"] == "catch":
        return {"action": "catch"}
    if not message["legal"]:
        return {"action": "draw"}
    return {"action": "play", "card": message["legal"][0], "suit": "S", "call": True}


def play_along(
    client: APIClient,
    match: Match,
    worker: Worker,
    decide: Callable[[dict], dict | None] = first_legal,
    *,
    answers: int | None = None,
) -> list[dict]:
    """Answer the table's questions as the person's page would (keeping the page
    "open"), until the worker is done or `answers` have been given."""
    given: list[dict] = []
    seen_number = None
    while not worker.done and (answers is None or len(given) < answers):
        table_seen_touch(match_id=match.pk)
        question = table_question_get(match_id=match.pk)
        if question is None or question["number"] == seen_number:
            time.sleep(0.02)
            continue
        seen_number = question["number"]
        reply = decide(question)
        if reply is None:
            continue
        response = client.post(
            reverse("api-table-move", args=[match.pk]),
            {"number": question["number"], **reply},
            format="json",
        )
        assert response.status_code == 202, response.content
        given.append({"question": question, "reply": reply})
    return given


@pytest.mark.django_db(transaction=True)
def test_a_person_plays_a_whole_table_against_a_bot_and_it_is_kept_as_any_match():
    person = UserFactory(username="ada")
    heuristic()
    client = client_for(person)
    match = sit_down(client, ["heuristic"])
    assert (match.kind, match.rated, match.competition_id) == (Match.Kind.TABLE, False, None)
    seats = list(match.seats.order_by("index"))
    assert sorted(seat.is_person for seat in seats) == [False, True]
    person_index = next(seat.index for seat in seats if seat.is_person)

    worker = Worker(match)
    given = play_along(client, match, worker)
    assert worker.join() is Outcome.DONE
    assert given, "the person was never asked anything"
    # What the person was asked was their own seat's view: their hand, the legal cards.
    turn = next(
        g["question"]["message"] for g in given if g["question"]["message"]["type"] == "turn"
    )
    assert set(turn["legal"]) <= set(turn["hand"])

    match.refresh_from_db()
    assert match.state == Match.State.DONE
    game = match.games.get()
    log = log_decompress(game.log_compressed)
    seat_of_person = game.seating.index(person_index)
    assert log["names"][seat_of_person] == "@ada"
    assert not game.faults
    person_seat = match.seats.get(person__isnull=False)
    assert person_seat.games == 1
    # Recorded and replayable like any match, the person shown by name.
    page = client.get(reverse("web:game-replay", args=[game.pk]))
    assert page.status_code == 200
    assert "@ada" in page.content.decode()
    detail = client.get(reverse("api-match", args=[match.pk])).json()
    assert [seat["person"] for seat in detail["seats"]].count("ada") == 1


@pytest.mark.django_db(transaction=True)
def test_a_person_who_leaves_mid_game_ends_their_game_at_once_and_frees_the_worker():
    person = UserFactory()
    heuristic()
    client = client_for(person)
    match = sit_down(client, ["heuristic"])
    worker = Worker(match)
    play_along(client, match, worker, answers=2)
    left_at = time.monotonic()
    assert client.post(reverse("api-table-leave", args=[match.pk])).status_code == 202
    assert worker.join(30) is Outcome.DONE
    assert time.monotonic() - left_at < 10
    game = match.games.get()
    person_index = match.seats.get(person__isnull=False).index
    assert [(f["index"], f["reason"]) for f in game.faults] == [(person_index, "timeout")]
    log = log_decompress(game.log_compressed)
    fault = next(event for event in log["events"] if event["kind"] == "fault")
    assert fault["detail"]["person"] == "left the table"
    # The match page says it in a sentence.
    page = client.get(reverse("web:match-detail", args=[match.pk])).content.decode()
    assert "the player left the table" in page


@pytest.mark.django_db(transaction=True)
@override_settings(ARENA_TABLE_MOVE_SECONDS=1, ARENA_TABLE_PATIENCE=2)
def test_a_person_who_never_moves_draws_on_the_clock_then_drops_out():
    person = UserFactory()
    heuristic()
    client = client_for(person)
    match = sit_down(client, ["heuristic"])
    worker = Worker(match)
    play_along(client, match, worker, decide=lambda question: None)  # page open, no move
    assert worker.join(30) is Outcome.DONE
    assert worker.seconds is not None
    assert worker.seconds < 15
    game = match.games.get()
    person_index = match.seats.get(person__isnull=False).index
    assert [(f["index"], f["reason"]) for f in game.faults] == [(person_index, "timeout")]
    log = log_decompress(game.log_compressed)
    own = [e for e in log["events"] if e.get("seat") == game.seating.index(person_index)]
    assert own[-1]["detail"]["person"] == "stopped answering"
    # The first timeout drew a card for them (a person is not faulted for one).
    moves = [e["kind"] for e in own if e["kind"] in ("draw", "take", "play")]
    assert moves[:1] in (["draw"], ["take"])


@pytest.mark.django_db(transaction=True)
@override_settings(ARENA_TABLE_AWAY_SECONDS=1)
def test_a_person_whose_page_is_closed_is_taken_as_gone():
    person = UserFactory()
    heuristic()
    match = sit_down(client_for(person), ["heuristic"])
    worker = Worker(match)  # nobody's page touches the table
    assert worker.join(30) is Outcome.DONE
    assert worker.seconds is not None
    assert worker.seconds < 10
    assert [f["reason"] for f in match.games.get().faults] == ["timeout"]


@pytest.mark.django_db(transaction=True)
def test_a_move_is_refused_with_the_reason_and_only_the_person_may_answer():
    person = UserFactory()
    heuristic()
    client = client_for(person)
    match = sit_down(client, ["heuristic"])
    worker = Worker(match)
    try:
        question = None
        for _ in range(500):
            table_seen_touch(match_id=match.pk)
            question = table_question_get(match_id=match.pk)
            if question and question["message"]["type"] == "turn":
                break
            if question:  # a catch: let it go
                client.post(
                    reverse("api-table-move", args=[match.pk]),
                    {"number": question["number"], "action": "pass"},
                    format="json",
                )
            time.sleep(0.02)
        assert question is not None
        url = reverse("api-table-move", args=[match.pk])
        number = question["number"]
        hand, legal = question["message"]["hand"], question["message"]["legal"]
        unplayable = next((card for card in hand if card not in legal), None)
        if unplayable is not None:
            refused = client.post(
                url, {"number": number, "action": "play", "card": unplayable}, format="json"
            )
            assert refused.status_code == 400
            assert f"{unplayable} cannot be played now." in refused.json()["action"]
        stale = client.post(url, {"number": number + 5, "action": "draw"}, format="json")
        assert stale.status_code == 400
        assert "no longer asked" in stale.json()["number"][0]
        stranger = client_for(UserFactory()).post(
            url, {"number": number, "action": "draw"}, format="json"
        )
        assert stranger.status_code == 403
        assert (
            client.post(url, {"number": number, "action": "draw"}, format="json").status_code == 202
        )
    finally:
        client.post(reverse("api-table-leave", args=[match.pk]))
        worker.join(30)


@pytest.mark.django_db
def test_sitting_down_checks_every_input_with_a_reason(django_capture_on_commit_callbacks):
    person = UserFactory()
    heuristic()
    BotVersionFactory(bot__name="unqualified")  # no active version
    client = client_for(person)
    url = reverse("api-tables")

    def refused(payload: dict) -> dict:
        response = client.post(url, payload, format="json")
        assert response.status_code == 400, response.content
        return response.json()

    assert "bots" in refused({"bots": []})
    assert "bots" in refused({"bots": ["heuristic"] * 8})
    assert "No active bot named nobody." in refused({"bots": ["nobody"]})["bots"]
    assert "No active bot named unqualified." in refused({"bots": ["unqualified"]})["bots"]
    assert "preset" in refused({"bots": ["heuristic"], "preset": "poker"})
    assert "games" in refused({"bots": ["heuristic"], "games": 99})
    assert APIClient().post(url, {"bots": ["heuristic"]}, format="json").status_code in (401, 403)

    # A bot may fill several seats; a table seats 2 to 8 with the person.
    with django_capture_on_commit_callbacks(execute=False):
        full = sit_down(client, ["heuristic"] * 7, preset="pesten")
    assert full.seats.count() == 8
    assert full.ruleset["name"] == "pesten"
    # One open table at a time.
    assert "already at table" in refused({"bots": ["heuristic"]})["bots"][0]
    # Leaving a table not yet started cancels it: no game is ever played.
    assert client.post(reverse("api-table-leave", args=[full.pk])).status_code == 202
    full.refresh_from_db()
    assert full.state == Match.State.FAILED
    assert match_run(match_id=full.pk) is Outcome.NOTHING_TO_DO
    with django_capture_on_commit_callbacks(execute=False):
        sit_down(client, ["heuristic"])


@pytest.mark.django_db
def test_the_tables_api_is_in_the_schema():
    schema = APIClient().get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    operations = {
        operation["operationId"]
        for path in schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    assert {"tables_create", "tables_move", "tables_leave", "matches_events"} <= operations
    move = schema["paths"]["/api/v1/tables/{id}/move/"]["post"]
    assert "requestBody" in move


@pytest.mark.django_db(transaction=True)
def test_every_page_that_lists_matches_shows_a_table_with_its_person():
    person = UserFactory(username="grace")
    heuristic()
    client = client_for(person)
    match = sit_down(client, ["heuristic"])
    client.post(reverse("api-table-leave", args=[match.pk]))  # cancelled: a finished row
    played = sit_down(client, ["heuristic"])
    worker = Worker(played)
    play_along(client, played, worker)
    assert worker.join() is Outcome.DONE
    game = played.games.get()
    for url in [
        reverse("web:home"),
        reverse("web:bot-detail", args=["heuristic"]),
        reverse("web:match-detail", args=[played.pk]),
        reverse("web:match-detail", args=[match.pk]),
        reverse("web:game-replay", args=[game.pk]),
        reverse("web:table", args=[played.pk]),  # over: its match page
        reverse("api-matches") + "?bot=heuristic",
        reverse("api-game", args=[game.pk]),
        reverse("web:match-logs", args=[played.pk]),
    ]:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
    assert "@grace" in client.get(reverse("web:match-detail", args=[played.pk])).content.decode()
    assert "@grace" in client.get(reverse("web:bot-detail", args=["heuristic"])).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_persons_stream_asks_them_and_shows_their_hand_only_and_nobody_else_is_asked():
    """The whole path the page takes: the person reads each question from their own
    event stream and answers it over the API; a spectator's stream, meanwhile, gets
    no question and sees no hand."""
    from arena.replays.live import match_events_stream
    from tests.arena.replays.test_live_stream import parse

    person = UserFactory()
    heuristic()
    client = client_for(person)
    match = sit_down(client, ["heuristic"])
    person_index = match.seats.get(person__isnull=False).index
    spectator_events: list = []

    def spectate() -> None:
        try:
            stream = match_events_stream(user=UserFactory(), match=match, seconds=60)
            spectator_events.extend(parse(stream))
        finally:
            connection.close()

    spectator = threading.Thread(target=spectate)
    spectator.start()
    worker = Worker(match)
    answered, hands_seen = 0, []
    # Each event as it comes (the person answers while the stream is open).
    events = (
        event
        for chunk in match_events_stream(user=person, match=match, seconds=60)
        for event in parse([chunk])
    )
    for name, data, _ in events:
        if name == "question" and data is not None:
            assert data["answer"] == reverse("api-table-move", args=[match.pk])
            assert 0 < data["seconds"] <= 60
            reply = first_legal(data)
            response = client.post(
                data["answer"], {"number": data["number"], **reply}, format="json"
            )
            assert response.status_code == 202, response.content
            answered += 1
        if name == "move" and not data["over"]:
            hands_seen.append(data["frame"]["hands"])
    assert worker.join() is Outcome.DONE
    spectator.join(60)
    assert answered > 0
    person_seat = match.games.get().seating.index(person_index)
    # While the game was on, the person saw their own hand and the bot's as a count.
    assert hands_seen
    assert all(isinstance(hands[person_seat], list) for hands in hands_seen)
    assert all(isinstance(hands[1 - person_seat], int) for hands in hands_seen)
    assert spectator_events[-1][0] == "result"
    assert not [event for event in spectator_events if event[0] == "question"]
    assert all(
        all(not isinstance(hand, list) for hand in data["frame"]["hands"])
        for name, data, _ in spectator_events
        if name == "move" and not data["over"]
    )
