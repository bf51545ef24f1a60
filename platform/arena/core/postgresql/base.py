"""Django's PostgreSQL backend, with a health check that asks the socket first.

With CONN_HEALTH_CHECKS, Django checks a kept connection before its first use in
each request or task by sending `SELECT 1`: a round trip to the server. A worker
does that twice for every match it plays (the task's connection and the result
recorder's).

Kept for the overhead target (≤ 10 % on bwrap, docs/benchmarks.md): side by side,
without it a match costs the platform 0.6 ms more CPU, 0.4 of it PostgreSQL's.

An idle connection's socket has nothing to read unless the server said something
since: most often that it ended the session (a restart, `pg_terminate_backend`,
an idle timeout), as an error message or the end of the stream. So a kept
connection that the driver still holds as good, that is idle outside a
transaction, and whose socket has nothing to read is usable, and is used without
a round trip. Anything else (data waiting, a transaction open, an SSL or other
doubt) goes to Django's own check, `SELECT 1`.

What neither check can see is a peer that vanished without closing (a host that
lost power, a cable pulled): `SELECT 1` would wait on it like the first real
statement does, until TCP gives up.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.pgconn.transaction_status == pq.TransactionStatus.IDLE and _nothing_to_read(
            connection.fileno()
        ):
            return True
        return super().is_usable()


def _nothing_to_read(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    return not poller.poll(0)
