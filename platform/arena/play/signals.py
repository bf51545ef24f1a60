"""The worker's start and a pool process's end, as far as playing is concerned
(connected in PlayConfig.ready)."""

from __future__ import annotations

import logging
from typing import Any

from celery.signals import worker_process_shutdown, worker_ready
from django.db import connection

from .workers import worker_host_counts_flush, worker_host_name, worker_host_quarantined

logger = logging.getLogger(__name__)


@worker_ready.connect
def stay_idle_when_quarantined(sender: Any = None, **_kwargs: Any) -> None:
    """A worker restarted on a quarantined host takes no work until staff put the
    host back in rotation (arena.play.workers). `sender` is the worker's consumer."""
    try:
        quarantined = worker_host_quarantined()
    finally:
        connection.close()  # the main process keeps no connection for its pool to inherit
    if not quarantined:
        return
    logger.error(
        "worker host %s is quarantined (see the admin's worker hosts): consuming nothing",
        worker_host_name(),
    )
    for queue in list(sender.app.amqp.queues):
        sender.cancel_task_queue(queue)


@worker_process_shutdown.connect
def flush_worker_host_counts(**_kwargs: Any) -> None:
    """A pool process that exits adds the matches it has not counted yet (after
    arena.celery has let its last result write finish)."""
    try:
        worker_host_counts_flush()
    except Exception:
        logger.exception("could not count this process's last matches for its host")
