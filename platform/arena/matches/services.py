"""Creating matches: the one way a match enters the queue, and user challenges."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

import engine
from arena.bots.models import Bot, BotVersion
from arena.core import statements
from arena.core.queueing import task_queue_on_commit

from .logs import log_compress
from .models import Competition, Match, MatchSeat, QualificationGame
from .selectors import default_competition

MAX_GAMES_PER_MATCH = 200

# Carried out by arena.play (above this app), queued by name.
RUN_MATCH_TASK = "arena.matches.run_match"


def match_queue(*, kind: str) -> str:
    """The broker queue a match of this kind is played from. A tournament's matches
    have their own: its whole schedule is queued at once, and the ladder's next
    matches must not wait behind it (nor it behind them)."""
    if kind == Match.Kind.TOURNAMENT:
        return settings.ARENA_TOURNAMENTS_QUEUE
    if kind == Match.Kind.TABLE:  # holds its worker while a person plays
        return settings.ARENA_TABLES_QUEUE
    return settings.CELERY_TASK_DEFAULT_QUEUE


def match_queue_on_commit(*, match_id: int, kind: str) -> None:
    """Send a match's run to the queue of its kind when the transaction commits."""
    task_queue_on_commit(RUN_MATCH_TASK, match_id, queue=match_queue(kind=kind))


def match_create(
    *,
    kind: str,
    versions: list[BotVersion],
    ruleset: dict[str, Any] | str | None,
    games: int,
    competition: Competition | None = None,
    tournament: Any = None,
    rated: bool,
    created_by: Any = None,
    seed: int | None = None,
    not_before: datetime | None = None,
) -> Match:
    """Create a match (and its seats, in the order of `versions`) in the caller's
    transaction; its run (RUN_MATCH_TASK) is queued when that transaction commits.

    With `not_before`, nothing is sent now: a queued match's `lease_expires_at` is
    when the lease sweeper sends its message again (arena.play.leases), and this
    match's first message goes then."""
    if kind not in Match.Kind.values:
        raise ValidationError({"kind": [f"Unknown match kind {kind!r}."]})
    if not engine.MIN_PLAYERS <= len(versions) <= engine.MAX_PLAYERS:
        raise ValidationError(
            {"versions": [f"A match seats {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} bots."]}
        )
    if len({version.pk for version in versions}) != len(versions):
        raise ValidationError({"versions": ["A version cannot sit twice at one table."]})
    # A promotion test seats two versions of one bot; every other table, and every
    # rated one, seats distinct bots (ratings are per bot).
    if kind != Match.Kind.PROMOTION and len({v.bot_id for v in versions}) != len(versions):
        raise ValidationError({"versions": ["A bot cannot sit twice at one table."]})
    if competition is not None and competition.seats != len(versions):
        raise ValidationError(
            {"versions": [f"{competition.name} plays at {competition.seats} seats."]}
        )
    if not 1 <= games <= MAX_GAMES_PER_MATCH:
        raise ValidationError({"games": [f"From 1 to {MAX_GAMES_PER_MATCH} games."]})
    try:
        normalized = engine.Ruleset.from_value(ruleset).to_dict()
    except engine.RulesetError as error:
        raise ValidationError({"ruleset": [str(error)]}) from None
    # No savepoint inside a caller's transaction (a SAVEPOINT and a RELEASE per match): a
    # failed insert here leaves that transaction to be rolled back as a whole.
    with transaction.atomic(savepoint=False):
        # Written out (arena.core.statements): the matchmaker creates one match for
        # every match played.
        match = Match(
            kind=kind,
            competition=competition,
            tournament=tournament,
            rated=rated,
            ruleset=normalized,
            games_planned=games,
            seed=secrets.randbits(62) if seed is None else seed,
            created_by=created_by,
            lease_expires_at=not_before,
        )
        statements.insert([match])
        statements.insert(
            [
                MatchSeat(match=match, index=index, bot_id=version.bot_id, bot_version=version)
                for index, version in enumerate(versions)
            ],
            keys=False,
        )
        if not_before is None:
            match_queue_on_commit(match_id=match.pk, kind=kind)
    return match


