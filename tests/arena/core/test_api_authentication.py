"""The API says how to authenticate: 401 with `WWW-Authenticate: Token` for a
missing or wrong token, never a bare 403."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.arena.factories import UserFactory

pytestmark = pytest.mark.django_db


def with_token(key: str | None) -> APIClient:
    client = APIClient()
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", "/api/v1/me/"), ("post", "/api/v1/bots/upload/"), ("get", "/api/v1/versions/1/")],
)
def test_a_missing_token_is_a_401_with_the_challenge(method, url):
    response = getattr(with_token(None), method)(url)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_a_wrong_token_is_a_401_with_the_challenge_even_where_reading_is_free():
    for url in ("/api/v1/me/", "/api/v1/bots/"):
        response = with_token("0" * 40).get(url)
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Token"


def test_a_good_token_and_a_session_both_still_authenticate():
    user = UserFactory(username="carol")
    assert with_token(Token.objects.create(user=user).key).get("/api/v1/me/").status_code == 200
    session = APIClient()
    session.force_login(user)
    assert session.get("/api/v1/me/").json()["username"] == "carol"
