"""The container a bot gets, the daemon's errors, and the clean-up of orphans."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker.errors
import pytest

import sandbox
from sandbox.backends.docker import BOT_UIDS, ContainerProcess, docker_client
from sandbox.labels import (
    BOT_LABEL,
    EXPIRES_LABEL,
    OWNER_HOST_LABEL,
    OWNER_PID_LABEL,
    OWNER_START_LABEL,
    owner_host,
    owner_start,
)
from sandbox.owner import boot_id
from tests.sandbox.harness import FAST, FIRST_LEGAL, leftover_containers, require_backend

pytestmark = pytest.mark.docker
IMAGE = "onecard-bot-runtime:latest"


@pytest.fixture
def api() -> Iterator[Any]:
    require_backend("docker")
    yield docker_client()
    assert leftover_containers() == []


def test_the_bot_container_is_locked_down(api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONECARD_CANARY", "secret")
    with ContainerProcess(
        sandbox.BotProgram("sound", FIRST_LEGAL), FAST, image=IMAGE, runtime=None
    ) as bot:
        info = api.inspect_container(bot.container_id)
    host, config = info["HostConfig"], info["Config"]
    assert host["NetworkMode"] == "none"
    assert host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"]
    assert "no-new-privileges" in host["SecurityOpt"]
    assert host["PidsLimit"] == FAST.pids
    assert host["Memory"] == host["MemorySwap"] == FAST.memory_bytes
    assert host["NanoCpus"] == 10**9
    assert host["Binds"] in (None, [])
    assert {m["Type"] for m in host["Mounts"]} == {"volume"}
    assert {u["Name"]: u["Hard"] for u in host["Ulimits"]} == {
        "nofile": FAST.open_files,
        "core": 0,
        "fsize": FAST.file_bytes,
    }
    assert host["LogConfig"]["Type"] == "none"
    assert host["Init"] is True
    uid = int(config["User"].split(":")[0])
    assert config["User"] == f"{uid}:{uid}"
    assert uid in BOT_UIDS
    assert not any("ONECARD_CANARY" in variable for variable in config["Env"])
    assert config["Labels"][BOT_LABEL] == "1"
    assert config["Labels"][OWNER_PID_LABEL] == str(os.getpid())


def _status_ids(pid: int, key: str) -> list[int]:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return [int(n) for n in next(line for line in status if line.startswith(key)).split()[1:]]


def test_each_bot_is_a_user_of_its_own_under_dockers_init(api: Any) -> None:
    """Two bots, two uids that no host user has, seen so from the host; the bot is not
    PID 1 of its container: Docker's init is, and reaps what the bot orphans."""
    program = sandbox.BotProgram("sound", FIRST_LEGAL)
    with (
        ContainerProcess(program, FAST, image=IMAGE, runtime=None) as first,
        ContainerProcess(program, FAST, image=IMAGE, runtime=None) as second,
    ):
        uids = []
        for bot in (first, second):
            bot.exchange(b'{"type": "start"}\n', time.monotonic() + 10)
            init = api.inspect_container(bot.container_id)["State"]["Pid"]
            assert "init" in Path(f"/proc/{init}/cmdline").read_bytes().decode()
            (python,) = Path(f"/proc/{init}/task/{init}/children").read_text().split()
            assert _status_ids(int(python), "Uid:")[:1] == _status_ids(int(python), "Gid:")[:1]
            uids.append(_status_ids(int(python), "Uid:")[0])
    assert uids[0] != uids[1]
    assert all(uid in BOT_UIDS for uid in uids)


def test_a_missing_image_is_the_platforms_problem_not_the_bots(api: Any) -> None:
    with pytest.raises(sandbox.InfrastructureError, match="missing"):
        sandbox.run_match(
            [sandbox.BotProgram("a", FIRST_LEGAL)] * 2,
            games=1,
            seed=1,
            backend="docker",
            image="onecard-no-such-image:latest",
        )


def test_an_unknown_runtime_is_the_platforms_problem(api: Any) -> None:
    with pytest.raises(sandbox.InfrastructureError):
        sandbox.run_match(
            [sandbox.BotProgram("a", FIRST_LEGAL)] * 2,
            games=1,
            seed=1,
            backend="docker",
            runtime="no-such-oci-runtime",
        )


def test_a_connection_dropped_at_start_is_the_platforms_problem(
    api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """requests' errors are not DockerException: they must still not be a bot's crash,
    and the half-made container must not be left behind."""
    import requests

    def drop(self: Any, container: str) -> None:
        raise requests.exceptions.ConnectionError("connection aborted")

    monkeypatch.setattr(type(api), "start", drop)
    with pytest.raises(sandbox.InfrastructureError, match="connection aborted"):
        ContainerProcess(sandbox.BotProgram("sound", FIRST_LEGAL), FAST, image=IMAGE, runtime=None)


def _labelled_container(api: Any, labels: dict[str, str]) -> str:
    created = api.create_container(
        IMAGE, command=["python3", "-c", "pass"], labels={BOT_LABEL: "1", **labels}
    )
    return str(created["Id"])


def test_cleanup_removes_orphans_and_keeps_live_matches(api: Any) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    far = f"{time.time() + 3600:.0f}"
    orphan = _labelled_container(
        api, {OWNER_HOST_LABEL: owner_host(), OWNER_PID_LABEL: str(dead.pid), EXPIRES_LABEL: far}
    )
    expired = _labelled_container(
        api, {OWNER_HOST_LABEL: "elsewhere", OWNER_PID_LABEL: "1", EXPIRES_LABEL: "0"}
    )
    mine = {OWNER_HOST_LABEL: owner_host(), OWNER_PID_LABEL: str(os.getpid()), EXPIRES_LABEL: far}
    live = _labelled_container(api, {**mine, OWNER_START_LABEL: owner_start(os.getpid())})
    # A dead worker's, whose pid this process has since been given.
    reused = _labelled_container(api, {**mine, OWNER_START_LABEL: f"{boot_id()}:1"})
    made = (orphan, expired, live, reused)

    def remaining() -> set[str]:
        return {c["Id"] for c in api.containers(all=True)}

    try:
        sandbox.cleanup_orphans(older_than_s=3600)  # all too young to judge
        assert set(made) <= remaining()
        # The count also takes in groups of dead workers elsewhere on this machine.
        assert sandbox.cleanup_orphans() >= 3
        assert orphan not in remaining()
        assert expired not in remaining()
        assert reused not in remaining()
        assert live in remaining()
    finally:
        for container in made:
            with contextlib.suppress(docker.errors.NotFound):
                api.remove_container(container, force=True, v=True)


def test_the_health_check_names_what_is_missing(api: Any) -> None:
    assert sandbox.backend_problem("docker", image=IMAGE) is None
    assert sandbox.backend_problem("auto", image=IMAGE) is None
    assert "unavailable" in (sandbox.backend_problem("docker", image="onecard-no-such:1") or "")
    assert "does not isolate" in (sandbox.backend_problem("subprocess") or "")
