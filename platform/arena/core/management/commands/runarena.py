"""`make run`: migrate, prepare the example bots, then run web + worker + beat."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand

from arena.core.processes import arena_children, supervise
from arena.settings.env import REPO_ROOT, VAR_DIR

# Commands other apps may provide to make a fresh site useful at once (for example,
# registering the example bots so that a ladder starts playing). Run when present.
BOOTSTRAP_COMMANDS = ("arena_bootstrap",)


class Command(BaseCommand):
    help = "Run the site, the Celery workers and Celery beat together until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("ARENA_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("ARENA_PORT", "8000")))
        parser.add_argument("--concurrency", type=int, default=2)

    def handle(self, *args, host: str, port: int, concurrency: int, **options):
        for folder in ("celery/broker", "celery/processed", "celery/results", "media"):
            (VAR_DIR / folder).mkdir(parents=True, exist_ok=True)
        call_command("migrate", interactive=False, verbosity=1)
        available = get_commands()
        for name in BOOTSTRAP_COMMANDS:
            if name in available:
                call_command(name)
        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS(f"\nOneCard Arena is starting at {url}"))
        self.stdout.write(f"Database: {settings.DATABASES['default']['NAME']}")
        self.stdout.write(f"Broker:   {settings.CELERY_BROKER_URL}")
        self.stdout.write("Press Ctrl-C to stop.\n")
        children = arena_children(
            host=host,
            port=port,
            concurrency=concurrency,
            var_dir=VAR_DIR,
            analysis_queue=settings.ARENA_ANALYSIS_QUEUE,
            tables_queue=settings.ARENA_TABLES_QUEUE,
        )
        code = supervise(children, cwd=REPO_ROOT, announce=self.stdout.write)
        if code:
            raise SystemExit(code)
