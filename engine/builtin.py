"""The example bots under their built-in names, for the CLI and tests.

They live in the ``bots_examples`` package; it is imported on first use so that
``engine`` alone stays importable inside a sandbox that does not ship it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

BotFactory = Callable[[int | None], Callable[[dict[str, Any]], Any]]


def builtin_bots() -> dict[str, BotFactory]:
    """``{"random": factory, "greedy": ..., "heuristic": ...}``; ``factory(seed)``
    makes one in-process bot callable (reused across the games of a match).

    >>> bot = builtin_bots()["greedy"](None)
    >>> bot({"type": "catch"})
    {'action': 'catch'}
    """
    module = importlib.import_module("bots_examples")
    bots: dict[str, BotFactory] = module.BUILTIN_BOTS
    return dict(bots)
