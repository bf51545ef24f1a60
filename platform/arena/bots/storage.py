"""Where bot code lives: a storage with no public URL.

Uploaded code is private to its owner (and staff). It is kept apart from MEDIA_ROOT
and this storage refuses to build a URL for it, so no template, admin page or
serializer can link to it by accident; the only way out is the owner-checked
download view, which reads the file through the storage API.
"""

from __future__ import annotations

from django.core.files.storage import FileSystemStorage, Storage, storages

BOT_CODE_STORAGE_ALIAS = "bot_code"


class PrivateFileSystemStorage(FileSystemStorage):
    def url(self, name: str | None) -> str:
        raise ValueError("Bot code is private and has no URL; use the owner's download view.")


def bot_code_storage() -> Storage:
    """The configured storage for bot code (a callable, so settings can swap it)."""
    return storages[BOT_CODE_STORAGE_ALIAS]
