"""Settings come from the environment; production refuses unsafe values."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from arena.settings.env import REPO_ROOT, database_from_url, env_bool, env_int

ROOT = Path(__file__).resolve().parents[3]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_under_production_settings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="arena.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="arena.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_the_development_secret_key():
    result = _manage("check", DJANGO_SETTINGS_MODULE="arena.settings.production")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_database_url_postgres():
    config = database_from_url("postgres://arena:s%40cret@db.internal:5433/arena?sslmode=require")
    assert config["ENGINE"] == "arena.core.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"]) == (
        "arena",
        "s@cret",
        "db.internal",
        "5433",
    )
    assert config["NAME"] == "arena"
    assert config["OPTIONS"] == {"sslmode": "require"}


def test_database_url_sqlite_relative_and_absolute():
    assert database_from_url("sqlite:///var/x.sqlite3")["NAME"] == str(REPO_ROOT / "var/x.sqlite3")
    assert database_from_url("sqlite:////tmp/x.sqlite3")["NAME"] == "/tmp/x.sqlite3"


@pytest.mark.parametrize("url", ["mysql://x/y", "postgres://host/", "nonsense"])
def test_database_url_rejects_what_it_cannot_serve(url):
    with pytest.raises(ImproperlyConfigured):
        database_from_url(url)


def test_bad_boolean_and_integer_values_are_refused(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env_bool("X_FLAG", False)
    monkeypatch.setenv("X_NUM", "12kb")
    with pytest.raises(ImproperlyConfigured, match="X_NUM"):
        env_int("X_NUM", 1)
