"""The platform's side of `sandbox.run_match`: stored code in, logs out.

Stored bot versions become `sandbox.BotProgram`s: a single file in local storage
as it lies (the sandbox only reads it), anything else copied into a temporary
folder that is removed afterwards (a zip is unpacked with the upload checks
applied again). The sandbox is chosen from settings. Only the platform's own
example bots may run without isolation when ARENA_ALLOW_UNSANDBOXED is off: their
code is ours.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

import sandbox
from arena.bots.models import BotVersion
from arena.bots.services import upload_limits
from arena.bots.uploads import extract_zip
from arena.settings.env import REPO_ROOT
from sandbox.errors import InfrastructureError

logger = logging.getLogger(__name__)

EXAMPLES_DIR = REPO_ROOT / "bots_examples"
QUALIFIER_BOT = EXAMPLES_DIR / "random_bot.py"


@dataclass(frozen=True)
class Entrant:
    """Who sits down at a sandboxed table: a name, and a bot's code or a person."""

    name: str
    version: BotVersion | None = None  # stored code, or
    path: Path | None = None  # a file of the platform's own (the qualifier), or
    person: Any = None  # a person's seat (sandbox.match.Player: sandbox.human.HumanSeat)

    @property
    def trusted(self) -> bool:
        return self.person is not None or self.version is None or self.version.bot.is_example


@contextmanager
def bot_programs(
    entrants: Sequence[Entrant],
) -> Iterator[list[sandbox.BotProgram | sandbox.Seated]]:
    """The entrants' code on disk as BotPrograms (a person as they are seated);
    copies made for the match are removed when the block ends."""
    with ExitStack() as cleanup:
        scratch: Path | None = None
        programs: list[sandbox.BotProgram | sandbox.Seated] = []
        for index, entrant in enumerate(entrants):
            if entrant.person is not None:
                programs.append(sandbox.Seated(entrant.name, entrant.person))
                continue
            path = _file_as_it_lies(entrant)
            if path is None:
                assert entrant.version is not None
                if scratch is None:
                    scratch = Path(
                        cleanup.enter_context(tempfile.TemporaryDirectory(prefix="arena-match-"))
                    )
                path = _copy_out(entrant.version, scratch / str(index))
            programs.append(sandbox.BotProgram(entrant.name, path))
        yield programs


def _file_as_it_lies(entrant: Entrant) -> Path | None:
    """The entrant's code where it already is, if the sandbox can take it from there:
    the platform's own files, and a stored single file in local storage. A stored
    file is immutable and the sandbox only reads it (bwrap hands it in as data,
    docker copies it in): no copy per match (1 ms of every match)."""
    if entrant.version is None:
        return entrant.path
    if entrant.version.kind != BotVersion.Kind.PY:
        return None
    try:
        return Path(entrant.version.code.path)
    except NotImplementedError:  # Django's answer for a remote storage: copy it out
        return None


def _copy_out(version: BotVersion, folder: Path) -> Path:
    """The version's code copied into `folder` (a zip unpacked, with the upload
    checks applied again)."""
    folder.mkdir()
    with version.code.open("rb") as code:
        data = code.read()
    if version.kind == BotVersion.Kind.ZIP:
        extract_zip(data=data, destination=folder, limits=upload_limits())
        return folder
    target = folder / "main.py"
    target.write_bytes(data)
    return target


def run_sandboxed_match(
    *,
    entrants: Sequence[Entrant],
    games: int,
    seed: int,
    ruleset: dict[str, Any],
    progress: Callable[..., None] | None = None,
    watch: Callable[..., None] | None = None,
    limits: sandbox.Limits | None = None,
) -> Any:
    """`sandbox.run_match` with the configured backend; returns its MatchResult.

    Raises sandbox.InfrastructureError when no sandbox can run the bots. A table
    of example bots only, under `auto`, falls back to plain processes: that code
    is ours, and a fresh `make run` on a machine whose Docker lacks the bot image
    (or that has no sandbox at all) still gets a playing ladder.
    """
    trusted = all(entrant.trusted for entrant in entrants)
    backend = settings.ARENA_SANDBOX_BACKEND
    with bot_programs(entrants) as programs:

        def run(chosen: str) -> Any:
            return sandbox.run_match(
                programs,
                games=games,
                seed=seed,
                ruleset=ruleset,
                backend=chosen,
                allow_unsandboxed=settings.ARENA_ALLOW_UNSANDBOXED or trusted,
                image=settings.ARENA_SANDBOX_IMAGE,
                runtime=settings.ARENA_SANDBOX_RUNTIME or None,
                progress=progress,
                watch=watch,
                limits=limits,
            )

        try:
            return run(backend)
        except InfrastructureError as error:
            if not (trusted and backend == "auto"):
                raise
            logger.warning("sandbox unavailable (%s); example bots run as processes", error)
            return run("subprocess")
