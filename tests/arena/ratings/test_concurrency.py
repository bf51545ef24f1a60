"""Concurrent workers rating matches with common bots lose no update and never
deadlock, and the replay still reproduces what they stored."""

import threading

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction

from arena.ratings.locks import ratings_lock
from arena.ratings.models import Rating, RatingChange
from arena.ratings.sql import ratings_select_all_or_none_for_update
from tests.arena.factories import rate_game
from tests.support.worker import database_url

from .factories import ActiveBotVersionFactory, CompetitionFactory, finished_match

WORKERS = 6


def rate_in_own_transaction(match_id, barrier, errors):
    try:
        from arena.matches.models import Game

        barrier.wait(timeout=30)
        with transaction.atomic():
            # Seat order differs between matches (A,B vs B,A): only the fixed lock
            # order keeps this from deadlocking.
            for game in Game.objects.filter(match_id=match_id).order_by("number"):
                rate_game(game)
    except Exception as error:  # reported to the test thread
        errors.append(error)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_concurrent_rating_updates_lose_nothing_and_replay_exactly():
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency need PostgreSQL")
    competition = CompetitionFactory(seats=2)
    a, b, c = (ActiveBotVersionFactory() for _ in range(3))
    tables = [[a, b], [b, a], [b, c], [c, a], [a, c], [c, b]]
    matches = [
        finished_match(versions=t, game_ranks=[[1, 2], [2, 1], [1, 2]], competition=competition)
        for t in tables[:WORKERS]
    ]
    barrier = threading.Barrier(len(matches))
    errors = []
    threads = [
        threading.Thread(target=rate_in_own_transaction, args=(m.pk, barrier, errors))
        for m in matches
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    ratings = Rating.objects.filter(competition=competition)
    assert sorted(r.games for r in ratings) == [12, 12, 12]
    for rating in ratings:
        changes = list(RatingChange.objects.filter(rating=rating).order_by("id"))
        assert len(changes) == 12
        # A chain without gaps: no update read a stale rating.
        assert [ch.before for ch in changes[1:]] == [ch.after for ch in changes[:-1]]
        assert changes[-1].after == rating.elo
    call_command("recompute_ratings", "--check")


def locked_elsewhere(rating: Rating) -> bool:
    """Whether another session would have to wait for this Rating row's lock."""
    with psycopg.connect(database_url(connection.settings_dict), autocommit=True) as other:
        try:
            other.execute(
                "SELECT 1 FROM ratings_rating WHERE id = %s FOR UPDATE NOWAIT", [rating.pk]
            )
        except psycopg.errors.LockNotAvailable:
            return True
    return False


@pytest.mark.django_db(transaction=True)
def test_a_missing_rating_is_created_without_locking_out_of_bot_order():
    """A bot's first rated game beside a bot with a rating. Locking the existing row
    and then creating the missing one, of a lower bot id, would take the rows out
    of order (two workers recording such games deadlocked): the locking read takes
    none of them, and `ratings_lock` then takes both, in order."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    competition = CompetitionFactory(seats=2)
    newcomer, rated = sorted((ActiveBotVersionFactory() for _ in range(2)), key=lambda v: v.bot_id)
    existing = Rating.objects.create(competition=competition, bot_id=rated.bot_id)
    bot_ids = [newcomer.bot_id, rated.bot_id]
    with transaction.atomic():
        rows = ratings_select_all_or_none_for_update(competition_id=competition.pk, bot_ids=bot_ids)
        assert rows == []
        assert not locked_elsewhere(existing)
        locked = ratings_lock(competition_id=competition.pk, bot_ids=bot_ids)
        assert sorted(locked) == sorted(bot_ids)
        assert locked[rated.bot_id].pk == existing.pk
        assert locked_elsewhere(existing)
    assert Rating.objects.filter(competition=competition).count() == 2


@pytest.mark.django_db(transaction=True)
def test_existing_ratings_are_all_locked_by_the_locking_read():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    competition = CompetitionFactory(seats=2)
    ratings = [
        Rating.objects.create(competition=competition, bot_id=ActiveBotVersionFactory().bot_id)
        for _ in range(2)
    ]
    with transaction.atomic():
        rows = ratings_select_all_or_none_for_update(
            competition_id=competition.pk, bot_ids=[r.bot_id for r in ratings]
        )
        assert len(rows) == 2
        assert all(locked_elsewhere(rating) for rating in ratings)
