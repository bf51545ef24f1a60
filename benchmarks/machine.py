"""What machine a benchmark ran on, for the line it prints above its figures."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _cpuinfo(names: tuple[str, ...]) -> dict[str, str]:
    """The first CPU's value of each of these /proc/cpuinfo fields that it has."""
    found: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            name, _, value = line.partition(":")
            name = name.strip()
            if name in names and name not in found:
                found[name] = value.strip()
    except OSError:
        pass
    return found


def cpu_model() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it."""
    return _cpuinfo(("model name",)).get("model name", "unknown CPU")


def cpu_identity() -> str:
    """The model name with the family, model and stepping numbers: a virtual
    machine's CPUs may share a name ("AMD EPYC") and be generations apart."""
    numbers = _cpuinfo(("cpu family", "model", "stepping"))
    if not numbers:
        return cpu_model()
    return cpu_model() + ", " + " ".join(f"{name} {value}" for name, value in numbers.items())


def machine() -> str:
    """The CPUs this process may use, their model and the Python, in one phrase."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cpus} CPUs ({cpu_model()}), Python {sys.version.split()[0]}"
