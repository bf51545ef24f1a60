"""What machine a benchmark ran on, for the line it prints above its figures."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def cpu_model() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return "unknown CPU"


def machine() -> str:
    """The CPUs this process may use, their model and the Python, in one phrase."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cpus} CPUs ({cpu_model()}), Python {sys.version.split()[0]}"
