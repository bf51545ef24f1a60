"""The `docker` backend: one locked-down container per bot per match.

No network, memory without swap, one CPU, a pids limit, a read-only root with a
small tmpfs, "nobody", no capabilities, no-new-privileges, nothing of the host's
environment. The bot's code is copied in with `put_archive` (never bind-mounted,
so a worker that itself runs in a container works) into an anonymous volume at
/bot: a read-only root refuses `put_archive` anywhere else, and the files are
root's and mode 0444, so the bot cannot change them. Teardown removes the
container by id (`force`, which kills its whole PID namespace) with its volume;
the labels let `cleanup_orphans` find containers a crashed worker left behind.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import struct
import threading
import time
from functools import partial
from typing import Any

import docker
import docker.errors
from docker.types import Mount, Ulimit

from engine.errors import BotFault
from sandbox.bootstrap import EXIT_MEMORY, python_argv
from sandbox.errors import InfrastructureError
from sandbox.labels import container_labels
from sandbox.limits import Limits
from sandbox.process import BotProcess
from sandbox.program import BotProgram
from sandbox.stderr import StderrDrain

DEFAULT_IMAGE = "onecard-bot-runtime:latest"
BOT_DIR = "/bot"
ENGINE_DIR = "/opt/onecard"
# Inside the container, on its private tmpfs (not the host's /tmp).
SANDBOX_TMP = "/tmp"  # noqa: S108
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
    )


class ContainerProcess(BotProcess):
    """A bot in its own container, stdin/stdout over one attach socket, stderr over another."""

    backend = "docker"

    def __init__(
        self, program: BotProgram, limits: Limits, *, image: str, runtime: str | None
    ) -> None:
        super().__init__(limits)
        self.api = docker_client()
        self._frames = bytearray()
        self._torn_down = False
        self.container_id = ""
        argv = python_argv("python3", f"{BOT_DIR}/{program.entry_name}", ENGINE_DIR)
        try:
            created = self.api.create_container(
                image,
                command=argv,
                user="65534:65534",
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
        except docker.errors.DockerException as error:
            raise InfrastructureError(f"cannot create a bot container: {error}") from error
        self.container_id = created["Id"]
        try:
            self.api.put_archive(self.container_id, BOT_DIR, program.archive())
            # Attach before start, so no output can be missed.
            stdio = self.api.attach_socket(
                self.container_id, params={"stdin": 1, "stdout": 1, "stream": 1}
            )
            errors = self.api.attach_socket(self.container_id, params={"stderr": 1, "stream": 1})
            self._stdio_handle, self._stderr_handle = stdio, errors
            self._stdio = _raw_socket(stdio)
            self._stdio.setblocking(False)
            self._poll_out = select.poll()
            self._poll_out.register(self._stdio.fileno(), select.POLLIN)
            self._poll_in = select.poll()
            self._poll_in.register(self._stdio.fileno(), select.POLLOUT)
            stderr_socket = _raw_socket(errors)
            stderr_socket.setblocking(False)
            self.drain = StderrDrain(
                stderr_socket.fileno(),
                partial(_FrameReader().read, stderr_socket),
                self.stderr,
                f"stderr-{self.container_id[:12]}",
            )
            self.api.start(self.container_id)
        except BaseException as error:
            self._teardown()
            if isinstance(error, docker.errors.DockerException):
                raise InfrastructureError(f"cannot start a bot container: {error}") from error
            raise

    def _recv(self, timeout_s: float) -> bytes | None:
        deadline = time.monotonic() + timeout_s
        while True:
            payload = self._next_stdout_frame()
            if payload is not None:
                return payload
            remaining = max(0.0, deadline - time.monotonic())
            if not self._poll_out.poll(int(remaining * 1000 + 0.999)):
                return None
            try:
                data = self._stdio.recv(_CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                return b""
            self._frames += data
            if remaining <= 0 and self._next_frame_incomplete():
                return None

    def _next_frame_incomplete(self) -> bool:
        if len(self._frames) < _FRAME_HEADER.size:
            return True
        _, size = _FRAME_HEADER.unpack_from(self._frames)
        return len(self._frames) < _FRAME_HEADER.size + int(size)

    def _next_stdout_frame(self) -> bytes | None:
        while not self._next_frame_incomplete():
            stream, size = _FRAME_HEADER.unpack_from(self._frames)
            end = _FRAME_HEADER.size + size
            payload = bytes(self._frames[_FRAME_HEADER.size : end])
            del self._frames[:end]
            if stream == _STDOUT:
                return payload
        return None

    def _send(self, data: bytes, deadline: float) -> bool:
        view = memoryview(data)
        while view:
            try:
                sent = self._stdio.send(view)
            except BlockingIOError:
                sent = 0
            except OSError:
                return False
            view = view[sent:]
            if view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotFault("timeout", "the bot stopped reading its input")
                self._poll_in.poll(int(remaining * 1000) + 1)
        return True

    def _close_stdin(self) -> None:
        with contextlib.suppress(OSError):
            self._stdio.shutdown(socket.SHUT_WR)

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

    def _died_of_limit(self) -> bool:
        state: dict[str, Any] = getattr(self, "_state", {})
        return bool(state.get("OOMKilled")) or bool(state.get("ExitCode") == EXIT_MEMORY)

    def _teardown(self) -> None:
        if self._torn_down:
            return
        self._torn_down = True
        if self.drain is not None and getattr(self, "_state", None) is not None:
            # It exited by itself: its last stderr lines are still on their way.
            self.drain.stop()
        # The daemon blocks on an attach stream nobody reads (a bot writing 100 MB
        # without a newline), and that holds up the container's removal: let go first.
        self._close_attached("_stdio_handle")
        if self.container_id:
            # Removing the container, not killing a client: its PID namespace goes with it.
            with contextlib.suppress(docker.errors.NotFound):
                try:
                    self.api.remove_container(self.container_id, force=True, v=True)
                except docker.errors.DockerException as error:
                    raise InfrastructureError(f"cannot remove bot container: {error}") from error
        if self.drain is not None:
            self.drain.stop()
        self._close_attached("_stderr_handle")

    def _close_attached(self, name: str) -> None:
        attached = getattr(self, name, None)
        if attached is None:
            return
        with contextlib.suppress(OSError):
            _raw_socket(attached).shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            attached.close()
        response = getattr(attached, "_response", None)
        if response is not None:
            with contextlib.suppress(Exception):
                response.close()


class _FrameReader:
    """Reads Docker's multiplexed stream frames and returns their payloads."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def read(self, sock: socket.socket) -> bytes | None:
        """The next payload, b'' at end of stream, None when no whole frame is here yet."""
        while True:
            if len(self._buffer) >= _FRAME_HEADER.size:
                _, size = _FRAME_HEADER.unpack_from(self._buffer)
                end = _FRAME_HEADER.size + size
                if len(self._buffer) >= end:
                    payload = bytes(self._buffer[_FRAME_HEADER.size : end])
                    del self._buffer[:end]
                    if payload:
                        return payload
                    continue
            try:
                data = sock.recv(_CHUNK)
            except BlockingIOError:
                return None
            if not data:
                return b""
            self._buffer += data


def launch_docker(
    program: BotProgram, limits: Limits, *, image: str | None, runtime: str | None
) -> ContainerProcess:
    return ContainerProcess(
        program,
        limits,
        image=image or os.environ.get("ARENA_SANDBOX_IMAGE") or DEFAULT_IMAGE,
        runtime=runtime,
    )
