"""The `docker` backend: one locked-down container per bot per match.

No network, memory without swap, one CPU, a pids limit, a read-only root with a
small tmpfs, a uid of its own, no capabilities, no-new-privileges, nothing of the
host's environment, no log on the host (the attach stream is all the sandbox
reads), and Docker's init as PID 1, which reaps the orphans a bot leaves. The
bot's code is copied in with `put_archive` (never bind-mounted, so a worker that
itself runs in a container works) into an anonymous volume at /bot: a read-only
root refuses `put_archive` anywhere else, and the files are root's and mode 0444,
so the bot cannot change them. Teardown removes the container by id (`force`,
which kills its whole PID namespace) with its volume; the labels let
`cleanup_orphans` find containers a crashed worker left behind.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import socket
import struct
import threading
import time
from typing import Any

import docker
import docker.errors
import requests
from docker.types import LogConfig, Mount, Ulimit

from sandbox.bootstrap import EXIT_MEMORY, python_argv
from sandbox.errors import InfrastructureError
from sandbox.labels import container_labels
from sandbox.limits import Limits
from sandbox.process import BotProcess
from sandbox.program import BotProgram
from sandbox.stderr import SYNC_BYTES, StderrTail

# What the Docker SDK raises when the daemon cannot be reached or drops the connection
# mid-call: requests' errors are not DockerException subclasses, and an unreachable
# daemon must always be the platform's problem, never a bot's crash.
DAEMON_ERRORS = (docker.errors.DockerException, requests.exceptions.RequestException)

DEFAULT_IMAGE = "onecard-bot-runtime:latest"
BOT_DIR = "/bot"
ENGINE_DIR = "/opt/onecard"
# Inside the container, on its private tmpfs (not the host's /tmp).
SANDBOX_TMP = "/tmp"  # noqa: S108
# Each container's bot runs under a uid of its own from this range: no other
# process on the host, and no other bot, shares its per-user kernel limits
# (processes, inotify instances, pipe buffers, keys) or its files. Above 2^31 - 2^24
# it is far from any range a host hands out to people or to user namespaces.
BOT_UIDS = range(2**31 - 2**24, 2**31 - 1)
_CHUNK = 65536
_FRAME_HEADER = struct.Struct(">BxxxL")
_STDOUT = 1

_clients = threading.local()


def docker_client() -> Any:
    """A low-level Docker API client for this thread (requests sessions are not shared)."""
    client = getattr(_clients, "api", None)
    if client is None:
        try:
            client = docker.from_env(timeout=30).api
            client.ping()
        except docker.errors.DockerException as error:
            raise InfrastructureError(f"Docker engine unreachable: {error}") from error
        _clients.api = client
    return client


def runtime_problem(api: Any, runtime: str | None) -> str | None:
    """Why bot containers cannot run under the OCI runtime `runtime` (e.g. gVisor's
    `runsc`), or None: it must be registered with the engine (`docker info`). Bots
    are refused rather than run under the default runtime instead."""
    if not runtime or runtime in getattr(_clients, "runtimes", ()):
        return None
    try:
        registered = sorted(api.info().get("Runtimes") or {})
    except DAEMON_ERRORS as error:
        return f"cannot ask the Docker engine for its OCI runtimes: {error}"
    if runtime not in registered:
        return (
            f"OCI runtime {runtime!r} is not registered with the Docker engine "
            f"(it has {', '.join(registered) or 'none'}): bot containers refused"
        )
    # Found once, it stays: the engine only loses a runtime on a restart with another
    # configuration, and then creating the container fails anyway.
    _clients.runtimes = {*getattr(_clients, "runtimes", ()), runtime}
    return None


def docker_available() -> bool:
    try:
        docker_client()
    except InfrastructureError:
        return False
    return True


def _raw_socket(attached: Any) -> socket.socket:
    # docker-py hands back a SocketIO around the connection's socket.
    raw = getattr(attached, "_sock", attached)
    assert isinstance(raw, socket.socket)
    return raw


def host_config(api: Any, limits: Limits, runtime: str | None) -> Any:
    return api.create_host_config(
        network_mode="none",
        mem_limit=limits.memory_bytes,
        memswap_limit=limits.memory_bytes,  # the same figure: no swap at all
        nano_cpus=int(limits.cpus * 1e9),
        pids_limit=limits.pids,
        read_only=True,
        tmpfs={SANDBOX_TMP: f"size={limits.tmpfs_bytes},mode=1777,nosuid,nodev"},
        shm_size=limits.shm_bytes,
        cap_drop=["ALL"],
        security_opt=["no-new-privileges"],
        ulimits=[
            Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
            Ulimit(name="core", soft=0, hard=0),
            Ulimit(name="fsize", soft=limits.file_bytes, hard=limits.file_bytes),
        ],
        mounts=[Mount(BOT_DIR, None, type="volume")],
        runtime=runtime,
        ipc_mode="private",
        # Every byte a bot prints would otherwise also go to a file under Docker's
        # data directory, for the whole match.
        log_config=LogConfig(type=LogConfig.types.NONE),
        init=True,
    )


def bot_uid() -> int:
    """A uid for one container's bot (`BOT_UIDS`)."""
    return random.SystemRandom().choice(BOT_UIDS)


