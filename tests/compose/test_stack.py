"""The production stack, started exactly as the README's Production section says,
on this machine's Docker engine.

It uploads a bot through the API, sees it qualify and play on the ladder, kills a
worker's container in the middle of one of the bot's matches and sees the other
worker finish it, the matches split between the two workers and every result
recorded once; then it starts the killed worker again, which removes the bot
containers its predecessor left behind. On the way it checks that the queues are
split as `make run` splits them (the match workers take neither the analyses' nor
the tables', which have workers of their own) and that an analysis of one of the
bot's games runs on the analysis worker, which has no Docker socket.

One test, because each step needs the stack the one before left. The stack runs
under a project name of its own and is removed, volumes included, whatever happens
(and whatever a failed earlier run left, before it starts). Images are kept: they are
the next run's build cache.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import docker
import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.util import Retry

from sandbox.labels import BOT_LABEL, OWNER_HOST_LABEL

pytestmark = [pytest.mark.slow, pytest.mark.docker]

REPO = Path(__file__).resolve().parents[2]
PROJECT = "onecardcomposetest"
PROJECT_LABEL = "com.docker.compose.project"
SERVICE_LABEL = "com.docker.compose.service"
SERVICES = {
    "postgres": 1,
    "redis": 1,
    "web": 1,
    "worker": 2,
    "tables-worker": 1,
    "analysis-worker": 1,
    "beat": 1,
}
# The services whose containers start bot containers, and so get the Docker socket.
SANDBOXED = ("worker", "tables-worker")
DOCKER_SOCKET = "/var/run/docker.sock"
SLOW_BOT = Path(__file__).with_name("slow_bot.py")
BOT_NAME = "slowpoke"
ADMIN = "admin"  # as the README creates it
# The setting's minimum: a killed worker's match is played again after this, at the
# lease sweeper's next run (every 30 s).
LEASE_SECONDS = "10"
# Where the compose plugin is missing, Debian's docker-compose (v1) runs the README's
# `docker compose ...` lines.
COMPOSE_SHIM = """
if ! command docker compose version >/dev/null 2>&1; then
    docker() {
        if [ "$1" = compose ]; then shift; command docker-compose "$@"; else command docker "$@"; fi
    }
fi
"""
# Variables the compose file reads: the test sets its own, the caller's never leak in.
_OURS = re.compile(r"^(ARENA_|DJANGO_|POSTGRES_|COMPOSE_|DOCKER_GID$)")

T = TypeVar("T")


def readme_production_script() -> str:
    """The shell block of the README's Production section."""
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Production\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert found, "the README's Production section has no sh block"
    return found.group(1)


