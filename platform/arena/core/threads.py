"""One helper thread per process and purpose, made again after a fork.

A Celery pool process is a fork of the worker's master, and threads do not survive
a fork: an executor inherited from the parent would take work that never runs.
So each process makes its own, on first use.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

_threads: dict[str, tuple[int, ThreadPoolExecutor]] = {}


def thread_of_process(name: str) -> ThreadPoolExecutor:
    """This process's one thread called `name` (its work runs in submission order)."""
    made = _threads.get(name)
    if made is None or made[0] != os.getpid():
        made = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix=name))
        _threads[name] = made
    return made[1]
