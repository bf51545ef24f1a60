"""Checking an uploaded bot before anything is stored.

Every upload is hostile. A bot is either one `.py` file or a `.zip` holding
`main.py` at its root (and any other files it needs). The checks here only *read*
the upload: Python sources are compiled, never executed, and a zip is inspected
member by member with every size bounded by what was measured, not by what the
archive claims.

`inspect_upload` is pure (bytes in, verdict out) so it is easy to test on its own;
`extract_zip` is the one place that ever writes an archive's members to disk, and
it re-checks everything on the way.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

PY_SUFFIX = ".py"
ZIP_SUFFIX = ".zip"
MAIN_MODULE = "main.py"
_CHUNK = 64 * 1024


class UploadRejected(ValueError):
    """The upload is not an acceptable bot; the message is shown to the uploader."""


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int  # the upload itself
    max_files: int  # members of a zip (directories included)
    max_unpacked_bytes: int  # sum of the members' real sizes
    max_ratio: int  # uncompressed / compressed, per member (zip bomb)
    # Members smaller than this are exempt from the ratio check: a short text file
    # of repeated characters compresses very well and is harmless.
    ratio_floor_bytes: int = 64 * 1024


@dataclass(frozen=True)
class InspectedUpload:
    kind: str  # "py" or "zip"
    sha256: str
    size: int
    files: tuple[str, ...]  # the archive's member files, or ("main.py",)


def inspect_upload(*, data: bytes, filename: str, limits: UploadLimits) -> InspectedUpload:
    """Check an upload and describe it, or raise UploadRejected with a clear reason.

    >>> limits = UploadLimits(max_bytes=1024, max_files=10, max_unpacked_bytes=4096, max_ratio=50)
    >>> inspect_upload(data=b"print('hi')\\n", filename="bot.py", limits=limits).kind
    'py'
    """
    size = len(data)
    if size == 0:
        raise UploadRejected("The file is empty.")
    if size > limits.max_bytes:
        raise UploadRejected(f"The file is {size} bytes; the limit is {limits.max_bytes} bytes.")
    suffix = Path(filename or "").suffix.lower()
    if suffix == PY_SUFFIX:
        check_python_source(data, display_name=MAIN_MODULE)
        files: tuple[str, ...] = (MAIN_MODULE,)
        kind = "py"
    elif suffix == ZIP_SUFFIX:
        files = tuple(_read_zip_members(data, limits))
        kind = "zip"
    else:
        raise UploadRejected("Upload one .py file or a .zip archive with main.py at its root.")
    return InspectedUpload(
        kind=kind, sha256=hashlib.sha256(data).hexdigest(), size=size, files=files
    )


def check_python_source(data: bytes, *, display_name: str) -> None:
    """UTF-8 text that compiles. compile() parses and builds bytecode; it runs nothing."""
    if b"\x00" in data:
        raise UploadRejected(f"{display_name} is a binary file, not Python source.")
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UploadRejected(f"{display_name} is not valid UTF-8 (byte {error.start}).") from None
    try:
        compile(source, display_name, "exec", dont_inherit=True)
    except SyntaxError as error:
        where = f" line {error.lineno}" if error.lineno else ""
        raise UploadRejected(f"{display_name} does not compile:{where}: {error.msg}") from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        # Pathological nesting or literals: refuse rather than let the site struggle.
        raise UploadRejected(f"{display_name} does not compile: {type(error).__name__}") from None


def safe_member_name(name: str) -> str:
    """The member's path inside the archive, or UploadRejected if it could escape it."""
    if not name or "\x00" in name:
        raise UploadRejected("The archive holds a file with an empty or invalid name.")
    if "\\" in name:
        raise UploadRejected(f"{name!r}: backslashes are not allowed in archive paths.")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UploadRejected(f"{name!r}: absolute paths are not allowed in the archive.")
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise UploadRejected(f"{name!r}: paths must stay inside the archive (no '..').")
    return posixpath.normpath(name)


