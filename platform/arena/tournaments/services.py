"""Writes to tournaments: creating one, starting its schedule, noticing its end.

A tournament is created `pending` with its entries (each bot's active version frozen);
a task then creates its whole schedule of unrated matches through
`arena.matches.services.match_create` (which queues each on commit) and marks it
`running`; the match-completion hook marks it `done` when every match has finished.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

import engine
from arena.bots.models import Bot, BotVersion
from arena.core.queueing import task_queue_on_commit
from arena.matches.models import Match
from arena.matches.services import MAX_GAMES_PER_MATCH, match_create
from arena.notifications.models import Kind as NotificationKind
from arena.notifications.services import notification_send

from . import scheduling
from .locks import tournament_lock
from .models import Tournament, TournamentEntry
from .selectors import tournament_tables

logger = logging.getLogger(__name__)

START_TOURNAMENT_TASK = "arena.tournaments.start_tournament"
MAX_ENTRANTS = 32
MAX_ROUNDS = 10
# A tournament may not flood the workers: its whole schedule, in games.
MAX_TOTAL_GAMES = 20_000
NAME_MAX = Tournament._meta.get_field("name").max_length


def _tournament_create_errors(
    *, name: str, format: str, seats: int, games_per_match: int, rounds: int, bots: list[Bot]
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    if not name.strip():
        add("name", "A tournament needs a name.")
    elif len(name) > NAME_MAX:
        add("name", f"At most {NAME_MAX} characters.")
    if format not in Tournament.Format.values:
        add("format", f"One of {', '.join(Tournament.Format.values)}.")
    table_fits = engine.MIN_PLAYERS <= seats <= engine.MAX_PLAYERS
    if not table_fits:
        add("seats", f"A table has {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} seats.")
    elif format == Tournament.Format.ROUND_ROBIN and seats != 2:
        add("format", "A round robin is played at 2 seats; use balanced rounds for 3 or more.")
    elif format == Tournament.Format.BALANCED and seats < 3:
        add("format", "Balanced rounds are for 3 or more seats; use a round robin for 2.")
    if not 1 <= games_per_match <= MAX_GAMES_PER_MATCH:
        add("games_per_match", f"From 1 to {MAX_GAMES_PER_MATCH} games.")
    elif table_fits and games_per_match % seats:
        # Seats rotate and each deal is played once per rotation: a partial rotation
        # would favour whoever sits first.
        add("games_per_match", f"A multiple of the table size ({seats}), so seats rotate fully.")
    if not 1 <= rounds <= MAX_ROUNDS:
        add("rounds", f"From 1 to {MAX_ROUNDS} rounds.")
    if len({bot.pk for bot in bots}) != len(bots):
        add("bots", "A bot can enter only once.")
    if len(bots) > MAX_ENTRANTS:
        add("bots", f"At most {MAX_ENTRANTS} bots.")
    elif table_fits and len(bots) < seats:
        add("bots", f"At least {seats} bots for {seats}-seat tables.")
    if not errors:
        matches = scheduling.schedule_size(
            format=format, entrants=len(bots), seats=seats, rounds=rounds
        )
        if matches * games_per_match > MAX_TOTAL_GAMES:
            add(
                "games_per_match",
                f"That schedule has {matches * games_per_match} games; at most "
                f"{MAX_TOTAL_GAMES}. Use fewer bots, rounds or games.",
            )
    return errors


def tournament_create(
    *,
    user: Any,
    name: str,
    format: str,
    ruleset: dict[str, Any] | str | None,
    seats: int,
    games_per_match: int,
    bots: list[Bot],
    rounds: int = 1,
) -> Tournament:
    """Create a pending tournament and queue its start on commit.

    A user may enter only their own bots (staff any bot); every bot needs an active
    version, which is frozen in its entry. Errors: ValidationError keyed by field,
    creating nothing.
    """
    if not getattr(user, "is_authenticated", False):
        raise ValidationError({"bots": ["Log in to create a tournament."]})
    errors = _tournament_create_errors(
        name=name,
        format=format,
        seats=seats,
        games_per_match=games_per_match,
        rounds=rounds,
        bots=bots,
    )
    foreign = sorted(bot.name for bot in bots if bot.owner_id != user.pk)
    if foreign and not user.is_staff:
        errors.setdefault("bots", []).append(
            f"You can only enter your own bots, not {', '.join(foreign)}."
        )
    try:
        normalized_ruleset = engine.Ruleset.from_value(ruleset).to_dict()
    except engine.RulesetError as error:
        errors["ruleset"] = [str(error)]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        active = {
            version.bot_id: version
            for version in BotVersion.objects.select_for_update(no_key=True)
            .filter(bot__in=bots, status=BotVersion.Status.ACTIVE)
            .order_by("pk")
        }
        inactive = sorted(bot.name for bot in bots if bot.pk not in active)
        if inactive:
            raise ValidationError({"bots": [f"No active version: {', '.join(inactive)}."]})
        tournament = Tournament.objects.create(
            name=name.strip(),
            created_by=user,
            format=format,
            ruleset=normalized_ruleset,
            seats=seats,
            games_per_match=games_per_match,
            rounds=rounds,
            seed=secrets.randbits(62),
        )
        TournamentEntry.objects.bulk_create(
            [
                TournamentEntry(tournament=tournament, bot=bot, bot_version=active[bot.pk])
                for bot in bots
            ]
        )
        task_queue_on_commit(START_TOURNAMENT_TASK, tournament.pk)
    return tournament


def tournament_schedule(*, tournament: Tournament, entrants: int) -> list[scheduling.Table]:
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return scheduling.round_robin_schedule(entrants=entrants, rounds=tournament.rounds)
    return scheduling.balanced_schedule(
        entrants=entrants, seats=tournament.seats, rounds=tournament.rounds, seed=tournament.seed
    )


def tournament_start(*, tournament_id: int) -> Tournament | None:
    """Create every match of a pending tournament and mark it running. Idempotent:
    a tournament that has started (or is gone) is left alone."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id=tournament_id)
        if tournament is None or tournament.state != Tournament.State.PENDING:
            return tournament
        if Match.objects.filter(tournament=tournament).exists():
            return tournament
        entries = list(tournament.entries.select_related("bot_version").order_by("pk"))
        try:
            schedule = tournament_schedule(tournament=tournament, entrants=len(entries))
            with transaction.atomic():
                for number, table in enumerate(schedule):
                    match_create(
                        kind=Match.Kind.TOURNAMENT,
                        versions=[entries[i].bot_version for i in table],
                        ruleset=tournament.ruleset,
                        games=tournament.games_per_match,
                        tournament=tournament,
                        rated=False,
                        created_by=tournament.created_by,
                        # Distinct deals per match, reproducible from the tournament.
                        seed=(tournament.seed + number) % (1 << 62),
                    )
        except (ValidationError, scheduling.ScheduleError) as error:
            # Only a tournament edited since its creation gets here (an entry
            # deleted in the admin, say): fail it with the reason rather than
            # leave it pending for ever.
            tournament.state = Tournament.State.FAILED
            tournament.error = f"Could not schedule: {error}"
            tournament.finished_at = timezone.now()
            tournament.save(update_fields=["state", "error", "finished_at"])
            return tournament
        tournament.state = Tournament.State.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["state", "started_at"])
        logger.info("tournament %s started: %d matches", tournament.pk, len(schedule))
    return tournament


