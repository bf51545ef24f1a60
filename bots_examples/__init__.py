"""The example bots, also playable in-process under their built-in names.

>>> sorted(BUILTIN_BOTS)
['greedy', 'heuristic', 'random']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bots_examples import greedy_bot, heuristic_bot, random_bot

# name -> factory(seed) of an in-process bot callable (one per seat, reused for a match)
BUILTIN_BOTS: dict[str, Callable[[int | None], Callable[[dict[str, Any]], Any]]] = {
    "random": random_bot.make_bot,
    "greedy": greedy_bot.make_bot,
    "heuristic": heuristic_bot.make_bot,
}
