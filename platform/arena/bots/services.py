"""Writes on bots and versions: upload, activate, retire, take off the ladder, delete.

Lock order: a Bot row before any of its BotVersion rows (the whole platform's
order is in `arena.play.leases`). Every lock on a Bot or BotVersion row is
FOR NO KEY UPDATE: these writes never change keys, and a plain FOR UPDATE would also
block the foreign-key checks of a new match's seats, a deadlock with matchmaking.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.urls import reverse
from django.utils import timezone

from arena.core.queueing import task_queue_on_commit
from arena.notifications.models import Kind as NotificationKind
from arena.notifications.services import notification_send

from . import sql
from .models import Bot, BotVersion
from .uploads import InspectedUpload, UploadLimits, UploadRejected, inspect_upload

User = AbstractBaseUser | AnonymousUser

logger = logging.getLogger(__name__)

# Carried out by arena.play (above this app), queued by name.
QUALIFY_VERSION_TASK = "arena.bots.qualify_version"

# A version pending this long has lost its message (or the sandbox was down).
QUALIFICATION_REQUEUE_AFTER = timedelta(minutes=5)

BOT_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,39}")
# Words that URLs use beside bot names (/bots/upload/, /bots/new/).
RESERVED_NAMES = frozenset({"upload", "new", "create", "edit", "me", "mine"})
# A deleted bot is renamed `deleted-bot-<id>`; nobody else may take such a name.
DELETED_NAME_PREFIX = "deleted-bot-"
# The account that holds deleted bots. Parentheses are outside Django's username
# characters, so nobody can sign up with this name.
DELETED_BOTS_OWNER = "(deleted)"


def upload_limits() -> UploadLimits:
    return UploadLimits(
        max_bytes=settings.ARENA_MAX_UPLOAD_BYTES,
        max_files=settings.ARENA_MAX_ZIP_FILES,
        max_unpacked_bytes=settings.ARENA_MAX_UNPACKED_BYTES,
        max_ratio=settings.ARENA_MAX_ZIP_RATIO,
    )


def user_may_manage(*, user: User, bot: Bot) -> bool:
    return bool(user.is_authenticated and (user.is_staff or bot.owner_id == user.pk))


def _read_bounded(upload: UploadedFile, limit: int) -> bytes:
    """At most limit + 1 bytes: enough to tell that an upload is too large."""
    if upload.size is not None and upload.size > limit:
        raise UploadRejected(f"The file is {upload.size} bytes; the limit is {limit} bytes.")
    upload.seek(0)
    chunks: list[bytes] = []
    total = 0
    for chunk in upload.chunks():
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            break
    return b"".join(chunks)


def _check_name(*, user: User, name: str) -> Bot | None:
    """The user's existing bot of that name, None for a free name, or ValidationError."""
    if not BOT_NAME_PATTERN.fullmatch(name or ""):
        raise ValidationError(
            {
                "name": [
                    "2 to 40 characters: letters, digits, '-' and '_', "
                    "starting with a letter or digit."
                ]
            }
        )
    if name.lower() in RESERVED_NAMES or name.lower().startswith(DELETED_NAME_PREFIX):
        raise ValidationError({"name": [f"The name {name!r} is reserved."]})
    # Case-insensitive, so that nobody can pass as "Greedy" next to "greedy".
    existing = Bot.objects.filter(name__iexact=name).first()
    if existing is None:
        return None
    if existing.owner_id != user.pk or existing.name != name:
        raise ValidationError({"name": [f"The name {name!r} is taken."]})
    return existing


