"""The ruleset: the static part of a game (RULES.md and its variants).

>>> Ruleset.from_value(None).name
'korean'
>>> Ruleset.from_value({"max_penalty": 20}).max_penalty
20
>>> f"{MIN_PLAYERS} to {MAX_PLAYERS} players"
'2 to 8 players'
>>> pesten = Ruleset.preset("pesten")
>>> pesten.rank_role("8"), pesten.role_rank("shield"), pesten.attack_value("A")
('skip', None, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any

from engine.cards import RANKS
from engine.errors import RoleConflictError, RulesetError

# RULES.md, Setup: the table sizes every ruleset is played at. Not an option of a
# ruleset: the deal (5 cards each from three players up) is sized for at most 8.
MIN_PLAYERS = 2
MAX_PLAYERS = 8

ATTACK_KEYS = ("2", "A", "AS", "BJ", "CJ")
# The rank each attack key belongs to; the jokers have none.
ATTACK_RANKS = {"2": "2", "A": "A", "AS": "A"}
MAX_ATTACK_VALUE = 100
MAX_TURN_LIMIT = 1_000_000
# RULES.md, A turn: the effects a rank can carry, in the order ``roles`` spells them.
ROLE_KEYS = ("wild", "skip", "reverse", "again", "shield")

AttackValues = tuple[int, int, int, int, int]
Roles = tuple[str | None, str | None, str | None, str | None, str | None]


@dataclass(frozen=True)
class Ruleset:
    """Every option of RULES.md's Variants section; the defaults are ``korean``.

    Roles that RULES.md forbids together are refused when the value is made:

    >>> Ruleset(roles=("7", "J", "Q", "K", "7"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.RoleConflictError: rank 7 is given two roles, wild and shield; ...
    """

    name: str = "korean"
    # Values in the order of ATTACK_KEYS: 2, A (hearts/diamonds/clubs), AS, BJ, CJ;
    # 0 for a card that does not attack (a number still, for bots that add them up).
    attack_values: AttackValues = (2, 3, 5, 7, 10)
    taker_continues: bool = False
    multi_play: bool = False
    max_penalty: int | None = None
    mirror_three: bool = False
    suited_jokers: bool = False
    turn_limit: int = 1000
    # The rank of each role in the order of ROLE_KEYS, None where no card has it.
    roles: Roles = ("7", "J", "Q", "K", "3")
    start_direction: int = 1

    def __post_init__(self) -> None:
        _check_roles_and_direction(self)

    def attack_value(self, key: str) -> int:
        """How many cards the attack card ``key`` (one of ATTACK_KEYS) makes the
        next player draw; 0 when it does not attack."""
        return self.attack_values[ATTACK_KEYS.index(key)]

    def role_rank(self, role: str) -> str | None:
        """The rank (``"7"``) that carries ``role`` (one of ROLE_KEYS), or None."""
        return self.roles[ROLE_KEYS.index(role)]

    def rank_role(self, rank: str) -> str | None:
        """The role (``"wild"``) that the rank ``rank`` carries, or None."""
        for role, holder in zip(ROLE_KEYS, self.roles, strict=True):
            if holder == rank:
                return role
        return None

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
            "roles": dict(zip(ROLE_KEYS, self.roles, strict=True)),
            "start_direction": self.start_direction,
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
        the preset its ``name`` names, or ``korean``'s. A dict that names every
        option but ``roles`` and ``start_direction`` spells out a ruleset from
        before those options existed: they take ``korean``'s values, the only ones
        there were. Unknown options and out-of-range values raise RulesetError.

        >>> Ruleset.from_value({"name": "classic", "turn_limit": 50}).attack_values
        (2, 3, 5, 10, 13)
        >>> Ruleset.from_value({"roles": {"skip": "8", "again": None}}).roles
        ('7', '8', 'Q', None, '3')
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
# The options a complete dict spelled out before ``roles`` and ``start_direction``.
_ROLE_OPTIONS = frozenset({"roles", "start_direction"})
_OPTIONS_BEFORE_ROLES = _OPTION_NAMES - _ROLE_OPTIONS


def _check_roles_and_direction(rules: Ruleset) -> None:
    """RULES.md, roles: each role a rank or nobody's, a rank at most one role and
    none for a rank that attacks; the direction +1 or -1."""
    roles = rules.roles
    if type(roles) is not tuple or len(roles) != len(ROLE_KEYS):
        raise RulesetError(f"roles are one rank or None for each of {', '.join(ROLE_KEYS)}")
    holders: dict[str, str] = {}
    for role, rank in zip(ROLE_KEYS, roles, strict=True):
        if rank is None:
            continue
        if type(rank) is not str or rank not in RANKS:
            raise RulesetError(
                f"roles[{role}] must be one of the ranks {' '.join(RANKS)} or null, not {rank!r}"
            )
        if rank in holders:
            raise RoleConflictError(
                f"rank {rank} is given two roles, {holders[rank]} and {role};"
                " a rank carries at most one"
            )
        holders[rank] = role
    for key, value in zip(ATTACK_KEYS, rules.attack_values, strict=True):
        rank = ATTACK_RANKS.get(key)
        if value and rank in holders:
            raise RoleConflictError(
                f"rank {rank} attacks (attack_values[{key}] = {value}) and cannot also"
                f" be {holders[rank]}; give {key} the attack value 0 (no attack) or the"
                " role to another rank"
            )
    if type(rules.start_direction) is not int or rules.start_direction not in (1, -1):
        raise RulesetError(f"start_direction must be 1 or -1, not {rules.start_direction!r}")


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
    if set(options) >= _OPTIONS_BEFORE_ROLES and not _ROLE_OPTIONS & set(options):
        # A ruleset spelled out in full before these two options existed, as
        # older logs and stored competitions hold it: they had korean's values.
        changes["roles"] = KOREAN.roles
        changes["start_direction"] = KOREAN.start_direction
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
        elif option == "roles":
            changes[option] = _roles(value, base.roles)
        elif option == "start_direction":
            changes[option] = value  # checked with the roles, as the value is made
        else:
            changes[option] = _strict_bool(value, option)
    return replace(base, **changes)


def _attack_values(value: Any, default: AttackValues) -> AttackValues:
    if not isinstance(value, dict):
        raise RulesetError(f"attack_values must be a dict, not {value!r}")
    unknown = set(value) - set(ATTACK_KEYS)
    if unknown:
        raise RulesetError(f"unknown attack card(s): {', '.join(sorted(map(str, unknown)))}")
    merged = [
        _strict_int(value[key], f"attack_values[{key}]", 0, MAX_ATTACK_VALUE)
        if key in value
        else default[i]
        for i, key in enumerate(ATTACK_KEYS)
    ]
    return (merged[0], merged[1], merged[2], merged[3], merged[4])


def _roles(value: Any, default: Roles) -> Roles:
    """The roles a dict names over ``default``; each rank is checked with the
    whole ruleset (``_check_roles_and_direction``)."""
    if not isinstance(value, dict):
        raise RulesetError(f"roles must be a dict, not {value!r}")
    unknown = set(value) - set(ROLE_KEYS)
    if unknown:
        raise RulesetError(
            f"unknown role(s): {', '.join(sorted(map(str, unknown)))};"
            f" the roles are {', '.join(ROLE_KEYS)}"
        )
    merged = [value[key] if key in value else default[i] for i, key in enumerate(ROLE_KEYS)]
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
        # Seed 001, the Finnish Yksi kortti: several cards of one rank at once, and
        # play goes counterclockwise.
        "finnish": replace(KOREAN, name="finnish", multi_play=True, start_direction=-1),
        # Seed 001, the Dutch Pesten (RULES.md decides what the seed leaves open):
        # no shield, 8 skips, J is wild, 7 gives another turn, the aces reverse and
        # so do not attack; the jokers attack for 5.
        "pesten": replace(
            KOREAN,
            name="pesten",
            attack_values=(2, 0, 0, 5, 5),
            roles=("J", "8", "A", "7", None),
        ),
        "capped": replace(KOREAN, name="capped", max_penalty=20),
        "mirror": replace(KOREAN, name="mirror", mirror_three=True),
        "taker_continues": replace(KOREAN, name="taker_continues", taker_continues=True),
    }
)
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
