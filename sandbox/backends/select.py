"""Choosing a backend by name, and the launcher that starts one bot with it."""

from __future__ import annotations

from collections.abc import Callable

from sandbox.backends.bwrap import bwrap_path, bwrap_problem, launch_bwrap
from sandbox.backends.docker import (
    DAEMON_ERRORS,
    DEFAULT_IMAGE,
    docker_available,
    docker_client,
    launch_docker,
    runtime_problem,
)
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


def backend_problem(
    name: str, *, image: str | None = None, runtime: str | None = None
) -> str | None:
    """Why uploaded bots cannot run here under the backend setting `name`, or None when
    they can: for a health check, and for a worker to say so when it starts.

    Docker needs its engine, the bot image and the OCI runtime asked for, if any;
    bwrap needs what `bwrap_problem` checks, a cgroup for a bot above all;
    subprocess isolates nothing.
    """
    if name not in ("auto", *BACKENDS):
        return f"unknown sandbox backend {name!r}"
    if name == "subprocess":
        return "the subprocess backend does not isolate bots"
    if name in ("auto", "docker") and docker_available():
        try:
            docker_client().inspect_image(image or DEFAULT_IMAGE)
        except DAEMON_ERRORS as error:
            return f"bot image {image or DEFAULT_IMAGE!r} unavailable: {error}"
        return runtime_problem(docker_client(), runtime)
    if name == "docker":
        return "Docker engine unreachable"
    problem = bwrap_problem()
    if problem is not None and name == "auto":
        return f"no Docker engine, and bwrap cannot run bots: {problem}"
    return problem


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