FINISHED_MATCH_STATES = (Match.State.DONE, Match.State.FAILED)
# A match that the infrastructure lost after its last attempt is played again: the
# same table (seats, seed, games) as a new match, once the wait has passed, which
# doubles with each loss of that table up to RERUN_MAX_DELAY. A tournament so
# finishes whenever the workers are back, however long they were away.
RERUN_FIRST_DELAY = timedelta(minutes=5)
RERUN_MAX_DELAY = timedelta(hours=1)


def tournament_match_rerun(*, match: Match) -> Match | None:
    """Schedule a failed tournament match's table again; None when its tournament
    is over. Expects the failed match's row locked, in the transaction that fails it.

    A tournament's tables are told apart by their seeds (one per table, from the
    tournament's seed): a rerun keeps its table's seed, so it deals the same cards,
    and the standings count the one match of each table that is done."""
    if match.tournament_id is None:
        return None
    tournament = Tournament.objects.filter(pk=match.tournament_id).only("state").first()
    if tournament is None or tournament.state not in (
        Tournament.State.PENDING,
        Tournament.State.RUNNING,
    ):
        return None
    lost = Match.objects.filter(tournament_id=match.tournament_id, seed=match.seed).count()
    delay = min(RERUN_FIRST_DELAY * 2 ** max(0, lost - 1), RERUN_MAX_DELAY)
    seats = match.seats.select_related("bot_version").order_by("index")
    rerun = match_create(
        kind=Match.Kind.TOURNAMENT,
        versions=[seat.bot_version for seat in seats],
        ruleset=match.ruleset,
        games=match.games_planned,
        tournament=tournament,
        rated=False,
        created_by=match.created_by,
        seed=match.seed,
        not_before=timezone.now() + delay,
    )
    logger.warning(
        "tournament %s: match %s lost to the infrastructure, played again as match %s in %s",
        match.tournament_id,
        match.pk,
        rerun.pk,
        delay,
    )
    return rerun


