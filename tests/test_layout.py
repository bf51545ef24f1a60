"""`platform/` must never shadow the standard library's `platform` module."""

import subprocess
import sys
import sysconfig
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()


def _is_stdlib(path: str) -> bool:
    return Path(path).resolve().parent == STDLIB


def test_platform_is_stdlib_under_pytest():
    import platform

    assert _is_stdlib(platform.__file__)
    assert platform.python_version()


def test_platform_is_stdlib_from_repo_root():
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import platform; print(platform.__file__); print(platform.python_version())",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert _is_stdlib(out[0])


def test_platform_is_stdlib_under_manage_py():
    code = "import platform; print(platform.__file__)"
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert _is_stdlib(out)


def test_platform_is_stdlib_under_wsgi():
    code = "import arena.wsgi, platform, uuid; uuid.uuid4(); print(platform.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{REPO_ROOT}:{REPO_ROOT / 'platform'}"},
    ).stdout.strip()
    assert _is_stdlib(out)