def bot_version_upload(
    *,
    user: User,
    name: str,
    upload: UploadedFile,
    description: str = "",
    queue_qualification: bool = True,
) -> BotVersion:
    """Store a new version of the user's bot `name` (created if new) and queue its
    qualification once the transaction commits (unless the caller qualifies it
    itself). On any error nothing is stored and ValidationError says which field
    is wrong."""
    if not user.is_authenticated:
        raise PermissionDenied("Log in to upload a bot.")
    name = (name or "").strip()
    description = (description or "").strip()
    if len(description) > 500:
        raise ValidationError({"description": ["At most 500 characters."]})
    _check_name(user=user, name=name)
    limits = upload_limits()
    try:
        data = _read_bounded(upload, limits.max_bytes)
        inspected = inspect_upload(data=data, filename=upload.name or "", limits=limits)
    except UploadRejected as error:
        raise ValidationError({"upload": [str(error)]}) from None
    try:
        return _store_version(
            user=user,
            name=name,
            description=description,
            data=data,
            inspected=inspected,
            original_filename=(upload.name or "")[:255],
            queue_qualification=queue_qualification,
        )
    except IntegrityError:
        # Someone else took the name between the check and the insert.
        raise ValidationError({"name": [f"The name {name!r} is taken."]}) from None


def _store_version(
    *,
    user: User,
    name: str,
    description: str,
    data: bytes,
    inspected: InspectedUpload,
    original_filename: str,
    queue_qualification: bool,
) -> BotVersion:
    stored_name: str | None = None
    version: BotVersion | None = None
    try:
        with transaction.atomic():
            bot = _check_name(user=user, name=name)
            if bot is None:
                _check_bot_quota(user=user)
                bot = Bot.objects.create(owner=user, name=name, description=description)
            else:
                bot = Bot.objects.select_for_update(no_key=True).get(pk=bot.pk)
                if description and description != bot.description:
                    bot.description = description
                    bot.save(update_fields=["description"])
            last = bot.versions.aggregate(last=Max("number"))["last"] or 0
            version = BotVersion(
                bot=bot,
                number=last + 1,
                kind=inspected.kind,
                sha256=inspected.sha256,
                size=inspected.size,
                original_filename=original_filename,
            )
            version.code.save("upload", ContentFile(data), save=False)
            stored_name = version.code.name
            version.save()
            version_id = version.pk
            if queue_qualification:
                task_queue_on_commit(QUALIFY_VERSION_TASK, version_id)
    except BaseException:
        # The row is gone with the rollback; do not leave its file behind.
        if stored_name and version is not None:
            version.code.storage.delete(stored_name)
        raise
    return version


def _check_bot_quota(*, user: User) -> None:
    """Expects a transaction. Locks the user's row so that simultaneous uploads of
    new bots cannot overrun the quota."""
    if user.is_staff:
        return
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    limit = settings.ARENA_MAX_BOTS_PER_USER
    if Bot.objects.filter(owner_id=user.pk).count() >= limit:
        raise ValidationError(
            {
                "name": [
                    f"You have {limit} bots, the most one account may have: upload a new "
                    "version of one of them instead."
                ]
            }
        )


def bot_version_activate(*, user: User, version: BotVersion) -> BotVersion:
    """Make a qualified version the bot's active one (the previous active retires)."""
    if not user_may_manage(user=user, bot=version.bot):
        raise PermissionDenied("Only the bot's owner can activate its versions.")
    with transaction.atomic():
        Bot.objects.select_for_update(no_key=True).get(pk=version.bot_id)
        version = BotVersion.objects.select_for_update(no_key=True).get(pk=version.pk)
        if version.status == BotVersion.Status.ACTIVE:
            return version
        if version.qualified_at is None or version.status not in (
            BotVersion.Status.RETIRED,
            BotVersion.Status.FAILED,
            BotVersion.Status.TESTING,
        ):
            raise ValidationError(
                {"status": ["Only a version that passed qualification can be activated."]}
            )
        _make_active(version)
    return version