def wait_for(check: Callable[[], T | None], *, timeout: float, what: str, every: float = 1) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(every)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Stack:
    client: Any  # docker.DockerClient
    env: dict[str, str]
    url: str
    admin_password: str

    def compose(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", COMPOSE_SHIM + 'docker compose "$@"', "compose", *args],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def containers(self, service: str | None = None) -> list[Any]:
        labels = [f"{PROJECT_LABEL}={PROJECT}"]
        if service is not None:
            labels.append(f"{SERVICE_LABEL}={service}")
        return self.client.containers.list(all=True, filters={"label": labels})

    def sql(self, query: str) -> list[list[str]]:
        [postgres] = self.containers("postgres")
        result = postgres.exec_run(
            ["psql", "-U", "arena", "-d", "arena", "-XAt", "-F", "\t", "-c", query]
        )
        assert result.exit_code == 0, result.output.decode()
        return [line.split("\t") for line in result.output.decode().splitlines() if line]

    def bot_containers(self, host: str) -> list[str]:
        """Ids of the bot containers whose owner is a worker on `host` (a container's
        hostname). Listed without inspecting each: other workers' come and go."""
        labels = [f"{BOT_LABEL}=1", f"{OWNER_HOST_LABEL}={host}"]
        return [c["Id"] for c in self.client.api.containers(all=True, filters={"label": labels})]


def _remove(stack: Stack) -> None:
    """The project's containers, networks and volumes, and the bot containers its
    workers started (siblings, which compose does not know)."""
    hosts = {
        container.attrs["Config"]["Hostname"]
        for service in SANDBOXED
        for container in stack.containers(service)
    }
    stack.compose("down", "--volumes", "--remove-orphans", "--timeout", "5")
    for container in stack.containers():
        container.remove(force=True, v=True)
    for host in hosts:
        for container in stack.bot_containers(host):
            with contextlib.suppress(docker.errors.NotFound):
                stack.client.api.remove_container(container, force=True, v=True)
    for volume in stack.client.volumes.list(filters={"label": f"{PROJECT_LABEL}={PROJECT}"}):
        volume.remove(force=True)
    for network in stack.client.networks.list(filters={"label": f"{PROJECT_LABEL}={PROJECT}"}):
        network.remove()


@pytest.fixture
def stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    plugin = subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    if not plugin and shutil.which("docker-compose") is None:
        pytest.skip("no Docker Compose (CI installs it in .ci/steps/25-compose.sh)")
    try:
        client = docker.from_env(timeout=60)
        client.ping()
    except docker.errors.DockerException:
        pytest.skip("no Docker engine answers (CI starts one in .ci/steps/20-docker.sh)")
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if not _OURS.match(key)}
    password = secrets.token_urlsafe(16)
    env |= {
        "COMPOSE_PROJECT_NAME": PROJECT,
        "ARENA_PORT": str(port),
        "ARENA_ADMIN_PASSWORD": password,
        "ARENA_MATCH_LEASE_SECONDS": LEASE_SECONDS,
        # For the commands after the README's (ps, down): its own key is exported there.
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    }
    stack = Stack(client, env, f"http://127.0.0.1:{port}", password)
    _remove(stack)
    failed = True
    try:
        started = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", COMPOSE_SHIM + readme_production_script()],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert started.returncode == 0, f"{started.stdout[-3000:]}\n{started.stderr[-3000:]}"
        yield stack
        report = getattr(request.node, "report_call", None)
        failed = report is None or report.failed
    finally:
        if failed:  # the stack's own account before it goes, shown with the failure
            print(stack.compose("ps").stdout, file=sys.stderr)
            print(
                stack.compose("logs", "--no-color", "--tail", "40").stdout[-30000:], file=sys.stderr
            )
        _remove(stack)


def _healthy(stack: Stack) -> dict[str, list[Any]] | None:
    found: dict[str, list[Any]] = {}
    for container in stack.containers():
        health = container.attrs["State"].get("Health", {}).get("Status")
        if container.attrs["State"]["Status"] != "running" or health != "healthy":
            return None
        found.setdefault(container.labels[SERVICE_LABEL], []).append(container)
    return found if {name: len(c) for name, c in found.items()} == SERVICES else None


def _assert_separate_hosts(stack: Stack, workers: list[Any]) -> None:
    """Each worker is a host of its own: its hostname, its network namespace on the
    project's network alone, no disk shared with the site; PostgreSQL and Redis
    publish no port, so the project's network is the only way to them."""
    [web] = stack.containers("web")
    web_mounts = {mount.get("Name") for mount in web.attrs["Mounts"]}
    hostnames = set()
    for worker in workers:
        hostnames.add(worker.attrs["Config"]["Hostname"])
        assert worker.attrs["HostConfig"]["NetworkMode"] not in ("host", "bridge")
        assert not worker.attrs["HostConfig"]["NetworkMode"].startswith("container:")
        assert list(worker.attrs["NetworkSettings"]["Networks"]) == [f"{PROJECT}_default"]
        mounts = worker.attrs["Mounts"]
        assert [mount["Destination"] for mount in mounts] == [DOCKER_SOCKET]
        assert not web_mounts & {mount.get("Name") for mount in mounts}
    assert len(hostnames) == 2
    for service in ("postgres", "redis"):
        [container] = stack.containers(service)
        assert not any(container.attrs["NetworkSettings"]["Ports"].values())


