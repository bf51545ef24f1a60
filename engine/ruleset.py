"""The ruleset: the static part of a game (RULES.md and its variants).

>>> Ruleset.from_value(None).name
'korean'
>>> Ruleset.from_value({"max_penalty": 20}).max_penalty
20
>>> f"{MIN_PLAYERS} to {MAX_PLAYERS} players"
'2 to 8 players'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any

from engine.errors import RulesetError

# RULES.md, Setup: the table sizes every ruleset is played at. Not an option of a
# ruleset: the deal (5 cards each from three players up) is sized for at most 8.
MIN_PLAYERS = 2
MAX_PLAYERS = 8

ATTACK_KEYS = ("2", "A", "AS", "BJ", "CJ")
MAX_ATTACK_VALUE = 100
MAX_TURN_LIMIT = 1_000_000


@dataclass(frozen=True)
class Ruleset:
    """Every option of RULES.md's Variants section; the defaults are ``korean``."""

    name: str = "korean"
    # Values in the order of ATTACK_KEYS: 2, A (hearts/diamonds/clubs), AS, BJ, CJ.
    attack_values: tuple[int, int, int, int, int] = (2, 3, 5, 7, 10)
    taker_continues: bool = False
    multi_play: bool = False
    max_penalty: int | None = None
    mirror_three: bool = False
    suited_jokers: bool = False
    turn_limit: int = 1000

    def attack_value(self, key: str) -> int:
        return self.attack_values[ATTACK_KEYS.index(key)]

    def to_dict(self) -> dict[str, Any]:
        """The ruleset as the log and the ``start`` message spell it."""
        return {
            "name": self.name,
            "attack_values": dict(zip(ATTACK_KEYS, self.attack_values, strict=True)),
            "taker_continues": self.taker_continues,
            "multi_play": self.multi_play,
            "max_penalty": self.max_penalty,
            "mirror_three": self.mirror_three,
            "suited_jokers": self.suited_jokers,
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The preset called ``name`` (one of PRESET_NAMES); RulesetError otherwise.

        >>> Ruleset.preset("capped").max_penalty
        20
        >>> Ruleset.preset("korean").to_dict()["attack_values"]
        {'2': 2, 'A': 3, 'AS': 5, 'BJ': 7, 'CJ': 10}
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise RulesetError(
                f"unknown ruleset {name!r}; presets: {', '.join(PRESET_NAMES)}"
            ) from None

    @classmethod
    def from_value(cls, value: Ruleset | str | dict[str, Any] | None) -> Ruleset:
        """None (``korean``), a preset name, a Ruleset, or a dict of options.

        A dict names only the options it changes; the others keep the values of
        the preset its ``name`` names, or ``korean``'s. Unknown options and
        out-of-range values raise RulesetError.

        >>> Ruleset.from_value({"name": "classic", "turn_limit": 50}).attack_values
        (2, 3, 5, 10, 13)
        """
        if value is None:
            return PRESETS["korean"]
        if isinstance(value, Ruleset):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, dict):
            return _from_dict(value)
        raise RulesetError(f"a ruleset is a preset name or a dict, not {type(value).__name__}")


_OPTION_NAMES = frozenset(f.name for f in fields(Ruleset))


def _strict_int(value: Any, option: str, low: int, high: int) -> int:
    # bool is an int subclass; True as a turn limit is a mistake, not 1.
    if type(value) is not int or not low <= value <= high:
        raise RulesetError(f"{option} must be an integer from {low} to {high}, not {value!r}")
    return value


def _strict_bool(value: Any, option: str) -> bool:
    if type(value) is not bool:
        raise RulesetError(f"{option} must be true or false, not {value!r}")
    return value


def _from_dict(options: dict[str, Any]) -> Ruleset:
    unknown = set(options) - _OPTION_NAMES
    if unknown:
        raise RulesetError(f"unknown ruleset option(s): {', '.join(sorted(map(str, unknown)))}")
    name = options.get("name")
    base = PRESETS.get(name, KOREAN) if isinstance(name, str) else KOREAN
    changes: dict[str, Any] = {"name": "custom"}
    for option, value in options.items():
        if option == "name":
            if not isinstance(value, str) or not 0 < len(value) <= 64:
                raise RulesetError(f"name must be a string of 1 to 64 characters, not {value!r}")
            changes["name"] = value
        elif option == "attack_values":
            changes["attack_values"] = _attack_values(value, base.attack_values)
        elif option == "max_penalty":
            changes[option] = (
                None if value is None else _strict_int(value, option, 1, MAX_TURN_LIMIT)
            )
        elif option == "turn_limit":
            changes[option] = _strict_int(value, option, 1, MAX_TURN_LIMIT)
        else:
            changes[option] = _strict_bool(value, option)
    return replace(base, **changes)


def _attack_values(value: Any, default: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    if not isinstance(value, dict):
        raise RulesetError(f"attack_values must be a dict, not {value!r}")
    unknown = set(value) - set(ATTACK_KEYS)
    if unknown:
        raise RulesetError(f"unknown attack card(s): {', '.join(sorted(map(str, unknown)))}")
    merged = [
        _strict_int(value[key], f"attack_values[{key}]", 1, MAX_ATTACK_VALUE)
        if key in value
        else default[i]
        for i, key in enumerate(ATTACK_KEYS)
    ]
    return (merged[0], merged[1], merged[2], merged[3], merged[4])


KOREAN = Ruleset()

# Read-only: every game that names a preset shares these values.
PRESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        "korean": KOREAN,
        # Seed 001: the ace of spades is an ordinary ace.
        "flat_aces": replace(KOREAN, name="flat_aces", attack_values=(2, 3, 3, 7, 10)),
        # Seed 003: the older ladder, jokers bound to their color.
        "classic": replace(
            KOREAN, name="classic", attack_values=(2, 3, 5, 10, 13), suited_jokers=True
        ),
        # The Finnish Yksi kortti: several cards of one rank at once.
        "finnish": replace(KOREAN, name="finnish", multi_play=True),
        "capped": replace(KOREAN, name="capped", max_penalty=20),
        "mirror": replace(KOREAN, name="mirror", mirror_three=True),
        "taker_continues": replace(KOREAN, name="taker_continues", taker_continues=True),
    }
)
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
