"""Reads of notifications, preferences and webhooks: always one user's own.

Every selector takes the user and filters by it; one that returns a single row
raises Http404 for a row of someone else, so a stranger learns nothing, not even
that it exists.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from .models import EMAIL_BY_DEFAULT, Delivery, Kind, Notification, Preference, Webhook

RECENT_LIMIT = 50


def notification_list(*, user: Any, limit: int = RECENT_LIMIT) -> QuerySet[Notification]:
    """The user's notifications, newest first."""
    return Notification.objects.filter(user_id=user.pk).order_by("-created_at", "-id")[:limit]


def notification_get(*, user: Any, pk: int) -> Notification:
    notification = Notification.objects.filter(user_id=user.pk, pk=pk).first()
    if notification is None:
        raise Http404("No such notification.")
    return notification


def notification_unread_count(*, user: Any) -> int:
    """What the bell shows: one COUNT over the partial index of unread rows."""
    return Notification.objects.filter(user_id=user.pk, read_at__isnull=True).count()


def notification_preferences(*, user: Any) -> dict[str, dict[str, bool]]:
    """Per kind, whether the user gets an email and a webhook call (in-site: always)."""
    chosen = {
        row.kind: row
        for row in Preference.objects.filter(user_id=user.pk).only("kind", "email", "webhook")
    }
    preferences: dict[str, dict[str, bool]] = {}
    for kind in Kind:
        row = chosen.get(kind.value)
        preferences[kind.value] = {
            "email": row.email if row else EMAIL_BY_DEFAULT[kind],
            "webhook": row.webhook if row else True,
        }
    return preferences


def webhook_get(*, user: Any) -> Webhook | None:
    return Webhook.objects.filter(user_id=user.pk).defer("secret").first()


def delivery_list(*, user: Any, limit: int = 20) -> QuerySet[Delivery]:
    """The user's latest deliveries (both channels), with their notifications."""
    return (
        Delivery.objects.filter(notification__user_id=user.pk)
        .select_related("notification")
        .order_by("-created_at", "-id")[:limit]
    )