def _assert_queues_split(stack: Stack, services: dict[str, list[Any]]) -> None:
    """Every worker consumes what `make run`'s does, as the workers themselves answer:
    the match workers every queue but the analyses' and the tables'; those have a
    worker each. Only the workers that run bots have the Docker socket."""
    [web] = stack.containers("web")
    script = (
        "import json; from arena.celery import app; "
        "print(json.dumps(app.control.inspect(timeout=10).active_queues()))"
    )
    result = web.exec_run(["python", "manage.py", "shell", "-c", script], stderr=False)
    assert result.exit_code == 0, result.output.decode()
    answered = json.loads(result.output.decode().strip().splitlines()[-1])
    by_name: dict[str, list[set[str]]] = {}
    for node, queues in answered.items():
        by_name.setdefault(node.split("@")[0], []).append({queue["name"] for queue in queues})
    assert sorted(by_name) == ["analysis", "tables", "worker"], answered
    assert by_name["analysis"] == [{"analysis"}]
    assert by_name["tables"] == [{"tables"}]
    assert len(by_name["worker"]) == 2
    for queues in by_name["worker"]:
        assert {"arena", "tournaments", "qualification", "notifications"} <= queues
        assert not queues & {"analysis", "tables"}, queues
    for service, containers in services.items():
        for container in containers:
            mounts = [mount["Destination"] for mount in container.attrs["Mounts"]]
            assert (DOCKER_SOCKET in mounts) == (service in SANDBOXED), (service, mounts)


