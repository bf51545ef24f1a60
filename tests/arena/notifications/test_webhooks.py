"""Webhooks: refused URLs, the signature a receiver checks, a receiver that is down."""

from __future__ import annotations

import doctest
import hashlib
import hmac
import json
import time

import pytest
from django.core.exceptions import ValidationError

from arena.notifications import services, webhooks
from arena.notifications.models import Delivery, Kind, Notification, Webhook
from arena.notifications.services import delivery_attempt, notification_send, webhook_set
from arena.notifications.tasks import deliver
from tests.arena.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_doctests():
    assert doctest.testmod(webhooks).failed == 0
    assert doctest.testmod(services).failed == 0


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("file:///etc/passwd", "Only http and https"),
        ("javascript:alert(1)", "Only http and https"),
        ("ftp://example.org/", "Only http and https"),
        ("https://example.org/" + "a" * 500, "longer than 500"),
        ("https://exämple.org/hook", "printable ASCII"),
        ("https://example.org/\u202ehook", "printable ASCII"),
        ("https://example.org/a b", "spaces"),
        ("https://user:pw@example.org/", "user name or password"),
        ("https://example.org:99999/", "malformed"),
        ("https:///path-only", "no host"),
        ("https://example.org/#frag", "fragment"),
        ("", "Enter a URL"),
    ],
)
def test_hostile_urls_are_refused_with_a_reason(url, says):
    with pytest.raises(ValidationError) as refused:
        webhook_set(user=UserFactory(), url=url)
    assert says in refused.value.message_dict["url"][0]
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/",
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://2130706433/",  # 127.0.0.1 to the resolver
        "http://0x7f.1/",
        "http://localhost:6379/",
        "http://api.localhost/",
        "http://0.0.0.0/",
    ],
)
def test_production_refuses_private_addresses(settings, url):
    settings.ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(ValidationError) as refused:
        webhook_set(user=UserFactory(), url=url)
    assert "address" in refused.value.message_dict["url"][0] or "localhost" in str(refused.value)


def test_public_urls_are_accepted_and_a_new_secret_each_time(settings):
    settings.ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    user = UserFactory()
    webhook, first = webhook_set(user=user, url=" https://hooks.example.org/onecard ")
    assert webhook.url == "https://hooks.example.org/onecard"
    _, second = webhook_set(user=user, url="http://93.184.216.34:8080/x?y=1")
    assert first.startswith("whsec_")
    assert len(first) > 40
    assert first != second
    assert Webhook.objects.get(user=user).secret == second


def _event_for(user, *, kind=Kind.VERSION_FAILED) -> Delivery:
    """A notification whose one webhook delivery is pending (dispatch done by hand)."""
    [notification] = notification_send(
        user_ids=[user.pk], kind=kind, title="bot v2 failed qualification", body="illegal move"
    )
    return Delivery.objects.create(notification=notification, channel=Delivery.Channel.WEBHOOK)


def test_a_delivery_is_signed_the_way_a_receiver_checks_it(receiver):
    receiver.start()
    user = UserFactory()
    _, secret = webhook_set(user=user, url=receiver.url)
    delivery = _event_for(user)

    assert delivery_attempt(delivery_id=delivery.pk) is None

    [(headers, body)] = receiver.requests
    # What a receiver does: recompute the HMAC over timestamp + "." + raw body.
    timestamp = headers["X-Onecard-Timestamp"]
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    assert hmac.compare_digest(headers["X-Onecard-Signature"], "sha256=" + expected.hexdigest())
    assert abs(int(timestamp) - time.time()) < 60
    # A replayed body under another timestamp does not verify.
    replayed = hmac.new(secret.encode(), b"1." + body, hashlib.sha256).hexdigest()
    assert headers["X-Onecard-Signature"] != "sha256=" + replayed
    event = json.loads(body)
    assert event["kind"] == "version_failed"
    assert event["body"] == "illegal move"
    assert event["id"] == delivery.notification_id
    assert headers["X-Onecard-Event"] == "version_failed"
    assert headers["Content-Type"] == "application/json"
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.error) == ("delivered", 1, "")


