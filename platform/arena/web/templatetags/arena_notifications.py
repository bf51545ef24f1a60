"""The bell in the navigation and the profile's notification settings."""

from __future__ import annotations

from typing import Any

from django import template

from arena.notifications import selectors
from arena.notifications.models import Kind

register = template.Library()


@register.inclusion_tag("web/includes/notification_bell.html", takes_context=True)
def notification_bell(context: template.Context) -> dict[str, Any]:
    """The unread count is rendered with the page (one COUNT on an index): no
    visitor's browser asks for it again and again."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {
        "show": True,
        "unread": selectors.notification_unread_count(user=user),
        "current": context.get("nav") == "notifications",
    }


@register.inclusion_tag("web/includes/notification_settings.html", takes_context=True)
def notification_settings(context: template.Context) -> dict[str, Any]:
    user = context["user"]
    preferences = selectors.notification_preferences(user=user)
    return {
        "csrf_token": context.get("csrf_token"),
        "user": user,
        "kinds": [(kind.value, kind.label, preferences[kind.value]) for kind in Kind],
        "webhook": selectors.webhook_get(user=user),
        "deliveries": list(selectors.delivery_list(user=user, limit=10)),
    }
