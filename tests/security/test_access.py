"""Who may see and do what: private pages, owners' actions, CSRF on every form,
both API authentications, throttles and password rules.

Existing tests cover parts of this for one app each (listed in
docs/reliability.md); these sweep every route, so a page added later without its
check fails here.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from arena.bots.models import BotVersion
from arena.tournaments.models import Tournament
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotFactory,
    BotVersionFactory,
    StaffFactory,
    UserFactory,
)
from tests.arena.web.games import played_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def bob():
    return UserFactory(username="bob")


def logged_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


# --- private things of another user answer 404 -----------------------------------------


def test_another_users_private_pages_code_and_stderr_answer_404(alice, bob):
    version = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    private_pages = [
        f"/my/versions/{version.pk}/",
        f"/my/versions/{version.pk}/status.json",
        f"/my/versions/{version.pk}/code/",
    ]
    private_api = [f"/api/v1/versions/{version.pk}/code/"]
    for url in private_pages:
        assert logged_in(alice).get(url).status_code == 200, url
        assert logged_in(bob).get(url).status_code == 404, url
        # Anonymous visitors are sent to log in, and learn nothing either.
        assert Client().get(url).status_code in (302, 404), url
    for url in private_api:
        owner = APIClient()
        owner.force_authenticate(alice)
        stranger = APIClient()
        stranger.force_authenticate(bob)
        assert owner.get(url).status_code == 200
        assert stranger.get(url).status_code == 404
        assert APIClient().get(url).status_code in (401, 403, 404)
    # Versions never exposed the source or the diagnostics in the public API.
    public = APIClient().get(f"/api/v1/versions/{version.pk}/")
    if public.status_code == 200:
        assert DRAW_BOT_SOURCE.decode()[:20] not in public.content.decode()


def test_replays_keep_each_bots_stderr_for_its_owner(alice, bob):
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs"))
    match = played_match([mine, theirs], games=1)
    game = match.games.get()
    # real_game_log writes "secret thoughts of seat N" into each seat's stderr.
    seat_of = {index: game.seating.index(index) for index in (0, 1)}
    for client, own, other in ((logged_in(alice), 0, 1), (logged_in(bob), 1, 0)):
        for url in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/log.json"):
            body = client.get(url).content.decode()
            assert f"secret thoughts of seat {seat_of[own]}" in body, url
            assert f"secret thoughts of seat {seat_of[other]}" not in body, url
    anonymous = Client().get(f"/games/{game.pk}/log.json").content.decode()
    assert "secret thoughts" not in anonymous


# --- only the owner (or staff) activates or retires ------------------------------------


@pytest.mark.parametrize("action", ["activate", "retire"])
def test_only_the_owner_or_staff_changes_a_version(alice, bob, action):
    bot = BotFactory(owner=alice, name="alices")
    version = ActiveBotVersionFactory(bot=bot)
    if action == "activate":
        # An older, retired version that its owner could bring back.
        version.status = BotVersion.Status.RETIRED
        version.save()
        ActiveBotVersionFactory(bot=bot)
    before = BotVersion.objects.get(pk=version.pk).status

    assert logged_in(bob).post(f"/my/versions/{version.pk}/{action}/").status_code == 404
    stranger = APIClient()
    stranger.force_authenticate(bob)
    assert stranger.post(f"/api/v1/versions/{version.pk}/{action}/").status_code in (403, 404)
    assert APIClient().post(f"/api/v1/versions/{version.pk}/{action}/").status_code in (401, 403)
    assert BotVersion.objects.get(pk=version.pk).status == before

    staff = APIClient()
    staff.force_authenticate(StaffFactory())
    assert staff.post(f"/api/v1/versions/{version.pk}/{action}/").status_code == 200
    assert BotVersion.objects.get(pk=version.pk).status != before


def test_tournament_entry_only_with_ones_own_bots_or_by_staff(alice, bob):
    ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    bobs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs")).bot
    other = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs-two")).bot
    form = {
        "name": "Mine",
        "format": "round_robin",
        "ruleset": "korean",
        "seats": 2,
        "games_per_match": 2,
        "rounds": 1,
        "bots": [bobs.pk, other.pk],
    }
    # Alice posts Bob's bots to the web form, whose choices offer only her own.
    response = logged_in(alice).post("/tournaments/new/", form)
    assert response.status_code == 200
    assert "bots" in response.context["form"].errors
    api = APIClient()
    api.force_authenticate(alice)
    body = {**form, "bots": ["bobs", "bobs-two"]}
    assert api.post("/api/v1/tournaments/", body, format="json").status_code in (400, 403)
    assert not Tournament.objects.exists()
    staff = APIClient()
    staff.force_authenticate(StaffFactory())
    assert staff.post("/api/v1/tournaments/", body, format="json").status_code == 201


# --- CSRF on every form -----------------------------------------------------------------


def web_routes() -> list[str]:
    """Every route of the site outside the API and the admin, with ids filled in."""
    routes: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                routes.append(prefix + str(pattern.pattern))

    walk(get_resolver().url_patterns, "")
    return [r for r in routes if not r.startswith(("api/", "admin/"))]


def filled(route: str, ids: dict[str, str]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: ids[m.group(1)], route)


def test_every_post_on_the_site_needs_the_csrf_token(alice):
    version = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    other = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices-two"))
    match = played_match([version, other], games=1)
    ids = {
        "pk": str(version.pk),
        "name": "alices",
        "slug": "korean-2",
        "match": str(match.pk),
    }
    checked = 0
    for route in web_routes():
        if "<" in route and not all(key in ids for key in re.findall(r"<(?:\w+:)?(\w+)>", route)):
            continue
        url = filled(route, ids).replace("\\", "")
        for client in (logged_in(alice, csrf=True), Client(enforce_csrf_checks=True)):
            response = client.post(url, {"name": "x"})
            # Refused before any view code runs: 403 (or 405 for a GET-only page).
            assert response.status_code in (403, 405), (url, response.status_code)
        checked += 1
    assert checked >= 15, checked
    # The same posts with the token get through CSRF (the form pages are real forms).
    client = logged_in(alice, csrf=True)
    token = client.get("/my/bots/").cookies["csrftoken"].value
    response = client.post(f"/my/versions/{version.pk}/retire/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_login_and_logout_need_the_csrf_token_too(alice):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct-horse-battery"}
    )
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session
    assert logged_in(alice, csrf=True).post("/accounts/logout/").status_code == 403


# --- the API: token and session both enforced -----------------------------------------


def test_api_writes_need_a_valid_token_or_a_session_with_csrf(alice):
    url = "/api/v1/bots/upload/"

    def upload(client: APIClient):
        return client.post(
            url,
            {"name": "via-api", "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE)},
            format="multipart",
        )

    # 401 with the token's challenge (the token is the first authentication).
    assert upload(APIClient()).status_code == 401
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert upload(forged).status_code == 401
    revoked_key = Token.objects.create(user=alice).key
    Token.objects.filter(key=revoked_key).delete()
    revoked = APIClient()
    revoked.credentials(HTTP_AUTHORIZATION=f"Token {revoked_key}")
    assert upload(revoked).status_code == 401
    assert not BotVersion.objects.exists()

    # A session without the CSRF token is refused: a page elsewhere cannot post for us.
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(alice)
    assert upload(session).status_code == 403
    session.get("/my/bots/")  # sets the CSRF cookie for this session
    cookie = session.cookies["csrftoken"].value
    session.credentials(HTTP_X_CSRFTOKEN=cookie)
    assert upload(session).status_code == 201

    # A token needs no CSRF token: it is never sent by a browser on its own.
    bearer = APIClient(enforce_csrf_checks=True)
    bearer.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    assert upload(bearer).status_code == 201
    me = bearer.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "alice"


# --- throttles --------------------------------------------------------------------------


def test_web_uploads_count_against_the_same_throttle_as_the_api(alice, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"uploads": "3/hour"})
    web = logged_in(alice)
    api = APIClient()
    api.force_authenticate(alice)

    def via_web():
        return web.post(
            "/my/bots/submit/",
            {"name": "busy", "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE)},
        ).status_code

    def via_api():
        return api.post(
            "/api/v1/bots/upload/",
            {"name": "busy", "upload": SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE)},
            format="multipart",
        ).status_code

    assert [via_web(), via_api(), via_web()] == [302, 201, 302]
    assert via_web() == 429
    assert via_api() == 429
    assert BotVersion.objects.filter(bot__name="busy").count() == 3


def test_sign_up_is_throttled_per_address(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"signup": "2/hour"})

    def sign_up(username: str, address: str = "203.0.113.7") -> int:
        # A new X-Forwarded-For each time must not pass for a new visitor.
        spoofed = f"10.0.0.{len(username)}"
        return (
            Client(REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=spoofed)
            .post(
                "/accounts/signup/",
                {
                    "username": username,
                    "password1": "Unusual-pass-4242",
                    "password2": "Unusual-pass-4242",
                },
            )
            .status_code
        )

    assert [sign_up("first"), sign_up("second")] == [302, 302]
    assert sign_up("third") == 429
    assert sign_up("fourth", address="198.51.100.9") == 302  # another address is not held up
    names = set(get_user_model().objects.values_list("username", flat=True))
    assert names == {"first", "second", "fourth"}


# --- passwords ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1!", "too short"),
        ("password123", "too common"),
        ("83920174629", "entirely numeric"),
        ("carol-the-user", "too similar"),
    ],
)
def test_weak_passwords_are_refused_at_sign_up_and_change(password, why, alice):
    response = Client().post(
        "/accounts/signup/",
        {"username": "carol-the-user", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert why in str(response.context["form"].errors).lower()
    assert not get_user_model().objects.filter(username="carol-the-user").exists()

    if why == "too similar":
        return  # similar to carol's name, not to alice's
    client = logged_in(alice)
    client.post(
        "/accounts/password/",
        {
            "old_password": "correct-horse-battery",
            "new_password1": password,
            "new_password2": password,
        },
    )
    alice.refresh_from_db()
    assert alice.check_password("correct-horse-battery")


def test_versions_of_others_cannot_be_fetched_by_guessing_ids(alice, bob):
    """Every id below the newest answers 404 to a stranger, never 403: a 403 would
    tell that the version exists."""
    versions = [BotVersionFactory(bot=BotFactory(owner=alice)) for _ in range(3)]
    client = logged_in(bob)
    for version in versions:
        for suffix in ("", "status.json", "code/"):
            assert client.get(f"/my/versions/{version.pk}/{suffix}").status_code == 404
    assert client.get(f"/my/versions/{versions[-1].pk + 1000}/").status_code == 404
