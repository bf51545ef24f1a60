"""Fixtures for notifications: tasks run in-process on commit, a local receiver."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from celery import current_app
from django.db import transaction

import arena.notifications.tasks  # noqa: F401  (registers the tasks)


@pytest.fixture
def run_tasks(monkeypatch, django_capture_on_commit_callbacks) -> Callable:
    """`with run_tasks(): …` runs the notification tasks the block queues, in this
    process, when its transaction would commit (retries included: eagerly, without
    waiting). Without it they would go to the broker, where no worker listens."""

    def queue_on_commit(name: str, *args: int) -> None:
        task = current_app.tasks[name]
        transaction.on_commit(lambda: task.apply(args=args).get())

    monkeypatch.setattr("arena.notifications.services.task_queue_on_commit", queue_on_commit)
    return lambda: django_capture_on_commit_callbacks(execute=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Receiver:
    """A webhook endpoint on 127.0.0.1: records each request, answers `status`."""

    port: int
    status: int = 204
    headers: dict[str, str] = field(default_factory=dict)
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers.items()), body))
                self.send_response(receiver.status)
                for name, value in receiver.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A receiver on a free port, not yet listening: `receiver.start()` brings it up,
    until then a connection is refused."""
    endpoint = Receiver(port=free_port())
    try:
        yield endpoint
    finally:
        endpoint.stop()
