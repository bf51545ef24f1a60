"""Schemathesis against the site's own OpenAPI schema, anonymous and with a token.

Every operation of /api/schema/ gets generated requests (valid ones and, for
bodies, values at the edges the schema allows) through the real WSGI application
and a database holding real rows. No response may be a 5xx, and every response
must match the schema: its content type, and its body for every documented
status. (Error statuses a view may answer without documenting them, 400, 401,
403, 404 and 429, are not held against it: the conformance of their status code
is the one check left out.)
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
)

from tests.arena.factories import ActiveBotVersionFactory, BotFactory, UserFactory
from tests.arena.web.games import played_match

CHECKS = (
    not_a_server_error,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
)
FUZZ = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,  # the same requests on every run: a failure reproduces
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)


@pytest.fixture
def api_schema(db):
    """The schema as the WSGI application serves it. Requests run inside the test's
    transaction, so the handler must not close the connection after each one (the
    Django test client disconnects the same signal handler)."""
    from arena.wsgi import application

    signals = (request_started, request_finished)
    for signal in signals:
        signal.disconnect(close_old_connections)
    try:
        yield schemathesis.from_wsgi("/api/schema/?format=json", application)
    finally:
        for signal in signals:
            signal.connect(close_old_connections)


@pytest.fixture
def world(db):
    """Rows for the generated requests to find: users, bots, versions, a played
    match with games, a ladder with ratings. Returns a token for an owner."""
    owner = UserFactory(username="fuzzer")
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=owner, name="fuzz-bot"))
    other = ActiveBotVersionFactory(bot=BotFactory(name="other-bot"))
    played_match([mine, other], games=2)
    return Token.objects.create(user=owner).key


schema = schemathesis.from_pytest_fixture("api_schema")


@schema.parametrize()
@FUZZ
def test_anonymous_requests_get_no_5xx_and_match_the_schema(case, world):
    response = case.call_wsgi()
    case.validate_response(response, checks=CHECKS)


@schema.parametrize()
@FUZZ
def test_authenticated_requests_get_no_5xx_and_match_the_schema(case, world):
    response = case.call_wsgi(headers={"Authorization": f"Token {world}"})
    case.validate_response(response, checks=CHECKS)
