"""SQL, HTML and odd Unicode in every text a user or a bot controls.

What goes in through the API or a form is stored exactly (SQL is data, never
code) and comes out escaped on every page that shows it; bots' own output
(stderr, debug, which a hostile bot fills) is escaped on the owner's pages too.
Names that could pass for another's (invisible characters, direction overrides,
full-width look-alikes) are refused; over-long text and wrong types get a 400
naming the field and store nothing; unknown fields cannot set what the server
decides (owner, status, ratings).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from arena.bots.models import Bot, BotVersion
from arena.matches.logs import log_compress
from arena.matches.models import Game, Match
from arena.ratings.models import Rating
from arena.tournaments.models import Tournament
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotFactory,
    StaffFactory,
    UserFactory,
    match_with_seats,
)
from tests.arena.web.games import played_match, real_game_log

pytestmark = pytest.mark.django_db

XSS = "<script>alert('pwned')</script><img src=x onerror=alert(1)>"
SQL = "'; DROP TABLE bots_bot; --"
PAYLOAD = f"{XSS} {SQL}"
# What must never reach a page unescaped.
RAW_MARKERS = ("<script>alert(", "<img src=x")


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def assert_escaped(html: str, *, expect_shown: bool = True) -> None:
    for marker in RAW_MARKERS:
        assert marker not in html
    if expect_shown:
        assert "&lt;script&gt;alert(" in html


def test_sql_and_html_in_every_text_field_are_stored_verbatim_and_shown_escaped():
    owner = UserFactory(username="mallory")
    staff = StaffFactory()
    owner_api = api_for(owner)

    uploaded = owner_api.post(
        "/api/v1/bots/upload/",
        {
            "name": "evil-bot",
            "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE),
            "description": PAYLOAD,
        },
        format="multipart",
    )
    assert uploaded.status_code == 201, uploaded.content
    bot = Bot.objects.get(name="evil-bot")
    assert bot.description == PAYLOAD  # SQL is data: stored exactly, the table still there
    BotVersion.objects.filter(bot=bot).update(status=BotVersion.Status.ACTIVE)
    version = BotVersion.objects.get(bot=bot)
    other = ActiveBotVersionFactory(bot=BotFactory(owner=owner, name="evil-two"))

    competition = api_for(staff).post(
        "/api/v1/competitions/create/",
        {"slug": "evil-ladder", "name": PAYLOAD[:100], "ruleset": "korean", "seats": 2},
        format="json",
    )
    assert competition.status_code == 201, competition.content
    tournament = owner_api.post(
        "/api/v1/tournaments/",
        {
            "name": PAYLOAD[:100],
            "format": "round_robin",
            "seats": 2,
            "games_per_match": 2,
            "bots": ["evil-bot", "evil-two"],
        },
        format="json",
    )
    assert tournament.status_code == 201, tournament.content
    tournament_id = tournament.json()["id"]

    # A hostile bot's own output, and an error message, inside a played match.
    match = played_match([version, other], games=1)
    log = real_game_log(seed=3)
    log["seating"], log["names"] = [0, 1], ["evil-bot", "evil-two"]
    log["stderr"] = [[{"event": 1, "turn": 0, "lines": [PAYLOAD]}], []]
    log["debug"] = [{"seat": 0, "event": 2, "text": PAYLOAD}]
    Game.objects.filter(match=match).update(log_compressed=log_compress(log))
    Match.objects.filter(pk=match.pk).update(error=PAYLOAD)
    version.qualification = {
        "backend": "x",
        "faults": [],
        "games": [
            {"game": 0, "seat": 0, "rank": 1, "faults": [PAYLOAD], "turns": 3, "stderr": [PAYLOAD]}
        ],
    }
    version.status_reason = PAYLOAD
    version.save()
    game = Game.objects.get(match=match)

    assert connection.introspection.table_names().count("bots_bot") == 1

    browser = Client()
    browser.force_login(owner)
    shown = {
        "/bots/evil-bot/": True,
        "/my/bots/": True,
        f"/my/versions/{version.pk}/": True,
        "/leaderboard/evil-ladder/": True,
        "/tournaments/": True,
        f"/tournaments/{tournament_id}/": True,
        f"/matches/{match.pk}/": False,
        f"/games/{game.pk}/replay/": False,  # bot output travels as JSON in a script tag
        "/": False,
        f"/leaderboard/?q={PAYLOAD}": False,
    }
    for url, expect_shown in shown.items():
        response = browser.get(url)
        assert response.status_code == 200, url
        assert_escaped(response.content.decode(), expect_shown=expect_shown)
    replay = browser.get(f"/games/{game.pk}/replay/").content.decode()
    # json_script escapes <, > and & so that bot output cannot close the script tag.
    assert "\\u003Cscript\\u003Ealert(" in replay


def test_the_replay_viewer_never_writes_bot_output_as_html():
    """The viewer renders stderr and debug that hostile bots wrote: it must use text
    nodes, never an HTML sink."""
    static = Path(__file__).resolve().parents[2] / "platform/arena/web/static/web"
    for script in static.glob("*.js"):
        text = script.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{script.name} uses {sink}"


LOOKALIKES = [
    ("invisible character", "gre\u200bedy"),
    ("direction override", "evil\u202eyddeg"),
    ("full-width letters", "\uff47\uff52\uff45\uff45\uff44\uff59"),
    ("Cyrillic look-alike", "gr\u0435\u0435dy"),  # two Cyrillic letters e
    ("NUL byte", "bot\x00name"),
    ("emoji", "bot-\U0001f916"),
    ("HTML", "<b>bot</b>"),
    ("SQL", "x' OR '1'='1"),
    ("over-long", "b" * 41),
    ("too short", "b"),
    ("surrounding space", " greedy "),  # trimmed, so it collides with greedy
]


@pytest.mark.parametrize(("case", "name"), LOOKALIKES, ids=[case for case, _ in LOOKALIKES])
def test_bot_names_that_could_deceive_are_refused(case, name):
    BotFactory(name="greedy")
    response = api_for(UserFactory()).post(
        "/api/v1/bots/upload/",
        {"name": name, "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE)},
        format="multipart",
    )
    assert response.status_code == 400, (case, response.content)
    assert "name" in response.json()
    assert Bot.objects.count() == 1


@pytest.mark.parametrize(
    "username",
    [
        "<script>x</script>",
        "a" * 151,
        "evil\u202eadmin",
        "ad\u200bmin",
        "\uff41\uff4c\uff49\uff43\uff45",
        "x' OR 1=1--",
    ],
)
def test_sign_up_refuses_deceptive_or_hostile_usernames(username):
    UserFactory(username="alice")
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": username,
            "password1": "a-long-Unusual-pass-42",
            "password2": "a-long-Unusual-pass-42",
        },
    )
    assert response.status_code == 200  # the form again
    assert "username" in response.context["form"].errors
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"name": "x" * 101}, "name"),
        ({"seats": "many"}, "seats"),
        ({"seats": [2]}, "seats"),
        ({"games_per_match": {"n": 2}}, "games_per_match"),
        ({"bots": "evil-bot"}, "bots"),
        ({"bots": [["nested"], "x"]}, "bots"),
        ({"format": "knockout'; --"}, "format"),
        ({"ruleset": {"turn_limit": "forever"}}, "ruleset"),
        ({"name": None}, "name"),
    ],
)
def test_wrong_types_and_over_long_text_are_400s_naming_the_field(payload, field):
    owner = UserFactory()
    for name in ("evil-bot", "evil-two"):
        ActiveBotVersionFactory(bot=BotFactory(owner=owner, name=name))
    body = {
        "name": "Spring",
        "format": "round_robin",
        "seats": 2,
        "games_per_match": 2,
        "bots": ["evil-bot", "evil-two"],
        **payload,
    }
    response = api_for(owner).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()


def test_malformed_json_is_a_400_not_a_crash():
    response = api_for(UserFactory()).post(
        "/api/v1/tournaments/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert not Tournament.objects.exists()


def test_unknown_fields_cannot_set_what_the_server_decides():
    """Extra fields are ignored (DRF's default, kept so that clients may send more
    than a version of the API knows), and none of them reaches the database."""
    mallory, victim = UserFactory(), UserFactory()
    response = api_for(mallory).post(
        "/api/v1/bots/upload/",
        {
            "name": "sneaky",
            "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE),
            "owner": victim.pk,
            "status": "active",
            "is_example": "true",
            "number": 99,
            "elo": 3000,
        },
        format="multipart",
    )
    assert response.status_code == 201
    bot = Bot.objects.get(name="sneaky")
    assert bot.owner == mallory
    assert not bot.is_example
    version = bot.versions.get()
    assert (version.number, version.status) == (1, BotVersion.Status.PENDING)

    ActiveBotVersionFactory(bot=BotFactory(owner=mallory, name="sneaky-two"))
    BotVersion.objects.filter(bot=bot).update(status=BotVersion.Status.ACTIVE)
    created = api_for(mallory).post(
        "/api/v1/tournaments/",
        {
            "name": "Mine",
            "format": "round_robin",
            "seats": 2,
            "games_per_match": 2,
            "bots": ["sneaky", "sneaky-two"],
            "created_by": victim.pk,
            "state": "done",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    tournament = Tournament.objects.get()
    assert tournament.created_by == mallory
    assert tournament.state != Tournament.State.DONE


# `_` and `%` are LIKE's wildcards (one character, any run of them): a search that
# let them through would find names that hold neither. Bot names may hold `_` (and
# `-`) but never `%`, so these names tell a literal search from a wildcard one.
SEARCHED_NAMES = ["ab_cd", "AB_CD-2", "ab__cd", "abxcd", "ab-cd", "abcd", "plain"]
SEARCHES = [
    "b_c",  # literally in two names (either case); as a wildcard, in four
    "B_C",
    "_",
    "__",
    "%",  # in no name; as a wildcard, in every one
    "b%c",
    "a%d",
    "b\\_c",  # PostgreSQL's LIKE escapes with a backslash: raw, this is a literal b_c
    "\\",
    "' OR '1'='1",
    "ab_cd' --",
]


def literal_matches(query: str, names: list[str]) -> list[str]:
    """What a search must find: the names holding `query` as text, case aside."""
    return sorted(name for name in names if query.lower() in name.lower())


@pytest.fixture
def searcher(default_ladder):
    """The owner of bots named SEARCHED_NAMES, each rated in the default ladder."""
    owner = UserFactory(username="searcher")
    for elo, name in enumerate(SEARCHED_NAMES):
        bot = BotFactory(owner=owner, name=name)
        Rating.objects.create(
            bot=bot, competition=default_ladder, elo=1500.0 + elo, games=1, wins=1
        )
    return owner


def search_surfaces(owner, slug: str) -> dict[str, Callable[[str], list[str]]]:
    """Every place a visitor types part of a bot's name: what each finds for a query."""
    anonymous, mine, browser = APIClient(), api_for(owner), Client()

    def api(client: APIClient, url: str, params: dict[str, str], key: str) -> list[str]:
        response = client.get(url, params)
        assert response.status_code == 200, (url, params, response.content)
        return sorted(row[key] for row in response.json()["results"])

    def web_leaderboard(query: str) -> list[str]:
        response = browser.get(f"/leaderboard/{slug}/", {"q": query})
        assert response.status_code == 200, query
        return sorted(row.bot_name for row in response.context["rows"])

    return {
        "api bots": lambda q: api(anonymous, "/api/v1/bots/", {"search": q}, "name"),
        "api bots, mine": lambda q: api(
            mine, "/api/v1/bots/", {"mine": "true", "search": q}, "name"
        ),
        "api bots, by owner": lambda q: api(
            anonymous, "/api/v1/bots/", {"owner": owner.username, "search": q}, "name"
        ),
        "api leaderboard": lambda q: api(
            anonymous, f"/api/v1/competitions/{slug}/leaderboard/", {"search": q}, "bot"
        ),
        "web leaderboard": web_leaderboard,
    }


