"""Infrastructure tasks: a probe that proves a worker is alive and sane."""

import platform
import sys

from celery import shared_task


@shared_task(name="arena.core.probe", time_limit=30)
def probe() -> dict[str, str]:
    """Report what the worker process sees; `platform` must be the standard library."""
    return {
        "python_version": platform.python_version(),
        "platform_module": platform.__file__ or "",
        "executable": sys.executable,
    }
