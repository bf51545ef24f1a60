"""Infrastructure tasks: a probe that proves a worker is alive and sane."""

import platform
import sys

from celery import shared_task
from django.db import connection


def _database_session() -> str:
    """Which database session this process uses (PostgreSQL's backend pid)."""
    if connection.vendor != "postgresql":
        return connection.vendor
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return f"postgresql:{cursor.fetchone()[0]}"


@shared_task(name="arena.core.probe", time_limit=30, ignore_result=False)
def probe() -> dict[str, str]:
    """Report what the worker process sees; `platform` must be the standard library."""
    return {
        "python_version": platform.python_version(),
        "platform_module": platform.__file__ or "",
        "executable": sys.executable,
        "database_session": _database_session(),
    }
