"""The notifications API: one's own rows only, preferences, the webhook's secret once."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena.notifications.models import Kind, Notification, Webhook
from arena.notifications.services import notification_send
from tests.arena.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def tell(user, title="t") -> Notification:
    [notification] = notification_send(
        user_ids=[user.pk], kind=Kind.TOURNAMENT_FINISHED, title=title, url="/tournaments/1/"
    )
    return notification


def test_the_list_is_ones_own_newest_first_with_the_unread_count():
    alice, bob = UserFactory(), UserFactory()
    tell(alice, "first")
    tell(alice, "second")
    tell(bob, "bob's")
    response = client_for(alice).get("/api/v1/notifications/")
    assert response.status_code == 200
    assert response.json()["unread"] == 2
    assert [row["title"] for row in response.json()["results"]] == ["second", "first"]


def test_another_users_notification_is_a_404():
    alice, bob = UserFactory(), UserFactory()
    notification = tell(alice)
    assert client_for(alice).get(f"/api/v1/notifications/{notification.pk}/").status_code == 200
    assert client_for(bob).get(f"/api/v1/notifications/{notification.pk}/").status_code == 404
    assert client_for().get(f"/api/v1/notifications/{notification.pk}/").status_code == 401


def test_read_all_marks_only_ones_own():
    alice, bob = UserFactory(), UserFactory()
    tell(alice)
    theirs = tell(bob)
    response = client_for(alice).post("/api/v1/notifications/read-all/")
    assert response.json() == {"marked": 1}
    assert client_for(alice).get("/api/v1/notifications/").json()["unread"] == 0
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_preferences_have_defaults_and_are_replaced_by_put():
    user = UserFactory()
    client = client_for(user)
    preferences = client.get("/api/v1/notifications/preferences/").json()["preferences"]
    assert set(preferences) == set(Kind.values)
    assert preferences["version_failed"] == {"email": True, "webhook": True}
    assert preferences["challenge_played"] == {"email": False, "webhook": True}

    response = client.put(
        "/api/v1/notifications/preferences/",
        {"preferences": {"version_failed": {"email": False}}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["preferences"]["version_failed"] == {"email": False, "webhook": True}
    other = client_for(UserFactory()).get("/api/v1/notifications/preferences/").json()
    assert other["preferences"]["version_failed"]["email"] is True

    refused = client.put(
        "/api/v1/notifications/preferences/",
        {"preferences": {"weather": {"email": True}}},
        format="json",
    )
    assert refused.status_code == 400
    assert "Unknown kinds: weather" in str(refused.json())


def test_the_webhook_secret_is_shown_once():
    user = UserFactory()
    client = client_for(user)
    response = client.post(
        "/api/v1/notifications/webhook/set/", {"url": "https://example.org/h"}, format="json"
    )
    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    secret = response.json()["secret"]
    assert secret == Webhook.objects.get(user=user).secret

    shown = client.get("/api/v1/notifications/webhook/")
    assert shown.json()["url"] == "https://example.org/h"
    assert secret not in shown.content.decode()
    assert client_for(UserFactory()).get("/api/v1/notifications/webhook/").json()["url"] is None

    assert client.post("/api/v1/notifications/webhook/remove/").status_code == 204
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd", "x" * 3000])
def test_hostile_webhook_urls_are_a_400_with_the_reason(url):
    response = client_for(UserFactory()).post(
        "/api/v1/notifications/webhook/set/", {"url": url}, format="json"
    )
    assert response.status_code == 400
    assert "url" in response.json()
    assert not Webhook.objects.exists()


def test_anonymous_users_get_401():
    assert client_for().get("/api/v1/notifications/").status_code == 401
    assert client_for().get("/api/v1/notifications/preferences/").status_code == 401
