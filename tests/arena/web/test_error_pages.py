"""The site's own 404 and 500 pages, and `make run` serving them (not Django's
debug page) unless DJANGO_DEBUG=true asks for it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import Client

from tests.support.worker import wait_for

REPO_ROOT = Path(__file__).resolve().parents[3]
DEBUG_PAGE = "Using the URLconf"  # what Django's technical 404 says, with every route


def test_an_unknown_address_gets_the_sites_own_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "404.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert "Page not found" in html
    assert 'class="site-header"' in html
    assert "/static/web/arena.css" in html
    assert DEBUG_PAGE not in html


def test_a_private_404_names_nothing_of_what_was_asked(alice_client):
    response = alice_client.get("/bots/somebody-elses-secret/")
    assert response.status_code == 404
    assert "somebody-elses-secret" not in response.content.decode()


def test_a_crash_gets_the_sites_own_500(monkeypatch, db):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("arena.web.views.home.competition_default", broken)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert "/static/web/arena.css" in html
    assert "a bug" not in html
    assert "Traceback" not in html


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError:
        return 0, ""


@pytest.mark.parametrize("debug", [None, "true"])
def test_make_runs_web_server_is_in_debug_mode_only_when_asked(tmp_path, debug):
    """The web child of `make run` (arena.core.processes: `runserver --noreload`) with
    the settings `make run` uses, DJANGO_DEBUG unset or set."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "CELERY_", "DJANGO_"))
    }
    env.update(
        ARENA_VAR_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path}/arena.sqlite3",
        DJANGO_SETTINGS_MODULE="arena.settings.base",
    )
    if debug is not None:
        env["DJANGO_DEBUG"] = debug
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _fetch(f"{base}/healthz/")[0] == 200, timeout=60, what="the site")
        status, html = _fetch(f"{base}/no/such/page/")
        assert status == 404
        if debug:
            assert DEBUG_PAGE in html
        else:
            assert DEBUG_PAGE not in html
            assert "Page not found" in html
        # The stylesheet is served with DEBUG off too.
        status, css = _fetch(f"{base}/static/web/arena.css")
        assert status == 200
        assert ".error-page" in css
    finally:
        server.terminate()
        server.wait(timeout=30)
