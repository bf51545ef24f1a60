"""Selectors that check the services the site depends on."""

from __future__ import annotations

from django.db import connection

from sandbox import backend_problem


def database_is_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


def sandbox_problem(*, backend: str, image: str, runtime: str) -> str | None:
    """Why uploaded bots could not run in this process's sandbox, or None."""
    return backend_problem(backend, image=image, runtime=runtime or None)