def test_a_receiver_that_is_down_then_up_gets_it_on_a_retry(receiver, monkeypatch):
    user = UserFactory()
    webhook_set(user=user, url=receiver.url)
    delivery = _event_for(user)

    # Down: connection refused; the next attempt is due after the first back-off.
    assert delivery_attempt(delivery_id=delivery.pk) == 30
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts) == ("pending", 1)
    assert "refused" in delivery.error.lower()
    assert receiver.requests == []

    receiver.start()
    countdowns = _spy_on_retries(monkeypatch)
    deliver.apply(args=[delivery.pk]).get()  # the retried message
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.error) == ("delivered", 2, "")
    assert len(receiver.requests) == 1
    assert countdowns == []


def _spy_on_retries(monkeypatch) -> list[int]:
    countdowns: list[int] = []
    retry = deliver.retry

    def spy(*args, countdown=None, **kwargs):
        countdowns.append(countdown)
        return retry(*args, countdown=countdown, **kwargs)

    monkeypatch.setattr(deliver, "retry", spy)
    return countdowns


def test_a_receiver_that_stays_down_fails_after_the_bounded_retries(
    receiver, settings, monkeypatch
):
    settings.ARENA_DELIVERY_MAX_ATTEMPTS = 4
    user = UserFactory()
    webhook_set(user=user, url=receiver.url)
    delivery = _event_for(user)
    countdowns = _spy_on_retries(monkeypatch)

    deliver.apply(args=[delivery.pk]).get()  # eager: the retries run at once

    delivery.refresh_from_db()
    assert delivery.state == "failed"
    assert delivery.attempts == 4
    assert countdowns == [30, 60, 120]  # doubling back-off between the 4 attempts
    assert delivery.error.startswith("Gave up after 4 attempts.")
    assert "refused" in delivery.error.lower()
    assert delivery.finished_at is not None
    assert delivery_attempt(delivery_id=delivery.pk) is None  # finished: no more


def test_an_error_status_is_retried_and_a_redirect_is_not_followed(receiver):
    receiver.start()
    user = UserFactory()
    webhook_set(user=user, url=receiver.url)
    receiver.status = 302
    receiver.headers = {"Location": "http://169.254.169.254/latest/"}
    delivery = _event_for(user)
    assert delivery_attempt(delivery_id=delivery.pk) == 30
    delivery.refresh_from_db()
    assert "302, a redirect (not followed)" in delivery.error
    assert len(receiver.requests) == 1

    receiver.status = 500
    assert delivery_attempt(delivery_id=delivery.pk) == 60
    delivery.refresh_from_db()
    assert "answered 500" in delivery.error


def test_a_name_resolving_to_a_private_address_is_refused_before_connecting(receiver, settings):
    receiver.start()
    user = UserFactory()
    # Saved while allowed (or while the name pointed elsewhere), delivered in production.
    Webhook.objects.create(user=user, url=f"http://localhost:{receiver.port}/", secret="s")
    settings.ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    delivery = _event_for(user)
    assert delivery_attempt(delivery_id=delivery.pk) == 30
    delivery.refresh_from_db()
    assert "private or reserved address" in delivery.error
    assert receiver.requests == []


def test_a_removed_webhook_fails_its_pending_deliveries_at_once(receiver):
    user = UserFactory()
    webhook_set(user=user, url=receiver.url)
    delivery = _event_for(user)
    services.webhook_remove(user=user)
    assert delivery_attempt(delivery_id=delivery.pk) is None
    delivery.refresh_from_db()
    assert (delivery.state, delivery.error) == ("failed", "The webhook was removed.")
    assert Notification.objects.filter(user=user).count() == 1
