"""The one place that reads the environment.

Every setting that may vary between machines is read here, with an embedded
default that makes `make run` work on a bare machine. A malformed value raises
ImproperlyConfigured at start-up instead of failing later.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

REPO_ROOT = Path(__file__).resolve().parents[3]
VAR_DIR = Path(os.environ.get("ARENA_VAR_DIR", str(REPO_ROOT / "var"))).resolve()


def ensure_dirs(*paths: Path) -> None:
    """Create the local folders (SQLite file, embedded broker) a process needs."""
    for path in paths:
        path.mkdir(parents=True, exist_ok=True)


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def database_from_url(url: str) -> dict[str, object]:
    """Turn a DATABASE_URL into a Django DATABASES entry.

    Supported: ``sqlite:///relative/or/absolute/path`` and
    ``postgres://user:password@host:port/name?option=value`` (psycopg 3).
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///var/db.sqlite3 is relative to the repository, sqlite:////abs/db absolute.
        path = Path(unquote(parts.path)[1:])
        if not path.is_absolute():
            path = REPO_ROOT / path
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(path),
            # Web, worker and beat share one file: WAL and IMMEDIATE transactions let
            # them take turns instead of failing with "database is locked".
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {"NAME": str(path.with_name(path.stem + "-test.sqlite3"))},
        }
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured("DATABASE_URL must name a database: postgres://.../NAME")
        options = dict(parse_qsl(parts.query))
        return {
            "ENGINE": "arena.core.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {scheme!r} is not supported (use sqlite:// or postgres://)"
    )
