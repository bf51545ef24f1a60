"""Simultaneous uploads: a name goes to exactly one user, version numbers never
collide. Needs PostgreSQL's real row locks (SQLite serializes everything)."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from arena.bots.models import Bot, BotVersion
from arena.bots.services import bot_version_upload
from tests.arena.factories import UserFactory


def race(calls) -> list[object]:
    """Run the calls at once in threads; each result or exception, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency need PostgreSQL (CI runs it)")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_users_racing_for_one_name(postgres_only):
    users = [UserFactory(), UserFactory()]
    results = race(
        [
            lambda user=user: bot_version_upload(
                user=user, name="racer", upload=SimpleUploadedFile("b.py", b"x = 1\n")
            )
            for user in users
        ]
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1, results
    assert isinstance(errors[0], ValidationError)
    assert "taken" in errors[0].message_dict["name"][0]
    assert Bot.objects.filter(name="racer").count() == 1
    assert BotVersion.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_user_uploading_versions_at_once_gets_distinct_numbers(postgres_only):
    user = UserFactory()
    bot_version_upload(user=user, name="busy", upload=SimpleUploadedFile("b.py", b"x = 0\n"))
    results = race(
        [
            lambda n=n: bot_version_upload(
                user=user, name="busy", upload=SimpleUploadedFile("b.py", f"x = {n}\n".encode())
            )
            for n in range(1, 5)
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    numbers = sorted(BotVersion.objects.filter(bot__name="busy").values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5]
