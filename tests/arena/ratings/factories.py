"""Factories for the ratings and tournaments tests (P2's own, independent of the
shared tests/arena/factories.py so that these tests do not wait on it)."""

from __future__ import annotations

import hashlib
import zlib

import factory
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Competition, Game, Match, MatchSeat

BOT_SOURCE = b"import sys\nfor line in sys.stdin:\n    print('{}', flush=True)\n"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("a-long-test-password")


class BotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Bot

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"bot{n}")


class BotVersionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BotVersion

    bot = factory.SubFactory(BotFactory)
    number = factory.Sequence(lambda n: n + 1)
    kind = BotVersion.Kind.PY
    sha256 = hashlib.sha256(BOT_SOURCE).hexdigest()
    size = len(BOT_SOURCE)
    status = BotVersion.Status.ACTIVE
    code = factory.LazyFunction(lambda: ContentFile(BOT_SOURCE, name="main.py"))


def active_bot(**kwargs) -> Bot:
    """A bot with one active version."""
    return BotVersionFactory(bot=BotFactory(**kwargs)).bot


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition

    slug = factory.Sequence(lambda n: f"competition-{n}")
    name = factory.Sequence(lambda n: f"Competition {n}")
    ruleset = factory.LazyFunction(lambda: {"name": "korean"})
    seats = 2


def finished_match(
    *,
    versions: list[BotVersion],
    game_ranks: list[list[int]],
    competition: Competition | None = None,
    tournament=None,
    rated: bool = True,
    state: str = Match.State.DONE,
) -> Match:
    """A match already played: its seats and one Game per entry of `game_ranks`
    (ranks by seat index), with the per-seat totals filled in."""
    kind = Match.Kind.TOURNAMENT if tournament is not None else Match.Kind.LADDER
    match = Match.objects.create(
        kind=kind,
        competition=competition,
        tournament=tournament,
        rated=rated,
        ruleset={"name": "korean"},
        games_planned=len(game_ranks),
        seed=7,
        state=state,
    )
    seats = [
        MatchSeat.objects.create(match=match, index=i, bot=v.bot, bot_version=v)
        for i, v in enumerate(versions)
    ]
    for number, ranks in enumerate(game_ranks):
        winner = ranks.index(1) if ranks.count(1) == 1 else None
        Game.objects.create(
            match=match,
            number=number,
            seating=list(range(len(versions))),
            ranks=ranks,
            winner_index=winner,
            turns=10,
            log_compressed=zlib.compress(b"{}"),
        )
        for seat in seats:
            seat.games += 1
            seat.rank_sum += ranks[seat.index]
            seat.wins += 1 if ranks[seat.index] == 1 else 0
    for seat in seats:
        seat.save()
    return match
