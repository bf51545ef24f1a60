"""Playing a tournament's matches without a worker: through the real claim and
result-recording path of arena.play, with scripted ranks."""

from __future__ import annotations

from collections.abc import Callable

from arena.matches.models import Match
from arena.play import leases
from arena.play.results import match_record_result
from tests.arena.factories import game_log_for


def record_match(match: Match, ranks_of: Callable[[list[int]], list[int]]) -> None:
    """Claim and record `match`; `ranks_of(bot ids by seat index)` gives each game's
    ranks by seat index."""
    claim = leases.match_claim(match_id=match.pk, token=leases.worker_token())
    assert claim is not None
    bot_ids = [seat.bot_id for seat in claim.seats]
    games = [game_log_for(ranks_by_index=ranks_of(bot_ids)) for _ in range(match.games_planned)]
    assert match_record_result(claim=claim, games=games, backend="test")


def fail_match(match: Match) -> None:
    """Fail `match` for good: it cannot be played (as when a seated bot was deleted)."""
    claim = leases.match_claim(match_id=match.pk, token=leases.worker_token())
    assert leases.match_fail_claimed(claim=claim, reason="Not played: a bot was deleted.")


def lose_match(match: Match) -> None:
    """The infrastructure loses `match` at its last attempt (its tournament plays the
    table again later)."""
    claim = leases.match_claim(match_id=match.pk, token=leases.worker_token())
    Match.objects.filter(pk=match.pk).update(attempts=99)
    assert leases.match_release(claim=claim, error="docker is down") == "failed"


def strongest_wins(strength: dict[int, int]) -> Callable[[list[int]], list[int]]:
    """Ranks in order of a fixed strength per bot id (higher is better)."""

    def ranks_of(bot_ids: list[int]) -> list[int]:
        order = sorted(bot_ids, key=lambda b: -strength[b])
        return [order.index(b) + 1 for b in bot_ids]

    return ranks_of
