"""Notification pages: the list behind the bell, and the profile's settings forms.

Everything here is the logged-in user's own: the selectors filter by the user.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from arena.notifications import selectors, services
from arena.notifications.models import Kind

PROFILE_SECTION = "notifications-heading"


@require_safe
@never_cache
@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    notifications = list(selectors.notification_list(user=request.user))
    return render(
        request,
        "web/notifications/list.html",
        {
            "nav": "notifications",
            "notifications": notifications,
            "unread": sum(1 for notification in notifications if notification.read_at is None),
        },
    )


@require_POST
@login_required
def notifications_read_all(request: HttpRequest) -> HttpResponse:
    marked = services.notifications_mark_read(user=request.user)
    messages.success(request, f"Marked {marked} notification{'s' if marked != 1 else ''} read.")
    return redirect("web:notifications")


@require_POST
@login_required
def notification_preferences_save(request: HttpRequest) -> HttpResponse:
    # A checkbox that is not ticked is not sent: every kind is set from the form.
    preferences = {
        kind.value: {
            "email": f"email-{kind.value}" in request.POST,
            "webhook": f"webhook-{kind.value}" in request.POST,
        }
        for kind in Kind
    }
    services.notification_preferences_update(user=request.user, preferences=preferences)
    messages.success(request, "Your notification choices are saved.")
    return redirect(reverse("web:profile") + "#" + PROFILE_SECTION)


@require_POST
@never_cache
@login_required
def webhook_save(request: HttpRequest) -> HttpResponse:
    try:
        webhook, secret = services.webhook_set(
            user=request.user, url=request.POST.get("url", "")[:5000]
        )
    except ValidationError as error:
        for message in error.message_dict.get("url", error.messages):
            messages.error(request, f"Webhook not saved: {message}")
        return redirect(reverse("web:profile") + "#" + PROFILE_SECTION)
    # Rendered, not redirected: the secret must not travel through the session or
    # a message cookie, and this page is the only time it is shown.
    response = render(
        request,
        "web/notifications/webhook_secret.html",
        {"nav": "profile", "webhook": webhook, "secret": secret},
    )
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@login_required
def webhook_remove(request: HttpRequest) -> HttpResponse:
    if services.webhook_remove(user=request.user):
        messages.success(request, "Your webhook is removed.")
    return redirect(reverse("web:profile") + "#" + PROFILE_SECTION)
