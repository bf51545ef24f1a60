"""Promotion tests: a new version plays the bot's active version until the
sequential test decides (arena.matches.sprt).

A test plays matches of PAIRS_PER_MATCH deals, each deal twice with the versions
in swapped seats (the sandbox's duplicate deals: a 2-seat match's games come in
blocks of two that share a deal), in the competition's ruleset, unrated. Each
recorded match adds its pairs to the test's pentanomial, in the same transaction
as its result (arena.play.results calls `promotion_record_match`), and either
decides or queues the next match. The owner may activate either version at any
time; the test then stops and keeps what it measured.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_promotion_settle
from arena.notifications.models import Kind as NotificationKind
from arena.notifications.services import notification_send

from . import sprt
from .models import Competition, Game, Match, Promotion
from .services import match_create

logger = logging.getLogger(__name__)

PAIRS_PER_MATCH = 8


def promotion_start(*, candidate: BotVersion, competition: Competition) -> Promotion | None:
    """Start testing a version that qualified while its bot has an active version;
    None when there is nothing to test against (it is then activated as before)."""
    with transaction.atomic():
        incumbent = (
            BotVersion.objects.filter(bot_id=candidate.bot_id, status=BotVersion.Status.ACTIVE)
            .exclude(pk=candidate.pk)
            .first()
        )
        if incumbent is None:
            return None
        promotion, created = Promotion.objects.get_or_create(
            candidate=candidate,
            defaults={
                "incumbent": incumbent,
                "competition": competition,
                "elo0": competition.promotion_elo0,
                "elo1": competition.promotion_elo1,
                "alpha": competition.promotion_alpha,
                "beta": competition.promotion_beta,
                "max_pairs": competition.promotion_max_pairs,
                "pentanomial": [0, 0, 0, 0, 0],
            },
        )
        if created:
            _next_match(promotion)
    return promotion


def _next_match(promotion: Promotion) -> Match:
    competition = promotion.competition
    pairs = min(PAIRS_PER_MATCH, promotion.max_pairs - promotion.pairs)
    return match_create(
        kind=Match.Kind.PROMOTION,
        versions=[promotion.candidate, promotion.incumbent],
        ruleset=competition.ruleset,
        games=2 * max(pairs, 1),
        rated=False,
    )


def pair_points(games: list[Game]) -> list[int]:
    """The candidate's points (0..4 half-points, i.e. the pentanomial index) in each
    pair of a promotion match's games; the candidate is seat index 0. A last game
    without its partner (a match cut short) counts for nothing."""
    points = []
    for first, second in zip(games[0::2], games[1::2], strict=False):
        half_points = 0
        for game in (first, second):
            ranks = game.ranks
            if ranks[0] < ranks[1]:
                half_points += 2
            elif ranks[0] == ranks[1]:
                half_points += 1
        points.append(half_points)
    return points


def _running_promotion_locked(match: Match) -> Promotion | None:
    """The running test a promotion match belongs to (its candidate sits at index
    0), its row locked; None when the test has ended."""
    candidate_id = match.seats.filter(index=0).values_list("bot_version_id", flat=True).first()
    return (
        Promotion.objects.select_for_update()
        .select_related("candidate", "incumbent", "competition")
        .filter(candidate_id=candidate_id, state=Promotion.State.RUNNING)
        .first()
    )


def promotion_record_match(*, match: Match, games: list[Game]) -> Promotion | None:
    """Add a recorded promotion match's pairs to its test and decide, or queue the
    next match. Runs in the match result's transaction; locks the test's row."""
    promotion = _running_promotion_locked(match)
    if promotion is None:
        return None
    counts = list(promotion.pentanomial)
    for points in pair_points(sorted(games, key=lambda game: game.number)):
        counts[points] += 1
    promotion.pentanomial = counts
    promotion.llr = sprt.llr(counts, elo0=promotion.elo0, elo1=promotion.elo1)
    candidate, incumbent = promotion.candidate, promotion.incumbent
    if candidate.status == BotVersion.Status.ACTIVE:
        _finish(promotion, Promotion.State.PROMOTED_BY_OWNER, "Activated by its owner.")
    elif (
        candidate.status != BotVersion.Status.TESTING
        or incumbent.status != BotVersion.Status.ACTIVE
    ):
        _finish(promotion, Promotion.State.STOPPED, "A version left the test.")
    else:
        verdict = sprt.decide(
            counts,
            elo0=promotion.elo0,
            elo1=promotion.elo1,
            alpha=promotion.alpha,
            beta=promotion.beta,
            max_pairs=promotion.max_pairs,
        )
        if verdict == "continue":
            promotion.save(update_fields=["pentanomial", "llr"])
            _next_match(promotion)
            return promotion
        promoted = verdict == "promote"
        reason = _verdict_reason(promotion, promoted=promoted)
        bot_version_promotion_settle(candidate_id=candidate.pk, promoted=promoted, reason=reason)
        _finish(promotion, Promotion.State.PROMOTED if promoted else Promotion.State.KEPT, reason)
    return promotion


def _verdict_reason(promotion: Promotion, *, promoted: bool) -> str:
    estimate = sprt.estimate(promotion.pentanomial)
    lead = (
        f"{estimate.elo:+.0f} Elo [{estimate.low:+.0f}, {estimate.high:+.0f}]"
        if estimate
        else "no estimate"
    )
    versus = f"v{promotion.incumbent.number}"
    if promoted:
        return f"Promoted over {versus} after {promotion.pairs} pairs of games ({lead})."
    return (
        f"Not shown better than {versus} by {promotion.elo1:.0f} Elo after "
        f"{promotion.pairs} pairs of games ({lead}); {versus} stays active."
    )


def _finish(promotion: Promotion, state: str, reason: str) -> None:
    promotion.state = state
    promotion.reason = reason[:300]
    promotion.finished_at = timezone.now()
    promotion.save(update_fields=["pentanomial", "llr", "state", "reason", "finished_at"])
    logger.info("promotion of version %s: %s", promotion.candidate_id, state)
    notification_send(
        user_ids=[promotion.candidate.bot.owner_id],
        kind=NotificationKind.PROMOTION_DECIDED,
        title=f"Promotion test of {promotion.candidate}: {promotion.get_state_display().lower()}",
        body=promotion.reason,
        url=reverse("web:version-detail", args=[promotion.candidate_id]),
        payload={"version_id": promotion.candidate_id, "state": state},
    )


def promotion_match_failed(*, match: Match) -> None:
    """A promotion match that could not be played (out of attempts, never the bots'
    fault) stops its test, saying why; both versions stay as they are, and the
    owner can activate the new one by hand. Runs in the transaction failing it."""
    promotion = _running_promotion_locked(match)
    if promotion is not None:
        _finish(promotion, Promotion.State.STOPPED, f"Match {match.pk} could not be played.")
