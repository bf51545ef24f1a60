"""Writes of notifications: sending, delivering, reading, preferences, webhooks.

`notification_send` runs inside the caller's transaction (a match result, a
qualification verdict, a tournament's end) and does only what must be atomic with
it: the in-site rows. Everything that leaves the site happens after the commit, in
tasks on their own queue (`ARENA_NOTIFICATIONS_QUEUE`): `dispatch` reads the
preferences and creates the deliveries, `deliver` makes one attempt at a time and
is queued again with exponential back-off until it succeeds or runs out of
attempts (`ARENA_DELIVERY_MAX_ATTEMPTS`), which marks it failed with the reason.
No network call ever runs inside a transaction.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from arena.core.queueing import task_queue_on_commit

from . import webhooks
from .models import EMAIL_BY_DEFAULT, Delivery, Kind, Notification, Preference, Webhook

logger = logging.getLogger(__name__)

DISPATCH_TASK = "arena.notifications.dispatch"
DELIVER_TASK = "arena.notifications.deliver"
RETRY_DELAY_MAX_SECONDS = 1800


def notification_send(
    *,
    user_ids: Iterable[int | None],
    kind: Kind | str,
    title: str,
    body: str = "",
    url: str = "",
    payload: dict[str, Any] | None = None,
) -> list[Notification]:
    """Tell each of these (active) users about an event: an in-site row each, written
    in the caller's transaction; emails and webhook calls are queued on its commit.
    `None` and repeated ids are skipped, so a caller can pass `match.created_by_id`
    beside a bot's owner without checking. `url` is a path on this site.

    Accounts nobody can log in as are skipped: nobody would read their bell (the
    platform's own account, which owns the example bots; the deleted bots' owner)."""
    kind = Kind(kind)
    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return []
    users = (
        get_user_model()
        .objects.filter(pk__in=wanted, is_active=True)
        .exclude(password__startswith=UNUSABLE_PASSWORD_PREFIX)
    )
    rows = Notification.objects.bulk_create(
        Notification(
            user_id=user_id,
            kind=kind,
            title=title[:200],
            body=body,
            url=url[:300],
            payload=payload or {},
        )
        for user_id in sorted(users.values_list("pk", flat=True))
    )
    for row in rows:
        task_queue_on_commit(DISPATCH_TASK, row.pk)
    return rows


def notification_dispatch(*, notification_id: int) -> list[Delivery]:
    """Create the notification's deliveries its user asked for and queue each.
    Locks the notification; a second run (a duplicate message) creates nothing."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update()
            .select_related("user")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None or notification.deliveries.exists():
            return []
        user = notification.user
        preference = Preference.objects.filter(user_id=user.pk, kind=notification.kind).first()
        email = preference.email if preference else EMAIL_BY_DEFAULT[Kind(notification.kind)]
        webhook = preference.webhook if preference else True
        channels = []
        if email and user.email and user.is_active:
            channels.append(Delivery.Channel.EMAIL)
        if webhook and Webhook.objects.filter(user_id=user.pk).exists():
            channels.append(Delivery.Channel.WEBHOOK)
        deliveries = Delivery.objects.bulk_create(
            Delivery(notification=notification, channel=channel) for channel in channels
        )
        for delivery in deliveries:
            task_queue_on_commit(DELIVER_TASK, delivery.pk)
    return deliveries


def delivery_retry_delay(*, attempts: int) -> int:
    """Seconds before the next attempt after `attempts` failed ones: doubling from
    ARENA_DELIVERY_RETRY_SECONDS, at most half an hour.

    >>> from django.conf import settings
    >>> [delivery_retry_delay(attempts=n) for n in (1, 2, 3)] == [
    ...     settings.ARENA_DELIVERY_RETRY_SECONDS * f for f in (1, 2, 4)]
    True
    """
    delay = settings.ARENA_DELIVERY_RETRY_SECONDS * 2 ** (attempts - 1)
    return min(delay, RETRY_DELAY_MAX_SECONDS)


class _Undeliverable(Exception):
    """An attempt that no retry can help (the webhook or the address is gone)."""


