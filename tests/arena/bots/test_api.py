"""Bots and versions over the API: who may do what, and what strangers never see."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from arena.bots.models import Bot, BotVersion
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotVersionFactory,
    StaffFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def upload(client: APIClient, name: str, source: bytes = DRAW_BOT_SOURCE, filename="bot.py"):
    return client.post(
        "/api/v1/bots/upload/",
        {"name": name, "upload": SimpleUploadedFile(filename, source), "description": "hi"},
        format="multipart",
    )


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    cache.clear()


def test_upload_creates_the_bot_then_new_versions(django_capture_on_commit_callbacks):
    user = UserFactory()
    client = client_for(user)
    with django_capture_on_commit_callbacks() as callbacks:
        first = upload(client, "drawer")
        second = upload(client, "drawer")
    assert first.status_code == second.status_code == 201
    assert (first.json()["number"], second.json()["number"]) == (1, 2)
    assert first.json()["status"] == "pending"
    assert len(callbacks) == 2  # each queues its qualification
    assert Bot.objects.get(name="drawer").owner == user


def test_upload_errors_are_by_field_and_store_nothing():
    client = client_for(UserFactory())
    response = upload(client, "broken", b"def (:\n")
    assert response.status_code == 400
    assert "does not compile" in response.json()["upload"][0]
    assert not Bot.objects.exists()


def test_someone_elses_name_is_refused():
    ActiveBotVersionFactory(bot__name="taken")
    response = upload(client_for(UserFactory()), "Taken")
    assert response.status_code == 400
    assert "taken" in response.json()["name"][0]
    assert upload(client_for(UserFactory()), "upload").status_code == 400  # reserved


def test_anonymous_cannot_upload():
    assert upload(client_for(), "anon").status_code in (401, 403)


def test_uploads_are_throttled(monkeypatch):
    # DRF reads the rates once at import; patch the class attribute it copied them to.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"uploads": "2/hour"})
    client = client_for(UserFactory())
    codes = [upload(client, "busy").status_code for _ in range(3)]
    assert codes == [201, 201, 429]


def test_bot_list_is_public_and_uses_constant_queries(django_assert_max_num_queries):
    for _ in range(3):
        ActiveBotVersionFactory()
    client = client_for()
    with django_assert_max_num_queries(3):
        first = client.get("/api/v1/bots/")
    for _ in range(10):
        ActiveBotVersionFactory()
    with django_assert_max_num_queries(3):
        response = client.get("/api/v1/bots/")
    assert first.status_code == 200
    assert response.json()["count"] == 13
    row = response.json()["results"][0]
    assert set(row) == {
        "name",
        "owner",
        "description",
        "is_example",
        "created_at",
        "active_version",
        "deleted",
    }
    assert row["deleted"] is False
    assert row["active_version"]["status"] == "active"
    assert "sha256" not in row["active_version"]


def test_mine_filter_and_detail():
    version = ActiveBotVersionFactory(bot__name="mybot")
    ActiveBotVersionFactory()
    client = client_for(version.bot.owner)
    assert [b["name"] for b in client.get("/api/v1/bots/?mine=true").json()["results"]] == ["mybot"]
    assert client.get("/api/v1/bots/mybot/").json()["active_version"]["number"] == 1
    assert client.get("/api/v1/bots/nope/").status_code == 404
    versions = client_for().get("/api/v1/bots/mybot/versions/").json()
    assert [v["number"] for v in versions] == [1]
    assert "status_reason" not in versions[0]


def test_version_details_and_code_are_private_to_owner_and_staff():
    version = BotVersionFactory(status=BotVersion.Status.FAILED, status_reason="crash")
    owner = version.bot.owner
    stranger = UserFactory()
    for path in (f"/api/v1/versions/{version.pk}/", f"/api/v1/versions/{version.pk}/code/"):
        assert client_for(stranger).get(path).status_code == 404
        assert client_for().get(path).status_code in (401, 403)
        assert client_for(owner).get(path).status_code == 200
        assert client_for(StaffFactory()).get(path).status_code == 200
    detail = client_for(owner).get(f"/api/v1/versions/{version.pk}/").json()
    assert detail["status_reason"] == "crash"
    code = client_for(owner).get(f"/api/v1/versions/{version.pk}/code/")
    assert code.content == DRAW_BOT_SOURCE
    assert code["Content-Disposition"] == f'attachment; filename="{version.bot.name}-v1.py"'
    assert code["Content-Type"] == "application/octet-stream"


def test_stored_code_has_no_public_url():
    version = BotVersionFactory()
    with pytest.raises(ValueError, match="private"):
        version.code.url  # noqa: B018


def test_activate_and_retire_by_owner_only():
    old = ActiveBotVersionFactory(status=BotVersion.Status.RETIRED)
    new = ActiveBotVersionFactory(bot=old.bot)
    owner = old.bot.owner
    assert client_for(UserFactory()).post(f"/api/v1/versions/{old.pk}/activate/").status_code == 404
    response = client_for(owner).post(f"/api/v1/versions/{old.pk}/activate/")
    assert response.status_code == 200
    assert response.json()["status"] == "active"
    new.refresh_from_db()
    assert new.status == BotVersion.Status.RETIRED
    response = client_for(owner).post(f"/api/v1/versions/{old.pk}/retire/")
    assert response.json()["status"] == "retired"
    assert not BotVersion.objects.filter(bot=old.bot, status="active").exists()


def test_failed_qualification_cannot_be_activated():
    version = BotVersionFactory(status=BotVersion.Status.FAILED)
    response = client_for(version.bot.owner).post(f"/api/v1/versions/{version.pk}/activate/")
    assert response.status_code == 400
    assert "qualification" in response.json()["status"][0]