def tournament_match_finished(*, match: Match) -> None:
    """Called when a tournament match reaches `done` or `failed`, in the transaction
    that records it. Locks the tournament row; once every match has finished the
    tournament is `done` (or `failed` when not one of its matches could be played).
    """
    if match.tournament_id is None:
        return
    with transaction.atomic():
        tournament = tournament_lock(tournament_id=match.tournament_id)
        if tournament is None or tournament.state in (
            Tournament.State.DONE,
            Tournament.State.FAILED,
        ):
            return
        tournament_settle(tournament=tournament)


def tournament_settle(*, tournament: Tournament) -> None:
    """Bring a locked tournament's state in line with its matches' states: it is over
    when every table has a match done, or failed for good (a bot deleted)."""
    tables = tournament_tables(tournament=tournament)
    total, done, unplayed = tables.total, tables.done, tables.unplayed
    failed = len(unplayed)
    if total == 0 or done + failed < total:
        if tournament.state == Tournament.State.PENDING and done + failed > 0:
            tournament.state = Tournament.State.RUNNING
            tournament.started_at = tournament.started_at or timezone.now()
            tournament.save(update_fields=["state", "started_at"])
        return
    tournament.finished_at = timezone.now()
    if done == 0:
        tournament.state = Tournament.State.FAILED
        tournament.error = f"none of the {total} matches could be played"
    else:
        tournament.state = Tournament.State.DONE
        if failed:
            tournament.error = (
                f"{failed} of {total} matches failed ({', '.join(map(str, unplayed))}); "
                "their games are missing from the standings"
            )
    tournament.save(update_fields=["state", "finished_at", "error"])
    logger.info("tournament %s finished: %s", tournament.pk, tournament.state)
    notification_send(
        user_ids=[
            tournament.created_by_id,
            *tournament.entries.values_list("bot__owner_id", flat=True),
        ],
        kind=NotificationKind.TOURNAMENT_FINISHED,
        title=f"Tournament {tournament.name}: {tournament.get_state_display().lower()}",
        body=tournament.error,
        url=reverse("web:tournament-detail", args=[tournament.pk]),
        payload={"tournament_id": tournament.pk, "state": tournament.state},
    )
