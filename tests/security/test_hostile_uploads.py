"""Hostile uploads through the real HTTP entry points, with the site's real limits.

Each one arrives as a multipart request, both on the API (token auth) and on the
web form (session and CSRF); each gets a 400 (or the form again) with a clear
reason next to the upload field, and stores nothing: no bot, no version, no file,
no qualification queued. `tests/arena/bots/test_uploads.py` checks the inspector
itself with small limits; this proves the site wires it in for every way in.
"""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena.bots.models import Bot, BotVersion
from arena.bots.storage import PrivateFileSystemStorage
from tests.arena.factories import UserFactory

pytestmark = pytest.mark.django_db

MAIN = b"import sys\nfor line in sys.stdin:\n    print('{}', flush=True)\n"


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def zip_with_link() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", MAIN)
        link = zipfile.ZipInfo("secrets.py")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/shadow")
    return buffer.getvalue()


def zip_with_raw_name(name: str) -> bytes:
    """`zipfile` cleans names on write; patch the stored bytes to keep `name` hostile."""
    placeholder = "x" * len(name)
    data = zip_of({"main.py": MAIN, placeholder: b"x = 1\n"})
    return data.replace(placeholder.encode(), name.encode())


# (case, filename, content, what the message says)
HOSTILE = [
    (
        "zip bomb by ratio",
        "bot.zip",
        lambda: zip_of({"main.py": MAIN, "pad.txt": b"\0" * (4 * 1024 * 1024)}),
        "zip bomb",
    ),
    (
        "zip bomb by count",
        "bot.zip",
        lambda: zip_of({"main.py": MAIN, **{f"m{i}.py": b"" for i in range(100)}}),
        "entries; the limit is",
    ),
    ("path with ..", "bot.zip", lambda: zip_with_raw_name("../../evil.py"), "no '..'"),
    ("absolute path", "bot.zip", lambda: zip_with_raw_name("/etc/evil.py"), "absolute paths"),
    ("link inside the zip", "bot.zip", zip_with_link, "links are not allowed"),
    ("empty file", "bot.py", lambda: b"", "empty"),
    ("binary named .py", "bot.py", lambda: b"\x7fELF\x02\x01\x01\0" + bytes(200), "binary"),
    ("non-UTF-8 source", "bot.py", lambda: "print('café')\n".encode("latin-1"), "UTF-8"),
    ("source that does not compile", "bot.py", lambda: b"def broken(:\n", "does not compile"),
    ("zip without main.py", "bot.zip", lambda: zip_of({"bot.py": MAIN}), "no main.py"),
    ("not a zip at all", "bot.zip", lambda: b"PK\x03\x04 this is not a zip", "not a valid zip"),
    ("an executable", "bot.exe", lambda: b"MZ" + bytes(100), "Upload one .py file"),
]


@pytest.fixture
def stored_files(tmp_path, monkeypatch):
    monkeypatch.setattr(
        BotVersion._meta.get_field("code"), "storage", PrivateFileSystemStorage(location=tmp_path)
    )
    return lambda: sorted(p for p in tmp_path.rglob("*") if p.is_file())


def assert_nothing_stored(files: list[Path], callbacks: list) -> None:
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
    assert files == []
    assert callbacks == []  # no qualification queued


@pytest.mark.parametrize(
    ("case", "filename", "content", "message"), HOSTILE, ids=[h[0] for h in HOSTILE]
)
def test_api_refuses_with_the_reason_and_stores_nothing(
    case, filename, content, message, stored_files, django_capture_on_commit_callbacks
):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=UserFactory()).key}")
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            "/api/v1/bots/upload/",
            {"name": "hostile", "upload": SimpleUploadedFile(filename, content())},
            format="multipart",
        )
    assert response.status_code == 400, response.content
    assert message in " ".join(response.json()["upload"])
    assert_nothing_stored(stored_files(), callbacks)


@pytest.mark.parametrize(
    ("case", "filename", "content", "message"), HOSTILE, ids=[h[0] for h in HOSTILE]
)
def test_web_form_refuses_with_the_reason_and_stores_nothing(
    case, filename, content, message, stored_files, django_capture_on_commit_callbacks
):
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    page = client.get("/my/bots/submit/")
    token = page.cookies["csrftoken"].value
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            "/my/bots/submit/",
            {
                "name": "hostile",
                "upload": SimpleUploadedFile(filename, content()),
                "csrfmiddlewaretoken": token,
            },
        )
    assert response.status_code in (200, 400)  # the form again, with its errors
    errors = response.context["form"].errors
    assert message in " ".join(errors.get("upload", [])), errors
    assert_nothing_stored(stored_files(), callbacks)


def test_a_50_mb_upload_is_refused_without_being_stored(stored_files):
    client = APIClient()
    client.force_authenticate(UserFactory())
    huge = SimpleUploadedFile("bot.py", b"#" * (50 * 1024 * 1024))
    response = client.post(
        "/api/v1/bots/upload/", {"name": "huge", "upload": huge}, format="multipart"
    )
    assert response.status_code == 400
    assert "the limit is" in response.json()["upload"][0]
    assert_nothing_stored(stored_files(), [])
