"""Qualifying a new version: a short sandboxed match against the example random bot.

The version passes when it finishes every game without a fault (winning is not
required). The outcome, with the faults and the bot's stderr tail, is kept in
`BotVersion.qualification` for its owner to read.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings

from arena.bots import services
from arena.bots.models import BotVersion
from arena.matches.logs import game_summary, stderr_of_seat
from arena.matches.promotions import promotion_start
from arena.matches.selectors import default_competition
from sandbox.errors import InfrastructureError

from .sandboxing import QUALIFIER_BOT, Entrant, run_sandboxed_match

CANDIDATE_INDEX = 0  # the version under test is the first bot of the match
_STDERR_LINES_KEPT = 50


def qualification_report(games: list[dict[str, Any]], *, backend: str) -> dict[str, Any]:
    """What the owner sees: per game, the candidate's faults and stderr tail."""
    report_games = []
    faults: list[str] = []
    for number, log in enumerate(games):
        summary = game_summary(log)
        seat = summary.seating.index(CANDIDATE_INDEX)
        reasons = [f["reason"] for f in summary.faults if f["index"] == CANDIDATE_INDEX]
        faults.extend(reasons)
        report_games.append(
            {
                "game": number,
                "seat": seat,
                "rank": summary.ranks[CANDIDATE_INDEX],
                "faults": reasons,
                "turns": summary.turns,
                "stderr": stderr_of_seat(log, seat)[-_STDERR_LINES_KEPT:],
            }
        )
    return {"backend": backend, "games": report_games, "faults": faults}


def bot_version_qualify(*, version_id: int) -> BotVersion | None:
    """Run the qualification match of a pending version and record the verdict.

    Raises sandbox.InfrastructureError (after putting the version back to pending)
    when the sandbox cannot run: that is never the bot's fault.
    """
    version = services.bot_version_qualification_start(version_id=version_id)
    if version is None:
        return None
    competition = default_competition()
    try:
        result = run_sandboxed_match(
            entrants=[
                Entrant(name=version.bot.name, version=version),
                Entrant(name="qualifier-random", path=QUALIFIER_BOT),
            ],
            games=settings.ARENA_QUALIFICATION_GAMES,
            seed=secrets.randbits(48),
            ruleset=competition.ruleset,
        )
    except InfrastructureError as error:
        services.bot_version_qualification_postpone(version_id=version_id, reason=str(error))
        raise
    report = qualification_report(result.games, backend=result.backend)
    passed = not report["faults"] and len(result.games) > 0
    reason = ""
    if not passed:
        reason = "Qualification failed: " + (
            ", ".join(sorted(set(report["faults"]))) or "no game was played"
        )
        reason += ". See the qualification games for the bot's stderr."
    version = services.bot_version_qualification_finish(
        version_id=version_id, passed=passed, reason=reason, report=report
    )
    if version is not None and version.status == BotVersion.Status.TESTING:
        promotion_start(candidate=version, competition=competition)
    return version
