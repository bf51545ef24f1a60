"""A worker container's health check: this host's Celery worker answers, and its
sandbox can run uploaded bots (engine, bot image, OCI runtime).

Exit status 0 when healthy, else 1 with the reason on stderr, which `docker
inspect` shows in the container's health log.
"""

from __future__ import annotations

import socket

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from arena.core.health import sandbox_problem


class Command(BaseCommand):
    help = "Exit 0 when this host's Celery worker answers and its sandbox can run bots."

    def add_arguments(self, parser):
        parser.add_argument("--node", default=f"worker@{socket.gethostname()}")
        parser.add_argument("--timeout", type=float, default=5.0)

    def handle(self, *args, node: str, timeout: float, **options):
        problem = sandbox_problem(
            backend=settings.ARENA_SANDBOX_BACKEND,
            image=settings.ARENA_SANDBOX_IMAGE,
            runtime=settings.ARENA_SANDBOX_RUNTIME,
        )
        if problem is not None:
            raise CommandError(f"the sandbox cannot run uploaded bots: {problem}")
        if not current_app.control.ping(destination=[node], timeout=timeout):
            raise CommandError(f"Celery worker {node} did not answer within {timeout:g} s")
        self.stdout.write(f"{node} answers; sandbox ok")
