"""Bot code kept in the database (ARENA_BOT_CODE_STORAGE=database): what a worker
with no disk of the site's reads a version's code from."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from arena.bots.codestore import DatabaseCodeStorage, StoredCode
from arena.bots.models import BotVersion
from arena.bots.services import bot_delete, bot_version_upload
from arena.play.sandboxing import Entrant, bot_programs
from tests.arena.factories import DRAW_BOT_SOURCE, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_database(monkeypatch: pytest.MonkeyPatch) -> DatabaseCodeStorage:
    """BotVersion.code stores in the database (the field keeps the storage it was
    built with, so settings alone would not switch it)."""
    storage = DatabaseCodeStorage()
    monkeypatch.setattr(BotVersion._meta.get_field("code"), "storage", storage)
    return storage


def test_the_storage_keeps_reads_and_deletes_a_file() -> None:
    storage = DatabaseCodeStorage()
    name = storage.save("bots/1/1-abc.py", ContentFile(b"print(1)\n"))
    assert name == "bots/1/1-abc.py"
    assert storage.exists(name)
    assert storage.size(name) == 9
    with storage.open(name) as stored:
        assert stored.read() == b"print(1)\n"
    again = storage.save("bots/1/1-abc.py", ContentFile(b"other"))
    assert again != name  # a taken name is never overwritten
    storage.delete(name)
    assert not storage.exists(name)
    with pytest.raises(FileNotFoundError):
        storage.open(name)
    with pytest.raises(ValueError, match="no URL"):
        storage.url(again)


def test_an_upload_is_stored_in_its_own_transaction(in_database: DatabaseCodeStorage) -> None:
    user = UserFactory()

    @transaction.atomic
    def upload_then_fail() -> None:
        bot_version_upload(
            user=user,
            name="rolled",
            upload=SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE),
            queue_qualification=False,
        )
        raise RuntimeError("the upload's transaction rolls back")

    with pytest.raises(RuntimeError):
        upload_then_fail()
    assert not StoredCode.objects.exists()


@pytest.mark.parametrize("kind", ["py", "zip"])
def test_a_match_reads_the_code_from_the_database(
    in_database: DatabaseCodeStorage, kind: str
) -> None:
    if kind == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("main.py", DRAW_BOT_SOURCE)
        upload = SimpleUploadedFile("bot.zip", buffer.getvalue())
    else:
        upload = SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE)
    version = bot_version_upload(
        user=UserFactory(), name="stored", upload=upload, queue_qualification=False
    )
    assert StoredCode.objects.filter(name=version.code.name).exists()
    with bot_programs([Entrant("stored", version)]) as [program]:
        main = program.path if program.path.is_file() else program.path / "main.py"
        assert main.read_bytes() == DRAW_BOT_SOURCE


def test_deleting_the_bot_deletes_its_stored_code(
    in_database: DatabaseCodeStorage, django_capture_on_commit_callbacks
) -> None:
    user = UserFactory()
    version = bot_version_upload(
        user=user,
        name="gone",
        upload=SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE),
        queue_qualification=False,
    )
    with django_capture_on_commit_callbacks(execute=True):
        bot_delete(user=user, bot=version.bot)
    assert not StoredCode.objects.exists()
