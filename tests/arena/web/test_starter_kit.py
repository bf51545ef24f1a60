"""What a bot author downloads: the example bots and the starter kit, each run on a
Python with nothing of ours installed."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from django.urls import reverse

from arena.web.examples import example_bots
from sandbox.cli import parser

REPO_ROOT = Path(__file__).resolve().parents[3]
KIT = "onecard-starter-kit"
KIT_PACKAGES = ("onecard", "engine", "sandbox", "bots_examples")
# The interpreter behind the test venv: with -I -S it sees the standard library only.
BARE_PYTHON = getattr(sys, "_base_executable", sys.executable)

START = {
    "type": "start",
    "protocol": 1,
    "game": 0,
    "seat": 0,
    "players": 2,
    "names": ["me", "them"],
    "ruleset": {
        "name": "korean",
        "attack_values": {"2": 2, "A": 3, "AS": 5, "BJ": 7, "CJ": 10},
        "taker_continues": False,
        "multi_play": False,
        "max_penalty": None,
        "mirror_three": False,
        "suited_jokers": False,
        "turn_limit": 1000,
    },
    "hand": ["5H", "AS", "7C", "QD", "3S"],
    "top": "6H",
    "time_ms": 5000,
    "bank_ms": 10000,
}
TURN = {
    "type": "turn",
    "seat": 0,
    "turn": 0,
    "hand": ["5H", "AS", "7C", "QD", "3S"],
    "top": "6H",
    "suit": None,
    "attack": None,
    "direction": 1,
    "hands": [5, 5],
    "draw_pile": 38,
    "discard_pile": 1,
    "legal": ["5H", "7C"],
    "events": [],
    "time_ms": 1000,
    "bank_ms": 10000,
}


def unpack_kit(data: bytes, into: Path) -> Path:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(into)
    return into / KIT


def repository_kit_files() -> dict[str, Path]:
    """What the kit must hold, listed from the repository."""
    files = {
        "README.md": REPO_ROOT / "onecard" / "README.md",
        "my_bot.py": REPO_ROOT / "bots_examples" / "greedy_bot.py",
    }
    for package in KIT_PACKAGES:
        for path in (REPO_ROOT / package).rglob("*.py"):
            if "__pycache__" not in path.parts:
                files[path.relative_to(REPO_ROOT).as_posix()] = path
    return files


@pytest.mark.parametrize("example", example_bots(), ids=lambda example: example.name)
def test_every_downloadable_example_answers_on_a_bare_python(client, tmp_path, example):
    response = client.get(reverse("web:example-bot", args=[example.name]))
    assert response.status_code == 200
    (tmp_path / example.filename).write_bytes(b"".join(response.streaming_content))
    # Nothing of ours is importable where the bot runs.
    probe = subprocess.run(
        [BARE_PYTHON, "-I", "-S", "-c", "import engine"],
        cwd=tmp_path,
        env={},
        capture_output=True,
        check=False,
    )
    assert probe.returncode != 0
    done = subprocess.run(
        [BARE_PYTHON, "-I", "-S", example.filename],
        input=f"{json.dumps(START)}\n{json.dumps(TURN)}\n",
        cwd=tmp_path,
        env={},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    start_reply, turn_reply = (json.loads(line) for line in done.stdout.splitlines())
    assert isinstance(start_reply, dict)
    assert turn_reply["action"] in ("play", "draw")
    if turn_reply["action"] == "play":
        assert turn_reply["card"] in TURN["legal"]
        assert turn_reply["card"] != "7C" or turn_reply["suit"] in ("S", "H", "D", "C")


def test_the_starter_kit_is_the_repositorys_own_files(client):
    response = client.get(reverse("web:starter-kit"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="onecard-starter-kit.zip"'
    assert response["X-Content-Type-Options"] == "nosniff"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        kit = {
            info.filename.removeprefix(f"{KIT}/"): archive.read(info) for info in archive.infolist()
        }
        assert all(info.filename.startswith(f"{KIT}/") for info in archive.infolist())
    expected = repository_kit_files()
    assert sorted(kit) == sorted(expected)
    for name, path in expected.items():
        assert kit[name] == path.read_bytes(), name
    # The kit is the rules, the runner and the bots: no settings, no platform.
    assert not any(name.startswith(("arena/", "platform/", "tests/")) for name in kit)
    assert reverse("web:starter-kit") == "/starter-kit.zip"


def test_home_and_submit_pages_link_the_kit(client, alice_client):
    kit = reverse("web:starter-kit")
    assert f'href="{kit}"' in client.get(reverse("web:home")).content.decode()
    assert f'href="{kit}"' in alice_client.get(reverse("web:bot-submit")).content.decode()


def test_the_kit_plays_a_match_in_a_fresh_venv(client, tmp_path):
    folder = unpack_kit(client.get(reverse("web:starter-kit")).content, tmp_path / "unzipped")
    environment = tmp_path / "venv"
    # A fresh venv from the interpreter behind the test's: no pip, nothing installed.
    subprocess.run(
        [BARE_PYTHON, "-m", "venv", "--without-pip", str(environment)], check=True, timeout=60
    )
    python = str(environment / "bin" / "python")
    clean = {"PATH": f"{environment / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    where = subprocess.run(
        [python, "-c", "import onecard, engine; print(onecard.__file__, engine.__file__)"],
        cwd=folder,
        env=clean,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(Path(path).is_relative_to(folder) for path in where)
    done = subprocess.run(
        [python, "-m", "onecard", "match", "my_bot.py", "heuristic", "--games", "3"],
        cwd=folder,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert rows[0][:3] == ["bot", "games", "wins"]
    assert [row[:2] for row in rows[1:3]] == [["my_bot", "3"], ["heuristic", "3"]]
    assert [row[-1] for row in rows[1:3]] == ["-", "-"]  # no faults
    assert int(rows[1][2]) + int(rows[2][2]) == 3


def test_the_kit_readme_shows_every_command():
    readme = (REPO_ROOT / "onecard" / "README.md").read_text()
    usage = parser().format_usage()  # "usage: onecard [-h] {match,replay,play} ..."
    commands = re.search(r"\{([\w,-]+)\}", usage).group(1).split(",")
    assert "match" in commands
    for command in commands:
        assert f"python3 -m onecard {command}" in readme, command


def test_pip_install_gives_the_kits_command_and_packages():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["packages"]["find"]["include"]
    for package in KIT_PACKAGES:
        assert f"{package}*" in patterns
    assert project["project"]["scripts"]["onecard"] == "sandbox.cli:main"
    main = (REPO_ROOT / "onecard" / "__main__.py").read_text()
    assert re.search(r"^from sandbox\.cli import main$", main, re.MULTILINE)
