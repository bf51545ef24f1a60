"""The API's throttles, applied to the site's own forms.

A web form that does what an API call does must count against the same limit, or
the form is a way around it: `throttle_allows` records the request under the
API's scope and cache key (an account for a logged-in user, an address for a
visitor), so the upload form and the upload API share one count.
"""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.throttling import ScopedRateThrottle


class _ScopedView:
    """What ScopedRateThrottle reads from a view: only its scope."""

    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


def throttle_allows(request: HttpRequest, *, scope: str) -> bool:
    """Count this request against `scope` (a REST_FRAMEWORK throttle rate) and say
    whether it is still within the rate."""
    return ScopedRateThrottle().allow_request(request, _ScopedView(scope))
