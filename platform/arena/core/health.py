"""Selectors that check the services the site depends on."""

from __future__ import annotations

from django.db import connection


def database_is_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False