class _Multiplexed:
    """Docker's attach stream: 8-byte headers, then stdout (1) or stderr (2) payloads.

    One connection carries both streams, so stderr written before a reply arrives
    before it (two connections would race each other). The engine's thread reads
    it while it waits for a reply; between replies a daemon thread drains it, so a
    bot flooding stderr never blocks. A lock keeps the two from reading at once.
    """

    def __init__(self, sock: socket.socket, tail: StderrTail, name: str, stdout_cap: int) -> None:
        self.sock = sock
        # Output nobody asked for waits here for the next message, which faults on it;
        # past the cap the drain stops reading, so a bot cannot fill the worker's memory.
        self._stdout_cap = stdout_cap
        self.tail = tail
        self.stdout = bytearray()
        self.ended = False
        self.lock = threading.Lock()
        self._frames = bytearray()
        self._stopping = False
        # poll objects are not to be shared between threads: one each.
        self._poll_main = select.poll()
        self._poll_main.register(sock.fileno(), select.POLLIN)
        self._poll_drain = select.poll()
        self._poll_drain.register(sock.fileno(), select.POLLIN)
        self._thread = threading.Thread(target=self._drain, name=name, daemon=True)
        self._thread.start()

    def ready(self, timeout_s: float, *, drain: bool = False) -> bool:
        poller = self._poll_drain if drain else self._poll_main
        return bool(poller.poll(max(0, int(timeout_s * 1000 + 0.999))))

    def pump(self) -> int:
        """Read what is there now and sort it into stdout and the stderr tail (lock held);
        the number of bytes read."""
        try:
            data = self.sock.recv(_CHUNK)
        except BlockingIOError:
            return 0
        except OSError:
            data = b""
        if not data:
            self.ended = True
            return 0
        frames = self._frames
        frames += data
        while len(frames) >= _FRAME_HEADER.size:
            stream, size = _FRAME_HEADER.unpack_from(frames)
            end = _FRAME_HEADER.size + int(size)
            if len(frames) < end:
                break
            payload = bytes(frames[_FRAME_HEADER.size : end])
            del frames[:end]
            if stream == _STDOUT:
                self.stdout += payload
            else:
                self.tail.feed(payload)
        return len(data)

    def _drain(self) -> None:
        while not self.ended and not self._stopping:
            try:
                readable = self.ready(0.2, drain=True)
            except (OSError, ValueError):
                return
            if readable and len(self.stdout) > self._stdout_cap:
                time.sleep(0.05)  # the bot's next message faults it; until then, wait
            elif readable:
                # Blocks while the engine's thread waits for a reply: it reads then.
                with self.lock:
                    if not self._stopping:
                        self.pump()

    def sync(self) -> None:
        """Take in what is already written: bounded, as a bot may write without end."""
        with self.lock:
            taken = 0
            while taken < SYNC_BYTES and not self.ended and self.ready(0):
                got = self.pump()
                if not got:
                    return
                taken += got

    def stop(self, timeout_s: float = 1.0) -> None:
        """Wait for the end of the stream (at most `timeout_s`), then hang up and stop."""
        deadline = time.monotonic() + timeout_s
        while not self.ended and time.monotonic() < deadline:
            if self.ready(min(0.05, max(0.0, deadline - time.monotonic()))):
                with self.lock:
                    self.pump()
        self._stopping = True
        # Hanging up wakes the drain thread's poll at once.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join()


