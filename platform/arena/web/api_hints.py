"""The command lines the site shows people, built from the live API routes."""

from __future__ import annotations

import shlex

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

# P1's upload endpoint (arena.bots.api). Looked up by name so a route change shows up
# here; the literal is what the contract documents, for the window before it lands.
UPLOAD_ROUTE_NAME = "bot-version-upload"
UPLOAD_PATH_FALLBACK = "/api/v1/bots/upload/"


def upload_path() -> str:
    try:
        return reverse(UPLOAD_ROUTE_NAME)
    except NoReverseMatch:
        return UPLOAD_PATH_FALLBACK


def upload_curl_command(*, request: HttpRequest, token: str, bot_name: str = "my-bot") -> str:
    """The `curl` line that uploads a new version of a bot with the user's token."""
    url = request.build_absolute_uri(upload_path())
    return " ".join(
        [
            "curl",
            "-H",
            shlex.quote(f"Authorization: Token {token}"),
            "-F",
            shlex.quote(f"name={bot_name}"),
            "-F",
            "upload=@my_bot.py",
            shlex.quote(url),
        ]
    )
