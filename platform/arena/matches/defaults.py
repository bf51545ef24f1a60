"""The default competition's definition, shared by the selector that restores it.

The data migration `0002_default_competition` writes the same values literally
(a migration must mean the same thing forever); these let the platform put the
default ladder back if the row is ever deleted, for instance by a test database
flush, instead of failing every qualification. The ruleset is the engine's own
`korean` preset, every option spelled out; a test holds it and the migration's copy
(which spells out the options the engine had when it was written) to that preset.
"""

from __future__ import annotations

from typing import Any

import engine

DEFAULT_SLUG = "korean-2"

KOREAN_RULESET: dict[str, Any] = engine.Ruleset.preset("korean").to_dict()

DEFAULT_COMPETITION: dict[str, Any] = {
    "name": "Korean, 2 seats",
    "seats": 2,
    "games_per_match": 4,
    "is_default": True,
    "ladder_enabled": True,
}
