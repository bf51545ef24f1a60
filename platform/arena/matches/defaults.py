"""The default competition's definition, shared by the selector that restores it.

The data migration `0002_default_competition` writes the same values literally
(a migration must mean the same thing forever); this copy lets the platform put
the default ladder back if the row is ever deleted, for instance by a test
database flush, instead of failing every qualification.
"""

from __future__ import annotations

from typing import Any

DEFAULT_SLUG = "korean-2"

KOREAN_RULESET: dict[str, Any] = {
    "name": "korean",
    "attack_values": {"2": 2, "A": 3, "AS": 5, "BJ": 7, "CJ": 10},
    "taker_continues": False,
    "multi_play": False,
    "max_penalty": None,
    "mirror_three": False,
    "suited_jokers": False,
    "turn_limit": 1000,
}

DEFAULT_COMPETITION: dict[str, Any] = {
    "name": "Korean, 2 seats",
    "seats": 2,
    "games_per_match": 4,
    "is_default": True,
    "ladder_enabled": True,
}
