"""The site end to end in a real browser: sign up, upload example bots and
watch them qualify, the leaderboard, a match, a replay stepped with the keyboard
and checked against the log, and a tournament whose progress reaches 100%."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

import engine
from arena.bots.models import BotVersion
from arena.matches.models import Competition, Game, Match
from arena.matches.selectors import game_log
from arena.play.matchmaking import ladders_matchmake
from arena.play.sandboxing import EXAMPLES_DIR
from arena.tournaments.models import Tournament
from tests.arena.factories import KOREAN
from tests.browser.replay_state import SHOWN_STATE, expected_state
from tests.browser.screens import screenshot
from tests.support.worker import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-unusual-passphrase-42"
EXAMPLES = ("greedy", "heuristic")
# A bot that explains itself on stderr, which only its owner sees in the replays.
CHATTY_BOT = b"""import json, sys
for line in sys.stdin:
    message = json.loads(line)
    reply = {}
    if message["type"] == "turn":
        print(f"turn {message['turn']}: legal {message['legal']}", file=sys.stderr, flush=True)
        legal = message["legal"]
        reply = {"action": "play", "card": legal[0], "suit": "S"} if legal else {"action": "draw"}
    elif message["type"] == "catch":
        reply = {"action": "pass"}
    print(json.dumps(reply), flush=True)
