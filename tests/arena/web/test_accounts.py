"""Sign up, log in, log out, password change and the profile with the API token."""

from __future__ import annotations

import shlex

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from arena.bots.models import BotVersion
from tests.arena.factories import DRAW_BOT_SOURCE

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-unusual-passphrase-42"


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("web:signup"),
        {"username": "carol", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("web:bot-submit")
    assert get_user_model().objects.filter(username="carol").exists()
    assert client.get(reverse("web:profile")).status_code == 200


def test_signup_shows_errors_next_to_the_field(client, alice):
    response = client.post(
        reverse("web:signup"),
        {"username": "alice", "password1": PASSWORD, "password2": "different"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_username_errors"' in html
    assert 'id="id_password2_errors"' in html
    assert get_user_model().objects.count() == 1


def test_signup_never_redirects_off_site(client):
    response = client.post(
        reverse("web:signup"),
        {
            "username": "dave",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == reverse("web:bot-submit")


def test_login_and_logout(client, alice):
    response = client.post(
        reverse("web:login"), {"username": "alice", "password": "correct-horse-battery"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("web:my-bots")
    # Logging out is a POST: a GET (an image tag on another site) does nothing.
    assert client.get(reverse("web:logout")).status_code == 405
    assert client.post(reverse("web:logout")).status_code == 302
    assert client.get(reverse("web:profile")).status_code == 302


def test_login_failure_says_so(client, alice):
    response = client.post(reverse("web:login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "errorlist nonfield" in response.content.decode()


def test_password_change(alice_client, alice):
    response = alice_client.post(
        reverse("web:password-change"),
        {
            "old_password": "correct-horse-battery",
            "new_password1": PASSWORD,
            "new_password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_profile_shows_the_token_and_the_curl_line(alice_client, alice):
    response = alice_client.get(reverse("web:profile"))
    token = Token.objects.get(user=alice).key
    html = response.content.decode()
    assert token in html
    assert f"Authorization: Token {token}" in html
    assert "curl" in html
    assert "upload=@my_bot.py" in html
    assert "http://testserver/api/v1/bots/upload/" in html
    assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]


def test_token_regenerate_replaces_the_key(alice_client, alice):
    alice_client.get(reverse("web:profile"))
    old = Token.objects.get(user=alice).key
    assert alice_client.get(reverse("web:token-regenerate")).status_code == 405
    assert alice_client.post(reverse("web:token-regenerate")).status_code == 302
    assert Token.objects.get(user=alice).key != old


def test_private_pages_need_a_login(client):
    for name in ("web:profile", "web:my-bots", "web:bot-submit", "web:password-change"):
        response = client.get(reverse(name))
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("web:login"))


def test_forms_refuse_a_post_without_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(reverse("web:token-regenerate")).status_code == 403
    anonymous = Client(enforce_csrf_checks=True)
    response = anonymous.post(
        reverse("web:signup"),
        {"username": "eve", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 403


def test_the_curl_line_really_uploads(alice_client, alice):
    """Do what the profile's curl line does, through the test client."""
    curl = alice_client.get(reverse("web:profile")).context["curl"]
    argv = shlex.split(curl)
    header = argv[argv.index("-H") + 1]
    fields = dict(arg.split("=", 1) for i, arg in enumerate(argv) if argv[i - 1] == "-F")
    url = argv[-1].removeprefix("http://testserver")
    response = Client().post(
        url,
        {
            "name": fields["name"],
            "upload": SimpleUploadedFile("my_bot.py", DRAW_BOT_SOURCE),
        },
        headers={"Authorization": header.split(": ", 1)[1]},
    )
    assert response.status_code == 201, response.content
    assert BotVersion.objects.get(bot__name="my-bot").bot.owner == alice


def test_pages_that_only_read_refuse_other_methods(alice_client):
    for name in ("web:home", "web:leaderboard", "web:tournament-list", "web:profile"):
        assert alice_client.put(reverse(name)).status_code == 405, name
        assert alice_client.head(reverse(name)).status_code == 200, name