def competition_create(
    *,
    slug: str,
    name: str,
    ruleset: dict[str, Any] | str | None,
    seats: int,
    games_per_match: int = 4,
    ladder_enabled: bool = True,
    rating_system: str = Competition.RatingSystem.PLACKETT_LUCE,
) -> Competition:
    """A new ladder. Its ruleset is stored with every option spelled out, so that a
    later change of the engine's defaults cannot change what it plays."""
    if slug == "create":  # the URL /competitions/create/ is taken
        raise ValidationError({"slug": ["This slug is reserved."]})
    if Competition.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": ["A competition with this slug exists."]})
    if not engine.MIN_PLAYERS <= seats <= engine.MAX_PLAYERS:
        raise ValidationError(
            {"seats": [f"From {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} seats."]}
        )
    if not 1 <= games_per_match <= MAX_GAMES_PER_MATCH:
        raise ValidationError({"games_per_match": [f"From 1 to {MAX_GAMES_PER_MATCH}."]})
    if rating_system not in Competition.RatingSystem.values:
        raise ValidationError(
            {"rating_system": [f"One of {', '.join(Competition.RatingSystem.values)}."]}
        )
    try:
        normalized = engine.Ruleset.from_value(ruleset).to_dict()
    except engine.RulesetError as error:
        raise ValidationError({"ruleset": [str(error)]}) from None
    return Competition.objects.create(
        rating_system=rating_system,
        slug=slug,
        name=name,
        ruleset=normalized,
        seats=seats,
        games_per_match=games_per_match,
        ladder_enabled=ladder_enabled,
    )


def challenges_left_today(*, user: Any) -> int:
    start_of_day = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    used = Match.objects.filter(
        kind=Match.Kind.CHALLENGE, created_by=user, created_at__gte=start_of_day
    ).count()
    return max(0, settings.ARENA_CHALLENGES_PER_DAY - used)


def challenge_create(*, user: Any, bot: Bot, opponent: Bot) -> Match:
    """An unrated match of the default competition between the user's bot and any
    active bot, within ARENA_CHALLENGES_PER_DAY (UTC days)."""
    if not user.is_authenticated or (bot.owner_id != user.pk and not user.is_staff):
        raise PermissionDenied("You can only challenge with your own bot.")
    if bot.pk == opponent.pk:
        raise ValidationError({"opponent": ["A bot cannot challenge itself."]})
    competition = default_competition()
    with transaction.atomic():
        # The user's row serializes their challenges, so the quota cannot be overrun
        # by simultaneous requests.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        if challenges_left_today(user=user) <= 0:
            raise ValidationError(
                {"opponent": [f"Daily limit of {settings.ARENA_CHALLENGES_PER_DAY} challenges."]}
            )
        active = {
            version.bot_id: version
            for version in BotVersion.objects.filter(
                bot_id__in=[bot.pk, opponent.pk], status=BotVersion.Status.ACTIVE
            )
        }
        if bot.pk not in active:
            raise ValidationError({"bot": [f"{bot.name} has no active version."]})
        if opponent.pk not in active:
            raise ValidationError({"opponent": [f"{opponent.name} has no active version."]})
        return match_create(
            kind=Match.Kind.CHALLENGE,
            versions=[active[bot.pk], active[opponent.pk]],
            ruleset=competition.ruleset,
            games=competition.games_per_match,
            competition=competition,
            rated=False,
            created_by=user,
        )


def qualification_games_replace(
    *, version_id: int, games: list[tuple[int, dict[str, Any]]]
) -> None:
    """Keep a version's qualification games, (the version's seat, log) in report
    order, in place of any kept from an earlier qualification of it."""
    with transaction.atomic():
        QualificationGame.objects.filter(version_id=version_id).delete()
        QualificationGame.objects.bulk_create(
            QualificationGame(
                version_id=version_id, number=number, seat=seat, log_compressed=log_compress(log)
            )
            for number, (seat, log) in enumerate(games)
        )
