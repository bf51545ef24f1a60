"""Hostile uploads are refused with a clear reason, and nothing is stored."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.models import Bot, BotVersion
from arena.bots.services import bot_version_upload
from arena.bots.storage import PrivateFileSystemStorage
from arena.bots.uploads import UploadLimits, UploadRejected, extract_zip, inspect_upload
from tests.arena.factories import DRAW_BOT_SOURCE, UserFactory

LIMITS = UploadLimits(max_bytes=64 * 1024, max_files=8, max_unpacked_bytes=512 * 1024, max_ratio=50)


def make_zip(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def rejected(data: bytes, filename: str, limits: UploadLimits = LIMITS) -> str:
    with pytest.raises(UploadRejected) as caught:
        inspect_upload(data=data, filename=filename, limits=limits)
    return str(caught.value)


# -- accepted ---------------------------------------------------------------------------


def test_single_python_file_is_accepted_with_its_hash():
    inspected = inspect_upload(data=DRAW_BOT_SOURCE, filename="bot.py", limits=LIMITS)
    assert inspected.kind == "py"
    assert inspected.size == len(DRAW_BOT_SOURCE)
    assert len(inspected.sha256) == 64


def test_zip_with_main_and_helpers_is_accepted():
    data = make_zip(
        {"main.py": b"import helper\n", "helper.py": b"X = 1\n", "data/table.json": b"{}"}
    )
    inspected = inspect_upload(data=data, filename="bot.ZIP", limits=LIMITS)
    assert inspected.kind == "zip"
    assert set(inspected.files) == {"main.py", "helper.py", "data/table.json"}


# -- refused ----------------------------------------------------------------------------


def test_empty_file():
    assert "empty" in rejected(b"", "bot.py")


def test_too_large():
    assert "limit" in rejected(b"#" * (LIMITS.max_bytes + 1), "bot.py")


def test_other_extensions():
    assert ".py file or a .zip" in rejected(b"print(1)\n", "bot.exe")


def test_binary_named_py():
    assert "binary" in rejected(b"\x7fELF\x02\x01\x01\x00\x00\x00", "bot.py")


def test_non_utf8_source():
    assert "UTF-8" in rejected("print('caf\u00e9')\n".encode("latin-1"), "bot.py")


def test_source_that_does_not_compile():
    message = rejected(b"def broken(:\n    pass\n", "bot.py")
    assert "does not compile" in message
    assert "line 1" in message


def test_source_is_compiled_never_run(tmp_path):
    marker = tmp_path / "ran"
    source = f"open({str(marker)!r}, 'w').write('x')\n".encode()
    inspect_upload(data=source, filename="bot.py", limits=LIMITS)
    assert not marker.exists()


def test_pathological_nesting_is_refused_not_crashing():
    assert "does not compile" in rejected(b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "bot.py")


def test_not_a_zip():
    assert "not a valid zip" in rejected(b"PK\x03\x04 garbage", "bot.zip")


def test_zip_without_main():
    assert "no main.py" in rejected(make_zip({"bot.py": b"x = 1\n"}), "bot.zip")


def test_zip_with_main_in_a_subfolder_only():
    assert "no main.py" in rejected(make_zip({"bot/main.py": b"x = 1\n"}), "bot.zip")


@pytest.mark.parametrize("name", ["../evil.py", "a/../../evil.py", "/etc/evil.py", "C:/x.py"])
def test_paths_escaping_the_archive(name):
    data = make_zip({"main.py": b"x = 1\n", name: b"x = 1\n"})
    message = rejected(data, "bot.zip")
    assert "inside the archive" in message or "absolute" in message


def test_backslash_paths():
    assert "backslash" in rejected(make_zip({"main.py": b"", "..\\evil.py": b""}), "bot.zip")


def test_symlink_in_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", b"x = 1\n")
        link = zipfile.ZipInfo("secrets")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    assert "links" in rejected(buffer.getvalue(), "bot.zip")


def test_too_many_files():
    members = {"main.py": b""} | {f"f{i}.txt": b"" for i in range(LIMITS.max_files)}
    assert "entries" in rejected(make_zip(members), "bot.zip")


def test_zip_bomb_by_ratio():
    data = make_zip({"main.py": b"", "zeros.txt": b"\0" * (400 * 1024)})
    assert len(data) < LIMITS.max_bytes
    assert "zip bomb" in rejected(data, "bot.zip")


def test_zip_bomb_by_total_size():
    # Each member alone compresses modestly; together they unpack past the limit.
    import random

    rng = random.Random(0)
    chunk = bytes(rng.choice(b"abcdefgh") for _ in range(150 * 1024))
    members = {"main.py": b""} | {f"part{i}.txt": chunk for i in range(4)}
    limits = UploadLimits(
        max_bytes=1024 * 1024, max_files=8, max_unpacked_bytes=512 * 1024, max_ratio=50
    )
    assert "unpacks to more than" in rejected(make_zip(members), "bot.zip", limits)


def test_lying_size_header_is_caught_when_reading():
    data = bytearray(make_zip({"main.py": b"x = 1\n" * 100}, compression=zipfile.ZIP_STORED))
    # Shrink the declared size in the central directory: reading must not trust it.
    archive = zipfile.ZipFile(io.BytesIO(bytes(data)))
    info = archive.infolist()[0]
    assert info.file_size == 600
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    with pytest.raises(UploadRejected):
        inspect_upload(data=bytes(data), filename="bot.zip", limits=LIMITS)


def test_non_compiling_module_inside_zip():
    data = make_zip({"main.py": b"import helper\n", "helper.py": b"def (:\n"})
    assert "helper.py does not compile" in rejected(data, "bot.zip")


def test_encrypted_member():
    data = bytearray(make_zip({"main.py": b"x = 1\n"}, compression=zipfile.ZIP_STORED))
    # Set the "encrypted" flag bit in both headers.
    local = data.find(b"PK\x03\x04")
    central = data.rfind(b"PK\x01\x02")
    data[local + 6] |= 1
    data[central + 8] |= 1
    assert "encrypted" in rejected(bytes(data), "bot.zip")


def test_duplicate_names():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", b"x = 1\n")
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("main.py", b"y = 2\n")
    assert "twice" in rejected(buffer.getvalue(), "bot.zip")


def test_extract_writes_only_inside_destination(tmp_path: Path):
    data = make_zip({"main.py": b"x = 1\n", "pkg/util.py": b"y = 2\n"})
    extract_zip(data=data, destination=tmp_path, limits=LIMITS)
    assert (tmp_path / "main.py").read_bytes() == b"x = 1\n"
    assert (tmp_path / "pkg" / "util.py").read_bytes() == b"y = 2\n"


def test_extract_refuses_escaping_archive(tmp_path: Path):
    data = make_zip({"main.py": b"", "../escaped.py": b""})
    with pytest.raises(UploadRejected):
        extract_zip(data=data, destination=tmp_path / "inner", limits=LIMITS)
    assert not (tmp_path / "escaped.py").exists()


# -- the service: errors by field, nothing stored ---------------------------------------


@pytest.fixture
def stored_files(tmp_path, monkeypatch):
    """Bot code goes to a folder of this test's own, listed by the returned callable."""
    monkeypatch.setattr(
        BotVersion._meta.get_field("code"), "storage", PrivateFileSystemStorage(location=tmp_path)
    )

    def listing() -> set[Path]:
        return set(tmp_path.rglob("*"))

    return listing


