"""Choosing a backend by name, and the launcher that starts one bot with it."""

from __future__ import annotations

from collections.abc import Callable

from sandbox.backends.bwrap import bwrap_path, launch_bwrap
from sandbox.backends.docker import docker_available, launch_docker
from sandbox.backends.local import launch_subprocess
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.process import BotProcess
from sandbox.program import BotProgram

BACKENDS = ("docker", "bwrap", "subprocess")
Launch = Callable[[BotProgram, Limits], BotProcess]


def resolve_backend(name: str, *, allow_unsandboxed: bool) -> str:
    """The backend a setting means: `auto` is docker if the engine answers, else bwrap.

    `subprocess` isolates nothing, so it needs `allow_unsandboxed`, and `auto` never
    falls back to it silently.
    """
    if name == "auto":
        if docker_available():
            return "docker"
        if bwrap_path() is not None:
            return "bwrap"
        if allow_unsandboxed:
            return "subprocess"
        raise InfrastructureError(
            "no sandbox available: neither a Docker engine nor bubblewrap; uploaded bots refused"
        )
    if name not in BACKENDS:
        raise ValueError(f"unknown sandbox backend {name!r}; one of auto, {', '.join(BACKENDS)}")
    if name == "subprocess" and not allow_unsandboxed:
        raise InfrastructureError("the subprocess backend does not isolate bots and is not allowed")
    if name == "docker" and not docker_available():
        raise InfrastructureError("Docker engine unreachable")
    if name == "bwrap" and bwrap_path() is None:
        raise InfrastructureError("bubblewrap (bwrap) is not installed")
    return name


def launcher_for(backend: str, *, image: str | None, runtime: str | None) -> Launch:
    if backend == "docker":

        def launch(program: BotProgram, limits: Limits) -> BotProcess:
            return launch_docker(program, limits, image=image, runtime=runtime)

        return launch
    if backend == "bwrap":
        return launch_bwrap
    if backend == "subprocess":
        return launch_subprocess
    raise ValueError(f"unknown sandbox backend {backend!r}")
