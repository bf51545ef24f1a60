"""Make a fresh site useful at once: register the example bots under a system user.

Run by `make run` after migrating. Idempotent: an example whose current code is
already stored is left alone (its qualification re-queued if it never finished);
changed example code becomes a new version. The worker qualifies them, and the
ladder starts playing as soon as two are active.
"""

from __future__ import annotations

import hashlib

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand
from django.db import transaction

from arena.bots.models import Bot, BotVersion
from arena.bots.services import bot_version_upload
from arena.play.qualification import bot_version_qualify
from arena.play.sandboxing import EXAMPLES_DIR
from arena.play.tasks import qualify_version

SYSTEM_USERNAME = "arena"
EXAMPLES = {
    "random": "Plays a random legal card (or draws). The ladder's baseline.",
    "greedy": "Plays whenever it can, biggest attack card first.",
    "heuristic": "Keeps its defences, saves jokers, names its longest suit.",
    "search": "Plays every move out on deals consistent with what it saw: the bar to beat.",
}


class Command(BaseCommand):
    help = "Register the example bots (random, greedy, heuristic, search) under the system user."

    def add_arguments(self, parser):
        parser.add_argument(
            "--now",
            action="store_true",
            help="Qualify in this process instead of queueing it for a worker.",
        )

    def handle(self, *args, now: bool = False, **options):
        system_user = self._system_user()
        for name, description in EXAMPLES.items():
            version = self._register(system_user, name, description)
            if version is None or version.status not in (
                BotVersion.Status.PENDING,
                BotVersion.Status.QUALIFYING,
            ):
                continue
            if now:
                bot_version_qualify(version_id=version.pk)
            else:
                qualify_version.delay(version.pk)
        self.stdout.write(self.style.SUCCESS("Example bots registered."))

    def _system_user(self):
        user, created = get_user_model().objects.get_or_create(
            username=SYSTEM_USERNAME, defaults={"is_active": True}
        )
        if created:
            user.set_unusable_password()  # nobody logs in as the platform itself
            user.save(update_fields=["password"])
        return user

    def _register(self, user, name: str, description: str) -> BotVersion | None:
        path = EXAMPLES_DIR / f"{name}_bot.py"
        source = path.read_bytes()
        digest = hashlib.sha256(source).hexdigest()
        bot = Bot.objects.filter(name=name).first()
        if bot is not None and bot.owner_id != user.pk:
            self.stderr.write(f"A user already owns a bot named {name!r}; example skipped.")
            return None
        if bot is not None:
            existing = bot.versions.filter(sha256=digest).order_by("-number").first()
            if existing is not None:
                return existing
        try:
            with transaction.atomic():
                version = bot_version_upload(
                    user=user,
                    name=name,
                    upload=SimpleUploadedFile(path.name, source),
                    description=description,
                    queue_qualification=False,  # handle() queues or qualifies it
                )
                Bot.objects.filter(pk=version.bot_id).update(is_example=True)
        except ValidationError as error:
            self.stderr.write(f"Example {name!r} refused: {error}")
            return None
        self.stdout.write(f"Registered {name} v{version.number}.")
        return version
