"""The current user and API tokens; session and token authentication both work."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.arena.factories import ActiveBotVersionFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # the factories' password


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    cache.clear()


def test_me_requires_login():
    assert APIClient().get("/api/v1/me/").status_code in (401, 403)


def test_me_with_a_session(client):
    version = ActiveBotVersionFactory(bot__name="mine")
    client.force_login(version.bot.owner)
    body = client.get("/api/v1/me/").json()
    assert body["username"] == version.bot.owner.username
    assert body["bots"] == ["mine"]
    assert body["challenges_left_today"] > 0
    assert "password" not in body


def test_token_obtain_then_use_then_revoke():
    user = UserFactory()
    anonymous = APIClient()
    wrong = anonymous.post("/api/v1/auth/token/", {"username": user.username, "password": "x"})
    assert wrong.status_code in (401, 403)
    response = anonymous.post(
        "/api/v1/auth/token/", {"username": user.username, "password": PASSWORD}
    )
    assert response.status_code == 200
    token = response.json()["token"]

    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert scripted.get("/api/v1/me/").json()["username"] == user.username
    assert scripted.post("/api/v1/auth/token/revoke/").status_code == 204
    assert scripted.get("/api/v1/me/").status_code in (401, 403)


def test_schema_is_served_and_docs_need_no_cdn(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/bots/upload/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"cdn.jsdelivr" not in docs.content
    assert b"unpkg.com" not in docs.content