def _session(stack: Stack) -> requests.Session:
    """The admin's API session. Like a browser, it asks again where a read finds its
    kept-alive connection closed under it; it never resends a POST."""
    session = requests.Session()
    retry = Retry(total=2, connect=2, read=2, status=0, allowed_methods={"GET"})
    session.mount("http://", HTTPAdapter(max_retries=retry))
    answer = session.post(
        f"{stack.url}/api/v1/auth/token/",
        data={"username": ADMIN, "password": stack.admin_password},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    session.headers["Authorization"] = f"Token {answer.json()['token']}"
    return session


def _assert_polling_keeps_its_connection(stack: Stack, idle: float = 4) -> None:
    """A client asking every few seconds finds its connection still open: the site
    keeps an idle one longer than that (`deploy/gunicorn.conf.py`). Plain
    `http.client`, which never reconnects by itself."""
    address = urlsplit(stack.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)

    def ask() -> None:
        connection.request("GET", "/healthz/")
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        assert response.getheader("Connection", "").lower() != "close"

    try:
        ask()
        time.sleep(idle)
        ask()  # on the same connection: RemoteDisconnected if the server closed it
    finally:
        connection.close()


def _analyse(stack: Stack, session: requests.Session) -> None:
    """One of the uploaded bot's games analysed, on the analysis worker."""
    [[game_id]] = stack.sql(
        "SELECT g.id FROM matches_game g JOIN matches_matchseat s ON s.match_id = g.match_id"
        f" JOIN bots_bot b ON b.id = s.bot_id WHERE b.name = '{BOT_NAME}'"
        " ORDER BY g.id LIMIT 1"
    )
    url = f"{stack.url}/api/v1/games/{game_id}/analysis/"
    answer = session.post(url, timeout=30)
    assert answer.status_code == 201, answer.text

    def finished() -> dict[str, Any] | None:
        analysis = session.get(url, timeout=30).json()
        return analysis if analysis["state"] in ("done", "failed") else None

    analysis = wait_for(finished, timeout=300, what="the analysis of a game", every=3)
    assert analysis["state"] == "done", analysis
    assert analysis["decisions_done"] == analysis["decisions_total"] > 0


def _upload(stack: Stack, session: requests.Session) -> int:
    with SLOW_BOT.open("rb") as code:
        answer = session.post(
            f"{stack.url}/api/v1/bots/upload/",
            data={"name": BOT_NAME},
            files={"upload": ("slow_bot.py", code)},
            timeout=30,
        )
    assert answer.status_code == 201, answer.text
    version_id = int(answer.json()["id"])

    def status() -> str | None:
        version = session.get(f"{stack.url}/api/v1/versions/{version_id}/", timeout=30).json()
        assert version["status"] != "failed", version
        return version["status"] if version["status"] == "active" else None

    wait_for(status, timeout=240, what="the uploaded bot to qualify", every=3)
    return version_id


def _done_by_host(stack: Stack) -> dict[str, int]:
    """Ladder matches of the uploaded bot each worker host finished."""
    rows = stack.sql(
        "SELECT split_part(m.worker, ':', 1), count(DISTINCT m.id) FROM matches_match m"
        " JOIN matches_matchseat s ON s.match_id = m.id JOIN bots_bot b ON b.id = s.bot_id"
        f" WHERE m.state = 'done' AND m.kind = 'ladder' AND b.name = '{BOT_NAME}' GROUP BY 1"
    )
    return {host: int(count) for host, count in rows}


def _just_started(stack: Stack) -> tuple[int, str] | None:
    """A ladder match of the uploaded bot that started under 3 s ago, far from its end
    (its last two games at 300 ms a move), and the host of the worker playing it."""
    rows = stack.sql(
        "SELECT m.id, split_part(m.worker, ':', 1) FROM matches_match m"
        " JOIN matches_matchseat s ON s.match_id = m.id JOIN bots_bot b ON b.id = s.bot_id"
        f" WHERE m.state = 'running' AND m.kind = 'ladder' AND b.name = '{BOT_NAME}'"
        " AND m.started_at > now() - interval '3 seconds' ORDER BY m.started_at DESC LIMIT 1"
    )
    return (int(rows[0][0]), rows[0][1]) if rows else None


def _assert_every_result_recorded_once(stack: Stack) -> None:
    """Every finished match has each planned game once, each seat counted them once,
    and every rated game changed each seat's rating once."""
    assert (
        stack.sql("SELECT match_id, number FROM matches_game GROUP BY 1, 2 HAVING count(*) > 1")
        == []
    )
    assert (
        stack.sql(
            "SELECT m.id FROM matches_match m WHERE m.state = 'done' AND m.games_planned <>"
            " (SELECT count(*) FROM matches_game g WHERE g.match_id = m.id)"
        )
        == []
    )
    assert (
        stack.sql(
            "SELECT s.id FROM matches_matchseat s JOIN matches_match m ON m.id = s.match_id"
            " WHERE m.state = 'done' AND s.games <> m.games_planned"
        )
        == []
    )
    assert (
        stack.sql(
            "SELECT g.id FROM matches_game g JOIN matches_match m ON m.id = g.match_id"
            " WHERE m.state = 'done' AND m.rated AND"
            " (SELECT count(*) FROM ratings_ratingchange r WHERE r.game_id = g.id)"
            " <> (SELECT count(*) FROM matches_matchseat s WHERE s.match_id = m.id)"
        )
        == []
    )


def test_the_production_stack_plays_through_a_dead_worker(stack: Stack) -> None:
    # `up` returned once the site was healthy (the workers wait for it); the workers'
    # first health checks run while the bot qualifies.
    _assert_polling_keeps_its_connection(stack)
    session = _session(stack)
    _upload(stack, session)
    services = wait_for(
        lambda: _healthy(stack), timeout=120, what="every service to be healthy", every=3
    )
    workers = services["worker"]
    _assert_separate_hosts(stack, workers)
    _assert_queues_split(stack, services)
    by_host = {worker.attrs["Config"]["Hostname"]: worker for worker in workers}
    wait_for(
        lambda: set(_done_by_host(stack)) == set(by_host),
        timeout=240,
        what="both workers to finish ladder matches of the uploaded bot",
        every=2,
    )

    match_id, host = wait_for(
        lambda: _just_started(stack), timeout=120, what="a ladder match to start", every=0.2
    )
    victim = by_host[host]
    wait_for(lambda: stack.bot_containers(host), timeout=5, what="its bot containers", every=0.2)
    victim.kill()
    # Its bot containers outlive it: siblings on the host's engine.
    assert stack.bot_containers(host)

    def finished() -> list[str] | None:
        [row] = stack.sql(
            f"SELECT state, worker, attempts FROM matches_match WHERE id = {match_id}"
        )
        return row if row[0] in ("done", "failed") else None

    state, worker, attempts = wait_for(
        finished, timeout=180, what=f"match {match_id} to finish on the other worker", every=2
    )
    assert int(attempts) > 1, f"match {match_id} ended before its worker was killed"
    assert (state, int(attempts)) == ("done", 2)
    survivor = worker.split(":")[0]
    assert survivor in by_host
    assert survivor != host

    split = _done_by_host(stack)
    assert set(split) == set(by_host), split
    assert min(split.values()) >= 1, split
    _assert_every_result_recorded_once(stack)
    listed = requests.get(f"{stack.url}/api/v1/matches/?bot={BOT_NAME}", timeout=30).json()
    assert any(match["id"] == match_id for match in listed["results"]), listed

    _analyse(stack, session)

    # Started again (same hostname), the worker removes what its predecessor left.
    victim.start()
    wait_for(lambda: not stack.bot_containers(host), timeout=120, what="the orphans to go")
