"""The OpenAPI schema stays valid and free of warnings as the API grows."""

from __future__ import annotations

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_openapi_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    text = target.read_text()
    for path in ("/api/v1/bots/", "/api/v1/matches/", "/api/v1/games/{id}/replay/", "/api/v1/me/"):
        assert path in text
