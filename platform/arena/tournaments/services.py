"""Writes to tournaments: creating one, starting its schedule, noticing its end."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from arena.matches.models import Match

from .locks import tournament_lock
from .models import Tournament

logger = logging.getLogger(__name__)

FINISHED_MATCH_STATES = (Match.State.DONE, Match.State.FAILED)


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
    """Bring a locked tournament's state in line with its matches' states."""
    counts = Match.objects.filter(tournament=tournament).aggregate(
        total=Count("id"),
        done=Count("id", filter=Q(state=Match.State.DONE)),
        failed=Count("id", filter=Q(state=Match.State.FAILED)),
    )
    total, done, failed = counts["total"], counts["done"], counts["failed"]
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
                f"{failed} of {total} matches failed; their games are missing from the standings"
            )
    tournament.save(update_fields=["state", "finished_at", "error"])
    logger.info("tournament %s finished: %s", tournament.pk, tournament.state)
