"""Requests no route can mean, refused before any view or query sees them."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_plus

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


class RejectNulBytesMiddleware:
    """A 400 for a URL holding a NUL byte, in its path or its query string.

    PostgreSQL cannot store or compare text holding NUL, so such a URL reached a
    query and failed there as a server error. No page and no API route means
    anything by it. (Form and JSON fields refuse NUL through their validators.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = unquote_plus(request.META.get("QUERY_STRING", ""))
        if "\x00" in request.path or "\x00" in query:
            return HttpResponseBadRequest("NUL bytes are not allowed in a URL.")
        return self.get_response(request)
