"""What a user is told, how they want to be told, and each delivery's outcome.

The app sits just above `arena.core`: it knows users, not bots or matches. The
apps above it describe their own events (title, body, a link, a JSON payload) and
call `services.notification_send` inside their own transactions.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    VERSION_QUALIFIED = "version_qualified", "A version qualified"
    VERSION_FAILED = "version_failed", "A version failed qualification"
    VERSION_OFF_LADDER = "version_off_ladder", "A version was taken off the ladder"
    PROMOTION_DECIDED = "promotion_decided", "A promotion test was decided"
    TOURNAMENT_FINISHED = "tournament_finished", "A tournament finished"
    CHALLENGE_PLAYED = "challenge_played", "A challenge was played"


# Email is on by default for every kind but challenges: anyone may challenge a
# bot up to ARENA_CHALLENGES_PER_DAY times a day, and a popular bot's owner should
# not have to opt out of a stream of mail they never asked for.
EMAIL_BY_DEFAULT = {kind: kind != Kind.CHALLENGE_PLAYED for kind in Kind}


class Notification(models.Model):
    """One event told to one user; shown under the bell whatever the preferences."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    # A path on this site (`/my/versions/3/`); emails and webhooks prefix ARENA_SITE_URL.
    url = models.CharField(max_length=300, blank=True)
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at", "-id"], name="notification_user_newest"),
            # The bell's count on every page: only the unread rows are indexed.
            models.Index(
                fields=["user"],
                condition=models.Q(read_at__isnull=True),
                name="notification_user_unread",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}: {self.title}"


class Preference(models.Model):
    """A user's choice for one kind; a kind without a row uses the defaults
    (`EMAIL_BY_DEFAULT`, webhook on). In-site notifications are always on: the bell
    is the record of what happened to one's bots."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    email = models.BooleanField(default=True)
    webhook = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notification_preference_unique")
        ]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}"


class Webhook(models.Model):
    """A user's endpoint for JSON events signed with HMAC-SHA256.

    Decision: the secret is stored as it is. The site needs it to sign every
    delivery, so a one-way hash is impossible; encrypting it with a key from the
    same settings would only protect a database dump that leaks without them.
    What it guards is the receiver's trust that an event came from this site, and
    the events carry nothing a reader of the database could not read anyway. It is
    shown once, when made, and never again: not in the API, the pages or the admin.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_webhook"
    )
    url = models.CharField(max_length=500)
    secret = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"webhook of user {self.user_id}"


class Delivery(models.Model):
    """One notification sent over one channel: its attempts and outcome."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        WEBHOOK = "webhook", "Webhook"

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.channel} delivery of notification {self.notification_id}: {self.state}"