def bot_version_retire(*, user: User, version: BotVersion) -> BotVersion:
    """Retire a version; if it was active, the bot leaves the ladder until another
    version is activated or uploaded."""
    if not user_may_manage(user=user, bot=version.bot):
        raise PermissionDenied("Only the bot's owner can retire its versions.")
    with transaction.atomic():
        Bot.objects.select_for_update(no_key=True).get(pk=version.bot_id)
        version = BotVersion.objects.select_for_update(no_key=True).get(pk=version.pk)
        if version.status in (BotVersion.Status.PENDING, BotVersion.Status.QUALIFYING):
            raise ValidationError({"status": ["Wait until the version's qualification ends."]})
        if version.status != BotVersion.Status.RETIRED:
            # A failed version keeps why it failed: its owner still needs to know.
            failure = version.status_reason if version.status == BotVersion.Status.FAILED else ""
            version.status = BotVersion.Status.RETIRED
            version.status_reason = f"Retired by its owner. {failure}".strip()
            version.save(update_fields=["status", "status_reason"])
    return version


def bot_delete(*, user: User, bot: Bot) -> Bot:
    """Delete a bot for its owner (or staff): its code goes, its games stay.

    Other bots' matches, ratings and tournaments refer to the bot, so its row stays
    as a tombstone: renamed `deleted-bot-<id>` (its name is free again), its
    description and uploaded file names cleared, handed to the DELETED_BOTS_OWNER
    account (off its owner's list and quota; no public page names the owner), and
    every version retired, which takes it off the ladder and out of matchmaking.
    The stored code files are deleted once the transaction commits. Locks the bot,
    then its versions. Deleting a deleted bot changes nothing.
    """
    if not user_may_manage(user=user, bot=bot):
        raise PermissionDenied("Only the bot's owner can delete it.")
    if bot.is_example:
        raise ValidationError(
            {"bot": ["An example bot is part of the platform: retire its version instead."]}
        )
    with transaction.atomic():
        bot = Bot.objects.select_for_update(no_key=True).get(pk=bot.pk)
        if bot.is_deleted:
            return bot
        versions = list(
            BotVersion.objects.select_for_update(no_key=True).filter(bot=bot).order_by("pk")
        )
        stored = [version.code.name for version in versions if version.code]
        BotVersion.objects.filter(bot=bot).update(
            status=BotVersion.Status.RETIRED,
            status_reason="Deleted with its bot.",
            code="",
            original_filename="",
        )
        bot.name = f"{DELETED_NAME_PREFIX}{bot.pk}"
        bot.description = ""
        bot.owner = _deleted_bots_owner()
        bot.deleted_at = timezone.now()
        bot.save(update_fields=["name", "description", "owner", "deleted_at"])
        transaction.on_commit(lambda: _delete_stored_code(stored))
    return bot


def _deleted_bots_owner() -> AbstractBaseUser:
    owner, created = get_user_model().objects.get_or_create(
        username=DELETED_BOTS_OWNER, defaults={"is_active": False}
    )
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    return owner


def _delete_stored_code(names: list[str]) -> None:
    storage = BotVersion._meta.get_field("code").storage
    for name in names:
        try:
            storage.delete(name)
        except OSError:
            # The rows no longer point at the file: it is an orphan, not a leak of
            # anything reachable. Say so and go on with the others.
            logger.exception("could not delete the stored code %s of a deleted bot", name)


def _make_active(version: BotVersion) -> None:
    """Expects the bot's row to be locked by the caller. The version it replaces
    says by which: "Replaced by v3", or "Replaced by v1 (rolled back)"."""
    replaced = (
        BotVersion.objects.filter(bot_id=version.bot_id, status=BotVersion.Status.ACTIVE)
        .exclude(pk=version.pk)
        .first()
    )
    if replaced is not None:
        rolled_back = " (rolled back)" if version.number < replaced.number else ""
        # Still conditional: a match result may take it off the ladder meanwhile
        # (bot_versions_faults_record does not lock the bot).
        BotVersion.objects.filter(pk=replaced.pk, status=BotVersion.Status.ACTIVE).update(
            status=BotVersion.Status.RETIRED,
            status_reason=f"Replaced by v{version.number}{rolled_back}",
        )
    version.status = BotVersion.Status.ACTIVE
    version.status_reason = ""
    version.consecutive_faulted_matches = 0
    version.save(update_fields=["status", "status_reason", "consecutive_faulted_matches"])