def _member_kind(info: zipfile.ZipInfo) -> str:
    """'dir', 'file', or raise for links, devices and other special files."""
    mode = info.external_attr >> 16
    # Unix archives keep st_mode in the high bits; many tools leave the type bits at
    # zero for plain files, so only a type that is present is judged.
    if info.create_system == 3 and stat.S_IFMT(mode):
        if stat.S_ISLNK(mode):
            raise UploadRejected(f"{info.filename!r}: links are not allowed in the archive.")
        if stat.S_ISDIR(mode):
            return "dir"
        if not stat.S_ISREG(mode):
            raise UploadRejected(f"{info.filename!r}: only plain files are allowed.")
    return "dir" if info.filename.endswith("/") else "file"


def _open_zip(data: bytes) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        raise UploadRejected("The file is not a valid zip archive.") from None


def _checked_members(
    archive: zipfile.ZipFile, limits: UploadLimits
) -> list[tuple[zipfile.ZipInfo, str]]:
    """The archive's file members with their safe names, after the structural checks."""
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise UploadRejected(
            f"The archive holds {len(infos)} entries; the limit is {limits.max_files}."
        )
    seen: set[str] = set()
    files: list[tuple[zipfile.ZipInfo, str]] = []
    declared_total = 0
    for info in infos:
        name = safe_member_name(info.filename)
        if name.lower() in seen:
            raise UploadRejected(f"{name!r} appears twice in the archive.")
        seen.add(name.lower())
        if info.flag_bits & 0x1:
            raise UploadRejected(f"{name!r} is encrypted; encrypted archives are not accepted.")
        if _member_kind(info) == "dir":
            continue
        declared_total += info.file_size
        if declared_total > limits.max_unpacked_bytes:
            raise UploadRejected(
                f"The archive unpacks to more than {limits.max_unpacked_bytes} bytes."
            )
        if info.file_size >= limits.ratio_floor_bytes and info.file_size > limits.max_ratio * max(
            info.compress_size, 1
        ):
            raise UploadRejected(
                f"{name!r} is compressed more than {limits.max_ratio} to 1: "
                "that looks like a zip bomb."
            )
        files.append((info, name))
    names = {name for _, name in files}
    if MAIN_MODULE not in names:
        raise UploadRejected("The archive has no main.py at its root.")
    for name in names:
        # "a" and "a/b" cannot both be files: the archive could not be unpacked.
        parts = name.split("/")
        for depth in range(1, len(parts)):
            if "/".join(parts[:depth]) in names:
                raise UploadRejected(f"{name!r} sits inside {'/'.join(parts[:depth])!r}, a file.")
    return files


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    """The member's bytes, reading at most `budget` + 1 of them whatever the header says."""
    chunks: list[bytes] = []
    total = 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                total += len(chunk)
                if total > budget:
                    raise UploadRejected("The archive unpacks to more than its declared size.")
                chunks.append(chunk)
    except (zipfile.BadZipFile, NotImplementedError, EOFError, OSError, ValueError) as error:
        raise UploadRejected(f"{info.filename!r} cannot be read: {error}") from None
    return b"".join(chunks)


def _iter_member_data(data: bytes, limits: UploadLimits) -> list[tuple[str, bytes]]:
    with _open_zip(data) as archive:
        members = _checked_members(archive, limits)
        budget = limits.max_unpacked_bytes
        contents: list[tuple[str, bytes]] = []
        for info, name in members:
            content = _read_member(archive, info, min(budget, info.file_size))
            budget -= len(content)
            if name.endswith(PY_SUFFIX):
                check_python_source(content, display_name=name)
            contents.append((name, content))
        return contents


def _read_zip_members(data: bytes, limits: UploadLimits) -> list[str]:
    return [name for name, _ in _iter_member_data(data, limits)]


def extract_zip(*, data: bytes, destination: Path, limits: UploadLimits) -> None:
    """Write an archive's files under `destination` after checking it again.

    The stored archive passed `inspect_upload` when it was uploaded; checking it
    again costs little and keeps this function safe on its own.
    """
    root = destination.resolve()
    for name, content in _iter_member_data(data, limits):
        target = (root / name).resolve()
        if not target.is_relative_to(root):  # belt and braces after safe_member_name
            raise UploadRejected(f"{name!r} escapes the archive.")
        target.parent.mkdir(parents=True, exist_ok=True)
        # O_EXCL: never follow or overwrite something already there.
        with open(target, "xb") as handle:
            handle.write(content)
