"""factory_boy factories for the platform's models, shared by every app's tests.

A BotVersion made here has real stored code (a tiny bot that always draws), so it
can be played by the real runner. `ActiveBotVersionFactory` skips qualification.
"""

from __future__ import annotations

import hashlib

import factory
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.matches.defaults import KOREAN_RULESET
from arena.matches.logs import game_summary, log_compress
from arena.matches.models import Competition, Game, Match, MatchSeat
from arena.matches.selectors import match_seats_of
from arena.ratings.services import ratings_apply_match_games

# Draws every turn: legal forever, never faults, easy to beat.
DRAW_BOT_SOURCE = b"""import json, sys
for line in sys.stdin:
    message = json.loads(line)
    reply = {"action": "draw"} if message["type"] in ("turn",) else {}
    if message["type"] == "catch":
        reply = {"action": "pass"}
    print(json.dumps(reply), flush=True)
"""

KOREAN = KOREAN_RULESET  # the default competition's ruleset, every option spelled out


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("correct-horse-battery")


class StaffFactory(UserFactory):
    is_staff = True
    is_superuser = True


class BotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Bot

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"bot-{n}")
    description = ""


class BotVersionFactory(factory.django.DjangoModelFactory):
    """A pending version whose code is `source` (the always-draw bot by default)."""

    class Meta:
        model = BotVersion
        exclude = ("source",)

    bot = factory.SubFactory(BotFactory)
    number = factory.LazyAttribute(
        lambda o: (
            (o.bot.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        )
    )
    kind = BotVersion.Kind.PY
    source = DRAW_BOT_SOURCE
    sha256 = factory.LazyAttribute(lambda o: hashlib.sha256(o.source).hexdigest())
    size = factory.LazyAttribute(lambda o: len(o.source))
    original_filename = "main.py"
    code = factory.LazyAttribute(lambda o: ContentFile(o.source, name="main.py"))
    status = BotVersion.Status.PENDING


class ActiveBotVersionFactory(BotVersionFactory):
    status = BotVersion.Status.ACTIVE
    qualified_at = factory.LazyFunction(timezone.now)


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"competition-{n}")
    name = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())
    ruleset = factory.LazyFunction(lambda: dict(KOREAN))
    seats = 2
    games_per_match = 2
    # The Elo tests' ladders; the Plackett-Luce ones say so (the model's default).
    rating_system = "elo"


def default_competition() -> Competition:
    """The competition the data migration created (restored if a transactional
    test's flush removed it)."""
    from arena.matches.selectors import default_competition as selector

    return selector()


class MatchFactory(factory.django.DjangoModelFactory):
    """A queued match without seats; use `match_with_seats` for a playable one."""

    class Meta:
        model = Match

    kind = Match.Kind.LADDER
    competition = factory.LazyFunction(default_competition)
    rated = True
    ruleset = factory.LazyAttribute(lambda o: o.competition.ruleset if o.competition else KOREAN)
    games_planned = 2
    seed = factory.Sequence(lambda n: 1000 + n)


class MatchSeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MatchSeat

    match = factory.SubFactory(MatchFactory)
    index = factory.Sequence(lambda n: n)
    bot_version = factory.SubFactory(ActiveBotVersionFactory)
    bot = factory.LazyAttribute(lambda o: o.bot_version.bot)


def match_with_seats(versions: list[BotVersion] | None = None, **match_fields) -> Match:
    """A match (queued unless told otherwise) with one seat per version, in order."""
    versions = versions or [ActiveBotVersionFactory(), ActiveBotVersionFactory()]
    match = MatchFactory(**match_fields)
    for index, version in enumerate(versions):
        MatchSeatFactory(match=match, index=index, bot_version=version, bot=version.bot)
    return match


def game_log_for(*, ranks_by_index: list[int], seating: list[int] | None = None) -> dict:
    """A minimal log in REPLAY.md shape for a finished game (not replayable)."""
    players = len(ranks_by_index)
    seating = seating or list(range(players))
    ranks_by_seat = [ranks_by_index[index] for index in seating]
    winner_seat = ranks_by_seat.index(1) if 1 in ranks_by_seat else None
    return {
        "format": "onecard-replay/1",
        "ruleset": KOREAN,
        "players": players,
        "names": [f"seat{s}" for s in range(players)],
        "seed": 0,
        "deck": [],
        "events": [{"seat": 0, "kind": "draw", "count": 1, "cards": ["4C"]}],
        "result": {
            "winner": winner_seat,
            "ranks": ranks_by_seat,
            "hands": [[] for _ in range(players)],
            "adjudicated": False,
            "faults": [],
        },
        "seating": seating,
        "stderr": [[] for _ in range(players)],
        "debug": [],
    }


def played_log(*, players: int = 2, seed: int = 0, seating: list[int] | None = None) -> dict:
    """A real, replayable log of a game between in-process bots (random play),
    with the keys the sandbox adds: `seating`, `stderr` (empty), `timing`."""
    import random

    import engine

    def random_bot(rng: random.Random):
        def decide(message: dict) -> dict:
            if message["type"] == "turn":
                choice = rng.choice([*message["legal"], None])
                if choice is None:
                    return {"action": "draw"}
                return {"action": "play", "card": choice, "suit": "S", "call": True}
            if message["type"] == "catch":
                return {"action": "pass"}
            return {}

        return decide

    bots = [random_bot(random.Random(seed * 10 + s)) for s in range(players)]
    log = engine.play_game(bots, seed=seed)
    log["seating"] = seating or list(range(players))
    log["stderr"] = [[] for _ in range(players)]
    log["timing"] = [{} for _ in range(players)]
    return log


class GameFactory(factory.django.DjangoModelFactory):
    """A real game of a 2-seat match; its fields are derived from the played log."""

    class Meta:
        model = Game
        exclude = ("log", "summary")

    match = factory.SubFactory(MatchFactory)
    number = factory.Sequence(lambda n: n)
    log = factory.LazyAttribute(lambda o: played_log(seed=o.number))
    summary = factory.LazyAttribute(lambda o: game_summary(o.log))
    seating = factory.LazyAttribute(lambda o: o.summary.seating)
    ranks = factory.LazyAttribute(lambda o: o.summary.ranks)
    winner_index = factory.LazyAttribute(lambda o: o.summary.winner_index)
    turns = factory.LazyAttribute(lambda o: o.summary.turns)
    adjudicated = factory.LazyAttribute(lambda o: o.summary.adjudicated)
    log_compressed = factory.LazyAttribute(lambda o: log_compress(o.log))


def rate_game(game: Game) -> None:
    """Rate one recorded game through the entry point the result write calls."""
    ratings_apply_match_games(games=[game], seats=match_seats_of(match_id=game.match_id))
