"""Reads on competitions, matches and games."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse

from arena.bots.models import Bot

from . import sprt
from .defaults import DEFAULT_COMPETITION, DEFAULT_SLUG, KOREAN_RULESET
from .logs import log_decompress
from .models import Competition, Game, Match, MatchSeat, Promotion, QualificationGame

ACTIVE_STATES = (Match.State.QUEUED, Match.State.RUNNING)


def default_competition() -> Competition:
    """The default ladder (created by a migration): korean rules at two seats.

    Put back if it was deleted, so that qualification and challenges, which play
    under its ruleset, never stop working for want of one row.
    """
    competition = Competition.objects.filter(is_default=True).order_by("pk").first()
    if competition is None:
        competition, _ = Competition.objects.get_or_create(
            slug=DEFAULT_SLUG,
            defaults={**DEFAULT_COMPETITION, "ruleset": copy.deepcopy(KOREAN_RULESET)},
        )
    return competition


def competitions_entered() -> list[Competition]:
    """The competitions every active version plays in: the default one first, then
    each ladder that is on, in the order they were made."""
    default = default_competition()
    ladders = Competition.objects.filter(ladder_enabled=True).exclude(pk=default.pk)
    return [default, *ladders.order_by("pk")]


def competition_list() -> QuerySet[Competition]:
    return Competition.objects.all()


def competition_get(*, slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug)


def _with_seats(queryset: QuerySet[Match]) -> QuerySet[Match]:
    seats = MatchSeat.objects.select_related("bot__owner", "bot_version", "person").order_by(
        "index"
    )
    return queryset.select_related("competition", "tournament").prefetch_related(
        Prefetch("seats", queryset=seats)
    )


def match_list(
    *,
    bot: Bot | None = None,
    competition: Competition | None = None,
    tournament: Any = None,
    state: str | None = None,
) -> QuerySet[Match]:
    """Newest first, with seats (bot and version) prefetched: two queries per page."""
    matches = Match.objects.all()
    if bot is not None:
        # Through the (bot, -match) index: a bot's history stays fast with many games.
        matches = matches.filter(pk__in=MatchSeat.objects.filter(bot=bot).values("match_id"))
    if competition is not None:
        matches = matches.filter(competition=competition)
    if tournament is not None:
        matches = matches.filter(tournament=tournament)
    if state:
        matches = matches.filter(state=state)
    return _with_seats(matches.order_by("-created_at", "-id"))


def matches_live() -> QuerySet[Match]:
    """Matches queued or being played, oldest first (the order they will run in)."""
    return _with_seats(Match.objects.filter(state__in=ACTIVE_STATES).order_by("created_at", "id"))


def match_get(*, pk: int) -> Match:
    return get_object_or_404(
        _with_seats(Match.objects.all()).prefetch_related(
            Prefetch("games", queryset=Game.objects.defer("log_compressed").order_by("number"))
        ),
        pk=pk,
    )


def game_get(*, pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("match", "match__competition").prefetch_related(
            Prefetch(
                "match__seats",
                queryset=MatchSeat.objects.select_related("bot", "bot__owner").order_by("index"),
            )
        ),
        pk=pk,
    )


def game_log(*, game: Game) -> dict[str, Any]:
    """The game's full log (REPLAY.md plus timings, stderr and debug), decompressed."""
    return log_decompress(game.log_compressed)


def bots_busy_ids() -> set[int]:
    """Bots seated in a match that is queued or running."""
    return set(
        MatchSeat.objects.filter(match__state__in=ACTIVE_STATES).values_list("bot_id", flat=True)
    )


def match_seats_of(*, match_id: int) -> list[tuple[int, int, int]]:
    """(index, bot id, version id) of each seat of a match, in index order."""
    return list(
        MatchSeat.objects.filter(match_id=match_id)
        .order_by("index")
        .values_list("index", "bot_id", "bot_version_id")
    )


@dataclass(frozen=True, slots=True)
class PromotionProgress:
    """What a version page shows of its promotion test."""

    state: str
    state_label: str
    incumbent_number: int
    pairs: int
    games: int
    pentanomial: list[int]
    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_pairs: int
    estimate: sprt.Estimate | None
    reason: str

    @property
    def position(self) -> float:
        """Where the ratio stands between its bounds, 0 (keep) to 1 (promote)."""
        span = self.upper - self.lower
        return min(1.0, max(0.0, (self.llr - self.lower) / span))

    @property
    def position_percent(self) -> int:
        return round(100 * self.position)


def promotion_progress(*, version: Any) -> PromotionProgress | None:
    """The promotion test of a version (as the candidate), or None."""
    promotion = Promotion.objects.select_related("incumbent").filter(candidate=version).first()
    if promotion is None:
        return None
    lower, upper = sprt.bounds(promotion.alpha, promotion.beta)
    return PromotionProgress(
        state=promotion.state,
        state_label=promotion.get_state_display(),
        incumbent_number=promotion.incumbent.number,
        pairs=promotion.pairs,
        games=2 * promotion.pairs,
        pentanomial=list(promotion.pentanomial),
        llr=promotion.llr,
        lower=lower,
        upper=upper,
        elo0=promotion.elo0,
        elo1=promotion.elo1,
        alpha=promotion.alpha,
        beta=promotion.beta,
        max_pairs=promotion.max_pairs,
        estimate=sprt.estimate(promotion.pentanomial),
        reason=promotion.reason,
    )


def match_indexes_owned(*, user: Any, seats: list[MatchSeat]) -> set[int]:
    """The match's bot indexes whose bot the user owns (staff: every one), whose
    private output (stderr, debug, the fault detail that shows them) the user may see."""
    if user is None or not user.is_authenticated:
        return set()
    if user.is_staff:
        return {seat.index for seat in seats}
    return {seat.index for seat in seats if seat.owner_id == user.pk}


def game_faults_for_user(*, game: Game, owned: set[int]) -> list[dict[str, Any]]:
    """The game's faults as this user may read them: each with its sentence (the
    owner's, with the bot's own output, for a bot in `owned`), its turn, and the
    replay URL that opens at the fault."""
    faults = []
    for fault in game.faults or []:
        index = fault.get("index")
        event = fault.get("event")
        sentence = fault.get("owner_sentence" if index in owned else "sentence")
        replay = reverse("web:game-replay", kwargs={"pk": game.pk})
        faults.append(
            {
                "index": index,
                "seat": fault.get("seat"),
                "reason": fault.get("reason"),
                "turn": fault.get("turn"),
                "sentence": sentence or f"The bot faulted ({fault.get('reason')}).",
                "replay_url": f"{replay}#frame={event + 1}" if isinstance(event, int) else replay,
            }
        )
    return faults


def qualification_games_kept(*, version: Any) -> set[int]:
    """The numbers of a version's qualification games whose logs are kept (versions
    qualified before the logs were kept have none)."""
    return set(QualificationGame.objects.filter(version=version).values_list("number", flat=True))