@pytest.mark.parametrize("query", SEARCHES)
def test_a_search_finds_its_text_literally_never_as_a_pattern(searcher, default_ladder, query):
    expected = literal_matches(query, SEARCHED_NAMES)
    for surface, search in search_surfaces(searcher, default_ladder.slug).items():
        assert search(query) == expected, (surface, query)
    assert Bot.objects.count() == len(SEARCHED_NAMES)  # SQL in a search is data


def test_the_searches_find_what_they_should(searcher, default_ladder):
    """The other half of the test above: a search that found nothing at all would pass it
    for most queries."""
    for surface, search in search_surfaces(searcher, default_ladder.slug).items():
        assert search("") == sorted(SEARCHED_NAMES), surface
        assert search("b_c") == ["AB_CD-2", "ab_cd"], surface
        assert search("AIN") == ["plain"], surface


def test_a_name_with_wildcards_names_only_the_bot_of_that_exact_name(searcher):
    opponent = ActiveBotVersionFactory(bot=BotFactory(owner=searcher, name="opponent"))
    match_of = {
        name: match_with_seats(
            [ActiveBotVersionFactory(bot=Bot.objects.get(name=name)), opponent]
        ).pk
        for name in SEARCHED_NAMES
    }
    client = APIClient()
    for name in SEARCHED_NAMES:
        found = client.get("/api/v1/matches/", {"bot": name})
        assert found.status_code == 200, name
        assert [match["id"] for match in found.json()["results"]] == [match_of[name]], name
        detail = client.get(f"/api/v1/bots/{quote(name)}/")
        assert detail.status_code == 200, name
        assert detail.json()["name"] == name
    # Each of these matches some name as a pattern, none as text.
    for name in ("ab%", "abxc_", "a%d", "_b_cd", "ab_c%"):
        assert client.get("/api/v1/matches/", {"bot": name}).status_code == 404, name
        assert client.get(f"/api/v1/bots/{quote(name)}/").status_code == 404, name
        assert Client().get(f"/bots/{quote(name)}/").status_code == 404, name