@pytest.mark.django_db
def test_bad_upload_stores_nothing(stored_files, django_capture_on_commit_callbacks):
    user = UserFactory()
    before = stored_files()
    with (
        django_capture_on_commit_callbacks() as callbacks,
        pytest.raises(ValidationError) as caught,
    ):
        bot_version_upload(
            user=user, name="broken", upload=SimpleUploadedFile("bot.py", b"def (:\n")
        )
    assert "upload" in caught.value.message_dict
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
    assert stored_files() == before
    assert callbacks == []
    # The same upload, fixed, is stored: the listing does see stored files.
    bot_version_upload(user=user, name="fixed", upload=SimpleUploadedFile("bot.py", b"x = 1\n"))
    assert len(stored_files() - before) >= 1


@pytest.mark.django_db
def test_upload_over_the_setting_limit(settings):
    settings.ARENA_MAX_UPLOAD_BYTES = 2048
    with pytest.raises(ValidationError) as caught:
        bot_version_upload(
            user=UserFactory(), name="big", upload=SimpleUploadedFile("bot.py", b"#" * 4096)
        )
    assert "limit is 2048" in caught.value.message_dict["upload"][0]


def test_file_and_folder_of_the_same_name():
    data = make_zip({"main.py": b"", "lib": b"", "lib/util.py": b""})
    assert "a file" in rejected(data, "bot.zip")


@pytest.mark.django_db
def test_bots_per_account_are_limited_but_versions_are_not(settings):
    settings.ARENA_MAX_BOTS_PER_USER = 2
    user = UserFactory()
    for name in ("one", "two"):
        bot_version_upload(user=user, name=name, upload=SimpleUploadedFile("b.py", b"x = 1\n"))
    with pytest.raises(ValidationError) as caught:
        bot_version_upload(user=user, name="three", upload=SimpleUploadedFile("b.py", b"x = 1\n"))
    assert "2 bots" in caught.value.message_dict["name"][0]
    again = bot_version_upload(user=user, name="two", upload=SimpleUploadedFile("b.py", b"y = 2\n"))
    assert again.number == 2
