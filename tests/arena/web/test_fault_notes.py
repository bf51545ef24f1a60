"""Faults you can act on: each kind told in a sentence on the match page, in the API
and the replay, linking to the replay at the fault; the bot's own output (its reply,
its stderr) only for its owner, on every surface."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

import sandbox
from arena.play.leases import match_claim, worker_token
from arena.play.results import match_record_result
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, match_with_seats
from tests.sandbox.harness import FAST, FIRST_LEGAL, HOSTILE

pytestmark = pytest.mark.django_db

# Bots that harm nobody but themselves, so the plain subprocess backend may run them.
KINDS = {
    "illegal": ("illegal_card.py", "but the legal cards were"),
    "timeout": ("infinite_loop.py", f"a reply may take {FAST.message_ms} ms"),
    "crash": ("raises.py", "the bot exited with code 1"),
    "limit": ("stdout_flood.py", "(limit: output)"),
}


def faulted_match(alice: Any, bob: Any, bot: Path):
    """A match recorded as a worker records it: alice's hostile bot against bob's."""
    result = sandbox.run_match(
        [sandbox.BotProgram("hostile", bot), sandbox.BotProgram("sound", FIRST_LEGAL)],
        games=1,
        seed=11,
        backend="subprocess",
        limits=FAST,
        allow_unsandboxed=True,
    )
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs"))
    match = match_with_seats([mine, theirs], games_planned=1)
    claim = match_claim(match_id=match.pk, token=worker_token())
    recorded = match_record_result(claim=claim, games=result.games, backend="subprocess")
    assert recorded is not None
    return recorded


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_fault_kind_is_a_sentence_with_a_replay_link(kind, client, alice, bob):
    bot, words = KINDS[kind]
    match = faulted_match(alice, bob, HOSTILE / bot)
    game = match.games.get()
    (fault,) = game.faults
    assert fault["reason"] == kind
    assert words in fault["owner_sentence"]
    link = f"{reverse('web:game-replay', args=[game.pk])}#frame={fault['event'] + 1}"

    client.force_login(alice)
    html = client.get(reverse("web:match-detail", args=[match.pk])).content.decode()
    assert fault["owner_sentence"] in html
    assert f'href="{link}"' in html

    api = client.get(f"/api/v1/matches/{match.pk}/").json()
    (shown,) = api["games"][0]["faults"]
    assert shown["sentence"] == fault["owner_sentence"]
    assert shown["replay_url"] == link
    assert client.get(f"/api/v1/games/{game.pk}/").json()["faults"] == [shown]

    data = client.get(link.partition("#")[0]).context["replay_data"]
    assert data["fault_sentences"] == {str(fault["event"]): fault["owner_sentence"]}
    assert data["frames"][fault["event"] + 1]["event"]["kind"] == "fault"


def test_the_bots_own_output_is_for_its_owner_only(client, alice, bob):
    match = faulted_match(alice, bob, HOSTILE / "raises.py")
    game = match.games.get()
    assert [fault["reason"] for fault in game.faults] == ["crash"]
    secret = "RuntimeError: this bot gives up"
    replay = reverse("web:game-replay", args=[game.pk])
    log_url = reverse("web:game-log", args=[game.pk])

    client.force_login(alice)
    owner_log = client.get(log_url).json()
    assert secret in _fault_event(owner_log)["detail"]["stderr"]

    for viewer in (bob, None):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        for text in (
            client.get(reverse("web:match-detail", args=[match.pk])).content.decode(),
            json.dumps(client.get(f"/api/v1/matches/{match.pk}/").json()),
            json.dumps(client.get(f"/api/v1/games/{game.pk}/replay/").json()),
            client.get(replay).content.decode(),
            client.get(log_url).content.decode(),
        ):
            assert secret not in text
        detail = _fault_event(client.get(log_url).json())["detail"]
        assert "stderr" not in detail
        assert detail["exit_code"] == 1  # what is not the bot's output stays


def test_an_illegal_reply_is_the_owners_and_the_card_everyones(client, alice, bob):
    match = faulted_match(alice, bob, HOSTILE / "non_json.py")
    game = match.games.get()
    client.force_login(alice)
    owner_log = client.get(reverse("web:game-log", args=[game.pk])).json()
    assert "reply" in _fault_event(owner_log)["detail"]
    client.force_login(bob)
    other = client.get(reverse("web:game-log", args=[game.pk])).json()
    assert "reply" not in _fault_event(other)["detail"]
    sentence = client.get(f"/api/v1/games/{game.pk}/").json()["faults"][0]["sentence"]
    assert "not JSON" in sentence


def _fault_event(log: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in log["events"] if e["kind"] == "fault")


def test_the_replay_merges_repeated_lines_dropped_markers():
    from arena.web.replay_data import replay_page_data
    from tests.arena.factories import played_log

    log = played_log()
    log["stderr"] = [
        [
            {"event": 0, "turn": 0, "lines": ["[3 earlier stderr lines dropped]"]},
            {"event": 1, "turn": 1, "lines": ["[4 earlier stderr lines dropped]", "x"]},
            {"event": 2, "turn": 2, "lines": ["y", "[2 earlier stderr lines dropped]"]},
        ],
        [],
    ]
    data = replay_page_data(replay={"log": log, "frames": [], "error": None})
    assert [entry["lines"] for entry in data["stderr"][0]] == [
        ["[7 earlier stderr lines dropped]", "x"],
        ["y", "[2 earlier stderr lines dropped]"],
    ]


def test_a_quoted_reply_is_in_the_owners_sentence_only(client, alice, bob, tmp_path):
    bot = tmp_path / "jumper.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    kind = json.loads(line)['type']\n"
        "    reply = {'action': 'jump', 'plan': 'my-secret-plan'} if kind == 'turn' else {}\n"
        "    print(json.dumps(reply), flush=True)\n"
    )
    match = faulted_match(alice, bob, bot)
    game = match.games.get()
    client.force_login(alice)
    (mine,) = client.get(f"/api/v1/games/{game.pk}/").json()["faults"]
    assert "my-secret-plan" in mine["sentence"]
    assert (
        "my-secret-plan"
        in client.get(reverse("web:match-detail", args=[match.pk])).content.decode()
    )
    client.force_login(bob)
    (theirs,) = client.get(f"/api/v1/games/{game.pk}/").json()["faults"]
    assert "my-secret-plan" not in theirs["sentence"]
    assert "not a move" in theirs["sentence"]
    for url in (
        reverse("web:match-detail", args=[match.pk]),
        reverse("web:game-replay", args=[game.pk]),
        f"/api/v1/matches/{match.pk}/",
    ):
        assert "my-secret-plan" not in client.get(url).content.decode()
