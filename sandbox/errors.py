"""The sandbox's own exceptions.

A bot's misbehaviour is never an exception of ours: it becomes an
``engine.errors.BotFault`` with one of the protocol's reasons. What is here is the
platform's own trouble (no Docker daemon, no image, no bubblewrap), which must
stop the match instead of being blamed on a bot.
"""

from __future__ import annotations


class InfrastructureError(RuntimeError):
    """The sandbox cannot run bots at all: a missing tool, daemon or image.

    >>> str(InfrastructureError("bubblewrap is not installed"))
    'bubblewrap is not installed'
    """
