"""Running untrusted bots: each bot program in its own sandbox, speaking PROTOCOL.md.

>>> from sandbox import Limits
>>> Limits().memory_bytes // 2**20
256
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.match import MatchResult, Seated, SeatReport, run_match
from sandbox.program import BotProgram

if TYPE_CHECKING:
    from sandbox.backends.select import BACKENDS, backend_problem, resolve_backend
    from sandbox.cleanup import cleanup_orphans

# These reach the docker backend, which needs the `docker` package. They load on
# first use, so that the local `onecard` command (sandbox.cli) runs on the standard
# library alone, as it does from the starter kit.
_LOADED_ON_USE = {
    "BACKENDS": "sandbox.backends.select",
    "backend_problem": "sandbox.backends.select",
    "resolve_backend": "sandbox.backends.select",
    "cleanup_orphans": "sandbox.cleanup",
}


def __getattr__(name: str) -> Any:
    if name not in _LOADED_ON_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LOADED_ON_USE[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "BACKENDS",
    "BotProgram",
    "InfrastructureError",
    "Limits",
    "MatchResult",
    "SeatReport",
    "Seated",
    "backend_problem",
    "cleanup_orphans",
    "resolve_backend",
    "run_match",
]
