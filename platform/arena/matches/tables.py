"""Tables: a person plays against bots on the site.

A table is a match of kind TABLE: unrated, outside every competition, one of its
seats a person (`MatchSeat.person`) and the others bots that any user may play
(every active bot: the examples, the ladder's, one's own). It is played by a
worker like any match (arena.play.tables drives the person's seat), recorded and
replayable like any other; the person is shown by their user name.

A user has one table open (queued or running) at a time: each holds a worker for
as long as the person plays (bounded by ARENA_TABLE_MAX_SECONDS).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

import engine
from arena.bots.models import Bot, BotVersion
from arena.core import statements
from sandbox.human import reply_problem

from .live import table_answer_set, table_leave, table_question_get
from .models import Match, MatchSeat
from .services import match_queue_on_commit

MAX_TABLE_GAMES = 5


@dataclass(frozen=True)
class TableRequest:
    """What a person asks for: the bots to play (in seat order; a bot may fill
    several seats, each its own process), the preset, the number of games."""

    bots: list[Bot]
    preset: str = "korean"
    games: int = 1


def table_bots() -> QuerySet[Bot]:
    """The bots a person may sit down with: every bot with an active version."""
    return (
        Bot.objects.filter(deleted_at__isnull=True, versions__status=BotVersion.Status.ACTIVE)
        .distinct()
        .order_by("-is_example", "name")
    )


def table_open_for(*, user: Any) -> Match | None:
    """The user's table still queued or being played, if any."""
    return (
        Match.objects.filter(
            kind=Match.Kind.TABLE,
            state__in=[Match.State.QUEUED, Match.State.RUNNING],
            seats__person=user,
        )
        .order_by("-pk")
        .first()
    )


def table_create(*, user: Any, request: TableRequest) -> Match:
    """Queue a table for `user` against `request.bots`; the person's place at it is
    drawn at random (the seating of later games rotates it as in every match)."""
    if not user.is_authenticated:
        raise PermissionDenied("Log in to sit at a table.")
    players = len(request.bots) + 1
    if not engine.MIN_PLAYERS <= players <= engine.MAX_PLAYERS:
        raise ValidationError(
            {
                "bots": [
                    f"Choose {engine.MIN_PLAYERS - 1} to {engine.MAX_PLAYERS - 1} bots: "
                    f"a table seats {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} players."
                ]
            }
        )
    if request.preset not in engine.PRESET_NAMES:
        raise ValidationError(
            {"preset": [f"One of {', '.join(engine.PRESET_NAMES)}, not {request.preset!r}."]}
        )
    if not 1 <= request.games <= MAX_TABLE_GAMES:
        raise ValidationError({"games": [f"From 1 to {MAX_TABLE_GAMES} games."]})
    with transaction.atomic():
        # The user's row serializes their tables: one open at a time, even for
        # simultaneous requests.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        open_table = table_open_for(user=user)
        if open_table is not None:
            raise ValidationError(
                {"bots": [f"You are already at table {open_table.pk}: finish or leave it first."]}
            )
        active = {
            version.bot_id: version
            for version in BotVersion.objects.filter(
                bot_id__in=[bot.pk for bot in request.bots],
                bot__deleted_at__isnull=True,
                status=BotVersion.Status.ACTIVE,
            )
        }
        missing = [bot.name for bot in request.bots if bot.pk not in active]
        if missing:
            raise ValidationError({"bots": [f"No active version: {', '.join(missing)}."]})
        seed = secrets.randbits(62)
        person_index = seed % players
        match = Match(
            kind=Match.Kind.TABLE,
            rated=False,
            ruleset=engine.Ruleset.preset(request.preset).to_dict(),
            games_planned=request.games,
            seed=seed,
            created_by=user,
        )
        statements.insert([match])
        players_in_order: list[BotVersion | None] = [active[bot.pk] for bot in request.bots]
        players_in_order.insert(person_index, None)  # the person's place
        statements.insert(
            [
                MatchSeat(match=match, index=index, person=user)
                if version is None
                else MatchSeat(match=match, index=index, bot_id=version.bot_id, bot_version=version)
                for index, version in enumerate(players_in_order)
            ],
            keys=False,
        )
        match_queue_on_commit(match_id=match.pk, kind=Match.Kind.TABLE)
    return match


def table_person_seat(*, match: Match) -> MatchSeat | None:
    """The person's seat of a table (None for any other match)."""
    if match.kind != Match.Kind.TABLE:
        return None
    return next((seat for seat in match.seats.all() if seat.is_person), None)


def table_seated(*, user: Any, match: Match) -> MatchSeat:
    """The seat `user` holds at the table `match`; PermissionDenied if none."""
    seat = table_person_seat(match=match)
    if seat is None or not user.is_authenticated or seat.person_id != user.pk:
        raise PermissionDenied("This is not your table.")
    return seat


def table_answer(*, user: Any, match: Match, number: int, reply: dict[str, Any]) -> None:
    """The person's reply to question `number` of their table, for the worker to
    read. Refused, with the reason, when nothing is asked, when that question is no
    longer the one asked, or when the rules would not take the reply."""
    table_seated(user=user, match=match)
    question = table_question_get(match_id=match.pk)
    if question is None:
        raise ValidationError({"number": ["Nothing is asked of you now."]})
    if question.get("number") != number:
        raise ValidationError({"number": ["That question is no longer asked."]})
    move = {key: reply[key] for key in ("action", "card", "suit", "call") if key in reply}
    problem = reply_problem(question["message"], move)
    if problem is not None:
        raise ValidationError({"action": [problem]})
    table_answer_set(match_id=match.pk, number=number, reply=move)


def table_leave_by(*, user: Any, match: Match) -> None:
    """The person leaves: their seat faults at once, the bots play the game out."""
    table_seated(user=user, match=match)
    # Not started yet: no game is played at all.
    Match.objects.filter(pk=match.pk, state=Match.State.QUEUED).update(
        state=Match.State.FAILED,
        error="Not played: the person left before the table started.",
        finished_at=timezone.now(),
    )
    table_leave(match_id=match.pk)