"""
BOTS = ("my-greedy", "my-heuristic", "my-chatty")


def ladder_competition() -> Competition:
    """The default ladder; a flush by an earlier transactional test may have removed
    the one the data migration made."""
    competition, _ = Competition.objects.get_or_create(
        slug="korean-2",
        defaults={"name": "Korean, 2 seats", "ruleset": KOREAN, "seats": 2, "is_default": True},
    )
    Competition.objects.filter(pk=competition.pk).update(
        games_per_match=2, ladder_enabled=True, is_default=True
    )
    Competition.objects.exclude(pk=competition.pk).update(ladder_enabled=False, is_default=False)
    return competition


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + reverse("web:signup"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(re.escape(reverse("web:bot-submit")) + "$"))


def upload(page, base: str, *, name: str, code: bytes, shot: bool = False) -> None:
    page.goto(base + reverse("web:bot-submit"))
    page.get_by_label("Name").fill(name)
    page.get_by_label("Code").set_input_files(
        files=[{"name": f"{name}.py", "mimeType": "text/x-python", "buffer": code}]
    )
    if shot:
        screenshot(page, "submit")
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(re.compile(r"/my/versions/\d+/$"))


def test_the_site_in_a_browser(site_url, celery_worker_process, page):
    base = site_url
    competition = ladder_competition()

    # Sign up; a bad upload is refused next to its field.
    sign_up(page, base, "player")
    page.get_by_label("Name").fill("bad name!")
    page.get_by_label("Code").set_input_files(
        files=[{"name": "x.py", "mimeType": "text/x-python", "buffer": b"print(1)\n"}]
    )
    page.get_by_role("button", name="Upload").click()
    assert page.locator("#id_name_errors").is_visible()

    # Upload the example bots; the version page follows qualification live.
    for i, example in enumerate(EXAMPLES):
        code = (EXAMPLES_DIR / f"{example}_bot.py").read_bytes()
        upload(page, base, name=f"my-{example}", code=code, shot=i == 0)
    upload(page, base, name="my-chatty", code=CHATTY_BOT)
    status = page.locator("#version-status")
    assert status.get_attribute("data-status") in {"pending", "qualifying", "active"}
    page.wait_for_selector('#version-status[data-status="active"]', timeout=120_000)
    assert "Passed" in status.inner_text()
    screenshot(page, "version")
    wait_for(
        lambda: set(BotVersion.objects.values_list("status", flat=True)) == {"active"},
        timeout=120,
        what="every version to qualify",
    )
    page.goto(base + reverse("web:my-bots"))
    assert page.get_by_role("link", name=re.compile(r"^Download my-")).count() == 3
    screenshot(page, "my-bots")

    # What beat's matchmaker does, until a few ladder matches are played.
    def ladder_played():
        ladders_matchmake()
        done = Match.objects.filter(competition=competition, state=Match.State.DONE)
        return done.count() >= 3 and done.filter(seats__bot__name="my-chatty").exists()

    wait_for(ladder_played, timeout=180, interval=0.5, what="ladder matches")

    # The leaderboard lists the bots; search narrows it.
    page.goto(base + reverse("web:leaderboard"))
    table = page.locator("#leaderboard")
    for name in BOTS:
        assert table.get_by_role("link", name=name).count() == 1
    screenshot(page, "leaderboard")
    page.get_by_role("link", name="Games").click()
    page.wait_for_url(re.compile(r"sort=-games"))
    games_column = [int(n) for n in table.locator("tbody tr td:nth-child(5)").all_inner_texts()]
    assert games_column == sorted(games_column, reverse=True)
    page.get_by_label("Search bots").fill("greedy")
    page.get_by_role("button", name="Search").click()
    assert table.locator("tbody tr").count() == 1
    page.goto(base + reverse("web:home"))
    screenshot(page, "home")

    # The bot page with its rating chart, then one of its matches.
    page.goto(base + reverse("web:bot-detail", args=["my-chatty"]))
    assert page.locator("#rating-chart").is_visible()
    screenshot(page, "bot")
    match = Match.objects.filter(
        competition=competition, state=Match.State.DONE, seats__bot__name="my-chatty"
    ).first()
    page.get_by_role("link", name=f"#{match.pk}", exact=True).first.click()
    page.wait_for_url(re.compile(rf"/matches/{match.pk}/$"))
    games = page.locator("#games tbody tr")
    assert games.count() == match.games.count()
    screenshot(page, "match")

    # The replay: every state shown must be the log's.
    game = Game.objects.filter(match=match).order_by("number").first()
    frames = engine.replay_frames(game_log(game=game))
    page.get_by_role("link", name="Watch game 1").click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/replay/"))
    page.wait_for_function("document.getElementById('table').dataset.frame === '0'")

    def shown():
        return page.evaluate(SHOWN_STATE)

    assert shown() == expected_state(frames[0])
    steps = min(12, len(frames) - 1)
    for i in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        assert shown() == expected_state(frames[i]), f"frame {i}"
    assert page.url.endswith(f"#frame={steps}")
    page.keyboard.press("ArrowLeft")
    assert shown() == expected_state(frames[steps - 1])
    page.keyboard.press("End")
    assert shown() == expected_state(frames[-1])
    page.keyboard.press("Home")
    assert shown() == expected_state(frames[0])
    # Space plays, space pauses; the shown state is still a frame of the log.
    page.keyboard.press("Space")
    page.wait_for_function("Number(document.getElementById('table').dataset.frame) >= 2")
    page.keyboard.press("Space")
    paused = shown()
    page.wait_for_timeout(1500)
    assert shown() == paused
    assert paused == expected_state(frames[paused["frame"]])

    # A link to an exact moment opens there.
    middle = len(frames) // 2
    page.goto(base + reverse("web:game-replay", args=[game.pk]) + f"#frame={middle}")
    page.wait_for_function(f"document.getElementById('table').dataset.frame === '{middle}'")
    assert shown() == expected_state(frames[middle])

    # "#turn=N" opens the first state of turn N.
    turn = frames[middle]["turn"]
    first_of_turn = next(f["index"] for f in frames if f["turn"] >= turn)
    page.goto(base + reverse("web:game-replay", args=[game.pk]) + f"#turn={turn}")
    page.wait_for_function(f"document.getElementById('table').dataset.frame === '{first_of_turn}'")

    # The owner sees the bot's stderr beside the decision it was written for.
    log = game_log(game=game)
    seat = game.seating.index(match.seats.get(bot__name="my-chatty").index)
    events = log["events"]
    decisions = [
        entry
        for entry in log["stderr"][seat]
        if entry["event"] < len(events) and events[entry["event"]].get("seat") == seat
    ]
    assert decisions, log["stderr"][seat]
    moment = decisions[min(2, len(decisions) - 1)]
    page.goto(base + reverse("web:game-replay", args=[game.pk]) + f"#frame={moment['event'] + 1}")
    page.wait_for_function(
        f"document.getElementById('table').dataset.frame === '{moment['event'] + 1}'"
    )
    beside = page.locator(f'.seat[data-seat="{seat}"] .log-lines')
    assert moment["lines"][0] in beside.inner_text()
    assert page.locator("#bot-output").is_visible()
    screenshot(page, "replay", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "replay-phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    # One seat's view hides the other hands.
    page.get_by_label("Show").select_option("0")
    now = shown()
    assert now["hands"][0] == (frames[now["frame"]]["hands"][0] or [])
    assert now["hands"][1] == []
    assert page.locator('[data-hand="1"] .card--back').count() == len(
        frames[now["frame"]]["hands"][1] or []
    )

    # The log downloads as JSON, and it is the game's (this user owns every bot).
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the log (JSON)").click()
    assert json.loads(download.value.path().read_text()) == game_log(game=game)

    # A challenge from a bot page; the match page follows it live until it is done.
    page.goto(base + reverse("web:bot-detail", args=["my-greedy"]))
    page.get_by_label("Challenge with").select_option(label="my-heuristic")
    page.get_by_role("button", name="Challenge my-greedy").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector('#match-state[data-state="done"]', timeout=120_000)
    challenge = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert challenge.kind == Match.Kind.CHALLENGE
    assert page.locator("#games tbody tr").count() == challenge.games_planned

    # A small tournament between the user's bots; progress reaches 100%.
    page.goto(base + reverse("web:tournament-new"))
    page.get_by_label("Name").fill("Browser cup")
    page.get_by_label("Format").select_option("round_robin")
    page.get_by_label("Table size").fill("2")
    page.get_by_label("Games per match").fill("2")
    for name in BOTS:
        page.get_by_label(name).check()
    screenshot(page, "tournament-new")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    page.wait_for_selector('#tournament-state[data-state="done"]', timeout=180_000)
    bar = page.get_by_role("progressbar")
    assert bar.get_attribute("aria-valuenow") == "100"
    assert page.locator("#progress-label").inner_text() == "3 of 3 matches finished"
    assert page.locator("#standings tbody tr").count() == 3
    assert page.locator("#crosstable").is_visible()
    assert Tournament.objects.get().state == Tournament.State.DONE
    screenshot(page, "tournament")

    page.goto(base + reverse("web:tournament-list"))
    screenshot(page, "tournaments")
    page.goto(base + reverse("web:profile"))
    assert "Authorization: Token" in page.locator("#curl-line").inner_text()
