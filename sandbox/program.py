"""A bot program as uploaded: one Python file, or a directory with `main.py`."""

from __future__ import annotations

import io
import os
import stat
import tarfile
from dataclasses import dataclass
from pathlib import Path

ENTRY = "main.py"
# Code that large is not a One-card bot; the caps also bound what we copy around.
MAX_CODE_BYTES = 8 * 1024 * 1024
# bwrap holds one descriptor per file while it starts: keep that well under 1024.
MAX_CODE_FILES = 200


def open_regular(path: Path) -> int:
    """A read-only descriptor of the regular file at `path`, which may have been
    swapped for something else since it was listed: a link is refused (O_NOFOLLOW),
    a FIFO or device cannot block the open (O_NONBLOCK) and is refused once open."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValueError(f"{path} is not a regular file")
    return fd


def read_regular(path: Path) -> bytes:
    """A file's bytes (see `open_regular`)."""
    with os.fdopen(open_regular(path), "rb") as handle:
        return handle.read(MAX_CODE_BYTES + 1)


@dataclass(frozen=True)
class BotProgram:
    """A named bot and where its code is.

    >>> BotProgram("greedy", Path("bots_examples/greedy_bot.py")).entry_name
    'main.py'
    """

    name: str
    path: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))

    @property
    def is_directory(self) -> bool:
        return self.path.is_dir()

    @property
    def entry_name(self) -> str:
        """The file that starts the bot, once its code sits in the sandbox's /bot."""
        return ENTRY

    def source_file(self) -> Path:
        """The host file that is the bot's entry point."""
        return self.path / ENTRY if self.is_directory else self.path

    def check(self) -> None:
        """Raise ValueError if there is nothing to run."""
        if not self.source_file().is_file():
            raise ValueError(f"bot {self.name!r}: no Python file at {self.source_file()}")

    def files(self) -> list[tuple[str, Path]]:
        """(name inside /bot, host path) of every regular file of the bot.

        Symlinks and special files are left out: a link in an upload must not
        make the sandbox copy a host file in with the bot's code.
        """
        if not self.is_directory:
            return [(ENTRY, self.path)]
        found: list[tuple[str, Path]] = []
        for root, _dirs, names in os.walk(self.path, followlinks=False):
            for name in names:
                path = Path(root, name)
                if stat.S_ISREG(path.lstat().st_mode):
                    found.append((path.relative_to(self.path).as_posix(), path))
                    if len(found) > MAX_CODE_FILES:
                        raise ValueError(f"bot {self.name!r}: more than {MAX_CODE_FILES} files")
        return sorted(found)

    def archive(self) -> bytes:
        """The bot's code as a tar, owned by root and read-only for everyone else."""
        buffer = io.BytesIO()
        total = 0
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            directories: set[str] = set()
            for name, path in self.files():
                data = read_regular(path)
                total += len(data)
                if total > MAX_CODE_BYTES:
                    raise ValueError(f"bot {self.name!r}: code larger than {MAX_CODE_BYTES} bytes")
                parts = name.split("/")[:-1]
                for depth in range(1, len(parts) + 1):
                    directory = "/".join(parts[:depth])
                    if directory not in directories:
                        directories.add(directory)
                        info = tarfile.TarInfo(directory)
                        info.type = tarfile.DIRTYPE
                        info.mode = 0o555
                        tar.addfile(info)
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mode = 0o444
                tar.addfile(info, io.BytesIO(data))
        return buffer.getvalue()
