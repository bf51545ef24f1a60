from __future__ import annotations

import io
import os
import tarfile
import threading
from pathlib import Path

import pytest

from sandbox.program import MAX_CODE_FILES, BotProgram, open_regular


def test_a_directory_bot_is_copied_without_its_links(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    (bot / "lib").mkdir(parents=True)
    (bot / "main.py").write_text("import lib.helper\n")
    (bot / "lib" / "helper.py").write_text("X = 1\n")
    os.symlink("/etc/passwd", bot / "passwd")
    os.symlink("/etc", bot / "etc")
    program = BotProgram("bot", bot)
    program.check()
    with tarfile.open(fileobj=io.BytesIO(program.archive())) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert set(members) == {"lib", "lib/helper.py", "main.py"}
    assert members["main.py"].mode == 0o444
    assert members["main.py"].uid == 0
    assert members["lib"].isdir()


def test_a_single_file_bot_becomes_main_py(tmp_path: Path) -> None:
    source = tmp_path / "clever.py"
    source.write_text("print('{}')\n")
    program = BotProgram("clever", source)
    assert program.files() == [("main.py", source)]


def test_nothing_to_run_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no Python file"):
        BotProgram("empty", tmp_path).check()


def test_an_upload_of_countless_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("")
    for i in range(MAX_CODE_FILES + 1):
        (tmp_path / f"f{i}").touch()
    with pytest.raises(ValueError, match="files"):
        BotProgram("many", tmp_path).archive()


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_file_swapped_since_it_was_listed_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    """Between listing a bot's files and opening them, one may become a FIFO (whose
    open would wait for a writer forever) or a link to a host file: the open refuses
    both, without blocking."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text("")
    (bot / "helper.py").write_text("")
    program = BotProgram("bot", bot)
    listed = program.files()
    (bot / "helper.py").unlink()
    if kind == "fifo":
        os.mkfifo(bot / "helper.py")
    else:
        os.symlink("/etc/passwd", bot / "helper.py")
    outcome: list[BaseException | int] = []

    def open_them() -> None:
        try:
            for _, path in listed:
                os.close(open_regular(path))
        except BaseException as error:
            outcome.append(error)

    opener = threading.Thread(target=open_them, daemon=True)
    opener.start()
    opener.join(5)
    assert not opener.is_alive(), "the open blocked"
    assert outcome, "nothing was refused"
    assert isinstance(outcome[0], (ValueError, OSError)), outcome
