"""A worker container's health check: this host's Celery worker answers, and its
sandbox can run uploaded bots (engine, bot image, OCI runtime). A worker that runs
no bots (the analyses') is checked with `--without-sandbox`: it has none.

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
        parser.add_argument(
            "--name",
            default="worker",
            help="the worker's name before its @ (its --hostname=NAME@%%h)",
        )
        parser.add_argument("--node", help="the whole node name (default: NAME@this host)")
        parser.add_argument("--timeout", type=float, default=5.0)
        parser.add_argument(
            "--without-sandbox",
            action="store_true",
            help="for a worker that runs no uploaded bots: check only that it answers",
        )

    def handle(
        self,
        *args,
        name: str,
        node: str | None,
        timeout: float,
        without_sandbox: bool,
        **options,
    ):
        node = node or f"{name}@{socket.gethostname()}"
        if not without_sandbox:
            problem = sandbox_problem(
                backend=settings.ARENA_SANDBOX_BACKEND,
                image=settings.ARENA_SANDBOX_IMAGE,
                runtime=settings.ARENA_SANDBOX_RUNTIME,
            )
            if problem is not None:
                raise CommandError(f"the sandbox cannot run uploaded bots: {problem}")
        if not current_app.control.ping(destination=[node], timeout=timeout):
            raise CommandError(f"Celery worker {node} did not answer within {timeout:g} s")
        self.stdout.write(f"{node} answers" + ("" if without_sandbox else "; sandbox ok"))