def delivery_attempt(*, delivery_id: int) -> int | None:
    """One attempt at a pending delivery. Returns the seconds to wait before the next
    attempt, or None when there is none: delivered, failed for good (out of attempts,
    or undeliverable), or not pending (a duplicate message).

    The attempt is counted in a short transaction before the network call, and the
    outcome written in another after it: no row stays locked while a remote server
    takes its time, and a worker that dies mid-call has used up that attempt."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update()
            .select_related("notification__user")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.state != Delivery.State.PENDING:
            return None
        delivery.attempts += 1
        delivery.save(update_fields=["attempts"])
    try:
        if delivery.channel == Delivery.Channel.EMAIL:
            _email_send(delivery.notification)
        else:
            _webhook_send(delivery)
    except _Undeliverable as error:
        _delivery_finish(delivery, state=Delivery.State.FAILED, error=str(error))
        return None
    except Exception as error:  # any failure of the far side is retried, a bounded number of times
        logger.info("delivery %s attempt %s failed: %s", delivery.pk, delivery.attempts, error)
        reason = str(error) or type(error).__name__
        if delivery.attempts >= settings.ARENA_DELIVERY_MAX_ATTEMPTS:
            _delivery_finish(
                delivery,
                state=Delivery.State.FAILED,
                error=f"Gave up after {delivery.attempts} attempts. Last: {reason}",
            )
            return None
        Delivery.objects.filter(pk=delivery.pk).update(error=reason[:500])
        return delivery_retry_delay(attempts=delivery.attempts)
    _delivery_finish(delivery, state=Delivery.State.DELIVERED, error="")
    return None


def _delivery_finish(delivery: Delivery, *, state: str, error: str) -> None:
    Delivery.objects.filter(pk=delivery.pk, state=Delivery.State.PENDING).update(
        state=state, error=error[:500], finished_at=timezone.now()
    )


def _absolute(path: str) -> str:
    return settings.ARENA_SITE_URL.rstrip("/") + path if path else ""


def _email_send(notification: Notification) -> None:
    user = notification.user
    if not user.email or not user.is_active:
        raise _Undeliverable("The account has no email address.")
    subject = " ".join(f"OneCard Arena: {notification.title}".split())  # no header injection
    lines = [notification.title, ""]
    if notification.body:
        lines += [notification.body, ""]
    if notification.url:
        lines += [_absolute(notification.url), ""]
    lines.append(f"Choose what you are told by email: {_absolute('/accounts/profile/')}")
    send_mail(subject, "\n".join(lines), None, [user.email], fail_silently=False)


def webhook_body(notification: Notification) -> bytes:
    """The JSON event a webhook receives (the same for every attempt)."""
    event = {
        "id": notification.pk,
        "kind": notification.kind,
        "title": notification.title,
        "body": notification.body,
        "url": _absolute(notification.url),
        "created_at": notification.created_at.isoformat(),
        "payload": notification.payload,
    }
    return json.dumps(event, sort_keys=True, separators=(",", ":")).encode()


def _webhook_send(delivery: Delivery) -> None:
    webhook = Webhook.objects.filter(user_id=delivery.notification.user_id).first()
    if webhook is None:
        raise _Undeliverable("The webhook was removed.")
    if not settings.ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        webhooks.webhook_host_check(webhook.url)
    body = webhook_body(delivery.notification)
    timestamp = int(time.time())  # signed afresh for each attempt: a retry is not a replay
    webhooks.webhook_post(
        url=webhook.url,
        body=body,
        headers={
            "Content-Type": "application/json",
            "User-Agent": "OneCard-Arena-Webhook/1",
            "X-OneCard-Event": delivery.notification.kind,
            "X-OneCard-Delivery": str(delivery.pk),
            webhooks.TIMESTAMP_HEADER: str(timestamp),
            webhooks.SIGNATURE_HEADER: webhooks.webhook_sign(
                secret=webhook.secret, timestamp=timestamp, body=body
            ),
        },
        timeout=settings.ARENA_WEBHOOK_TIMEOUT_SECONDS,
    )


def notifications_mark_read(*, user: Any) -> int:
    """Mark every unread notification of the user read; returns how many."""
    return Notification.objects.filter(user_id=user.pk, read_at__isnull=True).update(
        read_at=timezone.now()
    )


def notification_preferences_update(*, user: Any, preferences: dict[str, dict[str, bool]]) -> None:
    """Set the email and webhook choices of the kinds given (others stay)."""
    unknown = sorted(set(preferences) - set(Kind.values))
    if unknown:
        raise ValidationError({"preferences": f"Unknown kinds: {', '.join(unknown)}."})
    with transaction.atomic():
        for kind, choice in sorted(preferences.items()):
            defaults = {"email": EMAIL_BY_DEFAULT[Kind(kind)], "webhook": True}
            defaults.update(
                {key: bool(choice[key]) for key in ("email", "webhook") if key in choice}
            )
            Preference.objects.update_or_create(user_id=user.pk, kind=kind, defaults=defaults)


def webhook_set(*, user: Any, url: str) -> tuple[Webhook, str]:
    """Point the user's webhook at `url` with a new secret; returns the webhook and
    the secret, which the caller shows once. A refused URL raises ValidationError."""
    try:
        url = webhooks.webhook_url_check(
            url, allow_private=settings.ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES
        )
    except webhooks.WebhookUrlError as error:
        raise ValidationError({"url": str(error)}) from None
    secret = "whsec_" + secrets.token_urlsafe(32)
    webhook, _ = Webhook.objects.update_or_create(
        user_id=user.pk, defaults={"url": url, "secret": secret}
    )
    return webhook, secret


def webhook_remove(*, user: Any) -> bool:
    """Remove the user's webhook; pending deliveries to it then fail, saying so."""
    deleted, _ = Webhook.objects.filter(user_id=user.pk).delete()
    return bool(deleted)