def bot_version_qualification_finish(
    *, version_id: int, passed: bool, reason: str, report: dict[str, object]
) -> BotVersion | None:
    """Record a qualification outcome. Locks the bot, then the version, and ignores a
    version that is no longer qualifying (retired meanwhile, or a duplicate run)."""
    with transaction.atomic():
        bot_id = BotVersion.objects.filter(pk=version_id).values_list("bot_id", flat=True).first()
        if bot_id is None:
            return None
        Bot.objects.select_for_update(no_key=True).get(pk=bot_id)
        version = BotVersion.objects.select_for_update(no_key=True).get(pk=version_id)
        if version.status != BotVersion.Status.QUALIFYING:
            return version
        version.qualification = report
        if passed:
            version.qualified_at = timezone.now()
            version.save(update_fields=["qualification", "qualified_at"])
            if BotVersion.objects.filter(bot_id=bot_id, status=BotVersion.Status.ACTIVE).exists():
                # The bot plays on with its active version until the promotion test
                # between the two decides (arena.matches.promotions).
                version.status = BotVersion.Status.TESTING
                version.status_reason = ""
                version.save(update_fields=["status", "status_reason"])
            else:
                _make_active(version)
        else:
            version.status = BotVersion.Status.FAILED
            version.status_reason = reason
            version.save(update_fields=["qualification", "status", "status_reason"])
        notification_send(
            user_ids=[version.bot.owner_id],
            kind=NotificationKind.VERSION_QUALIFIED if passed else NotificationKind.VERSION_FAILED,
            title=f"{version.bot.name} v{version.number} "
            + ("qualified" if passed else "failed qualification"),
            body=version.status_reason or f"Now: {version.get_status_display()}.",
            url=reverse("web:version-detail", args=[version.pk]),
            payload={"version_id": version.pk, "bot": version.bot.name, "status": version.status},
        )
    return version


def bot_version_promotion_settle(*, candidate_id: int, promoted: bool, reason: str) -> None:
    """A promotion test's verdict on a version that is still testing: it becomes the
    bot's active version (the active one is retired, saying why), or it is retired
    with the reason and the active version stays. Locks the bot, then the version."""
    with transaction.atomic():
        bot_id = BotVersion.objects.filter(pk=candidate_id).values_list("bot_id", flat=True).first()
        if bot_id is None:
            return
        Bot.objects.select_for_update(no_key=True).get(pk=bot_id)
        version = BotVersion.objects.select_for_update(no_key=True).get(pk=candidate_id)
        if version.status != BotVersion.Status.TESTING:
            return
        if promoted:
            _make_active(version)  # the test's figures stay on its Promotion row
        else:
            version.status = BotVersion.Status.RETIRED
            version.status_reason = reason
            version.save(update_fields=["status", "status_reason"])


QUALIFICATION_MAX_ATTEMPTS = 3
# A run older than this is dead (the task's hard time limit is shorter).
QUALIFICATION_RUN_TIMEOUT = timedelta(minutes=12)


def bot_version_qualification_start(*, version_id: int) -> BotVersion | None:
    """Move a pending version to qualifying and count the attempt; None if there is
    nothing to do: the version is gone, decided, or being qualified by a live run.
    A version whose earlier runs never finished fails after a few attempts."""
    now = timezone.now()
    with transaction.atomic():
        version = (
            BotVersion.objects.select_for_update(no_key=True)
            .select_related("bot")
            .filter(pk=version_id)
            .first()
        )
        if version is None:
            return None
        if version.status == BotVersion.Status.QUALIFYING:
            started = version.qualification_started_at
            if started is not None and started > now - QUALIFICATION_RUN_TIMEOUT:
                return None  # a duplicate message while a live run holds it
        elif version.status != BotVersion.Status.PENDING:
            return None
        if version.qualification_attempts >= QUALIFICATION_MAX_ATTEMPTS:
            version.status = BotVersion.Status.FAILED
            version.status_reason = (
                f"Qualification did not finish in {version.qualification_attempts} attempts."
            )
            version.save(update_fields=["status", "status_reason"])
            return None
        version.status = BotVersion.Status.QUALIFYING
        version.qualification_attempts += 1
        version.qualification_started_at = now
        version.save(update_fields=["status", "qualification_attempts", "qualification_started_at"])
    return version


