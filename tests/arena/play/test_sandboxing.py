"""Choosing the sandbox for a table: uploaded code is never run unsandboxed unless
allowed; a table of the platform's own example bots may fall back to processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.base import ContentFile

from arena.bots.models import BotVersion
from arena.play import sandboxing
from arena.play.sandboxing import Entrant, bot_programs, run_sandboxed_match
from arena.settings.env import REPO_ROOT
from sandbox.errors import InfrastructureError
from tests.arena.factories import KOREAN, ActiveBotVersionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def backends_tried(monkeypatch):
    """Record each backend asked for; every one but subprocess is 'unavailable'."""
    tried: list[tuple[str, bool]] = []
    real = sandboxing.sandbox.run_match

    def fake(programs, *, backend, allow_unsandboxed, **kwargs):
        tried.append((backend, allow_unsandboxed))
        if backend != "subprocess":
            raise InfrastructureError("bot image missing")
        return real(programs, backend=backend, allow_unsandboxed=allow_unsandboxed, **kwargs)

    monkeypatch.setattr(sandboxing.sandbox, "run_match", fake)
    return tried


def example(name: str):
    source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
    return ActiveBotVersionFactory(bot__name=name, bot__is_example=True, source=source)


def test_examples_fall_back_to_processes_under_auto(settings, backends_tried):
    settings.ARENA_SANDBOX_BACKEND = "auto"
    settings.ARENA_ALLOW_UNSANDBOXED = False
    entrants = [Entrant(name=v.bot.name, version=v) for v in (example("greedy"), example("random"))]
    result = run_sandboxed_match(entrants=entrants, games=2, seed=1, ruleset=KOREAN)
    assert result.backend == "subprocess"
    assert len(result.games) == 2
    assert backends_tried == [("auto", True), ("subprocess", True)]


def test_uploaded_bots_get_no_fallback(settings, backends_tried):
    settings.ARENA_SANDBOX_BACKEND = "auto"
    settings.ARENA_ALLOW_UNSANDBOXED = False
    uploaded = ActiveBotVersionFactory()
    entrants = [
        Entrant(name=uploaded.bot.name, version=uploaded),
        Entrant(name="qualifier", path=sandboxing.QUALIFIER_BOT),
    ]
    with pytest.raises(InfrastructureError):
        run_sandboxed_match(entrants=entrants, games=1, seed=1, ruleset=KOREAN)
    assert backends_tried == [("auto", False)]


def test_an_explicit_backend_is_never_swapped(settings, backends_tried):
    settings.ARENA_SANDBOX_BACKEND = "docker"
    entrants = [Entrant(name=v.bot.name, version=v) for v in (example("greedy"), example("random"))]
    with pytest.raises(InfrastructureError):
        run_sandboxed_match(entrants=entrants, games=1, seed=1, ruleset=KOREAN)
    assert backends_tried == [("docker", True)]


def zip_version():
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", "import helper\n")
        archive.writestr("helper.py", "X = 1\n")
    return ActiveBotVersionFactory(
        kind=BotVersion.Kind.ZIP,
        source=buffer.getvalue(),
        code=ContentFile(buffer.getvalue(), name="bot.zip"),
    )


def test_a_stored_python_file_is_handed_to_the_sandbox_without_a_copy():
    version = ActiveBotVersionFactory()
    with bot_programs([Entrant(name="a", version=version)]) as (program,):
        assert program.path == Path(version.code.path)
        assert program.path.read_bytes() == version.code.open("rb").read()


def test_a_zip_is_unpacked_for_the_match_and_removed_after():
    with bot_programs([Entrant(name="z", version=zip_version())]) as (program,):
        unpacked = program.path
        assert sorted(p.name for p in unpacked.iterdir()) == ["helper.py", "main.py"]
    assert not unpacked.exists()


def test_code_in_a_remote_storage_is_copied_out_for_the_match(monkeypatch):
    version = ActiveBotVersionFactory()
    source = version.code.open("rb").read()

    def no_local_path(name):
        raise NotImplementedError("This backend doesn't support absolute paths.")

    monkeypatch.setattr(version.code.storage, "path", no_local_path)
    with bot_programs([Entrant(name="r", version=version)]) as (program,):
        copied = program.path
        assert copied.name == "main.py"
        assert copied.read_bytes() == source
    assert not copied.exists()
