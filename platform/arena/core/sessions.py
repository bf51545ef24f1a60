"""The session engine: Django's database sessions, refusing malformed keys early.

A key Django makes is 32 lower-case letters and digits. A cookie holding anything
else (a NUL byte, which PostgreSQL refuses in a query and so turned a forged
cookie into a server error) is treated as no session at all.
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(key) and len(key) >= 8 and key.isascii() and key.isalnum()
