"""Playing a tournament's matches without a worker: through the real claim and
result-recording path of arena.matches.lifecycle, with scripted ranks."""

from __future__ import annotations

from collections.abc import Callable

from arena.matches import lifecycle
from arena.matches.models import Match
from tests.arena.factories import game_log_for


def record_match(match: Match, ranks_of: Callable[[list[int]], list[int]]) -> None:
    """Claim and record `match`; `ranks_of(bot ids by seat index)` gives each game's
    ranks by seat index."""
    token = lifecycle.worker_token()
    assert lifecycle.match_claim(match_id=match.pk, token=token) is not None
    bot_ids = list(match.seats.order_by("index").values_list("bot_id", flat=True))
    games = [game_log_for(ranks_by_index=ranks_of(bot_ids)) for _ in range(match.games_planned)]
    assert lifecycle.match_record_result(
        match_id=match.pk, token=token, games=games, backend="test"
    )


def fail_match(match: Match) -> None:
    token = lifecycle.worker_token()
    lifecycle.match_claim(match_id=match.pk, token=token)
    Match.objects.filter(pk=match.pk).update(attempts=99)
    assert (
        lifecycle.match_release(match_id=match.pk, token=token, error="docker is down") == "failed"
    )


def strongest_wins(strength: dict[int, int]) -> Callable[[list[int]], list[int]]:
    """Ranks in order of a fixed strength per bot id (higher is better)."""

    def ranks_of(bot_ids: list[int]) -> list[int]:
        order = sorted(bot_ids, key=lambda b: -strength[b])
        return [order.index(b) + 1 for b in bot_ids]

    return ranks_of
