"""gVisor (`runsc`) as the OCI runtime of bot containers, both ways: where the engine
has it registered, bots play under it; where it has not, asking for it refuses the
bots with the reason, for the worker and for its health check alike. Never skipped:
whichever the machine is, one of the two is checked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import sandbox
from sandbox.backends.docker import ContainerProcess, docker_client
from tests.sandbox.harness import FAST, FIRST_LEGAL, leftover_containers, require_backend

pytestmark = pytest.mark.docker
IMAGE = "onecard-bot-runtime:latest"
RUNTIME = "runsc"


@pytest.fixture
def api() -> Iterator[Any]:
    require_backend("docker")
    yield docker_client()
    assert leftover_containers() == []


def _program() -> sandbox.BotProgram:
    return sandbox.BotProgram("sound", FIRST_LEGAL)


def test_bots_play_under_runsc_where_registered_and_are_refused_where_not(api: Any) -> None:
    if RUNTIME in (api.info().get("Runtimes") or {}):
        with ContainerProcess(_program(), FAST, image=IMAGE, runtime=RUNTIME) as bot:
            assert api.inspect_container(bot.container_id)["HostConfig"]["Runtime"] == RUNTIME
        result = sandbox.run_match(
            [_program()] * 2, games=2, seed=3, backend="docker", runtime=RUNTIME
        )
        assert [game["result"]["faults"] for game in result.games] == [[], []]
        assert sandbox.backend_problem("docker", image=IMAGE, runtime=RUNTIME) is None
        return
    expected = f"OCI runtime '{RUNTIME}' is not registered with the Docker engine"
    with pytest.raises(sandbox.InfrastructureError, match=expected):
        sandbox.run_match([_program()] * 2, games=1, seed=3, backend="docker", runtime=RUNTIME)
    with pytest.raises(sandbox.InfrastructureError, match="bot containers refused"):
        ContainerProcess(_program(), FAST, image=IMAGE, runtime=RUNTIME)
    assert expected in (sandbox.backend_problem("docker", image=IMAGE, runtime=RUNTIME) or "")
    assert expected in (sandbox.backend_problem("auto", image=IMAGE, runtime=RUNTIME) or "")


def test_the_default_runtime_needs_no_check(api: Any) -> None:
    assert sandbox.backend_problem("docker", image=IMAGE, runtime=None) is None
    assert sandbox.backend_problem("docker", image=IMAGE, runtime="runc") is None