def bot_versions_stale_for_qualification(*, now: datetime | None = None) -> list[int]:
    """Versions whose qualification message was lost or whose run died, to be sent
    again. A pending version is returned once per QUALIFICATION_REQUEUE_AFTER (its
    `qualification_requeued_at` moves on), so a long queue does not fill with
    duplicates of it."""
    now = now or timezone.now()
    cutoff = now - QUALIFICATION_REQUEUE_AFTER
    with transaction.atomic():
        stale = list(
            BotVersion.objects.select_for_update(skip_locked=True, no_key=True)
            .filter(
                Q(
                    status=BotVersion.Status.PENDING,
                    created_at__lt=cutoff,
                    qualification_requeued_at__isnull=True,
                )
                | Q(status=BotVersion.Status.PENDING, qualification_requeued_at__lt=cutoff)
                | Q(
                    status=BotVersion.Status.QUALIFYING,
                    qualification_started_at__lt=now - QUALIFICATION_RUN_TIMEOUT,
                )
            )
            .order_by("pk")
            .values_list("pk", flat=True)[:100]
        )
        BotVersion.objects.filter(pk__in=stale, status=BotVersion.Status.PENDING).update(
            qualification_requeued_at=now
        )
    return stale


def bot_version_qualification_postpone(*, version_id: int, reason: str) -> None:
    """The sandbox could not run (not the bot's fault): back to pending, and the
    attempt does not count, so that a retry or the stale sweep tries again later."""
    BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.QUALIFYING).update(
        status=BotVersion.Status.PENDING,
        status_reason=f"Qualification postponed: {reason}"[:2000],
        qualification_attempts=F("qualification_attempts") - 1,
    )


# How the reason of a version taken off the ladder by its fault streak begins: a
# streak that turns out to be a broken worker's doing puts it back (arena.play.workers).
OFF_LADDER_REASON = "Taken off the ladder: "


def bot_versions_faults_record(*, faults_by_version: dict[int, list[str]]) -> list[int]:
    """Update each version's run of faulted matches after one match; a version that
    reaches ARENA_FAULT_STREAK_LIMIT is taken off the ladder. Returns those ids.

    `faults_by_version` maps each version that played to the fault reasons it had
    in the match (empty: a clean match). Runs in the match result's transaction,
    after the Match row is locked (the lock order of arena.play.leases).
    """
    if not faults_by_version:
        return []
    changed = sql.fault_streaks_update(
        played=sorted(faults_by_version),
        faulted=sorted(pk for pk, reasons in faults_by_version.items() if reasons),
    )
    limit = settings.ARENA_FAULT_STREAK_LIMIT
    removed: list[int] = []
    for pk, streak_length, status in sorted(changed):
        if faults_by_version[pk] and streak_length >= limit and status == BotVersion.Status.ACTIVE:
            reasons = ", ".join(sorted(set(faults_by_version[pk])))
            BotVersion.objects.filter(pk=pk).update(
                status=BotVersion.Status.FAILED,
                status_reason=(
                    f"{OFF_LADDER_REASON}its last {streak_length} matches all had "
                    f"faults (latest: {reasons}). "
                    "Upload a fixed version, or activate this one again to retry."
                ),
            )
            removed.append(pk)
    if not removed:
        # Nearly every match: an empty `pk__in` sends no query, but building and
        # compiling the queryset still cost 0.5 ms of CPU on every recorded match.
        return removed
    for version in BotVersion.objects.filter(pk__in=removed).select_related("bot"):
        notification_send(
            user_ids=[version.bot.owner_id],
            kind=NotificationKind.VERSION_OFF_LADDER,
            title=f"{version.bot.name} v{version.number} was taken off the ladder",
            body=version.status_reason,
            url=reverse("web:version-detail", args=[version.pk]),
            payload={"version_id": version.pk, "bot": version.bot.name, "status": version.status},
        )
    return removed
