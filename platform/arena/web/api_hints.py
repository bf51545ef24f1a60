"""The command lines the site shows people, built from the live API routes."""

from __future__ import annotations

import shlex

from django.http import HttpRequest
from django.urls import reverse

# arena.bots.api's upload endpoint: multipart fields `name` and `upload`.
UPLOAD_ROUTE_NAME = "api-bot-upload"


def upload_curl_command(*, request: HttpRequest, token: str, bot_name: str = "my-bot") -> str:
    """The `curl` line that uploads a new version of a bot with the user's token."""
    url = request.build_absolute_uri(reverse(UPLOAD_ROUTE_NAME))
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
