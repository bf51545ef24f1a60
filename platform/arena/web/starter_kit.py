"""The starter kit (`GET /starter-kit.zip`): the example bots, the engine and the
local `onecard` runner, zipped from the repository's own files.

No copy of the kit is kept: the zip is built from the source files on first use
and then kept in memory (the files change only with a deploy, which restarts the
process). Only the packages below and two named files go in, found by listing
them here, never by a path from a request: no settings, no secrets, no platform
code.
"""

from __future__ import annotations

import functools
import io
import zipfile
from pathlib import Path

from django.conf import settings

FOLDER = "onecard-starter-kit"
FILENAME = f"{FOLDER}.zip"
# What `python3 -m onecard` needs: the runner, the sandbox it plays through, the
# rules, and the example bots (the built-in opponents).
PACKAGES = ("onecard", "engine", "sandbox", "bots_examples")
# Kit path -> repository path of the files outside the packages' code.
NAMED_FILES = {
    "README.md": "onecard/README.md",
    "my_bot.py": "bots_examples/greedy_bot.py",  # the bot to change
}
# Fixed, so that the same files always give the same zip.
_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


def starter_kit_files(*, root: Path) -> dict[str, Path]:
    """Path inside the kit -> the repository file it is, in the zip's order."""
    files = {name: root / source for name, source in NAMED_FILES.items()}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts and path.is_file() and not path.is_symlink():
                files[path.relative_to(root).as_posix()] = path
    return files


def starter_kit_zip(*, root: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in starter_kit_files(root=root).items():
            info = zipfile.ZipInfo(f"{FOLDER}/{name}", date_time=_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


@functools.cache
def starter_kit() -> bytes:
    """The kit's zip, built once per process (about 100 KiB)."""
    return starter_kit_zip(root=Path(settings.BASE_DIR))
