"""The engine's own exceptions: each names one way things go wrong."""

from __future__ import annotations

FAULT_REASONS = frozenset({"timeout", "crash", "illegal", "limit"})


class RulesetError(ValueError):
    """A ruleset value (preset name or dict) that does not describe a valid ruleset."""


class RoleConflictError(RulesetError):
    """Roles that RULES.md forbids together: one rank given two roles, or a role
    given to a rank that attacks."""


class ReplayError(ValueError):
    """A game log that is malformed, does not replay, or does not reproduce its result."""


class IllegalAction(ValueError):
    """An action that the rules do not allow in the current state."""


class BotFault(Exception):
    """Raised by a bot callable to fault its seat with a given reason.

    Deliberately not a ValueError: a bot's own ValueError is a plain crash.

    >>> BotFault("timeout").reason
    'timeout'
    """

    def __init__(self, reason: str, detail: str = "") -> None:
        if reason not in FAULT_REASONS:
            raise ValueError(f"unknown fault reason {reason!r}")
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
