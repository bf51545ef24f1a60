"""Promotion tests: a new version plays the bot's active version until the
sequential test decides (arena.matches.sprt).

At 2 seats a test plays matches of PAIRS_PER_MATCH deals, each deal twice with
the versions in swapped seats (the sandbox's duplicate deals: a 2-seat match's
games come in blocks of two that share a deal), in the competition's ruleset,
unrated. At N seats the other N - 2 seats are filled from the ladder (active
versions of other bots, drawn at random), and each step is two
matches with one seed, the same fillers in the same seats and the two versions
in swapped seats: game k of one and game k of the other share the deal and the
table, so they are a pair. Each recorded step adds its pairs (the new version's
score against the active one, from their two places) to the test's pentanomial,
in the same transaction as the result that completes it (arena.play.results
calls `promotion_record_match`), and either decides or queues the next step.
When the ladder has too few other bots to fill the table, the step is the 2-seat
head-to-head. The owner may activate either version at any time; the test then
stops and keeps what it measured.
"""

from __future__ import annotations

import logging
import math
import random
import secrets

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_promotion_settle
from arena.notifications.models import Kind as NotificationKind
from arena.notifications.services import notification_send

from . import sprt
from .models import Competition, Game, Match, MatchSeat, Promotion
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
            _next_step(promotion)
    return promotion


def _next_step(promotion: Promotion) -> list[Match]:
    """Queue the test's next match, or at N seats its two twin matches."""
    competition = promotion.competition
    pairs = max(min(PAIRS_PER_MATCH, promotion.max_pairs - promotion.pairs), 1)
    seed = secrets.randbits(62)
    fillers = _ladder_fillers(promotion, count=competition.seats - 2, seed=seed)
    if competition.seats == 2 or fillers is None:
        return [
            match_create(
                kind=Match.Kind.PROMOTION,
                versions=[promotion.candidate, promotion.incumbent],
                ruleset=competition.ruleset,
                games=2 * pairs,
                rated=False,
            )
        ]
    # Whole blocks of the sandbox's rotations, so that both twins deal alike.
    games = competition.seats * math.ceil(pairs / competition.seats)
    return [
        match_create(
            kind=Match.Kind.PROMOTION,
            versions=[*versions, *fillers],
            ruleset=competition.ruleset,
            games=games,
            rated=False,
            seed=seed,
        )
        for versions in (
            [promotion.candidate, promotion.incumbent],
            [promotion.incumbent, promotion.candidate],
        )
    ]


def _ladder_fillers(promotion: Promotion, *, count: int, seed: int) -> list[BotVersion] | None:
    """`count` active versions of other bots for the other seats, drawn from the
    step's seed; None when the ladder has too few. Who they are matters little:
    both twins seat the same ones in the same seats, so a pair compares the two
    versions at one table."""
    if count <= 0:
        return []
    versions = list(
        BotVersion.objects.filter(status=BotVersion.Status.ACTIVE)
        .exclude(bot_id=promotion.candidate.bot_id)
        .order_by("pk")
    )
    if len(versions) < count:
        return None
    return random.Random(seed).sample(versions, count)


def pair_points(games: list[Game]) -> list[int]:
    """The candidate's points (0..4 half-points, i.e. the pentanomial index) in each
    pair of a 2-seat promotion match's games; the candidate is seat index 0. A
    last game without its partner (a match cut short) counts for nothing."""
    return [
        _half_points(first, candidate=0, incumbent=1)
        + _half_points(second, candidate=0, incumbent=1)
        for first, second in zip(games[0::2], games[1::2], strict=False)
    ]


def twin_pair_points(games: list[Game], twin_games: list[Game]) -> list[int]:
    """The candidate's points in each pair of an N-seat step: game k of the match
    with the candidate at index 0 and game k of its twin, where the two versions
    have swapped indices. Games played by one twin only count for nothing."""
    twins = {game.number: game for game in twin_games}
    return [
        _half_points(game, candidate=0, incumbent=1)
        + _half_points(twins[game.number], candidate=1, incumbent=0)
        for game in games
        if game.number in twins
    ]


def _half_points(game: Game, *, candidate: int, incumbent: int) -> int:
    """2 when the candidate finished ahead of the incumbent, 1 level, 0 behind
    (whatever the other seats did)."""
    mine, theirs = game.ranks[candidate], game.ranks[incumbent]
    return 2 if mine < theirs else 1 if mine == theirs else 0


def _running_promotion_locked(match: Match) -> Promotion | None:
    """The running test a promotion match belongs to (its candidate sits at index
    0 or, in an N-seat twin, 1), its row locked; None when the test has ended."""
    version_ids = list(
        match.seats.filter(index__in=(0, 1)).values_list("bot_version_id", flat=True)
    )
    return (
        Promotion.objects.select_for_update()
        .select_related("candidate", "incumbent", "competition")
        .filter(candidate_id__in=version_ids, state=Promotion.State.RUNNING)
        .first()
    )


def _step_points(promotion: Promotion, *, match: Match, games: list[Game]) -> list[int] | None:
    """The pairs a recorded match completes: its own at 2 seats; at N seats both
    twins' once the second is recorded (None while its twin is still to play).
    Under the test's row lock, so that of two twins recorded at once the second
    sees the first."""
    games = sorted(games, key=lambda game: game.number)
    seats = len(games[0].ranks) if games else match.seats.count()
    if seats == 2:
        return pair_points(games)
    # Through the candidate's seats (indexed by version), not a scan for the seed.
    twin = (
        Match.objects.filter(
            seats__bot_version_id=promotion.candidate_id,
            kind=Match.Kind.PROMOTION,
            seed=match.seed,
        )
        .exclude(pk=match.pk)
        .first()
    )
    if twin is None:  # not a step this module queued: nothing to pair it with
        return []
    if twin.state != Match.State.DONE:
        return None
    twin_games = list(twin.games.order_by("number"))
    candidate_first = MatchSeat.objects.filter(
        match=match, index=0, bot_version_id=promotion.candidate_id
    ).exists()
    if candidate_first:
        return twin_pair_points(games, twin_games)
    return twin_pair_points(twin_games, games)


def promotion_record_match(*, match: Match, games: list[Game]) -> Promotion | None:
    """Add the pairs a recorded promotion match completes to its test and decide, or
    queue the next step. Runs in the match result's transaction; locks the test's
    row."""
    promotion = _running_promotion_locked(match)
    if promotion is None:
        return None
    points = _step_points(promotion, match=match, games=games)
    if points is None:
        return promotion
    counts = list(promotion.pentanomial)
    for half_points in points:
        counts[half_points] += 1
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
            _next_step(promotion)
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
