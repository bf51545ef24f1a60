"""kombu's Redis transport, with one Redis client per channel instead of one per command.

kombu builds a new `redis.Redis` object for every command it sends outside the
consuming connection (`Channel.conn_or_acquire`): the publish of every queued
match, and in a worker's master process the two bookkeeping transactions of every
message it takes (noting the message as unacknowledged, then acknowledging it).
A client is only a facade over the channel's connection pool (it opens no
socket), but building one copies redis-py's table of ~160 response callbacks,
twice. This channel keeps the client it built and hands it out again; the
connections still come from the same pool, per command, as before.

Kept for the overhead target (≤ 10 % on bwrap, docs/benchmarks.md): side by side,
without it a match costs the platform 1.0 ms more CPU, 0.5 of it Celery's master's.

A `redis.Redis` client is safe to share between threads (each command takes a
connection from the pool); pipelines, which are not, are still made per use. When
kombu replaces the channel's pool (after a connection error), the next command
builds a client on the new pool.

Selected with `CELERY_BROKER_TRANSPORT` (settings) for `redis://` broker URLs:
kombu takes an explicit transport over the URL's scheme, and parses the URL as it
does for its own Redis transport. `rediss://` URLs keep kombu's own transport,
whose TLS defaults are tied to that scheme's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _shared_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        shared = self._shared_client
        if shared is None or shared.connection_pool is not self.pool:
            shared = self._shared_client = self._create_client()
        yield shared


class Transport(redis.Transport):
    Channel = Channel