NUL_REQUESTS = [
    ("get", "/api/v1/bots/a%00b/"),
    ("get", "/bots/a%00b/"),
    ("get", "/api/v1/competitions/a%00/leaderboard/"),
    ("get", "/api/v1/competitions/korean-2/bots/a%00/history/"),
    ("get", "/leaderboard/?q=a%00"),
    ("get", "/api/v1/bots/?owner=a%00&search=%00"),
    ("get", "/api/v1/matches/?bot=a%00"),
    ("get", "/tournaments/?state=%00"),
]


@pytest.mark.parametrize(("method", "url"), NUL_REQUESTS)
def test_nul_bytes_anywhere_in_a_request_are_never_a_server_error(method, url):
    """PostgreSQL refuses NUL in text: every way in must stop it before a query."""
    BotFactory(name="alpha")
    response = getattr(APIClient(), method)(url)
    assert response.status_code < 500, (url, response.status_code)


def test_a_forged_session_cookie_is_no_session_rather_than_an_error():
    for forged in ("\x00", "a\x00" * 20, "../../etc/passwd", "x" * 5000, "'; DROP TABLE x"):
        client = APIClient()
        client.cookies["sessionid"] = forged
        for url in ("/api/v1/me/", "/my/bots/", "/"):
            response = client.get(url)
            assert response.status_code < 500, (forged, url, response.status_code)
        assert client.get("/api/v1/me/").status_code in (401, 403)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "x" * 101}, "name"),
        ({"name": "a\x00b"}, "name"),
        ({"seats": "many"}, "seats"),
        ({"seats": "99"}, "seats"),
        ({"games_per_match": "1e9"}, "games_per_match"),
        ({"rounds": "-1"}, "rounds"),
        ({"format": "<script>"}, "format"),
        ({"ruleset": "'; DROP TABLE tournaments_tournament; --"}, "ruleset"),
        ({"bots": ["not-a-number"]}, "bots"),
    ],
)
def test_the_tournament_form_refuses_bad_values_by_field_and_stores_nothing(changes, field):
    owner = UserFactory()
    bots = [ActiveBotVersionFactory(bot=BotFactory(owner=owner)).bot for _ in range(2)]
    form = {
        "name": "Spring",
        "format": "round_robin",
        "ruleset": "korean",
        "seats": "2",
        "games_per_match": "2",
        "rounds": "1",
        "bots": [bot.pk for bot in bots],
        **changes,
    }
    client = Client()
    client.force_login(owner)
    response = client.post("/tournaments/new/", form)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "b" * 41}, "name"),
        ({"name": "evil\u202eyddeg"}, "name"),
        ({"description": "d" * 501}, "description"),
        ({"description": "nul\x00byte"}, "description"),
    ],
)
def test_the_upload_form_refuses_bad_text_by_field_and_stores_nothing(changes, field):
    client = Client()
    client.force_login(UserFactory())
    response = client.post(
        "/my/bots/submit/",
        {"name": "fine-name", "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE), **changes},
    )
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
