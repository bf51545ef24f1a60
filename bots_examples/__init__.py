"""The example bots, also playable in-process under their built-in names.

Each example is a stand-alone program (``python3 bots_examples/greedy_bot.py``)
with a ``make_bot(seed)`` beside it for in-process play; this package names them,
so that the engine never has to know its examples.

>>> sorted(builtin_bots())
['greedy', 'heuristic', 'random', 'search']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bots_examples import greedy_bot, heuristic_bot, random_bot, search_bot

# factory(seed) -> an in-process bot callable (one per seat, reused for a match)
BotFactory = Callable[[int | None], Callable[[dict[str, Any]], Any]]

BUILTIN_BOTS: dict[str, BotFactory] = {
    "random": random_bot.make_bot,
    "greedy": greedy_bot.make_bot,
    "heuristic": heuristic_bot.make_bot,
    "search": search_bot.make_bot,
}


def builtin_bots() -> dict[str, BotFactory]:
    """``{"random": factory, "greedy": ..., "heuristic": ..., "search": ...}``, a fresh dict;
    ``factory(seed)`` makes one in-process bot callable (reused across the games of
    a match).

    >>> bot = builtin_bots()["greedy"](None)
    >>> bot({"type": "catch"})
    {'action': 'catch'}
    """
    return dict(BUILTIN_BOTS)
