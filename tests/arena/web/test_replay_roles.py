"""The replay viewer tells each card by its role under the game's ruleset: a pesten
game's 8 skips and its J is wild, a korean game's J skips and its 8 does nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

import engine
from arena.matches.logs import game_summary, log_compress
from arena.matches.models import Game, Match
from bots_examples import builtin_bots
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, match_with_seats

pytestmark = pytest.mark.django_db


def stored_game(*, ruleset: str, seed: int) -> Game:
    """A game of example bots under ``ruleset``, stored as the worker stores one."""
    factories = builtin_bots()
    names = [f"{ruleset}-greedy", f"{ruleset}-heuristic"]
    log = engine.play_game(
        [factories["greedy"](seed), factories["heuristic"](seed + 1)],
        seed=seed,
        ruleset=ruleset,
        names=names,
    )
    log["seating"] = [0, 1]
    log["stderr"] = [[], []]
    versions = [ActiveBotVersionFactory(bot=BotFactory(name=name)) for name in names]
    match = match_with_seats(
        versions,
        kind=Match.Kind.CHALLENGE,
        competition=None,
        rated=False,
        state="done",
        ruleset=engine.PRESETS[ruleset].to_dict(),
    )
    summary = game_summary(log)
    return Game.objects.create(
        match=match,
        number=0,
        seating=log["seating"],
        ranks=summary.ranks,
        winner_index=summary.winner_index,
        turns=summary.turns,
        adjudicated=summary.adjudicated,
        faults=summary.faults,
        log_compressed=log_compress(log),
    )


def plays_of(data: dict, rank: str) -> list[str | None]:
    """The effect the viewer gives each play of a card of ``rank`` (the game must
    have some)."""
    effects = [
        effect
        for frame, effect in zip(data["frames"], data["effects"], strict=True)
        if frame["event"]
        and frame["event"]["kind"] == "play"
        and frame["event"].get("card", "")[:1] == rank
    ]
    assert effects, f"no {rank} was played"
    return effects


def replay_data(client, game: Game) -> dict:
    response = client.get(reverse("web:game-replay", args=[game.pk]))
    assert response.status_code == 200
    return response.context["replay_data"]


def test_a_pesten_replay_tells_cards_by_their_pesten_roles(client):
    data = replay_data(client, stored_game(ruleset="pesten", seed=2))
    assert data["ruleset_name"] == "pesten"
    legend = {row["what"]: row["cards"] for row in data["legend"]}
    assert legend["wild (always playable, names a suit)"] == "J"
    assert legend["skip (the next player loses a turn)"] == "8"
    assert legend["shield (cancels an attack)"] == "none"
    assert legend["attack"] == "2 = 2, BJ = 5, CJ = 5"
    assert set(plays_of(data, "8")) == {"skips the next player"}
    assert set(plays_of(data, "J")) == {"wild"}
    assert set(plays_of(data, "K")) == {None}
    assert len(data["effects"]) == len(data["frames"])


def test_a_korean_replay_tells_the_same_ranks_by_their_korean_roles(client):
    data = replay_data(client, stored_game(ruleset="korean", seed=2))
    assert set(plays_of(data, "J")) == {"skips the next player"}
    assert set(plays_of(data, "8")) == {None}
    html = client.get(reverse("web:game-replay", args=[Game.objects.get().pk])).content.decode()
    assert "What the cards do (korean)" in html
    assert "wild (always playable, names a suit): <strong>7</strong>" in html
