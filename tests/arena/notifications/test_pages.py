"""The bell, the notifications page and the profile's settings."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from arena.notifications.models import Kind, Notification, Preference, Webhook
from arena.notifications.services import notification_send
from tests.arena.factories import UserFactory

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def tell(user, title, url="/matches/7/") -> None:
    notification_send(user_ids=[user.pk], kind=Kind.CHALLENGE_PLAYED, title=title, url=url)


def test_the_bell_shows_the_unread_count_to_its_user_only(client):
    alice, bob = UserFactory(), UserFactory()
    tell(alice, "one")
    tell(alice, "two")
    html = logged_in(alice).get(reverse("web:leaderboard")).content.decode()
    assert 'id="notification-bell"' in html
    assert 'id="notification-count">2<' in html
    bobs = logged_in(bob).get(reverse("web:leaderboard")).content.decode()
    assert 'id="notification-bell"' in bobs
    assert 'id="notification-count"' not in bobs
    assert 'id="notification-bell"' not in client.get(reverse("web:leaderboard")).content.decode()


def test_the_page_lists_ones_own_newest_first_with_links():
    alice, bob = UserFactory(), UserFactory()
    tell(alice, "older challenge", "/matches/1/")
    tell(alice, "newer challenge", "/matches/2/")
    tell(bob, "bob's challenge")
    html = logged_in(alice).get(reverse("web:notifications")).content.decode()
    assert html.index("newer challenge") < html.index("older challenge")
    assert '<a href="/matches/2/"><strong>newer challenge' in html
    assert "bob&#x27;s challenge" not in html
    assert "bob's challenge" not in html


def test_the_page_needs_a_login(client):
    response = client.get(reverse("web:notifications"))
    assert response.status_code == 302
    assert reverse("web:login") in response["Location"]


def test_mark_all_read_is_a_post_with_csrf():
    alice = UserFactory()
    tell(alice, "hello")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(reverse("web:notifications-read-all")).status_code == 403
    assert strict.get(reverse("web:notifications-read-all")).status_code == 405
    assert Notification.objects.get().read_at is None

    page = strict.get(reverse("web:notifications"))
    token = page.cookies["csrftoken"].value
    response = strict.post(reverse("web:notifications-read-all"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Notification.objects.get().read_at is not None
    html = strict.get(reverse("web:notifications")).content.decode()
    assert 'id="notification-count"' not in html


def test_profile_saves_preferences_from_the_checkboxes():
    alice = UserFactory()
    client = logged_in(alice)
    html = client.get(reverse("web:profile")).content.decode()
    assert 'id="notification-preferences"' in html
    checked = set(re.findall(r'name="([a-z_-]+)"[^>]* checked>', html))
    assert "email-version_failed" in checked  # email on by default
    assert "email-challenge_played" not in checked  # but not for challenges
    ticked = {f"webhook-{kind}": "on" for kind in Kind.values}
    ticked["email-version_qualified"] = "on"
    client.post(reverse("web:notification-preferences"), ticked)
    choices = {row.kind: row.email for row in Preference.objects.filter(user=alice)}
    assert choices[Kind.VERSION_QUALIFIED] is True
    assert choices[Kind.VERSION_FAILED] is False


def test_saving_a_webhook_shows_the_secret_once_and_refuses_bad_urls():
    alice = UserFactory()
    client = logged_in(alice)
    response = client.post(reverse("web:webhook-save"), {"url": "https://example.org/hook"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    secret = Webhook.objects.get(user=alice).secret
    assert secret in response.content.decode()
    profile = client.get(reverse("web:profile")).content.decode()
    assert "https://example.org/hook" in profile
    assert secret not in profile

    refused = client.post(reverse("web:webhook-save"), {"url": "javascript:alert(1)"}, follow=True)
    assert "Webhook not saved: Only http and https URLs" in refused.content.decode()
    assert Webhook.objects.get(user=alice).secret == secret
