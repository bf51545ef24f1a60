"""Bot code in the database: a storage for workers that share no disk with the site.

A worker on another machine needs the broker and the database, and nothing else
of the platform's: with this storage (ARENA_BOT_CODE_STORAGE=database) it reads an
uploaded version's code from PostgreSQL, as it reads the match. Uploads are small
(ARENA_MAX_UPLOAD_BYTES, 1 MiB), so a row each costs little, and the code is
written in the upload's own transaction: a rolled back upload leaves nothing. Like
the file storage, it has no URL.
"""

from __future__ import annotations

from typing import IO, Any

from django.core.files.base import ContentFile, File
from django.core.files.storage import Storage
from django.db import models
from django.utils.deconstruct import deconstructible


class StoredCode(models.Model):
    """A bot version's code, named as the file storage would name its file.

    Defined here rather than in `models`, whose FileField builds its storage while
    that module is still being imported: the storage must not import it back."""

    name = models.CharField(max_length=200, primary_key=True)
    content = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "bots"

    def __str__(self) -> str:
        return self.name


@deconstructible
class DatabaseCodeStorage(Storage):
    """Files as `StoredCode` rows, named as the file storage would name them."""

    def _open(self, name: str, mode: str = "rb") -> File[Any]:
        if "w" in mode or "a" in mode or "+" in mode:
            raise ValueError("Stored bot code is read-only.")
        return ContentFile(self._content(name), name=name)

    def _save(self, name: str, content: IO[bytes]) -> str:
        # `save` has picked a free name; one taken since then fails the upload's
        # transaction, as the version's own unique number would.
        content.seek(0)
        StoredCode.objects.create(name=name, content=content.read())
        return name

    def exists(self, name: str) -> bool:
        return StoredCode.objects.filter(name=name).exists()

    def delete(self, name: str) -> None:
        StoredCode.objects.filter(name=name).delete()

    def size(self, name: str) -> int:
        return len(self._content(name))

    def url(self, name: str | None) -> str:
        raise ValueError("Bot code is private and has no URL; use the owner's download view.")

    def _content(self, name: str) -> bytes:
        content = StoredCode.objects.filter(name=name).values_list("content", flat=True).first()
        if content is None:
            raise FileNotFoundError(f"no stored bot code named {name!r}")
        return bytes(content)
