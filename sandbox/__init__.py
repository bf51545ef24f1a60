"""Running untrusted bots: each bot program in its own sandbox, speaking PROTOCOL.md.

>>> from sandbox import Limits
>>> Limits().memory_bytes // 2**20
256
"""

from sandbox.backends.select import BACKENDS, resolve_backend
from sandbox.cleanup import cleanup_orphans
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.match import MatchResult, SeatReport, run_match
from sandbox.program import BotProgram

__all__ = [
    "BACKENDS",
    "BotProgram",
    "InfrastructureError",
    "Limits",
    "MatchResult",
    "SeatReport",
    "cleanup_orphans",
    "resolve_backend",
    "run_match",
]