class ContainerProcess(BotProcess):
    """A bot in its own container, all three streams over one attach connection."""

    backend = "docker"

    def __init__(
        self, program: BotProgram, limits: Limits, *, image: str, runtime: str | None
    ) -> None:
        super().__init__(limits)
        self.api = docker_client()
        problem = runtime_problem(self.api, runtime)
        if problem is not None:
            raise InfrastructureError(problem)
        self._torn_down = False
        self._state: dict[str, Any] | None = None
        self._stream: _Multiplexed | None = None
        self.container_id = ""
        argv = python_argv("python3", f"{BOT_DIR}/{program.entry_name}", ENGINE_DIR)
        uid = bot_uid()
        try:
            created = self.api.create_container(
                image,
                command=argv,
                user=f"{uid}:{uid}",
                working_dir=SANDBOX_TMP,
                hostname="bot",
                environment=[],
                network_disabled=True,
                stdin_open=True,  # with detach=False this also sets StdinOnce
                labels=container_labels(limits),
                host_config=host_config(self.api, limits, runtime),
            )
        except docker.errors.ImageNotFound as error:
            raise InfrastructureError(f"bot image {image!r} is missing") from error
        except DAEMON_ERRORS as error:
            raise InfrastructureError(f"cannot create a bot container: {error}") from error
        self.container_id = created["Id"]
        try:
            self.api.put_archive(self.container_id, BOT_DIR, program.archive())
            # Attach before start, so no output can be missed.
            self._attached = self.api.attach_socket(
                self.container_id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
            self._socket = _raw_socket(self._attached)
            self._socket.setblocking(False)
            self._poll_in = select.poll()
            self._poll_in.register(self._socket.fileno(), select.POLLOUT)
            self._stream = _Multiplexed(
                self._socket,
                self.stderr,
                f"stdio-{self.container_id[:12]}",
                stdout_cap=limits.stdout_bytes_per_game,
            )
            self.drain = self._stream
            self.api.start(self.container_id)
        except BaseException as error:
            self._teardown()
            if isinstance(error, DAEMON_ERRORS):
                raise InfrastructureError(f"cannot start a bot container: {error}") from error
            raise

    def _recv(self, timeout_s: float) -> bytes | None:
        stream = self._stream
        assert stream is not None
        deadline = time.monotonic() + timeout_s
        # Held for the whole wait: were the drain thread to read the reply meanwhile,
        # this thread would go on polling a socket that has nothing more to say.
        with stream.lock:
            while True:
                if stream.stdout:
                    data = bytes(stream.stdout)
                    stream.stdout.clear()
                    return data
                if stream.ended:
                    return b""
                remaining = deadline - time.monotonic()
                if not stream.ready(max(0.0, remaining)):
                    return None
                stream.pump()
                if remaining <= 0 and not stream.stdout and not stream.ended:
                    return None

    def _write_some(self, data: bytes | memoryview) -> int | None:
        try:
            return self._socket.send(data)
        except BlockingIOError:
            return 0
        except OSError:
            return None

    def _wait_writable(self, timeout_s: float) -> None:
        self._poll_in.poll(int(timeout_s * 1000) + 1)

    def _close_stdin(self) -> None:
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_WR)

    def _wait_exit(self, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while True:
            with contextlib.suppress(docker.errors.DockerException):
                state = self.api.inspect_container(self.container_id)["State"]
                if not state["Running"]:
                    self._state = state
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)

    def _exit_code(self) -> int | None:
        code = (self._state or {}).get("ExitCode")
        return code if isinstance(code, int) else None

    def _died_of_limit(self) -> str | None:
        state = self._state or {}
        if state.get("OOMKilled") or state.get("ExitCode") == EXIT_MEMORY:
            return "memory"
        return None

    def _teardown(self) -> None:
        if self._torn_down:
            return
        self._torn_down = True
        if self._stream is not None:
            # After an exit of its own, its last stderr lines are still on their way.
            # Otherwise hang up first: the daemon blocks on an attach stream nobody
            # reads (a bot writing 100 MB without a newline), which holds up removal.
            self._stream.stop(timeout_s=1.0 if self._state is not None else 0.0)
        attached = getattr(self, "_attached", None)
        if attached is not None:
            with contextlib.suppress(OSError):
                attached.close()
        if self.container_id:
            # Removing the container, not killing a client: its PID namespace goes with it.
            with contextlib.suppress(docker.errors.NotFound):
                try:
                    self.api.remove_container(self.container_id, force=True, v=True)
                except docker.errors.DockerException as error:
                    raise InfrastructureError(f"cannot remove bot container: {error}") from error


def launch_docker(
    program: BotProgram, limits: Limits, *, image: str | None, runtime: str | None
) -> ContainerProcess:
    return ContainerProcess(
        program,
        limits,
        image=image or os.environ.get("ARENA_SANDBOX_IMAGE") or DEFAULT_IMAGE,
        runtime=runtime,
    )
